/* slices.h: one large input of a family whose state combines (the CRCs,
 * family.h's combine) hashed in slices on several threads.  Internal to
 * the engine. */
#ifndef FH_SLICES_H
#define FH_SLICES_H

#include <stdint.h>

#include "fhsum.h"

/* Inputs from this size are worth slicing: each thread then has 16 MiB
 * or more. */
#define FH_SLICE_MIN ((uint64_t)32 << 20)

/* Hashes the SIZE bytes of the regular file FD (read with pread, from
 * offset 0) into CTX, started and empty, on THREADS threads (this one
 * among them), each a slice of its own read in 64 KiB pieces and hashed
 * on CTX's kernel, the slices' states then combined in order: CTX is as
 * if fh_update had had the whole file.  Returns 0, an errno value, or
 * FH_ESHRANK when the file ends early. */
int fh_slices_hash(fh_ctx *ctx, int fd, uint64_t size, unsigned threads);

#endif
