/* operands.h: the stream of names a run works on: the operands, or the
 * names read from --files-from/--files0-from, with directories walked
 * under -r.  Streamed: memory holds one directory listing per level of
 * the walk, never the whole list. */
#ifndef FH_OPERANDS_H
#define FH_OPERANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "lines.h"

struct walk_level;
struct fh_exclude;

struct operands {
	char **argv;            /* remaining command-line operands */
	int argc;
	int from;               /* --files-from / --files0-from, or -1 */
	const char *from_name;
	struct fh_lines names;  /* FROM's names (started by the caller) */
	uint64_t names_read;    /* of them so far */
	bool from_ended;        /* FROM met its end or a read error */
	bool recursive;
	/* Names of the walk that --exclude leaves out, or NULL: matched by
	 * their path from the directory operand, which starts REL_AT bytes
	 * into the path. */
	const struct fh_exclude *exclude;
	size_t rel_at;
	char *too_long;         /* "FROM:N", naming a name past PATH_MAX */
	struct walk_level *walk; /* the directory being walked, innermost */
	struct walk_level *last; /* where the last name came from, or NULL */
	const char *last_name;   /* its name there */
	char *path;             /* the last path built by the walk */
	size_t path_cap;
};

/* The next name: returns true and sets *PATH (valid until the next call)
 * and *ERR (0, or an errno value: then PATH could not be walked or read,
 * and the caller reports it); false at the end.  A name of a names file
 * too long to open comes as "FROM:N: 'START'..." with *ERR FH_ENAMEFROM:
 * a description, to be printed as it is. */
bool fh_operands_next(struct operands *o, const char **path, int *err);

/* stat(2) of PATH, the name fh_operands_next gave last: through its
 * directory's descriptor when the walk gave it, so that the kernel looks
 * up one name rather than the whole path. */
struct stat;
int fh_operands_stat(const struct operands *o, const char *path, struct stat *st);

/* ST's modification time (st_mtim, st_mtimespec on macOS). */
struct stat;
void fh_stat_mtime(const struct stat *st, int64_t *sec, uint32_t *nsec);

/* PATH's size and mtime into *M when it is a regular file (false
 * otherwise), through O's walk as fh_operands_stat does (O NULL: by
 * path).  *ERR, when not NULL, gets stat's errno if it fails. */
struct fh_meta;
bool fh_operands_meta(const struct operands *o, const char *path,
		      struct fh_meta *m, int *err);

/* PATH with repeated slashes made one and trailing ones dropped ("/"
 * stays), in place; returns PATH. */
char *fh_path_tidy(char *path);

/* Frees what O holds (it stays usable as an empty stream). */
void fh_operands_free(struct operands *o);

#endif
