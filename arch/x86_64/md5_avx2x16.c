/* md5_avx2x16.c: MD5 compression of 16 independent messages at once, as
 * two interleaved sets of eight, one message per 32-bit element of the
 * AVX2 YMM registers, set n being lanes 8n .. 8n + 7.  ISA: x86-64 + AVX2,
 * built with -mavx2 (FH_CPU_X86_AVX2).  16 lanes.
 *
 * Measured on an AMD EPYC Zen 4 (2 cores, shared; about 3.66 GHz by a
 * dependent ADD chain), gcc 12: `fhsum --benchmark -a md5`, every lane busy
 * on a 16 KiB buffer, whole hashes, kernels in turns, medians of 7 runs:
 * 7.05 GB/s aggregate, 9.0x md5-bmi (8.6-9.2x across runs), 0.52
 * cycles/byte, against 4.78 GB/s (6.1x, 0.77) for md5-avx2x8; the kernel
 * alone 0.47 cycles/byte.  clang 14's build ran about 4% slower.
 *
 * Why two sets.  md5-avx2x8 (md5_avx2x8.c, same steps) is bound by its
 * chain: b passes 5-6 one-cycle operations a step, while its 9-10
 * operations would issue in about 2.5 cycles on Zen 4's four vector
 * pipes.  A second, independent set fills those cycles.  Two sets take 8
 * registers of state, a broadcast constant and two or three temporaries
 * each, which is what 16 YMM registers hold with the message read from
 * the stack as memory operands; a third set would spill on every step.
 *
 * The message is transposed a block ahead, as in md5_avx512_sets.h: the
 * next block's transposed copy is built in two pieces (one set each) on
 * steps 9 and 41 of the current block, so its loads and shuffles run
 * beside the chains rather than stall them at each block's start, and
 * each lane's 64-byte block is read in four 16-byte loads close together,
 * since the lanes' buffers often share their page offset and then all
 * fall in one set of the 8-way L1 cache.  The pipelining gained 7-8% with
 * the lanes at equal page offsets, 3% without.  The last block transposes
 * itself again rather than read past the input.
 */
#include <immintrin.h>
#include <stdint.h>

#include "kernels_x86.h"
#include "md5_avx2_lanes.h"
#include "md5_steps.h"

#define FH_XN 16
#define FH_SETS 2

/* T[i] is tab[i - 1], tab being md5_t seen through an empty asm on every
 * block, so each step loads its constant with one broadcast for both sets
 * (as in md5_avx2x8.c). */
static const uint32_t md5_t[64] = { FH_MD5_T };

/* The transposed message of a block: [k][n] is word k of set n's lanes. */
typedef V fh_md5x16_msg[16][FH_SETS];

/* Set N's share of transposing the block at offset OFF of DATA into X. */
static inline void msg_set(fh_md5x16_msg x, const uint8_t *const *data,
			   size_t off, int n)
{
	for (int j = 0; j < 4; j++) {
		V r[4];

		load4(r, data + 8 * n, off + 16 * (size_t)j);
		for (int m = 0; m < 4; m++)
			_mm256_store_si256(&x[4 * j + m][n], r[m]);
	}
}

/* The steps of RFC 1321 §3.4 for one set, with md5_avx2x8.c's round
 * functions and the same reasons: a += X[k] + T first, which does not wait
 * for b (the empty asm stops the compiler from moving it after the round
 * function); F = d ^ (b & (c ^ d)); G as (b & d) + (c & ~d), the halves
 * having no bit in common; H with c ^ d first; I = c ^ (b | ~d). */
#define FH_KEEP(v) __asm__("" : "+x"(v))
#define X(k, n) V_LOAD(&cur[k][n])

#define FH_F1(a, b, c, d, k, s, n)                                         \
	a = V_ADD(a, V_ADD(X(k, n), t_));                                  \
	FH_KEEP(a);                                                        \
	a = V_ADD(a, V_XOR(d, V_AND(b, V_XOR(c, d))));                     \
	a = V_ADD(v_rol(a, s), b)
#define FH_G1(a, b, c, d, k, s, n)                                         \
	a = V_ADD(a, V_ADD(X(k, n), t_));                                  \
	a = V_ADD(a, V_ANDNOT(d, c));                                      \
	FH_KEEP(a);                                                        \
	a = V_ADD(a, V_AND(b, d));                                         \
	a = V_ADD(v_rol(a, s), b)
#define FH_H1(a, b, c, d, k, s, n)                                         \
	a = V_ADD(a, V_ADD(X(k, n), t_));                                  \
	FH_KEEP(a);                                                        \
	a = V_ADD(a, V_XOR(b, V_XOR(c, d)));                               \
	a = V_ADD(v_rol(a, s), b)
#define FH_I1(a, b, c, d, k, s, n)                                         \
	a = V_ADD(a, V_ADD(X(k, n), t_));                                  \
	FH_KEEP(a);                                                        \
	a = V_ADD(a, V_XOR(c, V_OR(b, V_XOR(d, ones))));                   \
	a = V_ADD(v_rol(a, s), b)

/* Step I of both sets; on steps 9 and 41 one set's share of the next
 * block's transpose. */
#define FH_STEP2(one, a, b, c, d, k, s, i)                                 \
	do {                                                               \
		V t_ = _mm256_set1_epi32((int)tab[(i) - 1]);               \
		one(a##0, b##0, c##0, d##0, k, s, 0);                      \
		one(a##1, b##1, c##1, d##1, k, s, 1);                      \
		if ((i) % 32 == 9)                                         \
			msg_set(nxt, data, noff, (i) / 32);                \
	} while (0)

#define FH_MD5_F(a, b, c, d, k, s, i) FH_STEP2(FH_F1, a, b, c, d, k, s, i)
#define FH_MD5_G(a, b, c, d, k, s, i) FH_STEP2(FH_G1, a, b, c, d, k, s, i)
#define FH_MD5_H(a, b, c, d, k, s, i) FH_STEP2(FH_H1, a, b, c, d, k, s, i)
#define FH_MD5_I(a, b, c, d, k, s, i) FH_STEP2(FH_I1, a, b, c, d, k, s, i)

static void fh_md5_blocks_avx2x16(uint32_t (*states)[4],
				  const uint8_t *const *data, size_t nblocks)
{
	_Alignas(32) fh_md5x16_msg xbuf[2];
	uint8_t *st[FH_XN];
	V s[4];
	const V ones = _mm256_set1_epi32(-1);

	if (!nblocks)
		return;
	for (int i = 0; i < FH_XN; i++)
		st[i] = (uint8_t *)states[i];
	load4(s, (const uint8_t *const *)st, 0);
	V a0 = s[0], b0 = s[1], c0 = s[2], d0 = s[3];
	load4(s, (const uint8_t *const *)st + 8, 0);
	V a1 = s[0], b1 = s[1], c1 = s[2], d1 = s[3];

	msg_set(xbuf[0], data, 0, 0);
	msg_set(xbuf[0], data, 0, 1);
	for (size_t off = 0, w = 0; nblocks; nblocks--, off += 64, w ^= 1) {
		V(*cur)[FH_SETS] = xbuf[w];
		V(*nxt)[FH_SETS] = xbuf[w ^ 1];
		size_t noff = nblocks > 1 ? off + 64 : off;
		V aa0 = a0, bb0 = b0, cc0 = c0, dd0 = d0;
		V aa1 = a1, bb1 = b1, cc1 = c1, dd1 = d1;
		const uint32_t *tab = md5_t;

		__asm__("" : "+r"(tab));
		FH_MD5_STEPS(a, b, c, d);
		a0 = V_ADD(a0, aa0);
		b0 = V_ADD(b0, bb0);
		c0 = V_ADD(c0, cc0);
		d0 = V_ADD(d0, dd0);
		a1 = V_ADD(a1, aa1);
		b1 = V_ADD(b1, bb1);
		c1 = V_ADD(c1, cc1);
		d1 = V_ADD(d1, dd1);
		/* The copies are read back from memory, not kept in
		 * registers across the loop, which 16 cannot hold. */
		__asm__("" ::: "memory");
	}
	s[0] = a0;
	s[1] = b0;
	s[2] = c0;
	s[3] = d0;
	store4(st, s);
	s[0] = a1;
	s[1] = b1;
	s[2] = c1;
	s[3] = d1;
	store4(st + 8, s);
}

const struct fh_kernel fh_md5_avx2x16 = {
	.name = "md5-avx2x16",
	.family = FH_FAMILY_MD5,
	.lanes = FH_XN,
	.features = FH_CPU_X86_AVX2,
	.blocks_xn = FH_KERNEL_FN(fh_md5_blocks_xn_fn, fh_md5_blocks_avx2x16),
};
