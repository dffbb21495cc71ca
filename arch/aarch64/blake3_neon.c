/* blake3_neon.c: BLAKE3 on Advanced SIMD (ARMv8.0-A, no extension), four
 * 32-bit lanes of a Q register: whole chunks and parents four at a time,
 * one per lane (blake3-neon), the first blocks of four inputs' chunks
 * (the lanes of blake3-neonx4), and the compression function of one
 * block with the state's rows in four registers.  Rotations by 16 are
 * REV32 on halfwords, the others a shift left and a shift right with
 * insert (SRI).  Written in C with the ACLE intrinsics, which every
 * AArch64 compiler takes without flags. */
#include <arm_neon.h>

#include "kernels_arm.h"

#define B3V uint32x4_t
#define B3N 4
#define B3_ADD(a, b) vaddq_u32(a, b)
#define B3_XOR(a, b) veorq_u32(a, b)
#define B3_SET1(w) vdupq_n_u32((uint32_t)(w))
#define B3_ROR16(x) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)))
#define B3_ROR12(x) vsriq_n_u32(vshlq_n_u32(x, 20), x, 12)
#define B3_ROR8(x) vsriq_n_u32(vshlq_n_u32(x, 24), x, 8)
#define B3_ROR7(x) vsriq_n_u32(vshlq_n_u32(x, 25), x, 7)
#define B3_LOADU(p) vld1q_u32((const uint32_t *)(const void *)(p))
#define B3_STOREU(p, v) vst1q_u32((uint32_t *)(void *)(p), v)
#define B3_FN(name) neon_##name

/* Rows (one a lane) to columns. */
static inline void loadt(uint32x4_t m[16], const uint8_t *const *p,
			 size_t off)
{
	for (int g = 0; g < 4; g++) {
		uint32x4_t r0 = B3_LOADU(p[0] + off + 16 * g);
		uint32x4_t r1 = B3_LOADU(p[1] + off + 16 * g);
		uint32x4_t r2 = B3_LOADU(p[2] + off + 16 * g);
		uint32x4_t r3 = B3_LOADU(p[3] + off + 16 * g);
		uint64x2_t a = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1));
		uint64x2_t b = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1));
		uint64x2_t c = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3));
		uint64x2_t d = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));

		m[4 * g] = vreinterpretq_u32_u64(vtrn1q_u64(a, c));
		m[4 * g + 1] = vreinterpretq_u32_u64(vtrn1q_u64(b, d));
		m[4 * g + 2] = vreinterpretq_u32_u64(vtrn2q_u64(a, c));
		m[4 * g + 3] = vreinterpretq_u32_u64(vtrn2q_u64(b, d));
	}
}
#define B3_LOADT(m, p, off) loadt(m, p, off)

#define B3_ROW4(a, b, c, d) row4((a), (b), (c), (d))
#define B3_TURN(x, k) vextq_u32(x, x, k)
#define B3_EXPORT(name) fh_blake3_##name##_neon

/* The vector of four words, a row of the state or four message words. */
static inline uint32x4_t row4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	const uint32_t t[4] = { a, b, c, d };

	return vld1q_u32(t);
}

#include "../blake3_lanes.h"
#include "../blake3_rows.h"

static void blake3_lanes_neonx4(struct fh_blake3_lane *states,
				const uint8_t *const *data, size_t nblocks)
{
	neon_lanes_n(states, data, nblocks);
}

static void blake3_roots_neonx4(struct fh_blake3_lane *states,
			    const uint8_t *const *blocks, const uint32_t *lens)
{
	neon_roots_n(states, blocks, lens);
}

const struct fh_kernel fh_blake3_neon = {
	.name = "blake3-neon", .family = FH_FAMILY_BLAKE3, .lanes = 1,
	.features = FH_CPU_ARM_ASIMD,
	.blocks = FH_KERNEL_FN(fh_blake3_chunks_fn, fh_blake3_chunks_neon),
	.permute = FH_KERNEL_FN(fh_blake3_compress_fn, fh_blake3_compress_neon),
	.tree = FH_KERNEL_FN(fh_blake3_parents_fn, fh_blake3_parents_neon),
};

const struct fh_kernel fh_blake3_neonx4 = {
	.name = "blake3-neonx4", .family = FH_FAMILY_BLAKE3, .lanes = 4,
	.features = FH_CPU_ARM_ASIMD,
	.blocks_xn = FH_KERNEL_FN(fh_blake3_lanes_fn, blake3_lanes_neonx4),
	.tree = FH_KERNEL_FN(fh_blake3_roots_fn, blake3_roots_neonx4),
};
