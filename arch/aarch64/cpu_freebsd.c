/* cpu_freebsd.c (AArch64): what FreeBSD says of the CPU.  FreeBSD has no
 * getauxval; its elf_aux_info(3) hands out the same AT_HWCAP word, with
 * Linux's bit positions (sys/arm64/include/elf.h).  Meson builds this file
 * for FreeBSD hosts whose <sys/auxv.h> declares elf_aux_info.
 *
 * From elf_aux_info(3): "int elf_aux_info(int aux, void *buf, int
 * buflen)"; AT_HWCAP needs a buffer of sizeof(u_long); it "Returns zero on
 * success, or an error number on failure" (EINVAL for an unknown item or
 * a wrong size, ENOENT when the item is not available); it "appeared in
 * FreeBSD 12.0". */
#include <sys/types.h>
#include <sys/auxv.h>

#include "cpu_os.h"

void fh_cpu_arm_read(struct fh_arm_probe *p)
{
	u_long hw = 0;

	/* Without the word the probe knows nothing: cpu_rules.c then falls
	 * back to the baseline every AArch64 system has, rather than to
	 * "no Advanced SIMD". */
	if (elf_aux_info(AT_HWCAP, &hw, (int)sizeof hw) != 0)
		return;
	p->source = FH_ARM_FROM_HWCAP;
	p->hwcap = hw;
	/* FreeBSD's kernel emulates MRS of MIDR_EL1 and the ID registers for
	 * user space (user_mrs_handler, sys/arm64/arm64/identcpu.c), and says
	 * so with HWCAP_CPUID.  Kernels from 12.0 emulated the read before
	 * they set that bit (FreeBSD commit d61f9bfb, and
	 * https://github.com/google/cpu_features/issues/344); without a sure
	 * way to tell them from kernels that trap, MIDR stays 0 there, which
	 * costs only Apple's SHA3 preference. */
	if ((fh_cpu_arm_hwcap_features(hw) & FH_CPU_ARM_SHA3) &&
	    (hw & FH_HWCAP_CPUID))
		p->midr = fh_arm_mrs_midr();
}
