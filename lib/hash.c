/* hash.c: the hashing modes over the block kernels: buffering of partial
 * blocks for the Merkle-Damgard hashes, MD5 (RFC 1321), SHA-1 and SHA-2
 * (FIPS 180-4), whose padding and digests are blocks.c's; and
 * SHA3/SHAKE/TurboSHAKE as one Keccak sponge (sponge.c) with their domain
 * bytes (FIPS 202 §6; RFC 9861 §2.2).  KT128/KT256 are trees of sponges:
 * kt.c. */
#include <assert.h>
#include <string.h>

#include "bytes.h"
#include "kernel.h"
#include "kt.h"
#include "sponge.h"

void fh_init_kernel(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel)
{
	const struct fh_kernel *multi = NULL;

	assert(kernel->family == algo->family);
	assert(kernel->lanes == 1 || algo->cv_bytes);
	if (kernel->lanes > 1) {
		multi = kernel;
		kernel = fh_kernel_best(algo->family);
	}
	ctx->algo = algo;
	ctx->kernel = kernel;
	ctx->total = 0;
	ctx->buffered = 0;
	memset(&ctx->state, 0, sizeof ctx->state);
	fh_state_start(algo, &ctx->state);
	if (algo->cv_bytes)
		fh_kt_init(ctx, multi);
}

void fh_init(fh_ctx *ctx, const struct fh_algo *algo)
{
	fh_init_kernel(ctx, algo, fh_kernel_best(algo->family));
	if (algo->cv_bytes)
		fh_kt_init(ctx, fh_kernel_best_multi(algo->family));
}

void fh_update(fh_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t block = ctx->algo->block_bytes;

	if (ctx->algo->family == FH_FAMILY_KECCAK) {
		if (ctx->algo->cv_bytes) {
			fh_kt_update(ctx, p, len);
		} else {
			struct fh_sponge s = { ctx->state.keccak, ctx->buf,
					       &ctx->buffered };

			ctx->total += len;
			fh_sponge_absorb(ctx->algo, ctx->kernel, &s, p, len);
		}
		return;
	}
	ctx->total += len;
	if (ctx->buffered) {
		size_t take = block - ctx->buffered;

		if (take > len)
			take = len;
		memcpy(ctx->buf + ctx->buffered, p, take);
		ctx->buffered += take;
		p += take;
		len -= take;
		if (ctx->buffered < block)
			return;
		fh_blocks(ctx->kernel, ctx->algo, &ctx->state, ctx->buf, 1);
		ctx->buffered = 0;
	}
	if (len >= block) {
		size_t n = len / block;

		fh_blocks(ctx->kernel, ctx->algo, &ctx->state, p, n);
		p += n * block;
		len -= n * block;
	}
	if (len) {
		memcpy(ctx->buf, p, len);
		ctx->buffered = len;
	}
}

void fh_squeeze(fh_ctx *ctx, uint8_t *out, size_t outlen)
{
	if (ctx->algo->family != FH_FAMILY_KECCAK) {
		fh_md_digest(ctx->algo, &ctx->state, out, outlen);
		return;
	}
	fh_sponge_squeeze(ctx->algo, ctx->kernel, ctx->state.keccak, out,
			  outlen);
}

void fh_final_custom(fh_ctx *ctx, const void *custom, size_t customlen,
		     uint8_t *out, size_t outlen)
{
	const struct fh_algo *algo = ctx->algo;

	assert(algo->xof ? outlen <= FH_MAX_XOF_BYTES
			 : outlen == algo->digest_bytes);
	assert(algo->cv_bytes || customlen == 0);
	if (algo->family != FH_FAMILY_KECCAK) {
		/* The padding may take two blocks, more than the context's
		 * buffer holds for SHA-512. */
		uint8_t pad[FH_PAD_MAX];

		memcpy(pad, ctx->buf, ctx->buffered);
		fh_blocks(ctx->kernel, algo, &ctx->state, pad,
			  fh_pad(algo, pad, ctx->buffered, ctx->total));
		fh_squeeze(ctx, out, outlen);
	} else if (algo->cv_bytes) {
		fh_kt_final(ctx, custom, customlen, out, outlen);
	} else {
		struct fh_sponge s = { ctx->state.keccak, ctx->buf,
				       &ctx->buffered };

		fh_sponge_pad(algo, ctx->kernel, &s, algo->pad);
		fh_sponge_squeeze(algo, ctx->kernel, ctx->state.keccak, out,
				  outlen);
	}
}

void fh_final(fh_ctx *ctx, uint8_t *out, size_t outlen)
{
	fh_final_custom(ctx, NULL, 0, out, outlen);
}

void fh_hash(const struct fh_algo *algo, const void *data, size_t len,
	     uint8_t *out, size_t outlen)
{
	fh_ctx ctx;

	fh_init(&ctx, algo);
	fh_update(&ctx, data, len);
	fh_final(&ctx, out, outlen);
}
