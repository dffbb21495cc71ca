/* input.c: opening and hashing one input.  Regular files of at least
 * FH_MAP_MIN bytes are mapped in windows of FH_MAP_WINDOW bytes, so the
 * resident set stays a few windows whatever the file's size; everything
 * else (small files, pipes, sockets, devices, /proc files) is read through
 * a per-thread buffer.  A mapped file that shrinks makes the next access to
 * a page past its new end raise SIGBUS: the handler checks that the address
 * lies in the faulting thread's current window and jumps back, and the
 * input fails with FH_ESHRANK instead of killing the process.  A read file
 * that ends short of the size fstat gave at open is checked again: if it
 * shrank, FH_ESHRANK too. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/uio.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "input.h"
#include "kernel.h"
#include "kt.h"
#include "kt_team.h"

/* Bytes mapped at a time: the resident set of a huge file stays a few
 * windows (see FH_MAP_MIN in input.h for the measurements), and progress
 * moves at least once a window. */
#define FH_MAP_WINDOW (8u << 20)

/* The window the current thread is hashing, for the SIGBUS handler. */
static __thread struct {
	sigjmp_buf jump;
	const uint8_t *lo, *hi;
	volatile sig_atomic_t armed;
} window;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	const uint8_t *addr = si->si_addr;

	(void)uc;
	if (window.armed && addr >= window.lo && addr < window.hi) {
		window.armed = 0;
		siglongjmp(window.jump, 1);
	}
	/* Not ours: let the fault take its default course on return. */
	signal(sig, SIG_DFL);
}

void fh_input_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static void describe(struct fh_input *in, const struct stat *st)
{
	in->regular = S_ISREG(st->st_mode);
	in->fifo = S_ISFIFO(st->st_mode);
	in->size = in->regular ? (uint64_t)st->st_size : 0;
	in->dev = (uint64_t)st->st_dev;
}

int fh_input_open(const char *path, struct fh_input *in, struct fh_fds *fds)
{
	struct stat st;

	*in = (struct fh_input){ .fd = -1 };
	/* O_NONBLOCK: a FIFO's open would wait for a writer, and the I/O
	 * stage must never wait on one; reads wait instead (fh_input_read).
	 * It changes nothing for regular files. */
	in->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (in->fd < 0)
		return errno;
	if (fds)
		atomic_fetch_add_explicit(&fds->held, 1, memory_order_relaxed);
	if (fstat(in->fd, &st) != 0) {
		int err = errno;

		fh_input_close(in, fds);
		return err;
	}
	describe(in, &st);
	return 0;
}

void fh_input_stdin(struct fh_input *in)
{
	struct stat st;

	*in = (struct fh_input){ .fd = STDIN_FILENO, .is_stdin = true };
	if (fstat(STDIN_FILENO, &st) == 0)
		describe(in, &st);
}

void fh_input_close(struct fh_input *in, struct fh_fds *fds)
{
	if (in->fd < 0 || in->is_stdin)
		return;
	close(in->fd);
	in->fd = -1;
	if (fds)
		atomic_fetch_sub_explicit(&fds->held, 1, memory_order_relaxed);
}

/* Waits until FD can be read or its writers are gone.  A FIFO opened
 * without blocking reads as ended while no writer has come yet, so it is
 * polled before its first read: poll reports it readable only once a
 * writer wrote or came and left. */
static void wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
}

ssize_t fh_input_read(struct fh_input *in, void *buf, size_t n, uint64_t total,
		      bool *eof)
{
	*eof = false;
	if (in->fifo && total == 0)
		wait_readable(in->fd);
	for (;;) {
		ssize_t got = read(in->fd, buf, n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN) {
			wait_readable(in->fd);
			continue;
		}
		if (got < 0)
			return -errno;
		/* A short read of a regular file that reaches the size it had
		 * at open is its end: no read returning 0 is needed.  Short of
		 * that size (a file system that reads in pieces, or one that
		 * shrank), read on and let the 0 tell. */
		*eof = got == 0 || (in->regular && !in->is_stdin && (size_t)got < n &&
				    total + (uint64_t)got >= in->size);
		return got;
	}
}

/* Whether RWF_NOWAIT reads work here (cleared at the first that says it
 * does not: kernels before 4.14, some file systems). */
static _Atomic bool nowait_reads = true;

ssize_t fh_input_try_read(struct fh_input *in, void *buf, size_t n,
			  uint64_t total, bool *eof)
{
	struct iovec v = { .iov_base = buf, .iov_len = n };
	ssize_t got;

	if (!in->regular || in->is_stdin ||
	    !atomic_load_explicit(&nowait_reads, memory_order_relaxed))
		return fh_input_read(in, buf, n, total, eof);
	do
		got = preadv2(in->fd, &v, 1, -1, RWF_NOWAIT);
	while (got < 0 && errno == EINTR);
	if (got < 0 && errno == EAGAIN)
		return -EAGAIN;
	if (got < 0 && (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS)) {
		atomic_store(&nowait_reads, false);
		return fh_input_read(in, buf, n, total, eof);
	}
	if (got < 0)
		return -errno;
	/* Some kernels (5.9, 5.10) return 0 before the end: trust a 0 only
	 * at the size the file had, and confirm it otherwise by waiting. */
	if (got == 0 && total < in->size)
		return fh_input_read(in, buf, n, total, eof);
	*eof = got == 0 || ((size_t)got < n && total + (uint64_t)got >= in->size);
	return got;
}

int fh_input_check_end(const struct fh_input *in, uint64_t total)
{
	struct stat st;

	if (!in->regular || in->is_stdin || total >= in->size)
		return 0;
	if (fstat(in->fd, &st) == 0 && (uint64_t)st.st_size < in->size)
		return FH_ESHRANK;
	return 0;
}

bool fh_input_guarded(const uint8_t *map, size_t maplen, void (*fn)(void *),
		      void *arg)
{
	if (sigsetjmp(window.jump, 1))
		return false;
	window.lo = map;
	window.hi = map + maplen;
	window.armed = 1;
	fn(arg);
	window.armed = 0;
	return true;
}

struct update {
	fh_ctx *ctx;
	const uint8_t *p;
	size_t len;
};

static void update_ctx(void *arg)
{
	struct update *u = arg;

	fh_update(u->ctx, u->p, u->len);
}

bool fh_input_update_guarded(fh_ctx *ctx, const uint8_t *map, size_t maplen,
			     const uint8_t *p, size_t len)
{
	struct update u = { ctx, p, len };

	return !len || fh_input_guarded(map, maplen, update_ctx, &u);
}

/* The populater: a queue of requests, and its thread.  It faults in
 * windows mapped ahead, and, when it is idle, asks for readahead
 * (POSIX_FADV_WILLNEED, whose walk of a cold range costs 1.6 ms per
 * 8 MiB here: time a hashing thread that keeps up with the disk does not
 * lose; one that waits for the disk asks itself, at once).  A fault-in
 * request may reach the thread after its window was hashed and unmapped;
 * madvise then fails, or faults in whatever was mapped there since,
 * which is harmless either way.  A readahead request names a descriptor,
 * so its file waits for it (pop_wait) before the descriptor is closed. */
#define FH_POP_QUEUE 8

struct pop_request {
	void *p;                /* fault in N bytes at P; or, if NULL, */
	size_t n;
	int fd;                 /* read ahead N bytes of FD at OFF */
	off_t off;
};

struct fh_populater {
	pthread_mutex_t lock;
	pthread_cond_t cv, done_cv;
	struct pop_request q[FH_POP_QUEUE];
	unsigned head, count;
	uint64_t queued, done;  /* requests taken, and carried out */
	bool started, stop, broken, busy;
	pthread_t tid;
};

static void *populate_main(void *arg)
{
	struct fh_populater *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->count && !p->stop)
			pthread_cond_wait(&p->cv, &p->lock);
		if (p->stop)
			break;
		struct pop_request rq = p->q[p->head];
		int err = 0;

		p->head = (p->head + 1) % FH_POP_QUEUE;
		p->count--;
		p->busy = true;
		pthread_mutex_unlock(&p->lock);
		if (rq.p)
			err = madvise(rq.p, rq.n, MADV_POPULATE_READ) ? errno
								       : 0;
		else
			posix_fadvise(rq.fd, rq.off, (off_t)rq.n,
				      POSIX_FADV_WILLNEED);
		pthread_mutex_lock(&p->lock);
		/* Kernels before 5.14 know no MADV_POPULATE_READ. */
		if (err == EINVAL)
			p->broken = true;
		p->done++;
		p->busy = false;
		pthread_cond_broadcast(&p->done_cv);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct fh_populater *fh_populater_new(void)
{
	struct fh_populater *p = calloc(1, sizeof *p);

	if (p) {
		pthread_mutex_init(&p->lock, NULL);
		pthread_cond_init(&p->cv, NULL);
		pthread_cond_init(&p->done_cv, NULL);
	}
	return p;
}

void fh_populater_free(struct fh_populater *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->lock);
	if (p->started)
		pthread_join(p->tid, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cv);
	pthread_cond_destroy(&p->done_cv);
	free(p);
}

/* Queues RQ on P; returns its ticket for pop_wait, or 0 if it cannot
 * (then the caller does the work itself).  With IDLE, only if P has
 * nothing to do: a request behind a fault-in that waits for the disk
 * would wait too. */
static uint64_t pop_queue(struct fh_populater *p, struct pop_request rq,
			  bool idle)
{
	uint64_t ticket = 0;

	if (!p)
		return 0;
	pthread_mutex_lock(&p->lock);
	if (!p->started && !p->broken) {
		p->started = pthread_create(&p->tid, NULL, populate_main, p) == 0;
		p->broken = !p->started;
	}
	if (!p->broken && p->count < FH_POP_QUEUE &&
	    !(idle && (p->busy || p->count))) {
		p->q[(p->head + p->count) % FH_POP_QUEUE] = rq;
		p->count++;
		ticket = ++p->queued;
		pthread_cond_signal(&p->cv);
	}
	pthread_mutex_unlock(&p->lock);
	return ticket;
}

/* Waits until P has carried out the request of TICKET (0: none). */
static void pop_wait(struct fh_populater *p, uint64_t ticket)
{
	if (!ticket)
		return;
	pthread_mutex_lock(&p->lock);
	while (p->done < ticket && !p->stop)
		pthread_cond_wait(&p->done_cv, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

/* A window of the file mapped for hashing: MAP, MAPLEN bytes, of which
 * the LEN from P are [POS, POS + LEN) of the file. */
struct window {
	void *map;
	size_t maplen;
	const uint8_t *p;
	size_t len;
};

/* Whether the page (of PAGE bytes) at ADDR of a mapped file is in the
 * page cache and read (mincore(2)); false where the kernel cannot tell.
 * Pages still being read in do not count, and asking leaves readahead
 * alone. */
static bool page_resident(const void *addr, long page)
{
	unsigned char vec = 0;

	return mincore((void *)((uintptr_t)addr & ~(uintptr_t)(page - 1)),
		       (size_t)page, &vec) == 0 && (vec & 1);
}

/* How a window's pages are faulted in. */
enum fill {
	FILL_NOW,       /* by mmap itself (MAP_POPULATE) */
	FILL_AHEAD,     /* by the populater, while the one before is hashed */
	FILL_ON_DEMAND, /* by the threads that hash it, each its own part,
			 * where it is cached; by the populater where not */
};

/* Maps the window of FD at POS, no longer than END - POS, its pages
 * faulted in as FILL says.  *COLD is set, for the rest of the file, once
 * a window mapped ahead is found not cached yet; *TICKET becomes that of
 * a readahead request given to the populater.  Returns 0 or an errno
 * value. */
static int map_window(struct fh_reader *r, int fd, off_t pos, off_t end,
		      struct window *w, enum fill fill, bool *cold,
		      uint64_t *ticket)
{
	/* Asked each time (libc returns a value it holds): a static set on
	 * first use would be written by several workers at once. */
	const long page = sysconf(_SC_PAGESIZE);
	off_t base = pos & ~(off_t)(page - 1);
	size_t skip = (size_t)(pos - base);

	w->len = end - pos < FH_MAP_WINDOW ? (size_t)(end - pos) : FH_MAP_WINDOW;
	w->maplen = skip + w->len;
	w->map = mmap(NULL, w->maplen, PROT_READ,
		      MAP_SHARED | (fill == FILL_NOW ? MAP_POPULATE : 0), fd,
		      base);
	if (w->map == MAP_FAILED)
		return errno;
	madvise(w->map, w->maplen, MADV_SEQUENTIAL);
	/* A file read in order is cached up to some point: its windows'
	 * last pages tell when that point is passed. */
	if (fill != FILL_NOW && !*cold &&
	    !page_resident((const uint8_t *)w->map + w->maplen - 1, page))
		*cold = true;
	/* From a disk, faults wait: the populater waits instead, while the
	 * window before is hashed. */
	if (fill == FILL_ON_DEMAND && *cold && r->pop)
		fill = FILL_AHEAD;

	/* From a cold disk, faults read a window in small synchronous
	 * pieces: ask for the window after this one too, asynchronously.
	 * Not while the file is cached: the request's page-cache walk cost
	 * 4% of the time of a KT128 hash on a cached file (Zen 4). */
	if (fill != FILL_NOW && *cold && end > pos + (off_t)w->len) {
		struct pop_request rq = { NULL, FH_MAP_WINDOW, fd,
					  pos + (off_t)w->len };
		uint64_t t = pop_queue(r->pop, rq, true);

		if (t)
			*ticket = t;
		else
			posix_fadvise(fd, rq.off, FH_MAP_WINDOW,
				      POSIX_FADV_WILLNEED);
	}
	if (fill == FILL_AHEAD &&
	    !pop_queue(r->pop, (struct pop_request){ w->map, w->maplen, -1, 0 },
		       false))
		madvise(w->map, w->maplen, MADV_WILLNEED);
	w->p = (const uint8_t *)w->map + skip;
	return 0;
}

/* hash_mapped's loop; *COLD and *TICKET as map_window has them. */
static int hash_windows(struct fh_reader *r, int fd, fh_ctx *ctx,
			struct fh_kt_team *team, off_t *pos, off_t end,
			bool *cold, uint64_t *ticket)
{
	struct window cur = { 0 }, next = { 0 };
	/* A team's threads fault in their own leaves: a populater beside
	 * them would only take a core from them. */
	enum fill later = team     ? FILL_ON_DEMAND
			  : r->pop ? FILL_AHEAD
				   : FILL_NOW;
	int err;

	if (*pos >= end)
		return 0;
	err = map_window(r, fd, *pos, end, &cur, FILL_NOW, cold, ticket);
	if (err)
		return err;
	if (team)
		fh_kt_team_submit(team, ctx, cur.map, cur.maplen, cur.p,
				  cur.len);
	for (;;) {
		off_t after = *pos + (off_t)cur.len;
		bool ahead = after < end && later != FILL_NOW &&
			     map_window(r, fd, after, end, &next, later, cold,
					ticket) == 0;

		if (ahead && team)
			fh_kt_team_submit(team, ctx, next.map, next.maplen,
					  next.p, next.len);
		bool whole = team ? fh_kt_team_retire(team, ctx)
				  : fh_input_update_guarded(ctx, cur.map,
							    cur.maplen, cur.p,
							    cur.len);

		munmap(cur.map, cur.maplen);
		if (!whole) {
			/* A team that failed holds no window any more. */
			if (ahead)
				munmap(next.map, next.maplen);
			return FH_ESHRANK;
		}
		*pos = after;
		fh_meter_add(r->meter, cur.len);
		if (after >= end)
			return 0;
		if (!ahead) {
			err = map_window(r, fd, after, end, &next, FILL_NOW,
					 cold, ticket);
			if (err)
				return err;
			if (team)
				fh_kt_team_submit(team, ctx, next.map,
						  next.maplen, next.p, next.len);
		}
		cur = next;
	}
}

/* Hashes the mapped part of a regular file: [*POS, END), a window at a
 * time, the next one mapped (and faulted in by the populater) while this
 * one is hashed.  With a TEAM, the next window is submitted to it before
 * this one is retired, so its helpers never wait for the mapping.
 * Returns 0, an errno value or FH_ESHRANK; advances *POS. */
static int hash_mapped(struct fh_reader *r, int fd, fh_ctx *ctx,
		       struct fh_kt_team *team, off_t *pos, off_t end)
{
	bool cold = false;
	uint64_t ticket = 0;
	int err = hash_windows(r, fd, ctx, team, pos, end, &cold, &ticket);

	/* The descriptor outlives the populater's last request for it. */
	pop_wait(r->pop, ticket);
	return err;
}

/* Reads IN from its current offset to its end into CTX; *SIZE counts
 * the bytes of IN hashed, those before this call included. */
static int hash_read(struct fh_reader *r, struct fh_input *in, fh_ctx *ctx,
		     uint64_t *size)
{
	for (;;) {
		bool eof;
		ssize_t n = fh_input_read(in, r->buf, r->bufsize, *size, &eof);

		if (n < 0)
			return (int)-n;
		fh_update(ctx, r->buf, (size_t)n);
		*size += (uint64_t)n;
		fh_meter_add(r->meter, (uint64_t)n);
		if (eof)
			return fh_input_check_end(in, *size);
	}
}

int fh_input_hash(struct fh_reader *r, struct fh_input *in, struct fh_fds *fds,
		  const struct fh_algo *algo, const struct fh_kernel *kernel,
		  const struct fh_kernel *multi, uint8_t *out, size_t outlen,
		  uint64_t *size)
{
	fh_ctx ctx;
	int err = 0;

	*size = 0;
	fh_init_kernel(&ctx, algo, kernel);
	if (algo->cv_bytes)
		fh_kt_init(&ctx, multi);
	if (in->regular && in->size >= FH_MAP_MIN) {
		off_t pos = in->is_stdin ? lseek(in->fd, 0, SEEK_CUR) : 0;
		off_t end = (off_t)in->size;

		if (r->no_mmap) {
			posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		} else if (pos >= 0 && end - pos >= (off_t)FH_MAP_MIN) {
			off_t start = pos;
			struct fh_kt_team *team = NULL;

			if (algo->cv_bytes && r->kt_threads > 1 &&
			    end - pos >= (off_t)FH_KT_TEAM_MIN)
				team = fh_kt_team_new(r->kt_threads);
			err = hash_mapped(r, in->fd, &ctx, team, &pos, end);
			fh_kt_team_free(team);
			/* A file system that cannot map: read it instead. */
			if (err > 0 && pos == start)
				err = 0;
			*size = (uint64_t)(pos - start);
			/* Leave the offset where reading would have, and read
			 * on: the file may have grown meanwhile. */
			if (!err && lseek(in->fd, pos, SEEK_SET) < 0)
				err = errno;
			if (!err) {
				struct stat st;

				if (fstat(in->fd, &st) == 0 && st.st_size < pos)
					err = FH_ESHRANK;
				in->size = (uint64_t)pos;
			}
		}
	}
	if (!err)
		err = hash_read(r, in, &ctx, size);
	fh_input_close(in, fds);
	if (!err)
		fh_final(&ctx, out, outlen);
	return err;
}
