/* sha_avx2xn.c: SHA-1 and SHA-256 on eight independent messages at once,
 * one per 32-bit element of the AVX2 YMM registers (sha1-avx2x8,
 * sha256-avx2x8), and SHA-512 on four, one per 64-bit element
 * (sha512-avx2x4).  ISA: x86-64 + AVX2, built with -mavx2
 * (FH_CPU_X86_AVX2).  The rounds are sha_lanes.h's; this file gives them
 * AVX2's operations and the block loads.
 *
 * AVX2 has no rotate and no three-input logic: a rotation is two shifts
 * and an OR, Ch three operations and Maj four.  Each round is about 30
 * vector operations for SHA-256 (22 of them in the Σ and σ functions), so
 * the kernels are bound by the vector pipes' throughput, not by a chain.
 *
 * Block loads: each lane's 32 bytes of words are loaded as one row of a
 * matrix, byte-swapped to host order with VPSHUFB, and the matrix is
 * transposed (unpacks inside 128-bit halves, then VPERM2I128 across
 * them), so that vector t holds word t of every lane.
 */
#include <immintrin.h>
#include <stdint.h>

#include "kernels_x86.h"
#include "sha256_k.h"
#include "sha512_k.h"

/* ---- 8 lanes of 32 bits ------------------------------------------------- */

#define FH_XN 8
#define FH_V __m256i
#define V_ADD(a, b) _mm256_add_epi32(a, b)
#define V_XOR(a, b) _mm256_xor_si256(a, b)
#define V_XOR3(a, b, c) V_XOR(V_XOR(a, b), c)
#define V_CH(x, y, z) V_XOR(_mm256_and_si256(x, V_XOR(y, z)), z)
#define V_MAJ(x, y, z)                                                     \
	_mm256_or_si256(_mm256_and_si256(x, y),                            \
			_mm256_and_si256(z, _mm256_or_si256(x, y)))
#define V_SHR(x, n) _mm256_srli_epi32(x, n)
#define V_ROR(x, n) _mm256_or_si256(_mm256_srli_epi32(x, n), \
				    _mm256_slli_epi32(x, 32 - (n)))
#define V_ROL(x, n) V_ROR(x, 32 - (n))
#define V_SET1(v) _mm256_set1_epi32((int)(uint32_t)(v))
#define V_LOADS(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define V_STORES(p, v) _mm256_store_si256((__m256i *)(void *)(p), v)

/* Words 8H..8H+7 of the eight lanes' blocks at DATA[i] + OFF into W. */
static inline void load8x8(__m256i *w, const uint8_t *const *data,
			   size_t off)
{
	const __m256i bswap = _mm256_set_epi8(
		12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
		12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	__m256i r[8], t[8], u[8];

	for (int i = 0; i < 8; i++)
		r[i] = _mm256_shuffle_epi8(
			_mm256_loadu_si256((const __m256i *)(data[i] + off)),
			bswap);
	/* t[2k], t[2k+1]: lanes 2k and 2k+1 interleaved, words 0, 1, 4, 5
	 * and 2, 3, 6, 7. */
	for (int k = 0; k < 4; k++) {
		t[2 * k] = _mm256_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
		t[2 * k + 1] = _mm256_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
	}
	/* u[j] (j < 4): word j of lanes 0..3 in the low half, word j + 4 in
	 * the high half; u[j + 4] the same for lanes 4..7. */
	for (int k = 0; k < 2; k++) {
		__m256i *tk = t + 4 * k, *uk = u + 4 * k;
		uk[0] = _mm256_unpacklo_epi64(tk[0], tk[2]);
		uk[1] = _mm256_unpackhi_epi64(tk[0], tk[2]);
		uk[2] = _mm256_unpacklo_epi64(tk[1], tk[3]);
		uk[3] = _mm256_unpackhi_epi64(tk[1], tk[3]);
	}
	for (int j = 0; j < 4; j++) {
		w[j] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x20);
		w[j + 4] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x31);
	}
}

#define FH_LOAD_WORDS(w, data, off)                                        \
	do {                                                               \
		load8x8(w, data, off);                                     \
		load8x8(w + 8, data, (off) + 32);                          \
	} while (0)

#define FH_SHA256_LANES_FN fh_sha256_blocks_avx2x8
#include "sha_lanes.h"
#define FH_SHA1_LANES_FN fh_sha1_blocks_avx2x8
#include "sha_lanes.h"

#undef FH_XN
#undef V_ADD
#undef V_SHR
#undef V_ROR
#undef V_ROL
#undef V_SET1
#undef FH_LOAD_WORDS

/* ---- 4 lanes of 64 bits ------------------------------------------------- */

#define FH_XN 4
#define V_ADD(a, b) _mm256_add_epi64(a, b)
#define V_SHR(x, n) _mm256_srli_epi64(x, n)
#define V_ROR(x, n) _mm256_or_si256(_mm256_srli_epi64(x, n), \
				    _mm256_slli_epi64(x, 64 - (n)))
#define V_SET1(v) _mm256_set1_epi64x((long long)(uint64_t)(v))

/* Words 4Q..4Q+3 of the four lanes' blocks at DATA[i] + OFF into W. */
static inline void load4x4(__m256i *w, const uint8_t *const *data,
			   size_t off)
{
	const __m256i bswap = _mm256_set_epi8(
		8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
		8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
	__m256i r[4];

	for (int i = 0; i < 4; i++)
		r[i] = _mm256_shuffle_epi8(
			_mm256_loadu_si256((const __m256i *)(data[i] + off)),
			bswap);
	/* Lanes 0 and 1 (2 and 3) interleaved: words 0 and 2, 1 and 3. */
	__m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]);
	__m256i t1 = _mm256_unpackhi_epi64(r[0], r[1]);
	__m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]);
	__m256i t3 = _mm256_unpackhi_epi64(r[2], r[3]);
	w[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
	w[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
	w[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
	w[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

#define FH_LOAD_WORDS(w, data, off)                                        \
	do {                                                               \
		for (int q_ = 0; q_ < 4; q_++)                             \
			load4x4(w + 4 * q_, data, (off) + 32 * q_);        \
	} while (0)

#define FH_SHA512_LANES_FN fh_sha512_blocks_avx2x4
#include "sha_lanes.h"

const struct fh_kernel fh_sha1_avx2x8 = {
	.name = "sha1-avx2x8",
	.family = FH_FAMILY_SHA1,
	.lanes = 8,
	.features = FH_CPU_X86_AVX2,
	.blocks_xn = FH_KERNEL_FN(fh_sha1_blocks_xn_fn, fh_sha1_blocks_avx2x8),
};

const struct fh_kernel fh_sha256_avx2x8 = {
	.name = "sha256-avx2x8",
	.family = FH_FAMILY_SHA256,
	.lanes = 8,
	.features = FH_CPU_X86_AVX2,
	/* With SHA-NI, two interleaved streams beat eight lanes. */
	.prefer = FH_CPU_X86_NO_SHA,
	.blocks_xn = FH_KERNEL_FN(fh_sha256_blocks_xn_fn, fh_sha256_blocks_avx2x8),
};

const struct fh_kernel fh_sha512_avx2x4 = {
	.name = "sha512-avx2x4",
	.family = FH_FAMILY_SHA512,
	.lanes = 4,
	.features = FH_CPU_X86_AVX2,
	.blocks_xn = FH_KERNEL_FN(fh_sha512_blocks_xn_fn, fh_sha512_blocks_avx2x4),
};
