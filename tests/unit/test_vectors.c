/* test_vectors.c: every expected digest in tests/vectors through the public API.
 *
 * Reads each <algo>.len, <xof>.xof, kt*.tree, kat.txt, rfc9861.txt and
 * SHAVS <sha>.short and <sha>.long line and hashes its message with
 * fh_hash (the best kernel) and then with fh_init_kernel on every kernel
 * of the algorithm's family that this CPU runs (for KT128/KT256 the
 * multi-buffer kernels too, which hash the leaves), so a kernel the
 * dispatcher would not pick is still checked against published and
 * independent values.  The SHAVS Monte Carlo tests (<sha>.mct) run their
 * 100,000-hash chains the same way, on the best kernel and on each one.
 * Usage: test_vectors VECTORS_DIR.  Exit 0 all match, 1 any mismatch or
 * unreadable vector file.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The files come from the table of algorithms (lib/algo.h), so an
 * algorithm without its vectors fails here: <name>.len for every one,
 * <name>.xof for every XOF, <name>.tree for the trees (KT's chunk-count
 * edges, in the .xof format), and NIST SHAVS's .short, .long and .mct
 * where tests/vectors has them (SHA-1 and SHA-2: at least SHAVS_MIN). */
#define SHAVS_MIN 5

/* SHAVS ShortMsg has every length 0..block bytes; the .long files keep 33
 * LongMsg messages (tests/vectors/README); the Monte Carlo test has 100
 * checkpoints of 1000 hashes (SHAVS 6.4).  Fewer lines means a truncated
 * file. */
#define SHAVS_LONG_LINES 33
#define SHAVS_MCT_CHECKPOINTS 100
#define SHAVS_MCT_ITERATIONS 1000

/* A .len file must reach past the largest rate several times over; fewer
 * lines means a truncated file, which would quietly shrink the test. */
#define MIN_LEN_LINES 1101

static unsigned long n_vectors, n_hashes, n_failed;

static void report(const struct tu_lines *l, const struct fh_algo *algo,
		   const char *kernel, size_t msglen, const uint8_t *want,
		   const uint8_t *got, size_t outlen)
{
	n_failed++;
	printf("FAIL %s:%u %s len=%zu outbits=%zu kernel=%s\n  expected ",
	       l->path, l->lineno, algo->name, msglen, outlen * 8, kernel);
	tu_print_hex(stdout, want, outlen);
	printf("\n  got      ");
	tu_print_hex(stdout, got, outlen);
	printf("\n");
}

/* One hash of MSG || CUSTOM (KT's customization string; empty for the
 * others) on kernel K (NULL: fh_init's choice), OUTLEN bytes into OUT. */
static void hash_custom(const struct fh_algo *algo, const struct fh_kernel *k,
			const uint8_t *msg, size_t msglen, const uint8_t *custom,
			size_t customlen, uint8_t *out, size_t outlen)
{
	fh_ctx ctx;

	if (k)
		fh_init_params(&ctx, algo, k,
			       &(struct fh_hash_params){ .outlen = outlen });
	else
		fh_init_len(&ctx, algo, outlen);
	fh_update(&ctx, msg, msglen);
	fh_final_custom(&ctx, custom, customlen, out, outlen);
}

/* Hashes MSG (and CUSTOM) with the best kernel and with every usable
 * kernel of the family, comparing the last WANTLEN bytes of OUTLEN with
 * WANT. */
static void check_custom(const struct tu_lines *l, const struct fh_algo *algo,
			 const uint8_t *msg, size_t msglen,
			 const uint8_t *custom, size_t customlen,
			 const uint8_t *want, size_t wantlen, size_t outlen)
{
	uint8_t *got = malloc(outlen);
	const uint8_t *tail = got + (outlen - wantlen);
	if (!got)
		abort();

	n_vectors++;
	if (customlen)
		hash_custom(algo, NULL, msg, msglen, custom, customlen, got,
			    outlen);
	else
		fh_hash(algo, msg, msglen, got, outlen);
	n_hashes++;
	if (memcmp(tail, want, wantlen))
		report(l, algo, "best", msglen, want, tail, wantlen);

	const struct fh_kernel *k;
	for (size_t i = 0; (k = fh_kernel_at(i)); i++) {
		if (k->family != algo->family || !fh_kernel_usable(k) ||
		    (!tu_kernel_single_stream(k) && !algo->cv_bytes))
			continue;
		memset(got, 0, outlen);
		hash_custom(algo, k, msg, msglen, custom, customlen, got,
			    outlen);
		n_hashes++;
		if (memcmp(tail, want, wantlen))
			report(l, algo, k->name, msglen, want, tail, wantlen);
	}
	free(got);
}

static void check(const struct tu_lines *l, const struct fh_algo *algo,
		  const uint8_t *msg, size_t msglen, const uint8_t *want,
		  size_t outlen)
{
	check_custom(l, algo, msg, msglen, NULL, 0, want, outlen, outlen);
}

static int malformed(const struct tu_lines *l, const char *why)
{
	printf("FAIL %s:%u: %s\n", l->path, l->lineno, why);
	n_failed++;
	return -1;
}

/* The output length a line's hex stands for, checked against the algorithm:
 * fixed-length algorithms have exactly one, SHAKE any up to the API limit. */
static int outlen_ok(const struct tu_lines *l, const struct fh_algo *algo,
		     size_t outlen)
{
	if (outlen == 0)
		return malformed(l, "empty digest");
	if (!algo->xof && outlen != algo->digest_bytes)
		return malformed(l, "digest length differs from the algorithm's");
	if (algo->xof && outlen > FH_MAX_XOF_BYTES)
		return malformed(l, "output longer than FH_MAX_XOF_BYTES");
	return 0;
}

static uint8_t *pattern_of(size_t len)
{
	uint8_t *p = malloc(len ? len : 1);
	if (!p)
		abort();
	tu_fill_pattern(p, len);
	return p;
}

static int run_len_file(const char *dir, const char *name)
{
	const struct fh_algo *algo = fh_algo_by_name(name);
	struct tu_lines l;
	char fname[64];
	unsigned long lines = 0;

	if (!algo) {
		printf("FAIL fh_algo_by_name(\"%s\") returned NULL\n", name);
		n_failed++;
		return -1;
	}
	snprintf(fname, sizeof fname, "%s.len", name);
	if (tu_lines_open(&l, dir, fname)) {
		n_failed++;
		return -1;
	}
	for (char *line; (line = tu_next_line(&l));) {
		char *end;
		unsigned long len = strtoul(line, &end, 10);
		if (end == line || *end != ' ') {
			malformed(&l, "want LENGTH HEX");
			break;
		}
		const char *hex = end + 1;
		size_t outlen = strlen(hex) / 2;
		uint8_t *want = malloc(outlen + 1);
		if (!want)
			abort();
		if (tu_unhex(want, hex, strlen(hex))) {
			free(want);
			malformed(&l, "bad hex");
			break;
		}
		if (outlen_ok(&l, algo, outlen)) {
			free(want);
			break;
		}
		uint8_t *msg = pattern_of(len);
		check(&l, algo, msg, len, want, outlen);
		free(msg);
		free(want);
		lines++;
	}
	if (lines < MIN_LEN_LINES) {
		printf("FAIL %s: %lu vectors, expected at least %d\n", l.path,
		       lines, MIN_LEN_LINES);
		n_failed++;
	}
	tu_lines_close(&l);
	return 0;
}

static int run_xof_file(const char *dir, const char *name, const char *ext)
{
	const struct fh_algo *algo = fh_algo_by_name(name);
	struct tu_lines l;
	char fname[64];

	if (!algo || !algo->xof) {
		printf("FAIL fh_algo_by_name(\"%s\") is not an XOF\n", name);
		n_failed++;
		return -1;
	}
	snprintf(fname, sizeof fname, "%s.%s", name, ext);
	if (tu_lines_open(&l, dir, fname)) {
		n_failed++;
		return -1;
	}
	for (char *line; (line = tu_next_line(&l));) {
		unsigned long len, bits;
		int hexpos = 0;
		if (sscanf(line, "%lu %lu %n", &len, &bits, &hexpos) != 2 ||
		    hexpos == 0 || bits % 8) {
			malformed(&l, "want MSGLEN OUTBITS HEX");
			break;
		}
		const char *hex = line + hexpos;
		size_t outlen = bits / 8;
		uint8_t *want = malloc(outlen + 1);
		if (!want)
			abort();
		if (strlen(hex) != 2 * outlen || tu_unhex(want, hex, 2 * outlen)) {
			free(want);
			malformed(&l, "hex does not match OUTBITS");
			break;
		}
		if (outlen_ok(&l, algo, outlen)) {
			free(want);
			break;
		}
		uint8_t *msg = pattern_of(len);
		check(&l, algo, msg, len, want, outlen);
		free(msg);
		free(want);
	}
	tu_lines_close(&l);
	return 0;
}

/* Decodes TEXT with \xHH escapes into OUT (which has room for strlen(TEXT)
 * bytes); returns the byte count or -1. */
static long unescape(uint8_t *out, const char *text, size_t textlen)
{
	size_t n = 0;
	for (size_t i = 0; i < textlen;) {
		if (text[i] == '\\') {
			if (i + 4 > textlen || text[i + 1] != 'x' ||
			    tu_unhex(out + n, text + i + 2, 2))
				return -1;
			i += 4;
		} else {
			out[n] = (uint8_t)text[i++];
		}
		n++;
	}
	return (long)n;
}

/* Builds the message a kat.txt MESSAGE spec names; NULL when malformed. */
static uint8_t *kat_message(const char *spec, size_t *len)
{
	uint8_t *msg = NULL;
	if (!strncmp(spec, "str:", 4)) {
		size_t tl = strlen(spec + 4);
		msg = malloc(tl + 1);
		long n = msg ? unescape(msg, spec + 4, tl) : -1;
		if (n < 0)
			goto bad;
		*len = (size_t)n;
	} else if (!strncmp(spec, "hex:", 4)) {
		size_t hl = strlen(spec + 4);
		msg = malloc(hl / 2 + 1);
		if (!msg || tu_unhex(msg, spec + 4, hl))
			goto bad;
		*len = hl / 2;
	} else if (!strncmp(spec, "ptn:", 4)) {
		/* RFC 9861's ptn(n): 00 01 .. FA repeated, the .len pattern */
		char *end;
		unsigned long n = strtoul(spec + 4, &end, 10);
		if (*end || end == spec + 4 || n > 100000000ul)
			return NULL;
		*len = n;
		msg = pattern_of(n);
	} else if (!strncmp(spec, "rep:", 4)) {
		const char *text = spec + 4;
		const char *colon = strrchr(text, ':');
		char *end;
		if (!colon)
			return NULL;
		unsigned long count = strtoul(colon + 1, &end, 10);
		if (*end || end == colon + 1 || count > 100000000ul)
			return NULL;
		size_t tl = (size_t)(colon - text);
		uint8_t unit[256];
		long ul = tl <= sizeof unit ? unescape(unit, text, tl) : -1;
		if (ul < 0)
			return NULL;
		*len = (size_t)ul * count;
		msg = malloc(*len ? *len : 1);
		if (!msg)
			abort();
		for (unsigned long i = 0; i < count; i++)
			memcpy(msg + i * (size_t)ul, unit, (size_t)ul);
	}
	return msg;
bad:
	free(msg);
	return NULL;
}

/* BLAKE3's official vectors (blake3.kat): the three modes through the
 * public API (fh_init, fh_init_keyed, fh_init_derive_key), each output
 * of 131 bytes, the message given whole and in pieces of 1, 63, 1025,
 * 1024 and 4096 bytes, so that every split of the tree is met (whole
 * chunks: subtrees whose halves wait on the stack for the next piece). */
static int run_blake3_kat(const char *dir)
{
	static const char key[] = "whats the Elvish word for friend";
	static const char context[] = "BLAKE3 2019-12-27 16:29:52 test vectors context";
	const struct fh_algo *algo = fh_algo_get(FH_BLAKE3);
	struct tu_lines l;
	unsigned long lines = 0;

	if (tu_lines_open(&l, dir, "blake3.kat")) {
		n_failed++;
		return -1;
	}
	for (char *line; (line = tu_next_line(&l));) {
		unsigned long len;
		char mode[16];
		int hexpos = 0;
		uint8_t want[131], got[131];

		if (sscanf(line, "%lu %15s %n", &len, mode, &hexpos) != 2 || !hexpos ||
		    strlen(line + hexpos) != 2 * sizeof want ||
		    tu_unhex(want, line + hexpos, 2 * sizeof want)) {
			malformed(&l, "want MSGLEN MODE HEX (131 bytes)");
			break;
		}
		uint8_t *msg = pattern_of(len);
		static const size_t steps[] = { 0, 1, 63, 1025, 1024, 4096 };

		for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
			fh_ctx ctx;
			bool ok = true;

			if (!strcmp(mode, "hash"))
				fh_init(&ctx, algo);
			else if (!strcmp(mode, "keyed_hash"))
				ok = fh_init_keyed(&ctx, algo, key, 32, sizeof want);
			else if (!strcmp(mode, "derive_key"))
				ok = fh_init_derive_key(&ctx, algo, context, strlen(context));
			else
				ok = false;
			if (!ok) {
				malformed(&l, "unknown mode, or refused");
				break;
			}
			size_t step = steps[s] ? steps[s] : len;

			for (size_t at = 0; at < len; at += step)
				fh_update(&ctx, msg + at, len - at < step ? len - at : step);
			fh_final(&ctx, got, sizeof got);
			n_vectors++;
			n_hashes++;
			if (memcmp(want, got, sizeof want))
				report(&l, algo, mode, len, want, got, sizeof want);
		}
		free(msg);
		lines++;
	}
	if (lines < 100) {
		printf("FAIL %s: %lu vectors, expected 105\n", l.path, lines);
		n_failed++;
	}
	tu_lines_close(&l);
	/* What the API refuses: a key of another length, keys for SHA-256. */
	fh_ctx ctx;

	if (fh_init_keyed(&ctx, algo, key, 31, 32) ||
	    fh_init_keyed(&ctx, fh_algo_get(FH_SHA256), key, 32, 32) ||
	    fh_init_derive_key(&ctx, fh_algo_get(FH_BLAKE2B), context, 3) ||
	    !fh_init_keyed(&ctx, fh_algo_get(FH_BLAKE2B), key, 32, 64)) {
		printf("FAIL fh_init_keyed or fh_init_derive_key: a wrong answer "
		       "for a key of the wrong length or algorithm\n");
		n_failed++;
	}
	return 0;
}

static int run_kat(const char *dir)
{
	struct tu_lines l;
	unsigned long count = 0;

	if (tu_lines_open(&l, dir, "kat.txt")) {
		n_failed++;
		return -1;
	}
	for (char *line; (line = tu_next_line(&l));) {
		char algo_name[32], spec[512], hex[2100];
		unsigned long bits;
		if (sscanf(line, "%31s %lu %511s %2099s", algo_name, &bits, spec,
			   hex) != 4 || bits % 8) {
			malformed(&l, "want ALGO OUTBITS MESSAGE HEX");
			continue;
		}
		const struct fh_algo *algo = fh_algo_by_name(algo_name);
		if (!algo) {
			malformed(&l, "unknown algorithm");
			continue;
		}
		size_t outlen = bits / 8, msglen = 0;
		uint8_t *want = malloc(outlen + 1);
		if (!want)
			abort();
		if (strlen(hex) != 2 * outlen || tu_unhex(want, hex, 2 * outlen)) {
			free(want);
			malformed(&l, "hex does not match OUTBITS");
			continue;
		}
		if (outlen_ok(&l, algo, outlen)) {
			free(want);
			continue;
		}
		uint8_t *msg = kat_message(spec, &msglen);
		if (!msg) {
			free(want);
			malformed(&l, "bad MESSAGE spec");
			continue;
		}
		check(&l, algo, msg, msglen, want, outlen);
		free(msg);
		free(want);
		count++;
	}
	/* RFC 1321's seven plus four messages for each of the six Keccak
	 * algorithms: fewer means lines went missing. */
	if (count < 31) {
		printf("FAIL %s: only %lu known answers\n", l.path, count);
		n_failed++;
	}
	tu_lines_close(&l);
	return 0;
}

/* rfc9861.txt: ALGO OUTBYTES MESSAGE CUSTOM HEX, HEX the output's last
 * bytes. */
static int run_rfc9861(const char *dir)
{
	struct tu_lines l;
	unsigned long count = 0;

	if (tu_lines_open(&l, dir, "rfc9861.txt")) {
		n_failed++;
		return -1;
	}
	for (char *line; (line = tu_next_line(&l));) {
		char algo_name[32], mspec[64], cspec[64], hex[300];
		unsigned long outlen;
		if (sscanf(line, "%31s %lu %63s %63s %299s", algo_name, &outlen,
			   mspec, cspec, hex) != 5) {
			malformed(&l, "want ALGO OUTBYTES MESSAGE CUSTOM HEX");
			continue;
		}
		const struct fh_algo *algo = fh_algo_by_name(algo_name);
		size_t wantlen = strlen(hex) / 2, msglen = 0, clen = 0;
		uint8_t want[150];
		if (!algo || !algo->xof) {
			malformed(&l, "not an XOF");
			continue;
		}
		if (wantlen > outlen || tu_unhex(want, hex, strlen(hex)) ||
		    outlen_ok(&l, algo, outlen)) {
			malformed(&l, "bad HEX or OUTBYTES");
			continue;
		}
		uint8_t *msg = kat_message(mspec, &msglen);
		uint8_t *custom = kat_message(cspec, &clen);
		if (!msg || !custom || (clen && !algo->cv_bytes)) {
			free(msg);
			free(custom);
			malformed(&l, "bad MESSAGE or CUSTOM spec");
			continue;
		}
		check_custom(&l, algo, msg, msglen, custom, clen, want, wantlen,
			     outlen);
		free(msg);
		free(custom);
		count++;
	}
	/* RFC 9861 §5 has 19 TurboSHAKE vectors with D = 1F and 36 KT ones. */
	if (count < 55) {
		printf("FAIL %s: only %lu RFC 9861 vectors\n", l.path, count);
		n_failed++;
	}
	tu_lines_close(&l);
	return 0;
}

/* A SHAVS .short or .long file: MSGLEN MSGHEX MD, MSGHEX "-" when empty. */
static int run_msg_file(const char *dir, const char *name, const char *ext,
			unsigned long min_lines)
{
	const struct fh_algo *algo = fh_algo_by_name(name);
	struct tu_lines l;
	char fname[64];
	unsigned long lines = 0;

	if (!algo || algo->xof) {
		printf("FAIL fh_algo_by_name(\"%s\") is not a fixed-length "
		       "algorithm\n", name);
		n_failed++;
		return -1;
	}
	snprintf(fname, sizeof fname, "%s.%s", name, ext);
	if (tu_lines_open(&l, dir, fname)) {
		n_failed++;
		return -1;
	}
	for (char *line; (line = tu_next_line(&l));) {
		char *end;
		unsigned long len = strtoul(line, &end, 10);
		char *msghex = end + 1;
		char *sp = *end == ' ' ? strchr(msghex, ' ') : NULL;
		if (end == line || !sp) {
			malformed(&l, "want MSGLEN MSGHEX MD");
			break;
		}
		*sp = '\0';
		const char *hex = sp + 1;
		size_t msghexlen = strcmp(msghex, "-") ? strlen(msghex) : 0;
		size_t outlen = strlen(hex) / 2;
		uint8_t *msg = malloc(len ? len : 1);
		uint8_t *want = malloc(outlen + 1);
		if (!msg || !want)
			abort();
		if (msghexlen != 2 * len || tu_unhex(msg, msghex, msghexlen) ||
		    tu_unhex(want, hex, strlen(hex))) {
			malformed(&l, "bad hex, or MSGHEX not MSGLEN bytes");
		} else if (!outlen_ok(&l, algo, outlen)) {
			check(&l, algo, msg, len, want, outlen);
			lines++;
		}
		free(msg);
		free(want);
	}
	if (lines < min_lines) {
		printf("FAIL %s: %lu vectors, expected at least %lu\n", l.path,
		       lines, min_lines);
		n_failed++;
	}
	tu_lines_close(&l);
	return 0;
}

/* One SHAVS Monte Carlo chain on kernel K (NULL: fh_hash's choice): from
 * SEED, CHECKPOINTS times 1000 hashes of the last three digests, each
 * checkpoint compared with WANT.  Stops at the first wrong checkpoint,
 * since every later one depends on it. */
static void run_mct_chain(const struct tu_lines *l, const struct fh_algo *algo,
			  const struct fh_kernel *k, const uint8_t *seed,
			  const uint8_t *want, unsigned checkpoints)
{
	const size_t d = algo->digest_bytes;
	uint8_t m[3 * FH_MAX_DIGEST], md[FH_MAX_DIGEST];

	memcpy(md, seed, d);
	for (unsigned j = 0; j < checkpoints; j++) {
		/* MD0 = MD1 = MD2 = seed; M holds MD(i-3) || MD(i-2) || MD(i-1). */
		for (int p = 0; p < 3; p++)
			memcpy(m + p * d, md, d);
		for (unsigned i = 0; i < SHAVS_MCT_ITERATIONS; i++) {
			if (k)
				hash_custom(algo, k, m, 3 * d, NULL, 0, md, d);
			else
				fh_hash(algo, m, 3 * d, md, d);
			memmove(m, m + d, 2 * d);
			memcpy(m + 2 * d, md, d);
		}
		n_hashes += SHAVS_MCT_ITERATIONS;
		if (memcmp(md, want + j * d, d)) {
			n_failed++;
			printf("FAIL %s %s Monte Carlo checkpoint %u kernel=%s\n"
			       "  expected ", l->path, algo->name, j,
			       k ? k->name : "best");
			tu_print_hex(stdout, want + j * d, d);
			printf("\n  got      ");
			tu_print_hex(stdout, md, d);
			printf("\n");
			return;
		}
	}
}

/* A SHAVS .mct file: "seed HEX", then "COUNT MD" for COUNT 0..99. */
static int run_mct_file(const char *dir, const char *name)
{
	const struct fh_algo *algo = fh_algo_by_name(name);
	struct tu_lines l;
	char fname[64];
	uint8_t seed[FH_MAX_DIGEST];
	uint8_t want[SHAVS_MCT_CHECKPOINTS * FH_MAX_DIGEST];
	unsigned count = 0;
	int have_seed = 0;

	if (!algo || algo->xof) {
		printf("FAIL fh_algo_by_name(\"%s\") is not a fixed-length "
		       "algorithm\n", name);
		n_failed++;
		return -1;
	}
	const size_t d = algo->digest_bytes;
	snprintf(fname, sizeof fname, "%s.mct", name);
	if (tu_lines_open(&l, dir, fname)) {
		n_failed++;
		return -1;
	}
	for (char *line; (line = tu_next_line(&l));) {
		char key[16], hex[2 * FH_MAX_DIGEST + 2];
		if (sscanf(line, "%15s %129s", key, hex) != 2 ||
		    strlen(hex) != 2 * d) {
			malformed(&l, "want seed HEX or COUNT HEX, HEX a digest");
			break;
		}
		if (!have_seed) {
			if (strcmp(key, "seed") || tu_unhex(seed, hex, 2 * d)) {
				malformed(&l, "want seed HEX first");
				break;
			}
			have_seed = 1;
			continue;
		}
		char *end;
		unsigned long c = strtoul(key, &end, 10);
		if (*end || c != count || count >= SHAVS_MCT_CHECKPOINTS ||
		    tu_unhex(want + count * d, hex, 2 * d)) {
			malformed(&l, "want COUNT HEX, COUNT 0..99 in order");
			break;
		}
		count++;
	}
	if (count != SHAVS_MCT_CHECKPOINTS) {
		printf("FAIL %s: %u Monte Carlo checkpoints, expected %d\n",
		       l.path, count, SHAVS_MCT_CHECKPOINTS);
		n_failed++;
	} else {
		n_vectors += count;
		run_mct_chain(&l, algo, NULL, seed, want, count);
		const struct fh_kernel *k;
		for (size_t i = 0; (k = fh_kernel_at(i)); i++)
			if (k->family == algo->family && fh_kernel_usable(k) &&
			    tu_kernel_single_stream(k))
				run_mct_chain(&l, algo, k, seed, want, count);
	}
	tu_lines_close(&l);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s VECTORS_DIR\n", argv[0]);
		return 2;
	}
	const char *dir = argv[1];
	/* Keep what was printed if a kernel crashes the process. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	const struct fh_algo *a;

	for (int id = 0; (a = fh_algo_get((enum fh_algo_id)id)); id++)
		run_len_file(dir, a->name);
	for (int id = 0; (a = fh_algo_get((enum fh_algo_id)id)); id++)
		if (a->xof)
			run_xof_file(dir, a->name, "xof");
	for (int id = 0; (a = fh_algo_get((enum fh_algo_id)id)); id++)
		if (a->cv_bytes)
			run_xof_file(dir, a->name, "tree");
	run_kat(dir);
	run_rfc9861(dir);
	run_blake3_kat(dir);
	unsigned shavs = 0;

	for (int id = 0; (a = fh_algo_get((enum fh_algo_id)id)); id++) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof path, "%s/%s.short", dir, a->name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		fclose(f);
		shavs++;
		run_msg_file(dir, a->name, "short", a->block_bytes + 1ul);
		run_msg_file(dir, a->name, "long", SHAVS_LONG_LINES);
		run_mct_file(dir, a->name);
	}
	if (shavs < SHAVS_MIN) {
		printf("FAIL %s: SHAVS files for %u algorithms, not %d\n", dir,
		       shavs, SHAVS_MIN);
		n_failed++;
	}

	const struct fh_kernel *k;
	printf("kernels:");
	for (size_t i = 0; (k = fh_kernel_at(i)); i++)
		printf(" %s%s", k->name, fh_kernel_usable(k) ? "" : "(skipped)");
	printf("\nchecked %lu vectors with %lu hashes, %lu failed\n", n_vectors,
	       n_hashes, n_failed);
	return n_failed ? 1 : 0;
}
