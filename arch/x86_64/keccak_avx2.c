/* keccak_avx2.c: Keccak-f[1600] and the sponge absorb loop with each lane
 * in the low half of its own XMM register, AVX2 VEX-encoded three-operand
 * forms (vpxor, vpandn for chi, shift-shift-or for rotates).  ISA: x86-64 +
 * AVX2, built with -mavx2 (FH_CPU_X86_AVX2).  One lane.
 *
 * Measured here (AMD EPYC Zen 3, 16 KiB buffer, alternating runs, medians):
 * SHA3-256 246 MB/s against 283 for keccak-bmi2 and 105 for keccak-portable
 * (0.87x and 2.3x) in one alternating run; OpenSSL 3.0 264 in the same run.
 *
 * Why this shape: one Keccak state does not fill 256-bit vectors without a
 * layout that makes pi and chi cross-lane shuffles (OpenSSL's
 * keccak1600-avx2, 17 cycles/byte on Zen 1 by its own notes), and AVX2 has
 * no rotate, so each rotate costs three operations.  Lane per register is
 * the shape the AVX-512VL kernel (keccak_avx512.c) uses with VPROLQ and
 * VPTERNLOGQ; here it shows what the same round costs without them.  It
 * uses the same round macro as the general-register kernel
 * (keccak_round.h), with 32 lanes of state and temporaries competing for
 * 16 vector registers, so the compiler spills.  On Zen 3 it is slower than
 * keccak-bmi2, and dispatch puts it after that kernel.
 */
#include <immintrin.h>
#include <stdint.h>

#include "kernels_x86.h"
#include "keccak_round.h"

/* Round constants RC[ir] of iota, FIPS 202 §3.2.5 (Algorithm 5 evaluated). */
static const uint64_t keccak_rc[24] = {
	0x0000000000000001, 0x0000000000008082, 0x800000000000808a,
	0x8000000080008000, 0x000000000000808b, 0x0000000080000001,
	0x8000000080008081, 0x8000000000008009, 0x000000000000008a,
	0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
	0x000000008000808b, 0x800000000000008b, 0x8000000000008089,
	0x8000000000008003, 0x8000000000008002, 0x8000000000000080,
	0x000000000000800a, 0x800000008000000a, 0x8000000080008081,
	0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

/* Rotate left by N; N = 0 (lane A[0,0]) must be the identity, and a shift
 * by 64 already gives 0 in vpsrlq, so the OR is still right. */
static inline __m128i rol64x(__m128i x, int n)
{
	return _mm_or_si128(_mm_slli_epi64(x, n), _mm_srli_epi64(x, 64 - n));
}

#define FH_LANE __m128i
#define FH_XOR(a, b) _mm_xor_si128(a, b)
#define FH_XOR5(a, b, c, d, e) \
	_mm_xor_si128(_mm_xor_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, d)), e)
#define FH_ROL(x, n) rol64x(x, n)
/* rot(c, 1) as c + c | c >> 63: vpaddq runs on more ports than vpsllq. */
#define FH_THETA_D(c0, c2) \
	_mm_xor_si128(c0, _mm_or_si128(_mm_add_epi64(c2, c2), \
				       _mm_srli_epi64(c2, 63)))
/* _mm_andnot_si128(b, c) is ~b & c (vpandn). */
#define FH_CHI(a, b, c) _mm_xor_si128(a, _mm_andnot_si128(b, c))
#define FH_IOTA(x, i) \
	_mm_xor_si128(x, _mm_loadl_epi64((const __m128i *)&keccak_rc[i]))

static inline __m128i lane_load(const uint64_t *p)
{
	return _mm_loadl_epi64((const __m128i *)p);
}

/* Lane I of a block: 8 unaligned little-endian bytes into the low half. */
static inline __m128i data_lane(const uint8_t *p, unsigned i)
{
	return _mm_loadl_epi64((const __m128i *)(const void *)(p + 8 * i));
}

static inline void lane_store(uint64_t *p, __m128i v)
{
	_mm_storel_epi64((__m128i *)p, v);
}

/* The absorb loop; with DATA == NULL, one permutation and no input. */
static inline __attribute__((always_inline)) void
keccak_run(uint64_t s[25], const uint8_t *data, size_t nblocks, size_t rate)
{
	__m128i FH_KECCAK_LANES(a), FH_KECCAK_LANES(e);

	a00 = lane_load(s + 0);  a10 = lane_load(s + 1);  a20 = lane_load(s + 2);
	a30 = lane_load(s + 3);  a40 = lane_load(s + 4);  a01 = lane_load(s + 5);
	a11 = lane_load(s + 6);  a21 = lane_load(s + 7);  a31 = lane_load(s + 8);
	a41 = lane_load(s + 9);  a02 = lane_load(s + 10); a12 = lane_load(s + 11);
	a22 = lane_load(s + 12); a32 = lane_load(s + 13); a42 = lane_load(s + 14);
	a03 = lane_load(s + 15); a13 = lane_load(s + 16); a23 = lane_load(s + 17);
	a33 = lane_load(s + 18); a43 = lane_load(s + 19); a04 = lane_load(s + 20);
	a14 = lane_load(s + 21); a24 = lane_load(s + 22); a34 = lane_load(s + 23);
	a44 = lane_load(s + 24);

	for (; nblocks; nblocks--) {
		if (data) {
			/* XOR the block's rate/8 lanes into the state: the
			 * cases fall through from the last lane down. */
#define FH_IN(v, i) v = _mm_xor_si128(v, data_lane(data, i))
			switch (rate / 8) {
			case 21: FH_IN(a04, 20); /* fall through */
			case 20: FH_IN(a43, 19); /* fall through */
			case 19: FH_IN(a33, 18); /* fall through */
			case 18: FH_IN(a23, 17); /* fall through */
			case 17: FH_IN(a13, 16); /* fall through */
			case 16: FH_IN(a03, 15); /* fall through */
			case 15: FH_IN(a42, 14); /* fall through */
			case 14: FH_IN(a32, 13); /* fall through */
			case 13: FH_IN(a22, 12); /* fall through */
			case 12: FH_IN(a12, 11); /* fall through */
			case 11: FH_IN(a02, 10); /* fall through */
			case 10: FH_IN(a41, 9);  /* fall through */
			case 9:  FH_IN(a31, 8);  /* fall through */
			case 8:  FH_IN(a21, 7);  /* fall through */
			case 7:  FH_IN(a11, 6);  /* fall through */
			case 6:  FH_IN(a01, 5);  /* fall through */
			case 5:  FH_IN(a40, 4);  /* fall through */
			case 4:  FH_IN(a30, 3);  /* fall through */
			case 3:  FH_IN(a20, 2);  /* fall through */
			case 2:  FH_IN(a10, 1);  /* fall through */
			case 1:  FH_IN(a00, 0);  /* fall through */
			default: break;
			}
#undef FH_IN
			data += rate;
		}
		for (unsigned i = 0; i < 24; i += 2) {
			FH_KECCAK_ROUND(a, e, i);
			FH_KECCAK_ROUND(e, a, i + 1);
		}
	}

	lane_store(s + 0, a00);  lane_store(s + 1, a10);  lane_store(s + 2, a20);
	lane_store(s + 3, a30);  lane_store(s + 4, a40);  lane_store(s + 5, a01);
	lane_store(s + 6, a11);  lane_store(s + 7, a21);  lane_store(s + 8, a31);
	lane_store(s + 9, a41);  lane_store(s + 10, a02); lane_store(s + 11, a12);
	lane_store(s + 12, a22); lane_store(s + 13, a32); lane_store(s + 14, a42);
	lane_store(s + 15, a03); lane_store(s + 16, a13); lane_store(s + 17, a23);
	lane_store(s + 18, a33); lane_store(s + 19, a43); lane_store(s + 20, a04);
	lane_store(s + 21, a14); lane_store(s + 22, a24); lane_store(s + 23, a34);
	lane_store(s + 24, a44);
}

static void fh_keccak_absorb_avx2(uint64_t state[25], const uint8_t *data,
				  size_t nblocks, size_t rate)
{
	keccak_run(state, data, nblocks, rate);
}

static void fh_keccak_permute_avx2(uint64_t state[25])
{
	keccak_run(state, NULL, 1, 0);
}

const struct fh_kernel fh_keccak_avx2 = {
	.name = "keccak-avx2",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = FH_CPU_X86_AVX2,
	.keccak_absorb = fh_keccak_absorb_avx2,
	.keccak_permute = fh_keccak_permute_avx2,
};
