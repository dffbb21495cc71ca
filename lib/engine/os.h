/* os.h: the engine's window on the operating system.  Everything that only
 * some systems offer (asking whether data is cached, starting reads ahead,
 * faulting a mapping in, the kind of storage under a file) sits behind
 * these few calls, so that the engine keeps its policy and names no
 * system.  Two implementations, one chosen by Meson (-Dos_layer):
 * os_linux.c, and os_posix.c for macOS, FreeBSD and any other POSIX
 * system (it also builds on Linux, where CI tests it).  Every call is a
 * hint or a question: where a system cannot answer, the engine still
 * reads every byte correctly, only with less overlap.  Internal to the
 * engine; every function is thread-safe. */
#ifndef FH_OS_H
#define FH_OS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The layer's name, for --debug ("linux", "posix (macOS)"...). */
const char *fh_os_layer(void);

/* open(PATH, FLAGS) and close(FD), as the engine opens every input: -1
 * and errno as open(2) and close(2) give them.  Neither is a point where
 * a thread can be cancelled (the engine cancels none). */
int fh_os_open(const char *path, int flags);
int fh_os_close(int fd);

/* Whether the byte at OFF of the regular file FD is in the page cache:
 * 1 yes, 0 no, -1 when this system (or file system) cannot tell.  Never
 * waits for the disk and leaves the file's offset alone. */
int fh_os_cached(int fd, off_t off);

/* Reads up to N bytes of FD at its current offset into BUF, but only from
 * the page cache: the bytes read (the offset advanced), -EAGAIN when none
 * of them is cached, -ENOTSUP where the system cannot read so (then the
 * caller reads as usual), or another -errno. */
ssize_t fh_os_read_cached(int fd, void *buf, size_t n);

/* Asks for [OFF, OFF + LEN) of FD to be read into the cache, without
 * waiting for it. */
void fh_os_read_ahead(int fd, off_t off, off_t len);

/* FD will be read in order to its end: read ahead generously. */
void fh_os_read_sequential(int fd);

/* Gives the pipe FD reads from a buffer of FH_PIPE_SIZE bytes where it
 * has less and the system lets it grow (Linux's F_SETPIPE_SZ; elsewhere
 * nothing): the writer then hands over many blocks between two wake-ups
 * of the reader, not one.  Only a hint: a refusal (the user's share of
 * pipe memory spent) changes nothing. */
#define FH_PIPE_SIZE (1 << 20)
void fh_os_widen_pipe(int fd);

/* Faults in the LEN bytes of the mapping at P (page-aligned) ahead of
 * their use, waiting for them: 0, or an errno value (EFAULT where a page
 * could not be read, ENOSYS where the system has no such call).  Only a
 * hint: under a read error a page stays out, and the access that needs
 * it, or a read(2), is what reports the error.  Never MAP_POPULATE,
 * whose kernel loop retries a failing read without end. */
int fh_os_populate(void *p, size_t len);

/* Whether the page holding ADDR, in a mapping, is in memory and read:
 * 1 yes, 0 no or unknown.  Leaves readahead alone. */
int fh_os_resident(const void *addr);

/* Whether the page holding ADDR, in a mapping of a file, is mapped by a
 * huge page (a 2 MiB one on x86-64): 1 yes, 0 no (small pages, or not
 * mapped yet), -1 when this system cannot tell.  Changes nothing. */
int fh_os_huge_mapped(const void *addr);

/* What kind of device holds a file: the engine reads one file at a time,
 * in order, from a spinning disk. */
enum fh_storage {
	FH_STORAGE_UNKNOWN,     /* no answer, or one not to be trusted */
	FH_STORAGE_SOLID,       /* no seek cost: SSD, NVMe, RAM */
	FH_STORAGE_ROTATING,    /* a spinning disk: parallel reads cost seeks */
};

/* The kind of storage holding PATH (for the I/O depth), with a few words
 * on how it was decided in WHY (WHYLEN bytes). */
enum fh_storage fh_os_storage(const char *path, char *why, size_t whylen);

/* What the tree walk asks of each entry of a directory. */
struct fh_os_stat {
	uint64_t size;
	uint64_t ino;
	int64_t sec;            /* modification time */
	uint32_t nsec;
	uint32_t mode;          /* st_mode: the type bits are what is used */
};

/* NAME in the directory open on DIRFD, not following a symbolic link
 * (lstat), into *ST: 0 or an errno value.  Asks only for type, size,
 * mtime and inode where the system lets a caller say so (Linux's statx),
 * which spares file systems the fields nobody reads. */
int fh_os_lstat_at(int dirfd, const char *name, struct fh_os_stat *st);

/* Stack sizes of the engine's threads, set explicitly: the C libraries'
 * defaults range from 128 KiB (musl) to 8 MiB (glibc). */
#define FH_STACK_WORKER (1u << 20)  /* contexts, lanes, kernels' frames */
#define FH_STACK_SMALL (128u << 10) /* threads that only make calls */

/* pthread_create(TID, FN, ARG) on a stack of STACK bytes: 0 or an errno
 * value.  Plain POSIX, the same everywhere. */
static inline int fh_thread_start(pthread_t *tid, void *(*fn)(void *),
				  void *arg, size_t stack)
{
	pthread_attr_t attr;
	int err = pthread_attr_init(&attr);

	if (err)
		return err;
	err = pthread_attr_setstacksize(&attr, stack);
	if (!err)
		err = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

#endif
