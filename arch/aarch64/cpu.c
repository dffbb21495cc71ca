/* cpu.c (AArch64): the CPU probe.  The OS-specific file Meson chose
 * (cpu_os.h) reads the raw facts; lib/cpu_rules.c turns them into
 * features and an identity, from which lib/cpu_traits.c derives
 * FH_CPU_ARM_SHA3_FAST.  No ISA flags: this file runs on every AArch64
 * CPU. */
#include "cpu_os.h"
#include "kernel.h"

void fh_cpu_probe(struct fh_cpu_id *id)
{
	struct fh_arm_probe p = {
		.source = FH_ARM_FROM_NOTHING,
		.feat_sha3 = FH_SYSCTL_ABSENT,
		.armv8_2_sha3 = FH_SYSCTL_ABSENT,
		.neon = FH_SYSCTL_ABSENT,
		.feat_sha1 = FH_SYSCTL_ABSENT,
		.feat_sha256 = FH_SYSCTL_ABSENT,
		.feat_sha512 = FH_SYSCTL_ABSENT,
		.armv8_2_sha512 = FH_SYSCTL_ABSENT,
		.feat_pmull = FH_SYSCTL_ABSENT,
		.armv8_crc32 = FH_SYSCTL_ABSENT,
	};

	fh_cpu_arm_read(&p);
	fh_cpu_arm_decide(&p, id);
}
