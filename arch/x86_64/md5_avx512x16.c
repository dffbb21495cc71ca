/* md5_avx512x16.c: MD5 compression of sixteen independent messages at once,
 * one per 32-bit element of the AVX-512 ZMM registers.  ISA: x86-64 +
 * AVX-512F; built in the AVX-512 library with -mavx512f -mavx512vl, so it
 * asks for both (FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL).  16 lanes.
 *
 * NEVER EXECUTED ON AVX-512 HARDWARE: it was written on an AMD Zen 3
 * machine without AVX-512, where neither the CPU nor qemu 7.2 runs it.
 * Its logic (truth tables, rotations, constants, word order and the
 * transposes of the message and the chaining values) runs here against
 * the portable kernel, lane by lane, through the plain-C emulation of its
 * operations in avx512_ops.h (arch/x86_64/test_avx512_emu.c); the steps
 * themselves are md5_steps.h's, which md5-avx2x8 runs natively.  The
 * compiled AVX-512 code is tested only where tests/unit's `kernel
 * md5-avx512x16` runs on a CPU with AVX-512.  Speed: not measured.  The
 * published figure for this shape is 8.23 GB/s, 0.36 cycles/byte
 * aggregate on one Skylake-SP core (minio/md5-simd, with gathers), and
 * the bound is about 0.25 (perf-anchors §3.3); dispatch lists it after
 * md5-avx2x8 until a machine with AVX-512 has measured it.
 *
 * Shape: element i of every vector belongs to lane i.  VPTERNLOGD makes
 * each of F, G, H and I one operation and VPROLD the rotate one more, so b
 * reaches the new b through four one-cycle operations (ternlog, add,
 * rotate, add): 4 cycles a step, 256 a block for all sixteen lanes.  A
 * step is about 6 operations and the transposes add about 1.25, some 470
 * a block on the two 512-bit ports (about 235 cycles), so one set of 16
 * lanes is already at the chain's bound: a second interleaved set (32
 * lanes, isa-l_crypto's x16x2) would gain at most about 10% and needs
 * more lanes than FH_MAX_LANES, and twice as many files in flight.
 *
 * The message words are transposed once per block into X[0..15] on the
 * stack, read by each step as a memory operand: each lane's block is read
 * 16 bytes at a time, lanes i, i + 4, i + 8 and i + 12 into the four
 * 128-bit quarters of row i, and two unpack stages inside the quarters
 * finish the 4x4 transposes (no lane-crossing shuffle; no gathers, which
 * are slow on AMD and, since the Gather Data Sampling microcode fix, on
 * Intel too).  The chaining values are loaded and stored the same way.
 */
#include <stdint.h>

#include "avx512_ops.h"
#include "kernels_x86.h"
#include "md5_steps.h"

#define FH_XN 16

/* T[i] is tab[i - 1], tab being md5_t seen through an empty asm, so the
 * compiler adds it from memory (an embedded broadcast) rather than
 * building each constant in a register (as in md5_avx2x8.c). */
static const uint32_t md5_t[64] = { FH_MD5_T };
#define FH_T(i) FH_Z_SET1_32(tab[(i) - 1])

/* Transposes the 4x4 matrices of 32-bit words in each 128-bit quarter:
 * word j of R[i] becomes word i of R[j].  Its own inverse. */
static inline void transpose4(fh_zmm r[4])
{
	fh_zmm t0 = FH_Z_UNPACKLO32(r[0], r[1]);
	fh_zmm t1 = FH_Z_UNPACKHI32(r[0], r[1]);
	fh_zmm t2 = FH_Z_UNPACKLO32(r[2], r[3]);
	fh_zmm t3 = FH_Z_UNPACKHI32(r[2], r[3]);

	r[0] = FH_Z_UNPACKLO64(t0, t2);
	r[1] = FH_Z_UNPACKHI64(t0, t2);
	r[2] = FH_Z_UNPACKLO64(t1, t3);
	r[3] = FH_Z_UNPACKHI64(t1, t3);
}

/* Words 0..3 of the 16 bytes at P[i] + OFF of every lane i: element i of
 * OUT[j] is lane i's word j. */
static inline void load4(fh_zmm out[4], const uint8_t *const *p, size_t off)
{
	for (int i = 0; i < 4; i++)
		out[i] = FH_Z_LOAD4X128(p[i] + off, p[i + 4] + off,
					p[i + 8] + off, p[i + 12] + off);
	transpose4(out);
}

/* The inverse of load4: element i of V[j] to word j at P[i]. */
static inline void store4(uint8_t *const *p, fh_zmm v[4])
{
	transpose4(v);
	for (int i = 0; i < 4; i++)
		FH_Z_STORE4X128(v[i], p[i], p[i + 4], p[i + 8], p[i + 12]);
}

/* a = b + ((a + FN(b, c, d) + X[k] + T[i]) <<< s), RFC 1321 §3.4.  The
 * sum a + T[i] + X[k] comes first: it does not wait for b.  Compilers
 * reassociate integer adds, and left alone they may add T + X[k] after
 * the round function, one more cycle on the chain; FH_Z_KEEP stops that.
 *
 * VPTERNLOGD overwrites its first input, and all three inputs live on
 * (as the next steps' a, d and c), so the compiler copies the first one
 * first: the inputs go in as (d, c, b), so that the copy is of d, which is
 * ready early, and not of b, the chain's value.  The truth tables are
 * those of F, G, H and I for that order (bit 4d + 2c + b). */
#define FH_STEP(fn, a, b, c, d, k, s, i)                                   \
	do {                                                               \
		a = FH_Z_ADD32(a, FH_Z_ADD32(x[k], FH_T(i)));              \
		FH_Z_KEEP(a);                                              \
		a = FH_Z_ADD32(a, FH_Z_TERNLOG32(d, c, b, fn));            \
		a = FH_Z_ADD32(FH_Z_ROL32(a, s), b);                       \
	} while (0)

#define FH_TL_F_DCB 0xd8 /* (b & c) | (~b & d) */
#define FH_TL_G_DCB 0xac /* (b & d) | (c & ~d) */
#define FH_TL_H_DCB 0x96 /* b ^ c ^ d */
#define FH_TL_I_DCB 0x63 /* c ^ (b | ~d) */

#define FH_MD5_F(a, b, c, d, k, s, i) FH_STEP(FH_TL_F_DCB, a, b, c, d, k, s, i)
#define FH_MD5_G(a, b, c, d, k, s, i) FH_STEP(FH_TL_G_DCB, a, b, c, d, k, s, i)
#define FH_MD5_H(a, b, c, d, k, s, i) FH_STEP(FH_TL_H_DCB, a, b, c, d, k, s, i)
#define FH_MD5_I(a, b, c, d, k, s, i) FH_STEP(FH_TL_I_DCB, a, b, c, d, k, s, i)

static void fh_md5_blocks_avx512x16(uint32_t (*states)[4],
				    const uint8_t *const *data, size_t nblocks)
{
	uint8_t *st[FH_XN];
	fh_zmm s[4];
	const uint32_t *tab = md5_t;

	if (!nblocks)
		return;
	__asm__("" : "+r"(tab));
	for (int i = 0; i < FH_XN; i++)
		st[i] = (uint8_t *)states[i];
	load4(s, (const uint8_t *const *)st, 0);
	fh_zmm a = s[0], b = s[1], c = s[2], d = s[3];

	for (size_t off = 0; nblocks; nblocks--, off += 64) {
		fh_zmm x[16];
		fh_zmm a0 = a, b0 = b, c0 = c, d0 = d;

		load4(x + 0, data, off);
		load4(x + 4, data, off + 16);
		load4(x + 8, data, off + 32);
		load4(x + 12, data, off + 48);
		FH_MD5_STEPS(a, b, c, d);
		a = FH_Z_ADD32(a, a0);
		b = FH_Z_ADD32(b, b0);
		c = FH_Z_ADD32(c, c0);
		d = FH_Z_ADD32(d, d0);
	}
	s[0] = a;
	s[1] = b;
	s[2] = c;
	s[3] = d;
	store4(st, s);
}

const struct fh_kernel fh_md5_avx512x16 = {
	.name = "md5-avx512x16",
	.family = FH_FAMILY_MD5,
	.lanes = FH_XN,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.md5_blocks_xn = fh_md5_blocks_avx512x16,
};
