/* budget.h: the budget of a scrub as a user writes it: a duration as GNU
 * timeout(1) reads one, a size as GNU head(1) -c does. */
#ifndef FH_BUDGET_H
#define FH_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/* "90", "1.5", "15m", "2h", "1d", " +1e3", "0x10", "inf": a number as
 * strtod reads it, in the locale's way or in C's (as timeout(1) reads
 * one), not negative, then at most one of s, m, h, d (none: seconds).
 * Into *SECONDS (infinite for "inf" or a number too large); false for
 * anything else. */
bool fh_parse_duration(const char *s, double *seconds);

/* "500", "500K", "2G", "1T", "3KB", "4MiB", "1b": a decimal count of
 * bytes times a suffix's multiple: b 512; K M G T P E powers of 1024 (k
 * and m too, as head takes them), the same with "iB" after them, powers
 * of 1000 with "B" after them.  Into *BYTES; false for anything else, or
 * more than 2^64 - 1 bytes. */
bool fh_parse_size(const char *s, uint64_t *bytes);

#endif
