/* avx512_ops.h: the two AVX-512VL operations the AVX-512 kernels use, on
 * XMM registers: VPTERNLOGD/Q (any function of three inputs, chosen by an
 * 8-bit truth table) and VPROLD/Q (rotate each element left).  Only static
 * inline helpers and macros.
 *
 * Normally these are the compiler's intrinsics.  With FH_AVX512_EMULATE
 * defined they are plain C with the semantics of the Intel SDM instead, so
 * that arch/x86_64/test_avx512_emu.c can run the AVX-512 kernels' logic,
 * truth tables included, on a CPU without AVX-512 (such as the machines this
 * project is developed on).  The emulation proves the algorithm and the
 * constants; it cannot prove the compiler's AVX-512 code generation, which
 * only a run on AVX-512 hardware does (tests/unit's kernel tests).
 */
#ifndef FH_AVX512_OPS_H
#define FH_AVX512_OPS_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#ifndef FH_AVX512_EMULATE

/* Bit i of IMM is the result for inputs (a, b, c) with i = 4a + 2b + c. */
#define FH_TERNLOG32(a, b, c, imm) _mm_ternarylogic_epi32(a, b, c, imm)
#define FH_TERNLOG64(a, b, c, imm) _mm_ternarylogic_epi64(a, b, c, imm)
#define FH_ROL32X(x, n) _mm_rol_epi32(x, n)
#define FH_ROL64X(x, n) _mm_rol_epi64(x, n)

#else

/* VPTERNLOG, Intel SDM vol. 2C: for every bit position, the result bit is
 * bit (4a + 2b + c) of IMM.  Element width does not change the result. */
static inline __m128i fh_emu_ternlog(__m128i a, __m128i b, __m128i c,
				     unsigned imm)
{
	uint64_t x[2], y[2], z[2], r[2];

	memcpy(x, &a, 16);
	memcpy(y, &b, 16);
	memcpy(z, &c, 16);
	for (int w = 0; w < 2; w++) {
		r[w] = 0;
		for (unsigned i = 0; i < 8; i++) {
			if (!(imm >> i & 1))
				continue;
			r[w] |= (i & 4 ? x[w] : ~x[w]) & (i & 2 ? y[w] : ~y[w]) &
				(i & 1 ? z[w] : ~z[w]);
		}
	}
	__m128i v;
	memcpy(&v, r, 16);
	return v;
}

/* VPROLD: each 32-bit element rotated left by N mod 32. */
static inline __m128i fh_emu_rol32(__m128i x, unsigned n)
{
	uint32_t e[4];

	n &= 31;
	memcpy(e, &x, 16);
	for (int i = 0; i < 4; i++)
		e[i] = n ? e[i] << n | e[i] >> (32 - n) : e[i];
	memcpy(&x, e, 16);
	return x;
}

/* VPROLQ: each 64-bit element rotated left by N mod 64. */
static inline __m128i fh_emu_rol64(__m128i x, unsigned n)
{
	uint64_t e[2];

	n &= 63;
	memcpy(e, &x, 16);
	for (int i = 0; i < 2; i++)
		e[i] = n ? e[i] << n | e[i] >> (64 - n) : e[i];
	memcpy(&x, e, 16);
	return x;
}

#define FH_TERNLOG32(a, b, c, imm) fh_emu_ternlog(a, b, c, imm)
#define FH_TERNLOG64(a, b, c, imm) fh_emu_ternlog(a, b, c, imm)
#define FH_ROL32X(x, n) fh_emu_rol32(x, n)
#define FH_ROL64X(x, n) fh_emu_rol64(x, n)

#endif

/* Truth tables, derived from bit i = f(a, b, c) with i = 4a + 2b + c. */
#define FH_TL_XOR3 0x96    /* a ^ b ^ c */
#define FH_TL_SELECT 0xca  /* (a & b) | (~a & c): MD5's F(b, c, d) */
#define FH_TL_MD5_G 0xe4   /* (a & c) | (b & ~c): MD5's G(b, c, d) */
#define FH_TL_MD5_I 0x39   /* b ^ (a | ~c): MD5's I(b, c, d) */
#define FH_TL_CHI 0xd2     /* a ^ (~b & c): Keccak's chi */

#endif
