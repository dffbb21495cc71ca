/* io.h: plain reads and read buffers, below the rest of the engine: the
 * aligned buffer every read lands in, a positioned read that does not
 * stop short, and the size a read's end is checked against.  Internal to
 * the engine; no other engine file is called from here, so that inputs,
 * windows and KT teams all read through it. */
#ifndef FH_IO_H
#define FH_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

/* A buffer for reads of N bytes, on a page boundary (NULL: no memory;
 * free() frees it).  Where the read lands matters: the kernel's copy out
 * of the page cache into a destination 16 bytes off a 64-byte boundary,
 * as malloc gives, took 3x the system time of an aligned one (0.78 s
 * against 0.25 s a cached GiB in 1 MiB reads, AMD Zen 3). */
static inline void *fh_buf_alloc(size_t n)
{
	void *p;

	return posix_memalign(&p, 4096, n) == 0 ? p : NULL;
}

/* Reads LEN bytes of FD at OFF into BUF (pread, again after a short
 * read or EINTR): 0, an errno value, or FH_ESHRANK (engine.h) where the
 * file ends first. */
int fh_pread_full(int fd, void *buf, size_t len, off_t off);

/* The size now of the regular file or block device open on FD (a
 * device's st_size is 0: its end is found with lseek, the offset left
 * as it was), or -1 where it cannot be told. */
int64_t fh_fd_size(int fd);

#endif
