/* platform.c: the command's system calls that differ between systems
 * (platform.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "platform.h"

void fh_stat_mtime(const struct stat *st, int64_t *sec, uint32_t *nsec)
{
#ifdef __APPLE__
	*sec = (int64_t)st->st_mtimespec.tv_sec;
	*nsec = (uint32_t)st->st_mtimespec.tv_nsec;
#else
	*sec = (int64_t)st->st_mtim.tv_sec;
	*nsec = (uint32_t)st->st_mtim.tv_nsec;
#endif
}

void fh_populate_write(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(page - 1);

	/* An older kernel refuses it: then the pages come one by one. */
	if (page && to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

int fh_data_sync(int fd)
{
#ifdef __APPLE__
	/* macOS declares no fdatasync. */
	return fsync(fd) == 0 ? 0 : errno;
#else
	return fdatasync(fd) == 0 ? 0 : errno;
#endif
}

void fh_write_back(int fd, off_t off, off_t len)
{
#ifdef SYNC_FILE_RANGE_WRITE
	sync_file_range(fd, off, len, SYNC_FILE_RANGE_WRITE);
#else
	(void)fd;
	(void)off;
	(void)len;
#endif
}

int fh_anon_open(const char *dir)
{
#ifdef O_TMPFILE
	/* The anonymous file is named through /proc: without it, none. */
	if (access("/proc/self/fd", X_OK) == 0)
		return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
	(void)dir;
#endif
	return -1;
}

int fh_anon_link(int fd, const char *path)
{
#ifdef O_TMPFILE
	char proc[64];

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
#else
	(void)fd;
	(void)path;
	return ENOSYS;
#endif
}
