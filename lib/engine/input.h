/* input.h: opening and hashing one input (a named file or standard
 * input), mapped in windows or read through a buffer.  Internal to the
 * engine: the I/O stage and the workers open inputs here, the workers and
 * the lanes read them here. */
#ifndef FH_INPUT_H
#define FH_INPUT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fhsum.h"
#include "meter.h"
#include "window.h"

/* Bytes per read(2).  Small enough that the copy out of the page cache
 * stays in L2: over 4096 cached 128 KiB files (2-core AMD EPYC), 64 KiB
 * reads took 180 ms of system time against 430 ms for 256 KiB reads, and
 * 32 KiB gained nothing more. */
#define FH_READ_SIZE (64u << 10)

/* Bytes per read(2) at I/O depth 1, the spinning-disk path: one file at a
 * time in large sequential reads, where a seek costs more than any copy. */
#define FH_SEQ_READ_SIZE (1u << 20)

/* Regular files of at least this size are mapped in windows, smaller ones
 * read: mapping costs a mmap, page faults and a munmap with its TLB
 * shootdown in a threaded process, which a small file's one copy does
 * not repay.  Measured on a 2-core AMD EPYC with md5-bmi: 4096 cached
 * 128 KiB files took 112 ms of system time read and 246 ms mapped (wall
 * 1.11x in favour of reading); one cached 1 GiB file took 73 ms of system
 * time mapped and 121 ms read, with wall times within 3%. */
#define FH_MAP_MIN (1u << 20)

/* The descriptors the engine holds open, against a limit under
 * RLIMIT_NOFILE: the I/O stage and the lanes open no more than that.
 * HELD counts those the I/O stage opened; each of the NMETERS threads
 * that hash counts its own in its meter.  A worker opens and closes
 * thousands of inputs a second: one count written by every thread cost
 * 100,000 files of 1 KiB on two threads 3% of their time, its cache
 * line passed between the cores at each open and each close. */
struct fh_fds {
	_Atomic int held;
	int limit;
	int share;                  /* what one thread may hold unasked */
	struct fh_meter *meters;
	unsigned nmeters;
};

/* The descriptors held open, all threads together. */
int fh_fds_held(const struct fh_fds *fds);
/* Whether the thread metered by MINE should open no more: it holds its
 * share of FDS's limit, and all threads together hold the limit.  Under
 * its share it asks no other thread's count: the I/O stage keeps to half
 * the limit, and the threads' shares add up to the other half. */
bool fh_fds_full(const struct fh_fds *fds, const struct fh_meter *mine);

/* An input opened for hashing. */
struct fh_input {
	int fd;                 /* -1 when not open */
	_Atomic int *counted;   /* the count its descriptor is in, or NULL */
	bool is_stdin;          /* standard input: not ours to close */
	bool regular;           /* a regular file: SIZE is its st_size */
	bool blk;               /* a block device: SIZE is where it ends
				 * if it looked cached at open, else 0
				 * (read in order to its end) */
	bool fifo;              /* a FIFO: wait for a writer before reading */
	bool dir;
	bool watch;             /* fh_input_hash checks it did not change */
	bool track;             /* ... and a change sets TORN, not an error */
	bool torn;
	const uint8_t *expect;  /* watched: a digest that needs no check */
	size_t expect_len;
	uint64_t size;
	uint64_t open_size;     /* SIZE and the mtime as fstat gave them */
	int64_t sec;
	uint32_t nsec;
	uint64_t dev;           /* st_dev, for the storage's kind */
};

struct fh_reader {
	uint8_t *buf;           /* read buffer, BUFSIZE bytes */
	size_t bufsize;
	bool no_mmap;
	bool seq;               /* I/O depth 1: one reader, in order */
	enum fh_feed feed;      /* which windows are read (window.h) */
	struct fh_meter *meter; /* counts the bytes hashed; may be NULL */
	struct fh_populater *pop; /* may be NULL: windows are faulted in here */
	/* Threads that may hash the leaves of one large mapped KT128/KT256
	 * input together (kt_team.h); 0 or 1: this thread alone. */
	unsigned kt_threads;
	/* The threads that could join this thread's team now (0 while
	 * other inputs wait), asked of SPARE_ARG; may be NULL. */
	unsigned (*spare)(void *spare_arg);
	void *spare_arg;
};

/* Whether IN has a size known at open that its end keeps: a regular
 * file, or a cached block device whose end lseek told.  Such an input
 * can be mapped, and a large one sliced or shared by a team. */
static inline bool fh_input_sized(const struct fh_input *in)
{
	return in->regular || (in->blk && in->size > 0);
}

/* Opens PATH for hashing into IN, counting the descriptor in *COUNT (may
 * be NULL) until it is closed: open(2) with O_NONBLOCK, so a FIFO
 * without a writer does not block (reading then waits for one, as a
 * blocking open would), and one fstat.  Returns 0 or an errno value.
 * Thread-safe. */
int fh_input_open(const char *path, struct fh_input *in, _Atomic int *count);
/* IN as standard input (not counted, never closed); fstat's errors leave
 * it an input of unknown kind. */
void fh_input_stdin(struct fh_input *in);
/* Closes IN (not standard input) and uncounts it. */
void fh_input_close(struct fh_input *in);
/* For a watched input, read whole to DIGEST: 0 if DIGEST is the one
 * expected, else FH_ECHANGED if fstat now gives another size or mtime
 * (for a tracked input: 0, and TORN set)
 * than at open, else 0. */
int fh_input_unchanged(struct fh_input *in, const uint8_t *digest);

/* Reads up to N bytes of IN into BUF: read(2), through EINTR, waiting with
 * poll(2) where a FIFO or a non-blocking descriptor has nothing yet.
 * TOTAL is what was read of IN so far; *EOF is set when the input ended
 * (a short read that reaches a regular file's size counts, saving the
 * read that would return 0).  Returns the bytes read or -errno. */
ssize_t fh_input_read(struct fh_input *in, void *buf, size_t n, uint64_t total,
		      bool *eof);
/* fh_input_read for a regular file, but never waiting for the disk
 * (fh_os_read_cached): -EAGAIN when none of the bytes asked for is in
 * the page cache yet.  Where the system cannot tell, it waits as
 * fh_input_read does. */
ssize_t fh_input_try_read(struct fh_input *in, void *buf, size_t n,
			  uint64_t total, bool *eof);
/* At the end of IN after TOTAL bytes: FH_ESHRANK if a regular file ended
 * short of its size because it shrank (fstat says so; a sysfs file whose
 * size is only nominal does not count), else 0. */
int fh_input_check_end(const struct fh_input *in, uint64_t total);

/* Hashes IN to its end with ALGO on KERNEL into OUT (OUTLEN bytes), then
 * closes it (not standard input).  KT128/KT256 hash whole leaves on
 * MULTI (NULL: on KERNEL), and on R->kt_threads threads when the file is
 * large.  KEY: ALGO's key or context (fh_job),
 * or NULL.  Returns 0, an errno value or FH_ESHRANK; stores the bytes
 * hashed in *SIZE.  Thread-safe with one reader per thread. */
int fh_input_hash(struct fh_reader *r, struct fh_input *in,
		  const struct fh_algo *algo, const struct fh_kernel *kernel,
		  const struct fh_kernel *multi, const struct fh_hash_params *key,
		  uint8_t *out, size_t outlen, uint64_t *size);
/* Hashes IN for job J as fh_job says: with J's algorithm and kernels
 * (fh_input_hash), or with its candidates.  Sets J's digest, size,
 * CHOSEN and, with candidates, ALGO; returns as fh_input_hash. */
int fh_input_hash_job(struct fh_reader *r, struct fh_input *in,
		      struct fh_job *j);
#endif
