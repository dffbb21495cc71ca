/* sha_kernels.c: the speed of every SHA-1, SHA-256 and SHA-512 kernel this
 * CPU runs, on the raw block functions (no padding, no I/O): a benchmark,
 * never run by meson test.
 *
 *   build/tests/bench/sha_kernels [ROUNDS [MS]]     (default 5 rounds, 300 ms)
 *
 * Each round runs every kernel in turn for about MS milliseconds of this
 * thread's CPU time, so that a busy machine adds noise rather than bias
 * and the kernels alternate; the medians of the rounds are printed as a
 * Markdown table.  A single-stream kernel hashes a 16 KiB buffer over and
 * over; a multi-buffer kernel hashes one 16 KiB buffer per lane, all lanes
 * busy, the buffers apart in memory, and is reported both as the
 * aggregate of its lanes and per lane.  MB/s are 10^6 bytes a second;
 * the ratio is against the portable kernel of the family. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel.h"

#define BUF_BYTES 16384
#define MAX_KERNELS 64
#define MAX_ROUNDS 31

/* Lane buffers, each 16 KiB plus 576 bytes from the one before, so that
 * the lanes' blocks do not all fall in the same L1 cache set. */
static _Alignas(64) unsigned char bufs[FH_MAX_LANES][BUF_BYTES + 576];

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int is_sha(enum fh_family f)
{
	return f == FH_FAMILY_SHA1 || f == FH_FAMILY_SHA256 ||
	       f == FH_FAMILY_SHA512;
}

/* One call over BUF_BYTES per lane; returns the bytes hashed. */
static size_t run_once(const struct fh_kernel *k)
{
	static uint32_t s32[FH_MAX_LANES][8];
	static uint64_t s64[FH_MAX_LANES][8];
	static uint32_t s1[FH_MAX_LANES][5];
	const unsigned char *d[FH_MAX_LANES];
	size_t bb = k->family == FH_FAMILY_SHA512 ? 128 : 64;
	size_t nb = BUF_BYTES / bb;

	for (unsigned i = 0; i < k->lanes; i++)
		d[i] = bufs[i];
	if (k->lanes == 1) {
		if (k->family == FH_FAMILY_SHA1)
			fh_sha1_blocks_of(k)(s1[0], d[0], nb);
		else if (k->family == FH_FAMILY_SHA256)
			fh_sha256_blocks_of(k)(s32[0], d[0], nb);
		else
			fh_sha512_blocks_of(k)(s64[0], d[0], nb);
	} else {
		if (k->family == FH_FAMILY_SHA1)
			fh_sha1_blocks_xn_of(k)(s1, d, nb);
		else if (k->family == FH_FAMILY_SHA256)
			fh_sha256_blocks_xn_of(k)(s32, d, nb);
		else
			fh_sha512_blocks_xn_of(k)(s64, d, nb);
	}
	return (size_t)k->lanes * nb * bb;
}

/* Aggregate MB/s of K over about MS milliseconds of CPU time. */
static double measure(const struct fh_kernel *k, double ms)
{
	size_t bytes = 0;
	double t0, t;

	run_once(k); /* warm the caches and the vector units */
	t0 = cpu_seconds();
	do {
		for (int i = 0; i < 8; i++)
			bytes += run_once(k);
		t = cpu_seconds() - t0;
	} while (t < ms / 1000);
	return (double)bytes / t / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	double ms = argc > 2 ? atof(argv[2]) : 300;
	const struct fh_kernel *ks[MAX_KERNELS], *k;
	static double mbs[MAX_KERNELS][MAX_ROUNDS];
	double portable[FH_FAMILY_COUNT] = { 0 };
	size_t n = 0;

	if (rounds < 1 || rounds > MAX_ROUNDS || ms <= 0) {
		fprintf(stderr, "usage: %s [ROUNDS (1..%d) [MS]]\n", argv[0],
			MAX_ROUNDS);
		return 2;
	}
	for (size_t i = 0; i < sizeof bufs; i++)
		((unsigned char *)bufs)[i] = (unsigned char)(i * 131 + 7);
	for (size_t i = 0; (k = fh_kernel_at(i)) && n < MAX_KERNELS; i++)
		if (is_sha(k->family) && fh_kernel_usable(k))
			ks[n++] = k;
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < n; i++)
			mbs[i][r] = measure(ks[i], ms);

	double med[MAX_KERNELS];
	for (size_t i = 0; i < n; i++) {
		qsort(mbs[i], (size_t)rounds, sizeof mbs[i][0], cmp_double);
		med[i] = rounds % 2 ? mbs[i][rounds / 2]
				    : (mbs[i][rounds / 2 - 1] +
				       mbs[i][rounds / 2]) / 2;
		/* The kernel a CPU with no features gets is the portable one. */
		if (ks[i] == fh_kernel_pick(ks[i]->family, false, 0))
			portable[ks[i]->family] = med[i];
	}
	printf("| kernel | lanes | MB/s (all lanes) | MB/s per lane | "
	       "x portable |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++)
		printf("| %s | %u | %.0f | %.0f | %.2f |\n", ks[i]->name,
		       ks[i]->lanes, med[i], med[i] / ks[i]->lanes,
		       med[i] / portable[ks[i]->family]);
	return 0;
}
