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
