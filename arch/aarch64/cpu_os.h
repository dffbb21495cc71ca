/* cpu_os.h (AArch64): between the probe (cpu.c), which every AArch64 build
 * has, and the one file Meson picks for the host's operating system
 * (cpu_linux.c, cpu_darwin.c, cpu_freebsd.c, cpu_other.c), which reads
 * what that OS says of the CPU.  Decisions belong to lib/cpu_rules.c. */
#ifndef FH_ARCH_AARCH64_CPU_OS_H
#define FH_ARCH_AARCH64_CPU_OS_H

#include <stdint.h>

#include "cpu_rules.h"

/* Fills P with this OS's raw view of the CPU.  P arrives with source
 * FH_ARM_FROM_NOTHING, every sysctl FH_SYSCTL_ABSENT and the rest 0. */
void fh_cpu_arm_read(struct fh_arm_probe *p);

/* MIDR_EL1 through MRS.  EL0 may not read it on its own: call this only
 * where the kernel traps and emulates the read for user space, which
 * Linux and FreeBSD announce with HWCAP_CPUID.  macOS does not. */
static inline uint32_t fh_arm_mrs_midr(void)
{
	uint64_t midr;

	__asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
	return (uint32_t)midr;
}

#endif
