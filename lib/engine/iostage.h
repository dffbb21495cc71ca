/* iostage.h: the engine's I/O stage.  A few threads open the inputs a
 * little ahead of the hashing workers and ask the system to start reading
 * them (fh_os_read_ahead), so that a cold disk has many requests in
 * flight while the workers hash what has arrived; each descriptor is
 * handed to the worker that hashes its input.  Whether the data is cached
 * is probed as it goes (fh_os_cached, which never waits for the disk):
 * while it is, the stage rests and only samples now and then,
 * so a warm run pays almost nothing for it.  Internal to the engine. */
#ifndef FH_IOSTAGE_H
#define FH_IOSTAGE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "input.h"

/* Threads opening inputs: cold metadata (an inode, a directory block)
 * makes open(2) wait for the disk, so one thread would keep one such
 * request in flight at a time.  One samples from the start; the others
 * start once the data turns out not to be cached.  Verifying an installed
 * system from a cold cache (113k files, virtio disk, 2-core AMD EPYC) took
 * 1.22x the read ceiling with 4 threads and depth 32, 1.09-1.16x with 32
 * threads and depth 128, 1.08x with 32 and 256 (1.12x with 64). */
#define FH_IO_THREADS 32

/* What the stage asks of the engine's slots. */
struct fh_iostage_ops {
	/* Takes slot INDEX for opening: its path, or NULL when it is not an
	 * input nobody has touched yet. */
	const char *(*claim)(void *arg, uint64_t index);
	/* Hands slot INDEX its input IN, opened (ERR 0) or not (ERR an errno
	 * value; EMFILE and ENFILE give the slot back untouched), and the
	 * bytes AHEAD asked to be read, for fh_iostage_taken. */
	void (*give)(void *arg, uint64_t index, const struct fh_input *in,
		     int err, uint64_t ahead);
	/* Whether the run is ending early (fh_engine_opts.stop): an input
	 * opened then is handed on without a probe or a read started. */
	bool (*stopped)(void *arg);
};

struct fh_iostage;

struct fh_io_thread {
	struct fh_iostage *io;
	unsigned n;             /* 0 samples while the stage is warm */
};

struct fh_iostage {
	const struct fh_iostage_ops *ops;
	void *arg;
	struct fh_fds *fds;
	_Atomic uint64_t *tail, *claim; /* the engine's cursors */
	unsigned depth, nthreads;
	bool started;
	_Atomic uint64_t next;          /* the next slot to look at */
	_Atomic bool finished, cold;
	bool always;                    /* cold whatever the probe says */
	_Atomic unsigned hits;          /* cached inputs seen in a row */
	_Atomic uint64_t ahead;         /* bytes asked for, not yet taken */
	_Atomic unsigned sleepers;
	pthread_mutex_t lock;
	pthread_cond_t cv;
	pthread_t tids[FH_IO_THREADS];
	struct fh_io_thread th[FH_IO_THREADS];
};

/* Prepares IO over the engine's cursors TAIL (next slot to be produced)
 * and CLAIM (next slot no worker has claimed); starts no thread. */
void fh_iostage_init(struct fh_iostage *io, const struct fh_iostage_ops *ops,
		     void *arg, struct fh_fds *fds, _Atomic uint64_t *tail,
		     _Atomic uint64_t *claim);
/* Starts the threads, to look DEPTH slots ahead of CLAIM; once.  With
 * ALWAYS the stage looks ahead whatever the probe finds cached. */
void fh_iostage_start(struct fh_iostage *io, unsigned depth, bool always);
/* The engine's news: slots up to TAIL exist; workers claimed up to CLAIM;
 * a worker took an input with AHEAD bytes asked; no more slots will come. */
void fh_iostage_produced(struct fh_iostage *io, uint64_t tail);
void fh_iostage_claimed(struct fh_iostage *io, uint64_t claim);
void fh_iostage_taken(struct fh_iostage *io, uint64_t ahead);
void fh_iostage_finish(struct fh_iostage *io);
/* Waits for the threads to end (after fh_iostage_finish). */
void fh_iostage_stop(struct fh_iostage *io);

#endif
