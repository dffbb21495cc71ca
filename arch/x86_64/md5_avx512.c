/* md5_avx512.c: MD5 compression in one 32-bit lane of the AVX-512VL XMM
 * registers.  ISA: x86-64 + AVX-512F + AVX-512VL, built with -mavx512f
 * -mavx512vl (FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL).  One lane.
 *
 * Measured on AMD Zen 4 (EPYC, family 25 model 17; `fhsum --benchmark -a
 * md5`, one core, 16 KiB buffers): 654 MB/s against 785 for md5-bmi,
 * 0.83x, as VPROLD takes two cycles there.  The published figure for this
 * shape is 4.05 cycles/byte on Skylake-X against 4.55 for the best
 * general-register code (animetosho/md5-optimisation), where rotates take
 * one: so it is the default only with FH_CPU_X86_VPROL_FAST, which
 * lib/cpu_traits.c sets for Intel's AVX-512 cores.  Its logic is also
 * checked on CPUs without AVX-512 through the emulation in avx512_ops.h
 * (arch/x86_64/test_avx512_emu.c).
 *
 * Why: VPTERNLOGD computes each of F, G, H and I in one operation, so b
 * reaches the new b through four one-cycle operations (ternlog, add,
 * rotate, add) in every step: the 4.0 cycles/byte floor (perf-anchors
 * §3.1), against 4.5 for general registers.  T[i] + X[k] is summed in a
 * general register and added into a before the round function is known.
 */
#include <stdint.h>
#include <string.h>

#include "avx512_ops.h"
#include "kernels_x86.h"

/* Compilers reassociate integer adds, and left alone they add T + X[k]
 * after the round function, one more cycle on the chain; the empty asm
 * makes the early sum a value of its own. */
#define FH_KEEP(v) __asm__("" : "+v"(v))

/* a = b + ((a + T + X[k] + FN(b, c, d)) <<< s), RFC 1321 §3.4.  The sum
 * T + X[k] + a comes first: it does not wait for b. */
#define FH_STEP(fn, a, b, c, d, k, s, t)                                    \
	do {                                                                \
		a = _mm_add_epi32(a, _mm_cvtsi32_si128((int)(uint32_t)(    \
					     (t) + x[k])));                 \
		FH_KEEP(a);                                                 \
		a = _mm_add_epi32(a, FH_TERNLOG32(b, c, d, fn));            \
		a = _mm_add_epi32(FH_ROL32X(a, s), b);                      \
	} while (0)

static void fh_md5_blocks_avx512(uint32_t state[4], const uint8_t *data,
				 size_t nblocks)
{
	__m128i a = _mm_cvtsi32_si128((int)state[0]);
	__m128i b = _mm_cvtsi32_si128((int)state[1]);
	__m128i c = _mm_cvtsi32_si128((int)state[2]);
	__m128i d = _mm_cvtsi32_si128((int)state[3]);

	for (; nblocks; nblocks--, data += 64) {
		uint32_t x[16];
		__m128i a0 = a, b0 = b, c0 = c, d0 = d;

		/* x86 is little-endian: the words load as they are. */
		memcpy(x, data, 64);
		/* Steps 1-64 with X[k], s and T[i] from RFC 1321 §3.4; the
		 * names rotate instead of the values. */
		FH_STEP(FH_TL_SELECT, a, b, c, d,  0,  7, 0xd76aa478);
		FH_STEP(FH_TL_SELECT, d, a, b, c,  1, 12, 0xe8c7b756);
		FH_STEP(FH_TL_SELECT, c, d, a, b,  2, 17, 0x242070db);
		FH_STEP(FH_TL_SELECT, b, c, d, a,  3, 22, 0xc1bdceee);
		FH_STEP(FH_TL_SELECT, a, b, c, d,  4,  7, 0xf57c0faf);
		FH_STEP(FH_TL_SELECT, d, a, b, c,  5, 12, 0x4787c62a);
		FH_STEP(FH_TL_SELECT, c, d, a, b,  6, 17, 0xa8304613);
		FH_STEP(FH_TL_SELECT, b, c, d, a,  7, 22, 0xfd469501);
		FH_STEP(FH_TL_SELECT, a, b, c, d,  8,  7, 0x698098d8);
		FH_STEP(FH_TL_SELECT, d, a, b, c,  9, 12, 0x8b44f7af);
		FH_STEP(FH_TL_SELECT, c, d, a, b, 10, 17, 0xffff5bb1);
		FH_STEP(FH_TL_SELECT, b, c, d, a, 11, 22, 0x895cd7be);
		FH_STEP(FH_TL_SELECT, a, b, c, d, 12,  7, 0x6b901122);
		FH_STEP(FH_TL_SELECT, d, a, b, c, 13, 12, 0xfd987193);
		FH_STEP(FH_TL_SELECT, c, d, a, b, 14, 17, 0xa679438e);
		FH_STEP(FH_TL_SELECT, b, c, d, a, 15, 22, 0x49b40821);

		FH_STEP(FH_TL_MD5_G, a, b, c, d,  1,  5, 0xf61e2562);
		FH_STEP(FH_TL_MD5_G, d, a, b, c,  6,  9, 0xc040b340);
		FH_STEP(FH_TL_MD5_G, c, d, a, b, 11, 14, 0x265e5a51);
		FH_STEP(FH_TL_MD5_G, b, c, d, a,  0, 20, 0xe9b6c7aa);
		FH_STEP(FH_TL_MD5_G, a, b, c, d,  5,  5, 0xd62f105d);
		FH_STEP(FH_TL_MD5_G, d, a, b, c, 10,  9, 0x02441453);
		FH_STEP(FH_TL_MD5_G, c, d, a, b, 15, 14, 0xd8a1e681);
		FH_STEP(FH_TL_MD5_G, b, c, d, a,  4, 20, 0xe7d3fbc8);
		FH_STEP(FH_TL_MD5_G, a, b, c, d,  9,  5, 0x21e1cde6);
		FH_STEP(FH_TL_MD5_G, d, a, b, c, 14,  9, 0xc33707d6);
		FH_STEP(FH_TL_MD5_G, c, d, a, b,  3, 14, 0xf4d50d87);
		FH_STEP(FH_TL_MD5_G, b, c, d, a,  8, 20, 0x455a14ed);
		FH_STEP(FH_TL_MD5_G, a, b, c, d, 13,  5, 0xa9e3e905);
		FH_STEP(FH_TL_MD5_G, d, a, b, c,  2,  9, 0xfcefa3f8);
		FH_STEP(FH_TL_MD5_G, c, d, a, b,  7, 14, 0x676f02d9);
		FH_STEP(FH_TL_MD5_G, b, c, d, a, 12, 20, 0x8d2a4c8a);

		FH_STEP(FH_TL_XOR3, a, b, c, d,  5,  4, 0xfffa3942);
		FH_STEP(FH_TL_XOR3, d, a, b, c,  8, 11, 0x8771f681);
		FH_STEP(FH_TL_XOR3, c, d, a, b, 11, 16, 0x6d9d6122);
		FH_STEP(FH_TL_XOR3, b, c, d, a, 14, 23, 0xfde5380c);
		FH_STEP(FH_TL_XOR3, a, b, c, d,  1,  4, 0xa4beea44);
		FH_STEP(FH_TL_XOR3, d, a, b, c,  4, 11, 0x4bdecfa9);
		FH_STEP(FH_TL_XOR3, c, d, a, b,  7, 16, 0xf6bb4b60);
		FH_STEP(FH_TL_XOR3, b, c, d, a, 10, 23, 0xbebfbc70);
		FH_STEP(FH_TL_XOR3, a, b, c, d, 13,  4, 0x289b7ec6);
		FH_STEP(FH_TL_XOR3, d, a, b, c,  0, 11, 0xeaa127fa);
		FH_STEP(FH_TL_XOR3, c, d, a, b,  3, 16, 0xd4ef3085);
		FH_STEP(FH_TL_XOR3, b, c, d, a,  6, 23, 0x04881d05);
		FH_STEP(FH_TL_XOR3, a, b, c, d,  9,  4, 0xd9d4d039);
		FH_STEP(FH_TL_XOR3, d, a, b, c, 12, 11, 0xe6db99e5);
		FH_STEP(FH_TL_XOR3, c, d, a, b, 15, 16, 0x1fa27cf8);
		FH_STEP(FH_TL_XOR3, b, c, d, a,  2, 23, 0xc4ac5665);

		FH_STEP(FH_TL_MD5_I, a, b, c, d,  0,  6, 0xf4292244);
		FH_STEP(FH_TL_MD5_I, d, a, b, c,  7, 10, 0x432aff97);
		FH_STEP(FH_TL_MD5_I, c, d, a, b, 14, 15, 0xab9423a7);
		FH_STEP(FH_TL_MD5_I, b, c, d, a,  5, 21, 0xfc93a039);
		FH_STEP(FH_TL_MD5_I, a, b, c, d, 12,  6, 0x655b59c3);
		FH_STEP(FH_TL_MD5_I, d, a, b, c,  3, 10, 0x8f0ccc92);
		FH_STEP(FH_TL_MD5_I, c, d, a, b, 10, 15, 0xffeff47d);
		FH_STEP(FH_TL_MD5_I, b, c, d, a,  1, 21, 0x85845dd1);
		FH_STEP(FH_TL_MD5_I, a, b, c, d,  8,  6, 0x6fa87e4f);
		FH_STEP(FH_TL_MD5_I, d, a, b, c, 15, 10, 0xfe2ce6e0);
		FH_STEP(FH_TL_MD5_I, c, d, a, b,  6, 15, 0xa3014314);
		FH_STEP(FH_TL_MD5_I, b, c, d, a, 13, 21, 0x4e0811a1);
		FH_STEP(FH_TL_MD5_I, a, b, c, d,  4,  6, 0xf7537e82);
		FH_STEP(FH_TL_MD5_I, d, a, b, c, 11, 10, 0xbd3af235);
		FH_STEP(FH_TL_MD5_I, c, d, a, b,  2, 15, 0x2ad7d2bb);
		FH_STEP(FH_TL_MD5_I, b, c, d, a,  9, 21, 0xeb86d391);

		a = _mm_add_epi32(a, a0);
		b = _mm_add_epi32(b, b0);
		c = _mm_add_epi32(c, c0);
		d = _mm_add_epi32(d, d0);
	}
	state[0] = (uint32_t)_mm_cvtsi128_si32(a);
	state[1] = (uint32_t)_mm_cvtsi128_si32(b);
	state[2] = (uint32_t)_mm_cvtsi128_si32(c);
	state[3] = (uint32_t)_mm_cvtsi128_si32(d);
}

const struct fh_kernel fh_md5_avx512 = {
	.name = "md5-avx512",
	.family = FH_FAMILY_MD5,
	.lanes = 1,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.prefer = FH_CPU_X86_VPROL_FAST,
	.blocks = FH_KERNEL_FN(fh_md5_blocks_fn, fh_md5_blocks_avx512),
};
