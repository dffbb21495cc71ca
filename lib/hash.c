/* hash.c: the streaming hash of fh_ctx over any family: the buffer of
 * partial blocks, then the family's padding and digest, each through the
 * family's ops record (family.h); a family with a mode of its own (the
 * Keccak sponge and KangarooTwelve's tree: keccak.c; BLAKE2b and BLAKE3)
 * brings its own init, update and final; the starts with a length or a
 * key go through the family's `params`. */
#include <assert.h>
#include <string.h>

#include "family.h"

/* The mode area is the reserved size (fhsum.h's soname rule): a mode that
 * outgrows it must not change the ABI unnoticed. */
_Static_assert(sizeof(((fh_ctx *)0)->mode) == FH_CTX_MODE_BYTES,
	       "a family's mode outgrows fh_ctx's reserved area");

void fh_init_kernel(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel)
{
	const struct fh_family_ops *ops = fh_family_ops(algo->family);
	const struct fh_kernel *multi = NULL;

	assert(kernel->family == algo->family);
	assert(kernel->lanes == 1 || (ops->init && algo->cv_bytes));
	if (kernel->lanes > 1) {
		multi = kernel;
		kernel = fh_kernel_best(algo->family);
	}
	ctx->algo = algo;
	ctx->kernel = kernel;
	ctx->total = 0;
	ctx->buffered = 0;
	memset(&ctx->state, 0, sizeof ctx->state);
	ops->start(algo, &ctx->state);
	if (ops->init)
		ops->init(ctx, multi);
}

void fh_init(fh_ctx *ctx, const struct fh_algo *algo)
{
	const struct fh_family_ops *ops = fh_family_ops(algo->family);

	fh_init_kernel(ctx, algo, fh_kernel_best(algo->family));
	if (ops->init)
		ops->init(ctx, fh_kernel_best_multi(algo->family));
}

/* The lane's context: here beside fh_init_kernel, which it starts with,
 * so that the table of families (blocks.c) calls nothing back. */
void fh_lane_ctx(fh_ctx *ctx, const struct fh_algo *algo,
		 const struct fh_kernel *kernel, size_t outlen,
		 const void *state, uint64_t absorbed)
{
	const struct fh_family_ops *ops = fh_family_ops(algo->family);
	const struct fh_hash_params p = { .outlen = outlen };

	fh_init_params(ctx, algo, kernel, &p);
	if (ops->lane_resume) {
		ops->lane_resume(ctx, state, absorbed);
		return;
	}
	memcpy(&ctx->state, state, ops->state_bytes);
	ctx->total = absorbed;
}

bool fh_init_params(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel,
		    const struct fh_hash_params *p)
{
	const struct fh_family_ops *ops = fh_family_ops(algo->family);

	fh_init_kernel(ctx, algo, kernel);
	if (!p)
		return true;
	if (ops->params)
		return ops->params(ctx, p);
	return p->keying == FH_KEY_NONE;
}

/* The public starts with parameters, on the best kernel; CTX is left
 * untouched when ALGO refuses them. */
static bool init_best(fh_ctx *ctx, const struct fh_algo *algo,
		      const struct fh_hash_params *p)
{
	fh_ctx c;

	if (!fh_init_params(&c, algo, fh_kernel_best(algo->family), p))
		return false;
	memcpy(ctx, &c, sizeof c);
	return true;
}

void fh_init_len(fh_ctx *ctx, const struct fh_algo *algo, size_t outlen)
{
	const struct fh_hash_params p = { .outlen = outlen };
	bool ok = init_best(ctx, algo, &p);

	assert(ok);
	(void)ok;
}

bool fh_init_keyed(fh_ctx *ctx, const struct fh_algo *algo, const void *key,
		   size_t keylen, size_t outlen)
{
	const struct fh_hash_params p = { outlen, FH_KEY_KEYED, key, keylen };

	return key && init_best(ctx, algo, &p);
}

bool fh_init_derive_key(fh_ctx *ctx, const struct fh_algo *algo,
			const void *context, size_t contextlen)
{
	const struct fh_hash_params p = { 0, FH_KEY_DERIVE, context, contextlen };

	return (context || !contextlen) && init_best(ctx, algo, &p);
}

void fh_update(fh_ctx *ctx, const void *data, size_t len)
{
	const struct fh_family_ops *ops = fh_family_ops(ctx->algo->family);
	const uint8_t *p = data;
	size_t block = ctx->algo->block_bytes;

	/* Nothing to add: DATA may then be NULL, which no family's pointer
	 * arithmetic should see. */
	if (len == 0)
		return;
	if (ops->update) {
		ops->update(ctx, p, len);
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
		ops->blocks(ctx->kernel, ctx->algo, &ctx->state, ctx->buf, 1);
		ctx->buffered = 0;
	}
	if (len >= block) {
		size_t n = len / block;

		ops->blocks(ctx->kernel, ctx->algo, &ctx->state, p, n);
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
	fh_digest(ctx->algo, ctx->kernel, &ctx->state, out, outlen);
}

void fh_final_custom(fh_ctx *ctx, const void *custom, size_t customlen,
		     uint8_t *out, size_t outlen)
{
	const struct fh_algo *algo = ctx->algo;
	const struct fh_family_ops *ops = fh_family_ops(algo->family);

	assert(algo->xof ? outlen <= FH_MAX_XOF_BYTES
			 : outlen == algo->digest_bytes);
	assert(algo->cv_bytes || customlen == 0);
	if (ops->final) {
		ops->final(ctx, custom, customlen, out, outlen);
		return;
	}
	/* The padding may take two blocks, more than the context's buffer
	 * holds for SHA-512. */
	uint8_t pad[FH_PAD_MAX];

	memcpy(pad, ctx->buf, ctx->buffered);
	ops->blocks(ctx->kernel, algo, &ctx->state, pad,
		    ops->pad(algo, pad, ctx->buffered, ctx->total));
	ops->digest(algo, ctx->kernel, &ctx->state, out, outlen);
}

void fh_final(fh_ctx *ctx, uint8_t *out, size_t outlen)
{
	fh_final_custom(ctx, NULL, 0, out, outlen);
}

void fh_hash(const struct fh_algo *algo, const void *data, size_t len,
	     uint8_t *out, size_t outlen)
{
	fh_ctx ctx;

	fh_init_len(&ctx, algo, outlen);
	fh_update(&ctx, data, len);
	fh_final(&ctx, out, outlen);
}
