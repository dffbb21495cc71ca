/* md5_avx512x16.c: MD5 compression of 16 independent messages at once, as
 * two interleaved sets of eight, one message per 32-bit element of the
 * YMM registers (md5_avx512_sets.h has the code and the reasons for its
 * shape).  ISA: x86-64 + AVX-512VL (VPTERNLOGD and VPROLD on YMM); built
 * in the AVX-512 library with -mavx512f -mavx512vl, so it asks for
 * FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL.  16 lanes.
 *
 * Measured on an AMD EPYC Zen 4 (2 cores, shared; about 3.66 GHz by a
 * dependent ADD chain), gcc 12: `fhsum --benchmark -a md5`, every lane busy
 * on a 16 KiB buffer, whole hashes, kernels in turns, medians of 7 runs:
 * 7.74 GB/s aggregate, 9.9x md5-bmi, 0.47 cycles/byte; the kernel alone
 * 0.44.  This file's earlier shape, one set of sixteen in ZMM with the
 * message transposed at each block's start, ran 6.78 GB/s (8.7x, 0.54
 * cycles/byte).  In step code alone one ZMM set and two YMM sets ran
 * alike (0.36-0.39 cycles/byte), but with the transposes spread through
 * the steps only the two sets gained (15%; the one ZMM set 0-3%): one
 * chain leaves no idle issue slots to hide them in.  Twelve times md5-bmi
 * is out of reach for sixteen lanes: two 5-cycle chains of eight bound
 * them to 0.31 cycles/byte, and their step code alone, at 0.37, is about
 * what 12x whole hashes would need before any transpose.
 */
#include <stdint.h>

#include "avx512_ops.h"
#include "kernels_x86.h"
#include "md5_steps.h"

#define FH_SETS 2
#include "md5_avx512_sets.h"

static void fh_md5_blocks_avx512x16(uint32_t (*states)[4],
				    const uint8_t *const *data, size_t nblocks)
{
	fh_md5_sets_blocks(states, data, nblocks);
}

const struct fh_kernel fh_md5_avx512x16 = {
	.name = "md5-avx512x16",
	.family = FH_FAMILY_MD5,
	.lanes = 16,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL,
	.blocks_xn = FH_KERNEL_FN(fh_md5_blocks_xn_fn, fh_md5_blocks_avx512x16),
};
