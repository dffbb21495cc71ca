/* kt.c: KangarooTwelve, KT128 and KT256 (RFC 9861 §3), over the Keccak
 * kernels with 12 rounds.
 *
 * S = M || C || length_encode(|C|) is cut into 8192-byte chunks.  When S
 * fits in one chunk the hash is TurboSHAKE(S, 0x07); otherwise the final
 * node absorbs S_0, then 03 00 00 00 00 00 00 00, then the chaining value
 * CV_i = TurboSHAKE(S_i, 0x0B, 32 or 64 bytes) of every later chunk (a
 * leaf), then length_encode(n - 1) || FF FF, and the hash is
 * TurboSHAKE(final node, 0x06).  KT128 is TurboSHAKE128 throughout, KT256
 * TurboSHAKE256 (§3.4).
 *
 * The context streams: the final node's sponge absorbs as bytes arrive,
 * and a leaf is hashed as soon as its 8192 bytes are in, so memory is one
 * final node and one leaf whatever the input.  Only the choice between
 * one node and a tree waits: S_0 full is not yet a tree until a byte
 * follows it.  Whole leaves given at once go through the multi-buffer
 * kernels: 8192 bytes are 48 blocks of 168 bytes and 128 more (KT256: 60
 * of 136 and 32), so each batch of leaves is one absorb_xn call of the
 * whole blocks and one more of each leaf's padded last block. */
#include <assert.h>
#include <string.h>

#include "bytes.h"
#include "kt.h"
#include "sponge.h"

/* Domain bytes of the three kinds of node (RFC 9861 §3.2). */
#define KT_SINGLE 0x07
#define KT_LEAF 0x0B
#define KT_FINAL 0x06

/* length_encode(X) (RFC 9861 §3.3) into OUT (9 bytes at most): X's
 * big-endian bytes without leading zeros, then their count.  Returns the
 * length. */
static size_t length_encode(uint8_t out[9], uint64_t x)
{
	size_t n = 0;

	while (n < 8 && x >> (8 * n))
		n++;
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(x >> (8 * (n - 1 - i)));
	out[n] = (uint8_t)n;
	return n + 1;
}

static struct fh_sponge final_node(fh_ctx *ctx)
{
	return (struct fh_sponge){ ctx->state.keccak, ctx->buf,
				   &ctx->buffered };
}

static struct fh_sponge leaf_node(fh_ctx *ctx)
{
	return (struct fh_sponge){ ctx->mode.kt.leaf, ctx->mode.kt.leaf_buf,
				   &ctx->mode.kt.leaf_buffered };
}

void fh_kt_init(fh_ctx *ctx, const struct fh_kernel *multi)
{
	memset(&ctx->mode.kt, 0, sizeof ctx->mode.kt);
	ctx->mode.kt.multi = multi;
}

/* Writes the chaining value of a leaf whose sponge is STATE (padded). */
static void store_cv(const struct fh_algo *a, const uint64_t state[25],
		     uint8_t *cv)
{
	for (unsigned i = 0; i < a->cv_bytes / 8; i++)
		fh_store64le(cv + 8 * i, state[i]);
}

/* Hashes LANES leaves at once on multi-buffer kernel K: leaf i at P[i],
 * its chaining value to CVS + i * cv_bytes for i < USED (the other lanes
 * repeat a leaf and are dropped).  With NODE, lane 0 is S_0 instead: its
 * whole blocks are absorbed into a fresh state, written to NODE, and the
 * chaining values are those of lanes 1..USED-1. */
static void leaves_xn(const struct fh_algo *a, const struct fh_kernel *k,
		      const uint8_t *const *p, unsigned used, uint8_t *cvs,
		      uint64_t node[25])
{
	static const size_t chunk = FH_KT_CHUNK;
	const size_t rate = a->block_bytes, whole = chunk / rate * rate;
	uint64_t states[FH_MAX_LANES][25];
	uint8_t last[FH_MAX_LANES][FH_MAX_BLOCK];
	const uint8_t *lp[FH_MAX_LANES];

	memset(states, 0, k->lanes * sizeof states[0]);
	fh_keccak_absorb_xn_of(k)(states, p, chunk / rate, rate, a->rounds);
	if (node)
		memcpy(node, states[0], sizeof states[0]);
	/* Each leaf's last block: its tail, padded with the leaf's domain. */
	for (unsigned i = 0; i < k->lanes; i++) {
		memcpy(last[i], p[i] + whole, chunk - whole);
		fh_keccak_pad(last[i], chunk - whole, rate, KT_LEAF);
		lp[i] = last[i];
	}
	fh_keccak_absorb_xn_of(k)(states, lp, 1, rate, a->rounds);
	for (unsigned i = node ? 1 : 0; i < used; i++, cvs += a->cv_bytes)
		store_cv(a, states[i], cvs);
}

/* One whole leaf at P on single-stream kernel K. */
static void leaf_one(const struct fh_algo *a, const struct fh_kernel *k,
		     const uint8_t *p, uint8_t *cv)
{
	uint64_t state[25] = { 0 };
	uint8_t buf[FH_MAX_BLOCK];
	size_t buffered = 0;
	struct fh_sponge s = { state, buf, &buffered };

	fh_sponge_absorb(a, k, &s, p, FH_KT_CHUNK);
	fh_sponge_pad(a, k, &s, KT_LEAF);
	store_cv(a, state, cv);
}

void fh_kt_leaves(const struct fh_algo *a, const struct fh_kernel *single,
		  const struct fh_kernel *multi, const uint8_t *p, size_t n,
		  uint8_t *cvs)
{
	uint32_t cpu = multi ? fh_cpu_features() : 0;

	while (n) {
		const struct fh_kernel *k = NULL;
		const uint8_t *ptr[FH_MAX_LANES];
		unsigned used;

		if (multi && n > 1)
			k = fh_kernel_narrowest(multi, n < multi->lanes
						       ? (unsigned)n
						       : multi->lanes, cpu);
		if (!k) {
			leaf_one(a, single, p, cvs);
			used = 1;
		} else {
			used = n < k->lanes ? (unsigned)n : k->lanes;
			for (unsigned i = 0; i < k->lanes; i++)
				ptr[i] = p + (size_t)(i < used ? i : 0) *
						     FH_KT_CHUNK;
			leaves_xn(a, k, ptr, used, cvs, NULL);
		}
		p += (size_t)used * FH_KT_CHUNK;
		cvs += (size_t)used * a->cv_bytes;
		n -= used;
	}
}

/* S_0 is complete and a byte follows it: the tree begins.  The final node
 * marks the end of S_0 with 03 and seven zeros (RFC 9861 §3.2). */
static void start_tree(fh_ctx *ctx)
{
	static const uint8_t hop[8] = { 0x03 };
	struct fh_sponge s = final_node(ctx);

	fh_sponge_absorb(ctx->algo, ctx->kernel, &s, hop, sizeof hop);
	ctx->mode.kt.tree = true;
}

void fh_kt_add_leaves(fh_ctx *ctx, const uint8_t *cvs, size_t n)
{
	struct fh_sponge s = final_node(ctx);

	assert(fh_kt_lead(ctx) == 0);
	if (!n)
		return;
	if (!ctx->mode.kt.tree)
		start_tree(ctx);
	fh_sponge_absorb(ctx->algo, ctx->kernel, &s, cvs,
			 n * ctx->algo->cv_bytes);
	ctx->mode.kt.leaves += n;
	ctx->total += (uint64_t)n * FH_KT_CHUNK;
}

/* The current leaf is complete: its chaining value goes to the final
 * node, and the next leaf starts empty. */
static void finish_leaf(fh_ctx *ctx)
{
	const struct fh_algo *a = ctx->algo;
	struct fh_sponge leaf = leaf_node(ctx), node = final_node(ctx);
	uint8_t cv[FH_MAX_DIGEST];

	fh_sponge_pad(a, ctx->kernel, &leaf, KT_LEAF);
	store_cv(a, ctx->mode.kt.leaf, cv);
	fh_sponge_absorb(a, ctx->kernel, &node, cv, a->cv_bytes);
	ctx->mode.kt.leaves++;
	ctx->mode.kt.leaf_len = 0;
	memset(ctx->mode.kt.leaf, 0, sizeof ctx->mode.kt.leaf);
}

size_t fh_kt_lead_after(const fh_ctx *ctx, uint64_t more)
{
	uint64_t at = ctx->total + more;

	/* S_0 goes to the final node whole; later leaves start every
	 * FH_KT_CHUNK bytes of S. */
	if (at < FH_KT_CHUNK)
		return (size_t)(FH_KT_CHUNK - at);
	return (size_t)((FH_KT_CHUNK - at % FH_KT_CHUNK) % FH_KT_CHUNK);
}

size_t fh_kt_lead(const fh_ctx *ctx)
{
	return fh_kt_lead_after(ctx, 0);
}

/* The tree's first chunks, S_0 at P and N >= 1 whole leaves after it,
 * given to a fresh context: S_0's whole blocks run in one lane of the
 * multi-buffer kernel beside the first leaves, rather than alone on the
 * single-stream kernel before them (a 64 KiB input is then one round of
 * eight lanes).  Returns the chunks taken, S_0 included; 0 when no
 * multi-buffer kernel runs them (the caller goes the usual way). */
static size_t first_chunks(fh_ctx *ctx, const uint8_t *p, size_t n)
{
	const struct fh_algo *a = ctx->algo;
	const struct fh_kernel *multi = ctx->mode.kt.multi, *k;
	const uint8_t *ptr[FH_MAX_LANES];
	uint8_t cvs[FH_MAX_LANES * FH_MAX_DIGEST];
	struct fh_sponge s = final_node(ctx);
	size_t whole = FH_KT_CHUNK / a->block_bytes * a->block_bytes;
	unsigned used;

	k = fh_kernel_narrowest(multi, n + 1 < multi->lanes ? (unsigned)n + 1
							     : multi->lanes,
				fh_cpu_features());
	if (!k)
		return 0;
	used = n + 1 < k->lanes ? (unsigned)n + 1 : k->lanes;
	for (unsigned i = 0; i < k->lanes; i++)
		ptr[i] = p + (size_t)(i < used ? i : 1) * FH_KT_CHUNK;
	leaves_xn(a, k, ptr, used, cvs, ctx->state.keccak);
	/* The sponge now stands as if S_0's whole blocks had gone through
	 * it; its last bytes go the usual way. */
	fh_sponge_absorb(a, ctx->kernel, &s, p + whole, FH_KT_CHUNK - whole);
	ctx->total = FH_KT_CHUNK;
	start_tree(ctx);
	fh_kt_add_leaves(ctx, cvs, used - 1);
	return used;
}

/* LEN more bytes of S. */
static void absorb_s(fh_ctx *ctx, const uint8_t *p, size_t len)
{
	const struct fh_algo *a = ctx->algo;
	uint8_t cvs[FH_KT_BATCH * FH_MAX_DIGEST];

	while (len) {
		size_t take;

		if (!ctx->total && ctx->mode.kt.multi && len >= 2 * FH_KT_CHUNK &&
		    (take = first_chunks(ctx, p, len / FH_KT_CHUNK - 1))) {
			p += take * FH_KT_CHUNK;
			len -= take * FH_KT_CHUNK;
			continue;
		}
		if (!ctx->mode.kt.tree && ctx->total < FH_KT_CHUNK) {
			struct fh_sponge s = final_node(ctx);

			take = FH_KT_CHUNK - (size_t)ctx->total;
			take = take < len ? take : len;
			fh_sponge_absorb(a, ctx->kernel, &s, p, take);
		} else if (ctx->mode.kt.leaf_len == 0 && len >= FH_KT_CHUNK) {
			size_t n = len / FH_KT_CHUNK;

			n = n < FH_KT_BATCH ? n : FH_KT_BATCH;
			fh_kt_leaves(a, ctx->kernel, ctx->mode.kt.multi, p, n, cvs);
			fh_kt_add_leaves(ctx, cvs, n);
			p += n * FH_KT_CHUNK;
			len -= n * FH_KT_CHUNK;
			continue;
		} else {
			struct fh_sponge s = leaf_node(ctx);

			if (!ctx->mode.kt.tree)
				start_tree(ctx);
			take = FH_KT_CHUNK - ctx->mode.kt.leaf_len;
			take = take < len ? take : len;
			fh_sponge_absorb(a, ctx->kernel, &s, p, take);
			ctx->mode.kt.leaf_len += take;
			if (ctx->mode.kt.leaf_len == FH_KT_CHUNK)
				finish_leaf(ctx);
		}
		ctx->total += take;
		p += take;
		len -= take;
	}
}

void fh_kt_update(fh_ctx *ctx, const uint8_t *p, size_t len)
{
	absorb_s(ctx, p, len);
}

void fh_kt_final(fh_ctx *ctx, const uint8_t *custom, size_t customlen,
		 uint8_t *out, size_t outlen)
{
	const struct fh_algo *a = ctx->algo;
	struct fh_sponge node = final_node(ctx);
	uint8_t enc[9 + 2];
	size_t n;

	absorb_s(ctx, custom, customlen);
	absorb_s(ctx, enc, length_encode(enc, customlen));
	if (!ctx->mode.kt.tree) {
		fh_sponge_pad(a, ctx->kernel, &node, KT_SINGLE);
	} else {
		if (ctx->mode.kt.leaf_len)
			finish_leaf(ctx);
		n = length_encode(enc, ctx->mode.kt.leaves);
		enc[n++] = 0xff;
		enc[n++] = 0xff;
		fh_sponge_absorb(a, ctx->kernel, &node, enc, n);
		fh_sponge_pad(a, ctx->kernel, &node, KT_FINAL);
	}
	fh_sponge_squeeze(a, ctx->kernel, ctx->state.keccak, out, outlen);
}
