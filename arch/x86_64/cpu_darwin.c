/* cpu_darwin.c (x86-64): the OS part of the probe on macOS, where XCR0
 * does not tell whether AVX-512 may run: the kernel enables that state for
 * a thread only after its first AVX-512 instruction traps.  The kernel's
 * word is the sysctl hw.optional.avx512f, trusted from Darwin 21.3 on
 * (lib/cpu_rules.c says why), so the release is read too.  Meson builds
 * this file for Darwin hosts.
 *
 * From sysctlbyname(3): "int sysctlbyname(const char *name, void *oldp,
 * size_t *oldlenp, void *newp, size_t newlen)", declared in <sys/sysctl.h>;
 * it returns 0 on success and -1 with errno set on failure (ENOENT: no
 * such name; ENOMEM: the buffer is too small).  hw.optional.avx512f holds
 * a 32-bit int; kern.osrelease a string such as "21.3.0". */
#include <stddef.h>
#include <sys/types.h>
#include <sys/sysctl.h>

#include "cpu_os.h"

void fh_cpu_x86_read_os(struct fh_x86_probe *p)
{
	int v;
	size_t len = sizeof v;

	p->darwin = true;
	if (sysctlbyname("hw.optional.avx512f", &v, &len, NULL, 0) == 0 &&
	    len == sizeof v)
		p->avx512f_sysctl = v;
	else
		p->avx512f_sysctl = FH_SYSCTL_ABSENT;

	/* One byte kept for the NUL, which a release that fills the buffer
	 * exactly might lack; a longer one fails and reads as unknown. */
	len = sizeof p->osrelease - 1;
	if (sysctlbyname("kern.osrelease", p->osrelease, &len, NULL, 0) != 0)
		len = 0;
	p->osrelease[len] = '\0';
}
