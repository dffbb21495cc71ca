/* input.c: hashing one input.  Regular files of at least FH_MAP_MIN bytes
 * are mapped in windows of FH_MAP_WINDOW bytes, so the resident set stays a
 * few windows whatever the file's size; everything else (small files,
 * pipes, sockets, devices, /proc files) is read through a per-thread
 * buffer.  A mapped file that shrinks makes the next access to a page past
 * its new end raise SIGBUS: the handler checks that the address lies in
 * the faulting thread's current window and jumps back, and the input fails
 * with FH_ESHRANK instead of killing the process. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "input.h"
#include "kernel.h"

/* Bytes mapped at a time: the resident set of a huge file stays a few
 * windows (see FH_MAP_MIN in input.h for the measurements). */
#define FH_MAP_WINDOW (8u << 20)

/* The window the current thread is hashing, for the SIGBUS handler. */
static __thread struct {
	sigjmp_buf jump;
	const uint8_t *lo, *hi;
	volatile sig_atomic_t armed;
} window;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	const uint8_t *addr = si->si_addr;

	(void)uc;
	if (window.armed && addr >= window.lo && addr < window.hi) {
		window.armed = 0;
		siglongjmp(window.jump, 1);
	}
	/* Not ours: let the fault take its default course on return. */
	signal(sig, SIG_DFL);
}

void fh_input_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* Hashes LEN mapped bytes at P; false if the file shrank under them.
 * Its own function so that nothing it changes lives across sigsetjmp. */
static bool hash_window(fh_ctx *ctx, const uint8_t *map, size_t maplen,
			const uint8_t *p, size_t len)
{
	if (sigsetjmp(window.jump, 1))
		return false;
	window.lo = map;
	window.hi = map + maplen;
	window.armed = 1;
	fh_update(ctx, p, len);
	window.armed = 0;
	return true;
}

/* Hashes the mapped part of a regular file: [*POS, END).  Returns 0, an
 * errno value or FH_ESHRANK; advances *POS. */
static int hash_mapped(int fd, fh_ctx *ctx, off_t *pos, off_t end)
{
	static long page;

	if (!page)
		page = sysconf(_SC_PAGESIZE);
	while (*pos < end) {
		off_t base = *pos & ~(off_t)(page - 1);
		size_t skip = (size_t)(*pos - base);
		size_t len = end - *pos < FH_MAP_WINDOW ? (size_t)(end - *pos)
							: FH_MAP_WINDOW;
		void *map = mmap(NULL, skip + len, PROT_READ, MAP_SHARED | MAP_POPULATE,
				 fd, base);

		if (map == MAP_FAILED)
			return errno;
		madvise(map, skip + len, MADV_SEQUENTIAL);
		bool whole = hash_window(ctx, map, skip + len, (uint8_t *)map + skip, len);

		munmap(map, skip + len);
		if (!whole)
			return FH_ESHRANK;
		*pos += (off_t)len;
	}
	return 0;
}

static int hash_read(int fd, fh_ctx *ctx, uint8_t *buf, uint64_t *size)
{
	for (;;) {
		ssize_t n = read(fd, buf, FH_READ_SIZE);

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		fh_update(ctx, buf, (size_t)n);
		*size += (uint64_t)n;
	}
}

int fh_hash_input(struct fh_reader *r, const char *path,
		  const struct fh_algo *algo, const struct fh_kernel *kernel,
		  uint8_t *out, size_t outlen, uint64_t *size)
{
	bool is_stdin = path[0] == '-' && path[1] == '\0';
	int fd = is_stdin ? STDIN_FILENO
			  : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	fh_ctx ctx;
	int err = 0;

	*size = 0;
	if (fd < 0)
		return errno;
	fh_init_kernel(&ctx, algo, kernel);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= FH_MAP_MIN) {
		off_t pos = is_stdin ? lseek(fd, 0, SEEK_CUR) : 0;

		if (r->no_mmap) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		} else if (pos >= 0 && st.st_size - pos >= FH_MAP_MIN) {
			off_t start = pos;

			err = hash_mapped(fd, &ctx, &pos, st.st_size);
			/* A file system that cannot map: read it instead. */
			if (err > 0 && pos == start)
				err = 0;
			*size = (uint64_t)(pos - start);
			/* Leave the offset where reading would have, and read
			 * on: the file may have grown meanwhile. */
			if (!err && lseek(fd, pos, SEEK_SET) < 0)
				err = errno;
			if (!err && fstat(fd, &st) == 0 && st.st_size < pos)
				err = FH_ESHRANK;
		}
	}
	if (!err)
		err = hash_read(fd, &ctx, r->buf, size);
	if (!is_stdin)
		close(fd);
	if (!err)
		fh_final(&ctx, out, outlen);
	return err;
}
