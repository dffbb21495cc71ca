/* quote.h: how file names and arguments appear in diagnostics.
 *
 * GNU md5sum passes every file name through quotef() (shell-escape quoting,
 * with ':' forced into quotes so "NAME: reason" stays unambiguous) and
 * option arguments through quote() (locale quoting: 'x' or ‘x’).  These
 * reproduce both byte for byte, as observed from coreutils 9.1, so that
 * fhsum's stderr matches md5sum's.  Both depend on LC_CTYPE: the caller
 * must have called setlocale(LC_ALL, "") first.
 *
 * Each function keeps a small ring of buffers: the last FH_QUOTE_SLOTS
 * results of the same function stay valid, so one message may quote several
 * things.  On allocation failure they print "PROG: memory exhausted" (PROG
 * being fh_prog, which the program defines) and exit with status 1, as
 * coreutils does.
 */
#ifndef FH_QUOTE_H
#define FH_QUOTE_H

#include <stddef.h>

#define FH_QUOTE_SLOTS 4

/* NAME (LEN bytes, any bytes) as md5sum prints a file name. */
const char *fh_quotef(const char *name, size_t len);

/* S as coreutils' quote() prints an argument, e.g. in "invalid length: %s". */
const char *fh_quote(const char *s);

#endif
