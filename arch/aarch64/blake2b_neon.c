/* blake2b_neon.c: BLAKE2b (RFC 7693) on Advanced SIMD (ARMv8.0-A, no
 * extension).  Two kernels:
 *
 * blake2b-neon, one stream: each row of the work vector v in two Q
 * registers (a = v0..v3 as (v0, v1) and (v2, v3), and so on), so that G
 * runs on two columns a register; the diagonal step turns rows b and d
 * with EXT across their two registers and row c by swapping its two
 * registers' names, and each step's message words are paired from the
 * block's eight registers (ZIP1, ZIP2, EXT or INS).  It executes fewer
 * instructions than blake2b-portable but waits on NEON latencies, so it
 * runs only when forced or benchmarked (lib/dispatch.c).
 *
 * blake2b-neonx2, two independent messages at once, one per 64-bit lane
 * (through ../blake2b_lanes.h): vector j holds word j of both lanes'
 * work vectors, so G runs on both messages with no shuffles between the
 * columns and the diagonals.  Block loads: each lane's 16 bytes of words
 * 2k and 2k + 1 are a row, TRN1 and TRN2 on the two lanes' rows give the
 * columns.
 *
 * Rotations by 32 are REV64 on words, by 24 and 16 a byte table lookup
 * (TBL), by 63 a shift left and a shift right with insert (SRI).
 * Written in C with the ACLE intrinsics, which every AArch64 compiler
 * takes without flags. */
#include <arm_neon.h>
#include <stdbool.h>

#include "blake2b_sigma.h"
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
		return vreinterpretq_u64_u32(
			vrev64q_u32(vreinterpretq_u32_u64(x)));
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

/* ---- blake2b-neon: one stream ------------------------------------------ */

/* Message words I and J of the block, whose words 2k and 2k + 1 are Q[k],
 * as one vector. */
static inline uint64x2_t msg2(const uint64x2_t q[8], int i, int j)
{
	uint64x2_t qi = q[i / 2], qj = q[j / 2];
	uint64x1_t lo = i & 1 ? vget_high_u64(qi) : vget_low_u64(qi);
	uint64x1_t hi = j & 1 ? vget_high_u64(qj) : vget_low_u64(qj);

	return vcombine_u64(lo, hi);
}

/* One half of G (§3.1) on two columns: A += B + X, D = (D ^ A) >>> R1,
 * C += D, B = (B ^ C) >>> R2. */
#define H2(a, b, c, d, x, r1, r2)                                            \
	do {                                                                 \
		a = vaddq_u64(vaddq_u64(a, b), x);                           \
		d = ror64(veorq_u64(d, a), r1);                              \
		c = vaddq_u64(c, d);                                         \
		b = ror64(veorq_u64(b, c), r2);                              \
	} while (0)

/* G on the four columns of the rows A, B, C, D (each in registers 0 and
 * 1), with the message words the round's SIGMA row S names from I0 on:
 * columns 0 and 1 take S[I0..I0 + 3], columns 2 and 3 S[I0 + 4..I0 + 7]. */
#define G4(a0, a1, b0, b1, c0, c1, d0, d1, s, i0)                            \
	do {                                                                 \
		H2(a0, b0, c0, d0, msg2(q, s[i0], s[i0 + 2]), 32, 24);       \
		H2(a1, b1, c1, d1, msg2(q, s[i0 + 4], s[i0 + 6]), 32, 24);   \
		H2(a0, b0, c0, d0, msg2(q, s[i0 + 1], s[i0 + 3]), 16, 63);   \
		H2(a1, b1, c1, d1, msg2(q, s[i0 + 5], s[i0 + 7]), 16, 63);   \
	} while (0)

/* A round: G on the columns, the rows turned so that the diagonals are
 * columns (b by one word, c by two: its registers swapped, d by three),
 * G on them, and the rows turned back. */
#define ROUND1(r)                                                            \
	do {                                                                 \
		const uint8_t *s = fh_b2_sigma[r];                           \
		uint64x2_t t0, t1;                                           \
		G4(a0, a1, b0, b1, c0, c1, d0, d1, s, 0);                    \
		t0 = vextq_u64(b0, b1, 1);                                   \
		t1 = vextq_u64(b1, b0, 1);                                   \
		b0 = t0, b1 = t1;                                            \
		t0 = vextq_u64(d1, d0, 1);                                   \
		t1 = vextq_u64(d0, d1, 1);                                   \
		d0 = t0, d1 = t1;                                            \
		G4(a0, a1, b0, b1, c1, c0, d0, d1, s, 8);                    \
		t0 = vextq_u64(b1, b0, 1);                                   \
		t1 = vextq_u64(b0, b1, 1);                                   \
		b0 = t0, b1 = t1;                                            \
		t0 = vextq_u64(d0, d1, 1);                                   \
		t1 = vextq_u64(d1, d0, 1);                                   \
		d0 = t0, d1 = t1;                                            \
	} while (0)

static void blake2b_blocks_neon(uint64_t h[8], const uint8_t *data,
				size_t nblocks, uint64_t t, bool last)
{
	uint64x2_t h0 = vld1q_u64(h), h1 = vld1q_u64(h + 2);
	uint64x2_t h2 = vld1q_u64(h + 4), h3 = vld1q_u64(h + 6);

	for (size_t i = 0; i < nblocks; i++, data += 128) {
		const uint64_t f0 = last && i + 1 == nblocks ? ~(uint64_t)0 : 0;
		uint64x2_t q[8];
		uint64x2_t a0 = h0, a1 = h1, b0 = h2, b1 = h3;
		uint64x2_t c0 = vld1q_u64(fh_b2_iv);
		uint64x2_t c1 = vld1q_u64(fh_b2_iv + 2);
		uint64x2_t d0 = vld1q_u64(fh_b2_iv + 4);
		uint64x2_t d1 = vld1q_u64(fh_b2_iv + 6);

		for (int k = 0; k < 8; k++)
			q[k] = load_words(data + 16 * k);
		t += 128;
		/* v12 ^= t (its high word is 0), v14 ^= f0 (§3.2). */
		d0 = veorq_u64(d0, vsetq_lane_u64(t, vdupq_n_u64(0), 0));
		d1 = veorq_u64(d1, vsetq_lane_u64(f0, vdupq_n_u64(0), 0));
		FH_B2_ROUNDS(ROUND1);
		h0 = veorq_u64(h0, veorq_u64(a0, c0));
		h1 = veorq_u64(h1, veorq_u64(a1, c1));
		h2 = veorq_u64(h2, veorq_u64(b0, d0));
		h3 = veorq_u64(h3, veorq_u64(b1, d1));
	}
	vst1q_u64(h, h0);
	vst1q_u64(h + 2, h1);
	vst1q_u64(h + 4, h2);
	vst1q_u64(h + 6, h3);
}

#undef H2
#undef G4
#undef ROUND1

const struct fh_kernel fh_blake2b_neon = {
	.name = "blake2b-neon", .family = FH_FAMILY_BLAKE2B, .lanes = 1,
	.features = FH_CPU_ARM_ASIMD,
	.prefer = FH_CPU_ARM_B2_NEON_FAST,
	.blocks = FH_KERNEL_FN(fh_blake2b_blocks_fn, blake2b_blocks_neon),
};

/* ---- blake2b-neonx2: two messages, one a lane ---------------------------- */

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
#define FH_B2_LAST_FN blake2b_last_neonx2
#include "../blake2b_lanes.h"

const struct fh_kernel fh_blake2b_neonx2 = {
	.name = "blake2b-neonx2", .family = FH_FAMILY_BLAKE2B, .lanes = 2,
	.features = FH_CPU_ARM_ASIMD,
	.blocks_xn = FH_KERNEL_FN(fh_blake2b_blocks_xn_fn, blake2b_blocks_neonx2),
	.tree = FH_KERNEL_FN(fh_blake2b_last_xn_fn, blake2b_last_neonx2),
};
