/* cpu_other.c (AArch64): the probe's reading part for operating systems
 * fhsum has no way to ask (OpenBSD, NetBSD, Windows... for now).  It reads
 * nothing, so lib/cpu_rules.c assumes only the baseline every AArch64
 * system has: Advanced SIMD, no extension, no identity.  The kernels that
 * need an extension (SHA1, SHA2, SHA3, SHA512) are then neither chosen nor
 * allowed by --kernel: a SIGILL is worse than the slower kernel. */
#include "cpu_os.h"

void fh_cpu_arm_read(struct fh_arm_probe *p)
{
	(void)p;
}
