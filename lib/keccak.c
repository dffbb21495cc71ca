/* keccak.c: the Keccak family's ops record (family.h): SHA-3, SHAKE and
 * TurboSHAKE as one sponge (sponge.c; FIPS 202 §4, RFC 9861 §2.2) at the
 * algorithm's rate, rounds and domain byte, and KT128/KT256 as its tree
 * mode (kt.c, RFC 9861 §3), chosen by the algorithm's chaining-value
 * length. */
#include <assert.h>
#include <string.h>

#include "family.h"
#include "kt.h"
#include "sponge.h"

static void start(const struct fh_algo *algo, void *state)
{
	(void)algo;
	memset(state, 0, 25 * sizeof(uint64_t));
}

static void blocks(const struct fh_kernel *k, const struct fh_algo *algo,
		   void *state, const uint8_t *data, size_t nblocks)
{
	fh_keccak_absorb_of(k)(state, data, nblocks, algo->block_bytes,
			       algo->rounds);
}

static void blocks_xn(const struct fh_kernel *k, const struct fh_algo *algo,
		      void *states, const uint8_t *const *data, size_t nblocks)
{
	fh_keccak_absorb_xn_of(k)(states, data, nblocks, algo->block_bytes,
				  algo->rounds);
}

static size_t pad(const struct fh_algo *algo, uint8_t *block, size_t tail,
		  uint64_t total)
{
	(void)total;
	fh_keccak_pad(block, tail, algo->block_bytes, algo->pad);
	return 1;
}

static void digest(const struct fh_algo *algo, const struct fh_kernel *k,
		   void *state, uint8_t *out, size_t outlen)
{
	fh_sponge_squeeze(algo, k, state, out, outlen);
}

static void init(fh_ctx *ctx, const struct fh_kernel *multi)
{
	if (ctx->algo->cv_bytes)
		fh_kt_init(ctx, multi);
}

static void update(fh_ctx *ctx, const uint8_t *p, size_t len)
{
	struct fh_sponge s = { ctx->state.keccak, ctx->buf, &ctx->buffered };

	if (ctx->algo->cv_bytes) {
		fh_kt_update(ctx, p, len);
		return;
	}
	ctx->total += len;
	fh_sponge_absorb(ctx->algo, ctx->kernel, &s, p, len);
}

static void final(fh_ctx *ctx, const void *custom, size_t customlen,
		  uint8_t *out, size_t outlen)
{
	const struct fh_algo *algo = ctx->algo;
	struct fh_sponge s = { ctx->state.keccak, ctx->buf, &ctx->buffered };

	if (algo->cv_bytes) {
		fh_kt_final(ctx, custom, customlen, out, outlen);
		return;
	}
	assert(customlen == 0);
	fh_sponge_pad(algo, ctx->kernel, &s, algo->pad);
	fh_sponge_squeeze(algo, ctx->kernel, ctx->state.keccak, out, outlen);
}

const struct fh_family_ops fh_keccak_ops = {
	.name = "keccak", .state_bytes = 25 * sizeof(uint64_t), .permutes = true,
	.start = start, .blocks = blocks, .blocks_xn = blocks_xn, .pad = pad,
	.digest = digest, .init = init, .update = update, .final = final,
};
