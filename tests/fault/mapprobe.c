/* mapprobe.c: asks the kernel how a mapping of a file whose reads fail
 * behaves, one way of faulting it in at a time, so that the engine's
 * choices rest on what the kernel does rather than on what it is said to
 * do.  Not a test: the fault suite's notes quote its output.
 *
 *     mapprobe FILE [SECONDS [STATS]]
 *
 * For each way (a plain touch of every page, mmap with MAP_POPULATE, the
 * same in a process that handles SIGTERM, madvise MADV_POPULATE_READ,
 * MADV_WILLNEED then a touch, read(2)) a
 * child maps the whole FILE and faults it in; the parent waits up to
 * SECONDS (default 5), then sends SIGTERM, then SIGKILL, and prints what
 * came back: the errno, the signal, the offset reached and the times.
 * With STATS (faultfs's .faultfs file), it prints that after each way:
 * how many reads the file system answered, and how many with EIO. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static sigjmp_buf jump;
static volatile uintptr_t bus_addr;
static volatile int bus_code;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	bus_addr = (uintptr_t)si->si_addr;
	bus_code = si->si_code;
	siglongjmp(jump, 1);
}

static const char *bus_code_name(int code)
{
	switch (code) {
	case BUS_ADRALN: return "BUS_ADRALN";
	case BUS_ADRERR: return "BUS_ADRERR";
	case BUS_OBJERR: return "BUS_OBJERR";
	case BUS_MCEERR_AR: return "BUS_MCEERR_AR";
	case BUS_MCEERR_AO: return "BUS_MCEERR_AO";
	default: return "other";
	}
}

/* Touches every page of MAP (LEN bytes); returns the offset reached, or
 * -1 - offset when SIGBUS stopped it. */
static long long touch(const volatile uint8_t *map, size_t len, long page)
{
	static volatile size_t off;
	unsigned sum = 0;

	if (sigsetjmp(jump, 1))
		return -1 - (long long)(bus_addr - (uintptr_t)map);
	for (off = 0; off < len; off += (size_t)page)
		sum += map[off];
	(void)sum;
	return (long long)len;
}

static void report_touch(const char *how, long long r, double t0)
{
	if (r < 0)
		printf("%s: SIGBUS (si_code %d, %s) at offset %lld after %.3f s\n",
		       how, bus_code, bus_code_name(bus_code), -1 - r, now() - t0);
	else
		printf("%s: touched all %lld bytes in %.3f s\n", how, r,
		       now() - t0);
}

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

static void probe(const char *way, int fd, size_t len, long page)
{
	double t0 = now();
	uint8_t *map;
	bool populate = strncmp(way, "map_populate", 12) == 0;

	/* A process that handles SIGTERM (as one that erases a progress
	 * line would): does the signal still end the populate? */
	if (strcmp(way, "map_populate_handled") == 0)
		signal(SIGTERM, on_term);

	if (strcmp(way, "read") == 0) {
		static char buf[1 << 16];
		long long total = 0;
		ssize_t n;

		while ((n = read(fd, buf, sizeof buf)) > 0)
			total += n;
		printf("read: %s after %lld bytes in %.3f s\n",
		       n < 0 ? strerror(errno) : "end of file", total,
		       now() - t0);
		return;
	}
	map = mmap(NULL, len, PROT_READ,
		   MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, 0);
	if (map == MAP_FAILED) {
		printf("%s: mmap: %s after %.3f s%s\n", way, strerror(errno),
		       now() - t0, got_term ? " (SIGTERM handled)" : "");
		return;
	}
	if (populate) {
		printf("%s: mmap returned after %.3f s%s\n", way, now() - t0,
		       got_term ? " (SIGTERM handled)" : "");
		report_touch(way, touch(map, len, page), t0);
	} else if (strcmp(way, "populate_read") == 0) {
		int r = madvise(map, len, MADV_POPULATE_READ);

		printf("populate_read: madvise returned %d (%s) after %.3f s\n",
		       r, r ? strerror(errno) : "ok", now() - t0);
	} else if (strcmp(way, "willneed") == 0) {
		int r = madvise(map, len, MADV_WILLNEED);

		printf("willneed: madvise returned %d after %.3f s\n", r,
		       now() - t0);
		fflush(stdout);
		report_touch("willneed, then touch", touch(map, len, page), t0);
	} else {
		report_touch("touch", touch(map, len, page), t0);
	}
}

static void show_stats(const char *path)
{
	char line[512];
	FILE *fp = fopen(path, "r");

	while (fp && fgets(line, sizeof line, fp))
		printf("    %s", line);
	if (fp)
		fclose(fp);
}

int main(int argc, char **argv)
{
	static const char *const ways[] = {
		"touch", "map_populate", "map_populate_handled",
		"populate_read", "willneed", "read",
	};
	double limit = argc > 2 ? atof(argv[2]) : 5;
	struct sigaction sa;
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);

	if (argc < 2) {
		fprintf(stderr, "usage: mapprobe FILE [SECONDS]\n");
		return 2;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_bus;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, NULL);
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		int fd = open(argv[1], O_RDONLY);
		pid_t pid;
		double t0;
		int status = 0;
		const char *how = "exited";

		if (fd < 0 || fstat(fd, &st) != 0) {
			perror(argv[1]);
			return 1;
		}
		t0 = now();
		if ((pid = fork()) == 0) {
			probe(ways[i], fd, (size_t)st.st_size, page);
			_exit(0);
		}
		close(fd);
		while (waitpid(pid, &status, WNOHANG) == 0) {
			if (now() - t0 > limit && strcmp(how, "exited") == 0) {
				printf("%s: still in after %.1f s: SIGTERM\n",
				       ways[i], now() - t0);
				kill(pid, SIGTERM);
				how = "after SIGTERM";
			} else if (now() - t0 > limit + 2 &&
				   strcmp(how, "after SIGTERM") == 0) {
				printf("%s: still in 2 s after SIGTERM: SIGKILL\n",
				       ways[i]);
				kill(pid, SIGKILL);
				how = "after SIGKILL";
			}
			usleep(10000);
		}
		if (WIFSIGNALED(status))
			printf("%s: ended by signal %d %s, %.3f s in all\n",
			       ways[i], WTERMSIG(status), how, now() - t0);
		else
			printf("%s: done, %.3f s in all\n", ways[i], now() - t0);
		if (argc > 3)
			show_stats(argv[3]);
	}
	return 0;
}
