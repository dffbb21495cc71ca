/* kernel_set.h: the kernels the command runs (kernel_set.c): choosing them,
 * listing them, and naming them for --debug. */
#ifndef FH_KERNEL_SET_H
#define FH_KERNEL_SET_H

struct fh_kernel_set;

/* The best kernel of each family, or those FORCED names (FHSUM_KERNEL or
 * --kernel: NAME[,NAME]; NULL: none); NULL after a message when a name is
 * unknown or its kernel cannot run on this CPU. */
const struct fh_kernel_set *fh_kernels_pick(const char *forced);
/* --list-kernels: every kernel built, whether this CPU runs it, whether
 * SET picked it and why not, on standard output. */
void fh_kernels_list(const struct fh_kernel_set *set);
/* --debug: the CPU, the OS layer and SET's kernels, on standard error. */
void fh_kernels_debug(const struct fh_kernel_set *set);

#endif
