/* kt.h: KangarooTwelve (KT128, KT256; RFC 9861 §3) over the Keccak
 * kernels: the streaming tree of fh_ctx, and whole leaves for callers
 * that hash the leaves of one input on several threads.  Internal to the
 * library. */
#ifndef FH_KT_H
#define FH_KT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/* Most leaves, and so chaining values, one fh_kt_leaves call is given by
 * the streaming code; any count works. */
#define FH_KT_BATCH 64

/* fh_init_kernel's KT part: leaves on MULTI (NULL: one at a time on the
 * context's single-stream kernel). */
void fh_kt_init(fh_ctx *ctx, const struct fh_kernel *multi);
/* fh_update for KT: LEN more bytes of the message. */
void fh_kt_update(fh_ctx *ctx, const uint8_t *p, size_t len);
/* fh_final_custom for KT. */
void fh_kt_final(fh_ctx *ctx, const uint8_t *custom, size_t customlen,
		 uint8_t *out, size_t outlen);

/* The bytes CTX must still be given (fh_update) before whole leaves can
 * go to fh_kt_leaves: the rest of S_0, or of a leaf begun.  0 when the
 * next byte starts a leaf. */
size_t fh_kt_lead(const fh_ctx *ctx);
/* fh_kt_lead as it will stand once MORE further bytes have been given. */
size_t fh_kt_lead_after(const fh_ctx *ctx, uint64_t more);
/* Hashes the N whole leaves (N * FH_KT_CHUNK bytes) at P into their N
 * chaining values at CVS (N * algo->cv_bytes bytes): in the lanes of
 * MULTI and its narrower kin where several are left (see
 * fh_kernel_narrowest), alone on SINGLE otherwise (MULTI may be NULL).
 * Thread-safe. */
void fh_kt_leaves(const struct fh_algo *algo, const struct fh_kernel *single,
		  const struct fh_kernel *multi, const uint8_t *p, size_t n,
		  uint8_t *cvs);
/* Takes N chaining values from fh_kt_leaves, for the N leaves that CTX
 * would have read next: CTX stands as if fh_update had been given them.
 * Only where fh_kt_lead(CTX) is 0. */
void fh_kt_add_leaves(fh_ctx *ctx, const uint8_t *cvs, size_t n);

#endif
