/* readceil.c: the read ceiling of a list of files, for tests/bench/bench.sh:
 * THREADS threads take the names in turn and read each file whole in
 * 256 KiB reads, doing nothing with the bytes.  Its time is the fastest a
 * checksum tool could go on that storage with that many reads in flight.
 *
 *   readceil [-m] THREADS LIST     (LIST: one name per line; "-" for stdin)
 *
 * -m: each file mapped and faulted in (MADV_POPULATE_READ, in system
 * time), then one word of every 64-byte line loaded: its user time is the
 * fastest any kernel can take the bytes of a cached mapping (from memory,
 * past the caches, for a large file), which tests/bench/feed.sh sets
 * beside the kernels' speeds.
 *
 * Built by bench.sh with: cc -O2 -pthread readceil.c -o readceil */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

#define READ_SIZE (256u << 10)

static char **names;
static size_t count;
static atomic_size_t turn;
static int mapped;
static volatile uint64_t sink;

/* FD mapped, faulted in, and every 64-byte line of it loaded. */
static void touch(int fd)
{
	struct stat st;
	uint64_t acc = 0;

	if (fstat(fd, &st) != 0 || st.st_size <= 0)
		return;
	size_t n = (size_t)st.st_size;
	const unsigned char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);

	if (p == MAP_FAILED)
		return;
	madvise((void *)p, n, MADV_POPULATE_READ);
	for (size_t at = 0; at + 8 <= n; at += 64) {
		uint64_t w;

		memcpy(&w, p + at, sizeof w);
		acc += w;
	}
	sink += acc;
	munmap((void *)p, n);
}

static void *reader(void *arg)
{
	/* On a page boundary, as fhsum's buffers: the kernel's copy into one
	 * 16 bytes off a 64-byte boundary, where malloc puts a large block,
	 * took 3x the time on AMD Zen 3. */
	char *buf = NULL;
	size_t i;

	(void)arg;
	if (posix_memalign((void **)&buf, 4096, READ_SIZE) != 0)
		buf = NULL;
	while (buf && (i = atomic_fetch_add(&turn, 1)) < count) {
		int fd = open(names[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			continue;
		if (mapped)
			touch(fd);
		else
			while (read(fd, buf, READ_SIZE) > 0)
				;
		close(fd);
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	ssize_t len;
	int n;

	if (argc == 4 && strcmp(argv[1], "-m") == 0) {
		mapped = 1;
		argv++;
		argc--;
	}
	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > 1024) {
		fprintf(stderr, "usage: readceil [-m] THREADS LIST\n");
		return 2;
	}
	f = strcmp(argv[2], "-") ? fopen(argv[2], "r") : stdin;
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (count == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			names = realloc(names, alloc * sizeof *names);
		}
		if (!names || !(names[count++] = strdup(line))) {
			perror("readceil");
			return 1;
		}
	}
	pthread_t *t = calloc((size_t)n, sizeof *t);

	for (int i = 0; t && i < n; i++)
		if (pthread_create(&t[i], NULL, reader, NULL) != 0)
			n = i;
	for (int i = 0; t && i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
