/* blake2b_avx2.c: BLAKE2b (RFC 7693) on one stream, the work vector's
 * rows in YMM registers (blake2b_rows.h).  ISA: x86-64 + AVX2, built with
 * -mavx2 (FH_CPU_X86_AVX2).  One lane.
 *
 * AVX2 has no 64-bit rotate: the rotations by 32, 24 and 16 are byte
 * shuffles (VPSHUFD, VPSHUFB), one instruction each, and the rotation by
 * 63 is x + x OR x >> 63. */
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

/* VPERMQ's selector that turns the words by N. */
#define B2_TURN(n) ((n) | ((n) + 1) % 4 << 2 | ((n) + 2) % 4 << 4 | ((n) + 3) % 4 << 6)

#define B2_V __m256i
#define B2_ADD(x, y) _mm256_add_epi64(x, y)
#define B2_XOR(x, y) _mm256_xor_si256(x, y)
#define B2_ROR(x, n) ror64(x, n)
#define B2_ROT(x, n) _mm256_permute4x64_epi64(x, B2_TURN(n))
#define B2_SET(w0, w1, w2, w3)                                               \
	_mm256_set_epi64x((long long)(w3), (long long)(w2), (long long)(w1), \
			  (long long)(w0))
#define B2_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define B2_STOREU(p, x) _mm256_storeu_si256((__m256i *)(void *)(p), x)
#define FH_B2_ROWS_FN fh_blake2b_blocks_avx2
#include "blake2b_rows.h"

const struct fh_kernel fh_blake2b_avx2 = {
	.name = "blake2b-avx2",
	.family = FH_FAMILY_BLAKE2B,
	.lanes = 1,
	.features = FH_CPU_X86_AVX2,
	.blocks = FH_KERNEL_FN(fh_blake2b_blocks_fn, fh_blake2b_blocks_avx2),
};
