/* xxh3_avx512.c: XXH3's blocks (fh_xxh3_blocks_fn) on AVX-512F
 * (-mavx512f), one stream: xxh3_avx2.c's steps with the eight 64-bit
 * accumulators in one ZMM register, a whole 64-byte stripe an
 * accumulate step (data XOR secret, its halves' 32x32 product added; the
 * data added to the neighbouring accumulator, lanes swapped in pairs),
 * then the block's scramble, whose three-way XOR is one VPTERNLOGQ and
 * whose multiply by PRIME32_1 is two 32x32 products.
 *
 * With FH_AVX512_EMULATE every operation is plain C with the SDM's
 * semantics (avx512_ops.h), so that test_crc_xxh_avx512_emu.c checks
 * this kernel's logic on CPUs without AVX-512; only a run on AVX-512
 * hardware checks the compiler's code (tests/unit's `kernel
 * xxh-avx512`).  On Intel family 6 model 207 (`fhsum --benchmark`, 16
 * KiB buffers): XXH3 23.6 GB/s against xxh-avx2's 20.2. */
#include <stdint.h>
#include <string.h>

#include "../../lib/bytes.h"
#include "../../lib/xxhash.h"
#include "avx512_ops.h"
#include "kernels_x86.h"

#define P32_1 0x9E3779B1u

static void xxh3_blocks_avx512(uint64_t acc[8], const uint8_t *p, size_t nblocks)
{
	const uint8_t *s = fh_xxh3_secret;
	fh_zmm a = FH_Z_LOADU(acc);
	const fh_zmm prime = FH_Z_SET1_64(P32_1);

	for (; nblocks; nblocks--, p += 1024) {
		for (int n = 0; n < 16; n++) {
			fh_prefetch_far(p + 64 * n);
			fh_zmm d = FH_Z_LOADU(p + 64 * n);
			fh_zmm x = FH_Z_XOR(d, FH_Z_LOADU(s + 8 * n));

			a = FH_Z_ADD64(a, FH_Z_MULU32(x, FH_Z_SRLI64(x, 32)));
			a = FH_Z_ADD64(a, FH_Z_SWAP64(d));
		}
		a = FH_Z_TERNLOG64(a, FH_Z_SRLI64(a, 47), FH_Z_LOADU(s + 128),
				   FH_TL_XOR3);
		/* a * P32_1 mod 2^64: lo(a) * P + (hi(a) * P) << 32. */
		a = FH_Z_ADD64(FH_Z_MULU32(a, prime),
			       FH_Z_SLLI64(FH_Z_MULU32(FH_Z_SRLI64(a, 32), prime), 32));
	}
	FH_Z_STOREU(acc, a);
}

const struct fh_kernel fh_xxh_avx512 = {
	.name = "xxh-avx512",
	.family = FH_FAMILY_XXH,
	.lanes = 1,
	.features = FH_CPU_X86_AVX512F,
	.blocks = FH_KERNEL_FN(fh_xxh3_blocks_fn, xxh3_blocks_avx512),
};
