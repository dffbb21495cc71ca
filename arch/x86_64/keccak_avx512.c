/* keccak_avx512.c: Keccak-f[1600] and the sponge absorb loop with each lane
 * in the low half of its own XMM register, using AVX-512VL's VPTERNLOGQ
 * (theta's five-way XOR in two operations, chi in one) and VPROLQ (rotates
 * in one).  ISA: x86-64 + AVX-512F + AVX-512VL, built with -mavx512f
 * -mavx512vl (FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL).  One lane.
 *
 * NEVER EXECUTED ON AVX-512 HARDWARE: it was written on an AMD Zen 3
 * machine without AVX-512, where neither the CPU nor qemu 7.2 runs it.
 * Its logic (truth tables, rotations, lane order, round constants) runs
 * here against the portable kernel through the emulation in avx512_ops.h
 * (arch/x86_64/test_avx512_emu.c), and the round itself is keccak_round.h's,
 * which keccak-bmi2 and keccak-avx2 run natively; the compiled AVX-512 code
 * is tested only where tests/unit's `kernel keccak-avx512` runs on a CPU
 * with AVX-512VL.  Speed: not measured.  The published figure for this
 * shape (libgcrypt's keccak-amd64-avx512.S, lane per XMM register) is 5.72
 * cycles/byte for SHA3-256 on Tiger Lake against 7.59 for its BMI2 code;
 * dispatch lists it after keccak-bmi2 until a machine with AVX-512 has
 * measured it here.
 *
 * Why lane per register: AVX-512VL gives 32 XMM registers, enough for the
 * 25 lanes and most temporaries, and with one lane per register the round
 * needs no shuffles at all (pi is only a renaming), about 94 vector
 * operations per round (perf-anchors §3.2).
 */
#include <stdint.h>

#include "avx512_ops.h"
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

#define FH_LANE __m128i
#define FH_XOR(a, b) _mm_xor_si128(a, b)
#define FH_XOR5(a, b, c, d, e) \
	FH_TERNLOG64(FH_TERNLOG64(a, b, c, FH_TL_XOR3), d, e, FH_TL_XOR3)
/* VPROLQ by 0 (lane A[0,0]) is the identity. */
#define FH_ROL(x, n) FH_ROL64X(x, n)
#define FH_THETA_D(c0, c2) _mm_xor_si128(c0, FH_ROL64X(c2, 1))
#define FH_CHI(a, b, c) FH_TERNLOG64(a, b, c, FH_TL_CHI)
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
		for (unsigned i = 0; i < 24; i += 2) {
			FH_KECCAK_ROUND(a, e, i);
			FH_KECCAK_ROUND(e, a, i + 1);
		}
	}

#define FH_STORE(v, i) lane_store(s + i, v);
	FH_KECCAK_EACH_LANE(FH_STORE)
#undef FH_STORE
}

static void fh_keccak_absorb_avx512(uint64_t state[25], const uint8_t *data,
				  size_t nblocks, size_t rate)
{
	keccak_run(state, data, nblocks, rate);
}

static void fh_keccak_permute_avx512(uint64_t state[25])
{
	keccak_run(state, NULL, 1, 0);
}

const struct fh_kernel fh_keccak_avx512 = {
	.name = "keccak-avx512",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.keccak_absorb = fh_keccak_absorb_avx512,
	.keccak_permute = fh_keccak_permute_avx512,
};
