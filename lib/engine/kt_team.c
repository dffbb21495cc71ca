/* kt_team.c: the leaves of one KT128/KT256 input on several threads.
 *
 * The caller's thread submits the mapped windows of the file in order and
 * retires them in the same order; up to FH_KT_TEAM_WINDOWS are held at
 * once, so the helpers go on with the next window's leaves while the
 * caller retires one, unmaps it and maps the one after.  The whole leaves
 * of a window are handed out FH_KT_CLAIM at a time to whichever thread
 * asks first (the oldest window's first), each claim hashed in the widest
 * multi-buffer lanes (fh_kt_leaves) into the window's chaining values: a
 * thread that loses time to page faults or to another process simply
 * claims less, and nobody waits at the end of a window.  Retiring gives
 * the context, on the caller's thread, the window's bytes before its
 * first whole leaf, then its chaining values in leaf order, then the
 * bytes after its last whole leaf, so the digest is the one a single
 * thread computes.  A window that is read rather than mapped (window.c
 * decides) is read claim by claim, each thread into its own buffer of one
 * claim's leaves, and its bytes before and after the leaves by the caller.
 * Memory is the chaining values of the windows held and a buffer a
 * thread, whatever the file's size. */
#include <pthread.h>
#include <stdlib.h>

#include "blake3.h"
#include "guard.h"
#include "io.h"
#include "kt.h"
#include "kt_team.h"
#include "os.h"

/* Leaves one claim hashes: 256 KiB, four rounds of eight lanes.  Large
 * enough that claiming (a lock) and the fault guard (a sigsetjmp) cost
 * nothing measurable, small enough that the last claims of a file end
 * close together. */
#define FH_KT_CLAIM 32

struct fh_kt_team;

/* A tree the team hashes: KT's leaves, or BLAKE3's subtrees of 32
 * chunks.  The bytes of a leaf and of a claim (the same for both, so
 * that a thread's read buffer serves either), whether the input's last
 * byte must stay out of the leaves (BLAKE3's root is finished by the
 * context), and the three pieces of the tree's code. */
struct tree {
	size_t leaf, claim_bytes;
	bool keep_last;
	size_t (*lead_after)(const fh_ctx *ctx, uint64_t more);
	void (*leaves)(const struct fh_kt_team *t, const uint8_t *p,
		       uint64_t first, size_t n, uint8_t *cvs);
	void (*add)(fh_ctx *ctx, const uint8_t *cvs, size_t n);
};

struct window {
	const uint8_t *map;     /* the mapping, for the fault guard; NULL: */
	size_t maplen;
	int fd;                 /* the window is read from FD at OFF */
	off_t off;
	const uint8_t *p;       /* the window's bytes */
	size_t lead;            /* to the context before the leaves */
	uint64_t first;         /* the input's leaf at P + LEAD */
	size_t n;               /* whole leaves from P + LEAD */
	size_t tail;            /* to the context after them */
	uint8_t *cvs;           /* the leaves' chaining values */
	size_t cv_cap;          /* leaves CVS has room for */
	size_t claimed, done;   /* leaves handed out, and hashed */
	bool failed;            /* a byte could not be had */
};

struct fh_kt_team {
	pthread_mutex_t lock;
	pthread_cond_t work;    /* helpers: leaves to claim, or stop */
	pthread_cond_t done;    /* the caller: a claim ended */
	unsigned threads, started;
	bool stop;
	bool given_up;          /* a window failed: claim nothing more */
	unsigned busy;          /* claims being hashed */
	/* The kernels of the windows held (those of the context). */
	const struct fh_algo *algo;
	const struct fh_kernel *single, *multi;
	const struct tree *tree;
	size_t cvb;             /* bytes of a leaf's chaining value */
	fh_ctx b3;              /* BLAKE3: the key, flags and kernel */
	struct window win[FH_KT_TEAM_WINDOWS];
	unsigned head, count;   /* the windows held, oldest first */
	uint64_t held_bytes;    /* their bytes, not yet in the context */
	pthread_t *tids;
	/* With READS, a buffer of FH_KT_CLAIM leaves a thread: the
	 * caller's last; NEXT_BUF hands the others out. */
	uint8_t **bufs;
	unsigned nbufs, next_buf;
};

struct claim {
	struct fh_kt_team *t;
	struct window *w;
	size_t first, n;        /* leaves of W */
};

static void kt_leaves(const struct fh_kt_team *t, const uint8_t *p,
		      uint64_t first, size_t n, uint8_t *cvs)
{
	(void)first;
	fh_kt_leaves(t->algo, t->single, t->multi, p, n, cvs);
}

static void kt_add(fh_ctx *ctx, const uint8_t *cvs, size_t n)
{
	fh_kt_add_leaves(ctx, cvs, n);
}

static const struct tree kt_tree = {
	.leaf = FH_KT_CHUNK, .claim_bytes = FH_KT_CLAIM * FH_KT_CHUNK,
	.lead_after = fh_kt_lead_after, .leaves = kt_leaves, .add = kt_add,
};

static void b3_leaves(const struct fh_kt_team *t, const uint8_t *p,
		      uint64_t first, size_t n, uint8_t *cvs)
{
	fh_blake3_leaves(&t->b3, p, first, n, cvs);
}

/* 8 leaves of 32 KiB: a claim of KT's size. */
static const struct tree blake3_tree = {
	.leaf = FH_BLAKE3_LEAF, .claim_bytes = FH_KT_CLAIM * FH_KT_CHUNK,
	.keep_last = true, .lead_after = fh_blake3_lead_after,
	.leaves = b3_leaves, .add = fh_blake3_add_leaves,
};

static const struct tree *tree_of(const fh_ctx *ctx)
{
	return ctx->algo->cv_bytes ? &kt_tree : &blake3_tree;
}

bool fh_team_serves(const struct fh_algo *algo)
{
	return algo->cv_bytes || algo->family == FH_FAMILY_BLAKE3;
}

/* The next claim, oldest window first; false if no leaves are left.
 * Under the lock. */
static bool claim_next(struct fh_kt_team *t, struct claim *c)
{
	if (t->given_up)
		return false;
	for (unsigned i = 0; i < t->count; i++) {
		struct window *w = &t->win[(t->head + i) % FH_KT_TEAM_WINDOWS];
		size_t left = w->n - w->claimed;

		if (!left)
			continue;
		c->t = t;
		c->w = w;
		c->first = w->claimed;
		size_t most = t->tree->claim_bytes / t->tree->leaf;

		c->n = left < most ? left : most;
		w->claimed += c->n;
		t->busy++;
		return true;
	}
	return false;
}

static void hash_claim(void *arg)
{
	const struct claim *c = arg;
	const struct fh_kt_team *t = c->t;
	const struct window *w = c->w;

	t->tree->leaves(t, w->p + w->lead + c->first * t->tree->leaf,
			w->first + c->first, c->n, w->cvs + c->first * t->cvb);
}

/* Claim C of a window read: its leaves into BUF, then hashed there. */
static bool read_claim(const struct claim *c, uint8_t *buf)
{
	const struct fh_kt_team *t = c->t;
	const struct window *w = c->w;
	off_t off = w->off + (off_t)(w->lead + c->first * t->tree->leaf);

	if (fh_pread_full(w->fd, buf, c->n * t->tree->leaf, off) != 0)
		return false;
	t->tree->leaves(t, buf, w->first + c->first, c->n,
			w->cvs + c->first * t->cvb);
	return true;
}

/* Hashes claim C with the lock released, under the fault guard of its
 * window or read into BUF, and books it. */
static void run_claim(struct fh_kt_team *t, struct claim *c, uint8_t *buf)
{
	pthread_mutex_unlock(&t->lock);
	bool ok = c->w->map ? fh_guard_run(c->w->map, c->w->maplen, hash_claim,
					   c)
			    : read_claim(c, buf);
	pthread_mutex_lock(&t->lock);
	if (!ok)
		c->w->failed = true;
	c->w->done += c->n;
	t->busy--;
	pthread_cond_signal(&t->done);
}

static void *helper_main(void *arg)
{
	struct fh_kt_team *t = arg;
	struct claim c;
	uint8_t *buf;

	pthread_mutex_lock(&t->lock);
	buf = t->bufs ? t->bufs[t->next_buf++] : NULL;
	while (!t->stop) {
		if (claim_next(t, &c))
			run_claim(t, &c, buf);
		else
			pthread_cond_wait(&t->work, &t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

struct fh_kt_team *fh_kt_team_new(unsigned threads, bool reads)
{
	struct fh_kt_team *t;

	if (threads < 2 || !(t = calloc(1, sizeof *t)))
		return NULL;
	t->threads = threads;
	t->tids = calloc(threads, sizeof *t->tids);
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->work, NULL);
	pthread_cond_init(&t->done, NULL);
	if (reads && (t->bufs = calloc(threads, sizeof *t->bufs)))
		for (unsigned i = 0; i < (t->nbufs = threads); i++)
			if (!(t->bufs[i] = fh_buf_alloc(FH_KT_CLAIM *
							FH_KT_CHUNK)))
				reads = false;
	if (!t->tids || (reads && !t->bufs) || (t->bufs && !reads)) {
		fh_kt_team_free(t);
		return NULL;
	}
	for (unsigned i = 0; i + 1 < threads; i++) {
		if (fh_thread_start(&t->tids[i], helper_main, t,
				    FH_STACK_WORKER) != 0)
			break;
		t->started++;
	}
	if (t->started == 0) {
		fh_kt_team_free(t);
		return NULL;
	}
	t->threads = t->started + 1;
	return t;
}

void fh_kt_team_free(struct fh_kt_team *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_broadcast(&t->work);
	pthread_mutex_unlock(&t->lock);
	for (unsigned i = 0; i < t->started; i++)
		pthread_join(t->tids[i], NULL);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->work);
	pthread_cond_destroy(&t->done);
	for (unsigned i = 0; i < FH_KT_TEAM_WINDOWS; i++)
		free(t->win[i].cvs);
	for (unsigned i = 0; i < t->nbufs; i++)
		free(t->bufs[i]);
	free(t->bufs);
	free(t->tids);
	free(t);
}

void fh_kt_team_submit(struct fh_kt_team *t, const fh_ctx *ctx,
		       const uint8_t *map, size_t maplen, const uint8_t *p,
		       size_t len, int fd, off_t off)
{
	/* Only the caller adds and removes windows, so the free slot and
	 * the bytes held can be read without the lock. */
	struct window *w = &t->win[(t->head + t->count) % FH_KT_TEAM_WINDOWS];

	if (!t->tree) {         /* a team serves one input */
		t->tree = tree_of(ctx);
		t->cvb = ctx->algo->cv_bytes ? ctx->algo->cv_bytes : 32;
		if (!ctx->algo->cv_bytes)
			t->b3 = *ctx;
	}
	size_t lead = t->tree->lead_after(ctx, t->held_bytes);
	size_t n, cvb = t->cvb, keep = t->tree->keep_last;

	lead = lead < len ? lead : len;
	n = len - lead > keep ? (len - lead - keep) / t->tree->leaf : 0;
	if (n > w->cv_cap) {
		uint8_t *c = realloc(w->cvs, n * cvb);

		if (c) {
			w->cvs = c;
			w->cv_cap = n;
		} else {
			n = 0;  /* the caller hashes the window alone */
		}
	}
	pthread_mutex_lock(&t->lock);
	if (!t->algo) {         /* a team serves one input */
		t->algo = ctx->algo;
		t->single = ctx->kernel;
		t->multi = ctx->mode.kt.multi;
	}
	w->map = map;
	w->maplen = maplen;
	w->fd = fd;
	w->off = off;
	w->p = p;
	w->lead = lead;
	w->first = (ctx->total + t->held_bytes + lead) / t->tree->leaf;
	w->n = n;
	w->tail = len - lead - n * t->tree->leaf;
	w->claimed = w->done = 0;
	w->failed = false;
	t->count++;
	t->held_bytes += len;
	pthread_cond_broadcast(&t->work);
	pthread_mutex_unlock(&t->lock);
}

/* A page could not be had: nothing more is claimed, and the claims in work are
 * waited out, so that no thread touches a window held once the caller
 * goes on.  Under the lock. */
static void give_up(struct fh_kt_team *t)
{
	t->given_up = true;
	while (t->busy)
		pthread_cond_wait(&t->done, &t->lock);
	t->count = 0;
	t->held_bytes = 0;
}

/* fh_update of CTX with LEN bytes of FD at OFF, read through BUF (a
 * claim's leaves long): false where they cannot be read. */
static bool update_read(fh_ctx *ctx, int fd, uint8_t *buf, off_t off,
			size_t len)
{
	const size_t room = FH_KT_CLAIM * FH_KT_CHUNK;

	for (size_t at = 0; at < len; at += room) {
		size_t n = len - at < room ? len - at : room;

		if (fh_pread_full(fd, buf, n, off + (off_t)at) != 0)
			return false;
		fh_update(ctx, buf, n);
	}
	return true;
}

bool fh_kt_team_retire(struct fh_kt_team *t, fh_ctx *ctx)
{
	struct window *w = &t->win[t->head];
	struct claim c;
	bool ok;

	uint8_t *buf = t->bufs ? t->bufs[t->threads - 1] : NULL;

	pthread_mutex_lock(&t->lock);
	while (w->done < w->n && !w->failed) {
		if (claim_next(t, &c))
			run_claim(t, &c, buf);
		else
			pthread_cond_wait(&t->done, &t->lock);
	}
	if (w->failed) {
		give_up(t);
		pthread_mutex_unlock(&t->lock);
		return false;
	}
	pthread_mutex_unlock(&t->lock);

	const size_t after = w->lead + w->n * t->tree->leaf;

	ok = w->map ? fh_guard_update(ctx, w->map, w->maplen, w->p, w->lead)
		    : update_read(ctx, w->fd, buf, w->off, w->lead);
	if (ok) {
		if (w->n)
			t->tree->add(ctx, w->cvs, w->n);
		ok = w->map ? fh_guard_update(ctx, w->map, w->maplen,
					      w->p + after, w->tail)
			    : update_read(ctx, w->fd, buf,
					  w->off + (off_t)after, w->tail);
	}
	pthread_mutex_lock(&t->lock);
	t->head = (t->head + 1) % FH_KT_TEAM_WINDOWS;
	t->count--;
	t->held_bytes -= after + w->tail;
	if (!ok)
		give_up(t);
	pthread_mutex_unlock(&t->lock);
	return ok;
}
