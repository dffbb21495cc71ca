/* md5_bmi.c: the descriptor of the md5-bmi kernel, whose compression
 * function is the assembly in md5_bmi.S.  ISA: x86-64 + BMI1. */
#include "kernels_x86.h"

const struct fh_kernel fh_md5_bmi = {
	.name = "md5-bmi",
	.family = FH_FAMILY_MD5,
	.lanes = 1,
	.features = FH_CPU_X86_BMI1,
	.blocks = FH_KERNEL_FN(fh_md5_blocks_fn, fh_md5_blocks_bmi),
};
