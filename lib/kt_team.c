/* kt_team.c: the leaves of one KT128/KT256 input on several threads.
 *
 * The team hashes one mapped window at a time.  The caller's thread gives
 * the context whatever comes before the window's first whole leaf, cuts
 * the whole leaves into one contiguous range per thread, hashes range 0
 * itself while the helpers hash the others (each in the widest
 * multi-buffer lanes, fh_kt_leaves), waits for them, and absorbs all the
 * chaining values into the final node in leaf order; the rest of the
 * window goes to the context as usual.  Memory is one window's chaining
 * values, whatever the file's size, and the digest is the one a single
 * thread computes: each leaf's value depends on its bytes alone, and the
 * final node sees them in order. */
#include <pthread.h>
#include <stdlib.h>

#include "input.h"
#include "kt.h"
#include "kt_team.h"

struct range {
	const uint8_t *p;       /* the range's first leaf */
	size_t n;               /* leaves */
	uint8_t *cvs;           /* their chaining values */
};

struct fh_kt_team {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	unsigned threads, started;
	uint64_t round;         /* bumped for each window's work */
	unsigned pending;       /* helpers still on this round's ranges */
	bool stop, shrank;
	/* This round's job, read by the helpers once ROUND changes. */
	const fh_ctx *ctx;
	const uint8_t *map;
	size_t maplen;
	struct range *ranges;   /* one per thread */
	uint8_t *cvs;
	size_t cv_cap;          /* leaves CVS has room for */
	pthread_t *tids;
};

struct job {
	const fh_ctx *ctx;
	const struct range *r;
};

static void hash_range(void *arg)
{
	const struct job *j = arg;
	const fh_ctx *ctx = j->ctx;

	fh_kt_leaves(ctx->algo, ctx->kernel, ctx->kt.multi, j->r->p, j->r->n,
		     j->r->cvs);
}

/* Range R under the SIGBUS guard of the window; false if it faulted. */
static bool run_range(struct fh_kt_team *t, const struct range *r)
{
	struct job j = { t->ctx, r };

	return !r->n || fh_input_guarded(t->map, t->maplen, hash_range, &j);
}

struct helper {
	struct fh_kt_team *t;
	unsigned index;
};

static void *helper_main(void *arg)
{
	struct fh_kt_team *t = ((struct helper *)arg)->t;
	unsigned index = ((struct helper *)arg)->index;
	uint64_t seen = 0;

	free(arg);
	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (!t->stop && t->round == seen)
			pthread_cond_wait(&t->work, &t->lock);
		if (t->stop)
			break;
		seen = t->round;
		pthread_mutex_unlock(&t->lock);
		bool ok = run_range(t, &t->ranges[index]);
		pthread_mutex_lock(&t->lock);
		if (!ok)
			t->shrank = true;
		if (--t->pending == 0)
			pthread_cond_signal(&t->done);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

struct fh_kt_team *fh_kt_team_new(unsigned threads)
{
	struct fh_kt_team *t;

	if (threads < 2 || !(t = calloc(1, sizeof *t)))
		return NULL;
	t->threads = threads;
	t->ranges = calloc(threads, sizeof *t->ranges);
	t->tids = calloc(threads, sizeof *t->tids);
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->work, NULL);
	pthread_cond_init(&t->done, NULL);
	if (!t->ranges || !t->tids) {
		fh_kt_team_free(t);
		return NULL;
	}
	for (unsigned i = 1; i < threads; i++) {
		struct helper *h = malloc(sizeof *h);

		if (!h)
			break;
		*h = (struct helper){ t, i };
		if (pthread_create(&t->tids[i], NULL, helper_main, h) != 0) {
			free(h);
			break;
		}
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
	for (unsigned i = 1; i <= t->started; i++)
		pthread_join(t->tids[i], NULL);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->work);
	pthread_cond_destroy(&t->done);
	free(t->ranges);
	free(t->tids);
	free(t->cvs);
	free(t);
}

/* fh_update under the window's guard, on the caller's thread. */
static bool feed(struct fh_kt_team *t, fh_ctx *ctx, const uint8_t *p,
		 size_t len)
{
	return fh_input_update_guarded(ctx, t->map, t->maplen, p, len);
}

bool fh_kt_team_update(struct fh_kt_team *t, fh_ctx *ctx, const uint8_t *map,
		       size_t maplen, const uint8_t *p, size_t len)
{
	size_t lead = fh_kt_lead(ctx), n, cvb = ctx->algo->cv_bytes;

	t->map = map;
	t->maplen = maplen;
	lead = lead < len ? lead : len;
	if (!feed(t, ctx, p, lead))
		return false;
	p += lead;
	len -= lead;
	n = len / FH_KT_CHUNK;
	/* Fewer leaves than a round of lanes per thread: not worth waking. */
	if (n < 2 * (size_t)t->threads)
		return feed(t, ctx, p, len);
	if (n > t->cv_cap) {
		uint8_t *c = realloc(t->cvs, n * cvb);

		if (!c)
			return feed(t, ctx, p, len);
		t->cvs = c;
		t->cv_cap = n;
	}
	for (unsigned i = 0; i < t->threads; i++) {
		size_t lo = n * i / t->threads, hi = n * (i + 1) / t->threads;

		t->ranges[i] = (struct range){ p + lo * FH_KT_CHUNK, hi - lo,
					       t->cvs + lo * cvb };
	}
	pthread_mutex_lock(&t->lock);
	t->ctx = ctx;
	t->shrank = false;
	t->pending = t->threads - 1;
	t->round++;
	pthread_cond_broadcast(&t->work);
	pthread_mutex_unlock(&t->lock);

	bool ok = run_range(t, &t->ranges[0]);

	pthread_mutex_lock(&t->lock);
	while (t->pending)
		pthread_cond_wait(&t->done, &t->lock);
	ok = ok && !t->shrank;
	pthread_mutex_unlock(&t->lock);
	if (!ok)
		return false;
	fh_kt_add_leaves(ctx, t->cvs, n);
	p += n * FH_KT_CHUNK;
	len -= n * FH_KT_CHUNK;
	return feed(t, ctx, p, len);
}
