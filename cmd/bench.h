/* bench.h: fhsum --benchmark, the in-memory speed table of every kernel. */
#ifndef FH_BENCH_H
#define FH_BENCH_H

#include "fhsum.h"

/* Hashes a 16 KiB buffer in memory with every kernel this CPU runs, for
 * ONLY or, when ONLY is NULL, for every algorithm, and prints a table of
 * MB/s (10^6 bytes per second) and each kernel's speed relative to its
 * family's portable kernel on standard output; a multi-buffer kernel's
 * row gives the aggregate MB/s of all its lanes, each on a buffer of its
 * own, and also its speed relative to the picked single-stream kernel.
 * Each cell runs about 0.2 s, or FHSUM_BENCH_SECONDS (a decimal number)
 * where that is set.  Returns 0, or 1 when standard output could not be
 * written.  Not thread-safe (it prints), and meant to run alone: it
 * measures the calling thread's CPU time, which a busy machine still
 * disturbs. */
int fh_benchmark(const struct fh_algo *only);

#endif
