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

#include "../blake3_lanes.h"

static inline uint32x4_t msg4(const uint32_t *w, const uint8_t *s, int a,
			      int b, int c, int d)
{
	uint32_t t[4] = { w[s[a]], w[s[b]], w[s[c]], w[s[d]] };

	return vld1q_u32(t);
}

#define G4(x, y)                                                             \
	do {                                                                 \
		r0 = vaddq_u32(vaddq_u32(r0, r1), x);                        \
		r3 = B3_ROR16(veorq_u32(r3, r0));                            \
		r2 = vaddq_u32(r2, r3);                                      \
		r1 = B3_ROR12(veorq_u32(r1, r2));                            \
		r0 = vaddq_u32(vaddq_u32(r0, r1), y);                        \
		r3 = B3_ROR8(veorq_u32(r3, r0));                             \
		r2 = vaddq_u32(r2, r3);                                      \
		r1 = B3_ROR7(veorq_u32(r1, r2));                             \
	} while (0)

/* The columns, then the diagonals as the columns of rows 1..3 turned by
 * 1, 2 and 3 words (EXT). */
#define ROUND1(r)                                                            \
	do {                                                                 \
		const uint8_t *s = b3_sched[r];                              \
		G4(msg4(w, s, 0, 2, 4, 6), msg4(w, s, 1, 3, 5, 7));          \
		r1 = vextq_u32(r1, r1, 1);                                   \
		r2 = vextq_u32(r2, r2, 2);                                   \
		r3 = vextq_u32(r3, r3, 3);                                   \
		G4(msg4(w, s, 8, 10, 12, 14), msg4(w, s, 9, 11, 13, 15));    \
		r1 = vextq_u32(r1, r1, 3);                                   \
		r2 = vextq_u32(r2, r2, 2);                                   \
		r3 = vextq_u32(r3, r3, 1);                                   \
	} while (0)

static void blake3_compress_neon(const uint32_t cv[8], const uint8_t *block,
				 uint32_t block_len, uint64_t counter,
				 uint32_t flags, uint32_t out[16])
{
	uint32_t w[16];
	const uint32_t d[4] = { (uint32_t)counter, (uint32_t)(counter >> 32),
				block_len, flags };

	memcpy(w, block, 64);
	uint32x4_t c0 = B3_LOADU(cv), c1 = B3_LOADU(cv + 4);
	uint32x4_t r0 = c0, r1 = c1, r2 = B3_LOADU(b3_iv), r3 = vld1q_u32(d);

	ROUND1(0);
	ROUND1(1);
	ROUND1(2);
	ROUND1(3);
	ROUND1(4);
	ROUND1(5);
	ROUND1(6);
	B3_STOREU(out, veorq_u32(r0, r2));
	B3_STOREU(out + 4, veorq_u32(r1, r3));
	B3_STOREU(out + 8, veorq_u32(r2, c0));
	B3_STOREU(out + 12, veorq_u32(r3, c1));
}

static void blake3_chunks_neon(const uint32_t key[8], const uint8_t *data,
			       size_t n, uint64_t counter, uint32_t flags,
			       uint32_t (*cvs)[8])
{
	for (; n >= 4; n -= 4, data += 4 * 1024, counter += 4, cvs += 4)
		neon_chunks_n(key, data, counter, flags, cvs);
	if (n) {
		const uint8_t *p[4] = { data, data + 1024, data + 2048 };

		neon_hash_some(p, n, 16, key, counter, 1, flags,
			       B3_CHUNK_START, B3_CHUNK_END, cvs);
	}
}

static void blake3_parents_neon(const uint32_t key[8],
				const uint32_t (*children)[8], size_t n,
				uint32_t flags, uint32_t (*cvs)[8])
{
	for (; n >= 4; n -= 4, children += 8, cvs += 4)
		neon_parents_n(key, children, flags, cvs);
	if (n) {
		const uint8_t *p[4];

		for (size_t i = 0; i < n; i++)
			p[i] = (const uint8_t *)children[2 * i];
		neon_hash_some(p, n, 1, key, 0, 0, flags | B3_PARENT, 0, 0,
			       cvs);
	}
}

static void blake3_lanes_neonx4(struct fh_blake3_lane *states,
				const uint8_t *const *data, size_t nblocks)
{
	neon_lanes_n(states, data, nblocks);
}

const struct fh_kernel fh_blake3_neon = {
	.name = "blake3-neon", .family = FH_FAMILY_BLAKE3, .lanes = 1,
	.features = FH_CPU_ARM_ASIMD,
	.blocks = FH_KERNEL_FN(fh_blake3_chunks_fn, blake3_chunks_neon),
	.permute = FH_KERNEL_FN(fh_blake3_compress_fn, blake3_compress_neon),
	.tree = FH_KERNEL_FN(fh_blake3_parents_fn, blake3_parents_neon),
};

const struct fh_kernel fh_blake3_neonx4 = {
	.name = "blake3-neonx4", .family = FH_FAMILY_BLAKE3, .lanes = 4,
	.features = FH_CPU_ARM_ASIMD,
	.blocks_xn = FH_KERNEL_FN(fh_blake3_lanes_fn, blake3_lanes_neonx4),
};
