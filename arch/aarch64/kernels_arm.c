/* kernels_arm.c: the descriptors of the AArch64 kernels, whose code is in
 * md5_gpr.S, keccak_gpr.S, keccak_sha3ce.S, md5_neonx4.S, keccak_neonx2.S,
 * sha1_ce.S, sha256_ce.S and sha512_ce.S.  Pointers only, no ISA flags;
 * each descriptor says which CPU features its code needs.  The SHA-2
 * kernels get their round constants from here, through two wrappers, so
 * that the constants exist once, in lib/. */
#include "kernels_arm.h"
#include "sha256_k.h"
#include "sha512_k.h"

const struct fh_kernel fh_md5_gpr = {
	.name = "md5-gpr",
	.family = FH_FAMILY_MD5,
	.lanes = 1,
	.features = 0,
	.blocks = FH_KERNEL_FN(fh_md5_blocks_fn, fh_md5_blocks_gpr),
};

const struct fh_kernel fh_keccak_gpr = {
	.name = "keccak-gpr",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = 0,
	.blocks = FH_KERNEL_FN(fh_keccak_absorb_fn, fh_keccak_absorb_gpr),
	.permute = FH_KERNEL_FN(fh_keccak_permute_fn, fh_keccak_permute_gpr),
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
	.blocks = FH_KERNEL_FN(fh_keccak_absorb_fn, fh_keccak_absorb_sha3ce),
	.permute = FH_KERNEL_FN(fh_keccak_permute_fn, fh_keccak_permute_sha3ce),
};

/* The SHA kernels run wherever their instructions are: no core is known
 * where the general registers beat them. */
const struct fh_kernel fh_sha1_ce = {
	.name = "sha1-ce",
	.family = FH_FAMILY_SHA1,
	.lanes = 1,
	.features = FH_CPU_ARM_SHA1,
	.blocks = FH_KERNEL_FN(fh_sha1_blocks_fn, fh_sha1_blocks_ce),
};

static void sha256_blocks_ce(uint32_t state[8], const uint8_t *data,
			     size_t nblocks)
{
	fh_sha256_blocks_ce(state, data, nblocks, fh_sha256_k);
}

const struct fh_kernel fh_sha256_ce = {
	.name = "sha256-ce",
	.family = FH_FAMILY_SHA256,
	.lanes = 1,
	.features = FH_CPU_ARM_SHA2,
	.blocks = FH_KERNEL_FN(fh_sha256_blocks_fn, sha256_blocks_ce),
};

static void sha512_blocks_ce(uint64_t state[8], const uint8_t *data,
			     size_t nblocks)
{
	fh_sha512_blocks_ce(state, data, nblocks, fh_sha512_k);
}

const struct fh_kernel fh_sha512_ce = {
	.name = "sha512-ce",
	.family = FH_FAMILY_SHA512,
	.lanes = 1,
	.features = FH_CPU_ARM_SHA512,
	.blocks = FH_KERNEL_FN(fh_sha512_blocks_fn, sha512_blocks_ce),
};

/* Multi-buffer kernels: the same hashes, LANES messages at once. */

const struct fh_kernel fh_md5_neonx4 = {
	.name = "md5-neonx4",
	.family = FH_FAMILY_MD5,
	.lanes = 4,
	.features = FH_CPU_ARM_ASIMD,
	.blocks_xn = FH_KERNEL_FN(fh_md5_blocks_xn_fn, fh_md5_blocks_x4_neon),
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
	.blocks_xn = FH_KERNEL_FN(fh_keccak_absorb_xn_fn, fh_keccak_absorb_x2_sha3ce),
};

/* Registered because it beats two keccak-gpr streams by executed
 * instructions: 3,972 per pair of permutations against 6,288
 * (keccak_neonx2.S). */
const struct fh_kernel fh_keccak_neonx2 = {
	.name = "keccak-neonx2",
	.family = FH_FAMILY_KECCAK,
	.lanes = 2,
	.features = FH_CPU_ARM_ASIMD,
	.blocks_xn = FH_KERNEL_FN(fh_keccak_absorb_xn_fn, fh_keccak_absorb_x2_neon),
};
