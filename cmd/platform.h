/* platform.h: what the command asks of the system that not every system
 * answers alike (platform.c): one place for the #ifdefs, so that the
 * rest of cmd/ is plain POSIX.  The library's own OS layer is
 * lib/engine/os.h; these are the command's few calls beside it. */
#ifndef FH_PLATFORM_H
#define FH_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ST's modification time, to the nanosecond. */
void fh_stat_mtime(const struct stat *st, int64_t *sec, uint32_t *nsec);

/* A hint: [P, P + N) of fresh memory faulted in at once, where the system
 * can; otherwise its pages come one by one as it is written. */
void fh_populate_write(void *p, size_t n);

/* FD's data made durable (fdatasync, or fsync where there is none):
 * 0 or an errno value. */
int fh_data_sync(int fd);

/* A hint: [OFF, OFF + LEN) of FD handed to writeback now. */
void fh_write_back(int fd, off_t off, off_t len);

/* A file with no name in directory DIR, open for writing, or -1 where
 * the system has none (Linux's O_TMPFILE, named through /proc). */
int fh_anon_open(const char *dir);

/* Gives the anonymous file FD the name PATH: 0, EEXIST when PATH is
 * taken, ENOSYS where there are no anonymous files, or an errno value. */
int fh_anon_link(int fd, const char *path);

#endif
