/* settle.h: which of two algorithms a checksum line is, by its file. */
#ifndef FH_SETTLE_H
#define FH_SETTLE_H

#include <stddef.h>
#include <stdint.h>

#include "fhsum.h"

/* Digest lengths that SHA-3 and SHA-2 share: 28, 32, 48, 64 bytes. */
#define FH_SHARED_SIZES 4

/* Which of the shared lengths OUTLEN (one of them) is: 0..3. */
size_t fh_shared_index(size_t outlen);

/* NAME ("-": standard input) read once, hashed with both ALGOS into
 * DIGESTS; its size into *SIZE.  Returns 0 or an errno value. */
int fh_hash_both(const char *name, const struct fh_algo *const algos[2],
		 uint8_t digests[2][FH_MAX_DIGEST], uint64_t *size);

#endif
