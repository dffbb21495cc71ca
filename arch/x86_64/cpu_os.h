/* cpu_os.h (x86-64): between the probe (cpu.c), which reads CPUID and
 * XCR0 on every OS, and the one file Meson picks for the host's operating
 * system (cpu_darwin.c on macOS, cpu_other.c elsewhere), which adds what
 * that OS must be asked.  Decisions belong to lib/cpu_rules.c. */
#ifndef FH_ARCH_X86_64_CPU_OS_H
#define FH_ARCH_X86_64_CPU_OS_H

#include "cpu_rules.h"

/* Adds this OS's own facts to P, whose CPUID and XCR0 fields are read. */
void fh_cpu_x86_read_os(struct fh_x86_probe *p);

#endif
