/* io.c: a positioned read that does not stop short, and the size of a
 * file or device now (see io.h).  The
 * windows read rather than mapped and the KT team's claims read here,
 * each knowing the file's size, so a read that ends first means the file
 * shrank. */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "io.h"

int fh_pread_full(int fd, void *buf, size_t len, off_t off)
{
	for (size_t at = 0; at < len;) {
		ssize_t n = pread(fd, (uint8_t *)buf + at, len - at,
				  off + (off_t)at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return FH_ESHRANK;
		at += (size_t)n;
	}
	return 0;
}

int64_t fh_fd_size(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -1;
	if (!S_ISBLK(st.st_mode))
		return (int64_t)st.st_size;
	off_t at = lseek(fd, 0, SEEK_CUR), end = lseek(fd, 0, SEEK_END);

	if (at >= 0 && lseek(fd, at, SEEK_SET) < 0)
		return -1;
	return end;
}
