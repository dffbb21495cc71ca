/* parts.h: one input hashed as S3 hashes an object uploaded in parts:
 * each part of PART bytes (the last one shorter) an independent message,
 * then the part digests, concatenated, hashed again.  Internal. */
#ifndef FH_PARTS_H
#define FH_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "fhsum.h"

/* S3's most parts in one upload. */
#define FH_PARTS_MAX 10000

/* Hashes the input open on FD (REGULAR: a regular file of SIZE bytes,
 * mapped, or with NO_MMAP read with pread, from offset 0 in batches of
 * parts on THREADS threads, the parts of a batch in the lanes of ALGO's
 * multi-buffer kernel; else read in order) in parts of PART bytes.  An input of at least PART
 * bytes was uploaded in parts: *NPARTS gets their count and OUT ALGO's
 * digest of their digests; a shorter one was one plain upload: *NPARTS
 * is 0 and OUT its digest.  *TOTAL gets the bytes read.  Returns 0, an
 * errno value, or EFBIG when there would be more than FH_PARTS_MAX
 * parts.  Thread-safe. */
int fh_parts_hash(int fd, bool regular, uint64_t size, const struct fh_algo *algo,
		  uint64_t part, unsigned threads, bool no_mmap, uint8_t *out,
		  uint64_t *nparts, uint64_t *total);

#endif
