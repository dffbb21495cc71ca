/* crc_kernels.c: the speed of every CRC kernel this CPU runs, on the raw
 * update functions (no context, no final step, no I/O), per model: a
 * benchmark, never run by meson test.
 *
 *   build/tests/bench/crc_kernels [ROUNDS [MS]]     (default 5 rounds, 200 ms)
 *
 * As sha_kernels.c: each round runs every kernel in turn for about MS
 * milliseconds of this thread's CPU time, so that a busy machine adds
 * noise rather than bias and the kernels alternate, and the medians of
 * the rounds are printed as a Markdown table; here for each model and
 * each of three buffer sizes (4 KiB, 16 KiB, 1 MiB), hashed over and
 * over from the register the last call left.  GB/s are 10^9 bytes a
 * second; the ratio is against the portable kernel. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crc.h"
#include "kernel.h"

#define MAX_KERNELS 16
#define MAX_ROUNDS 31
#define NSIZES 3

static const size_t sizes[NSIZES] = { 4096, 16384, 1 << 20 };
static _Alignas(64) unsigned char buf[1 << 20];

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* GB/s of K on model M over N-byte buffers for about MS milliseconds. */
static double measure(const struct fh_kernel *k, const struct fh_crc_model *m,
		      size_t n, double ms)
{
	fh_crc_update_fn *f = fh_crc_update_of(k);
	uint64_t reg = fh_crc_start(m);
	size_t bytes = 0;
	double t0, t;

	reg = f(m, reg, buf, n); /* warm the caches and the tables */
	t0 = cpu_seconds();
	do {
		for (int i = 0; i < 8; i++)
			reg = f(m, reg, buf, n);
		bytes += 8 * n;
		t = cpu_seconds() - t0;
	} while (t < ms / 1000);
	/* The register is used, so that no call can be left out. */
	if (reg == 0x5eed)
		puts("");
	return (double)bytes / t / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const struct fh_crc_model *const models[] = {
		&fh_crc_cksum, &fh_crc_32, &fh_crc_32c, &fh_crc_64nvme,
	};
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	double ms = argc > 2 ? atof(argv[2]) : 200;
	const struct fh_kernel *ks[MAX_KERNELS], *k;
	static double gbs[MAX_KERNELS][NSIZES][MAX_ROUNDS];
	size_t n = 0;

	if (rounds < 1 || rounds > MAX_ROUNDS || ms <= 0) {
		fprintf(stderr, "usage: %s [ROUNDS (1..%d) [MS]]\n", argv[0],
			MAX_ROUNDS);
		return 2;
	}
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	for (size_t i = 0; (k = fh_kernel_at(i)) && n < MAX_KERNELS; i++)
		if (k->family == FH_FAMILY_CRC && fh_kernel_usable(k))
			ks[n++] = k;
	printf("| model | kernel | 4 KiB GB/s | 16 KiB GB/s | 1 MiB GB/s | "
	       "x portable (16 KiB) |\n|---|---|---|---|---|---|\n");
	for (size_t mi = 0; mi < sizeof models / sizeof *models; mi++) {
		double med[MAX_KERNELS][NSIZES], portable = 0;

		for (int r = 0; r < rounds; r++)
			for (size_t s = 0; s < NSIZES; s++)
				for (size_t i = 0; i < n; i++)
					gbs[i][s][r] = measure(ks[i], models[mi],
							       sizes[s], ms);
		for (size_t i = 0; i < n; i++) {
			for (size_t s = 0; s < NSIZES; s++) {
				double *v = gbs[i][s];

				qsort(v, (size_t)rounds, sizeof *v, cmp_double);
				med[i][s] = rounds % 2 ? v[rounds / 2]
						       : (v[rounds / 2 - 1] +
							  v[rounds / 2]) / 2;
			}
			if (ks[i] == fh_kernel_portable(FH_FAMILY_CRC))
				portable = med[i][1];
		}
		for (size_t i = 0; i < n; i++)
			printf("| %s | %s | %.1f | %.1f | %.1f | %.2f |\n",
			       models[mi]->name, ks[i]->name, med[i][0],
			       med[i][1], med[i][2], med[i][1] / portable);
	}
	return 0;
}
