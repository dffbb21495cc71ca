/* operands.c: the names a run works on, streamed.  Under -r a directory
 * is walked depth first, each directory's entries sorted byte-wise;
 * symbolic links met in the walk are not followed, and only regular files
 * are yielded. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "operands.h"

struct entry {
	char *name;
	unsigned char type; /* DT_* from readdir, DT_UNKNOWN if it said none */
};

struct walk_level {
	struct walk_level *up;
	char *dir;              /* this directory's path */
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
	if (!(d = opendir(dir))) {
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

/* The next name from the command line or FROM, or NULL at the end. */
static const char *next_name(struct operands *o, int *err)
{
	if (!o->from) {
		if (!o->argc)
			return NULL;
		o->argc--;
		return *o->argv++;
	}
	if (o->from_ended)
		return NULL;
	errno = 0;
	ssize_t n = getdelim(&o->line, &o->line_cap, o->delim, o->from);

	if (n < 0) {
		/* A read error is reported once, and ends the names: reading
		 * on would meet it again (a directory, a closed descriptor). */
		if (ferror(o->from))
			*err = errno ? errno : EIO;
		o->from_ended = true;
		return NULL;
	}
	if (n > 0 && o->line[n - 1] == o->delim)
		o->line[n - 1] = '\0';
	return o->line;
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
			return true;
		}
	}

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
	if (o->recursive && strcmp(name, "-") != 0 && stat(name, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		*err = push(o, name);
		if (!*err)
			return fh_operands_next(o, path, err);
	}
	return true;
}

void fh_operands_free(struct operands *o)
{
	while (o->walk)
		pop(o);
	free(o->line);
	free(o->path);
	o->line = o->path = NULL;
	o->line_cap = o->path_cap = 0;
}
