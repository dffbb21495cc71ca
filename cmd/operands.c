/* operands.c: the names a run works on, streamed.  Under -r a directory
 * is walked depth first, each directory's entries sorted byte-wise;
 * symbolic links met in the walk are not followed, and only regular files
 * are yielded.  Names that --exclude leaves out are passed over, and
 * directories it leaves out are not opened; the operands themselves are
 * never matched. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "exclude.h"
#include "manifest.h"
#include "operands.h"
#include "quote.h"

struct entry {
	char *name;
	unsigned char type; /* DT_* from readdir, DT_UNKNOWN if it said none */
};

/* Levels of the walk that keep a descriptor: the innermost ones, where
 * nearly every stat happens.  Deeper trees stat by path above them, so
 * that the walk holds a bounded number of descriptors whatever its depth. */
#define WALK_FDS 16

struct walk_level {
	struct walk_level *up;
	char *dir;              /* this directory's path */
	int fd;                 /* open on it for fstatat, or -1 */
	struct entry *entries;
	size_t n, next;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

static void pop(struct operands *o)
{
	struct walk_level *l = o->walk;

	o->walk = l->up;
	if (o->last == l)
		o->last = NULL;
	if (l->fd >= 0)
		close(l->fd);
	for (size_t i = 0; i < l->n; i++)
		free(l->entries[i].name);
	free(l->entries);
	free(l->dir);
	free(l);
}

/* Reads and sorts directory DIR; returns 0 or an errno value. */
static int push(struct operands *o, const char *dir)
{
	struct walk_level *l = calloc(1, sizeof *l);
	size_t cap = 0;
	DIR *d;
	struct dirent *de;
	int err = 0;

	if (!l || !(l->dir = strdup(dir))) {
		free(l);
		return ENOMEM;
	}
	/* Kept open so that a stat of an entry looks up one name, not the
	 * whole path; the listing is read through a second descriptor. */
	l->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int dfd = l->fd >= 0 ? fcntl(l->fd, F_DUPFD_CLOEXEC, 0) : -1;

	if (dfd < 0 || !(d = fdopendir(dfd))) {
		/* Out of descriptors: by path alone, holding none. */
		if (dfd >= 0)
			close(dfd);
		if (l->fd >= 0)
			close(l->fd);
		l->fd = -1;
		d = opendir(dir);
	}
	if (!d) {
		err = errno;
		free(l->dir);
		free(l);
		return err;
	}
	while (errno = 0, (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (l->n == cap) {
			struct entry *e = realloc(l->entries, (cap = cap ? 2 * cap : 16) *
							      sizeof *e);
			if (!e) {
				err = ENOMEM;
				break;
			}
			l->entries = e;
		}
		if (!(l->entries[l->n].name = strdup(de->d_name))) {
			err = ENOMEM;
			break;
		}
		l->entries[l->n++].type = de->d_type;
	}
	if (!de && errno)
		err = errno;
	closedir(d);
	l->up = o->walk;
	o->walk = l;
	if (err) {
		pop(o);
		return err;
	}
	/* The level WALK_FDS above gives its descriptor back. */
	struct walk_level *far = l;

	for (int i = 0; far && i < WALK_FDS; i++)
		far = far->up;
	if (far && far->fd >= 0) {
		close(far->fd);
		far->fd = -1;
	}
	if (l->n > 1)
		qsort(l->entries, l->n, sizeof *l->entries, by_name);
	return 0;
}

static const char *join(struct operands *o, const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	bool slash = dl && dir[dl - 1] != '/';

	if (dl + slash + nl + 1 > o->path_cap) {
		char *p = realloc(o->path, dl + slash + nl + 1);

		if (!p)
			return NULL;
		o->path = p;
		o->path_cap = dl + slash + nl + 1;
	}
	memcpy(o->path, dir, dl);
	o->path[dl] = '/';
	memcpy(o->path + dl + slash, name, nl + 1);
	return o->path;
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

bool fh_operands_next(struct operands *o, const char **path, int *err)
{
	*err = 0;
	while (o->walk) {
		struct walk_level *l = o->walk;

		if (l->next == l->n) {
			pop(o);
			continue;
		}
		struct entry *e = &l->entries[l->next++];
		const char *p = join(o, l->dir, e->name);
		unsigned char type = e->type;
		struct stat st;

		if (!p) {
			*path = e->name;
			*err = ENOMEM;
			return true;
		}
		const char *rel = p + o->rel_at;
		size_t rlen = strlen(rel);

		/* A pattern for files and directories alike needs no type:
		 * an entry it leaves out is not even stat'ed. */
		if (o->exclude && fh_excluded(o->exclude, rel, rlen, false))
			continue;
		if (type == DT_UNKNOWN) {
			if (lstat(p, &st) != 0) {
				*path = p;
				*err = errno;
				return true;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG
										: DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			if (o->exclude && fh_excluded(o->exclude, rel, rlen, true))
				continue;
			char *dir = strdup(p);

			*err = dir ? push(o, dir) : ENOMEM;
			if (*err) {
				*path = p;
				free(dir);
				return true;
			}
			free(dir);
			continue;
		}
		if (type == DT_REG) {
			*path = p;
			o->last = l;
			o->last_name = e->name;
			return true;
		}
	}
	o->last = NULL;

	const char *name = next_name(o, err);
	struct stat st;

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
	if (o->recursive && strcmp(name, "-") != 0 && stat(name, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		/* The walk's names are built from the root as tidied, so
		 * that "d//e/" and "d/e" name its files alike. */
		char *root = strdup(name);

		*err = root ? push(o, fh_path_tidy(root)) : ENOMEM;
		if (root) {
			size_t rl = strlen(root);

			o->rel_at = rl + (rl && root[rl - 1] != '/');
		}
		free(root);
		if (!*err)
			return fh_operands_next(o, path, err);
	}
	return true;
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

int fh_operands_stat(const struct operands *o, const char *path, struct stat *st)
{
	if (o->last && o->last->fd >= 0)
		return fstatat(o->last->fd, o->last_name, st, 0);
	return stat(path, st);
}

void fh_stat_mtime(const struct stat *st, int64_t *sec, uint32_t *nsec)
{
#ifdef __APPLE__
	*sec = (int64_t)st->st_mtimespec.tv_sec;
	*nsec = (uint32_t)st->st_mtimespec.tv_nsec;
#else
	*sec = (int64_t)st->st_mtim.tv_sec;
	*nsec = (uint32_t)st->st_mtim.tv_nsec;
#endif
}

bool fh_operands_meta(const struct operands *o, const char *path,
		      struct fh_meta *m, int *err)
{
	struct stat st;

	if ((o ? fh_operands_stat(o, path, &st) : stat(path, &st)) != 0) {
		if (err)
			*err = errno;
		return false;
	}
	if (!S_ISREG(st.st_mode))
		return false;
	m->size = (uint64_t)st.st_size;
	fh_stat_mtime(&st, &m->sec, &m->nsec);
	m->verified = 0;
	return true;
}

void fh_operands_free(struct operands *o)
{
	while (o->walk)
		pop(o);
	fh_lines_free(&o->names);
	free(o->too_long);
	free(o->path);
	o->too_long = o->path = NULL;
	o->path_cap = 0;
}
