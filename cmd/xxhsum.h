/* xxhsum.h: fhsum as xxhsum 0.8 (xxhsum.c). */
#ifndef FH_XXHSUM_H
#define FH_XXHSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* Invoked as xxhsum (the table's row says which name that is). */
extern bool fh_as_xxhsum;
/* --little-endian: digests written and read least significant byte first. */
extern bool fh_xxh_little_endian;

/* Reads ARGV's options as xxhsum does, into C; moves the names to
 * ARGV[1..] and returns 1 + their count.  Exits on --help, --version and
 * "Wrong parameters". */
int fh_xxhsum_parse(int argc, char **argv, struct cli *c);
_Noreturn void fh_xxhsum_help(void);
/* One generated line into OUT (at least 48 + 2 * OUTLEN + strlen(NAME)
 * bytes); returns its length. */
size_t fh_xxhsum_line(char *out, const struct fh_algo *algo, const uint8_t *digest,
		      size_t outlen, const char *name, bool tag);
/* "Error: Could not open 'NAME': REASON" on stderr (". " after it for an
 * operand, as xxhsum writes it); "xxhsum: NAME: Is a directory " for an
 * operand that is one. */
void fh_xxhsum_open_error(const char *name, int err, bool list);
/* A listed file that could not be read, on stdout:
 * "LIST:LINENO: Could not open or read 'NAME': REASON." */
void fh_xxhsum_unreadable(const char *list, uintmax_t lineno, const char *name,
			  int err);
/* A list's summary, on stdout. */
void fh_xxhsum_summary(uintmax_t misformatted, uintmax_t unreadable,
		       uintmax_t mismatched);

#endif
