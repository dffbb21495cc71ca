/* slots.h: the ring of slots that jobs pass through, and what is done to
 * a slot on whichever thread hashes it (slots.c); private to the engine's
 * files.  The state of a run is engine_state.h's, the calling thread's
 * side of it engine.c, the hashing workers' loop worker.c. */
#ifndef FH_SLOTS_H
#define FH_SLOTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine.h"
#include "engine_state.h"
#include "input.h"
#include "iostage.h"

struct fh_lanes;
struct fh_meter;
struct fh_populater;

/* Most slots a worker claims at once: one atomic operation for many small
 * files, yet few enough that the last inputs of a run spread over all the
 * workers (a worker claims at most its share of what waits). */
#define FH_BATCH_MAX 16u

enum fh_slot_state {
	FH_SLOT_READY,     /* produced; nobody has touched its input */
	FH_SLOT_IO,        /* the I/O stage is opening it */
	FH_SLOT_OPENED,    /* the I/O stage opened it: IN, IN_ERR */
	FH_SLOT_BUSY,      /* a worker (or the caller) is hashing it */
	FH_SLOT_STDIN,     /* standard input, for the caller at HEAD */
	FH_SLOT_DONE,      /* hashed, or a marker: to be handed back */
};

struct fh_slot {
	struct fh_job job;
	_Atomic int state;
	struct fh_input in;     /* FH_SLOT_OPENED: the input, or IN_ERR */
	int in_err;
	uint64_t ahead;         /* bytes the I/O stage asked to be read */
	char *path;             /* the engine's copy of job.path */
	size_t path_cap;
	size_t digest_cap;
	size_t held;            /* bytes its job counts against the ring's
				 * bound (FH_WINDOW_BYTES, engine.c) */
};

static inline struct fh_slot *fh_slot_at(struct fh_engine *e, uint64_t i)
{
	return &e->slots[i % e->nslots];
}

static inline int fh_slot_state(struct fh_slot *s)
{
	return atomic_load_explicit(&s->state, memory_order_acquire);
}

/* Whether the run is ending early (fh_engine_opts.stop). */
static inline bool fh_stopped(const struct fh_engine *e)
{
	return e->stop && atomic_load_explicit(e->stop, memory_order_relaxed);
}

/* Whether slots wait to be claimed. */
static inline bool fh_claimable(struct fh_engine *e)
{
	return atomic_load(&e->claim) < atomic_load(&e->tail);
}

/* Marks S (slot INDEX) hashed and wakes the caller if it waits for it. */
void fh_slot_finish(struct fh_engine *e, struct fh_slot *s, uint64_t index);

/* Depth 1: the turn moves past slot I to the next slot that reads. */
void fh_turn_pass(struct fh_engine *e, uint64_t i);

/* Waits while the I/O stage opens slot S: an open of cached metadata
 * takes microseconds, so a few yields first. */
void fh_slot_wait_opened(struct fh_engine *e, struct fh_slot *s);

/* Takes slot S (INDEX) for hashing: its input opened by the I/O stage, or
 * opened here.  Returns 0 with *IN open, an errno value or FH_E* code for
 * a failed open, ECANCELED for a slot left unread as the run stops early,
 * or FH_SLOT_NOT_NOW when the slot is not to be hashed now
 * (someone else has it, or descriptors run short and LANES_BUSY).  ME:
 * the calling thread's meter (not NULL), which counts the descriptor it
 * opens. */
int fh_slot_take(struct fh_engine *e, struct fh_slot *s, uint64_t index,
		 struct fh_input *in, struct fh_meter *me, bool lanes_busy);

/* fh_reader's SPARE for the engine ARG: while no other input waits, the
 * workers asleep for want of work or gone, fewer than -j; else 0. */
unsigned fh_spare_threads(void *arg);

/* Hashes slot S (INDEX), whose input IN is open, on the single-stream
 * kernel, or starts it in the lanes: when other inputs WAIT to share
 * them (or the multi-buffer kernel was forced), and at depth 1 only a
 * file that the lanes read whole at once. */
void fh_slot_hash(struct fh_engine *e, struct fh_reader *r,
		  struct fh_lanes *lanes, struct fh_slot *s, uint64_t index,
		  struct fh_input *in, bool waiting);

#endif
