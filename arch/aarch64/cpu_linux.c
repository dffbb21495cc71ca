/* cpu_linux.c (AArch64): what Linux says of the CPU, with glibc, musl or
 * Bionic: the hardware capability word getauxval(AT_HWCAP) and, where the
 * SHA3 extension makes the core's identity matter, MIDR_EL1.  Meson builds
 * this file for Linux hosts whose C library declares getauxval. */
#include <stdio.h>
#include <sys/auxv.h>

#include "cpu_os.h"

/* MIDR_EL1 of this CPU, or 0 when it cannot be read.  With HWCAP_CPUID
 * Linux emulates the MRS for user space (its documentation,
 * arm64/cpu-feature-registers.rst); otherwise sysfs has CPU 0's. */
static uint32_t read_midr(unsigned long hwcap)
{
	if (hwcap & FH_HWCAP_CPUID)
		return fh_arm_mrs_midr();

	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/"
			"midr_el1", "r");
	unsigned long long v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llx", &v) != 1)
		v = 0;
	fclose(f);
	return (uint32_t)v;
}

void fh_cpu_arm_read(struct fh_arm_probe *p)
{
	unsigned long hw = getauxval(AT_HWCAP);

	p->source = FH_ARM_FROM_HWCAP;
	p->hwcap = hw;
	/* The identity matters only to the SHA3 kernels' preference, and
	 * reading it may mean opening a sysfs file: skip it elsewhere. */
	if (fh_cpu_arm_hwcap_features(hw) & FH_CPU_ARM_SHA3)
		p->midr = read_midr(hw);
}
