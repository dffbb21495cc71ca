/* worker.c: a hashing worker's thread.  It claims batches of slots from
 * the engine's ring (slots.h) and hashes them, many small inputs at once
 * in the SIMD lanes of a multi-buffer kernel; what it does to each slot
 * is slots.c's, shared with the calling thread. */
#include <stdint.h>
#include <stdlib.h>

#include "io.h"
#include "lanes.h"
#include "slots.h"

/* A job the lanes finished: TAG is its slot's index. */
static void lane_done(void *arg, void *tag)
{
	struct fh_engine *e = arg;
	uint64_t index = (uint64_t)(uintptr_t)tag;

	fh_slot_finish(e, fh_slot_at(e, index), index);
}

/* Claims the next batch of slots, [*FROM, *TO); false if none waits. */
static bool claim_batch(struct fh_engine *e, uint64_t *from, uint64_t *to)
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

/* Sleeps until slots wait or the run ends; false at the end. */
static bool wait_for_work(struct fh_engine *e)
{
	FH_WQ_WAIT(&e->work, fh_claimable(e) || atomic_load(&e->finished));
	return fh_claimable(e);
}

/* A worker: claims batches of slots and hashes them.  A slot whose input
 * can share the SIMD lanes joins them while they have room for it; any
 * other is hashed at once on the single-stream kernel.  When nothing can
 * be taken, the lanes advance. */
void *fh_worker_main(void *arg)
{
	struct fh_worker *w = arg;
	struct fh_engine *e = w->e;
	struct fh_reader r = {
		.no_mmap = e->no_mmap || e->seq,
		.seq = e->seq,
		.feed = e->feed,
		.bufsize = e->seq ? FH_SEQ_READ_SIZE : FH_READ_SIZE,
		.meter = w->meter,
		.pop = e->pop,
		.spare = fh_spare_threads,
		.spare_arg = e,
	};
	struct fh_lanes *lanes = fh_lanes_new(lane_done, e, w->meter, e->stop);
	uint64_t next = 0, end = 0;

	r.buf = fh_buf_alloc(r.bufsize);
	if ((!r.buf || !lanes) && atomic_fetch_sub(&e->live, 1) == 1)
		/* Without its buffers this worker hashes nothing; the others
		 * do its share, and the caller when none is left. */
		fh_wq_wake(&e->done, true);
	while (r.buf && lanes) {
		bool busy = fh_lanes_busy(lanes);

		if (next == end && !claim_batch(e, &next, &end)) {
			if (busy)
				fh_lanes_step(lanes, false);
			else if (!wait_for_work(e))
				break;
			continue;
		}
		struct fh_slot *s = fh_slot_at(e, next);
		int st = fh_slot_state(s);

		if (st == FH_SLOT_STDIN || st == FH_SLOT_DONE) {
			next++;
			continue;
		}
		bool waiting = next + 1 < end || fh_claimable(e);

		if (busy && !fh_lanes_room(lanes, &s->job)) {
			fh_lanes_step(lanes, true);
			continue;
		}
		if (st == FH_SLOT_IO) {
			if (busy)
				fh_lanes_step(lanes, true);
			else
				fh_slot_wait_opened(e, s);
			continue;
		}
		struct fh_input in;
		int err = fh_slot_take(e, s, next, &in, w->meter, busy);

		if (err == FH_SLOT_NOT_NOW) {
			if (busy)
				fh_lanes_step(lanes, true);
			continue;
		}
		uint64_t index = next++;

		if (err) {
			s->job.err = err;
			if (e->seq)
				fh_turn_pass(e, index);
			fh_slot_finish(e, s, index);
			continue;
		}
		fh_slot_hash(e, &r, lanes, s, index, &in, waiting);
	}
	if (r.buf && lanes)
		atomic_fetch_add(&e->gone, 1);
	fh_lanes_free(lanes);
	free(r.buf);
	return NULL;
}
