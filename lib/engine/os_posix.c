/* os_posix.c: the OS layer (os.h) for macOS, FreeBSD and any other POSIX
 * system; it builds on Linux too (-Dos_layer=posix), where CI tests it.
 * Residency comes from mincore(2) over a one-page mapping (macOS, the
 * BSDs and Linux all have it), readahead from posix_fadvise where the
 * system has it (FreeBSD, Linux) and from fcntl(F_RDADVISE) on macOS,
 * which has no fadvise.  No system here reads only what is cached, nor
 * faults a mapping in and reports the error: the engine then reads
 * plainly and the pages fault in as they are hashed.  Meson's feature
 * checks, not the C library's macros, say which calls exist
 * (FH_HAVE_*). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os.h"

const char *fh_os_layer(void)
{
#if defined(__APPLE__)
	return "posix (macOS)";
#elif defined(__FreeBSD__)
	return "posix (FreeBSD)";
#else
	return "posix";
#endif
}

int fh_os_open(const char *path, int flags)
{
	return open(path, flags);
}

int fh_os_close(int fd)
{
	return close(fd);
}

static uintptr_t page_size(void)
{
	return (uintptr_t)sysconf(_SC_PAGESIZE);
}

/* mincore's vector is char on macOS and the BSDs, unsigned char on
 * Linux: a void pointer converts to either. */
static int page_in_core(const void *addr)
{
#ifdef FH_HAVE_MINCORE
	const uintptr_t page = page_size();
	unsigned char vec = 0;
	void *v = &vec;

	return mincore((void *)((uintptr_t)addr & ~(page - 1)), (size_t)page,
		       v) == 0 && (vec & 1);
#else
	(void)addr;
	return 0;
#endif
}

int fh_os_cached(int fd, off_t off)
{
#ifdef FH_HAVE_MINCORE
	const uintptr_t page = page_size();
	off_t base = off & ~(off_t)(page - 1);
	void *p = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, base);
	int in;

	if (p == MAP_FAILED)
		return -1;
	in = page_in_core(p);
	munmap(p, (size_t)page);
	return in;
#else
	(void)fd;
	(void)off;
	return -1;
#endif
}

ssize_t fh_os_read_cached(int fd, void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	(void)n;
	return -ENOTSUP;
}

void fh_os_read_ahead(int fd, off_t off, off_t len)
{
#if defined(FH_HAVE_POSIX_FADVISE)
	posix_fadvise(fd, off, len, POSIX_FADV_WILLNEED);
#elif defined(FH_HAVE_F_RDADVISE)
	/* radvisory's count is an int: a window is far below its limit. */
	struct radvisory ra = {
		.ra_offset = off,
		.ra_count = len > INT32_MAX ? INT32_MAX : (int)len,
	};

	fcntl(fd, F_RDADVISE, &ra);
#else
	(void)fd;
	(void)off;
	(void)len;
#endif
}

void fh_os_read_sequential(int fd)
{
#if defined(FH_HAVE_POSIX_FADVISE)
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#elif defined(FH_HAVE_F_RDAHEAD)
	fcntl(fd, F_RDAHEAD, 1);
#else
	(void)fd;
#endif
}

void fh_os_widen_pipe(int fd)
{
	(void)fd;
}

int fh_os_populate(void *p, size_t len)
{
	/* Start the reads; the hashing thread's accesses wait for them and
	 * meet any error themselves. */
	posix_madvise(p, len, POSIX_MADV_WILLNEED);
	return ENOSYS;
}

int fh_os_resident(const void *addr)
{
	return page_in_core(addr);
}

/* No system here tells how a mapping's pages are mapped. */
int fh_os_huge_mapped(const void *addr)
{
	(void)addr;
	return -1;
}

enum fh_storage fh_os_storage(const char *path, char *why, size_t whylen)
{
	(void)path;
	snprintf(why, whylen, "no storage probe on this system");
	return FH_STORAGE_UNKNOWN;
}

int fh_os_lstat_at(int dirfd, const char *name, struct fh_os_stat *st)
{
	struct stat s;

	if (fstatat(dirfd, name, &s, AT_SYMLINK_NOFOLLOW) != 0)
		return errno;
	st->size = (uint64_t)s.st_size;
	st->ino = (uint64_t)s.st_ino;
	st->mode = (uint32_t)s.st_mode;
#ifdef __APPLE__
	st->sec = (int64_t)s.st_mtimespec.tv_sec;
	st->nsec = (uint32_t)s.st_mtimespec.tv_nsec;
#else
	st->sec = (int64_t)s.st_mtim.tv_sec;
	st->nsec = (uint32_t)s.st_mtim.tv_nsec;
#endif
	return 0;
}
