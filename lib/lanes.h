/* lanes.h: a worker's multi-buffer lanes.  Inputs of one algorithm share
 * the lanes of a multi-buffer kernel: each lane reads its own file in
 * chunks, all lanes advance together by as many blocks as the shortest
 * has, a lane whose input ends is finished on the single-stream kernel
 * (its tail and padding) and takes the next input.  Internal to the
 * engine; one per worker thread. */
#ifndef FH_LANES_H
#define FH_LANES_H

#include <stdbool.h>

#include "engine.h"

struct fh_lanes;

/* Called for each job the lanes finish, with the tag given to take. */
typedef void fh_lane_done_fn(void *arg, void *tag);

struct fh_lanes *fh_lanes_new(fh_lane_done_fn *done, void *arg);
void fh_lanes_free(struct fh_lanes *l);

/* Whether JOB may be started now: it has a multi-buffer kernel and a lane
 * is free for its algorithm.  Cheap; no system call. */
bool fh_lanes_room(const struct fh_lanes *l, const struct fh_job *job);
/* Whether any lane is busy. */
bool fh_lanes_busy(const struct fh_lanes *l);

/* Starts JOB in a free lane; returns false (and leaves JOB untouched) when
 * it should be hashed on its own instead: not a regular file, cannot be
 * opened, large enough to be mapped, or alone (nothing else WAITING to
 * share the lanes, and not forced onto them). */
bool fh_lanes_take(struct fh_lanes *l, struct fh_job *job, void *tag,
		   bool waiting);

/* Advances the busy lanes by one multi-buffer call, finishing the inputs
 * that end (DONE is called for each).  With nothing WAITING to be taken, a
 * lone remaining input moves to the single-stream kernel and finishes. */
void fh_lanes_step(struct fh_lanes *l, bool waiting);

#endif
