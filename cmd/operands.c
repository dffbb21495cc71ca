/* operands.c: the names a run works on, streamed.  Under -r a directory
 * is walked (walk.c: depth first, each directory's entries sorted
 * byte-wise, on -j threads); symbolic links met in the walk are not
 * followed, and only regular files are yielded.  Names that --exclude
 * leaves out are passed over, and directories it leaves out are not
 * opened; the operands themselves are never matched. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "exclude.h"
#include "list/manifest.h"
#include "operands.h"
#include "quote.h"

/* Whether --exclude leaves out the walk's entry REL. */
static bool excluded(void *ctx, const char *rel, size_t len, bool is_dir)
{
	return fh_excluded(ctx, rel, len, is_dir);
}

/* Starts walking the directory ROOT (tidied): 0 or an errno value. */
static int walk_root(struct operands *o, const char *root)
{
	size_t rl = strlen(root);

	if (!o->walk) {
		struct fh_walk_opts w = {
			.threads = o->threads,
			.stat = o->want_meta,
			.skip = o->exclude ? excluded : NULL,
			.skip_ctx = (void *)o->exclude,
		};
		int err = fh_walk_new(&o->walk, &w);

		if (err)
			return err;
	}
	/* Entries are matched from the operand on: "d/" and "d" alike. */
	return fh_walk_root(o->walk, root, rl + (rl && root[rl - 1] != '/'));
}

/* The next name from the command line or FROM, or NULL at the end (with
 * *ERR set if FROM could not be read).  A name of FROM too long for any
 * system call to take is read past, not held: it comes back as
 * "FROM:N" (N counting FROM's names from 1) with *ERR ENAMETOOLONG. */
static const char *next_name(struct operands *o, int *err)
{
	char *line;
	size_t len;

	if (o->from < 0) {
		if (!o->argc)
			return NULL;
		o->argc--;
		return *o->argv++;
	}
	if (o->from_ended)
		return NULL;
	switch (fh_lines_next(&o->names, &line, &len)) {
	case FH_LINES_LINE:
		o->names_read++;
		return line;
	case FH_LINES_TOO_LONG:
		o->names_read++;
		free(o->too_long);
		/* FROM:N, then the name's start, quoted as an argument. */
		char start[41];

		len = len < 40 ? len : 40;
		memcpy(start, line, len);
		start[len] = '\0';
		if (asprintf(&o->too_long, "%s:%" PRIu64 ": %s...", o->from_name,
			     o->names_read, fh_quote(start)) < 0) {
			o->too_long = NULL;
			*err = ENOMEM;
			return o->from_name;
		}
		*err = FH_ENAMEFROM;
		return o->too_long;
	case FH_LINES_END:
		break;
	}
	/* A read error is reported once, and ends the names: reading on
	 * would meet it again (a directory, a closed descriptor). */
	*err = o->names.err;
	o->from_ended = true;
	return NULL;
}

/* The walk's next name into *PATH and *ERR: false at its end. */
static bool walk_next(struct operands *o, const char **path, int *err)
{
	struct fh_walk_item *it = &o->last;

	if (!fh_walk_next(o->walk, it)) {
		o->walking = false;
		return false;
	}
	/* The operand that could not be listed is named as it was given. */
	*path = it->root ? o->root_name : it->path;
	*err = it->err;
	return true;
}

/* Walks NAME, a directory operand: 0 or an errno value. */
static int start_walk(struct operands *o, const char *name)
{
	/* The walk's names are built from the root as tidied, so that
	 * "d//e/" and "d/e" name its files alike. */
	char *root = strdup(name);
	int err = root ? walk_root(o, fh_path_tidy(root)) : ENOMEM;

	free(root);
	if (!err)
		o->root_name = name;
	return err;
}

static bool is_dir_operand(const struct operands *o, const char *name)
{
	struct stat st;

	return o->recursive && strcmp(name, "-") != 0 && stat(name, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

void fh_operands_prime(struct operands *o)
{
	/* A names file's line lives only until the next one is read. */
	if (o->walking || o->from >= 0 || !o->argc || !is_dir_operand(o, *o->argv))
		return;
	/* The operand stays in argv (the caller may still read them all):
	 * fh_operands_next takes the walk up when it comes to it. */
	if (start_walk(o, *o->argv) == 0)
		o->primed = *o->argv;
}

bool fh_operands_next(struct operands *o, const char **path, int *err)
{
	*err = 0;
	o->last.path = NULL;
	o->named = false;
	if (o->walking && walk_next(o, path, err))
		return true;

	const char *name = next_name(o, err);

	if (!name) {
		if (*err) {
			*path = o->from_name;
			return true;
		}
		return false;
	}
	*path = name;
	if (*err)
		return true;
	if (name == o->primed) {
		o->primed = NULL;
	} else if (!is_dir_operand(o, name)) {
		o->named = o->from < 0;
		return true;
	} else if ((*err = start_walk(o, name)) != 0) {
		return true;
	}
	o->walking = true;
	if (walk_next(o, path, err))
		return true;
	return fh_operands_next(o, path, err);
}

char *fh_path_tidy(char *path)
{
	size_t o = 0;

	for (size_t i = 0; path[i]; i++)
		if (path[i] != '/' || o == 0 || path[o - 1] != '/')
			path[o++] = path[i];
	while (o > 1 && path[o - 1] == '/')
		o--;
	path[o] = '\0';
	return path;
}

bool fh_operands_meta(const struct operands *o, const char *path,
		      struct fh_meta *m, int *err)
{
	struct stat st;

	if (o && o->last.path == path && o->last.has_stat) {
		/* Stat'ed by the walk, ahead, on its threads. */
		if (o->last.stat_err) {
			if (err)
				*err = o->last.stat_err;
			return false;
		}
		if (!S_ISREG(o->last.st.mode))
			return false;
		m->size = o->last.st.size;
		m->sec = o->last.st.sec;
		m->nsec = o->last.st.nsec;
		m->verified = 0;
		m->algo = NULL;
		return true;
	}
	if (stat(path, &st) != 0) {
		if (err)
			*err = errno;
		return false;
	}
	if (!S_ISREG(st.st_mode))
		return false;
	m->size = (uint64_t)st.st_size;
	fh_stat_mtime(&st, &m->sec, &m->nsec);
	m->verified = 0;
	m->algo = NULL;
	return true;
}

void fh_operands_free(struct operands *o)
{
	fh_walk_free(o->walk);
	o->walk = NULL;
	o->walking = false;
	o->last.path = NULL;
	fh_lines_free(&o->names);
	free(o->too_long);
	o->too_long = NULL;
}
