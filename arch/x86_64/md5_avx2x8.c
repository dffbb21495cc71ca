/* md5_avx2x8.c: MD5 compression of eight independent messages at once, one
 * per 32-bit element of the AVX2 YMM registers.  ISA: x86-64 + AVX2, built
 * with -mavx2 (FH_CPU_X86_AVX2).  8 lanes.
 *
 * Measured on an AMD EPYC Zen 3 (about 3.05 GHz by a dependent ADD chain;
 * `fhsum --benchmark`, all lanes busy on 16 KiB buffers, CPU time, kernels
 * alternating, medians of 5 runs): 3750 MB/s aggregate against 657 for
 * md5-bmi, 5.68x (5.53-5.81 across runs), about 0.81 cycles/byte; the
 * kernel alone, without the single-stream tails and padding those whole
 * hashes include, 3.85-3.93 GB/s (5.7-5.8x).  On an AMD EPYC Zen 4 (about
 * 3.66 GHz, gcc 12, medians of 7 runs): 4.78 GB/s, 6.1x md5-bmi, 0.77
 * cycles/byte, the kernel alone 0.74.
 *
 * Two interleaved sets of eight are md5-avx2x16 (md5_avx2x16.c), 9.0x on
 * that Zen 4.  An earlier try of them gained only 14% on the Zen 3.  On
 * the Zen 4 that shape, transposing both sets word by word at each
 * block's start, gained 29% with the lanes' buffers at one page offset
 * (as --benchmark's are) and 57% with them apart: the word-major loads
 * reread each lane's block while all the lanes' blocks fight over one
 * set of the L1 cache, which may be what held the Zen 3 try back.
 * This kernel stays for when only a few lanes are busy.
 *
 * Shape: element i of every vector belongs to lane i, so a step is the
 * scalar step done eight times over, with no shuffles.  AVX2 has no rotate
 * (three operations: two shifts and an OR) and no three-input logic, so a
 * step is 9-10 vector operations and b passes through 5-6 of them: the
 * chain, not the 4 vector pipes, sets the speed (perf-anchors §3.3 puts
 * the throughput bound near 0.45 cycles/byte against the chain's 0.7).
 * The round functions are arranged as in md5_bmi.S so that b reaches the
 * new b through as few operations as possible (F = d ^ (b & (c ^ d)), G
 * split into two ANDs whose sum needs no OR, H with c ^ d first): 6, 5, 5
 * and 6 operations from b to the new b for F, G, H and I.
 *
 * The message words are transposed once per block into X[0..15] on the
 * stack, where each step reads its word as a memory operand: each lane's
 * block is loaded 16 bytes at a time, lane i into the low half of a row
 * and lane i + 4 into its high half, and two unpack stages inside each
 * 128-bit half finish the 4x4 transposes (no lane-crossing shuffle).  The
 * chaining values are loaded and stored the same way, once per call.
 */
#include <immintrin.h>
#include <stdint.h>

#include "kernels_x86.h"
#include "md5_avx2_lanes.h"
#include "md5_steps.h"

#define FH_XN 8

/* T[i] is tab[i - 1], tab being md5_t seen through an empty asm: the
 * compiler cannot then fold it into immediates, which it would turn into
 * a GPR move, a cross-domain move and a broadcast per step (8% slower
 * here); from memory a broadcast is a load. */
static const uint32_t md5_t[64] = { FH_MD5_T };
#define V_T(i) _mm256_set1_epi32((int)tab[(i) - 1])

/* The steps of RFC 1321 §3.4.  Each starts with a += T + X[k], which does
 * not wait for b; b arrives last, through the round function.  Without the
 * empty asm the compiler may reassociate the adds and put T + X[k] after
 * the round function, on the chain. */
#define FH_KEEP(v) __asm__("" : "+x"(v))

/* F(b,c,d) = (b & c) | (~b & d) = d ^ (b & (c ^ d)): b passes AND, XOR. */
#define FH_MD5_F(a, b, c, d, k, s, i)                                      \
	do {                                                               \
		a = V_ADD(a, V_ADD(x[k], V_T(i)));                         \
		FH_KEEP(a);                                                \
		a = V_ADD(a, V_XOR(d, V_AND(b, V_XOR(c, d))));             \
		a = V_ADD(v_rol(a, s), b);                                 \
	} while (0)

/* G(b,c,d) = (b & d) | (c & ~d) = (b & d) + (c & ~d): the halves have no
 * bit in common, and c & ~d joins a before b is known. */
#define FH_MD5_G(a, b, c, d, k, s, i)                                      \
	do {                                                               \
		a = V_ADD(a, V_ADD(x[k], V_T(i)));                         \
		a = V_ADD(a, V_ANDNOT(d, c));                              \
		FH_KEEP(a);                                                \
		a = V_ADD(a, V_AND(b, d));                                 \
		a = V_ADD(v_rol(a, s), b);                                 \
	} while (0)

/* H(b,c,d) = b ^ c ^ d, with c ^ d computed before b is known. */
#define FH_MD5_H(a, b, c, d, k, s, i)                                      \
	do {                                                               \
		a = V_ADD(a, V_ADD(x[k], V_T(i)));                         \
		FH_KEEP(a);                                                \
		a = V_ADD(a, V_XOR(b, V_XOR(c, d)));                       \
		a = V_ADD(v_rol(a, s), b);                                 \
	} while (0)

/* I(b,c,d) = c ^ (b | ~d): ~d is ready before b, which passes OR, XOR.
 * (md5_bmi.S saves the NOT by folding a -1 into its immediate constant;
 * here T comes from memory and the -1 would cost the same add.) */
#define FH_MD5_I(a, b, c, d, k, s, i)                                      \
	do {                                                               \
		a = V_ADD(a, V_ADD(x[k], V_T(i)));                         \
		FH_KEEP(a);                                                \
		a = V_ADD(a, V_XOR(c, V_OR(b, V_XOR(d, ones))));           \
		a = V_ADD(v_rol(a, s), b);                                 \
	} while (0)

static void fh_md5_blocks_avx2x8(uint32_t (*states)[4],
				 const uint8_t *const *data, size_t nblocks)
{
	uint8_t *st[FH_XN];
	V s[4];
	const uint32_t *tab = md5_t;
	const V ones = _mm256_set1_epi32(-1);

	if (!nblocks)
		return;
	__asm__("" : "+r"(tab));
	for (int i = 0; i < FH_XN; i++)
		st[i] = (uint8_t *)states[i];
	load4(s, (const uint8_t *const *)st, 0);
	V a = s[0], b = s[1], c = s[2], d = s[3];

	for (size_t off = 0; nblocks; nblocks--, off += 64) {
		V x[16];
		V a0 = a, b0 = b, c0 = c, d0 = d;

		load4(x + 0, data, off);
		load4(x + 4, data, off + 16);
		load4(x + 8, data, off + 32);
		load4(x + 12, data, off + 48);
		FH_MD5_STEPS(a, b, c, d);
		a = V_ADD(a, a0);
		b = V_ADD(b, b0);
		c = V_ADD(c, c0);
		d = V_ADD(d, d0);
	}
	s[0] = a;
	s[1] = b;
	s[2] = c;
	s[3] = d;
	store4(st, s);
}

const struct fh_kernel fh_md5_avx2x8 = {
	.name = "md5-avx2x8",
	.family = FH_FAMILY_MD5,
	.lanes = FH_XN,
	.features = FH_CPU_X86_AVX2,
	/* Not on Zen 5, where md5-avx512x16 runs few lanes faster. */
	.prefer = FH_CPU_X86_AVX2_NARROW,
	.blocks_xn = FH_KERNEL_FN(fh_md5_blocks_xn_fn, fh_md5_blocks_avx2x8),
};
