/* engine.c: the parallel hashing engine.
 *
 * Jobs live in a ring of WINDOW slots between HEAD (the oldest job not yet
 * handed back) and TAIL (the next free slot).  Three kinds of thread work
 * on it, and none takes a lock for a job in the steady state:
 *   - the calling thread fills slots at TAIL, hands finished slots back
 *     from HEAD, hashes standard input when its job reaches HEAD (so two
 *     "-" operands read it in order) and draws progress;
 *   - hashing workers (-j) claim ready slots in batches from CLAIM, open
 *     them (unless the I/O stage did) and hash them, many inputs at once
 *     in the SIMD lanes of a multi-buffer kernel;
 *   - the I/O stage (iostage.c's policy, threads here) opens inputs ahead
 *     of CLAIM and starts their reads, so that a cold disk sees tens of
 *     requests in flight while the workers hash.
 * Slots change hands through their atomic state; threads sleep on a
 * condition variable only when they have nothing to do, and whoever makes
 * work for a sleeper wakes it.  With one thread and no lanes or progress
 * no worker starts: the calling thread hashes each job itself.  At I/O
 * depth 1 the I/O stage does not run, and a turn passed from slot to slot
 * lets one input at a time be opened and read, in order. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "guard.h"
#include "input.h"
#include "io.h"
#include "iostage.h"
#include "lanes.h"
#include "os.h"
#include "window.h"

/* The slots of the window, besides those for the look-ahead and the
 * workers (see fh_engine_run). */
#define FH_WINDOW 16384u
/* The most bytes the jobs of the window may hold (their names, digests
 * and the caller's data for them): far above what 16384 ordinary jobs
 * need, it keeps a list of long names or 2^20-bit SHAKE lines in bounded
 * memory.  A slot keeps buffers up to FH_SLOT_KEEP bytes for its next
 * job and frees larger ones when its job is handed back. */
#define FH_WINDOW_BYTES (8u << 20)
#define FH_SLOT_KEEP 4096u

/* Most slots a worker claims at once: one atomic operation for many small
 * files, yet few enough that the last inputs of a run spread over all the
 * workers (a worker claims at most its share of what waits). */
#define FH_BATCH_MAX 16u

/* Descriptors kept free of the engine's for the command (lists being
 * read, directories being walked, standard streams). */
#define FH_FD_RESERVE 32

enum slot_state {
	SLOT_READY,     /* produced; nobody has touched its input */
	SLOT_IO,        /* the I/O stage is opening it */
	SLOT_OPENED,    /* the I/O stage opened it: IN, IN_ERR */
	SLOT_BUSY,      /* a worker (or the caller) is hashing it */
	SLOT_STDIN,     /* standard input, for the caller at HEAD */
	SLOT_DONE,      /* hashed, or a marker: to be handed back */
};

struct slot {
	struct fh_job job;
	_Atomic int state;
	struct fh_input in;     /* SLOT_OPENED: the input, or IN_ERR */
	int in_err;
	uint64_t ahead;         /* bytes the I/O stage asked to be read */
	char *path;             /* the engine's copy of job.path */
	size_t path_cap;
	size_t digest_cap;
	size_t held;            /* bytes its job counts against FH_WINDOW_BYTES */
};

/* A condition to sleep on.  WAITERS counts the sleepers, so that whoever
 * changes the condition makes a system call only when someone sleeps:
 * the changer updates the condition then reads WAITERS, the sleeper
 * counts itself then reads the condition (both sequentially consistent),
 * so one of them sees the other. */
struct waitq {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	_Atomic unsigned waiters;
};

static void wq_init(struct waitq *q)
{
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cv, NULL);
	atomic_store(&q->waiters, 0);
}

static void wq_destroy(struct waitq *q)
{
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cv);
}

static void wq_wake(struct waitq *q, bool all)
{
	if (!atomic_load(&q->waiters))
		return;
	pthread_mutex_lock(&q->lock);
	if (all)
		pthread_cond_broadcast(&q->cv);
	else
		pthread_cond_signal(&q->cv);
	pthread_mutex_unlock(&q->lock);
}

/* Sleeps on Q until COND holds (an expression, evaluated under Q's lock). */
#define WQ_WAIT(q, cond)                                                   \
	do {                                                               \
		pthread_mutex_lock(&(q)->lock);                            \
		atomic_fetch_add(&(q)->waiters, 1);                        \
		while (!(cond))                                            \
			pthread_cond_wait(&(q)->cv, &(q)->lock);           \
		atomic_fetch_sub(&(q)->waiters, 1);                        \
		pthread_mutex_unlock(&(q)->lock);                          \
	} while (0)

struct engine {
	struct slot *slots;
	size_t window;
	uint64_t head;                  /* the caller's alone */
	size_t held;                    /* the caller's: bytes the window's jobs hold */
	_Atomic uint64_t tail, claim;
	_Atomic bool finished;          /* no more jobs will come */
	uint64_t jobs;                  /* file jobs produced (the caller's) */
	_Atomic uint64_t files_done;    /* file jobs finished */

	struct waitq work;              /* workers wait for slots */
	struct waitq done;              /* the caller waits for HEAD */
	struct waitq opened;            /* workers wait for the I/O stage */
	struct waitq turn_q;            /* depth 1: waiting for the turn */
	_Atomic uint64_t wake_at;       /* files_done that wakes the caller */
	_Atomic uint64_t wake_slot;     /* ... once this slot is done too */
	struct timespec last_wake;      /* the producer's last wake of a worker */

	unsigned workers, started;
	_Atomic unsigned live;          /* workers started, less those that
					 * could not get their buffers */
	bool no_mmap;
	enum fh_feed feed;
	bool seq;                       /* I/O depth 1 */
	_Atomic uint64_t turn;          /* depth 1: the slot that may read */
	struct fh_fds fds;
	struct fh_meter *meters;        /* [0] the caller, [1 + i] worker i */
	struct fh_populater *pop;       /* faults mapped windows in ahead */
	struct fh_iostage io;
};

struct worker {
	struct engine *e;
	struct fh_meter *meter;
};

unsigned fh_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

const char *fh_engine_os_layer(void)
{
	return fh_os_layer();
}

static struct slot *slot_at(struct engine *e, uint64_t i)
{
	return &e->slots[i % e->window];
}

static int state_of(struct slot *s)
{
	return atomic_load_explicit(&s->state, memory_order_acquire);
}

/* Marks S (slot INDEX) hashed and wakes the caller if it waits for it. */
static void finish_slot(struct engine *e, struct slot *s, uint64_t index)
{
	atomic_store_explicit(&s->state, SLOT_DONE, memory_order_release);
	uint64_t n = atomic_fetch_add(&e->files_done, 1) + 1;

	if (atomic_load(&e->done.waiters) && n >= atomic_load(&e->wake_at)) {
		uint64_t w = atomic_load(&e->wake_slot);

		if (w == index || state_of(slot_at(e, w)) == SLOT_DONE)
			wq_wake(&e->done, false);
	}
}

/* A job the lanes finished: TAG is its slot's index. */
static void lane_done(void *arg, void *tag)
{
	struct engine *e = arg;
	uint64_t index = (uint64_t)(uintptr_t)tag;

	finish_slot(e, slot_at(e, index), index);
}

/* Depth 1: slots that read nothing from storage pass the turn on. */
static bool reads_nothing(struct slot *s)
{
	int st = state_of(s);

	return !s->job.path || st == SLOT_STDIN;
}

/* Depth 1: the turn moves past slot I to the next slot that reads. */
static void turn_pass(struct engine *e, uint64_t i)
{
	uint64_t t = i + 1, cur = atomic_load(&e->turn);

	while (cur < t && !atomic_compare_exchange_weak(&e->turn, &cur, t))
		;
	while (t < atomic_load(&e->tail) && reads_nothing(slot_at(e, t))) {
		uint64_t want = t;

		if (!atomic_compare_exchange_strong(&e->turn, &want, t + 1))
			break;
		t++;
	}
	wq_wake(&e->turn_q, true);
}

/* Depth 1: waits until slot I may open and read its input. */
static void turn_wait(struct engine *e, uint64_t i)
{
	if (atomic_load(&e->turn) < i)
		WQ_WAIT(&e->turn_q, atomic_load(&e->turn) >= i);
}

/* Waits while the I/O stage opens slot S: an open of cached metadata
 * takes microseconds, so a few yields first. */
static void wait_opened(struct engine *e, struct slot *s)
{
	for (int i = 0; i < 64 && state_of(s) == SLOT_IO; i++)
		sched_yield();
	if (state_of(s) == SLOT_IO)
		WQ_WAIT(&e->opened, state_of(s) != SLOT_IO);
}

/* The I/O stage's side of the slots (struct fh_iostage_ops). */
static const char *io_claim(void *arg, uint64_t index)
{
	struct engine *e = arg;
	struct slot *s = slot_at(e, index);
	int st = SLOT_READY;

	if (!atomic_compare_exchange_strong(&s->state, &st, SLOT_IO))
		return NULL;
	return s->job.path;
}

static void io_give(void *arg, uint64_t index, const struct fh_input *in,
		    int err, uint64_t ahead)
{
	struct engine *e = arg;
	struct slot *s = slot_at(e, index);
	bool none = err == EMFILE || err == ENFILE;

	s->in = *in;
	s->in_err = err;
	s->ahead = ahead;
	atomic_store_explicit(&s->state, none ? SLOT_READY : SLOT_OPENED,
			      memory_order_release);
	wq_wake(&e->opened, true);
}

static const struct fh_iostage_ops io_ops = { io_claim, io_give };

/* Milliseconds since *T (CLOCK_MONOTONIC). */
static long since_ms(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* Claims the next batch of slots, [*FROM, *TO); false if none waits. */
static bool claim_batch(struct engine *e, uint64_t *from, uint64_t *to)
{
	uint64_t c = atomic_load(&e->claim);

	for (;;) {
		uint64_t t = atomic_load_explicit(&e->tail, memory_order_acquire);

		if (c >= t)
			return false;
		uint64_t n = e->seq ? 1 : (t - c) / (2 * (uint64_t)e->workers);

		n = n < 1 ? 1 : n > FH_BATCH_MAX ? FH_BATCH_MAX : n;
		if (atomic_compare_exchange_weak(&e->claim, &c, c + n)) {
			*from = c;
			*to = c + n;
			fh_iostage_claimed(&e->io, c + n);
			return true;
		}
	}
}

static bool claimable(struct engine *e)
{
	return atomic_load(&e->claim) < atomic_load(&e->tail);
}

/* Sleeps until slots wait or the run ends; false at the end. */
static bool wait_for_work(struct engine *e)
{
	WQ_WAIT(&e->work, claimable(e) || atomic_load(&e->finished));
	return claimable(e);
}

/* Takes slot S (INDEX) for hashing: its input opened by the I/O stage, or
 * opened here.  Returns 0 with *IN open, an errno value for a failed open,
 * or -1 when the slot is not to be hashed now (someone else has it, or
 * descriptors run short and LANES_BUSY). */
static int take_slot(struct engine *e, struct slot *s, uint64_t index,
		     struct fh_input *in, bool lanes_busy)
{
	int st = state_of(s), err;

	if (st == SLOT_OPENED) {
		atomic_store_explicit(&s->state, SLOT_BUSY, memory_order_relaxed);
		fh_iostage_taken(&e->io, s->ahead);
		*in = s->in;
		return s->in_err;
	}
	if (st != SLOT_READY)
		return -1;
	if (lanes_busy &&
	    atomic_load_explicit(&e->fds.held, memory_order_relaxed) >= e->fds.limit)
		return -1;
	if (!atomic_compare_exchange_strong(&s->state, &st, SLOT_BUSY))
		return -1;
	if (e->seq)
		turn_wait(e, index);
	err = fh_input_open(s->job.path, in, &e->fds);
	if ((err == EMFILE || err == ENFILE) && lanes_busy) {
		/* Let the lanes close some first; the slot stays ours. */
		atomic_store(&s->state, SLOT_READY);
		return -1;
	}
	return err;
}

/* Hashes slot S (INDEX), whose input IN is open, on the single-stream
 * kernel, or starts it in the lanes: when other inputs WAIT to share
 * them (or the multi-buffer kernel was forced), and at depth 1 only a
 * file that the lanes read whole at once. */
static void hash_slot(struct engine *e, struct fh_reader *r,
		      struct fh_lanes *lanes, struct slot *s, uint64_t index,
		      struct fh_input *in, bool waiting)
{
	struct fh_job *j = &s->job;

	/* KT128/KT256 take no lanes of others: one input's own leaves fill
	 * them, and threads join a large one when nothing else waits. */
	r->kt_threads = waiting || claimable(e) ? 1 : e->workers;
	if (lanes && !j->algo->cv_bytes && in->regular &&
	    fh_lanes_room(lanes, j) &&
	    (waiting || j->multi_only || fh_lanes_busy(lanes)) &&
	    (!e->seq || in->size < fh_lanes_buffer(lanes)) &&
	    fh_lanes_take(lanes, j, (void *)(uintptr_t)index, in, e->seq)) {
		if (e->seq)
			turn_pass(e, index);
		return;
	}
	j->err = fh_input_hash(r, in, &e->fds, j->algo, j->kernel, j->multi,
			       j->digest, j->outlen, &j->size);
	if (e->seq)
		turn_pass(e, index);
	finish_slot(e, s, index);
}

/* A worker: claims batches of slots and hashes them.  A slot whose input
 * can share the SIMD lanes joins them while they have room for it; any
 * other is hashed at once on the single-stream kernel.  When nothing can
 * be taken, the lanes advance. */
static void *worker(void *arg)
{
	struct worker *w = arg;
	struct engine *e = w->e;
	struct fh_reader r = {
		.no_mmap = e->no_mmap || e->seq,
		.seq = e->seq,
		.feed = e->feed,
		.bufsize = e->seq ? FH_SEQ_READ_SIZE : FH_READ_SIZE,
		.meter = w->meter,
		.pop = e->pop,
	};
	struct fh_lanes *lanes = fh_lanes_new(lane_done, e, w->meter, &e->fds);
	uint64_t next = 0, end = 0;

	r.buf = fh_buf_alloc(r.bufsize);
	if ((!r.buf || !lanes) && atomic_fetch_sub(&e->live, 1) == 1)
		/* Without its buffers this worker hashes nothing; the others
		 * do its share, and the caller when none is left. */
		wq_wake(&e->done, true);
	while (r.buf && lanes) {
		bool busy = fh_lanes_busy(lanes);

		if (next == end && !claim_batch(e, &next, &end)) {
			if (busy)
				fh_lanes_step(lanes, false);
			else if (!wait_for_work(e))
				break;
			continue;
		}
		struct slot *s = slot_at(e, next);
		int st = state_of(s);

		if (st == SLOT_STDIN || st == SLOT_DONE) {
			next++;
			continue;
		}
		bool waiting = next + 1 < end || claimable(e);

		if (busy && !fh_lanes_room(lanes, &s->job)) {
			fh_lanes_step(lanes, true);
			continue;
		}
		if (st == SLOT_IO) {
			if (busy)
				fh_lanes_step(lanes, true);
			else
				wait_opened(e, s);
			continue;
		}
		struct fh_input in;
		int err = take_slot(e, s, next, &in, busy);

		if (err < 0) {
			if (busy)
				fh_lanes_step(lanes, true);
			continue;
		}
		uint64_t index = next++;

		if (err) {
			s->job.err = err;
			if (e->seq)
				turn_pass(e, index);
			finish_slot(e, s, index);
			continue;
		}
		hash_slot(e, &r, lanes, s, index, &in, waiting);
	}
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
	s->in = (struct fh_input){ .fd = -1 };
	s->in_err = 0;
	s->ahead = 0;
	s->held = job->user_bytes;
	if (job->path) {
		size_t n = strlen(job->path) + 1;

		s->held += n + job->outlen;

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
	atomic_store_explicit(&s->state,
			      !job->path ? SLOT_DONE
			      : strcmp(job->path, "-") == 0 ? SLOT_STDIN : SLOT_READY,
			      memory_order_release);
	return 0;
}

/* Slot S's job was handed back: what it held no longer counts, and
 * buffers too large to keep go. */
static void empty_slot(struct engine *e, struct slot *s)
{
	e->held -= s->held;
	s->held = 0;
	if (s->path_cap > FH_SLOT_KEEP) {
		free(s->path);
		s->path = NULL;
		s->path_cap = 0;
	}
	if (s->digest_cap > FH_SLOT_KEEP) {
		free(s->job.digest);
		s->job.digest = NULL;
		s->digest_cap = 0;
	}
}

/* The descriptors the engine may hold: RLIMIT_NOFILE less a reserve. */
static int fd_limit(void)
{
	struct rlimit rl;
	rlim_t n = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		n = rl.rlim_cur;
	if (n > 4096 + FH_FD_RESERVE)
		n = 4096 + FH_FD_RESERVE;
	return n > 2 * FH_FD_RESERVE ? (int)(n - FH_FD_RESERVE) : (int)(n / 2);
}

/* Depth 0: 1 where PATH lies on a spinning disk, else the default. */
static unsigned auto_depth(const struct fh_engine_opts *opts, void *ctx,
			   const char *path)
{
	char why[160], line[224];
	enum fh_storage kind = fh_os_storage(path, why, sizeof why);
	unsigned depth = kind == FH_STORAGE_ROTATING ? 1 : FH_IO_DEPTH_DEFAULT;

	if (opts->note) {
		snprintf(line, sizeof line, "io-depth %u (%s: %s)", depth,
			 kind == FH_STORAGE_ROTATING ? "spinning disk"
			 : kind == FH_STORAGE_SOLID ? "solid-state" : "unknown",
			 why);
		opts->note(ctx, line);
	}
	return depth;
}

/* Hashes the slot at HEAD on the calling thread: standard input always,
 * and every input when no worker runs. */
static void hash_here(struct engine *e, struct fh_reader *r, struct slot *s)
{
	struct fh_input in;
	int err;

	if (state_of(s) == SLOT_STDIN) {
		fh_input_stdin(&in);
		atomic_store(&s->state, SLOT_BUSY);
		s->job.err = fh_input_hash(r, &in, NULL, s->job.algo, s->job.kernel,
					   s->job.multi, s->job.digest,
					   s->job.outlen, &s->job.size);
		atomic_fetch_add(&e->files_done, 1);
		atomic_store_explicit(&s->state, SLOT_DONE, memory_order_release);
		return;
	}
	if (state_of(s) == SLOT_IO)
		wait_opened(e, s);
	if (atomic_load(&e->claim) <= e->head)
		atomic_store(&e->claim, e->head + 1);
	fh_iostage_claimed(&e->io, e->head + 1);
	err = take_slot(e, s, e->head, &in, false);
	if (err < 0)
		return;
	if (err) {
		s->job.err = err;
		if (e->seq)
			turn_pass(e, e->head);
		finish_slot(e, s, e->head);
		return;
	}
	hash_slot(e, r, NULL, s, e->head, &in, false);
}

/* The caller waits for HEAD, and for FH_WAKE_BURST jobs more when workers
 * can still finish that many: it then hands back jobs in bursts, not one
 * wake-up per job, yet often enough that lines flow. */
#define FH_WAKE_BURST 512u

static void wait_for_head(struct engine *e, bool ticking)
{
	uint64_t target = atomic_load(&e->files_done) + FH_WAKE_BURST;
	struct timespec until;

	if (target > e->jobs)
		target = e->jobs;
	atomic_store(&e->wake_at, target);
	atomic_store(&e->wake_slot, e->head);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (ticking ? 200 : 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	/* Workers asleep with work waiting: the producer woke none, lazily. */
	if (claimable(e))
		wq_wake(&e->work, true);
	pthread_mutex_lock(&e->done.lock);
	atomic_fetch_add(&e->done.waiters, 1);
	if (!(state_of(slot_at(e, e->head)) == SLOT_DONE &&
	      atomic_load(&e->files_done) >= target))
		pthread_cond_timedwait(&e->done.cv, &e->done.lock, &until);
	atomic_fetch_sub(&e->done.waiters, 1);
	pthread_mutex_unlock(&e->done.lock);
}

static void tick(struct engine *e, const struct fh_engine_opts *opts, void *ctx,
		 struct fh_progress *p, struct timespec *last)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - last->tv_sec) * 1000000000L + (now.tv_nsec - last->tv_nsec) <
	    200000000L)
		return;
	*last = now;
	p->files_done = atomic_load(&e->files_done);
	p->bytes_done = 0;
	for (unsigned i = 0; i <= e->workers; i++)
		p->bytes_done += atomic_load_explicit(&e->meters[i].bytes,
						      memory_order_relaxed);
	opts->tick(ctx, p);
}

int fh_engine_run(const struct fh_engine_opts *opts, fh_next_fn *next,
		  fh_done_fn *done, void *ctx)
{
	unsigned threads = opts->threads ? opts->threads : fh_online_cpus();
	/* One thread hashes on the caller's thread, unless lanes may be
	 * used (they live in a worker) or progress is drawn (by the caller's
	 * thread, which must then stay free). */
	unsigned workers = threads > 1 || opts->lanes || opts->tick ? threads : 0;
	unsigned min_waiting = opts->tick ? 1 : 2;
	unsigned depth = opts->io_depth > FH_IO_DEPTH_MAX ? FH_IO_DEPTH_MAX
							 : opts->io_depth;
	struct engine e = { .no_mmap = opts->no_mmap, .feed = opts->feed,
			    .workers = workers };
	struct fh_reader r = { .no_mmap = opts->no_mmap, .feed = opts->feed };
	struct fh_progress p = { 0 };
	pthread_t *tids = NULL;
	struct worker *ws = NULL;
	struct timespec last_tick;
	bool depth_known = depth != 0;
	int err = 0;

	/* Enough slots to keep every worker busy and the look-ahead full
	 * while a slow job blocks HEAD, yet a fixed amount of memory (some
	 * 400 bytes a slot, touched only as the window fills).  A large file
	 * in the lanes advances only as fast as the small ones refilled
	 * around it, and thousands pass it meanwhile: verifying an installed
	 * system (113k files, 2-core AMD EPYC) took 2.1 s of CPU with 1,024
	 * slots, 1.3 with 8,192 and 16,384. */
	e.window = FH_WINDOW + 2 * (size_t)(depth ? depth : FH_IO_DEPTH_DEFAULT) +
		   64 * (size_t)threads;
	e.slots = calloc(e.window, sizeof *e.slots);
	e.meters = aligned_alloc(64, (workers + 1) * sizeof *e.meters);
	r.bufsize = FH_SEQ_READ_SIZE;
	r.buf = fh_buf_alloc(r.bufsize);
	if (workers) {
		tids = calloc(workers, sizeof *tids);
		ws = calloc(workers, sizeof *ws);
	}
	if (!e.slots || !e.meters || !r.buf || (workers && (!tids || !ws))) {
		err = ENOMEM;
		goto out;
	}
	memset(e.meters, 0, (workers + 1) * sizeof *e.meters);
	r.meter = &e.meters[0];
	r.pop = e.pop = fh_populater_new();
	e.fds.limit = fd_limit();
	e.seq = depth == 1;
	fh_iostage_init(&e.io, &io_ops, &e, &e.fds, &e.tail, &e.claim);
	fh_guard_init();
	wq_init(&e.work);
	wq_init(&e.done);
	wq_init(&e.opened);
	wq_init(&e.turn_q);
	clock_gettime(CLOCK_MONOTONIC, &last_tick);

	for (;;) {
		uint64_t tail = atomic_load(&e.tail);

		/* Hand back every finished job at HEAD; standard input is
		 * hashed here when it reaches HEAD. */
		if (e.head < tail) {
			struct slot *s = slot_at(&e, e.head);
			int st = state_of(s);

			if (st == SLOT_STDIN) {
				hash_here(&e, &r, s);
				continue;
			}
			if (st == SLOT_DONE) {
				done(ctx, &s->job);
				empty_slot(&e, s);
				e.head++;
				continue;
			}
		}
		/* Produce one job when there is room. */
		if (!atomic_load(&e.finished) && tail - e.head < e.window &&
		    (e.held < FH_WINDOW_BYTES || tail == e.head)) {
			struct slot *t = slot_at(&e, tail);
			struct fh_job job = { .digest = t->job.digest };

			if (!next(ctx, &job)) {
				p.all_known = true;
				atomic_store(&e.finished, true);
				wq_wake(&e.work, true);
				fh_iostage_finish(&e.io);
				continue;
			}
			if (!depth_known && job.path && strcmp(job.path, "-") != 0) {
				depth = auto_depth(opts, ctx, job.path);
				depth_known = true;
				e.seq = depth == 1;
			}
			if ((err = fill_slot(t, &job)) != 0)
				break;
			e.held += t->held;
			atomic_store(&e.tail, tail + 1);
			if (state_of(t) != SLOT_DONE) {
				p.files_known++;
				p.bytes_known += t->job.size_hint;
				p.files_unsized += !t->job.sized;
			}
			if (opts->tick && (tail & 63) == 0)
				tick(&e, opts, ctx, &p, &last_tick);
			if (state_of(t) != SLOT_READY) {
				if (e.seq && atomic_load(&e.turn) == tail)
					turn_pass(&e, tail);
				continue;
			}
			e.jobs++;
			/* Threads start once two inputs wait: a run of one
			 * input is hashed here, without a thread's start-up
			 * (unless progress needs this thread). */
			uint64_t waiting = tail + 1 - atomic_load(&e.claim);

			if (waiting >= min_waiting && !e.io.started && !e.seq && depth > 1)
				fh_iostage_start(&e.io, depth, opts->always_ahead);
			while (e.started < workers && waiting >= min_waiting) {
				ws[e.started] = (struct worker){
					.e = &e, .meter = &e.meters[1 + e.started] };
				atomic_fetch_add(&e.live, 1);
				if (fh_thread_start(&tids[e.started], worker,
						    &ws[e.started],
						    FH_STACK_WORKER) != 0) {
					atomic_fetch_sub(&e.live, 1);
					break;
				}
				e.started++;
			}
			if (atomic_load(&e.work.waiters) &&
			    (waiting >= FH_BATCH_MAX || tail + 1 - e.head >= e.window ||
			     since_ms(&e.last_wake) >= 2)) {
				clock_gettime(CLOCK_MONOTONIC, &e.last_wake);
				wq_wake(&e.work, true);
			}
			fh_iostage_produced(&e.io, tail + 1);
			continue;
		}
		if (e.head == tail)
			break; /* finished and all handed back */
		/* Nobody else will hash HEAD: do it here. */
		if (!atomic_load(&e.live)) {
			hash_here(&e, &r, slot_at(&e, e.head));
			continue;
		}
		if (opts->tick)
			tick(&e, opts, ctx, &p, &last_tick);
		wait_for_head(&e, opts->tick != NULL);
	}
	atomic_store(&e.finished, true);
	wq_wake(&e.work, true);
	for (unsigned i = 0; i < e.started; i++)
		pthread_join(tids[i], NULL);
	fh_iostage_stop(&e.io);
	if (opts->note) {
		char line[224];

		if (fh_window_costs(line, sizeof line))
			opts->note(ctx, line);
	}
	wq_destroy(&e.work);
	wq_destroy(&e.done);
	wq_destroy(&e.opened);
	wq_destroy(&e.turn_q);
out:
	/* Only the slots ever filled hold memory: the others were never
	 * touched, and touching them here would fault their pages in. */
	if (e.slots)
		for (size_t i = 0; i < e.window && i < atomic_load(&e.tail); i++) {
			free(e.slots[i].path);
			free(e.slots[i].job.digest);
		}
	fh_populater_free(e.pop);
	free(e.slots);
	free(e.meters);
	free(r.buf);
	free(tids);
	free(ws);
	return err;
}
