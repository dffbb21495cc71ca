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
 * lets one input at a time be opened and read, in order.
 *
 * This file is the calling thread's side: filling slots, handing them
 * back, and the run's start and end.  The ring and what is done to a
 * slot on any thread are slots.c's, the workers' loop worker.c's. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
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
#include "meter.h"
#include "os.h"
#include "slots.h"
#include "window.h"

/* The slots of the ring, besides those for the look-ahead and the
 * workers (see fh_engine_run). */
#define FH_RING_SLOTS 16384u
/* The most bytes the jobs of the ring may hold (their names, digests
 * and the caller's data for them): far above what 16384 ordinary jobs
 * need, it keeps a list of long names or 2^20-bit SHAKE lines in bounded
 * memory.  A slot keeps buffers up to FH_SLOT_KEEP bytes for its next
 * job and frees larger ones when its job is handed back. */
#define FH_RING_BYTES (8u << 20)
#define FH_SLOT_KEEP 4096u

/* Descriptors kept free of the engine's for the command (lists being
 * read, directories being walked, standard streams). */
#define FH_FD_RESERVE 32

unsigned fh_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

const char *fh_engine_os_layer(void)
{
	return fh_os_layer();
}

/* The I/O stage's side of the slots (struct fh_iostage_ops). */
static const char *io_claim(void *arg, uint64_t index)
{
	struct fh_engine *e = arg;
	struct fh_slot *s = fh_slot_at(e, index);
	int st = FH_SLOT_READY;

	if (fh_stopped(e) ||
	    !atomic_compare_exchange_strong(&s->state, &st, FH_SLOT_IO))
		return NULL;
	return s->job.path;
}

static void io_give(void *arg, uint64_t index, const struct fh_input *in,
		    int err, uint64_t ahead)
{
	struct fh_engine *e = arg;
	struct fh_slot *s = fh_slot_at(e, index);
	bool none = err == EMFILE || err == ENFILE;

	s->in = *in;
	s->in_err = err;
	s->ahead = ahead;
	atomic_store_explicit(&s->state, none ? FH_SLOT_READY : FH_SLOT_OPENED,
			      memory_order_release);
	fh_wq_wake(&e->opened, true);
}

static bool io_stopped(void *arg)
{
	return fh_stopped(arg);
}

static const struct fh_iostage_ops io_ops = { io_claim, io_give, io_stopped };

/* Milliseconds since *T (CLOCK_MONOTONIC). */
static long since_ms(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* Copies the producer's job into slot S, taking ownership of nothing. */
static int fill_slot(struct fh_slot *s, const struct fh_job *job)
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
		size_t dlen = job->outlen * (job->cand ? job->cand->n : 1);

		s->held += n + dlen;

		if (n > s->path_cap) {
			char *p = realloc(s->path, n);

			if (!p)
				return ENOMEM;
			s->path = p;
			s->path_cap = n;
		}
		memcpy(s->path, job->path, n);
		s->job.path = s->path;
		if (dlen > s->digest_cap) {
			uint8_t *d = realloc(s->job.digest, dlen);

			if (!d)
				return ENOMEM;
			s->digest_cap = dlen;
			s->job.digest = d;
		}
	}
	atomic_store_explicit(&s->state,
			      !job->path ? FH_SLOT_DONE
			      : strcmp(job->path, "-") == 0 ? FH_SLOT_STDIN
			      : FH_SLOT_READY,
			      memory_order_release);
	return 0;
}

/* Slot S's job was handed back: what it held no longer counts, and
 * buffers too large to keep go. */
static void empty_slot(struct fh_engine *e, struct fh_slot *s)
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
static void hash_here(struct fh_engine *e, struct fh_reader *r,
		      struct fh_slot *s)
{
	struct fh_input in;
	int err;

	if (fh_slot_state(s) == FH_SLOT_STDIN) {
		fh_input_stdin(&in);
		atomic_store(&s->state, FH_SLOT_BUSY);
		/* A large file on standard input (`fhsum < big`) is hashed
		 * by a team, as it is when named, when it is the last input
		 * (hand_back produced every job it could first). */
		bool others = atomic_load(&e->tail) > e->head + 1 ||
			      !atomic_load(&e->finished);

		r->kt_threads = others || !e->workers ? 1 : e->workers;
		s->job.err = fh_input_hash_job(r, &in, &s->job);
		atomic_fetch_add(&e->files_done, 1);
		atomic_store_explicit(&s->state, FH_SLOT_DONE,
				      memory_order_release);
		return;
	}
	if (fh_slot_state(s) == FH_SLOT_IO)
		fh_slot_wait_opened(e, s);
	if (atomic_load(&e->claim) <= e->head)
		atomic_store(&e->claim, e->head + 1);
	fh_iostage_claimed(&e->io, e->head + 1);
	err = fh_slot_take(e, s, e->head, &in, r->meter, false);
	if (err == FH_SLOT_NOT_NOW)
		return;
	if (err) {
		s->job.err = err;
		if (e->seq)
			fh_turn_pass(e, e->head);
		fh_slot_finish(e, s, e->head);
		return;
	}
	fh_slot_hash(e, r, NULL, s, e->head, &in, false);
}

/* The caller waits for HEAD, and for FH_WAKE_BURST jobs more when workers
 * can still finish that many: it then hands back jobs in bursts, not one
 * wake-up per job, yet often enough that lines flow. */
#define FH_WAKE_BURST 512u

static void wait_for_head(struct fh_engine *e, bool ticking)
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
	if (fh_claimable(e))
		fh_wq_wake(&e->work, true);
	pthread_mutex_lock(&e->done.lock);
	atomic_fetch_add(&e->done.waiters, 1);
	if (!(fh_slot_state(fh_slot_at(e, e->head)) == FH_SLOT_DONE &&
	      atomic_load(&e->files_done) >= target))
		pthread_cond_timedwait(&e->done.cv, &e->done.lock, &until);
	atomic_fetch_sub(&e->done.waiters, 1);
	pthread_mutex_unlock(&e->done.lock);
}

/* A run, as the calling thread sees it: the engine, the caller's
 * functions, the calling thread's reader and progress, the workers it
 * started. */
struct run {
	struct fh_engine e;
	const struct fh_engine_opts *opts;
	fh_next_fn *next;
	fh_done_fn *done;
	void *ctx;
	struct fh_reader r;             /* the calling thread's */
	struct fh_progress p;
	struct timespec last_tick;
	pthread_t *tids;
	struct fh_worker *ws;
	unsigned depth;                 /* I/O depth; 0 until known */
	unsigned min_waiting;           /* inputs waiting that start threads */
};

/* The run of the calling thread, for fh_engine_idle. */
static __thread struct run *idle_run;

/* Calls the caller's tick with the progress so far, at most every 200 ms. */
static void tick(struct run *run)
{
	struct fh_engine *e = &run->e;
	struct fh_progress *p = &run->p;
	struct timespec now, *last = &run->last_tick;

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
	run->opts->tick(run->ctx, p);
}

void fh_engine_idle(void)
{
	if (idle_run && idle_run->opts->tick)
		tick(idle_run);
}

/* Sets RUN up for OPTS: the ring, the meters, the caller's buffer, the
 * threads' arrays (none started yet).  Returns 0 or ENOMEM. */
static int run_open(struct run *run, const struct fh_engine_opts *opts)
{
	struct fh_engine *e = &run->e;
	unsigned threads = opts->threads ? opts->threads : fh_online_cpus();
	/* One thread hashes on the caller's thread, unless lanes may be
	 * used (they live in a worker) or progress is drawn (by the caller's
	 * thread, which must then stay free). */
	unsigned workers = threads > 1 || opts->lanes || opts->tick ? threads : 0;

	run->min_waiting = opts->tick ? 1 : 2;
	run->depth = opts->io_depth > FH_IO_DEPTH_MAX ? FH_IO_DEPTH_MAX
						       : opts->io_depth;
	e->no_mmap = opts->no_mmap;
	e->feed = opts->feed;
	e->stop = opts->stop;
	e->workers = workers;
	run->r = (struct fh_reader){ .no_mmap = opts->no_mmap,
				     .feed = opts->feed };
	/* Enough slots to keep every worker busy and the look-ahead full
	 * while a slow job blocks HEAD, yet a fixed amount of memory (some
	 * 400 bytes a slot, touched only as the ring fills).  A large file
	 * in the lanes advances only as fast as the small ones refilled
	 * around it, and thousands pass it meanwhile: verifying an installed
	 * system (113k files, 2-core AMD EPYC) took 2.1 s of CPU with 1,024
	 * slots, 1.3 with 8,192 and 16,384. */
	e->nslots = FH_RING_SLOTS + 64 * (size_t)threads +
		    2 * (size_t)(run->depth ? run->depth : FH_IO_DEPTH_DEFAULT);
	e->slots = calloc(e->nslots, sizeof *e->slots);
	e->meters = aligned_alloc(64, (workers + 1) * sizeof *e->meters);
	run->r.bufsize = FH_SEQ_READ_SIZE;
	run->r.buf = fh_buf_alloc(run->r.bufsize);
	if (workers) {
		run->tids = calloc(workers, sizeof *run->tids);
		run->ws = calloc(workers, sizeof *run->ws);
	}
	if (!e->slots || !e->meters || !run->r.buf ||
	    (workers && (!run->tids || !run->ws)))
		return ENOMEM;
	memset(e->meters, 0, (workers + 1) * sizeof *e->meters);
	run->r.meter = &e->meters[0];
	run->r.pop = e->pop = fh_populater_new();
	run->r.spare = fh_spare_threads;
	run->r.spare_arg = e;
	e->fds.limit = fd_limit();
	e->fds.meters = e->meters;
	e->fds.nmeters = workers + 1;
	e->fds.share = e->fds.limit / (2 * (int)(workers + 1));
	e->seq = run->depth == 1;
	fh_iostage_init(&e->io, &io_ops, e, &e->fds, &e->tail, &e->claim);
	fh_guard_init();
	fh_wq_init(&e->work);
	fh_wq_init(&e->done);
	fh_wq_init(&e->opened);
	fh_wq_init(&e->turn_q);
	clock_gettime(CLOCK_MONOTONIC, &run->last_tick);
	return 0;
}

/* Standard input hashed while progress is drawn: it is read on a thread
 * of its own, in its turn (the calling thread waits for it, so two "-"
 * operands are still read in order), while this thread goes on drawing,
 * so that a pipe's bytes move the line as a file's do. */
struct stdin_run {
	struct fh_engine *e;
	struct fh_reader *r;
	struct fh_slot *s;
	_Atomic bool done;
};

static void *stdin_main(void *arg)
{
	struct stdin_run *h = arg;

	hash_here(h->e, h->r, h->s);
	atomic_store(&h->done, true);
	return NULL;
}

static void hash_stdin_ticking(struct run *run, struct fh_slot *s)
{
	struct stdin_run h = { .e = &run->e, .r = &run->r, .s = s };
	pthread_t tid;

	if (fh_thread_start(&tid, stdin_main, &h, FH_STACK_WORKER) != 0) {
		hash_here(&run->e, &run->r, s);
		return;
	}
	while (!atomic_load(&h.done)) {
		struct timespec nap = { 0, 20 * 1000000L };

		tick(run);
		nanosleep(&nap, NULL);
	}
	pthread_join(tid, NULL);
}

/* The job at HEAD: handed back when it is done, hashed here when it is
 * standard input (so two "-" operands read it in order).  Returns true
 * when it did either. */
static bool hand_back(struct run *run, uint64_t tail)
{
	struct fh_engine *e = &run->e;

	if (e->head >= tail)
		return false;
	struct fh_slot *s = fh_slot_at(e, e->head);
	int st = fh_slot_state(s);

	if (st == FH_SLOT_STDIN) {
		/* The jobs after it are produced first while the ring has
		 * room: the workers start on them meanwhile, the totals drawn
		 * with progress are whole, and a lone large file on standard
		 * input is known to be alone (hash_here gives it a team). */
		if (!atomic_load(&e->finished) &&
		    tail - e->head < e->nslots && e->held < FH_RING_BYTES)
			return false;
		if (run->opts->tick)
			hash_stdin_ticking(run, s);
		else
			hash_here(e, &run->r, s);
		return true;
	}
	if (st == FH_SLOT_DONE) {
		run->done(run->ctx, &s->job);
		empty_slot(e, s);
		e->head++;
		return true;
	}
	return false;
}

/* Slot TAIL, just produced, waits to be hashed: the I/O stage and the
 * workers start once enough inputs wait, and sleeping workers are woken
 * in batches. */
static void start_hashing(struct run *run, uint64_t tail)
{
	struct fh_engine *e = &run->e;

	e->jobs++;
	/* Threads start once two inputs wait: a run of one input is hashed
	 * here, without a thread's start-up (unless progress needs this
	 * thread). */
	uint64_t waiting = tail + 1 - atomic_load(&e->claim);

	if (waiting >= run->min_waiting && !e->io.started && !e->seq &&
	    run->depth > 1)
		fh_iostage_start(&e->io, run->depth, run->opts->always_ahead);
	while (e->started < e->workers && waiting >= run->min_waiting) {
		run->ws[e->started] = (struct fh_worker){
			.e = e, .meter = &e->meters[1 + e->started] };
		atomic_fetch_add(&e->live, 1);
		if (fh_thread_start(&run->tids[e->started], fh_worker_main,
				    &run->ws[e->started],
				    FH_STACK_WORKER) != 0) {
			atomic_fetch_sub(&e->live, 1);
			break;
		}
		e->started++;
	}
	if (atomic_load(&e->work.waiters) &&
	    (waiting >= FH_BATCH_MAX || tail + 1 - e->head >= e->nslots ||
	     since_ms(&e->last_wake) >= 2)) {
		clock_gettime(CLOCK_MONOTONIC, &e->last_wake);
		fh_wq_wake(&e->work, true);
	}
	fh_iostage_produced(&e->io, tail + 1);
}

/* Asks the caller for the next job and fills slot TAIL with it, or ends
 * production.  Returns 0 or ENOMEM. */
static int produce(struct run *run, uint64_t tail)
{
	struct fh_engine *e = &run->e;
	struct fh_slot *t = fh_slot_at(e, tail);
	int err;

	/* A slot's first use writes it before anything reads it.  calloc's
	 * pages are mapped as they are first touched: a read maps the zero
	 * page, and the write after it copies that page, which flushes the
	 * TLB of every CPU running a thread of this process.  With 100,000
	 * files of 1 KiB on two threads those flushes took 4% of the CPU
	 * time; a write first maps a page of its own. */
	if (tail < e->nslots)
		memset(t, 0, sizeof *t);

	struct fh_job job = { .digest = t->job.digest };

	if (fh_stopped(e) || !run->next(run->ctx, &job)) {
		run->p.all_known = true;
		atomic_store(&e->finished, true);
		fh_wq_wake(&e->work, true);
		fh_iostage_finish(&e->io);
		return 0;
	}
	if (!run->depth && job.path && strcmp(job.path, "-") != 0) {
		run->depth = auto_depth(run->opts, run->ctx, job.path);
		e->seq = run->depth == 1;
	}
	if ((err = fill_slot(t, &job)) != 0)
		return err;
	e->held += t->held;
	atomic_store(&e->tail, tail + 1);
	if (fh_slot_state(t) != FH_SLOT_DONE) {
		run->p.files_known++;
		run->p.bytes_known += t->job.size_hint;
		run->p.files_unsized += !t->job.sized;
	}
	if (run->opts->tick && (tail & 63) == 0)
		tick(run);
	if (fh_slot_state(t) != FH_SLOT_READY) {
		if (e->seq && atomic_load(&e->turn) == tail)
			fh_turn_pass(e, tail);
		return 0;
	}
	start_hashing(run, tail);
	return 0;
}

/* The calling thread's loop: hand back what is done at HEAD, produce
 * while the window has room, hash HEAD itself when no worker is left,
 * else draw progress and wait.  Returns 0 or ENOMEM. */
static int run_loop(struct run *run)
{
	struct fh_engine *e = &run->e;

	for (;;) {
		uint64_t tail = atomic_load(&e->tail);
		int err;

		if (hand_back(run, tail))
			continue;
		if (!atomic_load(&e->finished) && tail - e->head < e->nslots &&
		    (e->held < FH_RING_BYTES || tail == e->head)) {
			if ((err = produce(run, tail)) != 0)
				return err;
			continue;
		}
		if (e->head == tail)
			return 0; /* finished and all handed back */
		/* Nobody else will hash HEAD: do it here. */
		if (!atomic_load(&e->live)) {
			hash_here(e, &run->r, fh_slot_at(e, e->head));
			continue;
		}
		if (run->opts->tick)
			tick(run);
		wait_for_head(e, run->opts->tick != NULL);
	}
}

/* Ends a run that started: the workers and the I/O stage stop. */
static void run_stop(struct run *run)
{
	struct fh_engine *e = &run->e;

	atomic_store(&e->finished, true);
	fh_wq_wake(&e->work, true);
	for (unsigned i = 0; i < e->started; i++)
		pthread_join(run->tids[i], NULL);
	fh_iostage_stop(&e->io);
	if (run->opts->note) {
		char line[224];

		if (fh_window_costs(line, sizeof line))
			run->opts->note(run->ctx, line);
	}
	fh_wq_destroy(&e->work);
	fh_wq_destroy(&e->done);
	fh_wq_destroy(&e->opened);
	fh_wq_destroy(&e->turn_q);
}

/* Frees what run_open allocated, whether or not the run started. */
static void run_free(struct run *run)
{
	struct fh_engine *e = &run->e;

	/* Only the slots ever filled hold memory: the others were never
	 * touched, and touching them here would fault their pages in. */
	if (e->slots)
		for (size_t i = 0; i < e->nslots && i < atomic_load(&e->tail); i++) {
			free(e->slots[i].path);
			free(e->slots[i].job.digest);
		}
	fh_populater_free(e->pop);
	free(e->slots);
	free(e->meters);
	free(run->r.buf);
	free(run->tids);
	free(run->ws);
}

int fh_engine_run(const struct fh_engine_opts *opts, fh_next_fn *next,
		  fh_done_fn *done, void *ctx)
{
	struct run run = { .opts = opts, .next = next, .done = done,
			   .ctx = ctx };
	int err = run_open(&run, opts);
	struct run *outer = idle_run;

	if (!err) {
		idle_run = &run;
		err = run_loop(&run);
		idle_run = outer;
		run_stop(&run);
	}
	run_free(&run);
	return err;
}
