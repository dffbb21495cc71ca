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
 * machine wall time would measure the scheduler instead.
 *
 * A multi-buffer kernel joins the same turns with all its lanes busy, each
 * on a 16 KiB buffer of its own, and each buffer is still one whole hash:
 * its whole blocks go through the lanes, its tail and padding through the
 * single-stream kernel picked by default, as the engine's lanes finish an
 * input.  Its row gives the aggregate MB/s of all lanes, the ratio to the
 * portable kernel like every row, and then the ratio to that picked
 * single-stream kernel.
 *
 * KT128 and KT256 are trees whose 8 KiB leaves fill the lanes of one
 * hash, so their rows hash one 1 MiB buffer at a time (128 leaves; a
 * 16 KiB one would be a single leaf beside the final node): a
 * multi-buffer row is that hash with its leaves in the kernel's lanes and
 * the rest on the picked single-stream kernel, as fhsum hashes a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "clock.h"
#include "kernel.h"

#define BENCH_BYTES 16384
#define BENCH_KT_BYTES (1u << 20)
#define BENCH_SLICES 5
#define BENCH_MAX_KERNELS 16
#define BENCH_DEFAULT_SECONDS 0.2

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

/* Hashes BUF (LEN bytes) whole with A on K for at least SECONDS; returns
 * bytes/s. */
static double run_slice(const struct fh_algo *a, const struct fh_kernel *k,
			const uint8_t *buf, size_t len, double seconds)
{
	uint8_t out[FH_MAX_DIGEST];
	unsigned long n = 0;
	double t0 = fh_seconds(CLOCK_THREAD_CPUTIME_ID), t;

	do {
		fh_ctx ctx;

		fh_init_kernel(&ctx, a, k);
		fh_update(&ctx, buf, len);
		fh_final(&ctx, out, a->digest_bytes);
		bench_sink ^= out[n % a->digest_bytes];
		n++;
		t = fh_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
	} while (t < seconds);
	return (double)n * len / t;
}

/* The buffers of the multi-buffer rows: lane i hashes the i-th. */
static uint8_t lane_bufs[FH_MAX_LANES][BENCH_BYTES];

/* Hashes lane_bufs[0..K->lanes) whole with A, their blocks on multi-buffer
 * kernel K and their tails and padding on single-stream kernel S, for at
 * least SECONDS; returns the aggregate bytes/s. */
static double run_slice_multi(const struct fh_algo *a,
			      const struct fh_kernel *k,
			      const struct fh_kernel *s, double seconds)
{
	static uint64_t states[FH_MAX_LANES * 25];
	size_t sb = fh_state_bytes(a->family);
	/* Where the lanes take only inputs of up to lane_max bytes (BLAKE3:
	 * one chunk), each lane's input is that long. */
	const size_t bytes = fh_lane_max(a) ? (size_t)fh_lane_max(a) : BENCH_BYTES;
	const size_t nblocks = fh_lane_blocks(a, bytes, 0);
	const size_t whole = nblocks * a->block_bytes;
	const uint8_t *data[FH_MAX_LANES];
	uint8_t out[FH_MAX_DIGEST];
	unsigned long n = 0;
	fh_ctx start;
	double t0 = fh_seconds(CLOCK_THREAD_CPUTIME_ID), t;

	fh_init_kernel(&start, a, s);
	for (unsigned i = 0; i < k->lanes; i++)
		data[i] = lane_bufs[i];
	do {
		for (unsigned i = 0; i < k->lanes; i++)
			memcpy((uint8_t *)states + i * sb, &start.state, sb);
		fh_blocks_xn(k, a, states, data, nblocks);
		for (unsigned i = 0; i < k->lanes; i++) {
			fh_ctx ctx;

			fh_lane_ctx(&ctx, a, s, a->digest_bytes,
				    (uint8_t *)states + i * sb, whole);
			fh_update(&ctx, lane_bufs[i] + whole, bytes - whole);
			fh_final(&ctx, out, a->digest_bytes);
			bench_sink ^= out[(n + i) % a->digest_bytes];
		}
		n++;
		t = fh_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
	} while (t < seconds);
	return (double)n * k->lanes * bytes / t;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The KT rows' buffer, filled like the others. */
static uint8_t kt_buf[BENCH_KT_BYTES];

/* One slice of kernel K: single-stream on BUF, or multi-buffer; KT on
 * its own buffer either way. */
static double slice(const struct fh_algo *a, const struct fh_kernel *k,
		    const struct fh_kernel *best, const uint8_t *buf,
		    double seconds)
{
	if (a->cv_bytes)
		return run_slice(a, k, kt_buf, sizeof kt_buf, seconds);
	return k->lanes > 1 ? run_slice_multi(a, k, best, seconds)
			    : run_slice(a, k, buf, BENCH_BYTES, seconds);
}

/* Times every usable kernel of A's family, single-stream ones first;
 * prints its rows. */
static void bench_algo(const struct fh_algo *a, const uint8_t *buf,
		       double seconds)
{
	const struct fh_kernel *ks[BENCH_MAX_KERNELS], *k;
	double rate[BENCH_MAX_KERNELS][BENCH_SLICES];
	double median[BENCH_MAX_KERNELS], portable = 0, single = 0;
	const struct fh_kernel *best = fh_kernel_best(a->family);
	const struct fh_kernel *best_multi = fh_kernel_best_multi(a->family);
	const struct fh_kernel *ref = fh_kernel_portable(a->family);
	size_t n = 0;

	for (int multi = 0; multi < 2; multi++)
		for (size_t i = 0; (k = fh_kernel_at(i)) != NULL; i++)
			if (k->family == a->family && fh_kernel_usable(k) &&
			    (k->lanes > 1) == multi && n < BENCH_MAX_KERNELS)
				ks[n++] = k;

	/* A short warm-up of each: page faults, caches, clock ramp-up. */
	for (size_t i = 0; i < n; i++)
		slice(a, ks[i], best, buf, seconds / 20);
	for (int s = 0; s < BENCH_SLICES; s++)
		for (size_t i = 0; i < n; i++)
			rate[i][s] = slice(a, ks[i], best, buf,
					   seconds / BENCH_SLICES);
	for (size_t i = 0; i < n; i++) {
		qsort(rate[i], BENCH_SLICES, sizeof rate[i][0], cmp_double);
		median[i] = rate[i][BENCH_SLICES / 2];
		if (ks[i] == ref)
			portable = median[i];
		if (ks[i] == best)
			single = median[i];
	}
	for (size_t i = 0; i < n; i++) {
		printf("%-10s %-16s %10.1f ", a->name, ks[i]->name,
		       median[i] / 1e6);
		if (portable > 0)
			printf("%8.2fx", median[i] / portable);
		else
			printf("%9s", "-");
		if (ks[i]->lanes > 1)
			printf("  %.2fx %s, %u lanes%s\n",
			       single > 0 ? median[i] / single : 0.0,
			       best->name, ks[i]->lanes,
			       ks[i] == best_multi ? "  +" : "");
		else
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
	for (size_t i = 0; i < sizeof kt_buf; i++)
		kt_buf[i] = (uint8_t)(i * 131 + (i >> 8));
	for (size_t l = 0; l < FH_MAX_LANES; l++)
		for (size_t i = 0; i < BENCH_BYTES; i++)
			lane_bufs[l][i] = (uint8_t)(i * 131 + (i >> 8) + l * 7);
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
	/* Lines of 80 columns at most, like the rest of the output. */
	printf("# multi-buffer rows: every lane busy on a buffer of its own, "
	       "aggregate MB/s,\n# then the ratio to the single-stream kernel "
	       "named; + = multi-buffer kernel\n# picked by default\n");
	printf("# kt128, kt256: one %u-byte buffer per hash, its leaves in the "
	       "lanes of a\n# multi-buffer kernel (the rest on the picked "
	       "single-stream one), one thread\n", BENCH_KT_BYTES);
	if (fflush(stdout) != 0 || ferror(stdout))
		return 1;
	return 0;
}
