/* cpu.c (AArch64): the CPU feature probe, from the kernel's hardware
 * capability bits (getauxval(AT_HWCAP)).  No ISA flags: this file runs on
 * every AArch64 CPU. */
#include <sys/auxv.h>

#include "kernel.h"

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1 << 17)
#endif

uint32_t fh_cpu_probe(void)
{
	unsigned long hw = getauxval(AT_HWCAP);
	uint32_t f = 0;

	if (hw & HWCAP_ASIMD)
		f |= FH_CPU_ARM_ASIMD;
	if (hw & HWCAP_SHA3)
		f |= FH_CPU_ARM_SHA3;
	return f;
}
