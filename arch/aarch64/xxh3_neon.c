/* xxh3_neon.c: XXH3's blocks (fh_xxh3_blocks_fn) on Advanced SIMD, one
 * stream, in C (intrinsics need no flag on AArch64): the eight 64-bit
 * accumulators in four Q registers, each stripe's accumulate step as the
 * specification writes it (data XOR secret, its halves' 32x32 product
 * added, UMLAL; the data added to the neighbouring accumulator, the two
 * lanes of each register swapped), then the block's scramble, the
 * multiply by PRIME32_1 as two 32x32 products.  XXH32, XXH64 and XXH3's
 * short inputs and last stripes stay in xxhash.c's scalar code.  Under
 * qemu (tests/bench/aarch64-insns.sh) 1025 instructions a 1 KiB block,
 * against the portable C's 2279 (gcc 12 -O2). */
#include <arm_neon.h>

#include "../../lib/xxhash.h"
#include "kernels_arm.h"

#define P32_1 0x9E3779B1u

static inline uint64x2_t load(const uint8_t *p)
{
	return vreinterpretq_u64_u8(vld1q_u8(p));
}

static void xxh3_blocks_neon(uint64_t acc[8], const uint8_t *p, size_t nblocks)
{
	const uint8_t *s = fh_xxh3_secret;
	uint64x2_t a[4];
	const uint32x2_t prime = vdup_n_u32(P32_1);

	for (int i = 0; i < 4; i++)
		a[i] = vld1q_u64(acc + 2 * i);
	for (; nblocks; nblocks--, p += 1024) {
		for (int n = 0; n < 16; n++) {
			const uint8_t *d = p + 64 * n, *k = s + 8 * n;

			for (int i = 0; i < 4; i++) {
				uint64x2_t v = load(d + 16 * i);
				uint64x2_t x = veorq_u64(v, load(k + 16 * i));

				a[i] = vaddq_u64(a[i], vextq_u64(v, v, 1));
				a[i] = vmlal_u32(a[i], vmovn_u64(x), vshrn_n_u64(x, 32));
			}
		}
		for (int i = 0; i < 4; i++) {
			uint64x2_t x = veorq_u64(a[i], vshrq_n_u64(a[i], 47));

			x = veorq_u64(x, load(s + 128 + 16 * i));
			/* x * P32_1 mod 2^64: lo(x) * P + (hi(x) * P) << 32. */
			a[i] = vshlq_n_u64(vmull_u32(vshrn_n_u64(x, 32), prime), 32);
			a[i] = vmlal_u32(a[i], vmovn_u64(x), prime);
		}
	}
	for (int i = 0; i < 4; i++)
		vst1q_u64(acc + 2 * i, a[i]);
}

const struct fh_kernel fh_xxh_neon = {
	.name = "xxh-neon",
	.family = FH_FAMILY_XXH,
	.lanes = 1,
	.features = FH_CPU_ARM_ASIMD,
	.blocks = FH_KERNEL_FN(fh_xxh3_blocks_fn, xxh3_blocks_neon),
};
