/* os_linux.c: the OS layer (os.h) for Linux, with glibc or musl.
 * preadv2(RWF_NOWAIT) tells and reads what is cached (Linux 4.14; made
 * as a system call of its own, as are open and close), fadvise
 * starts readahead, MADV_POPULATE_READ faults a mapping in (Linux 5.14),
 * mincore tells residency, the PAGEMAP_SCAN ioctl of /proc/self/pagemap
 * (Linux 6.7) whether a page is mapped huge, sysfs the kind of disk, and
 * statx (Linux 4.11; glibc 2.28, musl 1.2.5) stats only the fields the
 * walk reads, fstatat where the C library lacks it.  A static binary
 * meets old kernels: each call that a kernel refuses as unknown (ENOSYS,
 * EINVAL, EOPNOTSUPP) is not asked again. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "os.h"
#include "storage.h"

/* The kernel's values (include/uapi/linux/fs.h, mman-common.h), for C
 * libraries whose headers predate them. */
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

const char *fh_os_layer(void)
{
	return "linux";
}

/* The C library's open, close and preadv2 are points where a thread can
 * be cancelled: in a process with threads, glibc 2.36 brackets each of
 * their system calls with two atomic updates of the thread's cancel
 * state.  The engine cancels no thread, and hashing 100,000 files of
 * 1 KiB on two threads spent 4% of its CPU time in those updates, so the
 * three calls every input costs are made directly. */
int fh_os_open(const char *path, int flags)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, 0);
}

int fh_os_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

/* preadv2 of one buffer at OFF (-1: the file's offset), never waiting. */
static ssize_t pread_nowait(int fd, void *buf, size_t n, off_t off)
{
	struct iovec v = { .iov_base = buf, .iov_len = n };
	ssize_t got;

	do {
#ifdef SYS_preadv2
		/* The offset in two words, low then high: a 64-bit kernel
		 * takes it whole from the low one. */
		got = syscall(SYS_preadv2, fd, &v, 1, (long)off,
			      (long)((int64_t)off >> 32), RWF_NOWAIT);
#else
		errno = ENOSYS;
		got = -1;
#endif
	} while (got < 0 && errno == EINTR);
	return got < 0 ? -errno : got;
}

/* Whether RWF_NOWAIT reads work here: cleared at the first refusal
 * (kernels before 4.14, file systems without it). */
static _Atomic bool nowait_works = true;

static bool refused(ssize_t err)
{
	return err == -EOPNOTSUPP || err == -EINVAL || err == -ENOSYS;
}

int fh_os_cached(int fd, off_t off)
{
	char c;
	ssize_t got;

	if (!atomic_load_explicit(&nowait_works, memory_order_relaxed))
		return -1;
	got = pread_nowait(fd, &c, 1, off);
	if (got >= 0)
		return 1;
	if (got == -EAGAIN)
		return 0;
	if (refused(got))
		atomic_store(&nowait_works, false);
	return -1;
}

ssize_t fh_os_read_cached(int fd, void *buf, size_t n)
{
	ssize_t got;

	if (!atomic_load_explicit(&nowait_works, memory_order_relaxed))
		return -ENOTSUP;
	got = pread_nowait(fd, buf, n, -1);
	if (refused(got)) {
		atomic_store(&nowait_works, false);
		return -ENOTSUP;
	}
	return got;
}

void fh_os_read_ahead(int fd, off_t off, off_t len)
{
	posix_fadvise(fd, off, len, POSIX_FADV_WILLNEED);
}

void fh_os_read_sequential(int fd)
{
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

void fh_os_widen_pipe(int fd)
{
	int size = fcntl(fd, F_GETPIPE_SZ);

	if (size >= 0 && size < FH_PIPE_SIZE)
		(void)fcntl(fd, F_SETPIPE_SZ, FH_PIPE_SIZE);
}

/* Whether MADV_POPULATE_READ works (Linux 5.14; EINVAL before). */
static _Atomic bool populate_works = true;

int fh_os_populate(void *p, size_t len)
{
	if (!atomic_load_explicit(&populate_works, memory_order_relaxed))
		return ENOSYS;
	if (madvise(p, len, MADV_POPULATE_READ) == 0)
		return 0;
	if (errno == EINVAL) {
		atomic_store(&populate_works, false);
		/* At least start the reads; the accesses wait for them. */
		madvise(p, len, MADV_WILLNEED);
		return ENOSYS;
	}
	return errno;
}

int fh_os_resident(const void *addr)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	unsigned char vec = 0;

	return mincore((void *)((uintptr_t)addr & ~(page - 1)), (size_t)page,
		       &vec) == 0 && (vec & 1);
}

/* PAGEMAP_SCAN's argument and answer (include/uapi/linux/fs.h, Linux
 * 6.7), for headers that predate them. */
struct fh_pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask;
	uint64_t return_mask;
};
struct fh_page_region {
	uint64_t start, end, categories;
};
#define FH_PAGEMAP_SCAN _IOWR('f', 16, struct fh_pm_scan_arg)
#define FH_PAGE_IS_HUGE (1u << 6)

/* /proc/self/pagemap, opened at the first question and kept open: -1
 * not yet, -2 where it cannot be opened or does not know PAGEMAP_SCAN. */
static _Atomic int pagemap_fd = -1;

static int pagemap(void)
{
	int fd = atomic_load(&pagemap_fd), mine, expect = -1;

	if (fd != -1)
		return fd;
	mine = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (mine < 0)
		mine = -2;
	if (!atomic_compare_exchange_strong(&pagemap_fd, &expect, mine)) {
		if (mine >= 0)
			close(mine);  /* another thread opened it first */
		return expect;
	}
	return mine;
}

int fh_os_huge_mapped(const void *addr)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	const uintptr_t at = (uintptr_t)addr & ~(page - 1);
	struct fh_page_region r;
	struct fh_pm_scan_arg a = {
		.size = sizeof a,
		.start = at,
		.end = at + page,
		.vec = (uintptr_t)&r,
		.vec_len = 1,
		.category_mask = FH_PAGE_IS_HUGE,
		.return_mask = FH_PAGE_IS_HUGE,
	};
	int fd = pagemap();
	long n;

	if (fd < 0)
		return -1;
	n = ioctl(fd, FH_PAGEMAP_SCAN, &a);
	if (n < 0 && (errno == ENOTTY || errno == EINVAL || errno == ENOSYS))
		/* A kernel before 6.7: ask no more.  The descriptor stays
		 * open, as another thread may be asking through it. */
		atomic_store(&pagemap_fd, -2);
	return n < 0 ? -1 : n > 0;
}

enum fh_storage fh_os_storage(const char *path, char *why, size_t whylen)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		snprintf(why, whylen, "first input not found");
		return FH_STORAGE_UNKNOWN;
	}
	return fh_storage_of("/sys", major(st.st_dev), minor(st.st_dev), why,
			     whylen);
}

static void from_stat(const struct stat *s, struct fh_os_stat *st)
{
	st->size = (uint64_t)s->st_size;
	st->ino = (uint64_t)s->st_ino;
	st->mode = (uint32_t)s->st_mode;
	st->sec = (int64_t)s->st_mtim.tv_sec;
	st->nsec = (uint32_t)s->st_mtim.tv_nsec;
}

int fh_os_lstat_at(int dirfd, const char *name, struct fh_os_stat *st)
{
	struct stat s;
#ifdef FH_HAVE_STATX
	static atomic_bool no_statx;

	if (!atomic_load_explicit(&no_statx, memory_order_relaxed)) {
		struct statx x;
		/* What the walk reads: network file systems may then skip
		 * the round trip for the rest. */
		unsigned want = STATX_TYPE | STATX_SIZE | STATX_MTIME | STATX_INO;

		if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW, want, &x) == 0) {
			st->size = x.stx_size;
			st->ino = x.stx_ino;
			st->mode = x.stx_mode;
			st->sec = x.stx_mtime.tv_sec;
			st->nsec = x.stx_mtime.tv_nsec;
			return 0;
		}
		/* A kernel older than statx (a static binary on an old
		 * system, or a seccomp filter that refuses it). */
		if (errno != ENOSYS && errno != EPERM)
			return errno;
		atomic_store_explicit(&no_statx, true, memory_order_relaxed);
	}
#endif
	if (fstatat(dirfd, name, &s, AT_SYMLINK_NOFOLLOW) != 0)
		return errno;
	from_stat(&s, st);
	return 0;
}
