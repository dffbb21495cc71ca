/* slices.h: one large input of a family whose state combines (the CRCs,
 * family.h's combine) hashed in slices on several threads.  Internal to
 * the engine. */
#ifndef FH_SLICES_H
#define FH_SLICES_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "fhsum.h"
#include "meter.h"

/* Inputs from this size are worth slicing: each thread then has 16 MiB
 * or more. */
#define FH_SLICE_MIN ((uint64_t)32 << 20)

/* How the slices' bytes are had: through mapped windows (MAP; their
 * feed FEED, as fh_mapping's), else with pread alone (--no-mmap); and
 * the meter every slice's thread adds its bytes to (may be NULL). */
struct fh_slicing {
	bool map;
	enum fh_feed feed;
	struct fh_meter *meter;
};

/* Hashes the SIZE bytes from offset FROM of the regular file (or cached
 * block device) FD into CTX, started (it may hold bytes before them), on
 * THREADS threads (this one among them), each a slice of its own had as
 * HOW says, in 64 KiB pieces where read, and hashed on CTX's kernel, the
 * slices' states then combined in order: CTX is as if fh_update had had
 * those bytes.
 * Returns 0, an errno value, or FH_ESHRANK when the file ends early. */
int fh_slices_hash(fh_ctx *ctx, int fd, uint64_t from, uint64_t size,
		   unsigned threads, const struct fh_slicing *how);

#endif
