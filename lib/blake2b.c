/* blake2b.c: BLAKE2b (RFC 7693): its compression function F in plain C
 * as §3.2 writes it (the portable kernel, which every other BLAKE2b
 * kernel is tested against), and its family's ops record (family.h): the
 * parameter block folded into h (§2.5, §3.3: digest length nn, key
 * length kk), the key as a first block of its own, and the streaming mode,
 * which holds back the last block until more input shows it is not the
 * final one (F's f0 flag).  The state is h and then the counter t of the
 * bytes that whole blocks compressed (FH_BLAKE2B_LANE_WORDS words), so
 * that many messages can run their blocks in the lanes of a multi-buffer
 * kernel; their last bytes then go through update and final, whose count
 * is the context's total (they leave t as it was). */
#include <assert.h>
#include <string.h>

#include "blake2b_sigma.h"
#include "bytes.h"
#include "family.h"

#define BLOCK 128

/* The mixing function G, RFC 7693 §3.1: rotations R1..R4 = 32, 24, 16, 63. */
#define G(a, b, c, d, x, y)                                                  \
	do {                                                                 \
		v[a] = v[a] + v[b] + (x);                                    \
		v[d] = fh_ror64(v[d] ^ v[a], 32);                            \
		v[c] = v[c] + v[d];                                          \
		v[b] = fh_ror64(v[b] ^ v[c], 24);                            \
		v[a] = v[a] + v[b] + (y);                                    \
		v[d] = fh_ror64(v[d] ^ v[a], 16);                            \
		v[c] = v[c] + v[d];                                          \
		v[b] = fh_ror64(v[b] ^ v[c], 63);                            \
	} while (0)

/* F, RFC 7693 §3.2: 12 rounds over the work vector v. */
static void compress(uint64_t h[8], const uint8_t *block, uint64_t t, bool last)
{
	uint64_t m[16], v[16];

	for (int i = 0; i < 16; i++)
		m[i] = fh_load64le(block + 8 * i);
	for (int i = 0; i < 8; i++) {
		v[i] = h[i];
		v[i + 8] = fh_b2_iv[i];
	}
	v[12] ^= t;     /* the counter's low word; its high word is 0 */
	if (last)
		v[14] = ~v[14];
	for (int r = 0; r < 12; r++) {
		const uint8_t *s = fh_b2_sigma[r];

		G(0, 4, 8, 12, m[s[0]], m[s[1]]);
		G(1, 5, 9, 13, m[s[2]], m[s[3]]);
		G(2, 6, 10, 14, m[s[4]], m[s[5]]);
		G(3, 7, 11, 15, m[s[6]], m[s[7]]);
		G(0, 5, 10, 15, m[s[8]], m[s[9]]);
		G(1, 6, 11, 12, m[s[10]], m[s[11]]);
		G(2, 7, 8, 13, m[s[12]], m[s[13]]);
		G(3, 4, 9, 14, m[s[14]], m[s[15]]);
	}
	for (int i = 0; i < 8; i++)
		h[i] ^= v[i] ^ v[i + 8];
}

static void blake2b_blocks_portable(uint64_t h[8], const uint8_t *data,
				    size_t nblocks, uint64_t t, bool last)
{
	for (size_t i = 0; i < nblocks; i++) {
		t += BLOCK;
		compress(h, data + i * BLOCK, t, last && i + 1 == nblocks);
	}
}

const struct fh_kernel fh_blake2b_portable = {
	.name = "blake2b-portable", .family = FH_FAMILY_BLAKE2B, .lanes = 1,
	.blocks = FH_KERNEL_FN(fh_blake2b_blocks_fn, blake2b_blocks_portable),
};

/* h from the IV and the parameter block's first word, RFC 7693 §2.5:
 * 0x0101kknn (fanout 1, depth 1; no salt or personalization); t = 0. */
static void start_with(uint64_t h[FH_BLAKE2B_LANE_WORDS], size_t outlen,
		       size_t keylen)
{
	memcpy(h, fh_b2_iv, sizeof fh_b2_iv);
	h[0] ^= 0x01010000u ^ (uint64_t)keylen << 8 ^ outlen;
	h[8] = 0;
}

/* Whole blocks that more input follows, for the modes that run blocks
 * themselves (the lanes, fh_hash_many): the counter is the state's. */
static void blocks_run(const struct fh_kernel *k, const struct fh_algo *algo,
		       void *state, const uint8_t *data, size_t nblocks)
{
	uint64_t *s = state;

	(void)algo;
	fh_blake2b_blocks_of(k)(s, data, nblocks, s[8], false);
	s[8] += nblocks * BLOCK;
}

static void blocks_run_xn(const struct fh_kernel *k, const struct fh_algo *algo,
			  void *states, const uint8_t *const *data,
			  size_t nblocks)
{
	(void)algo;
	fh_blake2b_blocks_xn_of(k)(states, data, nblocks);
}

static void start(const struct fh_algo *algo, void *state)
{
	start_with(state, algo->digest_bytes, 0);
}

static void init(fh_ctx *ctx, const struct fh_kernel *multi)
{
	(void)multi;
	ctx->mode.blake2b.outlen = (uint8_t)ctx->algo->digest_bytes;
}

static void update(fh_ctx *ctx, const uint8_t *p, size_t len)
{
	fh_blake2b_blocks_fn *blocks = fh_blake2b_blocks_of(ctx->kernel);
	uint64_t *h = ctx->state.keccak;

	if (!len)
		return;
	if (ctx->buffered) {
		size_t take = BLOCK - ctx->buffered;

		if (take > len)
			take = len;
		memcpy(ctx->buf + ctx->buffered, p, take);
		ctx->buffered += take;
		ctx->total += take;
		p += take;
		len -= take;
		/* A full block is compressed only once more input follows:
		 * the last one is compressed as the final one. */
		if (!len)
			return;
		blocks(h, ctx->buf, 1, ctx->total - BLOCK, false);
		ctx->buffered = 0;
	}
	size_t n = (len - 1) / BLOCK;

	if (n) {
		blocks(h, p, n, ctx->total, false);
		p += n * BLOCK;
		len -= n * BLOCK;
		ctx->total += n * BLOCK;
	}
	memcpy(ctx->buf, p, len);
	ctx->buffered = len;
	ctx->total += len;
}

static void final(fh_ctx *ctx, const void *custom, size_t customlen,
		  uint8_t *out, size_t outlen)
{
	uint64_t *h = ctx->state.keccak;

	(void)custom, (void)customlen;
	assert(outlen == ctx->mode.blake2b.outlen);
	/* The last block, zero-padded; the counter is the message's length
	 * (an empty message without a key: one block of zeros, t = 0). */
	memset(ctx->buf + ctx->buffered, 0, BLOCK - ctx->buffered);
	fh_blake2b_blocks_of(ctx->kernel)(h, ctx->buf, 1, ctx->total - BLOCK, true);
	for (size_t i = 0; i < outlen; i += 8) {
		uint8_t word[8];

		fh_store64le(word, h[i / 8]);
		memcpy(out + i, word, outlen - i < 8 ? outlen - i : 8);
	}
}

/* The digest's length nn (1..64) and a key of kk bytes (1..64): a key is
 * the first block, zero-padded (RFC 7693 §3.3). */
static bool params(fh_ctx *ctx, const struct fh_hash_params *p)
{
	size_t outlen = p->outlen ? p->outlen : ctx->algo->digest_bytes;
	size_t keylen = p->keying == FH_KEY_KEYED ? p->keylen : 0;

	if (outlen > 64 || p->keying == FH_KEY_DERIVE ||
	    (p->keying == FH_KEY_KEYED && (keylen == 0 || keylen > 64)))
		return false;
	start_with(ctx->state.keccak, outlen, keylen);
	ctx->mode.blake2b.outlen = (uint8_t)outlen;
	if (keylen) {
		memset(ctx->buf, 0, BLOCK);
		memcpy(ctx->buf, p->key, keylen);
		ctx->buffered = ctx->total = BLOCK;
	}
	return true;
}

/* Messages that end in the lanes: their last blocks in one call of the
 * kernel's `tree`. */
static void lanes_final(const struct fh_kernel *multi, void *states,
			const uint8_t *const *blocks, const size_t *lens,
			size_t n, uint8_t *const *out, size_t outlen)
{
	uint64_t (*st)[FH_BLAKE2B_LANE_WORDS] = states, len[FH_MAX_LANES];

	for (size_t i = 0; i < multi->lanes; i++)
		len[i] = lens[i];
	fh_blake2b_last_xn_of(multi)(st, blocks, len);
	for (size_t i = 0; i < n; i++) {
		uint8_t d[64];

		for (int w = 0; w < 8; w++)
			fh_store64le(d + 8 * w, st[i][w]);
		memcpy(out[i], d, outlen);
	}
}

const struct fh_family_ops fh_blake2b_ops = {
	.name = "blake2b",
	.state_bytes = FH_BLAKE2B_LANE_WORDS * sizeof(uint64_t),
	.start = start, .blocks = blocks_run, .blocks_xn = blocks_run_xn,
	.init = init, .update = update, .final = final, .params = params,
	.holds_last = true, .lanes_final = lanes_final, .lanes_final_most = 64,
};
