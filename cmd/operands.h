/* operands.h: the stream of names a run works on: the operands, or the
 * names read from --files-from/--files0-from, with directories walked
 * under -r (lib/walk/walk.c, on -j threads).  Streamed: memory holds
 * the listings of the directories on the walk's path and a bounded
 * number listed ahead, never the whole tree. */
#ifndef FH_OPERANDS_H
#define FH_OPERANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "lines.h"
#include "platform.h"
#include "walk/walk.h"

struct fh_exclude;

struct operands {
	char **argv;            /* remaining command-line operands */
	int argc;
	int from;               /* --files-from / --files0-from, or -1 */
	const char *from_name;
	bool from_stdin;        /* FROM is standard input (not ours to close) */
	struct fh_lines names;  /* FROM's names (started by the caller) */
	uint64_t names_read;    /* of them so far */
	bool from_ended;        /* FROM met its end or a read error */
	bool recursive;
	/* The walk's threads (-j, or one per CPU); 1: the walk is done on
	 * the calling thread. */
	unsigned threads;
	/* Whether the caller asks the metadata of most names: the walk
	 * then stats them on its threads, ahead. */
	bool want_meta;
	/* Names of the walk that --exclude leaves out, or NULL: matched by
	 * their path from the directory operand. */
	const struct fh_exclude *exclude;
	char *too_long;         /* "FROM:N", naming a name past PATH_MAX */
	struct fh_walk *walk;   /* started at the first directory operand */
	bool walking;           /* a directory operand is being walked */
	const char *root_name;  /* that operand, as given */
	const char *primed;     /* the operand fh_operands_prime started */
	/* The last name fh_operands_next gave is a command-line operand
	 * itself, not a name the walk or a names file gave. */
	bool named;
	struct fh_walk_item last; /* the walk's last name, with its stat */
};

/* The next name: returns true and sets *PATH (valid until the next call)
 * and *ERR (0, or an errno value: then PATH could not be walked or read,
 * and the caller reports it); false at the end.  A name of a names file
 * too long to open comes as "FROM:N: 'START'..." with *ERR FH_ENAMEFROM:
 * a description, to be printed as it is. */
bool fh_operands_next(struct operands *o, const char **path, int *err);

/* When the first operand is a directory to walk, starts walking it now,
 * so that the walk's threads list ahead while the caller does other work
 * (reads a list); fh_operands_next then goes on from there.  Operands
 * from a names file are not looked at. */
void fh_operands_prime(struct operands *o);

/* PATH's size and mtime into *M when it is a regular file (false
 * otherwise).  For the name fh_operands_next gave last, when the walk
 * stat'ed it ahead, no system call: that answer is given; else stat(2)
 * by path (O NULL: always).  *ERR, when not NULL, gets stat's errno if
 * it fails. */
struct fh_meta;
bool fh_operands_meta(const struct operands *o, const char *path,
		      struct fh_meta *m, int *err);

/* PATH with repeated slashes made one and trailing ones dropped ("/"
 * stays), in place; returns PATH. */
char *fh_path_tidy(char *path);

/* Frees what O holds (it stays usable as an empty stream). */
void fh_operands_free(struct operands *o);

#endif
