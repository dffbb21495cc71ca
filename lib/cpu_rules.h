/* cpu_rules.h: what a CPU probe reads from its operating system, and the
 * pure functions (lib/cpu_rules.c) that turn it into FH_CPU_* features and
 * an identity.
 *
 * A probe is two parts: a small file per OS that only reads raw values
 * (AT_HWCAP, sysctls, CPUID registers, XCR0) into one of the structs
 * below, and these rules, which decide.  The rules name no OS header, so
 * they build on every platform and tests/unit/test_select.c feeds them
 * what a Mac, a FreeBSD or a Linux machine would report, here.
 */
#ifndef FH_CPU_RULES_H
#define FH_CPU_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel.h"

/* AArch64 AT_HWCAP bits.  Linux defines them in
 * arch/arm64/include/uapi/asm/hwcap.h; FreeBSD's sys/arm64/include/elf.h
 * uses the same positions (it notes that its bits from CPUID to FLAGM
 * were once different and were changed to match Linux's). */
#define FH_HWCAP_ASIMD (1ul << 1)
#define FH_HWCAP_PMULL (1ul << 4)  /* PMULL, PMULL2 of 64-bit elements */
#define FH_HWCAP_SHA1 (1ul << 5)   /* SHA1C, SHA1P, SHA1M, SHA1H, SHA1SU0/1 */
#define FH_HWCAP_SHA2 (1ul << 6)   /* SHA256H, SHA256H2, SHA256SU0/1 */
#define FH_HWCAP_CRC32 (1ul << 7)  /* CRC32B..CRC32X, CRC32CB..CRC32CX */
#define FH_HWCAP_CPUID (1ul << 11) /* the kernel emulates MRS of ID regs */
#define FH_HWCAP_SHA3 (1ul << 17)  /* EOR3, RAX1, XAR, BCAX */
#define FH_HWCAP_SHA512 (1ul << 21) /* SHA512H, SHA512H2, SHA512SU0/1 */

/* A sysctl the running kernel does not know (sysctlbyname failed). */
#define FH_SYSCTL_ABSENT (-1)

/* Where an AArch64 probe got its facts. */
enum fh_arm_source {
	FH_ARM_FROM_NOTHING,    /* no way to ask this OS: assume the baseline */
	FH_ARM_FROM_HWCAP,      /* Linux getauxval, FreeBSD elf_aux_info */
	FH_ARM_FROM_SYSCTL,     /* macOS sysctlbyname */
};

/* What an AArch64 probe read, before any decision. */
struct fh_arm_probe {
	enum fh_arm_source source;
	/* FH_ARM_FROM_HWCAP */
	unsigned long hwcap;    /* AT_HWCAP */
	uint32_t midr;          /* MIDR_EL1, 0 when not read */
	/* FH_ARM_FROM_SYSCTL: each an int sysctl, or FH_SYSCTL_ABSENT */
	int feat_sha3;          /* hw.optional.arm.FEAT_SHA3 (macOS 12 on) */
	int armv8_2_sha3;       /* hw.optional.armv8_2_sha3 (macOS 11's name) */
	int neon;               /* hw.optional.neon */
	int feat_sha1;          /* hw.optional.arm.FEAT_SHA1 (macOS 12 on) */
	int feat_sha256;        /* hw.optional.arm.FEAT_SHA256 (macOS 12 on) */
	int feat_sha512;        /* hw.optional.arm.FEAT_SHA512 (macOS 12 on) */
	int armv8_2_sha512;     /* hw.optional.armv8_2_sha512 (macOS 11's name) */
	int feat_pmull;         /* hw.optional.arm.FEAT_PMULL (macOS 12 on) */
	int armv8_crc32;        /* hw.optional.armv8_crc32 (macOS 11 on) */
	uint32_t cpufamily;     /* hw.cpufamily, 0 when unreadable */
};

/* The FH_CPU_ARM_* bits an AT_HWCAP word says (Linux, FreeBSD). */
uint32_t fh_cpu_arm_hwcap_features(unsigned long hwcap);
/* ID from what an AArch64 probe read: its features, and as identity
 * FH_VENDOR_ARM_IMPL with MIDR (hwcap), FH_VENDOR_APPLE with
 * hw.cpufamily (sysctl), or FH_VENDOR_ARM_IMPL with MIDR 0 (nothing). */
void fh_cpu_arm_decide(const struct fh_arm_probe *p, struct fh_cpu_id *id);

/* CPUID and XCR0 bits the x86-64 rules read (Intel SDM Vol. 2A, CPUID;
 * Vol. 1 §13.3 for XCR0's state components). */
#define FH_X86_L1C_OSXSAVE (1u << 27)   /* leaf 1 ECX: XGETBV may run */
#define FH_X86_L1C_PCLMUL (1u << 1)     /* PCLMULQDQ */
#define FH_X86_L1C_SSSE3 (1u << 9)
#define FH_X86_L1C_SSE41 (1u << 19)
#define FH_X86_L1C_SSE42 (1u << 20)
#define FH_X86_L7C_VPCLMUL (1u << 10)   /* leaf 7 subleaf 0 ECX */
#define FH_X86_L1C_AVX (1u << 28)
#define FH_X86_L1C_SSE41 (1u << 19)
#define FH_X86_L7B_BMI1 (1u << 3)       /* leaf 7 subleaf 0 EBX */
#define FH_X86_L7B_AVX2 (1u << 5)
#define FH_X86_L7B_BMI2 (1u << 8)
#define FH_X86_L7B_AVX512F (1u << 16)
#define FH_X86_L7B_SHA (1u << 29)        /* SHA-1 and SHA-256 extensions */
#define FH_X86_L7B_AVX512BW (1u << 30)
#define FH_X86_L7B_AVX512VL (1u << 31)
#define FH_X86_XCR0_AVX 0x06u           /* XMM | YMM */
#define FH_X86_XCR0_AVX512 0xe6u        /* plus opmask, ZMM_Hi256, Hi16_ZMM */

/* What an x86-64 probe read, before any decision. */
struct fh_x86_probe {
	char vendor[13];        /* CPUID leaf 0: EBX, EDX, ECX, then NUL */
	uint32_t max_leaf;      /* CPUID leaf 0: EAX */
	uint32_t leaf1_eax;     /* CPUID leaf 1: signature */
	uint32_t leaf1_ecx;
	uint32_t leaf7_ebx;     /* CPUID leaf 7 subleaf 0; 0 below leaf 7 */
	uint64_t xcr0;          /* XGETBV(0); 0 without OSXSAVE */
	uint32_t leaf7_ecx;     /* CPUID leaf 7 subleaf 0; 0 below leaf 7 */
	/* macOS only (arch/x86_64/cpu_darwin.c); false and empty elsewhere */
	bool darwin;
	int avx512f_sysctl;     /* hw.optional.avx512f, or FH_SYSCTL_ABSENT */
	char osrelease[32];     /* kern.osrelease ("21.3.0"), "" unreadable */
};

/* ID from what an x86-64 probe read: the vendor, the display family and
 * model, and the features whose register state the OS saves.  On macOS
 * AVX-512 follows hw.optional.avx512f and the Darwin release instead of
 * XCR0 (see lib/cpu_rules.c). */
void fh_cpu_x86_decide(const struct fh_x86_probe *p, struct fh_cpu_id *id);

/* Whether RELEASE, a Darwin kernel release as kern.osrelease gives it
 * ("MAJOR.MINOR[.PATCH]"), is MAJOR.MINOR or later; false when it does
 * not parse. */
bool fh_darwin_release_at_least(const char *release, unsigned major,
				unsigned minor);

#endif
