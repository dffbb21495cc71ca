/* cpu_none.c: the CPU probe for architectures without kernels of their
 * own; only the portable kernels run there. */
#include "kernel.h"

void fh_cpu_probe(struct fh_cpu_id *id)
{
	*id = (struct fh_cpu_id){ .vendor = FH_VENDOR_UNKNOWN };
}
