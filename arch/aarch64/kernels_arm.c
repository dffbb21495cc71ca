/* kernels_arm.c: the descriptors of the AArch64 kernels, whose code is in
 * md5_gpr.S, keccak_gpr.S, keccak_sha3ce.S, md5_neonx4.S and
 * keccak_neonx2.S.  Pointers only, no ISA flags; each descriptor says
 * which CPU features its code needs. */
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

/* Multi-buffer kernels: the same hashes, LANES messages at once. */

const struct fh_kernel fh_md5_neonx4 = {
	.name = "md5-neonx4",
	.family = FH_FAMILY_MD5,
	.lanes = 4,
	.features = FH_CPU_ARM_ASIMD,
	.md5_blocks_xn = fh_md5_blocks_x4_neon,
};

/* Two states in the two halves of the SHA3 extension's registers, at the
 * cost of one.  The same preference as keccak-sha3ce: on Neoverse V1/V2/N2
 * its 24 x 64 SHA3 instructions per permutation issue on one vector pipe,
 * at least 1536 cycles for the pair, where keccak-neonx2's 3,972 plain
 * instructions spread over all of them (arithmetic, not a measurement). */
const struct fh_kernel fh_keccak_sha3cex2 = {
	.name = "keccak-sha3cex2",
	.family = FH_FAMILY_KECCAK,
	.lanes = 2,
	.features = FH_CPU_ARM_SHA3,
	.prefer = FH_CPU_ARM_SHA3_FAST,
	.keccak_absorb_xn = fh_keccak_absorb_x2_sha3ce,
};

/* Registered because it beats two keccak-gpr streams by executed
 * instructions: 3,972 per pair of permutations against 6,288
 * (keccak_neonx2.S). */
const struct fh_kernel fh_keccak_neonx2 = {
	.name = "keccak-neonx2",
	.family = FH_FAMILY_KECCAK,
	.lanes = 2,
	.features = FH_CPU_ARM_ASIMD,
	.keccak_absorb_xn = fh_keccak_absorb_x2_neon,
};
