/* prefix.h: an audit whose names all miss the list's by one prefix (run
 * from another directory, or with absolute names for a list of relative
 * ones), told from the names the list lacks and the entries the walk
 * did not meet, so that the command can say so once instead of leaving
 * a report of every file NEW or MOVED to explain itself. */
#ifndef FH_PREFIX_H
#define FH_PREFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

struct fh_prefix {
	char *text;             /* malloc'd; NULL: no prefix explains them */
	/* UNDER: the names found are the list's with TEXT before them; else
	 * the list's are the names found with TEXT before them. */
	bool under;
	uint64_t hits;          /* names found that TEXT explains */
};

/* Looks at ST's names found and not listed (its news) against the
 * entries not seen: when at least two, and nine in ten of them, are one
 * listed name with one prefix more or less, sets *P to that prefix and
 * returns true.  Reads only: ST is left as it was. */
bool fh_prefix_guess(const struct fh_store *st, struct fh_prefix *p);

#endif
