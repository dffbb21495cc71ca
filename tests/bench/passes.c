/* passes.c: one algorithm over one cached file, mapped, pass after pass,
 * to tell a mapping's cost from fhsum's.  Built by meson
 * (build/tests/bench/passes) against the public API only; not a test.
 *
 *   passes [-a ALGO] [-p PASSES] [-w MIB] FILE
 *
 * Without -w the file is mapped whole once (MAP_POPULATE) and hashed
 * PASSES times (default 9) with fh_update; each pass prints its MB/s
 * (10^6 bytes/s) of user time and of wall time.  A pass over a
 * populated mapping makes no system call, so the two agree on an idle
 * machine; where the kernel splits CPU time by the ticks that find a
 * thread in each mode (CONFIG_TICK_CPU_ACCOUNTING, HZ=250 on the
 * machines of docs/performance.md), the user time of a command that
 * mixes both, as fhsum's runs do, is only a sample of that split.  The first pass is what every run of a
 * hashing program gets; on the machines of docs/performance.md it ran
 * well under the later ones in 4 KiB folios.  With -w each pass maps the
 * file anew in windows of MIB MiB, each populated before it is hashed
 * and unmapped after, as fhsum's one-thread path does.  ALGO defaults to
 * crc32c.  Put the file in the folio state wanted first (bench/common.sh:
 * set_folio). */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fhsum.h>

#ifndef MAP_POPULATE
#define MAP_POPULATE 0
#endif

static double user_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
}

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *map(int fd, size_t len, off_t off)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, off);

	if (p == MAP_FAILED) {
		perror("passes: mmap");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	const char *name = "crc32c";
	unsigned passes = 9;
	size_t window = 0;
	int c;

	while ((c = getopt(argc, argv, "a:p:w:")) != -1) {
		if (c == 'a')
			name = optarg;
		else if (c == 'p')
			passes = (unsigned)strtoul(optarg, NULL, 10);
		else if (c == 'w')
			window = (size_t)strtoul(optarg, NULL, 10) << 20;
		else
			return 2;
	}
	const struct fh_algo *a = fh_algo_by_name(name);
	int fd = optind + 1 == argc ? open(argv[optind], O_RDONLY) : -1;
	struct stat st;

	if (!a || fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0 || !passes) {
		fprintf(stderr, "usage: passes [-a ALGO] [-p PASSES] [-w MIB] FILE "
			"(a known algorithm, a non-empty file)\n");
		return 2;
	}
	size_t len = (size_t)st.st_size;
	const uint8_t *whole = window ? NULL : map(fd, len, 0);
	size_t outlen = a->xof ? 32 : a->digest_bytes;

	printf("%s (%s), %zu bytes, %s\n", a->name, fh_kernel_name(a, false), len,
	       window ? "mapped in windows each pass" : "mapped whole once");
	for (unsigned i = 0; i < passes; i++) {
		uint8_t out[64];
		fh_ctx ctx;
		double t = user_seconds(), w = wall_seconds();

		fh_init_len(&ctx, a, outlen);
		if (whole) {
			fh_update(&ctx, whole, len);
		} else {
			for (size_t off = 0; off < len; off += window) {
				size_t n = len - off < window ? len - off : window;
				void *p = map(fd, n, (off_t)off);

				fh_update(&ctx, p, n);
				munmap(p, n);
			}
		}
		fh_final(&ctx, out, outlen);
		t = user_seconds() - t;
		w = wall_seconds() - w;
		printf("pass %u: %.0f MB/s of user time, %.0f MB/s of wall time\n",
		       i + 1, t > 0 ? (double)len / t / 1e6 : 0.0,
		       w > 0 ? (double)len / w / 1e6 : 0.0);
	}
	return 0;
}
