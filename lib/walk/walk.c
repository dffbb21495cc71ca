/* walk.c: the tree walk (walk.h).  Directories are the work items.  A
 * directory's node is listed once, by a worker or by the caller: read,
 * filtered (skip), its regular files stat'ed, sorted; each subdirectory
 * kept becomes a node of its own, pending.  Pending nodes wait on one
 * stack, a directory's children pushed first-name-on-top, so that the
 * workers take them in the order the caller will want them (depth
 * first).  The caller walks the listed nodes in order; a node it needs
 * that no worker has claimed yet it lists itself, so it never waits on a
 * queue, and with no workers the walk is the plain sequential one.
 * Memory: workers stop claiming while the entries listed and not yet
 * consumed pass opts.ahead; the caller's own listings are never held
 * back, so it cannot wait on a worker that waits on it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "walk.h"

#define WALK_AHEAD 65536 /* entries: a few MiB of names and stats */

enum state { PENDING, CLAIMED, LISTED };

struct ent {
	const char *name;       /* in its node's names */
	struct node *child;     /* a directory to enter, until entered */
	int err;                /* its type could not be read */
	int stat_err;
	bool has_stat;
	struct fh_os_stat st;
};

struct node {
	struct node *prev, *next; /* on the pending stack */
	enum state state;         /* under the walk's lock */
	int err;                  /* listing it failed */
	char *path;
	size_t plen;
	struct ent *ents;
	size_t n;
	char *names;
};

struct frame {
	struct node *d;
	size_t next;
};

struct fh_walk {
	struct fh_walk_opts o;
	size_t rel_at;
	pthread_mutex_t lock;
	pthread_cond_t work;      /* a node pending, room ahead, or stop */
	pthread_cond_t listed;    /* a node listed */
	struct node *top;         /* the pending stack */
	size_t held;              /* entries listed, not yet consumed */
	unsigned busy;            /* workers listing a node */
	bool paused;              /* no claims: the walk is being dropped */
	bool stop;
	pthread_t *tids;
	unsigned nthreads;
	struct frame *stack;      /* the caller's path through the tree */
	size_t depth, cap;
	struct node *root;        /* not yet handed out */
	char *path;               /* the caller's last name */
	size_t path_cap;
	char *scratch;            /* paths of the caller's own listings */
	size_t scratch_cap;
};

/* DIR "/" NAME into *BUF (grown); returns its length, or 0 without
 * memory.  "/" and "d/" take no second slash. */
static size_t join(char **buf, size_t *cap, const char *dir, size_t dl,
		   const char *name)
{
	size_t nl = strlen(name);
	bool slash = dl && dir[dl - 1] != '/';

	if (dl + slash + nl + 1 > *cap) {
		size_t c = 2 * (dl + slash + nl + 1);
		char *p = realloc(*buf, c);

		if (!p)
			return 0;
		*buf = p;
		*cap = c;
	}
	memmove(*buf, dir, dl);
	(*buf)[dl] = '/';
	memcpy(*buf + dl + slash, name, nl + 1);
	return dl + slash + nl;
}

static struct node *node_new(const char *path, size_t len)
{
	struct node *d = calloc(1, sizeof *d);

	if (!d || !(d->path = malloc(len + 1))) {
		free(d);
		return NULL;
	}
	memcpy(d->path, path, len + 1);
	d->plen = len;
	return d;
}

/* Frees D and what it lists, entered or not. */
static void node_free(struct node *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		node_free(d->ents[i].child);
	free(d->ents);
	free(d->names);
	free(d->path);
	free(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ent *)a)->name, ((const struct ent *)b)->name);
}

/* Reads D's names into D->names, one after another, NUL-ended, and their
 * readdir types into *TYPES: 0 or an errno value. */
static int read_names(DIR *dir, struct node *d, unsigned char **types,
		      size_t *bytes)
{
	size_t cap = 0, tcap = 0;
	struct dirent *de;

	*bytes = 0;
	while (errno = 0, (de = readdir(dir)) != NULL) {
		const char *s = de->d_name;

		if (s[0] == '.' && (!s[1] || (s[1] == '.' && !s[2])))
			continue;
		size_t l = strlen(s) + 1;

		if (*bytes + l > cap) {
			char *p = realloc(d->names, cap = 2 * (*bytes + l) + 4096);

			if (!p)
				return ENOMEM;
			d->names = p;
		}
		if (d->n == tcap) {
			unsigned char *t = realloc(*types, tcap = 2 * tcap + 64);

			if (!t)
				return ENOMEM;
			*types = t;
		}
		memcpy(d->names + *bytes, s, l);
		*bytes += l;
		(*types)[d->n++] = de->d_type;
	}
	return errno;
}

/* What entry E (its path PATH, PLEN bytes) is, through DFD; false when it
 * is left out of the walk.  A directory gets its node. */
static bool classify(struct fh_walk *w, int dfd, struct ent *e,
		     unsigned char type, const char *path, size_t plen)
{
	const char *rel = path + w->rel_at;
	size_t rlen = plen - w->rel_at;

	/* A pattern for files and directories alike needs no type: an
	 * entry it leaves out is not even stat'ed. */
	if (w->o.skip && w->o.skip(w->o.skip_ctx, rel, rlen, false))
		return false;
	if (type == DT_UNKNOWN) {
		/* The file system did not say (some network ones, old XFS). */
		e->err = fh_os_lstat_at(dfd, e->name, &e->st);
		if (e->err)
			return true;
		e->has_stat = true;
		type = S_ISDIR(e->st.mode) ? DT_DIR : S_ISREG(e->st.mode) ? DT_REG : DT_UNKNOWN;
	}
	if (type == DT_DIR) {
		if (w->o.skip && w->o.skip(w->o.skip_ctx, rel, rlen, true))
			return false;
		e->has_stat = false;
		e->child = node_new(path, plen);
		if (!e->child)
			e->err = ENOMEM;
		return true;
	}
	if (type != DT_REG)
		return false;
	if (w->o.stat && !e->has_stat) {
		e->stat_err = fh_os_lstat_at(dfd, e->name, &e->st);
		e->has_stat = true;
	}
	return true;
}

/* Lists node D (read, classify, sort); D->err says whether it failed.
 * BUF holds paths (grown). */
static void list(struct fh_walk *w, struct node *d, char **buf, size_t *cap)
{
	unsigned char *types = NULL;
	size_t bytes = 0, kept = 0;
	int fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;

	if (!dir) {
		d->err = errno;
		if (fd >= 0)
			close(fd);
		return;
	}
	d->err = read_names(dir, d, &types, &bytes);
	if (!d->err && d->n && !(d->ents = calloc(d->n, sizeof *d->ents)))
		d->err = ENOMEM;
	for (size_t i = 0, off = 0; !d->err && i < d->n; i++) {
		struct ent *e = &d->ents[kept];
		const char *name = d->names + off;
		size_t plen = join(buf, cap, d->path, d->plen, name);

		off += strlen(name) + 1;
		memset(e, 0, sizeof *e);
		e->name = name;
		if (!plen)
			d->err = ENOMEM;
		else if (classify(w, dirfd(dir), e, types[i], *buf, plen))
			kept++;
	}
	closedir(dir);
	free(types);
	if (d->err) {
		/* Said once, for the directory; what was read of it is
		 * dropped, as the sequential walk drops it. */
		for (size_t i = 0; i < kept; i++)
			node_free(d->ents[i].child);
		kept = 0;
	}
	d->n = kept;
	if (kept > 1)
		qsort(d->ents, kept, sizeof *d->ents, by_name);
}

/* Pending stack, under the lock. */
static void unlink_node(struct fh_walk *w, struct node *d)
{
	if (d->prev)
		d->prev->next = d->next;
	else
		w->top = d->next;
	if (d->next)
		d->next->prev = d->prev;
	d->prev = d->next = NULL;
}

static void push_pending(struct fh_walk *w, struct node *d)
{
	d->prev = NULL;
	d->next = w->top;
	if (w->top)
		w->top->prev = d;
	w->top = d;
}

/* D is listed: its children join the stack, the first on top.  Under
 * the lock. */
static void publish(struct fh_walk *w, struct node *d)
{
	size_t added = 0;

	d->state = LISTED;
	w->held += d->n;
	for (size_t i = d->n; i-- > 0;)
		if (d->ents[i].child) {
			d->ents[i].child->state = PENDING;
			push_pending(w, d->ents[i].child);
			added++;
		}
	pthread_cond_broadcast(&w->listed);
	if (added && w->nthreads)
		pthread_cond_broadcast(&w->work);
}

static void *worker(void *arg)
{
	struct fh_walk *w = arg;
	char *buf = NULL;
	size_t cap = 0;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->stop && (w->paused || !w->top || w->held >= w->o.ahead))
			pthread_cond_wait(&w->work, &w->lock);
		if (w->stop)
			break;
		struct node *d = w->top;

		unlink_node(w, d);
		d->state = CLAIMED;
		w->busy++;
		pthread_mutex_unlock(&w->lock);
		list(w, d, &buf, &cap);
		pthread_mutex_lock(&w->lock);
		publish(w, d);
		w->busy--;
	}
	pthread_mutex_unlock(&w->lock);
	free(buf);
	return NULL;
}

/* Makes sure D is listed: lists it here if no worker has claimed it,
 * else waits for the worker. */
static void need(struct fh_walk *w, struct node *d)
{
	pthread_mutex_lock(&w->lock);
	if (d->state == PENDING) {
		unlink_node(w, d);
		d->state = CLAIMED;
		pthread_mutex_unlock(&w->lock);
		list(w, d, &w->scratch, &w->scratch_cap);
		pthread_mutex_lock(&w->lock);
		publish(w, d);
	}
	while (d->state != LISTED)
		pthread_cond_wait(&w->listed, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* Takes D and what lies under it off the pending stack, waiting out any
 * worker listing there; returns the entries listed in it.  Under the
 * lock. */
static size_t detach(struct fh_walk *w, struct node *d)
{
	size_t n = 0;

	while (d->state == CLAIMED)
		pthread_cond_wait(&w->listed, &w->lock);
	if (d->state == PENDING) {
		unlink_node(w, d);
		d->state = LISTED; /* as an empty directory: never claimed */
		return 0;
	}
	n = d->n;
	for (size_t i = 0; i < d->n; i++)
		if (d->ents[i].child)
			n += detach(w, d->ents[i].child);
	return n;
}

/* The caller is done with D (and whatever under it was not entered,
 * after an error): its entries leave the budget, and it is freed. */
static void consumed(struct fh_walk *w, struct node *d)
{
	pthread_mutex_lock(&w->lock);
	bool was_full = w->held >= w->o.ahead;

	w->held -= detach(w, d);
	if (was_full && w->held < w->o.ahead && w->nthreads)
		pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->lock);
	node_free(d);
}

/* Enters D, listed: 0, or ENOMEM. */
static int enter(struct fh_walk *w, struct node *d)
{
	if (w->depth == w->cap) {
		size_t c = w->cap ? 2 * w->cap : 64;
		struct frame *s = realloc(w->stack, c * sizeof *s);

		if (!s)
			return ENOMEM;
		w->stack = s;
		w->cap = c;
	}
	w->stack[w->depth++] = (struct frame){ .d = d };
	return 0;
}

int fh_walk_new(struct fh_walk **wp, const struct fh_walk_opts *opts)
{
	struct fh_walk *w = calloc(1, sizeof *w);

	*wp = w;
	if (!w)
		return ENOMEM;
	w->o = *opts;
	if (!w->o.ahead)
		w->o.ahead = WALK_AHEAD;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->listed, NULL);
	unsigned want = opts->threads > 1 ? opts->threads : 0;

	if (want && !(w->tids = calloc(want, sizeof *w->tids)))
		want = 0;
	/* Threads that do not start are done without: the caller lists
	 * what no worker claims. */
	while (w->nthreads < want &&
	       fh_thread_start(&w->tids[w->nthreads], worker, w, FH_STACK_SMALL) == 0)
		w->nthreads++;
	return 0;
}

/* Gives up the walk under way: every node not yet consumed. */
static void drop_walk(struct fh_walk *w)
{
	/* No worker may hold a node while it is freed: the listings in
	 * flight are waited out, with none claimed after them.  Every node
	 * is the child of an entry of the caller's stack, or below one. */
	pthread_mutex_lock(&w->lock);
	w->paused = true;
	while (w->busy)
		pthread_cond_wait(&w->listed, &w->lock);
	w->top = NULL;
	w->held = 0;
	w->paused = false;
	pthread_mutex_unlock(&w->lock);
	while (w->depth)
		node_free(w->stack[--w->depth].d);
	node_free(w->root);
	w->root = NULL;
}

int fh_walk_root(struct fh_walk *w, const char *root, size_t rel_at)
{
	drop_walk(w);
	w->rel_at = rel_at;
	w->root = node_new(root, strlen(root));
	if (!w->root)
		return ENOMEM;
	pthread_mutex_lock(&w->lock);
	push_pending(w, w->root);
	if (w->nthreads)
		pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

/* PATH (LEN bytes) as the caller's name: false without memory. */
static bool set_path(struct fh_walk *w, const char *path, size_t len)
{
	if (len + 1 > w->path_cap) {
		char *p = realloc(w->path, len + 1);

		if (!p)
			return false;
		w->path = p;
		w->path_cap = len + 1;
	}
	memcpy(w->path, path, len + 1);
	return true;
}

/* The item for entry E, whose path is PATH. */
static void item_of(struct fh_walk_item *it, const struct ent *e, const char *path)
{
	*it = (struct fh_walk_item){
		.path = path,
		.err = e->err,
		.has_stat = e->has_stat,
		.stat_err = e->stat_err,
		.st = e->st,
	};
}

bool fh_walk_next(struct fh_walk *w, struct fh_walk_item *it)
{
	if (w->root) {
		struct node *r = w->root;

		w->root = NULL;
		need(w, r);
		if (r->err || enter(w, r)) {
			*it = (struct fh_walk_item){
				.path = set_path(w, r->path, r->plen) ? w->path : "",
				.err = r->err ? r->err : ENOMEM,
				.root = true,
			};
			consumed(w, r);
			return true;
		}
	}
	while (w->depth) {
		struct frame *f = &w->stack[w->depth - 1];
		struct node *d = f->d;

		if (f->next == d->n) {
			w->depth--;
			consumed(w, d);
			continue;
		}
		struct ent *e = &d->ents[f->next++];
		size_t plen = join(&w->path, &w->path_cap, d->path, d->plen, e->name);

		if (!plen) {
			*it = (struct fh_walk_item){ .path = e->name, .err = ENOMEM };
			return true;
		}
		if (e->child) {
			struct node *c = e->child;

			need(w, c);
			e->child = NULL;
			if (!c->err && enter(w, c) == 0)
				continue;
			*it = (struct fh_walk_item){ .path = w->path, .err = c->err ? c->err : ENOMEM };
			consumed(w, c);
			return true;
		}
		item_of(it, e, w->path);
		return true;
	}
	return false;
}

void fh_walk_free(struct fh_walk *w)
{
	if (!w)
		return;
	drop_walk(w);
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; i < w->nthreads; i++)
		pthread_join(w->tids[i], NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->listed);
	free(w->tids);
	free(w->stack);
	free(w->path);
	free(w->scratch);
	free(w);
}
