/* slots.h: the engine's shared state, private to the engine's files: the
 * ring of slots that jobs pass through, the queues its threads sleep on,
 * and what is done to a slot on whichever thread hashes it (slots.c).
 * The calling thread's side of a run is engine.c, the hashing workers'
 * loop worker.c. */
#ifndef FH_SLOTS_H
#define FH_SLOTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine.h"
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

/* A condition to sleep on.  WAITERS counts the sleepers, so that whoever
 * changes the condition makes a system call only when someone sleeps:
 * the changer updates the condition then reads WAITERS, the sleeper
 * counts itself then reads the condition (both sequentially consistent),
 * so one of them sees the other. */
struct fh_waitq {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	_Atomic unsigned waiters;
};

void fh_wq_init(struct fh_waitq *q);
void fh_wq_destroy(struct fh_waitq *q);
/* Wakes one sleeper of Q, or ALL; no system call when none sleeps. */
void fh_wq_wake(struct fh_waitq *q, bool all);

/* Sleeps on Q until COND holds (an expression, evaluated under Q's lock). */
#define FH_WQ_WAIT(q, cond)                                             \
	do {                                                            \
		pthread_mutex_lock(&(q)->lock);                         \
		atomic_fetch_add(&(q)->waiters, 1);                     \
		while (!(cond))                                         \
			pthread_cond_wait(&(q)->cv, &(q)->lock);        \
		atomic_fetch_sub(&(q)->waiters, 1);                     \
		pthread_mutex_unlock(&(q)->lock);                       \
	} while (0)

struct fh_engine {
	struct fh_slot *slots;
	size_t nslots;                  /* the ring's slots */
	uint64_t head;                  /* the caller's alone */
	size_t held;                    /* the caller's: bytes the ring's jobs hold */
	_Atomic uint64_t tail, claim;
	_Atomic bool finished;          /* no more jobs will come */
	uint64_t jobs;                  /* file jobs produced (the caller's) */
	_Atomic uint64_t files_done;    /* file jobs finished */

	struct fh_waitq work;           /* workers wait for slots */
	struct fh_waitq done;           /* the caller waits for HEAD */
	struct fh_waitq opened;         /* workers wait for the I/O stage */
	struct fh_waitq turn_q;         /* depth 1: waiting for the turn */
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
	const _Atomic bool *stop;       /* fh_engine_opts.stop */
};

/* A hashing worker's thread (worker.c): its engine and its meter. */
struct fh_worker {
	struct fh_engine *e;
	struct fh_meter *meter;
};

/* The thread function of a worker; ARG is its struct fh_worker. */
void *fh_worker_main(void *arg);

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
 * (someone else has it, or descriptors run short and LANES_BUSY). */
int fh_slot_take(struct fh_engine *e, struct fh_slot *s, uint64_t index,
		 struct fh_input *in, bool lanes_busy);

/* Hashes slot S (INDEX), whose input IN is open, on the single-stream
 * kernel, or starts it in the lanes: when other inputs WAIT to share
 * them (or the multi-buffer kernel was forced), and at depth 1 only a
 * file that the lanes read whole at once. */
void fh_slot_hash(struct fh_engine *e, struct fh_reader *r,
		  struct fh_lanes *lanes, struct fh_slot *s, uint64_t index,
		  struct fh_input *in, bool waiting);

#endif
