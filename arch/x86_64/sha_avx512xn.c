/* sha_avx512xn.c: SHA-1 and SHA-256 on sixteen independent messages at
 * once, one per 32-bit element of the AVX-512 ZMM registers
 * (sha1-avx512x16, sha256-avx512x16), and SHA-512 on eight, one per 64-bit
 * element (sha512-avx512x8).  ISA: x86-64 + AVX-512F, built with
 * -mavx512f (FH_CPU_X86_AVX512F).  The rounds are sha_lanes.h's.
 *
 * Against AVX2, AVX-512 doubles the lanes and has the two operations the
 * SHA rounds are made of: VPRORD/VPRORQ rotate in one instruction (three
 * in AVX2), and VPTERNLOG computes Ch, Maj and a three-way XOR in one
 * (truth tables below), so a SHA-256 round is about 16 operations where
 * AVX2 needs 30.
 *
 * The block loads gather each lane's words through a small table on the
 * stack (a byte swap and a store per word, then one aligned vector load
 * per word of all lanes): plain C that is the same in the emulated build.
 *
 * With FH_AVX512_EMULATE the vector type is a plain array and every
 * operation plain C with the SDM's semantics (VPTERNLOG's truth table
 * included), so that arch/x86_64/test_avx512_emu.c checks these kernels'
 * logic on CPUs without AVX-512; only a run on AVX-512 hardware checks
 * the compiler's code (tests/unit's `kernel NAME` tests).
 */
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "kernels_x86.h"
#include "sha256_k.h"
#include "sha512_k.h"

#ifndef FH_AVX512_EMULATE
#include <immintrin.h>
#endif

/* VPTERNLOG truth tables: bit 4a + 2b + c is f(a, b, c). */
#define FH_TL_XOR3 0x96 /* a ^ b ^ c */
#define FH_TL_CH 0xca   /* (a & b) | (~a & c) */
#define FH_TL_MAJ 0xe8  /* at least two of a, b, c */

#ifdef FH_AVX512_EMULATE
/* One ZMM register as 16 words or 8 double words. */
typedef union {
	uint32_t d[16];
	uint64_t q[8];
} fh_emu_zmm;

static inline fh_emu_zmm emu_ternlog(fh_emu_zmm a, fh_emu_zmm b, fh_emu_zmm c,
				     unsigned imm)
{
	fh_emu_zmm r;

	for (int w = 0; w < 8; w++) {
		r.q[w] = 0;
		for (unsigned i = 0; i < 8; i++)
			if (imm >> i & 1)
				r.q[w] |= (i & 4 ? a.q[w] : ~a.q[w]) &
					  (i & 2 ? b.q[w] : ~b.q[w]) &
					  (i & 1 ? c.q[w] : ~c.q[w]);
	}
	return r;
}

#define EMU_MAP(n, field, expr)                                            \
	do {                                                               \
		for (int i_ = 0; i_ < (n); i_++)                           \
			r_.field[i_] = (expr);                             \
	} while (0)

static inline fh_emu_zmm emu_add32(fh_emu_zmm a, fh_emu_zmm b)
{
	fh_emu_zmm r_;
	EMU_MAP(16, d, a.d[i_] + b.d[i_]);
	return r_;
}
static inline fh_emu_zmm emu_add64(fh_emu_zmm a, fh_emu_zmm b)
{
	fh_emu_zmm r_;
	EMU_MAP(8, q, a.q[i_] + b.q[i_]);
	return r_;
}
static inline fh_emu_zmm emu_xor(fh_emu_zmm a, fh_emu_zmm b)
{
	fh_emu_zmm r_;
	EMU_MAP(8, q, a.q[i_] ^ b.q[i_]);
	return r_;
}
/* VPRORD/VPRORQ (count mod the width) and VPSRLD/VPSRLQ. */
static inline fh_emu_zmm emu_ror32(fh_emu_zmm a, unsigned n)
{
	fh_emu_zmm r_;
	n &= 31;
	EMU_MAP(16, d, n ? a.d[i_] >> n | a.d[i_] << (32 - n) : a.d[i_]);
	return r_;
}
static inline fh_emu_zmm emu_ror64(fh_emu_zmm a, unsigned n)
{
	fh_emu_zmm r_;
	n &= 63;
	EMU_MAP(8, q, n ? a.q[i_] >> n | a.q[i_] << (64 - n) : a.q[i_]);
	return r_;
}
static inline fh_emu_zmm emu_shr32(fh_emu_zmm a, unsigned n)
{
	fh_emu_zmm r_;
	EMU_MAP(16, d, a.d[i_] >> n);
	return r_;
}
static inline fh_emu_zmm emu_shr64(fh_emu_zmm a, unsigned n)
{
	fh_emu_zmm r_;
	EMU_MAP(8, q, a.q[i_] >> n);
	return r_;
}
static inline fh_emu_zmm emu_set1_32(uint32_t v)
{
	fh_emu_zmm r_;
	EMU_MAP(16, d, v);
	return r_;
}
static inline fh_emu_zmm emu_set1_64(uint64_t v)
{
	fh_emu_zmm r_;
	EMU_MAP(8, q, v);
	return r_;
}
static inline fh_emu_zmm emu_load(const void *p)
{
	fh_emu_zmm r;
	memcpy(&r, p, 64);
	return r;
}

#define FH_V fh_emu_zmm
#define Z_ADD32(a, b) emu_add32(a, b)
#define Z_ADD64(a, b) emu_add64(a, b)
#define V_XOR(a, b) emu_xor(a, b)
#define Z_TERN(a, b, c, imm) emu_ternlog(a, b, c, imm)
#define Z_ROR32(x, n) emu_ror32(x, n)
#define Z_ROR64(x, n) emu_ror64(x, n)
#define Z_SHR32(x, n) emu_shr32(x, n)
#define Z_SHR64(x, n) emu_shr64(x, n)
#define Z_SET1_32(v) emu_set1_32((uint32_t)(v))
#define Z_SET1_64(v) emu_set1_64((uint64_t)(v))
#define V_LOADS(p) emu_load(p)
#define V_STORES(p, v) memcpy(p, &(v), 64)

#else

#define FH_V __m512i
#define Z_ADD32(a, b) _mm512_add_epi32(a, b)
#define Z_ADD64(a, b) _mm512_add_epi64(a, b)
#define V_XOR(a, b) _mm512_xor_si512(a, b)
#define Z_TERN(a, b, c, imm) _mm512_ternarylogic_epi32(a, b, c, imm)
#define Z_ROR32(x, n) _mm512_ror_epi32(x, n)
#define Z_ROR64(x, n) _mm512_ror_epi64(x, n)
#define Z_SHR32(x, n) _mm512_srli_epi32(x, n)
#define Z_SHR64(x, n) _mm512_srli_epi64(x, n)
#define Z_SET1_32(v) _mm512_set1_epi32((int)(uint32_t)(v))
#define Z_SET1_64(v) _mm512_set1_epi64((long long)(uint64_t)(v))
#define V_LOADS(p) _mm512_load_si512((const void *)(p))
#define V_STORES(p, v) _mm512_store_si512((void *)(p), v)

#endif

#define V_XOR3(a, b, c) Z_TERN(a, b, c, FH_TL_XOR3)
#define V_CH(x, y, z) Z_TERN(x, y, z, FH_TL_CH)
#define V_MAJ(x, y, z) Z_TERN(x, y, z, FH_TL_MAJ)

/* ---- 16 lanes of 32 bits ------------------------------------------------ */

#define FH_XN 16
#define V_ADD(a, b) Z_ADD32(a, b)
#define V_ROR(x, n) Z_ROR32(x, n)
#define V_ROL(x, n) Z_ROR32(x, 32 - (n))
#define V_SHR(x, n) Z_SHR32(x, n)
#define V_SET1(v) Z_SET1_32(v)
#define FH_LOAD_WORDS(w, data, off)                                        \
	do {                                                               \
		_Alignas(64) uint32_t col_[16];                            \
		for (int t_ = 0; t_ < 16; t_++) {                          \
			for (int i_ = 0; i_ < 16; i_++)                    \
				col_[i_] = fh_load32be(data[i_] + (off) +  \
						       4 * t_);            \
			w[t_] = V_LOADS(col_);                             \
		}                                                          \
	} while (0)

#define FH_SHA256_LANES_FN fh_sha256_blocks_avx512x16
#include "sha_lanes.h"
#define FH_SHA1_LANES_FN fh_sha1_blocks_avx512x16
#include "sha_lanes.h"

#undef FH_XN
#undef V_ADD
#undef V_ROR
#undef V_ROL
#undef V_SHR
#undef V_SET1
#undef FH_LOAD_WORDS

/* ---- 8 lanes of 64 bits ------------------------------------------------- */

#define FH_XN 8
#define V_ADD(a, b) Z_ADD64(a, b)
#define V_ROR(x, n) Z_ROR64(x, n)
#define V_SHR(x, n) Z_SHR64(x, n)
#define V_SET1(v) Z_SET1_64(v)
#define FH_LOAD_WORDS(w, data, off)                                        \
	do {                                                               \
		_Alignas(64) uint64_t col_[8];                             \
		for (int t_ = 0; t_ < 16; t_++) {                          \
			for (int i_ = 0; i_ < 8; i_++)                     \
				col_[i_] = fh_load64be(data[i_] + (off) +  \
						       8 * t_);            \
			w[t_] = V_LOADS(col_);                             \
		}                                                          \
	} while (0)

#define FH_SHA512_LANES_FN fh_sha512_blocks_avx512x8
#include "sha_lanes.h"

const struct fh_kernel fh_sha1_avx512x16 = {
	.name = "sha1-avx512x16",
	.family = FH_FAMILY_SHA1,
	.lanes = 16,
	.features = FH_CPU_X86_AVX512F,
	.blocks_xn = FH_KERNEL_FN(fh_sha1_blocks_xn_fn, fh_sha1_blocks_avx512x16),
};

const struct fh_kernel fh_sha256_avx512x16 = {
	.name = "sha256-avx512x16",
	.family = FH_FAMILY_SHA256,
	.lanes = 16,
	.features = FH_CPU_X86_AVX512F,
	.blocks_xn = FH_KERNEL_FN(fh_sha256_blocks_xn_fn, fh_sha256_blocks_avx512x16),
};

const struct fh_kernel fh_sha512_avx512x8 = {
	.name = "sha512-avx512x8",
	.family = FH_FAMILY_SHA512,
	.lanes = 8,
	.features = FH_CPU_X86_AVX512F,
	.blocks_xn = FH_KERNEL_FN(fh_sha512_blocks_xn_fn, fh_sha512_blocks_avx512x8),
};
