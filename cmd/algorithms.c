/* algorithms.c: what the command reads off the library's table of
 * algorithms (lib/algo.h): -a and its message, -l and its messages, the
 * algorithm a program name stands for, --help's list of -a names and
 * --list-algorithms.  No name of an algorithm is written here. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernel.h"
#include "quote.h"
#include "xxhsum.h"

/* Appends WORD to the list in BUF (SIZE bytes) as the Nth of COUNT items,
 * GNU's way: "a, b, or c" with SERIAL, "a, b or c" without. */
static void put_item(char *buf, size_t size, const char *word, size_t n,
		     size_t count, bool serial)
{
	size_t at = strlen(buf);
	const char *sep = n == 0 ? ""
			  : n + 1 < count ? ", "
			  : serial && count > 2 ? ", or "
			  : " or ";

	snprintf(buf + at, size - at, "%s%s", sep, word);
}

/* The lengths in bits of group G's members, "224, 256, 384, or 512". */
static void member_bits(const struct fh_algo_row *g, char *buf, size_t size)
{
	const struct fh_algo_row *r;
	size_t count = 0, n = 0;

	buf[0] = '\0';
	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++)
		count += fh_algo_in_group(&r->algo, g);
	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++) {
		char word[24];

		if (!fh_algo_in_group(&r->algo, g))
			continue;
		snprintf(word, sizeof word, "%u", 8u * r->algo.digest_bytes);
		put_item(buf, size, word, n++, count, true);
	}
}

/* The -a names -l applies to: "sha2, sha224..512, sha3, ..., kt256", a
 * run of three or more members of one group as its first name and its
 * last length. */
static void length_names(char *buf, size_t size)
{
	const struct fh_algo_row *r, *items[64];
	size_t runs[64], count = 0;

	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL && count < 64; i++) {
		if (r->length == FH_LENGTH_NONE)
			continue;
		size_t run = 1;
		const struct fh_algo_row *next;

		while (r->member_of && (next = fh_algo_row_at(i + run)) != NULL &&
		       next->member_of && strcmp(next->member_of, r->member_of) == 0)
			run++;
		items[count] = r;
		runs[count++] = run >= 3 ? run : 1;
		i += (run >= 3 ? run : 1) - 1;
	}
	buf[0] = '\0';
	for (size_t n = 0; n < count; n++) {
		char word[64];

		if (runs[n] > 1)
			snprintf(word, sizeof word, "%s..%u", items[n]->algo.name,
				 8u * fh_algo_row_at((size_t)(items[n] - fh_algo_row_at(0)) +
						     runs[n] - 1)->algo.digest_bytes);
		else
			snprintf(word, sizeof word, "%s", items[n]->algo.name);
		put_item(buf, size, word, n, count, false);
	}
}

void fh_cli_set_algorithm(struct cli *c, const char *name)
{
	const struct fh_algo_row *r = fh_algo_row_by_name(name);

	if (!r) {
		fh_error(0, "invalid argument %s for %s", fh_quote(name),
			 fh_quote("--algorithm"));
		fputs("Valid arguments are:\n", stderr);
		for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++)
			fprintf(stderr, "  - %s\n", fh_quote(r->algo.name));
		fh_usage(fh_usage_status);
	}
	c->group = r->length == FH_LENGTH_PICK ? r : NULL;
	c->algo = c->group ? NULL : &r->algo;
	c->label = r->algo.tag;
}

void fh_cli_set_form(struct cli *c, enum fh_line_form form)
{
	const struct fh_algo_row *r;

	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++)
		if (r->form == form) {
			fh_cli_set_algorithm(c, r->algo.name);
			return;
		}
}

/* -l BITS as cksum 9.8 reads it: a decimal number, blanks before it
 * allowed, no sign but '+'; one too large for the type is its largest
 * value (*TOO_BIG set), which no algorithm takes, so it gets the message
 * of any other length that does not fit.  Anything else: GNU's message,
 * and the run ends. */
unsigned long long fh_cli_length_bits(const char *arg, bool *too_big)
{
	const char *digits = arg;
	char *end;
	unsigned long long bits;

	while (isspace((unsigned char)*digits))
		digits++;
	errno = 0;
	bits = strtoull(arg, &end, 10);
	*too_big = errno == ERANGE;
	if (*too_big)
		bits = ULLONG_MAX;
	else if (errno)
		end = (char *)arg;
	if (end == arg || *end || *digits == '-') {
		fh_error(0, "invalid length: %s", fh_quote(arg));
		exit(fh_usage_status);
	}
	return bits;
}

void fh_cli_apply_length(struct cli *c, const char *arg)
{
	char list[256];
	bool too_big;
	unsigned long long bits = fh_cli_length_bits(arg, &too_big);

	if (!c->algo && !c->group) {
		length_names(list, sizeof list);
		fh_error(0, "--length is only supported with --algorithm=%s", list);
		fh_usage(fh_usage_status);
	}
	const struct fh_algo_row *r = c->group ? c->group : fh_algo_row(c->algo);

	switch (r->length) {
	case FH_LENGTH_NONE:
		fh_error(0, "--length is not supported with --algorithm=%s",
			 r->algo.name);
		fh_usage(fh_usage_status);
	case FH_LENGTH_PICK: {
		const struct fh_algo *a = fh_algo_group_member(r, bits);

		if (!a) {
			member_bits(r, list, sizeof list);
			fh_error(0, "invalid length: %s", fh_quote(arg));
			fh_error(0, "digest length for %s must be %s",
				 fh_quote(r->algo.tag), list);
			exit(fh_usage_status);
		}
		c->algo = a;
		c->group = NULL;
		c->outlen = a->digest_bytes;
		return;
	}
	case FH_LENGTH_XOF:
	case FH_LENGTH_FIXED:
		break;
	}
	if (r->max_bytes && (bits % 8 || bits > 8ull * r->max_bytes)) {
		/* BLAKE2b's limit, in b2sum's (and cksum's) words; a number
		 * past the type's range is its own error there. */
		fh_error(too_big ? EOVERFLOW : 0, "invalid length: %s", fh_quote(arg));
		if (too_big)
			;
		else if (bits % 8)
			fh_error(0, "length is not a multiple of 8");
		else
			fh_error(0, "maximum digest length for %s is %u bits",
				 fh_quote(c->algo->tag), 8u * r->max_bytes);
		exit(fh_usage_status);
	}
	if (bits == 0) {
		/* 0 is the default length, as in cksum 9.9. */
		c->outlen = c->algo->digest_bytes;
	} else if (r->length == FH_LENGTH_XOF) {
		if (bits % 8 || bits > 8ull * FH_MAX_XOF_BYTES) {
			fh_error(0, "invalid length: %s", fh_quote(arg));
			fh_error(0, "digest length for %s must be a multiple of 8 "
				    "from 8 to %u", fh_quote(c->algo->tag),
				 8u * FH_MAX_XOF_BYTES);
			exit(fh_usage_status);
		}
		c->outlen = (size_t)(bits / 8);
		/* b2sum -c reads each line's length off the line, -l or not. */
		c->check_outlen = fh_gnu_as ? 0 : c->outlen;
	} else if (bits != 8ull * c->algo->digest_bytes) {
		fh_error(0, "invalid length: %s", fh_quote(arg));
		fh_error(0, "digest length for %s must be %u", fh_quote(c->algo->tag),
			 8u * c->algo->digest_bytes);
		exit(fh_usage_status);
	}
}

bool fh_cli_check_group(const struct cli *c)
{
	char list[128];

	if (!c->group)
		return true;
	member_bits(c->group, list, sizeof list);
	fh_error(0, "--algorithm=%s requires specifying --length %s",
		 c->group->algo.name, list);
	return false;
}

bool fh_cli_algorithm_of_program(struct cli *c)
{
	const struct fh_algo_row *r = fh_algo_row_by_program(fh_prog);

	if (!r)
		return false;
	c->algo = &r->algo;
	c->label = r->algo.tag;
	if (r->gnu_name && strcmp(fh_prog, r->gnu_name) == 0) {
		fh_gnu_as = r->algo.tag;
		fh_gnu_form = r->form;
		fh_as_xxhsum = r->xxhsum;
		/* xxhsum 0.8.1 prints the names of -c's lines as they are. */
		fh_out_status_raw = r->xxhsum;
	}
	return fh_gnu_as != NULL;
}

bool fh_b3sum_program(int argc, char **argv)
{
	const struct fh_algo_row *r;
	const char *slash, *name;

	if (argc < 1 || !argv[0][0])
		return false;
	slash = strrchr(argv[0], '/');
	name = slash ? slash + 1 : argv[0];
	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++)
		if (r->program && strcmp(name, r->program) == 0) {
			fh_prog = name;
			return true;
		}
	return false;
}

void fh_list_algorithms(void)
{
	const struct fh_algo_row *r;

	printf("%-14s %-14s %-6s %-6s %-7s %s\n", "ALGORITHM", "TAG", "BITS",
	       "BLOCK", "FAMILY", "PROGRAM");
	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++) {
		const struct fh_algo *a = &r->algo;
		char bits[32];

		if (r->length == FH_LENGTH_PICK) {
			printf("%-14s %-14s %-6s %-6s %-7s -\n", a->name, a->tag,
			       "-l", "-", fh_family_name(a->family));
			continue;
		}
		if (a->xof)
			snprintf(bits, sizeof bits, "%u+", 8u * a->digest_bytes);
		else
			snprintf(bits, sizeof bits, "%u", 8u * a->digest_bytes);
		char whose[40] = "";

		if (r->gnu_name)
			snprintf(whose, sizeof whose, r->xxhsum ? " (xxhsum)" : " (GNU)");
		else if (r->program)
			snprintf(whose, sizeof whose, " (%s)", r->program);
		printf("%-14s %-14s %-6s %-6u %-7s %s%s\n", a->name, a->tag, bits,
		       a->block_bytes, fh_family_name(a->family),
		       r->gnu_name ? r->gnu_name : r->link ? r->link
		       : r->program ? r->program : "-", whose);
	}
	printf("# BITS: the digest's; N+: an XOF, N by default (-l); "
	       "-l: a group, -l picks\n"
	       "# BLOCK: bytes, or the sponge's rate; PROGRAM: fhsum's name "
	       "as this algorithm\n"
	       "# (GNU), (b3sum), (xxhsum): under that name fhsum is that program\n");
}
