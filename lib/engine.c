/* engine.c: the parallel hashing engine.
 *
 * Jobs live in a ring of WINDOW slots between HEAD (the oldest job not yet
 * handed back) and TAIL (the next free slot).  The calling thread fills
 * slots at TAIL, hands finished slots back from HEAD, and draws progress;
 * workers claim ready slots in order from CLAIM and hash them.  Standard
 * input is hashed by the calling thread when its job reaches HEAD, so two
 * "-" operands read it in order.  With one thread no worker starts: the
 * calling thread hashes each job itself. */
#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "input.h"
#include "lanes.h"

enum slot_state { SLOT_READY, SLOT_BUSY, SLOT_STDIN, SLOT_DONE };

struct slot {
	struct fh_job job;
	enum slot_state state;
	char *path;             /* the engine's copy of job.path */
	size_t path_cap;
	size_t digest_cap;
};

struct engine {
	pthread_mutex_t lock;
	pthread_cond_t work;    /* workers wait here for ready slots */
	pthread_cond_t done;    /* the caller waits here for HEAD */
	struct slot *slots;
	size_t window;
	uint64_t head, claim, tail;
	bool finished;          /* no more jobs will come */
	bool caller_waits;
	unsigned idle;          /* workers waiting for work */
	struct fh_progress progress;
	bool no_mmap;
};

unsigned fh_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

static struct slot *slot_at(struct engine *e, uint64_t i)
{
	return &e->slots[i % e->window];
}

/* Hashes the job in S (called without the lock). */
static void hash_slot(struct engine *e, struct fh_reader *r, struct slot *s)
{
	struct fh_job *j = &s->job;

	(void)e;
	j->err = fh_hash_input(r, j->path, j->algo, j->kernel, j->digest,
			       j->outlen, &j->size);
}

/* Moves CLAIM past slots that no worker should take. */
static void skip_unclaimable(struct engine *e)
{
	while (e->claim < e->tail && slot_at(e, e->claim)->state != SLOT_READY)
		e->claim++;
}

static void finish_slot(struct engine *e, struct slot *s, uint64_t index)
{
	s->state = SLOT_DONE;
	e->progress.files_done++;
	e->progress.bytes_done += s->job.size;
	if (index == e->head && e->caller_waits)
		pthread_cond_signal(&e->done);
}

/* A job the lanes finished: TAG is its slot's index. */
static void lane_done(void *arg, void *tag)
{
	struct engine *e = arg;
	uint64_t index = (uint64_t)(uintptr_t)tag;

	pthread_mutex_lock(&e->lock);
	finish_slot(e, slot_at(e, index), index);
	pthread_mutex_unlock(&e->lock);
}

/* Claims ready slots in order.  A slot whose input can share the SIMD
 * lanes joins them, while they have room for it; any other is hashed at
 * once on the single-stream kernel.  When nothing can be claimed, the
 * lanes advance. */
static void *worker(void *arg)
{
	struct engine *e = arg;
	struct fh_reader r = { .no_mmap = e->no_mmap };
	struct fh_lanes *lanes = fh_lanes_new(lane_done, e);

	r.buf = malloc(FH_READ_SIZE);
	pthread_mutex_lock(&e->lock);
	while (r.buf && lanes) {
		skip_unclaimable(e);
		struct slot *s = e->claim < e->tail ? slot_at(e, e->claim) : NULL;

		if (s && (!fh_lanes_busy(lanes) || fh_lanes_room(lanes, &s->job))) {
			uint64_t index = e->claim++;

			s->state = SLOT_BUSY;
			/* Only inputs already queued count: a lone large file
			 * goes to the single-stream kernel, mapped. */
			skip_unclaimable(e);
			bool waiting = e->claim < e->tail;

			pthread_mutex_unlock(&e->lock);
			if (!fh_lanes_take(lanes, &s->job, (void *)(uintptr_t)index,
					   waiting)) {
				hash_slot(e, &r, s);
				pthread_mutex_lock(&e->lock);
				finish_slot(e, s, index);
				continue;
			}
			pthread_mutex_lock(&e->lock);
			continue;
		}
		if (fh_lanes_busy(lanes)) {
			bool waiting = s != NULL;

			pthread_mutex_unlock(&e->lock);
			fh_lanes_step(lanes, waiting);
			pthread_mutex_lock(&e->lock);
			continue;
		}
		if (e->finished)
			break;
		e->idle++;
		pthread_cond_wait(&e->work, &e->lock);
		e->idle--;
	}
	pthread_mutex_unlock(&e->lock);
	fh_lanes_free(lanes);
	free(r.buf);
	return NULL;
}

/* Copies the producer's job into slot S, taking ownership of nothing. */
static int fill_slot(struct slot *s, const struct fh_job *job)
{
	s->job = *job;
	s->job.err = 0;
	s->job.size = 0;
	if (job->path) {
		size_t n = strlen(job->path) + 1;

		if (n > s->path_cap) {
			char *p = realloc(s->path, n);

			if (!p)
				return ENOMEM;
			s->path = p;
			s->path_cap = n;
		}
		memcpy(s->path, job->path, n);
		s->job.path = s->path;
		if (job->outlen > s->digest_cap) {
			uint8_t *d = realloc(s->job.digest, job->outlen);

			if (!d)
				return ENOMEM;
			s->digest_cap = job->outlen;
			s->job.digest = d;
		}
	}
	s->state = !job->path ? SLOT_DONE
		 : strcmp(job->path, "-") == 0 ? SLOT_STDIN : SLOT_READY;
	return 0;
}

int fh_engine_run(const struct fh_engine_opts *opts, fh_next_fn *next,
		  fh_done_fn *done, void *ctx)
{
	unsigned threads = opts->threads ? opts->threads : fh_online_cpus();
	/* One thread hashes on the caller's thread, unless lanes may be
	 * used (they live in a worker) or progress is drawn (by the caller's
	 * thread, which must then stay free). */
	unsigned workers = threads > 1 || opts->lanes || opts->tick ? threads : 0;
	unsigned started = 0, min_waiting = opts->tick ? 1 : 2;
	struct engine e = { .no_mmap = opts->no_mmap };
	struct fh_reader r = { .no_mmap = opts->no_mmap };
	pthread_t *tids = NULL;
	struct timespec last_tick;
	int err = 0;

	/* Enough slots to keep every worker busy while a slow job blocks
	 * HEAD, yet a fixed amount of memory. */
	e.window = 64 + 16 * (size_t)threads;
	e.slots = calloc(e.window, sizeof *e.slots);
	r.buf = malloc(FH_READ_SIZE);
	if (workers)
		tids = calloc(workers, sizeof *tids);
	if (!e.slots || !r.buf || (workers && !tids)) {
		err = ENOMEM;
		goto out;
	}
	fh_input_init();
	pthread_mutex_init(&e.lock, NULL);
	pthread_cond_init(&e.work, NULL);
	pthread_cond_init(&e.done, NULL);
	clock_gettime(CLOCK_MONOTONIC, &last_tick);

	pthread_mutex_lock(&e.lock);
	for (;;) {
		/* Hand back every finished job at HEAD. */
		struct slot *s = slot_at(&e, e.head);

		if (e.head < e.tail && s->state == SLOT_STDIN) {
			s->state = SLOT_BUSY;
			pthread_mutex_unlock(&e.lock);
			hash_slot(&e, &r, s);
			pthread_mutex_lock(&e.lock);
			finish_slot(&e, s, e.head);
		}
		if (e.head < e.tail && s->state == SLOT_DONE) {
			pthread_mutex_unlock(&e.lock);
			done(ctx, &s->job);
			pthread_mutex_lock(&e.lock);
			e.head++;
			continue;
		}
		/* Produce one job when there is room. */
		if (!e.finished && e.tail - e.head < e.window) {
			struct slot *t = slot_at(&e, e.tail);
			struct fh_job job = { .digest = t->job.digest };
			bool more;

			pthread_mutex_unlock(&e.lock);
			more = next(ctx, &job);
			if (more)
				err = fill_slot(t, &job);
			pthread_mutex_lock(&e.lock);
			if (err || !more) {
				e.finished = true;
				pthread_cond_broadcast(&e.work);
				if (err)
					break;
				continue;
			}
			e.tail++;
			if (t->state != SLOT_DONE) {
				e.progress.files_known++;
				e.progress.bytes_known += t->job.size_hint;
			}
			/* A worker starts once two inputs wait: a run of one
			 * input is hashed here, without a thread's start-up
			 * (unless progress needs this thread). */
			if (t->state == SLOT_READY) {
				skip_unclaimable(&e);
				if (e.idle)
					pthread_cond_signal(&e.work);
				else if (started < workers && e.tail - e.claim >= min_waiting &&
					 pthread_create(&tids[started], NULL, worker, &e) == 0)
					started++;
			}
			continue;
		}
		if (e.head == e.tail)
			break; /* finished and all handed back */
		/* Nobody else will hash HEAD: do it here. */
		if (!started && s->state == SLOT_READY) {
			s->state = SLOT_BUSY;
			if (e.claim == e.head)
				e.claim++;
			pthread_mutex_unlock(&e.lock);
			hash_slot(&e, &r, s);
			pthread_mutex_lock(&e.lock);
			finish_slot(&e, s, e.head);
			continue;
		}
		/* Wait for HEAD, drawing progress now and then. */
		struct timespec now, until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 200 * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		e.caller_waits = true;
		pthread_cond_timedwait(&e.done, &e.lock, &until);
		e.caller_waits = false;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (opts->tick && (now.tv_sec - last_tick.tv_sec) * 1000000000L +
					  (now.tv_nsec - last_tick.tv_nsec) >= 200000000L) {
			struct fh_progress p = e.progress;

			last_tick = now;
			pthread_mutex_unlock(&e.lock);
			opts->tick(ctx, &p);
			pthread_mutex_lock(&e.lock);
		}
	}
	e.finished = true;
	pthread_cond_broadcast(&e.work);
	pthread_mutex_unlock(&e.lock);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&e.lock);
	pthread_cond_destroy(&e.work);
	pthread_cond_destroy(&e.done);
out:
	if (e.slots)
		for (size_t i = 0; i < e.window; i++) {
			free(e.slots[i].path);
			free(e.slots[i].job.digest);
		}
	free(e.slots);
	free(r.buf);
	free(tids);
	return err;
}
