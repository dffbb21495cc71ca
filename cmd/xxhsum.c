/* xxhsum.c: fhsum invoked as xxhsum (the program of the table's row that
 * says so, XXH64's): xxhsum 0.8's options as it reads them (each argument
 * in turn up to the first name, after which all are names; -H0..-H3 or -H32,
 * -H64, -H128), its lines (names as they are, standard input as "stdin",
 * XXH3 tagged as 0.8.1 writes it, --little-endian's reversed digests and
 * "_LE" tags) and its words, on stdout where it writes them.  Checked
 * against Debian's xxhsum 0.8.1 by tests/cli/xxhsum.bats.  Beyond it, -c
 * also reads 0.8.2's "XXH3_HEX  NAME" lines, and a listed directory is
 * one file that could not be read, where 0.8.1 gives up the whole run. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "xxhsum.h"

bool fh_as_xxhsum;
bool fh_xxh_little_endian;

static const char usage_text[] =
	"xxhsum 0.8.1 by Yann Collet \n"
	"Print or verify checksums using fast non-cryptographic algorithm xxHash \n"
	"\n"
	"Usage: xxhsum [options] [files] \n"
	"\n"
	"When no filename provided or when '-' is provided, uses stdin as input. \n"
	"Options: \n"
	"  -H#         algorithm selection: 0,1,2,3 or 32,64,128 (default: 1) \n"
	"  -c, --check read xxHash checksum from [files] and check them \n"
	"  -h, --help  display a long help page about advanced options \n";

static const char advanced_text[] =
	"Advanced :\n"
	"  -V, --version        Display version information \n"
	"      --tag            Produce BSD-style checksum lines \n"
	"      --little-endian  Checksum values use little endian convention (default: big endian) \n"
	"  -b                   Run benchmark \n"
	"  -b#                  Bench only algorithm variant # \n"
	"  -i#                  Number of times to run the benchmark (default: 3) \n"
	"  -q, --quiet          Don't display version header in benchmark mode \n"
	"\n"
	"The following four options are useful only when verifying checksums (-c): \n"
	"  -q, --quiet          Don't print OK for each successfully verified file \n"
	"      --status         Don't output anything, status code shows success \n"
	"      --strict         Exit non-zero for improperly formatted checksum lines \n"
	"      --warn           Warn about improperly formatted checksum lines \n";

_Noreturn static void wrong_parameters(void)
{
	fh_out_flush();
	fputs("Wrong parameters\n\n", stderr);
	fputs(usage_text, stderr);
	exit(EXIT_FAILURE);
}

/* -H's number, the digits at ARG (none is 0, as xxhsum reads it): the
 * table's algorithm of that many bits, or of that xxhsum number (0 XXH32,
 * 1 XXH64, 2 XXH128, 3 XXH3).  Returns the character after the digits,
 * where xxhsum reads on for more options ("-H0q"). */
static const char *select_algorithm(struct cli *c, const char *arg)
{
	static const struct { unsigned n; const char *name; } h[] = {
		{ 0, "xxh32" }, { 32, "xxh32" }, { 1, "xxh64" }, { 64, "xxh64" },
		{ 2, "xxh128" }, { 128, "xxh128" }, { 3, "xxh3" },
	};
	unsigned n = 0;

	for (; *arg >= '0' && *arg <= '9'; arg++) {
		/* xxhsum's readU32FromChar refuses a tenth digit this early. */
		if (n > UINT_MAX / 10 - 1) {
			fh_out_flush();
			fputs("Error: numeric value too large \n", stderr);
			exit(EXIT_FAILURE);
		}
		n = n * 10 + (unsigned)(*arg - '0');
	}
	for (size_t i = 0; i < sizeof h / sizeof *h; i++)
		if (n == h[i].n) {
			c->algo = fh_algo_by_name(h[i].name);
			c->label = c->algo->tag;
			return arg;
		}
	wrong_parameters();
}

int fh_xxhsum_parse(int argc, char **argv, struct cli *c)
{
	int files = 1;
	bool names = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		/* The first name, or "--", ends the options: the rest are
		 * names.  A "-" before them is an empty cluster of options,
		 * passed over (standard input is read when no name follows). */
		if (names || a[0] != '-') {
			argv[files++] = argv[i];
			names = true;
			continue;
		}
		if (a[1] == '\0')
			continue;
		if (strcmp(a, "--") == 0) {
			names = true;
			continue;
		}
		if (a[1] == '-') {
			if (strcmp(a, "--check") == 0) c->check = true;
			else if (strcmp(a, "--tag") == 0) c->tag = true;
			else if (strcmp(a, "--little-endian") == 0) fh_xxh_little_endian = true;
			else if (strcmp(a, "--quiet") == 0) c->quiet = true;
			else if (strcmp(a, "--status") == 0) c->status_only = true;
			else if (strcmp(a, "--strict") == 0) c->strict = true;
			else if (strcmp(a, "--warn") == 0) c->warn = true;
			else if (strcmp(a, "--help") == 0) fh_xxhsum_help();
			else if (strcmp(a, "--version") == 0) { fh_version(); exit(EXIT_SUCCESS); }
			else wrong_parameters();
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			switch (*p) {
			case 'c': c->check = true; break;
			case 'q': c->quiet = true; break;
			case 'w': c->warn = true; break;
			case 'h': fh_xxhsum_help();
			case 'V': fh_version(); exit(EXIT_SUCCESS);
			case 'H':
				p = select_algorithm(c, p + 1) - 1;
				break;
			default: wrong_parameters();
			}
		}
	}
	/* -c reads each line by its tag or its length, whatever -H says;
	 * --tag is for generating, the checking options for checking, and
	 * xxhsum ignores each where the other is done. */
	if (c->check)
		c->algo = NULL, c->label = NULL, c->tag = false;
	else
		c->quiet = c->status_only = c->strict = c->warn = false;
	return files;
}

_Noreturn void fh_xxhsum_help(void)
{
	fh_out_flush();
	fputs(usage_text, stderr);
	fputs(advanced_text, stderr);
	exit(EXIT_SUCCESS);
}

size_t fh_xxhsum_line(char *out, const struct fh_algo *algo, const uint8_t *digest,
		      size_t outlen, const char *name, bool tag)
{
	static const char digits[] = "0123456789abcdef";
	size_t o = 0, namelen;

	if (strcmp(name, "-") == 0)
		name = "stdin";
	namelen = strlen(name);
	/* xxhsum 0.8.1 writes XXH3 tagged alone (0.8.2 prefixes it). */
	tag = tag || fh_algo_row(algo)->prefix;
	if (tag) {
		o += (size_t)sprintf(out, "%s%s (", algo->tag,
				     fh_xxh_little_endian ? "_LE" : "");
		memcpy(out + o, name, namelen);
		o += namelen;
		memcpy(out + o, ") = ", 4);
		o += 4;
	}
	for (size_t i = 0; i < outlen; i++) {
		uint8_t b = digest[fh_xxh_little_endian ? outlen - 1 - i : i];

		out[o++] = digits[b >> 4];
		out[o++] = digits[b & 15];
	}
	if (!tag) {
		out[o++] = ' ';
		out[o++] = ' ';
		memcpy(out + o, name, namelen);
		o += namelen;
	}
	out[o++] = '\n';
	return o;
}

void fh_xxhsum_open_error(const char *name, int err, bool list)
{
	fh_out_flush();
	if (err == EISDIR && !list) {
		fprintf(stderr, "%s: %s: Is a directory \n", fh_prog, name);
		return;
	}
	fprintf(stderr, "Error: Could not open '%s': %s%s\n", name, fh_strerror(err),
		list ? "" : ". ");
}

void fh_xxhsum_unreadable(const char *list, uintmax_t lineno, const char *name,
			  int err)
{
	char head[64];

	snprintf(head, sizeof head, ":%ju: Could not open or read '", lineno);
	fh_out_str(list);
	fh_out_str(head);
	fh_out_str(name);
	fh_out_str("': ");
	fh_out_str(fh_strerror(err));
	fh_out_str(".\n");
	fh_out_end_line();
}

void fh_xxhsum_summary(uintmax_t misformatted, uintmax_t unreadable,
		       uintmax_t mismatched)
{
	char line[96];

	if (misformatted) {
		snprintf(line, sizeof line, "%ju %s improperly formatted\n", misformatted,
			 misformatted == 1 ? "line is" : "lines are");
		fh_out_str(line);
	}
	if (unreadable) {
		snprintf(line, sizeof line, "%ju listed %s could not be read\n", unreadable,
			 unreadable == 1 ? "file" : "files");
		fh_out_str(line);
	}
	if (mismatched) {
		snprintf(line, sizeof line, "%ju computed %s did NOT match\n", mismatched,
			 mismatched == 1 ? "checksum" : "checksums");
		fh_out_str(line);
	}
	fh_out_end_line();
}
