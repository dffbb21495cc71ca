/* cpu_rules.c: the decisions of every CPU probe, from the raw values each
 * operating system gives (lib/cpu_rules.h): AT_HWCAP words, macOS sysctls,
 * CPUID and XCR0.  Plain C with no OS header and no instruction of any
 * ISA, so each OS's rules build and are tested on every machine
 * (tests/unit/test_select.c); the arch/<isa>/cpu_<os>.c files only read.
 */
#include <string.h>

#include "cpu_rules.h"

uint32_t fh_cpu_arm_hwcap_features(unsigned long hwcap)
{
	uint32_t f = 0;

	if (hwcap & FH_HWCAP_ASIMD)
		f |= FH_CPU_ARM_ASIMD;
	if (hwcap & FH_HWCAP_SHA1)
		f |= FH_CPU_ARM_SHA1;
	if (hwcap & FH_HWCAP_SHA2)
		f |= FH_CPU_ARM_SHA2;
	if (hwcap & FH_HWCAP_SHA3)
		f |= FH_CPU_ARM_SHA3;
	if (hwcap & FH_HWCAP_SHA512)
		f |= FH_CPU_ARM_SHA512;
	if (hwcap & FH_HWCAP_PMULL)
		f |= FH_CPU_ARM_PMULL;
	if (hwcap & FH_HWCAP_CRC32)
		f |= FH_CPU_ARM_CRC32;
	return f;
}

/* macOS: the SHA3 extension is FEAT_SHA3 under hw.optional.arm from
 * macOS 12, hw.optional.armv8_2_sha3 on macOS 11 (Go's
 * internal/cpu/cpu_arm64_darwin.go and OpenJDK say macOS 12, golang/sys's
 * cpu_darwin_arm64.go says 13: the sources disagree on the release that
 * renamed it, so whichever name the kernel knows decides, the new one
 * first, as zlib-ng and OpenJDK do).  A name that reads 0 says the extension is absent. */
static bool darwin_sha3(const struct fh_arm_probe *p)
{
	int v = p->feat_sha3 != FH_SYSCTL_ABSENT ? p->feat_sha3 : p->armv8_2_sha3;

	return v > 0;
}

/* macOS: the SHA512 instructions, likewise FEAT_SHA512 from macOS 12 and
 * hw.optional.armv8_2_sha512 before; absent under both names means not
 * there, as for SHA3. */
static bool darwin_sha512(const struct fh_arm_probe *p)
{
	int v = p->feat_sha512 != FH_SYSCTL_ABSENT ? p->feat_sha512
						   : p->armv8_2_sha512;

	return v > 0;
}

void fh_cpu_arm_decide(const struct fh_arm_probe *p, struct fh_cpu_id *id)
{
	uint32_t f = 0;

	*id = (struct fh_cpu_id){ .vendor = FH_VENDOR_ARM_IMPL };
	switch (p->source) {
	case FH_ARM_FROM_HWCAP:
		f = fh_cpu_arm_hwcap_features(p->hwcap);
		id->midr = p->midr;
		break;
	case FH_ARM_FROM_SYSCTL:
		/* Advanced SIMD is part of every Apple arm64 core and of the
		 * ABI macOS uses (floating-point arguments travel in its
		 * registers), so only an explicit 0 takes it away. */
		if (p->neon != 0)
			f |= FH_CPU_ARM_ASIMD;
		/* SHA1 and SHA2 (SHA-256) are in every Apple arm64 core, and
		 * macOS 11 has no sysctl for them (FEAT_SHA1 and FEAT_SHA256
		 * came with the hw.optional.arm tree): like Advanced SIMD,
		 * only an explicit 0 takes them away. */
		if (p->feat_sha1 != 0)
			f |= FH_CPU_ARM_SHA1;
		if (p->feat_sha256 != 0)
			f |= FH_CPU_ARM_SHA2;
		/* PMULL and the CRC32 instructions are in every Apple arm64
		 * core too (CRC32 is part of ARMv8.1, which all of them
		 * implement); macOS 11 has no name for PMULL: only an
		 * explicit 0 takes either away. */
		if (p->feat_pmull != 0)
			f |= FH_CPU_ARM_PMULL;
		if (p->armv8_crc32 != 0)
			f |= FH_CPU_ARM_CRC32;
		if (darwin_sha3(p))
			f |= FH_CPU_ARM_SHA3;
		if (darwin_sha512(p))
			f |= FH_CPU_ARM_SHA512;
		id->vendor = FH_VENDOR_APPLE;
		id->apple_cpufamily = p->cpufamily;
		break;
	case FH_ARM_FROM_NOTHING:
	default:
		/* No way to ask: only what every AArch64 system that runs
		 * this build has.  Advanced SIMD is one of them, as ARMv8-A
		 * requires it wherever FP is implemented, the AAPCS64 passes
		 * floating-point values in its registers, and the compiler's
		 * default -march for aarch64 already emits it in plain C.
		 * Extensions (SHA1, SHA2, SHA3, SHA512, PMULL, CRC32) are
		 * never assumed. */
		f = FH_CPU_ARM_ASIMD;
		break;
	}
	id->features = f;
}

/* The display family and model of CPUID leaf 1's signature (Intel SDM
 * Vol. 2A, CPUID, "Feature Information"): the extended family counts where
 * the base family is 15, the extended model where it is 6 or 15 (AMD's
 * parts of family 6 have no extended model bits). */
static void x86_signature(uint32_t eax, struct fh_cpu_id *id)
{
	unsigned base = (eax >> 8) & 0xf, fam = base, model = (eax >> 4) & 0xf;

	if (base == 15)
		fam += (eax >> 20) & 0xff;
	if (base == 15 || base == 6)
		model |= ((eax >> 16) & 0xf) << 4;
	id->family = fam;
	id->model = model;
}

/* Whether the OS saves the AVX-512 state (opmask and all of ZMM).
 *
 * Elsewhere XCR0 says so.  macOS turns that state on for a thread only
 * after its first AVX-512 instruction traps, so XCR0 under-reports there
 * and the kernel's word is hw.optional.avx512f (xnu osfmk/i386/fpu.c;
 * https://github.com/golang/go/issues/43089).  Darwin 19.6.0 to 21.2.0
 * (macOS 10.15.6 to 12.1) may also corrupt the opmask registers K0-K7 on
 * return from a signal handler, fixed in 21.3.0, macOS 12.2
 * (https://github.com/golang/go/issues/49233), so AVX-512 is trusted from
 * 21.3 on only. */
static bool x86_avx512_state(const struct fh_x86_probe *p, uint64_t xcr0)
{
	if (p->darwin)
		return p->avx512f_sysctl > 0 &&
		       fh_darwin_release_at_least(p->osrelease, 21, 3);
	return (xcr0 & FH_X86_XCR0_AVX512) == FH_X86_XCR0_AVX512;
}

void fh_cpu_x86_decide(const struct fh_x86_probe *p, struct fh_cpu_id *id)
{
	*id = (struct fh_cpu_id){ .vendor = FH_VENDOR_UNKNOWN };
	if (p->max_leaf < 1)
		return;
	/* Hygon's Dhyana is AMD's Zen under licence. */
	if (strcmp(p->vendor, "GenuineIntel") == 0)
		id->vendor = FH_VENDOR_INTEL;
	else if (strcmp(p->vendor, "AuthenticAMD") == 0 ||
		 strcmp(p->vendor, "HygonGenuine") == 0)
		id->vendor = FH_VENDOR_AMD;
	x86_signature(p->leaf1_eax, id);
	/* Carry-less multiply on XMM registers, with the SSSE3 and SSE4.1
	 * shuffles and extracts its CRC kernels use. */
	if ((p->leaf1_ecx & (FH_X86_L1C_PCLMUL | FH_X86_L1C_SSSE3 | FH_X86_L1C_SSE41)) ==
	    (FH_X86_L1C_PCLMUL | FH_X86_L1C_SSSE3 | FH_X86_L1C_SSE41))
		id->features |= FH_CPU_X86_PCLMUL;
	/* XCR0 means something only where OSXSAVE says the OS set it. */
	uint64_t xcr0 = (p->leaf1_ecx & FH_X86_L1C_OSXSAVE) ? p->xcr0 : 0;
	bool avx = (xcr0 & FH_X86_XCR0_AVX) == FH_X86_XCR0_AVX &&
		   (p->leaf1_ecx & FH_X86_L1C_AVX);

	if (avx)
		id->features |= FH_CPU_X86_AVX;
	if (p->max_leaf < 7)
		return;

	uint32_t b = p->leaf7_ebx, f = 0;

	if (b & FH_X86_L7B_BMI1)
		f |= FH_CPU_X86_BMI1;
	if (b & FH_X86_L7B_BMI2)
		f |= FH_CPU_X86_BMI2;
	if (avx && (b & FH_X86_L7B_AVX2))
		f |= FH_CPU_X86_AVX2;
	/* SHA1RNDS4 and SHA256RNDS2 work on XMM registers, whose state
	 * every x86-64 OS saves: CPUID alone decides. */
	if (b & FH_X86_L7B_SHA)
		f |= FH_CPU_X86_SHA;
	if (avx && (b & FH_X86_L7B_AVX512F) && x86_avx512_state(p, xcr0)) {
		f |= FH_CPU_X86_AVX512F;
		if (b & FH_X86_L7B_AVX512VL)
			f |= FH_CPU_X86_AVX512VL;
		if (b & FH_X86_L7B_AVX512BW)
			f |= FH_CPU_X86_AVX512BW;
	}
	if (p->leaf1_ecx & FH_X86_L1C_SSE41)
		f |= FH_CPU_X86_SSE41;
	if (p->leaf1_ecx & FH_X86_L1C_SSE42)
		f |= FH_CPU_X86_SSE42;
	/* VPCLMULQDQ on YMM registers, with AVX2's loads and shuffles. */
	if ((f & FH_CPU_X86_AVX2) && (id->features & FH_CPU_X86_PCLMUL) &&
	    (p->leaf7_ecx & FH_X86_L7C_VPCLMUL))
		f |= FH_CPU_X86_VPCLMUL;
	id->features |= f;
}

/* One decimal number at *S, moved past; false when there is none or it
 * is absurdly long for a release number. */
static bool release_number(const char **s, unsigned *n)
{
	const char *c = *s;
	unsigned v = 0;

	if (*c < '0' || *c > '9')
		return false;
	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > 99999)
			return false;
		v = v * 10 + (unsigned)(*c - '0');
	}
	*s = c;
	*n = v;
	return true;
}

bool fh_darwin_release_at_least(const char *release, unsigned major,
				unsigned minor)
{
	const char *s = release;
	unsigned maj, min;

	if (!release_number(&s, &maj) || *s++ != '.' ||
	    !release_number(&s, &min) || (*s != '\0' && *s != '.'))
		return false;
	/* Numbers, not strings: "21.10" is later than "21.3". */
	return maj > major || (maj == major && min >= minor);
}
