/* hash_many.c: the speed of fh_hash_many on buffers in memory, to set
 * beside the multi-buffer rows of `fhsum --benchmark`.  Built by meson
 * (build/tests/bench/hash_many) against the public API only; not a test.
 *
 *   hash_many [-n COUNT] [-s BYTES] [-r ROUNDS] [-d DISTINCT] [-H] [ALGO...]
 *
 * COUNT buffers (default 4096) of BYTES each (default 128 KiB), of which
 * DISTINCT (default all) are separate allocations, the others pointers to
 * those again, so that a small DISTINCT measures from the caches and the
 * default from memory.  Each round hashes them all with one fh_hash_many
 * call, then with a loop over fh_hash, in turns; each prints the median
 * round in MB/s (10^6 bytes/s) of this thread's CPU time, as `fhsum
 * --benchmark` counts, and of wall time.  ALGO defaults to md5 and
 * sha3-256.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <fhsum.h>

#define MAX_ROUNDS 101

static double seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static unsigned long number(const char *s, unsigned long max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v == 0 || v > max) {
		fprintf(stderr, "hash_many: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	size_t count = 4096, size = 128u << 10, distinct = 0;
	unsigned rounds = 5;
	bool huge = false;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:r:d:H")) != -1) {
		switch (opt) {
		case 'H': huge = true; break;
		case 'n': count = number(optarg, 1u << 24); break;
		case 's': size = number(optarg, 1ul << 30); break;
		case 'r': rounds = (unsigned)number(optarg, MAX_ROUNDS); break;
		case 'd': distinct = number(optarg, 1u << 24); break;
		default:
			fprintf(stderr, "usage: hash_many [-n COUNT] [-s BYTES] "
				"[-r ROUNDS] [-d DISTINCT] [-H] [ALGO...]\n");
			return 2;
		}
	}
	if (!distinct || distinct > count)
		distinct = count;

	const void **data = malloc(count * sizeof *data);
	size_t *len = malloc(count * sizeof *len);
	uint8_t *out = malloc(count * FH_MAX_DIGEST);
	/* Page-aligned, for -H. */
	uint8_t *pool = aligned_alloc(2u << 20, (distinct * size + (2u << 20) - 1)
						& ~(size_t)((2u << 20) - 1));

	if (!data || !len || !out || !pool) {
		fprintf(stderr, "hash_many: out of memory\n");
		return 1;
	}
#ifdef MADV_HUGEPAGE
	/* -H: huge pages, where the kernel allows them, to see what the
	 * TLB and page-crossing costs the lanes' many streams. */
	if (huge)
		madvise(pool, distinct * size, MADV_HUGEPAGE);
#else
	(void)huge;
#endif
	/* Every page written, so that no round pays for first faults. */
	for (size_t i = 0; i < distinct * size; i++)
		pool[i] = (uint8_t)(i * 2654435761u >> 13);
	for (size_t i = 0; i < count; i++) {
		data[i] = pool + (i % distinct) * size;
		len[i] = size;
	}

	static const char *const fallback[] = { "md5", "sha3-256" };
	const char *const *names = optind < argc ? (const char *const *)argv + optind
						 : fallback;
	size_t nnames = optind < argc ? (size_t)(argc - optind) : 2;
	double mb = (double)count * (double)size / 1e6;

	printf("# %zu buffers of %zu bytes, %zu distinct; median of %u rounds; "
	       "MB/s of CPU time (wall)\n", count, size, distinct, rounds);
	for (size_t a = 0; a < nnames; a++) {
		const struct fh_algo *algo = fh_algo_by_name(names[a]);
		double cpu[2][MAX_ROUNDS], wall[2][MAX_ROUNDS];

		if (!algo) {
			fprintf(stderr, "hash_many: unknown algorithm '%s'\n", names[a]);
			return 2;
		}
		for (unsigned r = 0; r < rounds; r++) {
			for (int way = 0; way < 2; way++) {
				double c0 = seconds(CLOCK_THREAD_CPUTIME_ID);
				double w0 = seconds(CLOCK_MONOTONIC);

				if (way == 0)
					fh_hash_many(algo, count, data, len, out,
						     algo->digest_bytes);
				else
					for (size_t i = 0; i < count; i++)
						fh_hash(algo, data[i], len[i],
							out + i * algo->digest_bytes,
							algo->digest_bytes);
				cpu[way][r] = seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
				wall[way][r] = seconds(CLOCK_MONOTONIC) - w0;
			}
		}
		const char *multi = fh_kernel_name(algo, true);

		printf("%-9s fh_hash_many %-16s %8.1f (%8.1f)\n", algo->name,
		       multi ? multi : "(none)", mb / median(cpu[0], rounds),
		       mb / median(wall[0], rounds));
		printf("%-9s fh_hash loop %-16s %8.1f (%8.1f)\n", algo->name,
		       fh_kernel_name(algo, false), mb / median(cpu[1], rounds),
		       mb / median(wall[1], rounds));
	}
	free(pool);
	free(out);
	free(len);
	free(data);
	return 0;
}
