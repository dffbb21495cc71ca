/* blake3.h: BLAKE3's tree (blake3.c) in pieces, for callers that hash the
 * subtrees of one input on several threads (the engine's teams).
 * Internal to the library. */
#ifndef FH_BLAKE3_H
#define FH_BLAKE3_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/* A team's leaf: an aligned subtree of 32 chunks (32 KiB), one chaining
 * value. */
#define FH_BLAKE3_LEAF (32u * 1024)

/* The bytes CTX must still be given (fh_update) once MORE further bytes
 * have been, before its next byte starts a leaf. */
size_t fh_blake3_lead_after(const fh_ctx *ctx, uint64_t more);
/* The chaining values of the N leaves at P (N * FH_BLAKE3_LEAF bytes),
 * the first of them leaf FIRST of the input, under CTX's key, flags and
 * kernel (CTX is only read; thread-safe), into CVS (32 bytes each). */
void fh_blake3_leaves(const fh_ctx *ctx, const uint8_t *p, uint64_t first,
		      size_t n, uint8_t *cvs);
/* Takes the N chaining values of fh_blake3_leaves for the N leaves that
 * CTX would read next (fh_blake3_lead_after(CTX, 0) is 0), at least one
 * byte of input still to follow them: CTX stands as if fh_update had
 * been given them. */
void fh_blake3_add_leaves(fh_ctx *ctx, const uint8_t *cvs, size_t n);

#endif
