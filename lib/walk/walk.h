/* walk.h: the tree walk of -r, --audit and --update.  Worker threads
 * list directories and stat their entries ahead of the caller, which
 * takes the names in one fixed order: depth first, each directory's
 * entries sorted byte-wise (strcmp), whatever the number of threads.
 * Symbolic links are not followed and only regular files come out.
 * What the workers hold ahead of the caller is bounded, and so are the
 * descriptors: one open directory per thread, whatever the depth. */
#ifndef FH_WALK_H
#define FH_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/os.h"

struct fh_walk;

struct fh_walk_opts {
	/* Threads that list ahead; 0 or 1: none, the caller lists each
	 * directory when it comes to it. */
	unsigned threads;
	/* Stat the regular files too (their size and mtime come with
	 * the name); otherwise only entries whose type readdir did not
	 * say are stat'ed. */
	bool stat;
	/* Entries listed ahead of the caller, at most (more only while one
	 * directory holds more); 0: a default of some MiB. */
	size_t ahead;
	/* Whether the entry REL (its path from the root, LEN bytes) is left
	 * out: asked first with IS_DIR false before its type is known (an
	 * entry so left out is not even stat'ed), then for a directory
	 * with IS_DIR true (one left out is not opened).  Called from
	 * several threads at once; NULL: nothing is left out. */
	bool (*skip)(void *ctx, const char *rel, size_t len, bool is_dir);
	void *skip_ctx;
};

/* One name of the walk. */
struct fh_walk_item {
	const char *path;       /* valid until the next fh_walk_next */
	/* 0: PATH is a regular file.  Otherwise an errno value: PATH is a
	 * directory that could not be listed, or an entry whose type could
	 * not be read; the caller reports it. */
	int err;
	bool root;              /* PATH is the walk's root */
	/* For a regular file: whether it was stat'ed, and how. */
	bool has_stat;
	int stat_err;           /* 0: ST holds it */
	struct fh_os_stat st;
};

/* A walk with OPTS (copied), not started: 0, or ENOMEM.  Threads that
 * cannot be started are done without.  Not thread-safe, as the rest:
 * one caller thread drives a walk. */
int fh_walk_new(struct fh_walk **w, const struct fh_walk_opts *opts);

/* Starts walking the directory ROOT (copied); a walk not yet ended is
 * given up.  Entries are matched for skip from byte REL_AT of their
 * path on. */
int fh_walk_root(struct fh_walk *w, const char *root, size_t rel_at);

/* The next name of the walk into *IT: false at its end. */
bool fh_walk_next(struct fh_walk *w, struct fh_walk_item *it);

/* Stops the threads and frees W (NULL: nothing). */
void fh_walk_free(struct fh_walk *w);

#endif
