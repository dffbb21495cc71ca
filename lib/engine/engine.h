/* engine.h: the parallel hashing engine.
 *
 * The caller produces jobs (inputs to hash, or markers that only keep their
 * place in the sequence) one at a time on the calling thread; worker
 * threads hash them; the caller receives every job back, in the order it
 * produced them, on the calling thread.  Jobs pass through a ring of
 * bounded size, so memory does not grow with the number of inputs.
 */
#ifndef FH_ENGINE_H
#define FH_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "fhsum.h"


struct fh_progress {
	uint64_t files_done, files_known; /* inputs hashed, inputs produced */
	uint64_t bytes_done, bytes_known; /* bytes hashed so far, sizes produced */
	uint64_t files_unsized;           /* inputs produced with no size */
	bool all_known;                   /* the producer has ended */
};

/* The reads kept in flight ahead of the hashing threads by default, and
 * the most that --io-depth may ask. */
#define FH_IO_DEPTH_DEFAULT 256
#define FH_IO_DEPTH_MAX 1024

/* How the cached windows of a large file reach the hashing threads.
 * Mapped, a small page costs a fault-in and a first touch, which some
 * hypervisors make dear: with 4 KiB folios, one cached GiB took 1.6x the
 * user time of MD5 and 5x that of the KT128 lanes over read buffers (AMD
 * Zen 5 with a paravirtualised MMU: a touch some 3.4 us a page), where
 * 2 MiB folios cost nothing over them; on a Zen 3 a touch cost 0.04 us
 * and mapping stayed ahead.  A read costs a copy instead (0.1 to 0.25 s a
 * GiB, 0.46 to 1.2 us a page, AMD Zen 3 and 5).  So a window of huge
 * pages is mapped, a window of small ones is read where the costs
 * measured on this machine say a read is clearly cheaper (window.c), and
 * cold windows are mapped, for the readahead the disk path has. */
enum fh_feed {
	FH_FEED_AUTO,   /* as above; a system that cannot tell how pages are
			 * mapped maps every window */
	FH_FEED_MAP,    /* map every window (for comparisons) */
	FH_FEED_READ,   /* read every window, cold ones too (for tests) */
};

struct fh_engine_opts {
	unsigned threads;      /* hashing threads; 0: one per online CPU */
	/* Inputs opened and read ahead of the hashing threads.  1: one file
	 * at a time, in order, in large reads (for a spinning disk); 0: 1
	 * where the first input lies on a spinning disk, else
	 * FH_IO_DEPTH_DEFAULT. */
	unsigned io_depth;
	/* Look ahead even while the data is cached (the I/O stage's probe
	 * says so): for storage whose cache the probe cannot see, and for
	 * tests of the look-ahead on cached files. */
	bool always_ahead;
	bool no_mmap;          /* read every input, map none */
	enum fh_feed feed;     /* mapped inputs: which windows are read */
	bool lanes;            /* some jobs have a multi-buffer kernel */
	/* Called on the caller's thread about every 200 ms while the run
	 * lasts (NULL: never), with what is done so far: bytes count as they
	 * are hashed, not when their input ends. */
	void (*tick)(void *ctx, const struct fh_progress *progress);
	/* Called on the caller's thread with a line on how the I/O depth was
	 * chosen (NULL: never), for --debug. */
	void (*note)(void *ctx, const char *line);
	/* NULL, or a flag that may turn true at any time, from any thread
	 * or a signal handler: the run then ends early.  NEXT is not called
	 * again, and each worker finishes the input it reads.  The others
	 * are handed back with err ECANCELED: those the I/O stage has
	 * opened and those the SIMD lanes have taken and not yet read from,
	 * so that no input's first byte is read once the flag is up; and of
	 * those the lanes have begun, all but the one nearest its end and
	 * those already read to their end, which are finished. */
	const _Atomic bool *stop;
};

/* The most algorithms one digest length may be (SHA-2, SHA-3 and those
 * to come at one length; at four bytes the CRCs, the sums and XXH32). */
#define FH_CAND_MAX 8

/* The algorithms an untagged digest of one length may be, for the jobs of
 * one list whose lines have that length: the caller's, alive for the run.
 * VERDICT is the one a file's content showed the list to use, or NULL
 * while none has: a hashing thread stores it (once; others read it).
 * Candidates may also be of different lengths, for a job that wants
 * every one's digest of one read (a hashdeep row's columns): with no
 * EXPECT no verdict is ever taken, and the job's OUTLEN is the longest
 * of their digests, which each fill from its start. */
struct fh_candidates {
	size_t n;                                /* 2..FH_CAND_MAX */
	/* The candidates' indices in the order a large file tries them one
	 * at a time (each by the usual path, mapped and on a team where it
	 * has one), until one gives the digest listed: the cheap and the
	 * common first (BLAKE3, then SHA-256, then SHA3-256 of 64 hex
	 * digits).  Each index once, set by whoever fills the candidates. */
	uint8_t order[FH_CAND_MAX];
	const struct fh_algo *algo[FH_CAND_MAX];
	const struct fh_kernel *kernel[FH_CAND_MAX]; /* single stream */
	_Atomic(const struct fh_algo *) verdict;
};

struct fh_job {
	/* Set by the producer.  PATH NULL makes a marker: it is not hashed,
	 * only handed back in its place.  PATH "-" is standard input. */
	const char *path;
	const struct fh_algo *algo;
	const struct fh_kernel *kernel;
	/* A multi-buffer kernel of ALGO's family, or NULL: then the input may
	 * share a worker's SIMD lanes with others.  MULTI_ONLY: always, even
	 * a lone large input (the kernel was forced). */
	const struct fh_kernel *multi;
	bool multi_only;
	size_t outlen;
	/* ALGO's key or derive-key context (BLAKE3's modes), or NULL; its
	 * outlen is not read (OUTLEN is).  A job with a key never shares
	 * lanes. */
	const struct fh_hash_params *key;
	void *user;             /* the caller's, handed back untouched */
	/* Bytes the caller holds for this job until it is handed back; with
	 * the engine's own copies they count against the ring's bound on
	 * memory, so that a ring of large jobs stays small. */
	size_t user_bytes;
	uint64_t size_hint;     /* expected size, for progress */
	bool sized;             /* SIZE_HINT holds it (else it is unknown) */
	/* Only a regular file is read (else FH_ENOTREG), and its state is
	 * checked once it is read: FH_ECHANGED if its size or mtime moved
	 * from what fstat said at open.  The stats are the hashing threads',
	 * so that a caller that must know a digest is of one state of the
	 * file (a scrub) keeps none on its own thread. */
	bool watch;
	/* WATCH: the digest expected (OUTLEN bytes), or NULL.  A digest equal
	 * to it is of the state expected, whatever moved while it was read,
	 * so its file's state is not checked again: a scrub of many small
	 * files spends one fstat a file less. */
	const uint8_t *expect;
	/* TRACK: a regular file's state is taken at open (OPEN_SIZE and the
	 * mtime below) and checked once it is read, as WATCH does, but a
	 * change is not an error: TORN says so and the digest comes back.
	 * Other inputs are read untracked.  Generation with --meta and the
	 * audits record a file's state only when it held still. */
	bool track;
	/* Or, instead of ALGO and its kernels: the input is read once and
	 * hashed with every candidate (single stream, never in lanes), unless
	 * CAND->verdict names one, before or while it is read: then with that
	 * one alone.  With EXPECT (the digest listed, OUTLEN bytes), the first
	 * candidate whose digest is EXPECT becomes the verdict. */
	struct fh_candidates *cand;
	/* Set by the engine. */
	int err;                /* 0, an errno value or an FH_E* code */
	uint64_t size;          /* bytes hashed */
	/* OUTLEN bytes when err is 0.  With CAND: CHOSEN is the index of the
	 * candidate that matched EXPECT or was the verdict, ALGO is it and
	 * DIGEST its digest; or CHOSEN is -1 (none matched, no verdict) and
	 * DIGEST holds CAND->n digests, in CAND's order, ALGO the first. */
	uint8_t *digest;
	int chosen;
	int64_t mtime_sec;      /* WATCH, TRACK: the mtime at open (and at */
	uint32_t mtime_nsec;    /* the end, when err is 0 and not TORN) */
	uint64_t open_size;     /* TRACK: the size at open */
	bool tracked;           /* TRACK: the input was a regular file, and
				 * OPEN_SIZE and the mtime are its */
	bool torn;              /* TRACK: it changed while it was read */
};

/* Fills JOB with the next job and returns true, or returns false at the
 * end.  JOB->path must stay valid only until the call returns (the engine
 * copies it). */
typedef bool fh_next_fn(void *ctx, struct fh_job *job);
/* Receives each job, in production order; JOB is valid during the call. */
typedef void fh_done_fn(void *ctx, struct fh_job *job);

/* Runs the engine until NEXT returns false and every job was handed to
 * DONE.  Returns 0, or an errno value when it could not start (memory). */
int fh_engine_run(const struct fh_engine_opts *opts, fh_next_fn *next,
		  fh_done_fn *done, void *ctx);

/* For the caller's NEXT, on the calling thread, while it waits for its
 * own input (a list from a pipe): the progress line is drawn as while
 * the run waits for its files, so that a slow list does not freeze it.
 * Does nothing outside a run or without a tick. */
void fh_engine_idle(void);

/* The number of online CPUs (at least 1). */
unsigned fh_online_cpus(void);

/* The OS layer the engine reads through ("linux", "posix (macOS)"...),
 * for --debug. */
const char *fh_engine_os_layer(void);

#endif
