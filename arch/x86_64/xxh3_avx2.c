/* xxh3_avx2.c: XXH3's blocks (fh_xxh3_blocks_fn) on AVX2 (-mavx2), one
 * stream: the eight 64-bit accumulators in two YMM registers, each
 * stripe's accumulate step as the specification writes it (data XOR
 * secret, its halves' 32x32 product added; the data added to the
 * neighbouring accumulator, lanes swapped in pairs), then the block's
 * scramble, the multiply by PRIME32_1 as two 32x32 products. */
#include <immintrin.h>

#include "../../lib/bytes.h"
#include "../../lib/xxhash.h"
#include "kernels_x86.h"

#define P32_1 0x9E3779B1u

static void xxh3_blocks_avx2(uint64_t acc[8], const uint8_t *p, size_t nblocks)
{
	const uint8_t *s = fh_xxh3_secret;
	__m256i a0 = _mm256_loadu_si256((const __m256i *)acc);
	__m256i a1 = _mm256_loadu_si256((const __m256i *)(acc + 4));
	const __m256i prime = _mm256_set1_epi32((int)P32_1);

	for (; nblocks; nblocks--, p += 1024) {
		/* The secret read afresh each block: hoisted out of the loop,
		 * its 20 registers' worth are spilled to the stack. */
		__asm__("" : "+r"(s));
		for (int n = 0; n < 16; n++) {
			const uint8_t *d = p + 64 * n, *k = s + 8 * n;

			fh_prefetch_far(d);
			__m256i d0 = _mm256_loadu_si256((const __m256i *)d);
			__m256i d1 = _mm256_loadu_si256((const __m256i *)(d + 32));
			__m256i x0 = _mm256_xor_si256(d0, _mm256_loadu_si256((const __m256i *)k));
			__m256i x1 = _mm256_xor_si256(d1, _mm256_loadu_si256((const __m256i *)(k + 32)));

			a0 = _mm256_add_epi64(a0, _mm256_mul_epu32(x0, _mm256_srli_epi64(x0, 32)));
			a1 = _mm256_add_epi64(a1, _mm256_mul_epu32(x1, _mm256_srli_epi64(x1, 32)));
			a0 = _mm256_add_epi64(a0, _mm256_shuffle_epi32(d0, _MM_SHUFFLE(1, 0, 3, 2)));
			a1 = _mm256_add_epi64(a1, _mm256_shuffle_epi32(d1, _MM_SHUFFLE(1, 0, 3, 2)));
			/* One stripe at a time: left to itself, GCC sums the 16
			 * stripes' products first and spills them. */
			__asm__("" : "+x"(a0), "+x"(a1));
		}
		__m256i k0 = _mm256_loadu_si256((const __m256i *)(s + 128));
		__m256i k1 = _mm256_loadu_si256((const __m256i *)(s + 160));

		a0 = _mm256_xor_si256(_mm256_xor_si256(a0, _mm256_srli_epi64(a0, 47)), k0);
		a1 = _mm256_xor_si256(_mm256_xor_si256(a1, _mm256_srli_epi64(a1, 47)), k1);
		/* a * P32_1 mod 2^64: lo(a) * P + (hi(a) * P) << 32. */
		a0 = _mm256_add_epi64(_mm256_mul_epu32(a0, prime),
				      _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a0, 32), prime), 32));
		a1 = _mm256_add_epi64(_mm256_mul_epu32(a1, prime),
				      _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a1, 32), prime), 32));
	}
	_mm256_storeu_si256((__m256i *)acc, a0);
	_mm256_storeu_si256((__m256i *)(acc + 4), a1);
}

const struct fh_kernel fh_xxh_avx2 = {
	.name = "xxh-avx2",
	.family = FH_FAMILY_XXH,
	.lanes = 1,
	.features = FH_CPU_X86_AVX2,
	.blocks = FH_KERNEL_FN(fh_xxh3_blocks_fn, xxh3_blocks_avx2),
};
