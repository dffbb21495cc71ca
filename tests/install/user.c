/* user.c: a program built as a user of the installed libfhsum builds
 * one, through pkg-config and <fhsum.h> alone (tests/install/install.sh).
 *
 *   user ALGO LENGTH...   for each LENGTH, "LENGTH HEX": the digest of the
 *                         pattern of tests/vectors (byte i is i % 251),
 *                         all LENGTHs in one fh_hash_many call; each is
 *                         also hashed with fh_init/fh_update/fh_final, in
 *                         pieces, and fh_hash, and any disagreement fails
 *   user --pattern LENGTH the pattern itself, on stdout
 *   user --version        FHSUM_VERSION and fh_version_string()
 *
 * The script compares what it prints with tests/vectors; exit 1 on a
 * disagreement inside, 2 on a bad argument.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fhsum.h>

#define MAX_LENGTHS 256
#define MAX_LENGTH 100000

static uint8_t pattern[MAX_LENGTH];

static int usage(void)
{
	fprintf(stderr, "usage: user ALGO LENGTH... | --pattern LENGTH | --version\n");
	return 2;
}

static long length_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= 0 && v <= MAX_LENGTH ? v : -1;
}

int main(int argc, char **argv)
{
	static uint8_t many[MAX_LENGTHS * FH_MAX_DIGEST];
	const void *data[MAX_LENGTHS];
	size_t len[MAX_LENGTHS], n = 0;
	const struct fh_algo *a;

	for (size_t i = 0; i < MAX_LENGTH; i++)
		pattern[i] = (uint8_t)(i % 251);
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", FHSUM_VERSION, fh_version_string());
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--pattern") == 0) {
		long l = length_arg(argv[2]);

		if (l < 0)
			return usage();
		return fwrite(pattern, 1, (size_t)l, stdout) == (size_t)l ? 0 : 1;
	}
	if (argc < 2 || argc - 2 > MAX_LENGTHS || !(a = fh_algo_by_name(argv[1])))
		return usage();
	for (int i = 2; i < argc; i++, n++) {
		long l = length_arg(argv[i]);

		if (l < 0)
			return usage();
		data[n] = pattern;
		len[n] = (size_t)l;
	}
	fprintf(stderr, "libfhsum %s, %s: %s, %s\n", fh_version_string(), a->name,
		fh_kernel_name(a, false),
		fh_kernel_name(a, true) ? fh_kernel_name(a, true) : "no multi-buffer kernel");

	fh_hash_many(a, n, data, len, many, a->digest_bytes);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *d = many + i * a->digest_bytes;
		uint8_t one[FH_MAX_DIGEST], split[FH_MAX_DIGEST];
		char hex[2 * FH_MAX_DIGEST + 1];
		fh_ctx ctx;

		fh_hash(a, pattern, len[i], one, a->digest_bytes);
		fh_init(&ctx, a);
		for (size_t at = 0, step = 1; at < len[i]; at += step, step += 7)
			fh_update(&ctx, pattern + at,
				  step < len[i] - at ? step : len[i] - at);
		fh_final(&ctx, split, a->digest_bytes);
		fh_hex(hex, d, a->digest_bytes);
		if (memcmp(d, one, a->digest_bytes) ||
		    memcmp(d, split, a->digest_bytes)) {
			fprintf(stderr, "user: %s of %zu bytes: fh_hash_many, "
				"fh_hash and fh_update disagree\n", a->name, len[i]);
			return 1;
		}
		printf("%zu %s\n", len[i], hex);
	}
	return 0;
}
