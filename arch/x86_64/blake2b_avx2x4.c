/* blake2b_avx2x4.c: BLAKE2b (RFC 7693) on four independent messages at
 * once, one per 64-bit element of the YMM registers (blake2b_lanes.h).
 * ISA: x86-64 + AVX2, built with -mavx2 (FH_CPU_X86_AVX2).  4 lanes.
 *
 * Where one stream waits on G's chain (blake2b_rows.h), four lanes have
 * sixteen independent G steps a round and fill the vector pipes; the
 * rotations are byte shuffles and x + x | x >> 63, as in blake2b_avx2.c.
 * Block loads: each lane's 32 bytes of words are a row of a 4x4 matrix,
 * transposed by unpacks inside 128-bit halves and VPERM2I128 across them,
 * so that vector w holds word w of every lane. */
#include <immintrin.h>

#include "kernels_x86.h"

static inline __m256i ror64(__m256i x, int n)
{
	/* Byte i of each word from byte (i + n / 8) % 8. */
	const __m256i r24 = _mm256_setr_epi8(
		3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10,
		3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
	const __m256i r16 = _mm256_setr_epi8(
		2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9,
		2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9);

	switch (n) {
	case 32:
		return _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
	case 24:
		return _mm256_shuffle_epi8(x, r24);
	case 16:
		return _mm256_shuffle_epi8(x, r16);
	default: /* 63 */
		return _mm256_or_si256(_mm256_add_epi64(x, x),
				       _mm256_srli_epi64(x, 63));
	}
}

/* M[w] = word w of the four lanes' blocks at DATA[i] + OFF. */
static inline void load_msg(__m256i *m, const uint8_t *const *data, size_t off)
{
	for (int q = 0; q < 4; q++) {
		__m256i r[4];

		for (int i = 0; i < 4; i++)
			r[i] = _mm256_loadu_si256(
				(const __m256i *)(const void *)(data[i] + off + 32 * q));
		/* Lanes 0 and 1 (2 and 3) interleaved: words 0 and 2, 1 and 3. */
		__m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]);
		__m256i t1 = _mm256_unpackhi_epi64(r[0], r[1]);
		__m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]);
		__m256i t3 = _mm256_unpackhi_epi64(r[2], r[3]);
		m[4 * q] = _mm256_permute2x128_si256(t0, t2, 0x20);
		m[4 * q + 1] = _mm256_permute2x128_si256(t1, t3, 0x20);
		m[4 * q + 2] = _mm256_permute2x128_si256(t0, t2, 0x31);
		m[4 * q + 3] = _mm256_permute2x128_si256(t1, t3, 0x31);
	}
}

#define FH_B2_XN 4
#define L_V __m256i
#define L_ADD(x, y) _mm256_add_epi64(x, y)
#define L_XOR(x, y) _mm256_xor_si256(x, y)
#define L_ROR(x, n) ror64(x, n)
#define L_SET1(w) _mm256_set1_epi64x((long long)(w))
#define L_LOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define L_STORE(p, x) _mm256_store_si256((__m256i *)(void *)(p), x)
#define L_LOAD_MSG(m, data, off) load_msg(m, data, off)
#define FH_B2_LANES_FN fh_blake2b_blocks_avx2x4
#define FH_B2_LAST_FN fh_blake2b_last_avx2x4
#include "../blake2b_lanes.h"

const struct fh_kernel fh_blake2b_avx2x4 = {
	.name = "blake2b-avx2x4",
	.family = FH_FAMILY_BLAKE2B,
	.lanes = 4,
	.features = FH_CPU_X86_AVX2,
	.blocks_xn = FH_KERNEL_FN(fh_blake2b_blocks_xn_fn, fh_blake2b_blocks_avx2x4),
	.tree = FH_KERNEL_FN(fh_blake2b_last_xn_fn, fh_blake2b_last_avx2x4),
};
