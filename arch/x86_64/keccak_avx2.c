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

#include "keccak_rc.h"
#include "kernels_x86.h"
#include "keccak_round.h"

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
	_mm_xor_si128(x, _mm_loadl_epi64((const __m128i *)&fh_keccak_rc[i]))

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
keccak_run(uint64_t s[25], const uint8_t *data, size_t nblocks, size_t rate,
	   unsigned rounds)
{
	__m128i FH_KECCAK_LANES(a), FH_KECCAK_LANES(e);

#define FH_LOAD(v, i) v = lane_load(s + i);
	FH_KECCAK_EACH_LANE(FH_LOAD)
#undef FH_LOAD

	for (; nblocks; nblocks--) {
		if (data) {
			/* XOR the block's rate/8 lanes into the state. */
#define FH_IN(v, i) v = _mm_xor_si128(v, data_lane(data, i))
			FH_KECCAK_EACH_RATE_LANE(rate / 8, FH_IN)
#undef FH_IN
			data += rate;
		}
		for (unsigned i = 24 - rounds; i < 24; i += 2) {
			FH_KECCAK_ROUND(a, e, i);
			FH_KECCAK_ROUND(e, a, i + 1);
		}
	}

#define FH_STORE(v, i) lane_store(s + i, v);
	FH_KECCAK_EACH_LANE(FH_STORE)
#undef FH_STORE
}

/* One copy of the loop per round count (kernels_x86.h says why). */
FH_KECCAK_SINGLE_ENTRIES(avx2)

const struct fh_kernel fh_keccak_avx2 = {
	.name = "keccak-avx2",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = FH_CPU_X86_AVX2,
	.blocks = FH_KERNEL_FN(fh_keccak_absorb_fn, fh_keccak_absorb_avx2),
	.permute = FH_KERNEL_FN(fh_keccak_permute_fn, fh_keccak_permute_avx2),
};
