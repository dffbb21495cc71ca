/* crc_pmull.c: every CRC model of the family (crc.h; width 32 or 64,
 * reflected or not) by carry-less multiplication, the Armv8 PMULL and
 * PMULL2 instructions (the crypto extension's polynomial multiply of
 * 64-bit elements), one stream.  Built with the extension enabled for
 * this file alone (meson.build); runs only where FH_CPU_ARM_PMULL is set.
 *
 * The method is crc_pclmul.c's (x86-64): the message is kept as 128-bit
 * values congruent to it modulo the polynomial, each moved on by two
 * 64x64 products with the constants x^k mod P of ../crc_fold.h, computed
 * from the model's polynomial once.  PMULL multiplies the low halves,
 * PMULL2 the high ones, as PCLMULQDQ's selectors 0x00 and 0x11 do, and the
 * bits of a 128-bit product lie where PCLMULQDQ puts them, so the same
 * constants serve.  Eight values run 128 bytes apart (Advanced SIMD has
 * 32 registers; eight independent chains hide the multiplier's latency),
 * then fold into one, which takes 16 bytes at a time; the last value is
 * handed to the portable tables as 16 bytes from a zero register, and the
 * bytes after it too: no Barrett reduction, one code for every model.
 *
 * In a reflected model the bytes are loaded as they are; in a normal one
 * each 16 bytes are reversed first (one TBL), so that bit i is the
 * coefficient of x^i.  Under qemu (tests/bench/aarch64-insns.sh) this
 * executes 0.30 instructions a byte for a reflected model and 0.37 for
 * POSIX cksum's, against the portable tables' 3.38 and 3.50. */
#include <arm_neon.h>

#include "../crc_fold.h"
#include "kernels_arm.h"


/* X moved on by the distance of K = { lo, hi }: lo(X) lo(K) + hi(X) hi(K). */
static inline uint64x2_t fold(uint64x2_t x, uint64x2_t k)
{
	poly128_t lo = vmull_p64((poly64_t)vgetq_lane_u64(x, 0),
				 (poly64_t)vgetq_lane_u64(k, 0));
	poly128_t hi = vmull_high_p64(vreinterpretq_p64_u64(x),
				      vreinterpretq_p64_u64(k));

	return veorq_u64(vreinterpretq_u64_p128(lo), vreinterpretq_u64_p128(hi));
}

static inline uint64x2_t consts(struct fh_fold f)
{
	return vcombine_u64(vcreate_u64(f.lo), vcreate_u64(f.hi));
}

/* The byte order of a reversed value: one TBL. */
static const uint8_t reverse_index[16] = {
	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
};

/* 16 bytes at P as a 128-bit value: as they are, or reversed (REV). */
static inline uint64x2_t load(const uint8_t *p, bool rev, uint8x16_t idx)
{
	uint8x16_t v = vld1q_u8(p);

	if (rev)
		v = vqtbl1q_u8(v, idx);
	return vreinterpretq_u64_u8(v);
}

/* The body, inlined into one function per byte order so that REV is a
 * constant in each and the loops hold no test of it; eight values named
 * one by one, which GCC keeps in registers where an array's loop it
 * leaves on the stack.  N is at least 64. */
static inline __attribute__((always_inline)) uint64_t
fold_all(const struct fh_crc_model *m, const struct fh_fold_consts *c,
	 uint64_t reg, const uint8_t *p, size_t n, bool rev)
{
	const uint8x16_t idx = vld1q_u8(reverse_index);
	uint64x2_t x;
	uint8_t last[16];
	/* The register joins the message's first bits: the top of a
	 * reversed value, the bottom of a reflected one. */
	uint64x2_t r = rev ? vcombine_u64(vcreate_u64(0), vcreate_u64(reg))
			   : vcombine_u64(vcreate_u64(reg), vcreate_u64(0));

	if (n >= 128) {
		uint64x2_t k = consts(c->d[8]);
		uint64x2_t a0 = veorq_u64(load(p, rev, idx), r);
		uint64x2_t a1 = load(p + 16, rev, idx);
		uint64x2_t a2 = load(p + 32, rev, idx), a3 = load(p + 48, rev, idx);
		uint64x2_t a4 = load(p + 64, rev, idx), a5 = load(p + 80, rev, idx);
		uint64x2_t a6 = load(p + 96, rev, idx), a7 = load(p + 112, rev, idx);

		for (p += 128, n -= 128; n >= 128; p += 128, n -= 128) {
			a0 = veorq_u64(fold(a0, k), load(p, rev, idx));
			a1 = veorq_u64(fold(a1, k), load(p + 16, rev, idx));
			a2 = veorq_u64(fold(a2, k), load(p + 32, rev, idx));
			a3 = veorq_u64(fold(a3, k), load(p + 48, rev, idx));
			a4 = veorq_u64(fold(a4, k), load(p + 64, rev, idx));
			a5 = veorq_u64(fold(a5, k), load(p + 80, rev, idx));
			a6 = veorq_u64(fold(a6, k), load(p + 96, rev, idx));
			a7 = veorq_u64(fold(a7, k), load(p + 112, rev, idx));
		}
		/* Each value moved on to the last one's place. */
		x = veorq_u64(a7, fold(a0, consts(c->d[7])));
		x = veorq_u64(x, fold(a1, consts(c->d[6])));
		x = veorq_u64(x, fold(a2, consts(c->d[5])));
		x = veorq_u64(x, fold(a3, consts(c->d[4])));
		x = veorq_u64(x, fold(a4, consts(c->d[3])));
		x = veorq_u64(x, fold(a5, consts(c->d[2])));
		x = veorq_u64(x, fold(a6, consts(c->d[1])));
	} else {
		x = veorq_u64(load(p, rev, idx), r);
		p += 16;
		n -= 16;
	}
	uint64x2_t k1 = consts(c->d[1]);

	for (; n >= 16; p += 16, n -= 16)
		x = veorq_u64(fold(x, k1), load(p, rev, idx));
	uint8x16_t b = vreinterpretq_u8_u64(x);

	if (rev)
		b = vqtbl1q_u8(b, idx);
	vst1q_u8(last, b);
	reg = fh_crc_portable_update(m, 0, last, 16);
	return fh_crc_portable_update(m, reg, p, n);
}

static uint64_t fold_reflected(const struct fh_crc_model *m,
			       const struct fh_fold_consts *c, uint64_t reg,
			       const uint8_t *p, size_t n)
{
	return fold_all(m, c, reg, p, n, false);
}

static uint64_t fold_normal(const struct fh_crc_model *m,
			    const struct fh_fold_consts *c, uint64_t reg,
			    const uint8_t *p, size_t n)
{
	return fold_all(m, c, reg, p, n, true);
}

uint64_t fh_crc_pmull_update(const struct fh_crc_model *m, uint64_t reg,
			     const uint8_t *p, size_t n)
{
	const struct fh_fold_consts *c = n >= 64 ? fh_fold_consts(m) : NULL;

	if (!c)
		return fh_crc_portable_update(m, reg, p, n);
	return m->reflected ? fold_reflected(m, c, reg, p, n)
			    : fold_normal(m, c, reg, p, n);
}

const struct fh_kernel fh_crc_pmull = {
	.name = "crc-pmull",
	.family = FH_FAMILY_CRC,
	.lanes = 1,
	.features = FH_CPU_ARM_PMULL,
	.blocks = FH_KERNEL_FN(fh_crc_update_fn, fh_crc_pmull_update),
};
