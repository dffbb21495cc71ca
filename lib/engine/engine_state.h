/* engine_state.h: struct fh_engine, the state of one engine run that its
 * threads share (the caller's, the workers', the I/O stage's), and the
 * queues they sleep on.  Private to the engine's files; the ring's slots
 * are slots.h's. */
#ifndef FH_ENGINE_STATE_H
#define FH_ENGINE_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine.h"
#include "input.h"
#include "iostage.h"

struct fh_slot;
struct fh_meter;
struct fh_populater;

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
	_Atomic unsigned gone;          /* live workers that have stopped */
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

#endif
