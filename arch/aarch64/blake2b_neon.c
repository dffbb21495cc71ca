/* blake2b_neon.c: BLAKE2b (RFC 7693) on Advanced SIMD (ARMv8.0-A, no
 * extension), two independent messages at once, one per 64-bit lane of
 * the Q registers (blake2b-neonx2, through ../blake2b_lanes.h): vector j
 * holds word j of both lanes' work vectors, so G runs on both messages
 * with no shuffles between the columns and the diagonals.  Block loads:
 * each lane's 16 bytes of words 2k and 2k + 1 are a row, TRN1 and TRN2
 * on the two lanes' rows give the columns.  Rotations by 32 are REV64 on
 * words, by 24 and 16 a byte table lookup (TBL), by 63 a shift left and
 * a shift right with insert (SRI).  Written in C with the ACLE
 * intrinsics, which every AArch64 compiler takes without flags. */
#include <arm_neon.h>

#include "kernels_arm.h"

/* Byte i of each 64-bit word from byte (i + n / 8) % 8, for n = 24, 16. */
static const uint8_t ror24_idx[16] = {
	3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10,
};
static const uint8_t ror16_idx[16] = {
	2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9,
};

static inline uint64x2_t tbl64(uint64x2_t x, const uint8_t idx[16])
{
	return vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x),
					       vld1q_u8(idx)));
}

static inline uint64x2_t ror64(uint64x2_t x, int n)
{
	switch (n) {
	case 32:
		return vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(x)));
	case 24:
		return tbl64(x, ror24_idx);
	case 16:
		return tbl64(x, ror16_idx);
	default: /* 63: left by one */
		return vsriq_n_u64(vshlq_n_u64(x, 1), x, 63);
	}
}

static inline uint64x2_t load_words(const uint8_t *p)
{
	return vreinterpretq_u64_u8(vld1q_u8(p));
}

/* M[w] = word w of the two lanes' blocks at DATA[i] + OFF. */
static inline void load_msg(uint64x2_t *m, const uint8_t *const *data,
			    size_t off)
{
	for (int k = 0; k < 8; k++) {
		uint64x2_t a = load_words(data[0] + off + 16 * k);
		uint64x2_t b = load_words(data[1] + off + 16 * k);

		m[2 * k] = vtrn1q_u64(a, b);
		m[2 * k + 1] = vtrn2q_u64(a, b);
	}
}

#define FH_B2_XN 2
#define L_V uint64x2_t
#define L_ADD(x, y) vaddq_u64(x, y)
#define L_XOR(x, y) veorq_u64(x, y)
#define L_ROR(x, n) ror64(x, n)
#define L_SET1(w) vdupq_n_u64(w)
#define L_LOAD(p) vld1q_u64(p)
#define L_STORE(p, x) vst1q_u64(p, x)
#define L_LOAD_MSG(m, data, off) load_msg(m, data, off)
#define FH_B2_LANES_FN blake2b_blocks_neonx2
#include "../blake2b_lanes.h"

const struct fh_kernel fh_blake2b_neonx2 = {
	.name = "blake2b-neonx2", .family = FH_FAMILY_BLAKE2B, .lanes = 2,
	.features = FH_CPU_ARM_ASIMD,
	.blocks_xn = FH_KERNEL_FN(fh_blake2b_blocks_xn_fn, blake2b_blocks_neonx2),
};
