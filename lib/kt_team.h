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
 * its two synchronisations a window cost more than they save. */
#define FH_KT_TEAM_MIN (4u << 20)

struct fh_kt_team;

/* A team of THREADS threads: the caller's and THREADS - 1 new ones.
 * NULL when THREADS < 2 or the threads cannot start. */
struct fh_kt_team *fh_kt_team_new(unsigned threads);
/* Stops the team's threads and frees it; NULL is fine. */
void fh_kt_team_free(struct fh_kt_team *t);
/* fh_update(CTX, P, LEN) for a KT context, P..P+LEN lying in the mapped
 * window MAP of MAPLEN bytes: the whole leaves are cut into one
 * contiguous range per thread, each hashed in the widest lanes, and
 * their chaining values go to CTX in order, so the digest is the same as
 * one thread's.  Returns false when the file shrank under the window
 * (SIGBUS in any thread); CTX is then unusable.  One caller at a time. */
bool fh_kt_team_update(struct fh_kt_team *t, fh_ctx *ctx, const uint8_t *map,
		       size_t maplen, const uint8_t *p, size_t len);

#endif
