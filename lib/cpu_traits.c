/* cpu_traits.c: the identity traits of a CPU, from what its probe read.
 * Plain C with no instruction of any ISA, so the rules for every
 * architecture build and are tested everywhere (tests/unit/test_select.c).
 * A trait says where a kernel that runs also pays; lib/dispatch.c's
 * tables say which kernels ask for which trait. */
#include "kernel.h"

/* MIDR_EL1 bits [31:24] name the implementer (Arm Architecture Reference
 * Manual, MIDR_EL1); 0x61 is Apple. */
#define FH_MIDR_IMPLEMENTER(midr) (((midr) >> 24) & 0xff)
#define FH_MIDR_APPLE 0x61

uint32_t fh_cpu_traits(const struct fh_cpu_id *id)
{
	uint32_t f = id->features;

	/* Every Intel core with AVX-512 (family 6 and later: Skylake-X, Ice
	 * Lake, Sapphire Rapids) runs VPROLD in one cycle, which makes the
	 * one-stream AVX-512VL MD5 4.05 cycles/byte against 4.55 on general
	 * registers (animetosho/md5-optimisation's README: 4.051 against
	 * 4.546 on Skylake-X).  AMD Zen 4 and 5 take two,
	 * and there md5-bmi wins (785 against 654 MB/s measured on Zen 4). */
	if (id->vendor == FH_VENDOR_INTEL && id->family >= 6 &&
	    (f & FH_CPU_X86_AVX512VL))
		f |= FH_CPU_X86_VPROL_FAST;
	/* Few busy MD5 lanes: md5-avx2x8, but on AMD Zen 5 with AVX-512 the
	 * 16 lanes of md5-avx512x16 (kernel.h, FH_CPU_X86_AVX2_NARROW). */
	bool zen5 = id->vendor == FH_VENDOR_AMD && id->family == 26 &&
		    (f & FH_CPU_X86_AVX512F) && (f & FH_CPU_X86_AVX512VL);

	if ((f & FH_CPU_X86_AVX2) && !zen5)
		f |= FH_CPU_X86_AVX2_NARROW;
	if ((f & FH_CPU_X86_AVX2) && !(f & FH_CPU_X86_SHA))
		f |= FH_CPU_X86_NO_SHA;
	/* Only Apple's cores issue EOR3/RAX1/XAR/BCAX on every vector pipe;
	 * Neoverse V1/V2 issue them on one of four and N2 on one of two, where
	 * keccak-gpr is about twice as fast (AWS-LC's keccak1600.c; about
	 * 1555 against 753 cycles a permutation on Graviton4, DaniPopes/
	 * keccak-asm, its report of Graviton4 figures).
	 * Unknown cores get keccak-gpr, which is never far behind.  Apple's
	 * cores show as implementer 0x61 where MIDR can be read (Linux on
	 * Apple silicon) and as FH_VENDOR_APPLE on macOS, which hides MIDR. */
	bool apple = id->vendor == FH_VENDOR_APPLE ||
		     (id->vendor == FH_VENDOR_ARM_IMPL &&
		      FH_MIDR_IMPLEMENTER(id->midr) == FH_MIDR_APPLE);

	if (apple && (f & FH_CPU_ARM_SHA3))
		f |= FH_CPU_ARM_SHA3_FAST;
	return f;
}
