/* exclude.h: the patterns of --exclude and --exclude-from, and whether
 * a name of a walk, or of a list, is one they leave out. */
#ifndef FH_EXCLUDE_H
#define FH_EXCLUDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fh_pattern;

struct fh_exclude {
	struct fh_pattern *pats;
	size_t n, cap;
};

/* An empty set, which excludes nothing. */
void fh_exclude_init(struct fh_exclude *x);
/* Frees what X holds; it is empty again. */
void fh_exclude_free(struct fh_exclude *x);

/* Adds the pattern PAT (LEN bytes, any byte but NUL), read as rsync(1)
 * reads an exclude pattern, byte-wise.  One trailing '/' makes it a
 * pattern for directories only.  A pattern holding '*', '?' or '[' is a
 * glob: '*' any run of bytes but '/', "**" (or more stars) any run of
 * bytes, '/' included, '?' one byte but '/', "[...]" a class (ranges,
 * "[:alpha:]" and the like in the C locale, '!' or '^' first to negate;
 * never '/'), '\' takes the next byte as it is; an unclosed '[', an
 * unknown class or a '\' at the end make it match nothing.  Any other
 * pattern is its bytes, '\' included.  Where it is matched: with a
 * leading '/', or a leading "**", the path from the walk's root (where
 * "**" "/" can be the root itself); else with "**" in it, the path from
 * its start or from after any '/'; else with a '/' in it, the same
 * number of last names of the path, at any depth; else the last name.
 * A trailing "***" also matches the directory before it.  No name has
 * an empty component, so "a//b" matches nothing; nor does an empty
 * pattern.  Returns false when memory runs out. */
bool fh_exclude_add(struct fh_exclude *x, const char *pat, size_t len);

/* Adds the patterns of the file open on FD, one a line, as rsync's
 * --exclude-from reads them: a CR ends a line as a newline does, and
 * empty lines and lines that start with ';' or '#' are skipped.  Returns
 * 0, or an errno value: that of a read error, ENOMEM, or ENAMETOOLONG for
 * a line past FH_EXCLUDE_LINE_MAX bytes (*LINENO, when not NULL, is then
 * its number, from 1, counting newlines). */
#define FH_EXCLUDE_LINE_MAX 65536
int fh_exclude_read(struct fh_exclude *x, int fd, uint64_t *lineno);

/* Whether X has any pattern. */
static inline bool fh_exclude_any(const struct fh_exclude *x)
{
	return x && x->n;
}

/* Whether the walk leaves out the entry REL (LEN bytes), its path from
 * the walk's root, without empty components; IS_DIR: it is a directory,
 * which a pattern ending in '/' may match too.  Reads X only: safe from
 * several threads at once. */
bool fh_excluded(const struct fh_exclude *x, const char *rel, size_t len,
		 bool is_dir);

/* For a name that is not walked (a line of a list): whether the file REL
 * (LEN bytes), or one of the directories it lies under, is left out.
 * Empty and "." components of REL are passed over. */
bool fh_excluded_path(const struct fh_exclude *x, const char *rel, size_t len);

#endif
