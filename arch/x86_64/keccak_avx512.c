/* keccak_avx512.c: Keccak-f[1600] and the sponge absorb loop with each lane
 * in the low half of its own XMM register, using AVX-512VL's VPTERNLOGQ
 * (theta's five-way XOR in two operations, chi in one) and VPROLQ (rotates
 * in one).  ISA: x86-64 + AVX-512F + AVX-512VL, built with -mavx512f
 * -mavx512vl (FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL).  One lane.
 *
 * Measured here (AMD EPYC Zen 4, 2 cores, about 3.6 GHz; gcc 12 -O3;
 * `fhsum --benchmark`, 16 KiB buffers, 10-12 runs alternating with the
 * previous version, medians): SHA3-256 639 MB/s (592 before: +8.8%),
 * 1.17x keccak-bmi2's 549; SHA3-512 349 (320); SHAKE128 784 (726).  End
 * to end, `fhsum -a ALG -j1 --kernel keccak-avx512` on a cached 1 GiB
 * file against `openssl dgst` (OpenSSL 3.0.19, scalar): SHA3-256
 * 1.38-1.45x (1.34x before), SHA3-512 1.36-1.38x (1.26x before), medians
 * of 10 runs alternating and `hyperfine -N -w 2 -r 10` means.  Tested
 * here natively (tests/unit's `kernel keccak-avx512`) and, on CPUs
 * without AVX-512, through the emulation in avx512_ops.h
 * (arch/x86_64/test_avx512_emu.c).
 *
 * What moved it: lane A[0,0]'s rotate by 0 costs no instruction (GCC
 * emitted VPROLQ $0), 2%; GCC's second scheduling pass off, 3%; and the
 * output planes in the order 2, 4, 1, 0, 3, 4% (the best of all 120
 * orders measured with the pass off; index order was among the slowest).
 * (Clang 14 builds of the old and the new source both run 2% under this
 * GCC build; the old GCC build ran 5% under Clang's.)  A round
 * is some 95 ALU operations and 15 register copies (VPTERNLOGQ overwrites
 * one of its inputs) on 4 vector pipes, 2 of which rotate: 24 cycles at
 * best against about 32 here.  Assembly with every lane in a register,
 * all 24 rounds unrolled and the copies placed by hand measured 2-6%
 * slower than this code.
 *
 * Why lane per register: AVX-512VL gives 32 XMM registers, enough for the
 * 25 lanes and most temporaries, and with one lane per register the round
 * needs no shuffles at all (pi is only a renaming).
 */
#include <stdint.h>

#include "avx512_ops.h"
#include "keccak_rc.h"
#include "kernels_x86.h"
#include "keccak_round.h"

/* GCC's scheduling after register allocation (on at -O2) reorders the
 * round for a generic model and costs 3% on Zen 4; with it off the
 * instructions keep the order of the source, planes in the order below
 * (see the top of the file).  Other compilers keep their own order. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-schedule-insns2")
#endif

#define FH_LANE __m128i
#define FH_XOR(a, b) _mm_xor_si128(a, b)
#define FH_XOR5(a, b, c, d, e) \
	FH_TERNLOG64(FH_TERNLOG64(a, b, c, FH_TL_XOR3), d, e, FH_TL_XOR3)
/* Lane A[0,0] rotates by 0: no instruction (GCC emits VPROLQ $0). */
#define FH_ROL(x, n) ((n) ? FH_ROL64X(x, n) : (x))
#define FH_THETA_D(c0, c2) _mm_xor_si128(c0, FH_ROL64X(c2, 1))
#define FH_CHI(a, b, c) FH_TERNLOG64(a, b, c, FH_TL_CHI)
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
		/* Planes in the order measured fastest (top of file). */
		for (unsigned i = 24 - rounds; i < 24; i += 2) {
			FH_KECCAK_ROUND_ORDERED(a, e, i, 2, 4, 1, 0, 3);
			FH_KECCAK_ROUND_ORDERED(e, a, i + 1, 2, 4, 1, 0, 3);
		}
	}

#define FH_STORE(v, i) lane_store(s + i, v);
	FH_KECCAK_EACH_LANE(FH_STORE)
#undef FH_STORE
}

/* One copy of the loop per round count (kernels_x86.h says why). */
FH_KECCAK_SINGLE_ENTRIES(avx512)

const struct fh_kernel fh_keccak_avx512 = {
	.name = "keccak-avx512",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.blocks = FH_KERNEL_FN(fh_keccak_absorb_fn, fh_keccak_absorb_avx512),
	.permute = FH_KERNEL_FN(fh_keccak_permute_fn, fh_keccak_permute_avx512),
};
