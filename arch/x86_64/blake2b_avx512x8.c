/* blake2b_avx512x8.c: BLAKE2b (RFC 7693) on eight independent messages at
 * once, one per 64-bit element of the ZMM registers (blake2b_lanes.h).
 * ISA: x86-64 + AVX-512F, built with -mavx512f (FH_CPU_X86_AVX512F).
 * 8 lanes.
 *
 * Against blake2b-avx2x4, twice the lanes, VPRORQ for every rotation (one
 * operation where AVX2's rotation by 63 takes three), and 32 registers,
 * which hold the 16 words of the work vector and most of the message.
 * Block loads: each lane's 64 bytes of words are a row of an 8x8 matrix,
 * transposed in three steps (VPUNPCKLQDQ/VPUNPCKHQDQ inside 128-bit
 * blocks, then VSHUFI64X2 twice across them).  On Intel family 6 model
 * 207 (`fhsum --benchmark`, every lane busy): 3,656 MB/s, 3.94x
 * blake2b-avx512's one stream; blake2b-avx2x4 2,107.
 *
 * With FH_AVX512_EMULATE the vector is eight words of plain C and every
 * operation, the transpose's unpacks and shuffles included, has the SDM's
 * semantics, so that arch/x86_64/test_avx512_emu.c checks this kernel's
 * logic on CPUs without AVX-512; only a run on AVX-512 hardware checks
 * the compiler's code (tests/unit's `kernel blake2b-avx512x8`). */
#include <stdint.h>
#include <string.h>

#include "kernels_x86.h"

#ifndef FH_AVX512_EMULATE
#include <immintrin.h>

#define L_V __m512i
#define L_ADD(x, y) _mm512_add_epi64(x, y)
#define L_XOR(x, y) _mm512_xor_si512(x, y)
#define L_ROR(x, n) _mm512_ror_epi64(x, n)
#define L_SET1(w) _mm512_set1_epi64((long long)(w))
#define L_LOAD(p) _mm512_load_si512((const void *)(p))
#define L_STORE(p, x) _mm512_store_si512((void *)(p), x)
#define L_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define L_UNPACKLO(x, y) _mm512_unpacklo_epi64(x, y)
#define L_UNPACKHI(x, y) _mm512_unpackhi_epi64(x, y)
#define L_SHUF128(x, y, imm) _mm512_shuffle_i64x2(x, y, imm)

#else

typedef struct {
	uint64_t q[8];
} fh_emu_zmm;

static inline fh_emu_zmm emu_add(fh_emu_zmm x, fh_emu_zmm y)
{
	for (int i = 0; i < 8; i++)
		x.q[i] += y.q[i];
	return x;
}
static inline fh_emu_zmm emu_xor(fh_emu_zmm x, fh_emu_zmm y)
{
	for (int i = 0; i < 8; i++)
		x.q[i] ^= y.q[i];
	return x;
}
/* VPRORQ: each word rotated right by N mod 64. */
static inline fh_emu_zmm emu_ror(fh_emu_zmm x, unsigned n)
{
	n &= 63;
	for (int i = 0; i < 8; i++)
		x.q[i] = n ? x.q[i] >> n | x.q[i] << (64 - n) : x.q[i];
	return x;
}
static inline fh_emu_zmm emu_set1(uint64_t w)
{
	fh_emu_zmm r;

	for (int i = 0; i < 8; i++)
		r.q[i] = w;
	return r;
}
static inline fh_emu_zmm emu_load(const void *p)
{
	fh_emu_zmm r;

	memcpy(r.q, p, sizeof r.q);
	return r;
}
/* VPUNPCKLQDQ / VPUNPCKHQDQ: in each 128-bit block k, the low (high)
 * word of X's block k, then that of Y's. */
static inline fh_emu_zmm emu_unpack(fh_emu_zmm x, fh_emu_zmm y, int high)
{
	fh_emu_zmm r;

	for (int k = 0; k < 4; k++) {
		r.q[2 * k] = x.q[2 * k + high];
		r.q[2 * k + 1] = y.q[2 * k + high];
	}
	return r;
}
/* VSHUFI64X2: blocks 0 and 1 of the result are X's blocks IMM[1:0] and
 * IMM[3:2], blocks 2 and 3 are Y's blocks IMM[5:4] and IMM[7:6]. */
static inline fh_emu_zmm emu_shuf128(fh_emu_zmm x, fh_emu_zmm y, unsigned imm)
{
	fh_emu_zmm r;

	for (int k = 0; k < 4; k++) {
		const fh_emu_zmm *s = k < 2 ? &x : &y;
		unsigned from = imm >> 2 * k & 3;

		r.q[2 * k] = s->q[2 * from];
		r.q[2 * k + 1] = s->q[2 * from + 1];
	}
	return r;
}

#define L_V fh_emu_zmm
#define L_ADD(x, y) emu_add(x, y)
#define L_XOR(x, y) emu_xor(x, y)
#define L_ROR(x, n) emu_ror(x, n)
#define L_SET1(w) emu_set1(w)
#define L_LOAD(p) emu_load(p)
#define L_STORE(p, x) memcpy(p, (x).q, sizeof (x).q)
#define L_LOADU(p) emu_load(p)
#define L_UNPACKLO(x, y) emu_unpack(x, y, 0)
#define L_UNPACKHI(x, y) emu_unpack(x, y, 1)
#define L_SHUF128(x, y, imm) emu_shuf128(x, y, imm)

#endif

/* M[w] = word w of the eight lanes' blocks at DATA[i] + OFF: each half
 * block (words 8H..8H+7) an 8x8 transpose. */
static inline void load_msg(L_V *m, const uint8_t *const *data, size_t off)
{
	for (int half = 0; half < 2; half++) {
		L_V r[8], t[8], u[8];

		for (int i = 0; i < 8; i++)
			r[i] = L_LOADU(data[i] + off + 64 * half);
		/* t[2k] (t[2k+1]): lanes 2k and 2k+1, the even (odd) words
		 * 0, 2, 4, 6 (1, 3, 5, 7), one pair per 128-bit block. */
		for (int k = 0; k < 4; k++) {
			t[2 * k] = L_UNPACKLO(r[2 * k], r[2 * k + 1]);
			t[2 * k + 1] = L_UNPACKHI(r[2 * k], r[2 * k + 1]);
		}
		/* u[4g + e]: lanes 4g..4g+3 of the pairs of words e, e + 4
		 * for e = 0, 2, 1, 3 in turn: [lanes 4g, 4g+1 of word w,
		 * of word w + 4, lanes 4g+2, 4g+3 of word w, of w + 4]. */
		for (int g = 0; g < 2; g++) {
			L_V *tg = t + 4 * g, *ug = u + 4 * g;

			ug[0] = L_SHUF128(tg[0], tg[2], 0x88); /* words 0, 4 */
			ug[1] = L_SHUF128(tg[0], tg[2], 0xdd); /* words 2, 6 */
			ug[2] = L_SHUF128(tg[1], tg[3], 0x88); /* words 1, 5 */
			ug[3] = L_SHUF128(tg[1], tg[3], 0xdd); /* words 3, 7 */
		}
		/* Blocks 0 and 2 of u[e] and u[e + 4]: word w of all eight
		 * lanes; blocks 1 and 3: word w + 4. */
		static const int word[4] = { 0, 2, 1, 3 };

		for (int e = 0; e < 4; e++) {
			m[8 * half + word[e]] = L_SHUF128(u[e], u[e + 4], 0x88);
			m[8 * half + word[e] + 4] = L_SHUF128(u[e], u[e + 4], 0xdd);
		}
	}
}

#define FH_B2_XN 8
#define L_LOAD_MSG(m, data, off) load_msg(m, data, off)
#define FH_B2_LANES_FN fh_blake2b_blocks_avx512x8
#define FH_B2_LAST_FN fh_blake2b_last_avx512x8
#include "../blake2b_lanes.h"

const struct fh_kernel fh_blake2b_avx512x8 = {
	.name = "blake2b-avx512x8",
	.family = FH_FAMILY_BLAKE2B,
	.lanes = 8,
	.features = FH_CPU_X86_AVX512F,
	.blocks_xn = FH_KERNEL_FN(fh_blake2b_blocks_xn_fn, fh_blake2b_blocks_avx512x8),
	.tree = FH_KERNEL_FN(fh_blake2b_last_xn_fn, fh_blake2b_last_avx512x8),
};
