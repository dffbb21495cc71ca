/* cpu.c (x86-64): the CPU feature probe.  CPUID says what the processor
 * has; XCR0, read through XGETBV, says which register state the operating
 * system saves.  AVX2 is trusted only when XCR0 covers the XMM and YMM
 * state, AVX-512 only when it also covers the opmask and ZMM state.  No ISA
 * flags: this file runs on every x86-64 CPU. */
#include <cpuid.h>
#include <stdint.h>

#include "kernel.h"

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

uint32_t fh_cpu_probe(void)
{
	unsigned a, b, c, d;
	uint32_t f = 0;
	uint64_t xcr0 = 0;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	/* CPUID.1:ECX bit 27 OSXSAVE: XGETBV may be executed. */
	if (c & (1u << 27))
		xcr0 = xgetbv0();
	int avx_os = (xcr0 & 0x6) == 0x6;     /* XMM | YMM (Intel SDM 13.3) */
	int avx512_os = (xcr0 & 0xe6) == 0xe6; /* plus opmask, ZMM_Hi256, Hi16_ZMM */
	int avx = avx_os && (c & (1u << 28));

	if (__get_cpuid_max(0, 0) < 7)
		return 0;
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
	return f;
}
