/* kt_team.h: several threads on the leaves of one KT128/KT256 input, or
 * on the subtrees of one BLAKE3 input.
 * Internal to the engine: fh_input_hash uses a team for a large mapped
 * file when the engine has threads to spare. */
#ifndef FH_KT_TEAM_H
#define FH_KT_TEAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fhsum.h"

/* Inputs smaller than this are hashed by one thread: a team's start and
 * its synchronisations cost more than they save. */
#define FH_KT_TEAM_MIN (4u << 20)

/* Windows a team holds at once: submitted and not yet retired. */
#define FH_KT_TEAM_WINDOWS 2

struct fh_kt_team;

/* Whether a team hashes ALGO's large inputs: KT128 and KT256 (their
 * leaves), BLAKE3 (its subtrees of 32 chunks). */
bool fh_team_serves(const struct fh_algo *algo);

/* A team of THREADS threads: the caller's and THREADS - 1 new ones,
 * each with a buffer for windows read where READS.  NULL when THREADS < 2
 * or the threads or buffers cannot be had. */
struct fh_kt_team *fh_kt_team_new(unsigned threads, bool reads);
/* Stops the team's threads and frees it; NULL is fine. */
void fh_kt_team_free(struct fh_kt_team *t);

/* Gives the team the next LEN bytes of the KT context CTX, [OFF, OFF +
 * LEN) of the file FD: at P in the mapped window MAP of MAPLEN bytes, or,
 * with MAP NULL (a team made with READS), to be read by each thread into
 * its buffer as it claims leaves.  The helpers start on its whole leaves
 * at once, while earlier windows may still be in work.  At most
 * FH_KT_TEAM_WINDOWS windows are held; the window must stay mapped, FD
 * open and CTX untouched until fh_kt_team_retire has taken it back.  One
 * caller at a time. */
void fh_kt_team_submit(struct fh_kt_team *t, const fh_ctx *ctx,
		       const uint8_t *map, size_t maplen, const uint8_t *p,
		       size_t len, int fd, off_t off);
/* Takes back the oldest window, the caller's thread hashing leaves with
 * the helpers until its leaves are done: CTX then stands as if fh_update
 * had been given its bytes (the chaining values in leaf order, so the
 * digest is the same as one thread's), and the window may be unmapped.
 * Returns false when a byte of any window could not be had (the file
 * shrank, or a read failed: a fault or a failed read in any thread): then
 * every window held is given up, none is touched any more, and CTX is
 * unusable. */
bool fh_kt_team_retire(struct fh_kt_team *t, fh_ctx *ctx);

#endif
