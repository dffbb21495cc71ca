/* blake3.c: BLAKE3 (the BLAKE3 paper, O'Connor, Aumasson, Neves,
 * Wilcox-O'Hearn, 2020): its compression function and whole chunks in
 * plain C as §2.2 and §2.3 write them (the portable kernel, which every
 * other BLAKE3 kernel is tested against), and its family's ops record
 * (family.h): the tree mode of §2.4, streamed in bounded memory.  The
 * input is split in 1024-byte chunks; each chunk's chaining value goes
 * on a stack in fh_ctx's mode area, and two subtrees of equal size are
 * merged into their parent once a later chunk shows neither is the root
 * (lazily, as the reference code's merge_cv_stack does), so the stack
 * holds one value per set bit of the count of chunks done, and one more
 * while the last two may still be the root's children.  The root's
 * output is extendable (§2.6): any length. */
#include <string.h>

#include "blake3.h"
#include "bytes.h"
#include "family.h"

/* The IV, §2.2: SHA-256's initial hash value (FIPS 180-4 §5.3.3). */
static const uint32_t iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* The flags, Table 3 of §2.2. */
enum {
	CHUNK_START = 1 << 0,
	CHUNK_END = 1 << 1,
	PARENT = 1 << 2,
	ROOT = 1 << 3,
	KEYED_HASH = 1 << 4,
	DERIVE_KEY_CONTEXT = 1 << 5,
	DERIVE_KEY_MATERIAL = 1 << 6,
};

#define BLOCK 64
#define CHUNK 1024

/* The message word permutation applied after each round, §2.2 (Table 2). */
static const uint8_t perm[16] = {
	2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8,
};

/* G, §2.2: rotations 16, 12, 8, 7. */
#define G(a, b, c, d, x, y)                                                  \
	do {                                                                 \
		v[a] = v[a] + v[b] + (x);                                    \
		v[d] = fh_ror32(v[d] ^ v[a], 16);                            \
		v[c] = v[c] + v[d];                                          \
		v[b] = fh_ror32(v[b] ^ v[c], 12);                            \
		v[a] = v[a] + v[b] + (y);                                    \
		v[d] = fh_ror32(v[d] ^ v[a], 8);                             \
		v[c] = v[c] + v[d];                                          \
		v[b] = fh_ror32(v[b] ^ v[c], 7);                             \
	} while (0)

static void blake3_compress_portable(const uint32_t cv[8], const uint8_t *block,
				     uint32_t block_len, uint64_t counter,
				     uint32_t flags, uint32_t out[16])
{
	uint32_t m[16], v[16];

	for (int i = 0; i < 16; i++)
		m[i] = fh_load32le(block + 4 * i);
	for (int i = 0; i < 8; i++)
		v[i] = cv[i];
	v[8] = iv[0], v[9] = iv[1], v[10] = iv[2], v[11] = iv[3];
	v[12] = (uint32_t)counter;
	v[13] = (uint32_t)(counter >> 32);
	v[14] = block_len;
	v[15] = flags;
	for (int r = 0; r < 7; r++) {
		uint32_t t[16];

		G(0, 4, 8, 12, m[0], m[1]);
		G(1, 5, 9, 13, m[2], m[3]);
		G(2, 6, 10, 14, m[4], m[5]);
		G(3, 7, 11, 15, m[6], m[7]);
		G(0, 5, 10, 15, m[8], m[9]);
		G(1, 6, 11, 12, m[10], m[11]);
		G(2, 7, 8, 13, m[12], m[13]);
		G(3, 4, 9, 14, m[14], m[15]);
		for (int i = 0; i < 16; i++)
			t[i] = m[perm[i]];
		memcpy(m, t, sizeof m);
	}
	for (int i = 0; i < 8; i++) {
		out[i] = v[i] ^ v[i + 8];
		out[i + 8] = v[i + 8] ^ cv[i];
	}
}

/* One whole chunk's chaining value, §2.3: 16 blocks, the first with
 * CHUNK_START, the last with CHUNK_END, all with the chunk's counter. */
static void blake3_chunks_portable(const uint32_t key[8], const uint8_t *data,
				   size_t n, uint64_t counter, uint32_t flags,
				   uint32_t (*cvs)[8])
{
	for (size_t c = 0; c < n; c++) {
		uint32_t cv[8], out[16];

		memcpy(cv, key, sizeof cv);
		for (int b = 0; b < CHUNK / BLOCK; b++) {
			uint32_t f = flags | (b == 0 ? CHUNK_START : 0) |
				     (b == CHUNK / BLOCK - 1 ? CHUNK_END : 0);

			blake3_compress_portable(cv, data + c * CHUNK + b * BLOCK,
						 BLOCK, counter + c, f, out);
			memcpy(cv, out, sizeof cv);
		}
		memcpy(cvs[c], cv, sizeof cv);
	}
}

/* Parent nodes, §2.4: each block is its two children's chaining values,
 * compressed under the key with PARENT. */
static void blake3_parents_portable(const uint32_t key[8],
				    const uint32_t (*children)[8], size_t n,
				    uint32_t flags, uint32_t (*cvs)[8])
{
	for (size_t i = 0; i < n; i++) {
		uint8_t block[BLOCK];
		uint32_t out[16];

		for (int w = 0; w < 8; w++) {
			fh_store32le(block + 4 * w, children[2 * i][w]);
			fh_store32le(block + 32 + 4 * w, children[2 * i + 1][w]);
		}
		blake3_compress_portable(key, block, BLOCK, 0, flags | PARENT, out);
		memcpy(cvs[i], out, sizeof cvs[i]);
	}
}

const struct fh_kernel fh_blake3_portable = {
	.name = "blake3-portable", .family = FH_FAMILY_BLAKE3, .lanes = 1,
	.blocks = FH_KERNEL_FN(fh_blake3_chunks_fn, blake3_chunks_portable),
	.permute = FH_KERNEL_FN(fh_blake3_compress_fn, blake3_compress_portable),
	.tree = FH_KERNEL_FN(fh_blake3_parents_fn, blake3_parents_portable),
};

static void start(const struct fh_algo *algo, void *state)
{
	(void)algo;
	memcpy(state, iv, sizeof iv);
}

static void init(fh_ctx *ctx, const struct fh_kernel *multi)
{
	(void)multi;
	memcpy(ctx->mode.blake3.key, iv, sizeof iv);
	ctx->mode.blake3.flags = 0;
	ctx->mode.blake3.blocks = 0;
	ctx->mode.blake3.depth = 0;
}

/* The bytes of the current chunk taken so far, and its counter. */
static size_t chunk_len(const fh_ctx *ctx)
{
	return (size_t)ctx->mode.blake3.blocks * BLOCK + ctx->buffered;
}

static uint64_t chunk_counter(const fh_ctx *ctx)
{
	return (ctx->total - chunk_len(ctx)) / CHUNK;
}

/* The chaining value of the parent of L and R, §2.4. */
static void parent_cv(const fh_ctx *ctx, const uint32_t l[8],
		      const uint32_t r[8], uint32_t cv[8])
{
	uint8_t block[BLOCK];
	uint32_t out[16];

	for (int i = 0; i < 8; i++) {
		fh_store32le(block + 4 * i, l[i]);
		fh_store32le(block + 32 + 4 * i, r[i]);
	}
	fh_blake3_compress_of(ctx->kernel)(ctx->mode.blake3.key, block, BLOCK, 0,
					   ctx->mode.blake3.flags | PARENT, out);
	memcpy(cv, out, 8 * sizeof *cv);
}

/* Merges the top of the stack into parents until it holds one value per
 * set bit of CHUNKS, the chunks its values cover: a later chunk has shown
 * that none of them is the root. */
static void merge_cvs(fh_ctx *ctx, uint64_t chunks)
{
	uint32_t (*stack)[8] = ctx->mode.blake3.stack;
	uint32_t bits = 0;

	for (; chunks; chunks &= chunks - 1)
		bits++;
	for (; ctx->mode.blake3.depth > bits; ctx->mode.blake3.depth--) {
		uint32_t d = ctx->mode.blake3.depth;

		parent_cv(ctx, stack[d - 2], stack[d - 1], stack[d - 2]);
	}
}

/* Pushes CV, the chaining value of a subtree whose first chunk is chunk
 * FIRST (the chunks before it all on the stack), merging first what it
 * shows is not the root; CV itself waits for the next push or final(). */
static void push_cv(fh_ctx *ctx, const uint32_t cv[8], uint64_t first)
{
	merge_cvs(ctx, first);
	memcpy(ctx->mode.blake3.stack[ctx->mode.blake3.depth++], cv, 32);
}

/* The flags of the current chunk's next block. */
static uint32_t block_flags(const fh_ctx *ctx)
{
	return ctx->mode.blake3.flags |
	       (ctx->mode.blake3.blocks == 0 ? CHUNK_START : 0);
}

/* The subtrees hashed whole: 2^SUBTREE_LEVEL chunks at most at once
 * (the chaining values of one such subtree, 32 KiB, on the stack); a
 * larger subtree is two of them and their parent.  Each subtree ends in
 * calls of 4, 2 and 1 parents that leave lanes empty: at 64 chunks they
 * cost a 1 GiB file about 4% of its time on one thread (AVX2, Zen 3),
 * at 256 about 1%; 1024, a whole piece of a mapped window, took 1.1%
 * less CPU time than 256 (AVX-512, Intel family 6 model 207). */
#define SUBTREE_LEVEL 10
#define SUBTREE_MAX_LEVEL 12
/* The most chunks a kernel hashes in one call (AVX-512's lanes). */
#define FEW_CHUNKS 16u

static void subtree(const struct fh_kernel *k, const uint32_t key[8],
		    uint32_t flags, const uint8_t *p, uint64_t counter,
		    unsigned level, uint32_t cv[8]);
static void subtree_rows(const struct fh_kernel *k, const uint32_t key[8],
			 uint32_t flags, const uint8_t *p, uint64_t counter,
			 unsigned level, uint32_t two[2][8]);

/* The chaining values of the two halves of the subtree of the 2^LEVEL
 * whole chunks at P (LEVEL at least 1), whose first chunk's counter
 * COUNTER is a multiple of 2^LEVEL, into TWO: the chunks in the kernel's
 * lanes, then each row of parents but the last in them too (BLAKE3's
 * compress_subtree_to_parent_node, §5.1.2 of the paper). */
static void subtree_halves(const struct fh_kernel *k, const uint32_t key[8],
			   uint32_t flags, const uint8_t *p, uint64_t counter,
			   unsigned level, uint32_t two[2][8])
{
	if (level > SUBTREE_LEVEL) {
		size_t half = (size_t)CHUNK << (level - 1);

		subtree(k, key, flags, p, counter, level - 1, two[0]);
		subtree(k, key, flags, p + half, counter + (half / CHUNK),
			level - 1, two[1]);
		return;
	}
	subtree_rows(k, key, flags, p, counter, level, two);
}

/* subtree_halves of at most 2^SUBTREE_LEVEL chunks: apart, so that only
 * the innermost frame holds their chaining values. */
static __attribute__((noinline)) void
subtree_rows(const struct fh_kernel *k, const uint32_t key[8], uint32_t flags,
	     const uint8_t *p, uint64_t counter, unsigned level,
	     uint32_t two[2][8])
{
	uint32_t cvs[1u << SUBTREE_LEVEL][8];
	size_t n = (size_t)1 << level;

	fh_blake3_chunks_of(k)(key, p, n, counter, flags, cvs);
	for (; n > 2; n /= 2)
		fh_blake3_parents_of(k)(key, (const uint32_t(*)[8])cvs, n / 2,
					flags, cvs);
	memcpy(two, cvs, 2 * sizeof cvs[0]);
}

/* The chaining value of the subtree of the 2^LEVEL whole chunks at P, as
 * subtree_halves has them, and their parent. */
static void subtree(const struct fh_kernel *k, const uint32_t key[8],
		    uint32_t flags, const uint8_t *p, uint64_t counter,
		    unsigned level, uint32_t cv[8])
{
	uint32_t two[2][8];

	if (level == 0) {
		fh_blake3_chunks_of(k)(key, p, 1, counter, flags, two);
	} else {
		subtree_halves(k, key, flags, p, counter, level, two);
		fh_blake3_parents_of(k)(key, (const uint32_t(*)[8])two, 1,
					flags, two);
	}
	memcpy(cv, two[0], sizeof two[0]);
}

static void update(fh_ctx *ctx, const uint8_t *p, size_t len)
{
	fh_blake3_compress_fn *compress = fh_blake3_compress_of(ctx->kernel);
	uint32_t *cv = ctx->state.sha256;
	uint32_t out[16];

	while (len) {
		size_t have = chunk_len(ctx);

		if (have == CHUNK) {
			/* More input: the chunk is done and not the root. */
			uint64_t counter = chunk_counter(ctx);

			compress(cv, ctx->buf, BLOCK, counter,
				 block_flags(ctx) | CHUNK_END, out);
			push_cv(ctx, out, counter);
			memcpy(cv, ctx->mode.blake3.key, 32);
			ctx->mode.blake3.blocks = 0;
			ctx->buffered = 0;
			continue;
		}
		if (have == 0 && len > CHUNK) {
			/* Whole chunks, more than one byte's worth of them
			 * left: the largest subtree that starts here and fits.
			 * Its two halves go on the stack apart, so that when
			 * the input ends with it, final() makes their parent
			 * the root: a read of 64 whole chunks runs all 64 in
			 * the kernel's lanes, none held back to be compressed
			 * a block at a time. */
			uint64_t n = len / CHUNK;
			uint64_t counter = chunk_counter(ctx);
			unsigned level = 0;

			while (level < SUBTREE_MAX_LEVEL &&
			       (n >> (level + 1)) != 0 &&
			       (counter & ((2ull << level) - 1)) == 0)
				level++;
			/* A subtree under a call of the widest kernel (a small
			 * input, or chunks up to an aligned run): its chunks
			 * up to the next multiple of FEW_CHUNKS, at least a
			 * byte still after them, in one call, each pushed.
			 * Subtrees of 8, 4, 2 and 1 chunks took four calls of
			 * ever narrower kernels; on /usr/include's files, most
			 * of 1 to 64 KiB, those were a third of the CPU time. */
			uint64_t few = (1ull << level) < FEW_CHUNKS
					       ? FEW_CHUNKS - counter % FEW_CHUNKS : 0;

			if (few > (len - 1) / CHUNK)
				few = (len - 1) / CHUNK;
			if (few >= 2) {
				uint32_t cvs[FEW_CHUNKS][8];

				fh_blake3_chunks_of(ctx->kernel)(
					ctx->mode.blake3.key, p, few, counter,
					ctx->mode.blake3.flags, cvs);
				for (uint64_t i = 0; i < few; i++)
					push_cv(ctx, cvs[i], counter + i);
				p += few * CHUNK;
				len -= few * CHUNK;
				ctx->total += few * CHUNK;
				continue;
			}
			if (level == 0) {
				uint32_t one[1][8];

				/* One chunk: len > CHUNK, so more follows. */
				fh_blake3_chunks_of(ctx->kernel)(
					ctx->mode.blake3.key, p, 1, counter,
					ctx->mode.blake3.flags, one);
				push_cv(ctx, one[0], counter);
			} else {
				uint32_t two[2][8];

				subtree_halves(ctx->kernel, ctx->mode.blake3.key,
					       ctx->mode.blake3.flags, p, counter,
					       level, two);
				push_cv(ctx, two[0], counter);
				push_cv(ctx, two[1], counter + (1ull << (level - 1)));
			}
			p += (size_t)CHUNK << level;
			len -= (size_t)CHUNK << level;
			ctx->total += (uint64_t)CHUNK << level;
			continue;
		}
		if (have == 0 && ctx->mode.blake3.depth)
			/* A chunk starts: what is on the stack is not the
			 * root, nor its children. */
			merge_cvs(ctx, chunk_counter(ctx));
		if (ctx->buffered == BLOCK) {
			/* More input, within the chunk: not its last block. */
			compress(cv, ctx->buf, BLOCK, chunk_counter(ctx),
				 block_flags(ctx), out);
			memcpy(cv, out, 32);
			ctx->mode.blake3.blocks++;
			ctx->buffered = 0;
		}
		size_t take = BLOCK - ctx->buffered;

		if (take > len)
			take = len;
		memcpy(ctx->buf + ctx->buffered, p, take);
		ctx->buffered += take;
		ctx->total += take;
		p += take;
		len -= take;
	}
}

/* The root's output, §2.6: the root node compressed with ROOT and the
 * output block counter 0, 1, ..., 64 bytes each. */
static void final(fh_ctx *ctx, const void *custom, size_t customlen,
		  uint8_t *out, size_t outlen)
{
	fh_blake3_compress_fn *compress = fh_blake3_compress_of(ctx->kernel);
	uint32_t in_cv[8], words[16];
	uint8_t block[BLOCK];
	uint32_t block_len = (uint32_t)ctx->buffered;
	uint64_t counter = chunk_counter(ctx);
	uint32_t flags = block_flags(ctx) | CHUNK_END;
	uint32_t i = ctx->mode.blake3.depth;

	(void)custom, (void)customlen;
	memcpy(in_cv, ctx->state.sha256, sizeof in_cv);
	memcpy(block, ctx->buf, ctx->buffered);
	memset(block + ctx->buffered, 0, BLOCK - ctx->buffered);
	if (chunk_len(ctx) == 0 && i >= 2) {
		/* The input ended with a whole subtree: the last two values
		 * on the stack are its halves, and their parent the node
		 * that ends the input. */
		i -= 2;
		for (int w = 0; w < 8; w++) {
			fh_store32le(block + 4 * w, ctx->mode.blake3.stack[i][w]);
			fh_store32le(block + 32 + 4 * w,
				     ctx->mode.blake3.stack[i + 1][w]);
		}
		memcpy(in_cv, ctx->mode.blake3.key, sizeof in_cv);
		block_len = BLOCK;
		counter = 0;
		flags = ctx->mode.blake3.flags | PARENT;
	}
	/* Up the stack: each node made so far is the right child of the
	 * subtree below it on the stack. */
	while (i-- > 0) {
		compress(in_cv, block, block_len, counter, flags, words);
		for (int w = 0; w < 8; w++) {
			fh_store32le(block + 4 * w, ctx->mode.blake3.stack[i][w]);
			fh_store32le(block + 32 + 4 * w, words[w]);
		}
		memcpy(in_cv, ctx->mode.blake3.key, sizeof in_cv);
		block_len = BLOCK;
		counter = 0;
		flags = ctx->mode.blake3.flags | PARENT;
	}
	for (uint64_t o = 0; outlen; o++) {
		uint8_t bytes[BLOCK];
		size_t n = outlen < BLOCK ? outlen : BLOCK;

		compress(in_cv, block, block_len, o, flags | ROOT, words);
		for (int w = 0; w < 16; w++)
			fh_store32le(bytes + 4 * w, words[w]);
		memcpy(out, bytes, n);
		out += n;
		outlen -= n;
	}
}

/* keyed_hash: the key's words are the key (§2.3, §5.1); derive_key: the
 * context string hashed with DERIVE_KEY_CONTEXT gives the key of the
 * material, hashed with DERIVE_KEY_MATERIAL (§5.2). */
static bool params(fh_ctx *ctx, const struct fh_hash_params *p)
{
	uint32_t key[8];

	switch (p->keying) {
	case FH_KEY_NONE:
		return true;
	case FH_KEY_KEYED:
		if (p->keylen != 32)
			return false;
		for (int i = 0; i < 8; i++)
			key[i] = fh_load32le(p->key + 4 * i);
		ctx->mode.blake3.flags = KEYED_HASH;
		break;
	case FH_KEY_DERIVE: {
		uint8_t ck[32];

		ctx->mode.blake3.flags = DERIVE_KEY_CONTEXT;
		update(ctx, p->key, p->keylen);
		final(ctx, NULL, 0, ck, sizeof ck);
		init(ctx, NULL);
		ctx->total = 0;
		ctx->buffered = 0;
		for (int i = 0; i < 8; i++)
			key[i] = fh_load32le(ck + 4 * i);
		ctx->mode.blake3.flags = DERIVE_KEY_MATERIAL;
		break;
	}
	default:
		return false;
	}
	memcpy(ctx->mode.blake3.key, key, sizeof key);
	memcpy(ctx->state.sha256, key, sizeof key);
	return true;
}

/* The engine's lanes (lanes.c): unkeyed inputs of one chunk at most,
 * whose blocks but the last run in a multi-buffer kernel's lanes; the
 * lane's state is the chunk's chaining value and its blocks done. */
static void blocks_xn(const struct fh_kernel *k, const struct fh_algo *algo,
		      void *states, const uint8_t *const *data, size_t nblocks)
{
	(void)algo;
	fh_blake3_lanes_of(k)(states, data, nblocks);
}

static void lane_resume(fh_ctx *ctx, const void *state, uint64_t absorbed)
{
	struct fh_blake3_lane st;

	memcpy(&st, state, sizeof st);
	memcpy(ctx->state.sha256, st.cv, sizeof st.cv);
	ctx->mode.blake3.blocks = st.blocks;
	ctx->total = absorbed;
}

/* Inputs that end in the lanes: their last blocks, the roots, in one
 * call of the kernel's `tree`.  The root's first 32 bytes only
 * (lanes_final_most): a longer output is the XOF's, left to final. */
static void lanes_final(const struct fh_kernel *multi, void *states,
			const uint8_t *const *blocks, const size_t *lens,
			size_t n, uint8_t *const *out, size_t outlen)
{
	struct fh_blake3_lane *st = states;
	uint32_t len[FH_MAX_LANES];

	for (size_t i = 0; i < multi->lanes; i++)
		len[i] = (uint32_t)lens[i];
	fh_blake3_roots_of(multi)(st, blocks, len);
	for (size_t i = 0; i < n; i++) {
		uint8_t d[32];

		for (int w = 0; w < 8; w++)
			fh_store32le(d + 4 * w, st[i].cv[w]);
		memcpy(out[i], d, outlen);
	}
}

const struct fh_family_ops fh_blake3_ops = {
	.name = "blake3", .state_bytes = sizeof(struct fh_blake3_lane),
	.permutes = true,
	.start = start, .blocks_xn = blocks_xn, .init = init, .update = update,
	.final = final, .params = params,
	.lane_max = CHUNK, .lane_resume = lane_resume,
	.lanes_final = lanes_final, .lanes_final_most = 32,
};

/* The pieces of blake3.h, for the engine's teams. */

size_t fh_blake3_lead_after(const fh_ctx *ctx, uint64_t more)
{
	uint64_t at = (ctx->total + more) % FH_BLAKE3_LEAF;

	return at ? (size_t)(FH_BLAKE3_LEAF - at) : 0;
}

/* Leaves hashed together: their chunks in the kernel's lanes, then each
 * row of parents across all of them, so that every row down to the
 * leaves' roots fills the lanes.  Hashed one by one, each leaf paid for
 * its own half-empty calls of 4, 2 and 1 parents.  16 KiB of chaining
 * values on the stack. */
#define LEAVES_AT_ONCE 16

void fh_blake3_leaves(const fh_ctx *ctx, const uint8_t *p, uint64_t first,
		      size_t n, uint8_t *cvs)
{
	const unsigned level = 5;       /* FH_BLAKE3_LEAF / CHUNK = 2^5 */
	const struct fh_kernel *k = ctx->kernel;
	uint32_t flags = ctx->mode.blake3.flags;

	for (size_t i = 0; i < n; i += LEAVES_AT_ONCE) {
		uint32_t cv[LEAVES_AT_ONCE << level][8];
		size_t g = n - i < LEAVES_AT_ONCE ? n - i : LEAVES_AT_ONCE;

		fh_blake3_chunks_of(k)(ctx->mode.blake3.key,
				       p + i * FH_BLAKE3_LEAF, g << level,
				       (first + i) << level, flags, cv);
		/* Each row pairs neighbours within a leaf: a leaf's values
		 * stay together, an even number of them until its root. */
		for (size_t m = g << level; m > g; m /= 2)
			fh_blake3_parents_of(k)(ctx->mode.blake3.key,
						(const uint32_t(*)[8])cv, m / 2,
						flags, cv);
		memcpy(cvs + 32 * i, cv, 32 * g);
	}
}

/* Leaves' values merged at most this many at once into the value of the
 * subtree they make, row by row in the kernel's lanes (8 KiB on the
 * stack); merged one parent at a time by push_cv, those of a 1 GiB file
 * cost its caller 32,767 single compressions, 1.3% of the time on all
 * threads (Intel family 6 model 207). */
#define MERGE_AT_ONCE 256

void fh_blake3_add_leaves(fh_ctx *ctx, const uint8_t *cvs, size_t n)
{
	if (chunk_len(ctx) == CHUNK) {
		/* The chunk held back: more input follows it now. */
		uint32_t out[16];

		uint64_t counter = chunk_counter(ctx);

		fh_blake3_compress_of(ctx->kernel)(ctx->state.sha256, ctx->buf,
						   BLOCK, counter,
						   block_flags(ctx) | CHUNK_END,
						   out);
		push_cv(ctx, out, counter);
		memcpy(ctx->state.sha256, ctx->mode.blake3.key, 32);
		ctx->mode.blake3.blocks = 0;
		ctx->buffered = 0;
	}
	while (n) {
		/* The longest run of leaves from here that is a whole
		 * subtree: a power of two of them, aligned, at most
		 * MERGE_AT_ONCE.  Input follows the leaves, so it is not the
		 * root. */
		uint64_t leaf = ctx->total / FH_BLAKE3_LEAF;
		size_t m = MERGE_AT_ONCE;
		uint32_t row[MERGE_AT_ONCE][8];

		while (m > 1 && (leaf % m || m > n))
			m /= 2;
		memcpy(row, cvs, 32 * m);
		for (size_t r = m; r > 1; r /= 2)
			fh_blake3_parents_of(ctx->kernel)(ctx->mode.blake3.key,
							  (const uint32_t(*)[8])row,
							  r / 2,
							  ctx->mode.blake3.flags,
							  row);
		push_cv(ctx, row[0], ctx->total / CHUNK);
		ctx->total += m * FH_BLAKE3_LEAF;
		cvs += 32 * m;
		n -= m;
	}
}
