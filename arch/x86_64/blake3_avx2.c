/* blake3_avx2.c: BLAKE3 on AVX2 (-mavx2), eight 32-bit lanes of a YMM
 * register: whole chunks and parents eight at a time, one per lane
 * (blake3-avx2; fewer than eight left go to the SSE4.1 code, which also
 * compresses its single blocks), and the first blocks of eight inputs'
 * chunks (the lanes of blake3-avx2x8).  The blocks are transposed into
 * message words with unpacks and 128-bit permutes, 8 x 8 words at a
 * time; rotations by 16 and 8 are byte shuffles (VPSHUFB). */
#include <immintrin.h>

#include "kernels_x86.h"

#define B3V __m256i
#define B3N 8
#define B3_ADD(a, b) _mm256_add_epi32(a, b)
#define B3_XOR(a, b) _mm256_xor_si256(a, b)
#define B3_SET1(w) _mm256_set1_epi32((int)(uint32_t)(w))
#define B3_ROR16(x) _mm256_shuffle_epi8(x, rot16)
#define B3_ROR8(x) _mm256_shuffle_epi8(x, rot8)
#define B3_ROR12(x) _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20))
#define B3_ROR7(x) _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25))
#define B3_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define B3_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define B3_FN(name) avx2_##name
#define B3_MSG_IN_MEMORY

#define rot16 _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, \
			       12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,  \
			       14, 15, 12, 13)
#define rot8 _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, \
			      15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, \
			      13, 14, 15, 12)

/* Eight rows (one a lane) of eight words to eight columns, in place. */
static inline void transpose8(__m256i r[8])
{
	__m256i t[8], u[8];

	for (int i = 0; i < 8; i += 2) {
		t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
		t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
	}
	for (int i = 0; i < 8; i += 4) {
		u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
		u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
		u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
		u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
	}
	for (int i = 0; i < 4; i++) {
		r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
		r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
	}
}

static inline void loadt(__m256i m[16], const uint8_t *const *p, size_t off)
{
	for (int h = 0; h < 2; h++) {
		for (int i = 0; i < 8; i++)
			m[8 * h + i] = B3_LOADU(p[i] + off + 32 * h);
		transpose8(m + 8 * h);
	}
}
#define B3_LOADT(m, p, off) loadt(m, p, off)

#include "../blake3_lanes.h"

void fh_blake3_chunks_avx2(const uint32_t key[8], const uint8_t *data,
			   size_t n, uint64_t counter, uint32_t flags,
			   uint32_t (*cvs)[8])
{
	for (; n >= 8; n -= 8, data += 8 * 1024, counter += 8, cvs += 8)
		avx2_chunks_n(key, data, counter, flags, cvs);
	if (n > 4) {
		/* 5 to 7: eight lanes with some idle, not four and four. */
		const uint8_t *p[8];

		for (size_t i = 0; i < n; i++)
			p[i] = data + i * 1024;
		avx2_hash_some(p, n, 16, key, counter, 1, flags, B3_CHUNK_START,
			       B3_CHUNK_END, cvs);
	} else if (n) {
		fh_blake3_chunks_sse41(key, data, n, counter, flags, cvs);
	}
}

void fh_blake3_parents_avx2(const uint32_t key[8],
			    const uint32_t (*children)[8], size_t n,
			    uint32_t flags, uint32_t (*cvs)[8])
{
	for (; n >= 8; n -= 8, children += 16, cvs += 8)
		avx2_parents_n(key, children, flags, cvs);
	if (n)
		fh_blake3_parents_sse41(key, children, n, flags, cvs);
}

static void blake3_lanes_avx2x8(struct fh_blake3_lane *states,
				const uint8_t *const *data, size_t nblocks)
{
	avx2_lanes_n(states, data, nblocks);
}

static void blake3_roots_avx2x8(struct fh_blake3_lane *states,
			    const uint8_t *const *blocks, const uint32_t *lens)
{
	avx2_roots_n(states, blocks, lens);
}

const struct fh_kernel fh_blake3_avx2 = {
	.name = "blake3-avx2", .family = FH_FAMILY_BLAKE3, .lanes = 1,
	.features = FH_CPU_X86_AVX2 | FH_CPU_X86_SSE41,
	.blocks = FH_KERNEL_FN(fh_blake3_chunks_fn, fh_blake3_chunks_avx2),
	.permute = FH_KERNEL_FN(fh_blake3_compress_fn, fh_blake3_compress_sse41),
	.tree = FH_KERNEL_FN(fh_blake3_parents_fn, fh_blake3_parents_avx2),
};

const struct fh_kernel fh_blake3_avx2x8 = {
	.name = "blake3-avx2x8", .family = FH_FAMILY_BLAKE3, .lanes = 8,
	.features = FH_CPU_X86_AVX2 | FH_CPU_X86_SSE41,
	.blocks_xn = FH_KERNEL_FN(fh_blake3_lanes_fn, blake3_lanes_avx2x8),
	.tree = FH_KERNEL_FN(fh_blake3_roots_fn, blake3_roots_avx2x8),
};
