/* blake2b_avx512.c: BLAKE2b (RFC 7693) on one stream, the work vector's
 * rows in YMM registers (blake2b_rows.h) as in blake2b_avx2.c, with
 * AVX-512VL's VPRORQ for all four rotations.  ISA: x86-64 + AVX-512F +
 * AVX-512VL, built with -mavx512f -mavx512vl (FH_CPU_X86_AVX512F |
 * FH_CPU_X86_AVX512VL).  One lane.
 *
 * One stream is bound by G's chain (blake2b_rows.h): VPRORQ makes the
 * rotation by 63 one operation where AVX2 needs two in a row, 12 cycles a
 * G instead of 13, where it takes one cycle, as on Intel's AVX-512 cores.
 * On AMD Zen 4 it takes two, which would lengthen the other three
 * rotations (one-cycle byte shuffles in AVX2): so the kernel is chosen by
 * default only with FH_CPU_X86_VPROL_FAST, and blake2b-avx2 elsewhere.
 * On Intel family 6 model 207 (`fhsum --benchmark`, 16 KiB buffers):
 * 928 MB/s against blake2b-avx2's 897 and blake2b-portable's 768.
 *
 * With FH_AVX512_EMULATE the vector is four words of plain C with the
 * SDM's semantics (VPRORQ, VPERMQ), so that arch/x86_64/test_avx512_emu.c
 * checks this kernel's logic on CPUs without AVX-512; only a run on
 * AVX-512 hardware checks the compiler's code (tests/unit's `kernel
 * blake2b-avx512`). */
#include <stdint.h>
#include <string.h>

#include "kernels_x86.h"

#ifndef FH_AVX512_EMULATE
#include <immintrin.h>

#define B2_V __m256i
#define B2_ADD(x, y) _mm256_add_epi64(x, y)
#define B2_XOR(x, y) _mm256_xor_si256(x, y)
#define B2_ROR(x, n) _mm256_ror_epi64(x, n)
/* VPERMQ's selector that turns the words by N. */
#define B2_TURN(n) ((n) | ((n) + 1) % 4 << 2 | ((n) + 2) % 4 << 4 | ((n) + 3) % 4 << 6)
#define B2_ROT(x, n) _mm256_permute4x64_epi64(x, B2_TURN(n))
#define B2_SET(w0, w1, w2, w3)                                               \
	_mm256_set_epi64x((long long)(w3), (long long)(w2), (long long)(w1), \
			  (long long)(w0))
#define B2_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define B2_STOREU(p, x) _mm256_storeu_si256((__m256i *)(void *)(p), x)

#else

typedef struct {
	uint64_t w[4];
} fh_emu_ymm;

static inline fh_emu_ymm emu_set(uint64_t a, uint64_t b, uint64_t c,
				 uint64_t d)
{
	fh_emu_ymm r = { { a, b, c, d } };
	return r;
}
static inline fh_emu_ymm emu_add(fh_emu_ymm x, fh_emu_ymm y)
{
	for (int i = 0; i < 4; i++)
		x.w[i] += y.w[i];
	return x;
}
static inline fh_emu_ymm emu_xor(fh_emu_ymm x, fh_emu_ymm y)
{
	for (int i = 0; i < 4; i++)
		x.w[i] ^= y.w[i];
	return x;
}
/* VPRORQ: each word rotated right by N mod 64. */
static inline fh_emu_ymm emu_ror(fh_emu_ymm x, unsigned n)
{
	n &= 63;
	for (int i = 0; i < 4; i++)
		x.w[i] = n ? x.w[i] >> n | x.w[i] << (64 - n) : x.w[i];
	return x;
}
/* VPERMQ: word j of the result is word IMM[2j+1:2j] of X. */
static inline fh_emu_ymm emu_permq(fh_emu_ymm x, unsigned imm)
{
	fh_emu_ymm r;

	for (int j = 0; j < 4; j++)
		r.w[j] = x.w[imm >> 2 * j & 3];
	return r;
}
static inline fh_emu_ymm emu_loadu(const void *p)
{
	fh_emu_ymm r;

	memcpy(r.w, p, sizeof r.w);
	return r;
}

#define B2_V fh_emu_ymm
#define B2_ADD(x, y) emu_add(x, y)
#define B2_XOR(x, y) emu_xor(x, y)
#define B2_ROR(x, n) emu_ror(x, n)
#define B2_TURN(n) ((n) | ((n) + 1) % 4 << 2 | ((n) + 2) % 4 << 4 | ((n) + 3) % 4 << 6)
#define B2_ROT(x, n) emu_permq(x, B2_TURN(n))
#define B2_SET(w0, w1, w2, w3) emu_set(w0, w1, w2, w3)
#define B2_LOADU(p) emu_loadu(p)
#define B2_STOREU(p, x) memcpy(p, (x).w, sizeof (x).w)

#endif

#define FH_B2_ROWS_FN fh_blake2b_blocks_avx512
#include "blake2b_rows.h"

const struct fh_kernel fh_blake2b_avx512 = {
	.name = "blake2b-avx512",
	.family = FH_FAMILY_BLAKE2B,
	.lanes = 1,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.prefer = FH_CPU_X86_VPROL_FAST,
	.blocks = FH_KERNEL_FN(fh_blake2b_blocks_fn, fh_blake2b_blocks_avx512),
};
