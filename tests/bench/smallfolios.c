/* smallfolios.c: puts a file in the page cache in 4 KiB folios, for
 * tests/bench/bench.sh -F small: drops the file from the cache, turns its
 * readahead off (POSIX_FADV_RANDOM) and reads it again in 4 KiB pieces,
 * in a shuffled order, on 32 threads so that the disk has many reads in
 * flight.  A read of one page with no readahead fills exactly that page,
 * so no large folio forms.
 *
 *   smallfolios FILE
 *
 * Built by bench.sh with: cc -O2 -pthread smallfolios.c -o smallfolios */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096u
#define THREADS 32

static int fd;
static uint64_t *order;
static size_t pages;
static atomic_size_t turn;

static void *reader(void *arg)
{
	char buf[PAGE];
	size_t i;

	(void)arg;
	while ((i = atomic_fetch_add(&turn, 1)) < pages)
		if (pread(fd, buf, PAGE, (off_t)(order[i] * PAGE)) < 0) {
			perror("smallfolios: pread");
			exit(1);
		}
	return NULL;
}

int main(int argc, char **argv)
{
	struct stat st;
	pthread_t tid[THREADS];
	uint64_t seed = 0x9e3779b97f4a7c15u;

	if (argc != 2) {
		fprintf(stderr, "usage: smallfolios FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 1;
	}
	pages = ((size_t)st.st_size + PAGE - 1) / PAGE;
	order = malloc(pages * sizeof *order);
	if (!order) {
		perror("smallfolios");
		return 1;
	}
	for (size_t i = 0; i < pages; i++)
		order[i] = i;
	for (size_t i = pages; i > 1; i--) {  /* Fisher-Yates, xorshift */
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		size_t j = seed % i;
		uint64_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&tid[i], NULL, reader, NULL) != 0) {
			perror("smallfolios: pthread_create");
			return 1;
		}
	for (int i = 0; i < THREADS; i++)
		pthread_join(tid[i], NULL);
	return 0;
}
