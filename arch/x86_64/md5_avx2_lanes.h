/* md5_avx2_lanes.h: what the AVX2 multi-buffer MD5 kernels share
 * (md5_avx2x8.c, md5_avx2x16.c): the vector operations on eight 32-bit
 * lanes of a YMM register and the transposes between eight lanes' message
 * or state words and vectors of one word of every lane.  Only macros and
 * static inline functions; the including file builds with -mavx2. */
#ifndef FH_MD5_AVX2_LANES_H
#define FH_MD5_AVX2_LANES_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define V __m256i
#define V_ADD(a, b) _mm256_add_epi32(a, b)
#define V_XOR(a, b) _mm256_xor_si256(a, b)
#define V_AND(a, b) _mm256_and_si256(a, b)
#define V_OR(a, b) _mm256_or_si256(a, b)
#define V_ANDNOT(a, b) _mm256_andnot_si256(a, b) /* ~a & b */
#define V_LOAD(p) _mm256_load_si256((const V *)(const void *)(p))

/* Rotate each element left by S (0 < S < 32); by 16 a byte shuffle does it
 * in one operation. */
static inline V v_rol(V x, int s)
{
	if (s == 16)
		return _mm256_shuffle_epi8(
			x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
					    14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4,
					    5, 10, 11, 8, 9, 14, 15, 12, 13));
	return _mm256_or_si256(_mm256_slli_epi32(x, s),
			       _mm256_srli_epi32(x, 32 - s));
}

/* Transposes the 4x4 matrices of 32-bit words in each 128-bit half: word j
 * of R[i] becomes word i of R[j].  Its own inverse. */
static inline void transpose4(V r[4])
{
	V t0 = _mm256_unpacklo_epi32(r[0], r[1]);
	V t1 = _mm256_unpackhi_epi32(r[0], r[1]);
	V t2 = _mm256_unpacklo_epi32(r[2], r[3]);
	V t3 = _mm256_unpackhi_epi32(r[2], r[3]);

	r[0] = _mm256_unpacklo_epi64(t0, t2);
	r[1] = _mm256_unpackhi_epi64(t0, t2);
	r[2] = _mm256_unpacklo_epi64(t1, t3);
	r[3] = _mm256_unpackhi_epi64(t1, t3);
}

/* Words 0..3 of the 16 bytes at P[i] + OFF of eight lanes P[0..7]: element
 * i of OUT[j] is lane i's word j. */
static inline void load4(V out[4], const uint8_t *const *p, size_t off)
{
	for (int i = 0; i < 4; i++)
		out[i] = _mm256_inserti128_si256(
			_mm256_castsi128_si256(_mm_loadu_si128(
				(const __m128i *)(const void *)(p[i] + off))),
			_mm_loadu_si128(
				(const __m128i *)(const void *)(p[i + 4] + off)),
			1);
	transpose4(out);
}

/* The inverse of load4: element i of V[j] to word j at P[i]. */
static inline void store4(uint8_t *const *p, V v[4])
{
	transpose4(v);
	for (int i = 0; i < 4; i++) {
		_mm_storeu_si128((__m128i *)(void *)p[i],
				 _mm256_castsi256_si128(v[i]));
		_mm_storeu_si128((__m128i *)(void *)p[i + 4],
				 _mm256_extracti128_si256(v[i], 1));
	}
}

#endif
