/* test_select.c: the default kernels as a pure function of a CPU's
 * features and identity.  Each row is a CPU as its probe would read it
 * (features, vendor, family and model, MIDR, hw.cpufamily) and the four
 * kernels it must get: single-stream and multi-buffer, MD5 and Keccak.
 * Then each probe row feeds lib/cpu_rules.c the raw values one operating
 * system would hand its probe (macOS sysctls, FreeBSD's and Linux's
 * AT_HWCAP, CPUID and XCR0 with or without macOS's word on AVX-512) and
 * checks the features and identity it makes of them, and the kernels.
 * The rules and the identity traits (lib/cpu_traits.c) are checked for
 * every row on every machine; the kernel choice for the rows of the ISA
 * this build has kernels for (the other ISA's kernels are not built here:
 * CI runs those rows in the AArch64 build under qemu).  Then, on AArch64,
 * the SHA, checksum and BLAKE2b kernels of a few feature sets, and on
 * x86-64, which kernel runs a given number of busy lanes.  Exit 77 where
 * neither ISA was built. */
#include <stdio.h>
#include <string.h>

#include "cpu_rules.h"
#include "kernel.h"

#define X86_AVX2_ONLY (FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2 | FH_CPU_X86_AVX | \
		       FH_CPU_X86_AVX2)
#define X86_AVX512 (X86_AVX2_ONLY | FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512VL | \
		    FH_CPU_X86_AVX512BW)

enum isa { ISA_X86, ISA_ARM };

struct row {
	const char *cpu;
	enum isa isa;
	struct fh_cpu_id id;
	uint32_t traits;                 /* fh_cpu_traits adds exactly these */
	const char *md5, *keccak;        /* single-stream picks */
	const char *md5_multi, *keccak_multi; /* multi-buffer picks, or "" */
};

static const struct row rows[] = {
	{ "AMD Zen 3 (AVX2, no AVX-512)", ISA_X86,
	  { X86_AVX2_ONLY | FH_CPU_X86_SHA, FH_VENDOR_AMD, 25, 1, 0, 0 },
	  FH_CPU_X86_AVX2_NARROW,
	  "md5-bmi", "keccak-bmi2", "md5-avx2x16", "keccak-avx2x4" },
	{ "AMD Zen 4 (AVX-512)", ISA_X86,
	  { X86_AVX512 | FH_CPU_X86_SHA, FH_VENDOR_AMD, 25, 17, 0, 0 },
	  FH_CPU_X86_AVX2_NARROW,
	  "md5-bmi", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "AMD Zen 5 (AVX-512)", ISA_X86,
	  { X86_AVX512 | FH_CPU_X86_SHA, FH_VENDOR_AMD, 26, 2, 0, 0 }, 0,
	  "md5-bmi", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Intel Sapphire Rapids (AVX-512)", ISA_X86,
	  { X86_AVX512 | FH_CPU_X86_SHA, FH_VENDOR_INTEL, 6, 143, 0, 0 },
	  FH_CPU_X86_VPROL_FAST | FH_CPU_X86_AVX2_NARROW,
	  "md5-avx512", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Intel Skylake-X (AVX-512)", ISA_X86,
	  { X86_AVX512, FH_VENDOR_INTEL, 6, 85, 0, 0 },
	  FH_CPU_X86_VPROL_FAST | FH_CPU_X86_AVX2_NARROW | FH_CPU_X86_NO_SHA,
	  "md5-avx512", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Intel Alder Lake (AVX2 only)", ISA_X86,
	  { X86_AVX2_ONLY | FH_CPU_X86_SHA, FH_VENDOR_INTEL, 6, 151, 0, 0 },
	  FH_CPU_X86_AVX2_NARROW,
	  "md5-bmi", "keccak-bmi2", "md5-avx2x16", "keccak-avx2x4" },
	{ "Intel Knights Landing (AVX-512F without VL)", ISA_X86,
	  { X86_AVX2_ONLY | FH_CPU_X86_AVX512F, FH_VENDOR_INTEL, 6, 87, 0, 0 },
	  FH_CPU_X86_AVX2_NARROW | FH_CPU_X86_NO_SHA,
	  "md5-bmi", "keccak-bmi2", "md5-avx2x16", "keccak-avx2x4" },
	{ "x86-64 without AVX2 or BMI (Westmere)", ISA_X86,
	  { 0, FH_VENDOR_INTEL, 6, 44, 0, 0 }, 0,
	  "md5-portable", "keccak-portable", "", "" },
	{ "x86-64 with AVX2, without BMI", ISA_X86,
	  { FH_CPU_X86_AVX2, FH_VENDOR_AMD, 23, 1, 0, 0 },
	  FH_CPU_X86_AVX2_NARROW | FH_CPU_X86_NO_SHA,
	  "md5-portable", "keccak-avx2", "md5-avx2x16", "keccak-avx2x4" },
	{ "x86-64 of unknown make with AVX-512", ISA_X86,
	  { X86_AVX512, FH_VENDOR_UNKNOWN, 6, 143, 0, 0 },
	  FH_CPU_X86_AVX2_NARROW | FH_CPU_X86_NO_SHA,
	  "md5-bmi", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Arm Cortex-A53 (no SHA3)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD, FH_VENDOR_ARM_IMPL, 0, 0, 0x410fd034, 0 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
	{ "Arm Neoverse V1 (SHA3, slow there)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3, FH_VENDOR_ARM_IMPL, 0, 0,
	    0x411fd401, 0 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
	{ "Apple M1 (SHA3, fast)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3, FH_VENDOR_ARM_IMPL, 0, 0,
	    0x611f0221, 0 }, FH_CPU_ARM_SHA3_FAST,
	  "md5-gpr", "keccak-sha3ce", "md5-neonx4", "keccak-sha3cex2" },
	{ "Apple core without SHA3 reported", ISA_ARM,
	  { FH_CPU_ARM_ASIMD, FH_VENDOR_ARM_IMPL, 0, 0, 0x611f0221, 0 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
	{ "Apple on macOS (SHA3, hw.cpufamily, no MIDR)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3, FH_VENDOR_APPLE, 0, 0, 0,
	    0x1b588bb3 }, FH_CPU_ARM_SHA3_FAST,
	  "md5-gpr", "keccak-sha3ce", "md5-neonx4", "keccak-sha3cex2" },
	{ "Apple on macOS without SHA3 reported", ISA_ARM,
	  { FH_CPU_ARM_ASIMD, FH_VENDOR_APPLE, 0, 0, 0, 0x1b588bb3 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
	{ "qemu -cpu max (SHA3, MIDR implementer 0)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3, FH_VENDOR_ARM_IMPL, 0, 0,
	    0x000f0510, 0 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
};

/* What the probes read, for the probe rows.  hw.cpufamily values are
 * xnu's osfmk/mach/machine.h: CPUFAMILY_ARM_FIRESTORM_ICESTORM (M1) and
 * CPUFAMILY_ARM_BLIZZARD_AVALANCHE (M2). */
#define ABSENT FH_SYSCTL_ABSENT
#define FAMILY_M1 0x1b588bb3u
#define FAMILY_M2 0xda33d83du
/* macOS arm64: hw.optional.arm.FEAT_SHA3, hw.optional.armv8_2_sha3,
 * hw.optional.neon, hw.cpufamily, and hw.optional.arm.FEAT_SHA1,
 * FEAT_SHA256, FEAT_SHA512 and hw.optional.armv8_2_sha512.  MAC_ARM gives
 * the SHA names the values of macOS 12 and later on every Apple core: 1. */
#define MAC_ARM_SHA(feat, old, neon_, fam, sha1, sha256, sha512, old512) \
	{ .source = FH_ARM_FROM_SYSCTL, .feat_sha3 = (feat), \
	  .armv8_2_sha3 = (old), .neon = (neon_), .cpufamily = (fam), \
	  .feat_sha1 = (sha1), .feat_sha256 = (sha256), \
	  .feat_sha512 = (sha512), .armv8_2_sha512 = (old512), \
	  .feat_pmull = ABSENT, .armv8_crc32 = ABSENT }
#define MAC_ARM(feat, old, neon_, fam) \
	MAC_ARM_SHA(feat, old, neon_, fam, 1, 1, 1, 1)
/* Linux or FreeBSD: AT_HWCAP and MIDR_EL1 (0: not read). */
#define HWCAP(hw, midr_) \
	{ .source = FH_ARM_FROM_HWCAP, .hwcap = (hw), .midr = (midr_), \
	  .feat_sha3 = ABSENT, .armv8_2_sha3 = ABSENT, .neon = ABSENT, \
	  .feat_sha1 = ABSENT, .feat_sha256 = ABSENT, .feat_sha512 = ABSENT, \
	  .armv8_2_sha512 = ABSENT, .feat_pmull = ABSENT, .armv8_crc32 = ABSENT }
/* AT_HWCAP words as the kernels report them (bits of Linux's
 * arch/arm64/include/uapi/asm/hwcap.h): ARMv8.0 with the crypto extension
 * (fp asimd evtstrm aes pmull sha1 sha2 crc32) and CPUID; then SHA3 and
 * SHA512 beside it, as on Neoverse V1 and N2. */
#define HW_V80 (0xfful | FH_HWCAP_CPUID)
#define HW_SHA3 (HW_V80 | FH_HWCAP_SHA3 | FH_HWCAP_SHA512)
/* ARMv8.0 without the crypto extension (Raspberry Pi 3 and 4: fp asimd
 * evtstrm crc32 cpuid). */
#define HW_NOCRYPTO (0x87ul | FH_HWCAP_CPUID)
/* CPUID leaf 1 signatures (EAX): Cascade Lake-W as in the Mac Pro 2019
 * (family 6 model 85), Zen 4 EPYC (family 25 model 17). */
#define SIG_CASCADE_LAKE 0x00050657u
#define SIG_ZEN4 0x00a10f11u
#define L1C_AVX (FH_X86_L1C_OSXSAVE | FH_X86_L1C_AVX)
#define L7_AVX2 (FH_X86_L7B_BMI1 | FH_X86_L7B_BMI2 | FH_X86_L7B_AVX2)
#define L7_AVX512 (L7_AVX2 | FH_X86_L7B_AVX512F | FH_X86_L7B_AVX512VL | \
		   FH_X86_L7B_AVX512BW)
#define XCR0_YMM 0x07u          /* x87, SSE, AVX */
#define XCR0_ZMM 0xe7u          /* and opmask, ZMM_Hi256, Hi16_ZMM */
/* Linux or FreeBSD on x86-64: CPUID and XCR0 only. */
#define X86(vendor_, sig, l7, xcr0_) \
	{ .vendor = vendor_, .max_leaf = 0x16, .leaf1_eax = (sig), \
	  .leaf1_ecx = L1C_AVX, .leaf7_ebx = (l7), .xcr0 = (xcr0_), \
	  .avx512f_sysctl = ABSENT }
/* An Intel Mac (Cascade Lake-W, AVX-512 in CPUID): XCR0,
 * hw.optional.avx512f and kern.osrelease. */
#define MAC_X86(xcr0_, avx512f, release) \
	{ .vendor = "GenuineIntel", .max_leaf = 0x16, \
	  .leaf1_eax = SIG_CASCADE_LAKE, .leaf1_ecx = L1C_AVX, \
	  .leaf7_ebx = L7_AVX512, .xcr0 = (xcr0_), .darwin = true, \
	  .avx512f_sysctl = (avx512f), .osrelease = release }

/* The features of ARMv8.0 with the crypto extension (SHA1, SHA2, PMULL)
 * and CRC32, and of the cores that add SHA3 and SHA512 to it (Apple,
 * Neoverse V1 and N2).  Apple's cores always have PMULL and CRC32. */
#define ARM_PMULL_CRC (FH_CPU_ARM_PMULL | FH_CPU_ARM_CRC32)
#define ARM_CE (FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA1 | FH_CPU_ARM_SHA2 | \
		ARM_PMULL_CRC)
#define ARM_SHA3 (ARM_CE | FH_CPU_ARM_SHA3 | FH_CPU_ARM_SHA512)
#define PICK_ARM_GPR "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2"
#define PICK_ARM_SHA3 "md5-gpr", "keccak-sha3ce", "md5-neonx4", "keccak-sha3cex2"
#define PICK_X86_AVX2 "md5-bmi", "keccak-bmi2", "md5-avx2x16", "keccak-avx2x4"
#define PICK_X86_INTEL512 \
	"md5-avx512", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8"

struct probe_row {
	const char *what;
	enum isa isa;
	struct fh_x86_probe x86;         /* read on ISA_X86 */
	struct fh_arm_probe arm;         /* read on ISA_ARM */
	struct fh_cpu_id want;           /* what the rules must make of it */
	uint32_t traits;                 /* fh_cpu_traits adds exactly these */
	const char *md5, *keccak, *md5_multi, *keccak_multi;
};

static const struct probe_row probe_rows[] = {
	/* macOS on Apple silicon. */
	{ "macOS 13, Apple M1: FEAT_SHA3 1", ISA_ARM,
	  .arm = MAC_ARM(1, 1, 1, FAMILY_M1),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_APPLE,
		    .apple_cpufamily = FAMILY_M1 }, FH_CPU_ARM_SHA3_FAST,
	  PICK_ARM_SHA3 },
	{ "macOS 14, Apple M2: FEAT_SHA3 1", ISA_ARM,
	  .arm = MAC_ARM(1, 1, 1, FAMILY_M2),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_APPLE,
		    .apple_cpufamily = FAMILY_M2 }, FH_CPU_ARM_SHA3_FAST,
	  PICK_ARM_SHA3 },
	{ "macOS 11, M1: only armv8_2_sha3 known, 1", ISA_ARM,
	  .arm = MAC_ARM_SHA(ABSENT, 1, 1, FAMILY_M1, ABSENT, ABSENT, ABSENT, 1),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_APPLE,
		    .apple_cpufamily = FAMILY_M1 }, FH_CPU_ARM_SHA3_FAST,
	  PICK_ARM_SHA3 },
	{ "macOS, SHA3 0 under both names", ISA_ARM,
	  .arm = MAC_ARM(0, 0, 1, FAMILY_M1),
	  .want = { .features = ARM_CE | FH_CPU_ARM_SHA512,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 }, 0,
	  PICK_ARM_GPR },
	{ "macOS, neither SHA3 name known", ISA_ARM,
	  .arm = MAC_ARM(ABSENT, ABSENT, 1, FAMILY_M1),
	  .want = { .features = ARM_CE | FH_CPU_ARM_SHA512,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 }, 0,
	  PICK_ARM_GPR },
	{ "macOS, FEAT_SHA3 0 outranks armv8_2_sha3 1", ISA_ARM,
	  .arm = MAC_ARM(0, 1, 1, FAMILY_M1),
	  .want = { .features = ARM_CE | FH_CPU_ARM_SHA512,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 }, 0,
	  PICK_ARM_GPR },
	{ "macOS, hw.optional.neon unknown: assumed", ISA_ARM,
	  .arm = MAC_ARM(1, ABSENT, ABSENT, FAMILY_M2),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_APPLE,
		    .apple_cpufamily = FAMILY_M2 }, FH_CPU_ARM_SHA3_FAST,
	  PICK_ARM_SHA3 },
	{ "macOS, hw.optional.neon 0", ISA_ARM,
	  .arm = MAC_ARM(0, ABSENT, 0, FAMILY_M1),
	  .want = { .features = FH_CPU_ARM_SHA1 | FH_CPU_ARM_SHA2 |
				FH_CPU_ARM_SHA512 | ARM_PMULL_CRC,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 }, 0,
	  "md5-gpr", "keccak-gpr", "", "" },
	{ "macOS, hw.cpufamily unreadable: still Apple", ISA_ARM,
	  .arm = MAC_ARM(1, 1, 1, 0),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_APPLE },
	  FH_CPU_ARM_SHA3_FAST,
	  PICK_ARM_SHA3 },
	/* macOS: SHA1 and SHA256 are assumed unless a name says 0 (macOS 11
	 * has none); SHA512 needs FEAT_SHA512, or macOS 11's name. */
	{ "macOS 11: no SHA names but armv8_2_sha512 1", ISA_ARM,
	  .arm = MAC_ARM_SHA(ABSENT, 1, 1, FAMILY_M1, ABSENT, ABSENT, ABSENT, 1),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_APPLE,
		    .apple_cpufamily = FAMILY_M1 }, FH_CPU_ARM_SHA3_FAST,
	  PICK_ARM_SHA3 },
	{ "macOS: no SHA512 under either name", ISA_ARM,
	  .arm = MAC_ARM_SHA(1, 1, 1, FAMILY_M1, ABSENT, ABSENT, ABSENT, ABSENT),
	  .want = { .features = ARM_CE | FH_CPU_ARM_SHA3,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 },
	  FH_CPU_ARM_SHA3_FAST, PICK_ARM_SHA3 },
	{ "macOS: FEAT_SHA512 0 outranks armv8_2_sha512 1", ISA_ARM,
	  .arm = MAC_ARM_SHA(1, 1, 1, FAMILY_M1, 1, 1, 0, 1),
	  .want = { .features = ARM_CE | FH_CPU_ARM_SHA3,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 },
	  FH_CPU_ARM_SHA3_FAST, PICK_ARM_SHA3 },
	{ "macOS: FEAT_SHA1 0 and FEAT_SHA256 0", ISA_ARM,
	  .arm = MAC_ARM_SHA(1, 1, 1, FAMILY_M1, 0, 0, 1, 1),
	  .want = { .features = FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3 |
				FH_CPU_ARM_SHA512 | ARM_PMULL_CRC,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 },
	  FH_CPU_ARM_SHA3_FAST, PICK_ARM_SHA3 },
	{ "macOS: FEAT_SHA1 1 and FEAT_SHA256 0", ISA_ARM,
	  .arm = MAC_ARM_SHA(0, 0, 1, FAMILY_M1, 1, 0, 0, 0),
	  .want = { .features = FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA1 |
				ARM_PMULL_CRC,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 },
	  0, PICK_ARM_GPR },
	/* macOS: PMULL and CRC32 are assumed unless a name says 0 (macOS
	 * 11 has no FEAT_PMULL). */
	{ "macOS: FEAT_PMULL 0 and armv8_crc32 0", ISA_ARM,
	  .arm = { .source = FH_ARM_FROM_SYSCTL, .feat_sha3 = 1,
		   .armv8_2_sha3 = 1, .neon = 1, .cpufamily = FAMILY_M1,
		   .feat_sha1 = 1, .feat_sha256 = 1, .feat_sha512 = 1,
		   .armv8_2_sha512 = 1, .feat_pmull = 0, .armv8_crc32 = 0 },
	  .want = { .features = ARM_SHA3 & ~ARM_PMULL_CRC,
		    .vendor = FH_VENDOR_APPLE, .apple_cpufamily = FAMILY_M1 },
	  FH_CPU_ARM_SHA3_FAST, PICK_ARM_SHA3 },
	/* FreeBSD: elf_aux_info(AT_HWCAP), MIDR by MRS with HWCAP_CPUID. */
	{ "FreeBSD, Neoverse N2: hwcap SHA3", ISA_ARM,
	  .arm = HWCAP(HW_SHA3, 0x410fd490),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_ARM_IMPL,
		    .midr = 0x410fd490 }, 0,
	  PICK_ARM_GPR },
	{ "FreeBSD, Cortex-A72: hwcap without SHA3", ISA_ARM,
	  .arm = HWCAP(HW_V80, 0),
	  .want = { .features = ARM_CE,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  PICK_ARM_GPR },
	{ "FreeBSD, SHA3 without HWCAP_CPUID (MIDR 0)", ISA_ARM,
	  .arm = HWCAP(HW_SHA3 & ~FH_HWCAP_CPUID, 0),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  PICK_ARM_GPR },
	{ "FreeBSD, Cortex-A53 without crypto: no SHA", ISA_ARM,
	  .arm = HWCAP(HW_NOCRYPTO, 0),
	  .want = { .features = FH_CPU_ARM_ASIMD | FH_CPU_ARM_CRC32,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  PICK_ARM_GPR },
	{ "FreeBSD, elf_aux_info failed: baseline", ISA_ARM,
	  .arm = { .source = FH_ARM_FROM_NOTHING, .feat_sha3 = ABSENT,
		   .armv8_2_sha3 = ABSENT, .neon = ABSENT },
	  .want = { .features = FH_CPU_ARM_ASIMD,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  PICK_ARM_GPR },
	/* Linux: getauxval(AT_HWCAP), MIDR by MRS or sysfs. */
	{ "Linux, Graviton3 (Neoverse V1): hwcap SHA3", ISA_ARM,
	  .arm = HWCAP(HW_SHA3, 0x411fd401),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_ARM_IMPL,
		    .midr = 0x411fd401 }, 0,
	  PICK_ARM_GPR },
	{ "Linux on Apple M1: hwcap SHA3, MIDR 0x61", ISA_ARM,
	  .arm = HWCAP(HW_SHA3, 0x611f0221),
	  .want = { .features = ARM_SHA3, .vendor = FH_VENDOR_ARM_IMPL,
		    .midr = 0x611f0221 }, FH_CPU_ARM_SHA3_FAST,
	  PICK_ARM_SHA3 },
	{ "Linux, Cortex-A53: hwcap without SHA3", ISA_ARM,
	  .arm = HWCAP(HW_V80, 0),
	  .want = { .features = ARM_CE,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  PICK_ARM_GPR },
	{ "Linux, Raspberry Pi 4: no crypto extension", ISA_ARM,
	  .arm = HWCAP(HW_NOCRYPTO, 0x410fd083),
	  .want = { .features = FH_CPU_ARM_ASIMD | FH_CPU_ARM_CRC32,
		    .vendor = FH_VENDOR_ARM_IMPL, .midr = 0x410fd083 }, 0,
	  PICK_ARM_GPR },
	{ "Linux, SHA1 bit alone", ISA_ARM,
	  .arm = HWCAP(FH_HWCAP_SHA1, 0),
	  .want = { .features = FH_CPU_ARM_SHA1,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  "md5-gpr", "keccak-gpr", "", "" },
	{ "Linux, SHA2 bit alone", ISA_ARM,
	  .arm = HWCAP(FH_HWCAP_SHA2, 0),
	  .want = { .features = FH_CPU_ARM_SHA2,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  "md5-gpr", "keccak-gpr", "", "" },
	{ "Linux, SHA512 bit alone", ISA_ARM,
	  .arm = HWCAP(FH_HWCAP_SHA512, 0),
	  .want = { .features = FH_CPU_ARM_SHA512,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  "md5-gpr", "keccak-gpr", "", "" },
	{ "Linux, PMULL bit alone", ISA_ARM,
	  .arm = HWCAP(FH_HWCAP_PMULL, 0),
	  .want = { .features = FH_CPU_ARM_PMULL,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  "md5-gpr", "keccak-gpr", "", "" },
	{ "Linux, CRC32 bit alone", ISA_ARM,
	  .arm = HWCAP(FH_HWCAP_CRC32, 0),
	  .want = { .features = FH_CPU_ARM_CRC32,
		    .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  "md5-gpr", "keccak-gpr", "", "" },
	{ "Linux, hwcap without ASIMD", ISA_ARM,
	  .arm = HWCAP(0x1ul, 0),
	  .want = { .vendor = FH_VENDOR_ARM_IMPL }, 0,
	  "md5-gpr", "keccak-gpr", "", "" },
	/* Intel Macs: AVX-512 from hw.optional.avx512f on Darwin 21.3 on. */
	{ "macOS 12.2 (Darwin 21.3.0), avx512f 1", ISA_X86,
	  .x86 = MAC_X86(XCR0_YMM, 1, "21.3.0"),
	  .want = { .features = X86_AVX512, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, FH_CPU_X86_VPROL_FAST,
	  PICK_X86_INTEL512 },
	{ "macOS 13 (Darwin 22.6.0), avx512f 1", ISA_X86,
	  .x86 = MAC_X86(XCR0_YMM, 1, "22.6.0"),
	  .want = { .features = X86_AVX512, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, FH_CPU_X86_VPROL_FAST,
	  PICK_X86_INTEL512 },
	{ "macOS 12.1 (Darwin 21.2.0), avx512f 1", ISA_X86,
	  .x86 = MAC_X86(XCR0_YMM, 1, "21.2.0"),
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, 0,
	  PICK_X86_AVX2 },
	{ "macOS 11 (Darwin 20.6.0), avx512f 1, XCR0 ZMM", ISA_X86,
	  .x86 = MAC_X86(XCR0_ZMM, 1, "20.6.0"),
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, 0,
	  PICK_X86_AVX2 },
	{ "macOS 14 (Darwin 23.0.0), avx512f 0", ISA_X86,
	  .x86 = MAC_X86(XCR0_ZMM, 0, "23.0.0"),
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, 0,
	  PICK_X86_AVX2 },
	{ "macOS, hw.optional.avx512f unknown", ISA_X86,
	  .x86 = MAC_X86(XCR0_ZMM, ABSENT, "22.1.0"),
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, 0,
	  PICK_X86_AVX2 },
	{ "macOS, kern.osrelease unreadable", ISA_X86,
	  .x86 = MAC_X86(XCR0_YMM, 1, ""),
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, 0,
	  PICK_X86_AVX2 },
	{ "macOS 13, avx512f 1, no AVX state in XCR0", ISA_X86,
	  .x86 = MAC_X86(0x03u, 1, "22.6.0"),
	  .want = { .features = FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2,
		    .vendor = FH_VENDOR_INTEL, .family = 6, .model = 85 }, 0,
	  "md5-bmi", "keccak-bmi2", "", "" },
	/* Linux and FreeBSD on x86-64: XCR0 is the truth. */
	{ "Linux, Cascade Lake: XCR0 with ZMM", ISA_X86,
	  .x86 = X86("GenuineIntel", SIG_CASCADE_LAKE, L7_AVX512, XCR0_ZMM),
	  .want = { .features = X86_AVX512, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, FH_CPU_X86_VPROL_FAST,
	  PICK_X86_INTEL512 },
	{ "Linux, Cascade Lake: XCR0 without ZMM", ISA_X86,
	  .x86 = X86("GenuineIntel", SIG_CASCADE_LAKE, L7_AVX512, XCR0_YMM),
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, 0,
	  PICK_X86_AVX2 },
	{ "FreeBSD, macOS-like sysctl values ignored", ISA_X86,
	  .x86 = { .vendor = "GenuineIntel", .max_leaf = 0x16,
		   .leaf1_eax = SIG_CASCADE_LAKE, .leaf1_ecx = L1C_AVX,
		   .leaf7_ebx = L7_AVX512, .xcr0 = XCR0_YMM,
		   .avx512f_sysctl = 1, .osrelease = "22.6.0" },
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 85 }, 0,
	  PICK_X86_AVX2 },
	{ "Linux, Zen 4: XCR0 with ZMM", ISA_X86,
	  .x86 = X86("AuthenticAMD", SIG_ZEN4, L7_AVX512, XCR0_ZMM),
	  .want = { .features = X86_AVX512, .vendor = FH_VENDOR_AMD,
		    .family = 25, .model = 17 }, 0,
	  "md5-bmi", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	/* SHA-NI is leaf 7's EBX bit 29, with no OS state of its own:
	 * an AMD EPYC Zen 3 (family 25 model 1) has it beside AVX2. */
	{ "Linux, Zen 3: SHA extensions", ISA_X86,
	  .x86 = X86("AuthenticAMD", 0x00a00f11u, L7_AVX2 | FH_X86_L7B_SHA,
		     XCR0_YMM),
	  .want = { .features = X86_AVX2_ONLY | FH_CPU_X86_SHA,
		    .vendor = FH_VENDOR_AMD, .family = 25, .model = 1 }, 0,
	  PICK_X86_AVX2 },
	{ "SHA extensions without AVX state in XCR0", ISA_X86,
	  .x86 = X86("AuthenticAMD", 0x00a00f11u, L7_AVX2 | FH_X86_L7B_SHA,
		     0x03u),
	  .want = { .features = FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2 |
				FH_CPU_X86_SHA,
		    .vendor = FH_VENDOR_AMD, .family = 25, .model = 1 }, 0,
	  "md5-bmi", "keccak-bmi2", "", "" },
	{ "Hygon reads as AMD", ISA_X86,
	  .x86 = X86("HygonGenuine", 0x00900f01u, L7_AVX2, XCR0_YMM),
	  .want = { .features = X86_AVX2_ONLY, .vendor = FH_VENDOR_AMD,
		    .family = 24, .model = 0 }, 0,
	  PICK_X86_AVX2 },
	{ "XCR0 ignored without OSXSAVE", ISA_X86,
	  .x86 = { .vendor = "GenuineIntel", .max_leaf = 0x16,
		   .leaf1_eax = SIG_CASCADE_LAKE, .leaf1_ecx = FH_X86_L1C_AVX,
		   .leaf7_ebx = L7_AVX512, .xcr0 = XCR0_ZMM,
		   .avx512f_sysctl = ABSENT },
	  .want = { .features = FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2,
		    .vendor = FH_VENDOR_INTEL, .family = 6, .model = 85 }, 0,
	  "md5-bmi", "keccak-bmi2", "", "" },
	/* Intel CPUs answer a leaf past the highest with that leaf's data
	 * (SDM Vol. 2A, CPUID): leaf 7's bits below leaf 7 mean nothing. */
	{ "CPUID below leaf 7: leaf 7 bits ignored", ISA_X86,
	  .x86 = { .vendor = "GenuineIntel", .max_leaf = 5,
		   .leaf1_eax = 0x000206c2u, .leaf1_ecx = L1C_AVX,
		   .leaf7_ebx = L7_AVX2 | FH_X86_L7B_SHA, .xcr0 = XCR0_YMM,
		   .avx512f_sysctl = ABSENT },
	  .want = { .features = FH_CPU_X86_AVX, .vendor = FH_VENDOR_INTEL,
		    .family = 6, .model = 44 }, 0,
	  "md5-portable", "keccak-portable", "", "" },
	{ "CPUID without leaf 1: nothing known", ISA_X86,
	  .x86 = { .vendor = "GenuineIntel", .max_leaf = 0,
		   .leaf1_eax = SIG_CASCADE_LAKE, .leaf1_ecx = L1C_AVX,
		   .leaf7_ebx = L7_AVX512, .xcr0 = XCR0_ZMM,
		   .avx512f_sysctl = ABSENT },
	  .want = { .vendor = FH_VENDOR_UNKNOWN }, 0,
	  "md5-portable", "keccak-portable", "", "" },
};

/* The SHA kernels an AArch64 CPU gets: each where its instructions are. */
static const struct {
	const char *cpu;
	uint32_t features;
	const char *sha1, *sha256, *sha512;
} arm_sha_rows[] = {
	{ "Cortex-A72 without crypto (Raspberry Pi 4)", FH_CPU_ARM_ASIMD,
	  "sha1-portable", "sha256-portable", "sha512-portable" },
	{ "Cortex-A53 with crypto (SHA1, SHA2)", ARM_CE,
	  "sha1-ce", "sha256-ce", "sha512-portable" },
	{ "Neoverse V1, Apple M1 (SHA1, SHA2, SHA512)", ARM_SHA3,
	  "sha1-ce", "sha256-ce", "sha512-ce" },
	{ "SHA512 alone", FH_CPU_ARM_SHA512,
	  "sha1-portable", "sha256-portable", "sha512-ce" },
	{ "SHA1 alone", FH_CPU_ARM_SHA1,
	  "sha1-ce", "sha256-portable", "sha512-portable" },
};

/* The checksum kernels an AArch64 CPU gets: crc-armv8 wherever CRC32 is
 * (its other models folding with PMULL where that is too), crc-pmull
 * with PMULL alone, xxh-neon wherever Advanced SIMD is. */
static const struct {
	const char *cpu;
	uint32_t features;
	const char *crc, *xxh;
} arm_checksum_rows[] = {
	{ "Cortex-A53 with crypto and CRC32", ARM_CE, "crc-armv8", "xxh-neon" },
	{ "Neoverse V1, Apple M1", ARM_SHA3, "crc-armv8", "xxh-neon" },
	{ "Cortex-A72 without crypto (Raspberry Pi 4)",
	  FH_CPU_ARM_ASIMD | FH_CPU_ARM_CRC32, "crc-armv8", "xxh-neon" },
	{ "PMULL without CRC32", FH_CPU_ARM_ASIMD | FH_CPU_ARM_PMULL,
	  "crc-pmull", "xxh-neon" },
	{ "Advanced SIMD alone", FH_CPU_ARM_ASIMD, "crc-portable", "xxh-neon" },
	{ "no Advanced SIMD reported", 0, "crc-portable", "xxh-portable" },
};

/* Darwin releases against 21.3, the first with AVX-512 trusted. */
static const struct {
	const char *release;
	bool at_least_21_3;
} releases[] = {
	{ "21.3.0", true }, { "21.3", true }, { "21.4.0", true },
	{ "22.1.0", true }, { "21.10.0", true }, { "100.0.0", true },
	{ "21.2.0", false }, { "20.6.0", false }, { "3.0.0", false },
	{ "", false }, { "21", false }, { "21.", false }, { "abc", false },
	{ "21.x.0", false }, { "21.3beta", false }, { ".21.3", false },
};

static int fails;

static void expect(const char *cpu, const char *what,
		   const struct fh_kernel *got, const char *want)
{
	const char *name = got ? got->name : "";

	if (strcmp(name, want) != 0) {
		printf("FAIL %s: %s is '%s', want '%s'\n", cpu, what, name, want);
		fails++;
	}
}

/* The default kernels of a CPU with the FH_CPU_* bits CPU (traits in). */
static void expect_picks(const char *name, uint32_t cpu, const char *md5,
			 const char *keccak, const char *md5_multi,
			 const char *keccak_multi)
{
	expect(name, "md5", fh_kernel_pick(FH_FAMILY_MD5, false, cpu), md5);
	expect(name, "keccak", fh_kernel_pick(FH_FAMILY_KECCAK, false, cpu),
	       keccak);
	expect(name, "md5 multi-buffer",
	       fh_kernel_pick(FH_FAMILY_MD5, true, cpu), md5_multi);
	expect(name, "keccak multi-buffer",
	       fh_kernel_pick(FH_FAMILY_KECCAK, true, cpu), keccak_multi);
	printf("%-46s %s %s %s %s\n", name, md5, keccak, md5_multi,
	       keccak_multi);
}

/* Whether the probe rules made WANT of a probe row. */
static void expect_id(const struct probe_row *r, const struct fh_cpu_id *got)
{
	const struct fh_cpu_id *w = &r->want;

	if (got->features != w->features || got->vendor != w->vendor ||
	    got->family != w->family || got->model != w->model ||
	    got->midr != w->midr || got->apple_cpufamily != w->apple_cpufamily) {
		printf("FAIL %s: probe made features 0x%x vendor %d family %u "
		       "model %u midr 0x%x cpufamily 0x%x, want 0x%x %d %u %u "
		       "0x%x 0x%x\n", r->what, (unsigned)got->features,
		       (int)got->vendor, got->family, got->model,
		       (unsigned)got->midr, (unsigned)got->apple_cpufamily,
		       (unsigned)w->features, (int)w->vendor, w->family,
		       w->model, (unsigned)w->midr,
		       (unsigned)w->apple_cpufamily);
		fails++;
	}
}

int main(void)
{
#if defined(__x86_64__)
	const enum isa here = ISA_X86;
#elif defined(__aarch64__)
	const enum isa here = ISA_ARM;
#else
	puts("SKIP no kernels of either ISA are built here");
	return 77;
#endif
	unsigned chosen = 0;

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		uint32_t cpu = fh_cpu_traits(&r->id);

		if (cpu != (r->id.features | r->traits)) {
			printf("FAIL %s: traits 0x%x, want 0x%x\n", r->cpu,
			       (unsigned)(cpu & ~r->id.features),
			       (unsigned)r->traits);
			fails++;
		}
		if (r->isa != here)
			continue;
		expect_picks(r->cpu, cpu, r->md5, r->keccak, r->md5_multi,
			     r->keccak_multi);
		chosen++;
	}
	for (size_t i = 0; i < sizeof probe_rows / sizeof probe_rows[0]; i++) {
		const struct probe_row *r = &probe_rows[i];
		struct fh_cpu_id id;

		if (r->isa == ISA_X86)
			fh_cpu_x86_decide(&r->x86, &id);
		else
			fh_cpu_arm_decide(&r->arm, &id);
		expect_id(r, &id);
		uint32_t cpu = fh_cpu_traits(&id);
		/* These rows test the probes; FH_CPU_X86_AVX2_NARROW, which
		 * every AVX2 core but Zen 5 gets, and FH_CPU_X86_NO_SHA, which
		 * every AVX2 core without SHA-NI gets, are checked by the
		 * identity rows above and the narrowing checks below. */
		uint32_t seen = cpu & ~(uint32_t)(FH_CPU_X86_AVX2_NARROW |
						  FH_CPU_X86_NO_SHA);

		if (seen != (id.features | r->traits)) {
			printf("FAIL %s: traits 0x%x, want 0x%x\n", r->what,
			       (unsigned)(seen & ~id.features),
			       (unsigned)r->traits);
			fails++;
		}
		if (r->isa != here)
			continue;
		expect_picks(r->what, cpu, r->md5, r->keccak, r->md5_multi,
			     r->keccak_multi);
		chosen++;
	}
#if defined(__x86_64__) && defined(FH_HAVE_X86_SHA) && defined(FH_HAVE_X86_AVX2)
	/* SHA-256's multi-buffer pick: two SHA-NI streams where the CPU has
	 * them (Zen 3: 2210 MB/s against 1534 for eight AVX2 lanes), the
	 * AVX2 lanes where it has not, the AVX-512 lanes first of all. */
	{
		static const struct { size_t row; const char *want; } sha[] = {
			{ 0, "sha256-shanix2" },  /* Zen 3 */
			{ 5, "sha256-shanix2" },  /* Alder Lake */
			{ 4, "sha256-avx512x16" }, /* Skylake-X */
			{ 8, "sha256-avx2x8" },   /* AVX2 without BMI or SHA */
		};

		for (size_t i = 0; i < sizeof sha / sizeof sha[0]; i++) {
			const struct row *r = &rows[sha[i].row];
			const struct fh_kernel *k = fh_kernel_pick(
				FH_FAMILY_SHA256, true, fh_cpu_traits(&r->id));

			if (!k || strcmp(k->name, sha[i].want) != 0) {
				printf("FAIL %s: SHA-256 multi-buffer %s, want %s\n",
				       r->cpu, k ? k->name : "none", sha[i].want);
				fails++;
			}
		}
		/* Sapphire Rapids (AVX-512 and SHA-NI): a few busy lanes
		 * never narrow to the AVX2 lanes, which lose to SHA-NI. */
		uint32_t spr = fh_cpu_traits(&rows[3].id);
		const struct fh_kernel *w = fh_kernel_pick(FH_FAMILY_SHA256, true, spr);

		for (unsigned busy = 1; w && busy <= 16; busy++) {
			const struct fh_kernel *n = fh_kernel_narrowest(w, busy, spr);
			const char *want = busy <= 2 ? "sha256-shanix2" : "sha256-avx512x16";

			if (strcmp(n->name, want) != 0) {
				printf("FAIL %s, %u busy SHA-256 lanes: %s, want %s\n",
				       rows[3].cpu, busy, n->name, want);
				fails++;
			}
		}
	}
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2) && defined(FH_HAVE_X86_AVX512)
	/* BLAKE2b: one stream on VPRORQ only where vector rotates take one
	 * cycle (Intel), else on AVX2; the 8 AVX-512 lanes wherever
	 * AVX-512F runs, AVX-512VL or not. */
	{
		static const struct {
			size_t row;
			const char *single, *multi;
		} b2[] = {
			{ 0, "blake2b-avx2", "blake2b-avx2x4" },     /* Zen 3 */
			{ 1, "blake2b-avx2", "blake2b-avx512x8" },   /* Zen 4 */
			{ 3, "blake2b-avx512", "blake2b-avx512x8" }, /* SPR */
			{ 6, "blake2b-avx2", "blake2b-avx512x8" },   /* KNL */
			{ 7, "blake2b-portable", NULL },             /* Westmere */
		};

		for (size_t i = 0; i < sizeof b2 / sizeof b2[0]; i++) {
			const struct row *r = &rows[b2[i].row];
			uint32_t f = fh_cpu_traits(&r->id);
			const struct fh_kernel *k =
				fh_kernel_pick(FH_FAMILY_BLAKE2B, false, f);
			const struct fh_kernel *m =
				fh_kernel_pick(FH_FAMILY_BLAKE2B, true, f);

			if (strcmp(k->name, b2[i].single) != 0 ||
			    (m ? !b2[i].multi || strcmp(m->name, b2[i].multi)
			       : b2[i].multi != NULL)) {
				printf("FAIL %s: BLAKE2b %s and %s, want %s and %s\n",
				       r->cpu, k->name, m ? m->name : "none",
				       b2[i].single,
				       b2[i].multi ? b2[i].multi : "none");
				fails++;
			}
		}
	}
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_CRC_AVX512) &&                  \
	defined(FH_HAVE_X86_VPCLMUL) && defined(FH_HAVE_X86_SSE42) &&           \
	defined(FH_HAVE_X86_PCLMUL) && defined(FH_HAVE_X86_AVX512) &&           \
	defined(FH_HAVE_X86_AVX2)
	/* The checksums: CRC and XXH3.  The AVX-512 kernels wherever their
	 * features are (Zen 4, Zen 5, Sapphire Rapids: crc-avx512 needs
	 * VPCLMULQDQ, which Skylake-X lacks, xxh-avx512 AVX-512F alone):
	 * each does its AVX2 sibling's work in half the instructions, Zen 4
	 * at least even with it (two YMM halves a ZMM operation), Zen 5 and
	 * Sapphire Rapids ahead (whole 512-bit units), and crc-avx512 well
	 * past crc-sse42's crc32 chains for crc32c (lib/dispatch.c).
	 * Without AVX-512, crc-vpclmul where VPCLMULQDQ runs (Zen 3, where
	 * crc-sse42 only ties it on crc32c); else crc-sse42 wherever SSE4.2
	 * runs: CRC-32C on crc32, the other models on crc-pclmul where the
	 * CPU has it. */
	{
#define CRC_BASE (FH_CPU_X86_PCLMUL | FH_CPU_X86_SSE41 | FH_CPU_X86_SSE42)
		static const struct {
			const char *cpu;
			struct fh_cpu_id id;
			const char *crc, *xxh;
		} sums[] = {
			{ "Zen 3", { X86_AVX2_ONLY | FH_CPU_X86_SHA | CRC_BASE |
				     FH_CPU_X86_VPCLMUL, FH_VENDOR_AMD, 25, 1, 0, 0 },
			  "crc-vpclmul", "xxh-avx2" },
			{ "Zen 4", { X86_AVX512 | FH_CPU_X86_SHA | CRC_BASE |
				     FH_CPU_X86_VPCLMUL, FH_VENDOR_AMD, 25, 17, 0, 0 },
			  "crc-avx512", "xxh-avx512" },
			{ "Zen 5", { X86_AVX512 | FH_CPU_X86_SHA | CRC_BASE |
				     FH_CPU_X86_VPCLMUL, FH_VENDOR_AMD, 26, 2, 0, 0 },
			  "crc-avx512", "xxh-avx512" },
			{ "Sapphire Rapids", { X86_AVX512 | FH_CPU_X86_SHA | CRC_BASE |
					       FH_CPU_X86_VPCLMUL, FH_VENDOR_INTEL,
					       6, 143, 0, 0 },
			  "crc-avx512", "xxh-avx512" },
			{ "Skylake-X (no VPCLMULQDQ)", { X86_AVX512 | CRC_BASE,
							 FH_VENDOR_INTEL, 6, 85, 0, 0 },
			  "crc-sse42", "xxh-avx512" },
			{ "Haswell (PCLMULQDQ, AVX2)", { X86_AVX2_ONLY | CRC_BASE,
							 FH_VENDOR_INTEL, 6, 60, 0, 0 },
			  "crc-sse42", "xxh-avx2" },
			{ "Westmere (PCLMULQDQ, SSE4.2)", { CRC_BASE, FH_VENDOR_INTEL,
							    6, 44, 0, 0 },
			  "crc-sse42", "xxh-portable" },
			{ "Nehalem (SSE4.2 alone)", { FH_CPU_X86_SSE41 | FH_CPU_X86_SSE42,
						      FH_VENDOR_INTEL, 6, 26, 0, 0 },
			  "crc-sse42", "xxh-portable" },
			{ "Core 2 (no SSE4.2)", { 0, FH_VENDOR_INTEL, 6, 15, 0, 0 },
			  "crc-portable", "xxh-portable" },
		};
#undef CRC_BASE

		for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++) {
			uint32_t f = fh_cpu_traits(&sums[i].id);
			const char *cpu = sums[i].cpu;

			expect(cpu, "crc", fh_kernel_pick(FH_FAMILY_CRC, false, f),
			       sums[i].crc);
			expect(cpu, "xxh", fh_kernel_pick(FH_FAMILY_XXH, false, f),
			       sums[i].xxh);
		}
	}
#endif
	for (size_t i = 0; here == ISA_ARM &&
			   i < sizeof arm_sha_rows / sizeof arm_sha_rows[0]; i++) {
		const char *cpu = arm_sha_rows[i].cpu;
		uint32_t f = arm_sha_rows[i].features;

		expect(cpu, "sha1", fh_kernel_pick(FH_FAMILY_SHA1, false, f),
		       arm_sha_rows[i].sha1);
		expect(cpu, "sha256", fh_kernel_pick(FH_FAMILY_SHA256, false, f),
		       arm_sha_rows[i].sha256);
		expect(cpu, "sha512", fh_kernel_pick(FH_FAMILY_SHA512, false, f),
		       arm_sha_rows[i].sha512);
		printf("%-46s %s %s %s\n", cpu, arm_sha_rows[i].sha1,
		       arm_sha_rows[i].sha256, arm_sha_rows[i].sha512);
		chosen++;
	}
	for (size_t i = 0; here == ISA_ARM &&
			   i < sizeof arm_checksum_rows / sizeof arm_checksum_rows[0];
	     i++) {
		const char *cpu = arm_checksum_rows[i].cpu;
		uint32_t f = arm_checksum_rows[i].features;

		expect(cpu, "crc", fh_kernel_pick(FH_FAMILY_CRC, false, f),
		       arm_checksum_rows[i].crc);
		expect(cpu, "xxh", fh_kernel_pick(FH_FAMILY_XXH, false, f),
		       arm_checksum_rows[i].xxh);
		printf("%-46s %s %s\n", cpu, arm_checksum_rows[i].crc,
		       arm_checksum_rows[i].xxh);
		chosen++;
	}
	/* BLAKE2b on AArch64, for the same feature sets: one stream on the
	 * portable kernel, blake2b-neon only with its trait (which no core
	 * has: lib/dispatch.c), and the NEON lanes wherever Advanced SIMD is
	 * (no lanes without it). */
	for (size_t i = 0; here == ISA_ARM &&
			   i < sizeof arm_checksum_rows / sizeof arm_checksum_rows[0];
	     i++) {
		const char *cpu = arm_checksum_rows[i].cpu;
		uint32_t f = arm_checksum_rows[i].features;
		int simd = (f & FH_CPU_ARM_ASIMD) != 0;

		expect(cpu, "blake2b", fh_kernel_pick(FH_FAMILY_BLAKE2B, false, f),
		       "blake2b-portable");
		expect(cpu, "blake2b, NEON stream timed faster",
		       fh_kernel_pick(FH_FAMILY_BLAKE2B, false,
				      f | FH_CPU_ARM_B2_NEON_FAST),
		       simd ? "blake2b-neon" : "blake2b-portable");
		expect(cpu, "blake2b multi-buffer",
		       fh_kernel_pick(FH_FAMILY_BLAKE2B, true, f),
		       simd ? "blake2b-neonx2" : "");
		chosen++;
	}
	for (size_t i = 0; i < sizeof releases / sizeof releases[0]; i++)
		if (fh_darwin_release_at_least(releases[i].release, 21, 3) !=
		    releases[i].at_least_21_3) {
			printf("FAIL Darwin release '%s' read as %s 21.3\n",
			       releases[i].release,
			       releases[i].at_least_21_3 ? "before" : "at least");
			fails++;
		}
	/* The kernel for B busy lanes: the narrowest of the family's default
	 * multi-buffer kernels with at least B lanes (x86-64 only). */
	static const struct {
		const char *cpu;
		struct fh_cpu_id id;    /* features from fh_cpu_traits(id) */
		enum fh_family family;
		unsigned upto[3];       /* busy lanes up to which ... */
		const char *kernel[3];  /* ... this kernel runs them */
	} narrow[] = {
		{ "Zen 4", { X86_AVX512, FH_VENDOR_AMD, 25, 17, 0, 0 }, FH_FAMILY_MD5,
		  { 8, 16, 32 }, { "md5-avx2x8", "md5-avx512x16", "md5-avx512x32" } },
		/* Zen 5: each of md5-avx512x16's lanes is faster than each of
		 * md5-avx2x8's (kernel.h, FH_CPU_X86_AVX2_NARROW). */
		{ "Zen 5", { X86_AVX512, FH_VENDOR_AMD, 26, 2, 0, 0 }, FH_FAMILY_MD5,
		  { 16, 32, 0 }, { "md5-avx512x16", "md5-avx512x32", NULL } },
		{ "Sapphire Rapids", { X86_AVX512, FH_VENDOR_INTEL, 6, 143, 0, 0 },
		  FH_FAMILY_MD5, { 8, 16, 32 },
		  { "md5-avx2x8", "md5-avx512x16", "md5-avx512x32" } },
		{ "Zen 3", { X86_AVX2_ONLY, FH_VENDOR_AMD, 25, 1, 0, 0 }, FH_FAMILY_MD5,
		  { 8, 16, 0 }, { "md5-avx2x8", "md5-avx2x16", NULL } },
		{ "Zen 4", { X86_AVX512, FH_VENDOR_AMD, 25, 17, 0, 0 }, FH_FAMILY_KECCAK,
		  { 4, 8, 0 }, { "keccak-avx2x4", "keccak-avx512x8", NULL } },
		{ "Zen 5", { X86_AVX512, FH_VENDOR_AMD, 26, 2, 0, 0 }, FH_FAMILY_KECCAK,
		  { 4, 8, 0 }, { "keccak-avx2x4", "keccak-avx512x8", NULL } },
	};
	unsigned narrowed = 0;

	for (size_t i = 0; here == ISA_X86 && i < sizeof narrow / sizeof narrow[0]; i++) {
		uint32_t features = fh_cpu_traits(&narrow[i].id);
		const struct fh_kernel *widest =
			fh_kernel_pick(narrow[i].family, true, features);
		unsigned b = 1;

		for (int r = 0; r < 3 && narrow[i].kernel[r]; r++)
			for (; b <= narrow[i].upto[r]; b++) {
				const struct fh_kernel *k =
					fh_kernel_narrowest(widest, b, features);

				narrowed++;
				if (strcmp(k->name, narrow[i].kernel[r]) != 0) {
					printf("FAIL %s: %u busy lanes run on %s, want %s\n",
					       narrow[i].cpu, b, k->name, narrow[i].kernel[r]);
					fails++;
				}
			}
	}
	printf("%zu traits rows, %zu probe rows, %zu Darwin releases, "
	       "%u choice rows, %u narrowing checks, %d failed\n",
	       sizeof rows / sizeof rows[0],
	       sizeof probe_rows / sizeof probe_rows[0],
	       sizeof releases / sizeof releases[0], chosen, narrowed, fails);
	return fails ? 1 : 0;
}
