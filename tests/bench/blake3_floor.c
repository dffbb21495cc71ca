/* blake3_floor.c: the least time fhsum's BLAKE3 chunk kernel needs for
 * one cached file, with nothing else around it: FILE mapped whole, its
 * whole chunks handed out 256 KiB at a time (an atomic counter) to
 * THREADS threads, each claim through fh_blake3_chunks of the kernel
 * picked for this CPU, the chaining values thrown away: no tree above the
 * chunks, no windows, no fault guard, no output.  Whatever the program
 * adds to that is its overhead; the gap between this and another program
 * is what a better program with the same kernel could still win.  Built
 * by meson (build/tests/bench/blake3_floor); blake3.sh's `floor` set runs
 * it against b3sum.  Not a test: it prints the wall seconds of one pass,
 * the mapping's faults included, and the chaining value of the last claim.
 *
 *   blake3_floor FILE [THREADS]     (default: the CPUs online)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernel.h"

#define CLAIM (256u * 1024)     /* a claim of fhsum's teams */

static const uint8_t *base;
static size_t claims;
static atomic_size_t next;
static const struct fh_kernel *kern;
static uint32_t last[8];

static void *run(void *arg)
{
	static const uint32_t key[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
					 0xa54ff53a, 0x510e527f, 0x9b05688c,
					 0x1f83d9ab, 0x5be0cd19 };
	uint32_t cvs[CLAIM / 1024][8];
	size_t i;

	(void)arg;
	while ((i = atomic_fetch_add(&next, 1)) < claims) {
		fh_blake3_chunks_of(kern)(key, base + i * CLAIM, CLAIM / 1024,
					  (uint64_t)i * (CLAIM / 1024), 0, cvs);
		if (i + 1 == claims)
			for (int w = 0; w < 8; w++)
				last[w] = cvs[CLAIM / 1024 - 1][w];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct stat st;
	long threads = argc > 2 ? atol(argv[2]) : sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t tid[256];
	int fd;

	if (argc < 2 || threads < 1 || threads > 256) {
		fprintf(stderr, "usage: blake3_floor FILE [THREADS]\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 1;
	}
	kern = fh_kernel_best(FH_FAMILY_BLAKE3);
	claims = (size_t)st.st_size / CLAIM;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	base = claims ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED,
			     fd, 0)
		      : NULL;
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (long i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, run, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (long i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s: %zu claims of 256 KiB on %ld threads: %.3f s (%s; last "
	       "chaining value %08x)\n", kern->name, claims, threads,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
	       argv[1], last[0]);
	return 0;
}
