/* md5_avx512x32.c: MD5 compression of 32 independent messages at once, as
 * four interleaved sets of eight, one message per 32-bit element of the
 * YMM registers (md5_avx512_sets.h has the code and the reasons for its
 * shape).  ISA: x86-64 + AVX-512VL (VPTERNLOGD and VPROLD on YMM); built
 * in the AVX-512 library with -mavx512f -mavx512vl, so it asks for
 * FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL.  32 lanes.
 *
 * Measured on an AMD EPYC Zen 4 (2 cores, shared; about 3.66 GHz by a
 * dependent ADD chain), gcc 12: `fhsum --benchmark -a md5`, every lane busy
 * on a 16 KiB buffer, whole hashes, kernels in turns, medians of 7 runs:
 * 11.0 GB/s aggregate, 14.0x md5-bmi (12.6-14.2x across runs), 0.33
 * cycles/byte; the kernel alone 0.30 cycles/byte on that layout (its lanes
 * at one page offset) and 0.28 with the lanes at distinct offsets.  The
 * step code alone ran 0.245 (md5_avx512_sets.h); the issue bound, 24 YMM
 * operations a step on four pipes plus the transposes' shuffles, is about
 * 0.21, and the chains' 0.16.  clang 14's build ran about 7% slower.  It
 * needs twice the inputs in flight of md5-avx512x16 (9.9x), which serves
 * when fewer are busy.
 */
#include <stdint.h>

#include "avx512_ops.h"
#include "kernels_x86.h"
#include "md5_steps.h"

#define FH_SETS 4
#include "md5_avx512_sets.h"

static void fh_md5_blocks_avx512x32(uint32_t (*states)[4],
				    const uint8_t *const *data, size_t nblocks)
{
	fh_md5_sets_blocks(states, data, nblocks);
}

const struct fh_kernel fh_md5_avx512x32 = {
	.name = "md5-avx512x32",
	.family = FH_FAMILY_MD5,
	.lanes = 32,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.blocks_xn = FH_KERNEL_FN(fh_md5_blocks_xn_fn, fh_md5_blocks_avx512x32),
};
