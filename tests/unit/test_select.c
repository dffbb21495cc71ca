/* test_select.c: the default kernels as a pure function of a CPU's
 * features and identity.  Each row is a CPU as its probe would read it
 * (features, vendor, family and model, MIDR) and the four kernels it must
 * get: single-stream and multi-buffer, MD5 and Keccak.  The identity
 * traits (lib/cpu_traits.c) are checked for every row on every machine;
 * the kernel choice for the rows of the ISA this build has kernels for
 * (the other ISA's kernels are not built here: CI runs those rows in the
 * AArch64 build under qemu).  Then, on x86-64, which kernel runs a given
 * number of busy lanes.  Exit 77 where neither ISA was built. */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

#define X86_AVX2_ONLY (FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2 | FH_CPU_X86_AVX2)
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
	  { X86_AVX2_ONLY, FH_VENDOR_AMD, 25, 1, 0 }, 0,
	  "md5-bmi", "keccak-bmi2", "md5-avx2x16", "keccak-avx2x4" },
	{ "AMD Zen 4 (AVX-512)", ISA_X86,
	  { X86_AVX512, FH_VENDOR_AMD, 25, 17, 0 }, 0,
	  "md5-bmi", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "AMD Zen 5 (AVX-512)", ISA_X86,
	  { X86_AVX512, FH_VENDOR_AMD, 26, 2, 0 }, 0,
	  "md5-bmi", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Intel Sapphire Rapids (AVX-512)", ISA_X86,
	  { X86_AVX512, FH_VENDOR_INTEL, 6, 143, 0 }, FH_CPU_X86_VPROL_FAST,
	  "md5-avx512", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Intel Skylake-X (AVX-512)", ISA_X86,
	  { X86_AVX512, FH_VENDOR_INTEL, 6, 85, 0 }, FH_CPU_X86_VPROL_FAST,
	  "md5-avx512", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Intel Alder Lake (AVX2 only)", ISA_X86,
	  { X86_AVX2_ONLY, FH_VENDOR_INTEL, 6, 151, 0 }, 0,
	  "md5-bmi", "keccak-bmi2", "md5-avx2x16", "keccak-avx2x4" },
	{ "Intel Knights Landing (AVX-512F without VL)", ISA_X86,
	  { X86_AVX2_ONLY | FH_CPU_X86_AVX512F, FH_VENDOR_INTEL, 6, 87, 0 }, 0,
	  "md5-bmi", "keccak-bmi2", "md5-avx2x16", "keccak-avx2x4" },
	{ "x86-64 without AVX2 or BMI (Westmere)", ISA_X86,
	  { 0, FH_VENDOR_INTEL, 6, 44, 0 }, 0,
	  "md5-portable", "keccak-portable", "", "" },
	{ "x86-64 with AVX2, without BMI", ISA_X86,
	  { FH_CPU_X86_AVX2, FH_VENDOR_AMD, 23, 1, 0 }, 0,
	  "md5-portable", "keccak-avx2", "md5-avx2x16", "keccak-avx2x4" },
	{ "x86-64 of unknown make with AVX-512", ISA_X86,
	  { X86_AVX512, FH_VENDOR_UNKNOWN, 6, 143, 0 }, 0,
	  "md5-bmi", "keccak-avx512", "md5-avx512x32", "keccak-avx512x8" },
	{ "Arm Cortex-A53 (no SHA3)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD, FH_VENDOR_ARM_IMPL, 0, 0, 0x410fd034 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
	{ "Arm Neoverse V1 (SHA3, slow there)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3, FH_VENDOR_ARM_IMPL, 0, 0,
	    0x411fd401 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
	{ "Apple M1 (SHA3, fast)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3, FH_VENDOR_ARM_IMPL, 0, 0,
	    0x611f0221 }, FH_CPU_ARM_SHA3_FAST,
	  "md5-gpr", "keccak-sha3ce", "md5-neonx4", "keccak-sha3cex2" },
	{ "Apple core without SHA3 reported", ISA_ARM,
	  { FH_CPU_ARM_ASIMD, FH_VENDOR_ARM_IMPL, 0, 0, 0x611f0221 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
	{ "qemu -cpu max (SHA3, MIDR implementer 0)", ISA_ARM,
	  { FH_CPU_ARM_ASIMD | FH_CPU_ARM_SHA3, FH_VENDOR_ARM_IMPL, 0, 0,
	    0x000f0510 }, 0,
	  "md5-gpr", "keccak-gpr", "md5-neonx4", "keccak-neonx2" },
};

static int fails;

static void expect(const struct row *r, const char *what,
		   const struct fh_kernel *got, const char *want)
{
	const char *name = got ? got->name : "";

	if (strcmp(name, want) != 0) {
		printf("FAIL %s: %s is '%s', want '%s'\n", r->cpu, what, name, want);
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
		expect(r, "md5", fh_kernel_pick(FH_FAMILY_MD5, false, cpu), r->md5);
		expect(r, "keccak", fh_kernel_pick(FH_FAMILY_KECCAK, false, cpu),
		       r->keccak);
		expect(r, "md5 multi-buffer",
		       fh_kernel_pick(FH_FAMILY_MD5, true, cpu), r->md5_multi);
		expect(r, "keccak multi-buffer",
		       fh_kernel_pick(FH_FAMILY_KECCAK, true, cpu), r->keccak_multi);
		chosen++;
		printf("%-46s %s %s %s %s\n", r->cpu, r->md5, r->keccak,
		       r->md5_multi, r->keccak_multi);
	}
	/* The kernel for B busy lanes: the narrowest of the family's default
	 * multi-buffer kernels with at least B lanes (x86-64 only). */
	static const struct {
		const char *cpu;
		uint32_t features;
		enum fh_family family;
		unsigned upto[3];       /* busy lanes up to which ... */
		const char *kernel[3];  /* ... this kernel runs them */
	} narrow[] = {
		{ "Zen 4", X86_AVX512, FH_FAMILY_MD5, { 8, 16, 32 },
		  { "md5-avx2x8", "md5-avx512x16", "md5-avx512x32" } },
		{ "Zen 3", X86_AVX2_ONLY, FH_FAMILY_MD5, { 8, 16, 0 },
		  { "md5-avx2x8", "md5-avx2x16", NULL } },
		{ "Zen 4", X86_AVX512, FH_FAMILY_KECCAK, { 4, 8, 0 },
		  { "keccak-avx2x4", "keccak-avx512x8", NULL } },
	};
	unsigned narrowed = 0;

	for (size_t i = 0; here == ISA_X86 && i < sizeof narrow / sizeof narrow[0]; i++) {
		const struct fh_kernel *widest =
			fh_kernel_pick(narrow[i].family, true, narrow[i].features);
		unsigned b = 1;

		for (int r = 0; r < 3 && narrow[i].kernel[r]; r++)
			for (; b <= narrow[i].upto[r]; b++) {
				const struct fh_kernel *k =
					fh_kernel_narrowest(widest, b, narrow[i].features);

				narrowed++;
				if (strcmp(k->name, narrow[i].kernel[r]) != 0) {
					printf("FAIL %s: %u busy lanes run on %s, want %s\n",
					       narrow[i].cpu, b, k->name, narrow[i].kernel[r]);
					fails++;
				}
			}
	}
	printf("%zu traits rows, %u choice rows, %u narrowing checks, %d failed\n",
	       sizeof rows / sizeof rows[0], chosen, narrowed, fails);
	return fails ? 1 : 0;
}
