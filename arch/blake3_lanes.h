/* blake3_lanes.h: BLAKE3's compression function (the BLAKE3 paper, §2.2)
 * on B3N inputs at once, one per 32-bit lane of a vector, and the three
 * things the SIMD kernels build on it: whole chunks (§2.3), parent nodes
 * (§2.4), and the first blocks of many inputs' chunks and their roots
 * (the engine's lanes).
 * Included by one kernel file per instruction set, which first defines:
 *   B3V                the vector type, B3N lanes of 32 bits
 *   B3_ADD(a, b), B3_XOR(a, b), B3_SET1(w)
 *   B3_ROR16(x), B3_ROR12(x), B3_ROR8(x), B3_ROR7(x)   rotate right
 *   B3_LOADU(p), B3_STOREU(p, v)   B3N words from or to memory
 *   B3_LOADT(m, p, off)   m[w] = word w of the 64 bytes at p[i] + off in
 *                         lane i, for w < 16 (the transpose of the blocks)
 *   B3_FN(name)           the file's prefix for the functions below
 * and, for an instruction set of 16 vector registers, B3_MSG_IN_MEMORY
 * (see compress).
 * Only static functions: each kernel file gets its own copy, built with
 * its instruction set's flags. */
#include <stdint.h>
#include <string.h>

/* The message word order of each round: the permutation of §2.2
 * (Table 2) applied 0..6 times to 0..15. */
static const uint8_t b3_sched[7][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8 },
	{ 3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1 },
	{ 10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6 },
	{ 12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4 },
	{ 9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7 },
	{ 11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13 },
};

/* The IV (§2.2) and the flags (Table 3). */
static const uint32_t b3_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};
#define B3_CHUNK_START 1u
#define B3_CHUNK_END 2u
#define B3_PARENT 4u
#define B3_ROOT 8u

#define B3_G(a, b, c, d, x, y)                                               \
	do {                                                                 \
		v[a] = B3_ADD(B3_ADD(v[a], v[b]), x);                        \
		v[d] = B3_ROR16(B3_XOR(v[d], v[a]));                         \
		v[c] = B3_ADD(v[c], v[d]);                                   \
		v[b] = B3_ROR12(B3_XOR(v[b], v[c]));                         \
		v[a] = B3_ADD(B3_ADD(v[a], v[b]), y);                        \
		v[d] = B3_ROR8(B3_XOR(v[d], v[a]));                          \
		v[c] = B3_ADD(v[c], v[d]);                                   \
		v[b] = B3_ROR7(B3_XOR(v[b], v[c]));                          \
	} while (0)

#define B3_ROUND(r)                                                          \
	do {                                                                 \
		const uint8_t *s = b3_sched[r];                              \
		B3_G(0, 4, 8, 12, mw[s[0]], mw[s[1]]);                       \
		B3_G(1, 5, 9, 13, mw[s[2]], mw[s[3]]);                       \
		B3_G(2, 6, 10, 14, mw[s[4]], mw[s[5]]);                      \
		B3_G(3, 7, 11, 15, mw[s[6]], mw[s[7]]);                      \
		B3_G(0, 5, 10, 15, mw[s[8]], mw[s[9]]);                      \
		B3_G(1, 6, 11, 12, mw[s[10]], mw[s[11]]);                    \
		B3_G(2, 7, 8, 13, mw[s[12]], mw[s[13]]);                     \
		B3_G(3, 4, 9, 14, mw[s[14]], mw[s[15]]);                     \
	} while (0)

/* One block in every lane: H (the chaining values) becomes the first
 * half of the output.  Counters, block length and flags per lane.
 *
 * The sixteen state words and sixteen message words are 32 vectors.
 * With 16 registers (SSE4.1, AVX2), GCC keeps the message words in
 * registers and spills state words in the middle of G's dependent steps
 * (a store and its reload in the chain); read through a volatile pointer,
 * the message words stay in memory, each used by one load, and the state
 * keeps the registers: 3410 against 3930 MB/s for eight chunks at a time
 * with AVX2 (AMD Zen 3, GCC 12 -O3; Clang does this of itself). */
static inline __attribute__((always_inline)) void
B3_FN(compress)(B3V h[8], const B3V m[16], B3V clo, B3V chi, B3V blen,
		B3V flags)
{
#ifdef B3_MSG_IN_MEMORY
	const volatile B3V *mw = m;
#else
	const B3V *mw = m;
#endif
	B3V v[16] = {
		h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
		B3_SET1(b3_iv[0]), B3_SET1(b3_iv[1]), B3_SET1(b3_iv[2]),
		B3_SET1(b3_iv[3]), clo, chi, blen, flags,
	};

	B3_ROUND(0);
	B3_ROUND(1);
	B3_ROUND(2);
	B3_ROUND(3);
	B3_ROUND(4);
	B3_ROUND(5);
	B3_ROUND(6);
	for (int i = 0; i < 8; i++)
		h[i] = B3_XOR(v[i], v[i + 8]);
}

/* The chaining values of lanes H into OUT[0..B3N-1]. */
static inline void B3_FN(store_cvs)(const B3V h[8], uint32_t (*out)[8])
{
	uint32_t t[8][B3N];

	for (int w = 0; w < 8; w++)
		B3_STOREU(t[w], h[w]);
	for (int i = 0; i < B3N; i++)
		for (int w = 0; w < 8; w++)
			out[i][w] = t[w][i];
}

/* NBLOCKS blocks of each of B3N inputs at P[i], under KEY, the counters
 * COUNTER + i (INC) or COUNTER, FLAGS on every block, START on the first
 * and END on the last; the chaining values into OUT.  BLAKE3's
 * hash_many, for whole chunks and for parents. */
static void B3_FN(hash_n)(const uint8_t *const *p, size_t nblocks,
			  const uint32_t key[8], uint64_t counter, int inc,
			  uint32_t flags, uint32_t start, uint32_t end,
			  uint32_t (*out)[8], size_t ahead)
{
	uint32_t lo[B3N], hi[B3N];
	B3V h[8], m[16];

	for (int i = 0; i < B3N; i++) {
		uint64_t c = counter + (inc ? (uint64_t)i : 0);

		lo[i] = (uint32_t)c;
		hi[i] = (uint32_t)(c >> 32);
	}
	B3V clo = B3_LOADU(lo), chi = B3_LOADU(hi), blen = B3_SET1(64);

	for (int w = 0; w < 8; w++)
		h[w] = B3_SET1(key[w]);
	for (size_t b = 0; b < nblocks; b++) {
		uint32_t f = flags | (b == 0 ? start : 0) |
			     (b + 1 == nblocks ? end : 0);

		B3_LOADT(m, p, b * 64);
		if (ahead)
			for (int i = 0; i < B3N; i++)
				__builtin_prefetch(p[i] + ahead + b * 64);
		B3_FN(compress)(h, m, clo, chi, blen, B3_SET1(f));
	}
	B3_FN(store_cvs)(h, out);
}

/* hash_n on the R < B3N inputs at P, the spare lanes rehashing P[0]. */
static inline void B3_FN(hash_some)(const uint8_t *const *p, size_t r,
			     size_t nblocks, const uint32_t key[8],
			     uint64_t counter, int inc, uint32_t flags,
			     uint32_t start, uint32_t end, uint32_t (*out)[8])
{
	const uint8_t *q[B3N];
	uint32_t o[B3N][8];

	for (size_t i = 0; i < B3N; i++)
		q[i] = p[i < r ? i : 0];
	B3_FN(hash_n)(q, nblocks, key, counter, inc, flags, start, end, o, 0);
	memcpy(out, o, r * sizeof *o);
}

/* B3N whole chunks from DATA, counters COUNTER.. (fh_blake3_chunks_fn). */
static void B3_FN(chunks_n)(const uint32_t key[8], const uint8_t *data,
			    uint64_t counter, uint32_t flags,
			    uint32_t (*cvs)[8])
{
	const uint8_t *p[B3N];

	for (int i = 0; i < B3N; i++)
		p[i] = data + (size_t)i * 1024;
	B3_FN(hash_n)(p, 16, key, counter, 1, flags, B3_CHUNK_START,
		      B3_CHUNK_END, cvs, B3N * 1024);
}

/* B3N parents (fh_blake3_parents_fn); their blocks are the children's
 * words end to end, little-endian as the hosts of these kernels are. */
static void B3_FN(parents_n)(const uint32_t key[8],
			     const uint32_t (*children)[8], uint32_t flags,
			     uint32_t (*cvs)[8])
{
	const uint8_t *p[B3N];
	uint32_t out[B3N][8];

	for (int i = 0; i < B3N; i++)
		p[i] = (const uint8_t *)children[2 * i];
	B3_FN(hash_n)(p, 1, key, 0, 0, flags | B3_PARENT, 0, 0, out, 0);
	memcpy(cvs, out, sizeof out);
}

/* fh_blake3_lanes_fn on B3N lanes. */
static void B3_FN(lanes_n)(struct fh_blake3_lane *st,
			   const uint8_t *const *data, size_t nblocks)
{
	uint32_t t[8][B3N], done[B3N];
	const uint8_t *p[B3N];
	B3V h[8], m[16];

	for (int i = 0; i < B3N; i++) {
		for (int w = 0; w < 8; w++)
			t[w][i] = st[i].cv[w];
		done[i] = st[i].blocks;
		p[i] = data[i];
	}
	for (int w = 0; w < 8; w++)
		h[w] = B3_LOADU(t[w]);
	B3V zero = B3_SET1(0), blen = B3_SET1(64);

	for (size_t b = 0; b < nblocks; b++) {
		uint32_t f[B3N];

		for (int i = 0; i < B3N; i++)
			f[i] = done[i] + b == 0 ? B3_CHUNK_START : 0;
		B3_LOADT(m, p, b * 64);
		B3_FN(compress)(h, m, zero, zero, blen, B3_LOADU(f));
	}
	for (int w = 0; w < 8; w++)
		B3_STOREU(t[w], h[w]);
	for (int i = 0; i < B3N; i++) {
		for (int w = 0; w < 8; w++)
			st[i].cv[w] = t[w][i];
		st[i].blocks += (uint32_t)nblocks;
	}
}

/* Each lane's last block, its root (§2.6): LENS[i] bytes at BLOCKS[i],
 * zeros after them to 64, compressed with CHUNK_END and ROOT (and
 * CHUNK_START where the chunk has no block before it), counter 0.  The
 * output's first eight words are the lane's new CV: the first 32 bytes
 * of the input's digest. */
static void B3_FN(roots_n)(struct fh_blake3_lane *st,
			   const uint8_t *const *blocks, const uint32_t *lens)
{
	uint32_t t[8][B3N], f[B3N];
	B3V h[8], m[16];

	for (int i = 0; i < B3N; i++) {
		for (int w = 0; w < 8; w++)
			t[w][i] = st[i].cv[w];
		f[i] = B3_CHUNK_END | B3_ROOT |
		       (st[i].blocks == 0 ? B3_CHUNK_START : 0);
	}
	for (int w = 0; w < 8; w++)
		h[w] = B3_LOADU(t[w]);
	B3V zero = B3_SET1(0);

	B3_LOADT(m, blocks, 0);
	B3_FN(compress)(h, m, zero, zero, B3_LOADU(lens), B3_LOADU(f));
	for (int w = 0; w < 8; w++)
		B3_STOREU(t[w], h[w]);
	for (int i = 0; i < B3N; i++) {
		for (int w = 0; w < 8; w++)
			st[i].cv[w] = t[w][i];
		st[i].blocks++;
	}
}
