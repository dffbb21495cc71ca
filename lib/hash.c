/* hash.c: the hashing modes over the block kernels: buffering of partial
 * blocks, MD5's padding and length (RFC 1321 §3.1-3.2, §3.5) and the
 * Keccak sponge with SHA3/SHAKE padding and squeezing (FIPS 202 §4, §6). */
#include <assert.h>
#include <string.h>

#include "bytes.h"
#include "kernel.h"

void fh_init_kernel(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel)
{
	assert(kernel->family == algo->family);
	ctx->algo = algo;
	ctx->kernel = kernel;
	ctx->total = 0;
	ctx->buffered = 0;
	memset(&ctx->state, 0, sizeof ctx->state);
	if (algo->family == FH_FAMILY_MD5) {
		/* Initial words A, B, C, D of RFC 1321 §3.3. */
		ctx->state.md5[0] = 0x67452301;
		ctx->state.md5[1] = 0xefcdab89;
		ctx->state.md5[2] = 0x98badcfe;
		ctx->state.md5[3] = 0x10325476;
	}
}

void fh_init(fh_ctx *ctx, const struct fh_algo *algo)
{
	fh_init_kernel(ctx, algo, fh_kernel_best(algo->family));
}

/* Feeds NBLOCKS whole blocks to the kernel. */
static void absorb_blocks(fh_ctx *ctx, const uint8_t *p, size_t nblocks)
{
	if (ctx->algo->family == FH_FAMILY_MD5)
		ctx->kernel->md5_blocks(ctx->state.md5, p, nblocks);
	else
		ctx->kernel->keccak_absorb(ctx->state.keccak, p, nblocks,
					   ctx->algo->block_bytes,
					   ctx->algo->rounds);
}

void fh_update(fh_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t block = ctx->algo->block_bytes;

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
		absorb_blocks(ctx, ctx->buf, 1);
		ctx->buffered = 0;
	}
	if (len >= block) {
		size_t n = len / block;

		absorb_blocks(ctx, p, n);
		p += n * block;
		len -= n * block;
	}
	if (len) {
		memcpy(ctx->buf, p, len);
		ctx->buffered = len;
	}
}

static void md5_final(fh_ctx *ctx, uint8_t *out)
{
	/* One 0x80 byte, zeros to 56 mod 64, then the bit length (§3.1-3.2). */
	size_t n = ctx->buffered;
	uint64_t bits = ctx->total << 3;

	ctx->buf[n++] = 0x80;
	if (n > 56) {
		memset(ctx->buf + n, 0, 64 - n);
		ctx->kernel->md5_blocks(ctx->state.md5, ctx->buf, 1);
		n = 0;
	}
	memset(ctx->buf + n, 0, 56 - n);
	fh_store64le(ctx->buf + 56, bits);
	ctx->kernel->md5_blocks(ctx->state.md5, ctx->buf, 1);
	for (unsigned i = 0; i < 4; i++)
		fh_store32le(out + 4 * i, ctx->state.md5[i]);
}

static void keccak_final(fh_ctx *ctx, uint8_t *out, size_t outlen)
{
	size_t rate = ctx->algo->block_bytes;
	uint64_t *a = ctx->state.keccak;
	uint8_t lanes[FH_MAX_BLOCK];

	/* Domain bits and pad10*1: the padding byte after the message, and
	 * the final 1 bit in the rate's last byte (FIPS 202 §5.1, B.2). */
	memset(ctx->buf + ctx->buffered, 0, rate - ctx->buffered);
	ctx->buf[ctx->buffered] = ctx->algo->pad;
	ctx->buf[rate - 1] |= 0x80;
	ctx->kernel->keccak_absorb(a, ctx->buf, 1, rate, ctx->algo->rounds);

	/* Squeeze: the first RATE bytes of the state, permute, repeat. */
	for (;;) {
		size_t take = outlen < rate ? outlen : rate;

		for (size_t i = 0; i < rate / 8; i++)
			fh_store64le(lanes + 8 * i, a[i]);
		memcpy(out, lanes, take);
		out += take;
		outlen -= take;
		if (!outlen)
			break;
		ctx->kernel->keccak_permute(a, ctx->algo->rounds);
	}
}

void fh_final(fh_ctx *ctx, uint8_t *out, size_t outlen)
{
	const struct fh_algo *algo = ctx->algo;

	assert(algo->xof ? outlen <= FH_MAX_XOF_BYTES
			 : outlen == algo->digest_bytes);
	if (algo->family == FH_FAMILY_MD5)
		md5_final(ctx, out);
	else
		keccak_final(ctx, out, outlen);
}

void fh_hash(const struct fh_algo *algo, const void *data, size_t len,
	     uint8_t *out, size_t outlen)
{
	fh_ctx ctx;

	fh_init(&ctx, algo);
	fh_update(&ctx, data, len);
	fh_final(&ctx, out, outlen);
}
