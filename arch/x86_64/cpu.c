/* cpu.c (x86-64): the CPU probe.  CPUID says what the processor has and
 * who made it; XCR0, read through XGETBV, says which register state the
 * operating system saves; the file Meson chose for the OS (cpu_os.h) adds
 * what only the OS can say (macOS: AVX-512).  lib/cpu_rules.c decides from
 * all of it.  No ISA flags: this file runs on every x86-64 CPU. */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>

#include "cpu_os.h"
#include "kernel.h"

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

void fh_cpu_probe(struct fh_cpu_id *id)
{
	struct fh_x86_probe p = { .avx512f_sysctl = FH_SYSCTL_ABSENT };
	unsigned a, b, c, d;

	__cpuid(0, a, b, c, d);
	p.max_leaf = a;
	memcpy(p.vendor, &b, 4);
	memcpy(p.vendor + 4, &d, 4);
	memcpy(p.vendor + 8, &c, 4);
	if (p.max_leaf >= 1) {
		__cpuid(1, a, b, c, d);
		p.leaf1_eax = a;
		p.leaf1_ecx = c;
		/* XGETBV faults unless the OS has set CR4.OSXSAVE. */
		if (c & FH_X86_L1C_OSXSAVE)
			p.xcr0 = xgetbv0();
	}
	if (p.max_leaf >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		p.leaf7_ebx = b;
		p.leaf7_ecx = c;
	}
	fh_cpu_x86_read_os(&p);
	fh_cpu_x86_decide(&p, id);
}
