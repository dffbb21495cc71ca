/* keccak_avx512x8.c: the sponge absorb loop of eight independent
 * Keccak-f[1600] states at once, one per 64-bit element of the AVX-512 ZMM
 * registers, with VPTERNLOGQ (theta's five-way XOR in two operations, chi
 * in one) and VPROLQ (rotates in one).  ISA: x86-64 + AVX-512F; built in
 * the AVX-512 library with -mavx512f -mavx512vl, so it asks for both
 * (FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL).  8 lanes.
 *
 * Measured here (AMD EPYC Zen 4, 2 cores, about 3.6 GHz; gcc 12 -O3;
 * `fhsum --benchmark`, all lanes busy on 16 KiB buffers, 12 runs,
 * medians): aggregate SHA3-256 2491 MB/s, about 1.45 cycles/byte (the
 * published figure for this shape is 0.51 for KT128 on Skylake-X, XKCP's
 * times8, about 1.26 for SHA3-256; perf-anchors §1d), 4.5x keccak-bmi2
 * and 1.76x keccak-avx2x4; SHA3-512 1392, SHAKE128 3036.  Zen 4 issues
 * 512-bit operations at half the rate of 256-bit ones (measured here), so
 * the gain over four states in YMM registers is VPTERNLOGQ's and VPROLQ's:
 * some 95 operations a round against 184.  Tested natively here (tests/unit's `kernel
 * keccak-avx512x8`) and, on CPUs without AVX-512, through the plain-C
 * emulation of its operations in avx512_ops.h
 * (arch/x86_64/test_avx512_emu.c).  Skipping lane A[0,0]'s rotate by 0,
 * which gains 2% in keccak-avx512, measured 1.6% slower here, so this
 * file keeps VPROLQ $0.
 *
 * Shape: lane A[x,y] of state s is element s of vector x + 5y (XKCP's
 * times8 layout): the round is plain element-wise code with no shuffles,
 * about 95 operations for eight states, and the 32 ZMM registers hold the
 * 25 lanes and most temporaries.
 *
 * Loading: each state's block is read 16 bytes (two lanes) at a time;
 * states 0, 2, 4, 6 go into the four 128-bit quarters of one row, 1, 3,
 * 5, 7 into another, and one 64-bit unpack inside the quarters pairs them
 * up, so lane j of all eight states is one unpack of two rows, about four
 * operations a lane against some 2300 for the permutation (no gathers:
 * slow on AMD and, since the Gather Data Sampling microcode fix, on
 * Intel).  An odd last lane is read 8 bytes at a time.  The states are
 * loaded and stored the same way, once per call.
 */
#include <stdint.h>

#include "avx512_ops.h"
#include "keccak_rc.h"
#include "kernels_x86.h"
#include "keccak_round.h"

#define FH_XN 8

#define FH_LANE fh_zmm
#define FH_XOR(a, b) FH_Z_XOR(a, b)
#define FH_XOR5(a, b, c, d, e) \
	FH_Z_TERNLOG64(FH_Z_TERNLOG64(a, b, c, FH_TL_XOR3), d, e, FH_TL_XOR3)
/* VPROLQ by 0 (lane A[0,0]) is the identity. */
#define FH_ROL(x, n) FH_Z_ROL64(x, n)
#define FH_THETA_D(c0, c2) FH_Z_XOR(c0, FH_Z_ROL64(c2, 1))
#define FH_CHI(a, b, c) FH_Z_TERNLOG64(a, b, c, FH_TL_CHI)
#define FH_IOTA(x, i) FH_Z_XOR(x, FH_Z_SET1_64(fh_keccak_rc[i]))

/* Lanes 0..N-1 of the eight inputs at P[s] + OFF, little-endian: element
 * s of OUT[j] is lane j of input s. */
static inline void load_lanes(fh_zmm *out, const uint8_t *const *p,
			      size_t off, size_t n)
{
	size_t j = 0;

	for (; j + 2 <= n; j += 2, off += 16) {
		fh_zmm r0 = FH_Z_LOAD4X128(p[0] + off, p[2] + off, p[4] + off,
					   p[6] + off);
		fh_zmm r1 = FH_Z_LOAD4X128(p[1] + off, p[3] + off, p[5] + off,
					   p[7] + off);

		out[j] = FH_Z_UNPACKLO64(r0, r1);
		out[j + 1] = FH_Z_UNPACKHI64(r0, r1);
	}
	if (j < n) {
		fh_zmm r0 = FH_Z_LOAD4X64(p[0] + off, p[2] + off, p[4] + off,
					  p[6] + off);
		fh_zmm r1 = FH_Z_LOAD4X64(p[1] + off, p[3] + off, p[5] + off,
					  p[7] + off);

		out[j] = FH_Z_UNPACKLO64(r0, r1);
	}
}

/* The inverse of load_lanes at offset 0. */
static inline void store_lanes(uint8_t *const *p, const fh_zmm *v, size_t n)
{
	size_t j = 0, off = 0;

	for (; j + 2 <= n; j += 2, off += 16) {
		fh_zmm r0 = FH_Z_UNPACKLO64(v[j], v[j + 1]);
		fh_zmm r1 = FH_Z_UNPACKHI64(v[j], v[j + 1]);

		FH_Z_STORE4X128(r0, p[0] + off, p[2] + off, p[4] + off,
				p[6] + off);
		FH_Z_STORE4X128(r1, p[1] + off, p[3] + off, p[5] + off,
				p[7] + off);
	}
	if (j < n) {
		fh_zmm r0 = FH_Z_UNPACKLO64(v[j], v[j]);
		fh_zmm r1 = FH_Z_UNPACKHI64(v[j], v[j]);

		FH_Z_STORE4X64(r0, p[0] + off, p[2] + off, p[4] + off,
			       p[6] + off);
		FH_Z_STORE4X64(r1, p[1] + off, p[3] + off, p[5] + off,
			       p[7] + off);
	}
}

/* The absorb loop, inlined into the entry point once per round count. */
static inline __attribute__((always_inline)) void
absorb_x8(uint64_t (*states)[25], const uint8_t *const *data, size_t nblocks,
	  size_t rate, unsigned rounds)
{
	uint8_t *sp[FH_XN];
	fh_zmm s[25];

	if (!nblocks)
		return;
	for (int i = 0; i < FH_XN; i++)
		sp[i] = (uint8_t *)states[i];
	load_lanes(s, (const uint8_t *const *)sp, 0, 25);

	fh_zmm FH_KECCAK_LANES(a), FH_KECCAK_LANES(e);

#define FH_LOAD(v, i) v = s[i];
	FH_KECCAK_EACH_LANE(FH_LOAD)
#undef FH_LOAD

	for (size_t off = 0; nblocks; nblocks--, off += rate) {
		fh_zmm in[FH_MAX_BLOCK / 8];

		/* XOR the block's rate/8 lanes into the state. */
		load_lanes(in, data, off, rate / 8);
#define FH_IN(v, i) v = FH_XOR(v, in[i])
		FH_KECCAK_EACH_RATE_LANE(rate / 8, FH_IN)
#undef FH_IN
		for (unsigned i = 24 - rounds; i < 24; i += 2) {
			FH_KECCAK_ROUND(a, e, i);
			FH_KECCAK_ROUND(e, a, i + 1);
		}
	}

#define FH_STORE(v, i) s[i] = v;
	FH_KECCAK_EACH_LANE(FH_STORE)
#undef FH_STORE
	store_lanes(sp, s, 25);
}

/* One copy of the loop per round count (kernels_x86.h says why). */
FH_KECCAK_MULTI_ENTRY(avx512x8, absorb_x8)

const struct fh_kernel fh_keccak_avx512x8 = {
	.name = "keccak-avx512x8",
	.family = FH_FAMILY_KECCAK,
	.lanes = FH_XN,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.blocks_xn = FH_KERNEL_FN(fh_keccak_absorb_xn_fn, fh_keccak_absorb_avx512x8),
};
