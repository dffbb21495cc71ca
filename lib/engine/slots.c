/* slots.c: what is done to a slot of the engine's ring (slots.h) on
 * whichever thread hashes it, a worker or the calling thread: taking it
 * (its input opened by the I/O stage, or opened here), hashing it alone
 * or in the lanes, marking it done, and at I/O depth 1 passing the turn
 * that lets one input at a time be read; and the wait queues the threads
 * sleep on. */
#include <errno.h>
#include <sched.h>

#include "lanes.h"
#include "slots.h"

void fh_wq_init(struct fh_waitq *q)
{
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cv, NULL);
	atomic_store(&q->waiters, 0);
}

void fh_wq_destroy(struct fh_waitq *q)
{
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cv);
}

void fh_wq_wake(struct fh_waitq *q, bool all)
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

/* Marks S (slot INDEX) hashed and wakes the caller if it waits for it. */
void fh_slot_finish(struct fh_engine *e, struct fh_slot *s, uint64_t index)
{
	atomic_store_explicit(&s->state, FH_SLOT_DONE, memory_order_release);
	uint64_t n = atomic_fetch_add(&e->files_done, 1) + 1;

	if (atomic_load(&e->done.waiters) && n >= atomic_load(&e->wake_at)) {
		uint64_t w = atomic_load(&e->wake_slot);

		if (w == index ||
		    fh_slot_state(fh_slot_at(e, w)) == FH_SLOT_DONE)
			fh_wq_wake(&e->done, false);
	}
}

/* Depth 1: slots that read nothing from storage pass the turn on. */
static bool reads_nothing(struct fh_slot *s)
{
	int st = fh_slot_state(s);

	return !s->job.path || st == FH_SLOT_STDIN;
}

/* Depth 1: the turn moves past slot I to the next slot that reads. */
void fh_turn_pass(struct fh_engine *e, uint64_t i)
{
	uint64_t t = i + 1, cur = atomic_load(&e->turn);

	while (cur < t && !atomic_compare_exchange_weak(&e->turn, &cur, t))
		;
	while (t < atomic_load(&e->tail) && reads_nothing(fh_slot_at(e, t))) {
		uint64_t want = t;

		if (!atomic_compare_exchange_strong(&e->turn, &want, t + 1))
			break;
		t++;
	}
	fh_wq_wake(&e->turn_q, true);
}

/* Depth 1: waits until slot I may open and read its input. */
static void turn_wait(struct fh_engine *e, uint64_t i)
{
	if (atomic_load(&e->turn) < i)
		FH_WQ_WAIT(&e->turn_q, atomic_load(&e->turn) >= i);
}

/* Waits while the I/O stage opens slot S: an open of cached metadata
 * takes microseconds, so a few yields first. */
void fh_slot_wait_opened(struct fh_engine *e, struct fh_slot *s)
{
	for (int i = 0; i < 64 && fh_slot_state(s) == FH_SLOT_IO; i++)
		sched_yield();
	if (fh_slot_state(s) == FH_SLOT_IO)
		FH_WQ_WAIT(&e->opened, fh_slot_state(s) != FH_SLOT_IO);
}

/* For a watched job: its input's mtime at open, and a refusal of what is
 * not a regular file (a FIFO would wait for a writer). */
static int watch(struct fh_slot *s, struct fh_input *in)
{
	s->job.tracked = s->job.torn = false;
	if (s->job.track && !s->job.watch && in->regular) {
		in->watch = in->track = true;
		s->job.tracked = true;
		s->job.open_size = in->open_size;
		s->job.mtime_sec = in->sec;
		s->job.mtime_nsec = in->nsec;
		return 0;
	}
	if (!s->job.watch)
		return 0;
	if (!in->regular) {
		int err = in->dir ? EISDIR : FH_ENOTREG;

		fh_input_close(in);
		return err;
	}
	in->watch = true;
	in->expect = s->job.expect;
	in->expect_len = s->job.outlen;
	s->job.mtime_sec = in->sec;
	s->job.mtime_nsec = in->nsec;
	return 0;
}

/* The run stops early: slot S, unread, goes back so (its input closed if
 * the I/O stage opened it). */
static int cancel(struct fh_engine *e, struct fh_slot *s)
{
	int st = fh_slot_state(s);

	if (st == FH_SLOT_OPENED) {
		atomic_store_explicit(&s->state, FH_SLOT_BUSY,
				      memory_order_relaxed);
		fh_iostage_taken(&e->io, s->ahead);
		if (!s->in_err)
			fh_input_close(&s->in);
		return ECANCELED;
	}
	if (st != FH_SLOT_READY ||
	    !atomic_compare_exchange_strong(&s->state, &st, FH_SLOT_BUSY))
		return FH_SLOT_NOT_NOW;
	return ECANCELED;
}

/* Takes slot S (INDEX) for hashing: its input opened by the I/O stage, or
 * opened here.  Returns 0 with *IN open, an errno value for a failed open,
 * or -1 when the slot is not to be hashed now (someone else has it, or
 * descriptors run short and LANES_BUSY). */
int fh_slot_take(struct fh_engine *e, struct fh_slot *s, uint64_t index,
		 struct fh_input *in, struct fh_meter *me, bool lanes_busy)
{
	int st = fh_slot_state(s), err;

	if (fh_stopped(e))
		return cancel(e, s);
	if (st == FH_SLOT_OPENED) {
		atomic_store_explicit(&s->state, FH_SLOT_BUSY,
				      memory_order_relaxed);
		fh_iostage_taken(&e->io, s->ahead);
		*in = s->in;
		return s->in_err ? s->in_err : watch(s, in);
	}
	if (st != FH_SLOT_READY)
		return FH_SLOT_NOT_NOW;
	if (lanes_busy && fh_fds_full(&e->fds, me))
		return FH_SLOT_NOT_NOW;
	if (!atomic_compare_exchange_strong(&s->state, &st, FH_SLOT_BUSY))
		return FH_SLOT_NOT_NOW;
	if (e->seq)
		turn_wait(e, index);
	err = fh_input_open(s->job.path, in, &me->fds);
	if ((err == EMFILE || err == ENFILE) && lanes_busy) {
		/* Let the lanes close some first; the slot stays ours. */
		atomic_store(&s->state, FH_SLOT_READY);
		return FH_SLOT_NOT_NOW;
	}
	return err ? err : watch(s, in);
}

/* Whether inputs wait to be hashed after the ones taken: slots not yet
 * claimed that are not markers or done (a few looked at; past them,
 * yes).  A list's end marker after its last line is no input: the last
 * large file still gets a team. */
static bool inputs_wait(struct fh_engine *e)
{
	uint64_t claim = atomic_load(&e->claim), tail = atomic_load(&e->tail);

	for (uint64_t i = claim; i < tail; i++) {
		if (i - claim == 8)
			return true;
		if (fh_slot_state(fh_slot_at(e, i)) != FH_SLOT_DONE)
			return true;
	}
	return false;
}

unsigned fh_spare_threads(void *arg)
{
	struct fh_engine *e = arg;

	if (e->workers < 2 || inputs_wait(e))
		return 0;
	unsigned n = atomic_load(&e->work.waiters) + atomic_load(&e->gone);

	/* With the thread asking, no more than -j. */
	return n < e->workers - 1 ? n : e->workers - 1;
}

/* Hashes slot S (INDEX), whose input IN is open, on the single-stream
 * kernel, or starts it in the lanes: when other inputs WAIT to share
 * them (or the multi-buffer kernel was forced), and at depth 1 only a
 * file that the lanes read whole at once. */
void fh_slot_hash(struct fh_engine *e, struct fh_reader *r,
		  struct fh_lanes *lanes, struct fh_slot *s, uint64_t index,
		  struct fh_input *in, bool waiting)
{
	struct fh_job *j = &s->job;

	/* KT128/KT256 take no lanes of others: one input's own leaves fill
	 * them, and threads join a large one when nothing else waits. */
	r->kt_threads = waiting || inputs_wait(e) ? 1 : e->workers;
	if (lanes && !j->cand && !j->key && !j->algo->cv_bytes && in->regular &&
	    fh_lanes_room(lanes, j) &&
	    (waiting || j->multi_only || fh_lanes_busy(lanes)) &&
	    (!e->seq || in->size < fh_lanes_buffer(lanes)) &&
	    fh_lanes_take(lanes, j, (void *)(uintptr_t)index, in, e->seq)) {
		if (e->seq)
			fh_turn_pass(e, index);
		return;
	}
	j->err = fh_input_hash_job(r, in, j);
	j->torn = in->torn;
	if (e->seq)
		fh_turn_pass(e, index);
	fh_slot_finish(e, s, index);
}
