/* cpu_darwin.c (AArch64): what macOS says of the CPU, through sysctls;
 * macOS gives user space neither an auxiliary vector nor MRS of MIDR_EL1.
 * Every arm64 Mac has an Apple core, which lib/cpu_rules.c records as
 * FH_VENDOR_APPLE with the core design's hw.cpufamily.  Meson builds this
 * file for Darwin hosts.
 *
 * From sysctlbyname(3): "int sysctlbyname(const char *name, void *oldp,
 * size_t *oldlenp, void *newp, size_t newlen)", declared in <sys/sysctl.h>;
 * it returns 0 on success and -1 with errno set on failure, ENOENT for a
 * name the kernel does not know.  The hw.optional.* names and hw.cpufamily
 * hold a 32-bit int. */
#include <stddef.h>
#include <sys/types.h>
#include <sys/sysctl.h>

#include "cpu_os.h"

/* The int sysctl NAME into *V; false when the kernel has no such name. */
static bool read_int(const char *name, int *v)
{
	size_t len = sizeof *v;

	return sysctlbyname(name, v, &len, NULL, 0) == 0 && len == sizeof *v;
}

static int read_flag(const char *name)
{
	int v;

	return read_int(name, &v) ? v : FH_SYSCTL_ABSENT;
}

void fh_cpu_arm_read(struct fh_arm_probe *p)
{
	int fam;

	p->source = FH_ARM_FROM_SYSCTL;
	p->feat_sha3 = read_flag("hw.optional.arm.FEAT_SHA3");
	p->armv8_2_sha3 = read_flag("hw.optional.armv8_2_sha3");
	p->neon = read_flag("hw.optional.neon");
	p->feat_sha1 = read_flag("hw.optional.arm.FEAT_SHA1");
	p->feat_sha256 = read_flag("hw.optional.arm.FEAT_SHA256");
	p->feat_sha512 = read_flag("hw.optional.arm.FEAT_SHA512");
	p->armv8_2_sha512 = read_flag("hw.optional.armv8_2_sha512");
	p->feat_pmull = read_flag("hw.optional.arm.FEAT_PMULL");
	p->armv8_crc32 = read_flag("hw.optional.armv8_crc32");
	if (read_int("hw.cpufamily", &fam))
		p->cpufamily = (uint32_t)fam;
}
