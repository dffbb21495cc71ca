/* cpu.c (x86-64): the CPU probe.  CPUID says what the processor has and
 * who made it; XCR0, read through XGETBV, says which register state the
 * operating system saves.  AVX2 is trusted only when XCR0 covers the XMM
 * and YMM state, AVX-512 only when it also covers the opmask and ZMM
 * state.  No ISA flags: this file runs on every x86-64 CPU. */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>

#include "kernel.h"

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* The vendor string of CPUID leaf 0 (EBX, EDX, ECX) and the display
 * family and model of leaf 1 (Intel SDM Vol. 2A, CPUID): the extended
 * family counts where the base family is 15, the extended model where it
 * is 6 or 15 (AMD's parts of family 6 have no extended model bits). */
static void identify(struct fh_cpu_id *id)
{
	unsigned a, b, c, d;
	char v[13];

	__cpuid(0, a, b, c, d);
	memcpy(v, &b, 4);
	memcpy(v + 4, &d, 4);
	memcpy(v + 8, &c, 4);
	v[12] = '\0';
	if (strcmp(v, "GenuineIntel") == 0)
		id->vendor = FH_VENDOR_INTEL;
	else if (strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0)
		id->vendor = FH_VENDOR_AMD;
	__cpuid(1, a, b, c, d);
	unsigned base = (a >> 8) & 0xf, fam = base, model = (a >> 4) & 0xf;

	if (base == 15)
		fam += (a >> 20) & 0xff;
	if (base == 15 || base == 6)
		model |= ((a >> 16) & 0xf) << 4;
	id->family = fam;
	id->model = model;
}

void fh_cpu_probe(struct fh_cpu_id *id)
{
	unsigned a, b, c, d;
	uint32_t f = 0;
	uint64_t xcr0 = 0;

	*id = (struct fh_cpu_id){ .vendor = FH_VENDOR_UNKNOWN };
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	identify(id);
	/* CPUID.1:ECX bit 27 OSXSAVE: XGETBV may be executed. */
	if (c & (1u << 27))
		xcr0 = xgetbv0();
	int avx_os = (xcr0 & 0x6) == 0x6;     /* XMM | YMM (Intel SDM 13.3) */
	int avx512_os = (xcr0 & 0xe6) == 0xe6; /* plus opmask, ZMM_Hi256, Hi16_ZMM */
	int avx = avx_os && (c & (1u << 28));

	if (__get_cpuid_max(0, 0) < 7)
		return;
	__cpuid_count(7, 0, a, b, c, d);
	if (b & (1u << 3))
		f |= FH_CPU_X86_BMI1;
	if (b & (1u << 8))
		f |= FH_CPU_X86_BMI2;
	if (avx && (b & (1u << 5)))
		f |= FH_CPU_X86_AVX2;
	if (avx && avx512_os && (b & (1u << 16))) {
		f |= FH_CPU_X86_AVX512F;
		if (b & (1u << 31))
			f |= FH_CPU_X86_AVX512VL;
		if (b & (1u << 30))
			f |= FH_CPU_X86_AVX512BW;
	}
	id->features = f;
}
