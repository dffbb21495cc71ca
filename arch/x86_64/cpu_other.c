/* cpu_other.c (x86-64): the OS part of the probe for every OS but macOS
 * (Linux, FreeBSD...).  There XCR0 is the whole truth about the register
 * state the OS saves, AVX-512's included, so there is nothing to add. */
#include "cpu_os.h"

void fh_cpu_x86_read_os(struct fh_x86_probe *p)
{
	(void)p;
}
