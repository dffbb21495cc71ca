/* operands.h: the stream of names a run works on: the operands, or the
 * names read from --files-from/--files0-from, with directories walked
 * under -r.  Streamed: memory holds one directory listing per level of
 * the walk, never the whole list. */
#ifndef FH_OPERANDS_H
#define FH_OPERANDS_H

#include <stdbool.h>
#include <stdio.h>

struct walk_level;

struct operands {
	char **argv;            /* remaining command-line operands */
	int argc;
	FILE *from;             /* --files-from / --files0-from, or NULL */
	const char *from_name;
	int delim;              /* '\n' or '\0' for FROM */
	bool from_ended;        /* FROM met its end or a read error */
	bool recursive;
	char *line;             /* the last name read from FROM */
	size_t line_cap;
	struct walk_level *walk; /* the directory being walked, innermost */
	char *path;             /* the last path built by the walk */
	size_t path_cap;
};

/* The next name: returns true and sets *PATH (valid until the next call)
 * and *ERR (0, or an errno value: then PATH could not be walked or read,
 * and the caller reports it); false at the end. */
bool fh_operands_next(struct operands *o, const char **path, int *err);

/* Frees what O holds (it stays usable as an empty stream). */
void fh_operands_free(struct operands *o);

#endif
