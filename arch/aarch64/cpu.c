/* cpu.c (AArch64): the CPU probe, from the kernel's hardware capability
 * bits (getauxval(AT_HWCAP)) and the CPU's identity (MIDR_EL1), from
 * which lib/cpu_traits.c derives FH_CPU_ARM_SHA3_FAST.  No ISA flags: this
 * file runs on every AArch64 CPU. */
#include <stdio.h>
#include <sys/auxv.h>

#include "kernel.h"

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1 << 11)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1 << 17)
#endif

/* MIDR_EL1 of this CPU, or 0 when it cannot be read.  With HWCAP_CPUID
 * Linux emulates the MRS for user space (its documentation,
 * arm64/cpu-feature-registers.rst); otherwise sysfs has CPU 0's. */
static uint64_t read_midr(unsigned long hwcap)
{
	uint64_t midr = 0;

	if (hwcap & HWCAP_CPUID) {
		__asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
		return midr;
	}
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/"
			"midr_el1", "r");
	if (!f)
		return 0;
	unsigned long long v;
	if (fscanf(f, "%llx", &v) == 1)
		midr = v;
	fclose(f);
	return midr;
}

void fh_cpu_probe(struct fh_cpu_id *id)
{
	unsigned long hw = getauxval(AT_HWCAP);
	uint32_t f = 0;

	if (hw & HWCAP_ASIMD)
		f |= FH_CPU_ARM_ASIMD;
	if (hw & HWCAP_SHA3)
		f |= FH_CPU_ARM_SHA3;
	/* The identity matters only to the SHA3 kernels' preference; reading
	 * it may mean opening a sysfs file, so skip it elsewhere. */
	*id = (struct fh_cpu_id){
		.features = f,
		.vendor = FH_VENDOR_ARM_IMPL,
		.midr = (f & FH_CPU_ARM_SHA3) ? (uint32_t)read_midr(hw) : 0,
	};
}
