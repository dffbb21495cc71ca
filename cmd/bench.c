/* bench.c: fhsum --benchmark.  Each algorithm runs on each kernel of its
 * family that this CPU can use, one whole hash (init, update, final) of a
 * 16 KiB buffer after another, as `openssl speed -evp ALG -bytes 16384`
 * does, so the two tables compare directly.
 *
 * The kernels of one algorithm are timed in turns (several short slices
 * each, round robin) and each reports the median slice: on a shared or
 * frequency-scaling machine a disturbance then hits one slice of every
 * kernel rather than all of one kernel's time.  Time is this thread's CPU
 * time, as openssl speed counts user CPU time by default: on a busy
 * machine wall time would measure the scheduler instead. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "kernel.h"

#define BENCH_BYTES 16384
#define BENCH_SLICES 5
#define BENCH_MAX_KERNELS 16
#define BENCH_DEFAULT_SECONDS 0.2

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds per cell: FHSUM_BENCH_SECONDS when it is a positive number. */
static double cell_seconds(void)
{
	const char *s = getenv("FHSUM_BENCH_SECONDS");
	char *end;
	double v;

	if (!s || !*s)
		return BENCH_DEFAULT_SECONDS;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0) || v > 3600)
		return BENCH_DEFAULT_SECONDS;
	return v;
}

/* Where each digest's bytes go, so that no hash can be optimised away. */
static volatile uint8_t bench_sink;

/* Hashes BUF whole with A on K for at least SECONDS; returns bytes/s. */
static double run_slice(const struct fh_algo *a, const struct fh_kernel *k,
			const uint8_t *buf, double seconds)
{
	uint8_t out[FH_MAX_DIGEST];
	unsigned long n = 0;
	double t0 = now(), t;

	do {
		fh_ctx ctx;

		fh_init_kernel(&ctx, a, k);
		fh_update(&ctx, buf, BENCH_BYTES);
		fh_final(&ctx, out, a->digest_bytes);
		bench_sink ^= out[n % a->digest_bytes];
		n++;
		t = now() - t0;
	} while (t < seconds);
	return (double)n * BENCH_BYTES / t;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Times every usable single-stream kernel of A's family; prints its rows. */
static void bench_algo(const struct fh_algo *a, const uint8_t *buf,
		       double seconds)
{
	const struct fh_kernel *ks[BENCH_MAX_KERNELS], *k;
	double rate[BENCH_MAX_KERNELS][BENCH_SLICES];
	double median[BENCH_MAX_KERNELS], portable = 0;
	const struct fh_kernel *best = fh_kernel_best(a->family);
	const struct fh_kernel *ref = a->family == FH_FAMILY_MD5
				      ? &fh_md5_portable : &fh_keccak_portable;
	size_t n = 0;

	for (size_t i = 0; (k = fh_kernel_at(i)) != NULL; i++)
		if (k->family == a->family && fh_kernel_usable(k) &&
		    k->lanes == 1 && n < BENCH_MAX_KERNELS)
			ks[n++] = k;

	/* A short warm-up of each: page faults, caches, clock ramp-up. */
	for (size_t i = 0; i < n; i++)
		run_slice(a, ks[i], buf, seconds / 20);
	for (int s = 0; s < BENCH_SLICES; s++)
		for (size_t i = 0; i < n; i++)
			rate[i][s] = run_slice(a, ks[i], buf,
					       seconds / BENCH_SLICES);
	for (size_t i = 0; i < n; i++) {
		qsort(rate[i], BENCH_SLICES, sizeof rate[i][0], cmp_double);
		median[i] = rate[i][BENCH_SLICES / 2];
		if (ks[i] == ref)
			portable = median[i];
	}
	for (size_t i = 0; i < n; i++) {
		printf("%-10s %-16s %10.1f ", a->name, ks[i]->name,
		       median[i] / 1e6);
		if (portable > 0)
			printf("%8.2fx", median[i] / portable);
		else
			printf("%9s", "-");
		printf("%s\n", ks[i] == best ? "  *" : "");
	}
}

int fh_benchmark(const struct fh_algo *only)
{
	static uint8_t buf[BENCH_BYTES];
	double seconds = cell_seconds();

	/* Any bytes will do; these are not all zero so no kernel can take
	 * a shortcut on them. */
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)(i * 131 + (i >> 8));
	printf("%-10s %-16s %10s %9s\n", "algorithm", "kernel", "MB/s",
	       "portable");
	fflush(stdout);
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);

		if (only && a != only)
			continue;
		bench_algo(a, buf, seconds);
		fflush(stdout);
	}
	printf("# %d-byte buffers, whole hashes; MB/s = 10^6 bytes/s; "
	       "* = picked by default\n", BENCH_BYTES);
	if (fflush(stdout) != 0 || ferror(stdout))
		return 1;
	return 0;
}
