/* lanes.h: a worker's multi-buffer lanes.  Inputs of one algorithm share
 * the lanes of a multi-buffer kernel: each lane reads its own file in
 * chunks, all lanes advance together by as many blocks as the shortest
 * has, a lane whose input ends is finished on the single-stream kernel
 * (its tail and padding) and takes the next input.  With few lanes busy a
 * narrower kernel of the family runs them; a lane left alone with nothing
 * waiting goes on, in bursts, on the single-stream kernel (the state is
 * the same).  Internal to the engine; one per worker thread. */
#ifndef FH_LANES_H
#define FH_LANES_H

#include <stdatomic.h>
#include <stdbool.h>

#include "engine.h"
#include "input.h"

struct fh_lanes;

/* Called for each job the lanes finish, with the tag given to take. */
typedef void fh_lane_done_fn(void *arg, void *tag);

/* New lanes calling DONE(ARG, tag) for each finished job; METER counts the
 * bytes they hash (may be NULL).  The inputs they close are uncounted
 * where they were counted (fh_input_open).
 * Once STOP (NULL: never) turns true, the lanes finish the inputs read to
 * their end and, of the others begun, the one with the fewest bytes left;
 * the rest end with err ECANCELED (fh_engine_opts.stop), those not yet
 * read from unread.  NULL when out of memory. */
struct fh_lanes *fh_lanes_new(fh_lane_done_fn *done, void *arg,
			      struct fh_meter *meter, const _Atomic bool *stop);
void fh_lanes_free(struct fh_lanes *l);

/* Whether JOB may be started now: it has a multi-buffer kernel and a lane
 * is free for its algorithm.  Cheap; no system call. */
bool fh_lanes_room(const struct fh_lanes *l, const struct fh_job *job);
/* Whether any lane is busy. */
bool fh_lanes_busy(const struct fh_lanes *l);
/* The most bytes a lane buffers: an input no larger than this fits whole. */
size_t fh_lanes_buffer(const struct fh_lanes *l);

/* Starts JOB, whose input IN is an open regular file, in a free lane
 * (fh_lanes_room must have said yes); the lanes own IN from now on and
 * close it.  With WHOLE, the file (no larger than fh_lanes_buffer) is
 * read to its end at once.  Returns false, leaving IN open, when it is
 * not a regular file or memory runs out. */
bool fh_lanes_take(struct fh_lanes *l, struct fh_job *job, void *tag,
		   struct fh_input *in, bool whole);

/* Advances the busy lanes by one multi-buffer call, finishing the inputs
 * that end (DONE is called for each).  With nothing WAITING to be taken, a
 * lone remaining input advances by a few MiB on the single-stream kernel
 * instead, so that the caller can look for new inputs in between.
 * Returns the bytes each busy lane advanced (0 when none is busy). */
uint64_t fh_lanes_step(struct fh_lanes *l, bool waiting);

#endif
