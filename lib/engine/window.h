/* window.h: hashing the bytes of a large regular file through windows of
 * FH_MAP_WINDOW bytes mapped one after another, so the resident set stays
 * a few windows whatever the file's size.  The next window is mapped and
 * faulted in (by the populater thread) while one is hashed, and a large
 * KT128/KT256 file is hashed by a team of threads.  A cached window whose
 * pages the system would map small is read into the thread's buffer
 * instead (see enum fh_feed).  A page that cannot
 * be had (the file shrank, or its read failed) becomes a clean error of
 * the file.  Internal to the engine: fh_input_hash uses it. */
#ifndef FH_WINDOW_H
#define FH_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine.h"
#include "fhsum.h"
#include "meter.h"

/* Bytes mapped at a time: the resident set of a huge file stays a few
 * windows (see FH_MAP_MIN in input.h for the measurements), and progress
 * moves at least once a window. */
#define FH_MAP_WINDOW (8u << 20)
/* A team's windows after its first (kt_team.h) while the file is cached:
 * each unmapping costs its threads a TLB shootdown, an interrupt to
 * every one of them (BLAKE3 on one cached GiB, two threads, Intel family
 * 6 model 207 in a VM: 124.6 -> 120.4 ms with these, b3sum 117.2; 64 or
 * 128 MiB gained nothing more).  The first stays FH_MAP_WINDOW, as it is
 * faulted in before the team starts, and so do a cold file's (its
 * readahead is sized to them: 32 MiB windows took 1.14x the time there). */
#define FH_TEAM_WINDOW (32u << 20)

/* A thread that faults in the pages of mapped windows ahead of the
 * threads hashing them, so that a large mapped file costs its hashing
 * thread no page faults, and that asks for readahead while it is idle:
 * shared by the readers of one engine run. */
struct fh_populater;

/* A populater, or NULL (out of memory); its thread starts with the first
 * request.  Thread-safe. */
struct fh_populater *fh_populater_new(void);
/* Stops its thread and frees it; NULL is fine. */
void fh_populater_free(struct fh_populater *p);

/* How one thread hashes mapped windows. */
struct fh_mapping {
	struct fh_populater *pop; /* may be NULL: windows faulted in here */
	struct fh_meter *meter;   /* counts the bytes hashed; may be NULL */
	/* Threads that may hash the leaves of a KT128/KT256 file together
	 * (kt_team.h); 0 or 1: this thread alone. */
	unsigned kt_threads;
	/* Alone (KT_THREADS 0 or 1), the threads that could join a team
	 * now (fh_reader's SPARE): asked at each window's end, and a team
	 * made for the rest of the file when some could; may be NULL. */
	unsigned (*spare)(void *spare_arg);
	void *spare_arg;
	/* For a family whose slices combine (family.h), where the thread
	 * alone stops instead, at a window's end, when threads are spare:
	 * *SLICES their number with its own, for the caller to hash the
	 * rest in slices (left 0 otherwise); NULL: it never stops. */
	unsigned *slices;
	enum fh_feed feed;        /* which cached windows are read instead */
	uint8_t *buf;             /* this thread's buffer, for windows read; */
	size_t bufsize;           /* NULL: every window is mapped */
};

/* fh_window_hash returns FH_ENOMAP (errors.h) when a window could not be
 * mapped: CTX holds exactly the bytes before *POS, and reading on from
 * there is the way. */

/* Hashes [*POS, END) of the regular file (or cached block device) FD into
 * CTX through mapped windows; advances *POS past what was hashed.  With
 * a SPARE in M, a thread started alone may hand the rest to a team.
 * Returns 0, FH_ENOMAP, or an errno value or FH_ESHRANK for a window
 * that failed while it was hashed (CTX is then unusable): a page past
 * the end of a file that shrank is FH_ESHRANK, a page whose read failed
 * that read's errno (as read(2) gives it, EIO for a bad sector). */
int fh_window_hash(const struct fh_mapping *m, int fd, fh_ctx *ctx,
		   off_t *pos, off_t end);

/* Once a run has measured what a small page costs (see enum fh_feed),
 * writes a line on it into LINE (N bytes) and returns true. */
bool fh_window_costs(char *line, size_t n);

#endif
