/* kernels_arm.h: the AArch64 kernels' descriptors, for lib/dispatch.c's
 * tables, and their assembly entry points, for the descriptors and the unit
 * tests.  Only declarations. */
#ifndef FH_KERNELS_ARM_H
#define FH_KERNELS_ARM_H

#include <stdint.h>

#include "kernel.h"

/* md5-gpr: MD5 in general registers (md5_gpr.S); every AArch64 CPU. */
extern const struct fh_kernel fh_md5_gpr;
/* keccak-gpr: Keccak with all 25 lanes in general registers
 * (keccak_gpr.S); every AArch64 CPU. */
extern const struct fh_kernel fh_keccak_gpr;
/* keccak-sha3ce: Keccak with the SHA3 extension (keccak_sha3ce.S).  Runs
 * with FH_CPU_ARM_SHA3; chosen by default only with FH_CPU_ARM_SHA3_FAST. */
extern const struct fh_kernel fh_keccak_sha3ce;

/* The entry points, with the types of kernel.h. */
fh_md5_blocks_fn fh_md5_blocks_gpr;
fh_keccak_absorb_fn fh_keccak_absorb_gpr;
fh_keccak_permute_fn fh_keccak_permute_gpr;
fh_keccak_absorb_fn fh_keccak_absorb_sha3ce;
fh_keccak_permute_fn fh_keccak_permute_sha3ce;

/* Keccak-f[1600] on two states at once, one in each 64-bit half of the
 * vector registers (keccak_sha3ce.S): the same instructions as one state.
 * Needs FH_CPU_ARM_SHA3.  Not a kernel until the descriptor has a
 * multi-buffer interface; tested by tests/unit/test_keccak_x2.c. */
void fh_keccak_permute_x2_sha3ce(uint64_t s0[25], uint64_t s1[25]);

#endif
