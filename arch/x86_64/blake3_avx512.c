/* blake3_avx512.c: BLAKE3 on AVX-512F (-mavx512f), sixteen 32-bit lanes
 * of a ZMM register: whole chunks and parents sixteen at a time, one per
 * lane (blake3-avx512; fewer than sixteen left go to the AVX2 code), and
 * the first blocks of sixteen inputs' chunks (the lanes of
 * blake3-avx512x16).  Rotations are VPRORD; the blocks are transposed
 * 16 x 16 words with unpacks and VSHUFI32X4.  Built a second time with
 * FH_AVX512_EMULATE, where every one of those operations is plain C with
 * the Intel SDM's semantics, so that test_avx512_emu checks the lanes, the
 * transpose and the rounds on a CPU without AVX-512 (there the few chunks
 * left over are padded into sixteen lanes instead). */
#include "kernels_x86.h"

#ifndef FH_AVX512_EMULATE
#include <immintrin.h>

#define B3V __m512i
#define B3_ADD(a, b) _mm512_add_epi32(a, b)
#define B3_XOR(a, b) _mm512_xor_si512(a, b)
#define B3_SET1(w) _mm512_set1_epi32((int)(uint32_t)(w))
#define B3_ROR(x, n) _mm512_ror_epi32(x, n)
#define B3_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define B3_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define UNPACKLO32(a, b) _mm512_unpacklo_epi32(a, b)
#define UNPACKHI32(a, b) _mm512_unpackhi_epi32(a, b)
#define UNPACKLO64(a, b) _mm512_unpacklo_epi64(a, b)
#define UNPACKHI64(a, b) _mm512_unpackhi_epi64(a, b)
#define SHUF128(a, b, imm) _mm512_shuffle_i32x4(a, b, imm)

#else
#include <string.h>

typedef struct {
	uint32_t w[16];
} b3z;

static inline b3z z_add(b3z a, b3z b)
{
	for (int i = 0; i < 16; i++)
		a.w[i] += b.w[i];
	return a;
}

static inline b3z z_xor(b3z a, b3z b)
{
	for (int i = 0; i < 16; i++)
		a.w[i] ^= b.w[i];
	return a;
}

static inline b3z z_set1(uint32_t v)
{
	b3z r;

	for (int i = 0; i < 16; i++)
		r.w[i] = v;
	return r;
}

/* VPRORD */
static inline b3z z_ror(b3z a, unsigned n)
{
	for (int i = 0; i < 16; i++)
		a.w[i] = a.w[i] >> n | a.w[i] << (32 - n);
	return a;
}

static inline b3z z_load(const void *p)
{
	b3z r;

	memcpy(r.w, p, 64);
	return r;
}

/* VPUNPCK{L,H}DQ and VPUNPCK{L,H}QDQ: inside each 128-bit quarter q,
 * the low (HI 0) or high (HI 2) pair of words of A and B interleaved by
 * word (32) or by pair (64). */
static inline b3z z_unpack32(b3z a, b3z b, int hi)
{
	b3z r;

	for (int q = 0; q < 4; q++) {
		r.w[4 * q] = a.w[4 * q + hi];
		r.w[4 * q + 1] = b.w[4 * q + hi];
		r.w[4 * q + 2] = a.w[4 * q + hi + 1];
		r.w[4 * q + 3] = b.w[4 * q + hi + 1];
	}
	return r;
}

static inline b3z z_unpack64(b3z a, b3z b, int hi)
{
	b3z r;

	for (int q = 0; q < 4; q++) {
		r.w[4 * q] = a.w[4 * q + hi];
		r.w[4 * q + 1] = a.w[4 * q + hi + 1];
		r.w[4 * q + 2] = b.w[4 * q + hi];
		r.w[4 * q + 3] = b.w[4 * q + hi + 1];
	}
	return r;
}

/* VSHUFI32X4: quarters 0 and 1 from A, 2 and 3 from B, picked by IMM. */
static inline b3z z_shuf128(b3z a, b3z b, unsigned imm)
{
	b3z r;

	for (int q = 0; q < 4; q++) {
		const b3z *s = q < 2 ? &a : &b;
		unsigned from = imm >> (2 * q) & 3;

		memcpy(&r.w[4 * q], &s->w[4 * from], 16);
	}
	return r;
}

#define B3V b3z
#define B3_ADD(a, b) z_add(a, b)
#define B3_XOR(a, b) z_xor(a, b)
#define B3_SET1(v) z_set1((uint32_t)(v))
#define B3_ROR(x, n) z_ror(x, n)
#define B3_LOADU(p) z_load(p)
#define B3_STOREU(p, v) memcpy(p, (v).w, 64)
#define UNPACKLO32(a, b) z_unpack32(a, b, 0)
#define UNPACKHI32(a, b) z_unpack32(a, b, 2)
#define UNPACKLO64(a, b) z_unpack64(a, b, 0)
#define UNPACKHI64(a, b) z_unpack64(a, b, 2)
#define SHUF128(a, b, imm) z_shuf128(a, b, imm)
#endif

#define B3N 16
#define B3_ROR16(x) B3_ROR(x, 16)
#define B3_ROR12(x) B3_ROR(x, 12)
#define B3_ROR8(x) B3_ROR(x, 8)
#define B3_ROR7(x) B3_ROR(x, 7)
#define B3_FN(name) avx512_##name

/* Sixteen rows (one a lane) of sixteen words to sixteen columns: words
 * interleaved in pairs, then pairs in fours, which leaves each 128-bit
 * quarter a 4 x 4 block transposed; then the quarters moved. */
static inline void loadt(B3V m[16], const uint8_t *const *p, size_t off)
{
	B3V r[16], t[16];

	for (int i = 0; i < 16; i++)
		r[i] = B3_LOADU(p[i] + off);
	for (int i = 0; i < 16; i += 2) {
		t[i] = UNPACKLO32(r[i], r[i + 1]);
		t[i + 1] = UNPACKHI32(r[i], r[i + 1]);
	}
	for (int i = 0; i < 16; i += 4) {
		r[i] = UNPACKLO64(t[i], t[i + 2]);
		r[i + 1] = UNPACKHI64(t[i], t[i + 2]);
		r[i + 2] = UNPACKLO64(t[i + 1], t[i + 3]);
		r[i + 3] = UNPACKHI64(t[i + 1], t[i + 3]);
	}
	/* R[4j + c], quarter q: word 4q + c of rows 4j..4j + 3. */
	for (int c = 0; c < 4; c++) {
		B3V x0 = SHUF128(r[c], r[4 + c], 0x44);
		B3V x1 = SHUF128(r[c], r[4 + c], 0xee);
		B3V y0 = SHUF128(r[8 + c], r[12 + c], 0x44);
		B3V y1 = SHUF128(r[8 + c], r[12 + c], 0xee);

		m[c] = SHUF128(x0, y0, 0x88);
		m[4 + c] = SHUF128(x0, y0, 0xdd);
		m[8 + c] = SHUF128(x1, y1, 0x88);
		m[12 + c] = SHUF128(x1, y1, 0xdd);
	}
}
#define B3_LOADT(m, p, off) loadt(m, p, off)

#include "../blake3_lanes.h"

void fh_blake3_chunks_avx512(const uint32_t key[8], const uint8_t *data,
			     size_t n, uint64_t counter, uint32_t flags,
			     uint32_t (*cvs)[8])
{
	for (; n >= 16; n -= 16, data += 16 * 1024, counter += 16, cvs += 16)
		avx512_chunks_n(key, data, counter, flags, cvs);
	if (!n)
		return;
#ifndef FH_AVX512_EMULATE
	/* Up to 8 chunks, AVX2's eight lanes; 9 to 15, sixteen lanes with
	 * some idle cost less than eight and four (per lane, --benchmark's
	 * 4,225, 2,671 and 1,450 MB/s: a call of 16 lanes takes 1.3 of 8). */
	if (n <= 8) {
		fh_blake3_chunks_avx2(key, data, n, counter, flags, cvs);
		return;
	}
#endif
	const uint8_t *p[16];

	for (size_t i = 0; i < n; i++)
		p[i] = data + i * 1024;
	avx512_hash_some(p, n, 16, key, counter, 1, flags, B3_CHUNK_START,
			 B3_CHUNK_END, cvs);
}

void fh_blake3_parents_avx512(const uint32_t key[8],
			      const uint32_t (*children)[8], size_t n,
			      uint32_t flags, uint32_t (*cvs)[8])
{
	for (; n >= 16; n -= 16, children += 32, cvs += 16)
		avx512_parents_n(key, children, flags, cvs);
	if (!n)
		return;
#ifndef FH_AVX512_EMULATE
	fh_blake3_parents_avx2(key, children, n, flags, cvs);
#else
	const uint8_t *p[16];

	for (size_t i = 0; i < n; i++)
		p[i] = (const uint8_t *)children[2 * i];
	avx512_hash_some(p, n, 1, key, 0, 0, flags | B3_PARENT, 0, 0, cvs);
#endif
}

void fh_blake3_lanes_avx512x16(struct fh_blake3_lane *states,
			       const uint8_t *const *data, size_t nblocks)
{
	avx512_lanes_n(states, data, nblocks);
}

void fh_blake3_roots_avx512x16(struct fh_blake3_lane *states,
			       const uint8_t *const *blocks,
			       const uint32_t *lens)
{
	avx512_roots_n(states, blocks, lens);
}

#ifndef FH_AVX512_EMULATE
const struct fh_kernel fh_blake3_avx512 = {
	.name = "blake3-avx512", .family = FH_FAMILY_BLAKE3, .lanes = 1,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX2 | FH_CPU_X86_SSE41,
	.blocks = FH_KERNEL_FN(fh_blake3_chunks_fn, fh_blake3_chunks_avx512),
	.permute = FH_KERNEL_FN(fh_blake3_compress_fn, fh_blake3_compress_sse41),
	.tree = FH_KERNEL_FN(fh_blake3_parents_fn, fh_blake3_parents_avx512),
};

const struct fh_kernel fh_blake3_avx512x16 = {
	.name = "blake3-avx512x16", .family = FH_FAMILY_BLAKE3, .lanes = 16,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX2 | FH_CPU_X86_SSE41,
	.blocks_xn = FH_KERNEL_FN(fh_blake3_lanes_fn, fh_blake3_lanes_avx512x16),
	.tree = FH_KERNEL_FN(fh_blake3_roots_fn, fh_blake3_roots_avx512x16),
};
#endif
