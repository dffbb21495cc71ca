/* kernels_arm.c: the descriptors of the AArch64 kernels, whose code is in
 * md5_gpr.S, keccak_gpr.S and keccak_sha3ce.S.  Pointers only, no ISA
 * flags; each descriptor says which CPU features its code needs. */
#include "kernels_arm.h"

const struct fh_kernel fh_md5_gpr = {
	.name = "md5-gpr",
	.family = FH_FAMILY_MD5,
	.lanes = 1,
	.features = 0,
	.md5_blocks = fh_md5_blocks_gpr,
};

const struct fh_kernel fh_keccak_gpr = {
	.name = "keccak-gpr",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = 0,
	.keccak_absorb = fh_keccak_absorb_gpr,
	.keccak_permute = fh_keccak_permute_gpr,
};

/* Runs wherever the SHA3 extension is, but is the default only where it
 * issues on every vector pipe (Apple); on Neoverse V1/V2/N2 it is about
 * half the speed of keccak-gpr (see keccak_sha3ce.S). */
const struct fh_kernel fh_keccak_sha3ce = {
	.name = "keccak-sha3ce",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = FH_CPU_ARM_SHA3,
	.prefer = FH_CPU_ARM_SHA3_FAST,
	.keccak_absorb = fh_keccak_absorb_sha3ce,
	.keccak_permute = fh_keccak_permute_sha3ce,
};
