/* cpu.c (AArch64): the CPU feature probe, from the kernel's hardware
 * capability bits (getauxval(AT_HWCAP)) and, for FH_CPU_ARM_SHA3_FAST, the
 * CPU's identity (MIDR_EL1).  No ISA flags: this file runs on every AArch64
 * CPU. */
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

/* MIDR_EL1 bits [31:24] name the implementer (Arm Architecture Reference
 * Manual, MIDR_EL1); 0x61 is Apple. */
#define FH_MIDR_IMPLEMENTER(midr) (((midr) >> 24) & 0xff)
#define FH_MIDR_APPLE 0x61

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

/* Whether the SHA3 extension beats keccak-gpr on this CPU.  Only Apple's
 * cores issue EOR3/RAX1/XAR/BCAX on every vector pipe; Neoverse V1/V2 issue
 * them on one of four and N2 on one of two, where keccak-gpr is about twice
 * as fast (research/perf-anchors.md §4).  Unknown cores get keccak-gpr,
 * which is never far behind. */
static int sha3_pays(uint64_t midr)
{
	return FH_MIDR_IMPLEMENTER(midr) == FH_MIDR_APPLE;
}

uint32_t fh_cpu_probe(void)
{
	unsigned long hw = getauxval(AT_HWCAP);
	uint32_t f = 0;

	if (hw & HWCAP_ASIMD)
		f |= FH_CPU_ARM_ASIMD;
	if (hw & HWCAP_SHA3) {
		f |= FH_CPU_ARM_SHA3;
		if (sha3_pays(read_midr(hw)))
			f |= FH_CPU_ARM_SHA3_FAST;
	}
	return f;
}
