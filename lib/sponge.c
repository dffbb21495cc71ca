/* sponge.c: the Keccak sponge over a kernel (FIPS 202 §4): absorbing
 * through a buffer of one block, padding, squeezing (see sponge.h).  Below
 * both of its users, hash.c (SHA-3, SHAKE, TurboSHAKE) and kt.c
 * (KangarooTwelve's nodes), so that neither calls into the other for it. */
#include <string.h>

#include "bytes.h"
#include "sponge.h"

void fh_sponge_absorb(const struct fh_algo *algo, const struct fh_kernel *k,
		      const struct fh_sponge *s, const uint8_t *p, size_t len)
{
	size_t rate = algo->block_bytes;

	if (*s->buffered) {
		size_t take = rate - *s->buffered;

		if (take > len)
			take = len;
		memcpy(s->buf + *s->buffered, p, take);
		*s->buffered += take;
		p += take;
		len -= take;
		if (*s->buffered < rate)
			return;
		fh_keccak_absorb_of(k)(s->state, s->buf, 1, rate, algo->rounds);
		*s->buffered = 0;
	}
	if (len >= rate) {
		size_t n = len / rate;

		fh_keccak_absorb_of(k)(s->state, p, n, rate, algo->rounds);
		p += n * rate;
		len -= n * rate;
	}
	if (len) {
		memcpy(s->buf, p, len);
		*s->buffered = len;
	}
}

void fh_sponge_pad(const struct fh_algo *algo, const struct fh_kernel *k,
		   const struct fh_sponge *s, uint8_t domain)
{
	size_t rate = algo->block_bytes;

	fh_keccak_pad(s->buf, *s->buffered, rate, domain);
	fh_keccak_absorb_of(k)(s->state, s->buf, 1, rate, algo->rounds);
	*s->buffered = 0;
}

void fh_sponge_squeeze(const struct fh_algo *algo, const struct fh_kernel *k,
		       uint64_t state[25], uint8_t *out, size_t outlen)
{
	size_t rate = algo->block_bytes;
	uint8_t lanes[FH_MAX_BLOCK];

	/* The first RATE bytes of the state, permute, repeat. */
	for (;;) {
		size_t take = outlen < rate ? outlen : rate;

		for (size_t i = 0; i < (take + 7) / 8; i++)
			fh_store64le(lanes + 8 * i, state[i]);
		memcpy(out, lanes, take);
		out += take;
		outlen -= take;
		if (!outlen)
			break;
		fh_keccak_permute_of(k)(state, algo->rounds);
	}
}
