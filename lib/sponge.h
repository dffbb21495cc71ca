/* sponge.h: the Keccak sponge over a kernel (FIPS 202 §4), shared by
 * hash.c (SHA-3, SHAKE, TurboSHAKE) and kt.c (KangarooTwelve's nodes).
 * A sponge is a state, a buffer of one block and the bytes waiting in it;
 * ALGO gives the rate and the rounds.  Internal to the library. */
#ifndef FH_SPONGE_H
#define FH_SPONGE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel.h"

struct fh_sponge {
	uint64_t *state;        /* 25 lanes */
	uint8_t *buf;           /* FH_MAX_BLOCK bytes */
	size_t *buffered;       /* bytes waiting in buf */
};

/* Pads a last block of RATE bytes whose first TAIL (< RATE) are message:
 * the domain byte DOMAIN, zeros, and the final bit of pad10*1 in the
 * rate's last byte (FIPS 202 §5.1 and B.2; RFC 9861 §2.2). */
static inline void fh_keccak_pad(uint8_t *block, size_t tail, size_t rate,
				 uint8_t domain)
{
	memset(block + tail, 0, rate - tail);
	block[tail] = domain;
	block[rate - 1] |= 0x80;
}

/* Absorbs LEN bytes at P: whole blocks straight from P, the rest through
 * the buffer. */
void fh_sponge_absorb(const struct fh_algo *algo, const struct fh_kernel *k,
		      const struct fh_sponge *s, const uint8_t *p, size_t len);
/* Ends absorbing: the buffered bytes padded (fh_keccak_pad), then the
 * last permutation. */
void fh_sponge_pad(const struct fh_algo *algo, const struct fh_kernel *k,
		   const struct fh_sponge *s, uint8_t domain);
/* Squeezes OUTLEN bytes out of a padded sponge's STATE into OUT. */
void fh_sponge_squeeze(const struct fh_algo *algo, const struct fh_kernel *k,
		       uint64_t state[25], uint8_t *out, size_t outlen);

#endif
