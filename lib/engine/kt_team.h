/* kt_team.h: several threads on the leaves of one KT128/KT256 input.
 * Internal to the engine: fh_input_hash uses a team for a large mapped
 * file when the engine has threads to spare. */
#ifndef FH_KT_TEAM_H
#define FH_KT_TEAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhsum.h"

/* Inputs smaller than this are hashed by one thread: a team's start and
 * its synchronisations cost more than they save. */
#define FH_KT_TEAM_MIN (4u << 20)

/* Windows a team holds at once: submitted and not yet retired. */
#define FH_KT_TEAM_WINDOWS 2

struct fh_kt_team;

/* A team of THREADS threads: the caller's and THREADS - 1 new ones.
 * NULL when THREADS < 2 or the threads cannot start. */
struct fh_kt_team *fh_kt_team_new(unsigned threads);
/* Stops the team's threads and frees it; NULL is fine. */
void fh_kt_team_free(struct fh_kt_team *t);

/* Gives the team the next LEN bytes at P of the KT context CTX, lying in
 * the mapped window MAP of MAPLEN bytes: the helpers start on its whole
 * leaves at once, while earlier windows may still be in work.  At most
 * FH_KT_TEAM_WINDOWS windows are held; the window must stay mapped and
 * CTX untouched until fh_kt_team_retire has taken it back.  One caller at
 * a time. */
void fh_kt_team_submit(struct fh_kt_team *t, const fh_ctx *ctx,
		       const uint8_t *map, size_t maplen, const uint8_t *p,
		       size_t len);
/* Takes back the oldest window, the caller's thread hashing leaves with
 * the helpers until its leaves are done: CTX then stands as if fh_update
 * had been given its bytes (the chaining values in leaf order, so the
 * digest is the same as one thread's), and the window may be unmapped.
 * Returns false when a page of any window could not be had (the file
 * shrank, or a read failed: a fault in any thread): then every window
 * held is given up, none is touched any
 * more, and CTX is unusable. */
bool fh_kt_team_retire(struct fh_kt_team *t, fh_ctx *ctx);

#endif
