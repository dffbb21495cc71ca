/* cpu_none.c: the CPU probe for architectures without kernels of their
 * own; only the portable kernels run there. */
#include "kernel.h"

uint32_t fh_cpu_probe(void)
{
	return 0;
}
