/* window.c: a large regular file hashed through mapped windows (see
 * window.h).  The first window is faulted in by the hashing thread
 * itself (MADV_POPULATE_READ where there is one), each later one by the
 * populater while the one before is hashed; from a cold disk the window
 * after that is asked for too.  A team's threads fault their own leaves
 * in while the file is cached.  Populating is only ever a hint: under a
 * persistent read error Linux retries a MAP_POPULATE without end (a
 * FUSE file failing with EIO kept mmap in the kernel for ten minutes),
 * while MADV_POPULATE_READ gives up with EFAULT and a plain access
 * raises SIGBUS at once.  So the hashing threads' own accesses, under
 * the fault guard, are what meet an error, and a read(2) of the failed
 * window then tells a read error (its errno) from a file that shrank. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "family.h"
#include "guard.h"
#include "io.h"
#include "kt.h"
#include "kt_team.h"
#include "os.h"
#include "slices.h"
#include "window.h"

/* The populater: a queue of requests, and its thread.  It faults in
 * windows mapped ahead, and, when it is idle, asks for readahead (on
 * Linux POSIX_FADV_WILLNEED, whose walk of a cold range costs 1.6 ms per
 * 8 MiB here: time a hashing thread that keeps up with the disk does not
 * lose; one that waits for the disk asks itself, at once).  A fault-in
 * request may reach the thread after its window was hashed and unmapped;
 * it then fails, or faults in whatever was mapped there since, which is
 * harmless either way.  A readahead request names a descriptor,
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

/* Where the system cannot fault a mapping in (fh_os_populate: ENOSYS,
 * as on macOS and FreeBSD, or Linux before 5.14), the populater reads a
 * byte of every page itself, under its own fault guard: a page that
 * cannot be had, or a window unmapped meanwhile, only ends the touching
 * early, and the hashing thread meets the error as always. */
struct touch {
	const volatile uint8_t *p;
	size_t n;
};

static void touch_pages(void *arg)
{
	const struct touch *t = arg;
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < t->n; i += page)
		(void)t->p[i];
}

static void populate(void *p, size_t n)
{
	struct touch t = { p, n };

	if (fh_os_populate(p, n) == ENOSYS)
		fh_guard_run(p, n, touch_pages, &t);
}

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

		p->head = (p->head + 1) % FH_POP_QUEUE;
		p->count--;
		p->busy = true;
		pthread_mutex_unlock(&p->lock);
		if (rq.p)
			populate(rq.p, rq.n);
		else
			fh_os_read_ahead(rq.fd, rq.off, (off_t)rq.n);
		pthread_mutex_lock(&p->lock);
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
		p->started = fh_thread_start(&p->tid, populate_main, p,
					     FH_STACK_SMALL) == 0;
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

/* A window of the file for hashing, [POS, POS + LEN) of it: mapped at
 * MAP, MAPLEN bytes of which the LEN from P are the window's, or, with MAP
 * NULL, to be read. */
struct window {
	void *map;
	size_t maplen;
	const uint8_t *p;
	size_t len;
};

/* What a small page of a cached window costs the thread that hashes it,
 * in nanoseconds: faulting it in (POP), touching it once it is (TOUCH),
 * or reading it instead (COPY).  Measured once a process, on the first
 * cached window mapped small (calibrate), as they belong to the machine:
 * on a 2-core AMD Zen 3 under a hypervisor, 760-1050 to fault in, 40-50
 * to touch and 1000-1200 to read a page never read before, 400, 30 and
 * 680 one read before; on the Zen 5 of enum fh_feed, a touch costs some
 * 3,400 and a read 460. */
static struct {
	_Atomic int state;      /* 0 not yet, 1 being measured, 2 known */
	uint64_t pop, touch, copy;
} small_cost;

/* calibrate measures FH_CALIBRATE_ROUNDS groups of FH_CALIBRATE_PAGES
 * pages each way and keeps each way's fastest: a thread preempted while
 * it measures (these machines have 2 cores and the populater beside the
 * hashing threads) spoils one group, not the verdict. */
#define FH_CALIBRATE_PAGES 32u
#define FH_CALIBRATE_ROUNDS 4u

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t least(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* A window read, not mapped: [POS, POS + LEN) of FD into CTX (NULL:
 * only read) through the thread's buffer.  Returns 0, an errno value, or
 * FH_ESHRANK where the file ends before the window does. */
static int read_window(const struct fh_mapping *m, int fd, fh_ctx *ctx,
		       off_t pos, size_t len)
{
	for (size_t at = 0; at < len; at += m->bufsize) {
		size_t n = len - at < m->bufsize ? len - at : m->bufsize;
		int err = fh_pread_full(fd, m->buf, n, pos + (off_t)at);

		if (err)
			return err;
		if (ctx) {
			fh_update(ctx, m->buf, n);
			fh_meter_add(m->meter, n);
		}
	}
	return 0;
}

/* Measures small_cost on the last pages of window W (POS: its offset in
 * FD, its pages not faulted in yet) unless another thread does or did:
 * groups of pages read, and other groups faulted in then touched.
 * False where it could not. */
static bool calibrate(const struct fh_mapping *m, int fd, off_t pos,
		      const struct window *w, long page)
{
	const size_t group = FH_CALIBRATE_PAGES * (size_t)page;
	const size_t span = 2 * FH_CALIBRATE_ROUNDS * group;
	uint64_t pop = UINT64_MAX, touch = UINT64_MAX, copy = UINT64_MAX;
	int expect = 0;
	bool ok = true;

	if (w->len < span + (2u << 20) ||
	    !atomic_compare_exchange_strong(&small_cost.state, &expect, 1))
		return atomic_load(&small_cost.state) == 2;

	const uintptr_t end = ((uintptr_t)w->p + w->len) & ~(uintptr_t)(page - 1);
	const uint8_t *at = (const uint8_t *)(end - span);
	const off_t off = pos + (off_t)(at - w->p);

	/* The buffer's own first touch is no part of a read. */
	memset(m->buf, 0, m->bufsize < group ? m->bufsize : group);
	for (unsigned g = 0; ok && g < FH_CALIBRATE_ROUNDS; g++) {
		const size_t r = 2 * g * group, f = r + group;
		struct touch t = { at + f, group };
		uint64_t t0 = now_ns(), t1, t2, t3;

		ok = read_window(m, fd, NULL, off + (off_t)r, group) == 0;
		t1 = now_ns();
		ok = ok && fh_os_populate((void *)(at + f), group) == 0;
		t2 = now_ns();
		ok = ok && fh_guard_run(w->map, w->maplen, touch_pages, &t);
		t3 = now_ns();
		copy = least(copy, t1 - t0);
		pop = least(pop, t2 - t1);
		touch = least(touch, t3 - t2);
	}
	if (!ok) {
		atomic_store(&small_cost.state, 0);  /* another window may */
		return false;
	}
	small_cost.pop = pop / FH_CALIBRATE_PAGES;
	small_cost.touch = touch / FH_CALIBRATE_PAGES;
	small_cost.copy = copy / FH_CALIBRATE_PAGES;
	atomic_store(&small_cost.state, 2);
	return true;
}

/* Whether, by small_cost, a window of small pages is read: where a copy
 * costs clearly less (by a quarter: the margin keeps a machine where both
 * cost the same on the path it had, mapping) than a touch, and than a
 * fault-in too unless the populater does that (AHEAD). */
static bool reads_small(bool ahead)
{
	uint64_t mapped = small_cost.touch + (ahead ? 0 : small_cost.pop);

	return small_cost.copy + small_cost.copy / 4 < mapped;
}

/* Whether the cached window W of FD at POS, just mapped and not yet
 * faulted in, is better read (see enum fh_feed).  One page of it is
 * faulted in, at a 2 MiB boundary where there is one, and the system
 * asked how it got mapped: a huge page is kept.  Small pages are read
 * where reading one costs less than touching it, and faulting it in
 * unless the populater (FILL_AHEAD) does that on another thread.  Once
 * the costs say small pages are mapped too, nothing is asked. */
static bool read_instead(const struct fh_mapping *m, int fd, off_t pos,
			 const struct window *w, long page, bool ahead)
{
	const uintptr_t huge = 2u << 20;
	uintptr_t at = ((uintptr_t)w->p + huge - 1) & ~(huge - 1);

	if (!m->buf || m->feed == FH_FEED_MAP ||
	    (atomic_load(&small_cost.state) == 2 && !reads_small(ahead)))
		return false;
	if (at >= (uintptr_t)w->p + w->len)
		at = (uintptr_t)w->p & ~(uintptr_t)(page - 1);
	/* A page that cannot be had is met, and told, by the hashing. */
	if (fh_os_populate((void *)at, (size_t)page) != 0 ||
	    fh_os_huge_mapped((const void *)at) != 0 ||
	    !calibrate(m, fd, pos, w, page))
		return false;
	return reads_small(ahead);
}

/* How a window's pages are faulted in. */
enum fill {
	FILL_NOW,       /* by the hashing thread, before it hashes */
	FILL_AHEAD,     /* by the populater, while the one before is hashed */
	FILL_ON_DEMAND, /* by the threads that hash it, each its own part,
			 * where it is cached; by the populater where not */
};

/* Maps the window of FD at POS, SIZE bytes but no longer than END - POS,
 * its pages faulted in as FILL says.  *COLD is set, for the rest of the
 * file, once a window mapped ahead is found not cached yet; *TICKET
 * becomes that of a readahead request given to the populater.  Returns 0
 * or an errno value. */
static int map_window(const struct fh_mapping *m, int fd, off_t pos, off_t end,
		      size_t size, struct window *w, enum fill fill, bool *cold,
		      uint64_t *ticket)
{
	/* Asked each time (libc returns a value it holds): a static set on
	 * first use would be written by several workers at once. */
	const long page = sysconf(_SC_PAGESIZE);
	off_t base = pos & ~(off_t)(page - 1);
	size_t skip = (size_t)(pos - base);

	w->len = end - pos < (off_t)size ? (size_t)(end - pos) : size;
	w->maplen = skip + w->len;
	if (m->feed == FH_FEED_READ && m->buf) {
		w->map = NULL;
		w->p = NULL;
		return 0;
	}
	w->map = mmap(NULL, w->maplen, PROT_READ, MAP_SHARED, fd, base);
	if (w->map == MAP_FAILED)
		return errno;
	w->p = (const uint8_t *)w->map + skip;
	posix_madvise(w->map, w->maplen, POSIX_MADV_SEQUENTIAL);
	/* A file read in order is cached up to some point: its windows'
	 * last pages tell when that point is passed.  A window not cached
	 * yet is left to the disk path, mapped. */
	bool cached = !*cold &&
		      fh_os_resident((const uint8_t *)w->map + w->maplen - 1);

	if (fill != FILL_NOW && !cached)
		*cold = true;
	if (cached &&
	    read_instead(m, fd, pos, w, page, fill == FILL_AHEAD && m->pop)) {
		munmap(w->map, w->maplen);
		w->map = NULL;
		w->p = NULL;
		return 0;
	}
	if (fill == FILL_NOW)
		fh_os_populate(w->map, w->maplen);
	/* From a disk, faults wait: the populater waits instead, while the
	 * window before is hashed. */
	if (fill == FILL_ON_DEMAND && *cold && m->pop)
		fill = FILL_AHEAD;

	/* From a cold disk, faults read a window in small synchronous
	 * pieces: ask for the window after this one too, asynchronously.
	 * Not while the file is cached: the request's page-cache walk cost
	 * 4% of the time of a KT128 hash on a cached file (Zen 4). */
	if (fill != FILL_NOW && *cold && end > pos + (off_t)w->len) {
		struct pop_request rq = { NULL, FH_MAP_WINDOW, fd,
					  pos + (off_t)w->len };
		uint64_t t = pop_queue(m->pop, rq, true);

		if (t)
			*ticket = t;
		else
			fh_os_read_ahead(fd, rq.off, FH_MAP_WINDOW);
	}
	if (fill == FILL_AHEAD &&
	    !pop_queue(m->pop, (struct pop_request){ w->map, w->maplen, -1, 0 },
		       false))
		posix_madvise(w->map, w->maplen, POSIX_MADV_WILLNEED);
	return 0;
}

/* A window hashed on this thread, under the guard: in pieces, so that
 * progress moves at least every FH_METER_STEP bytes (a window of a slow
 * algorithm under a sanitizer takes seconds). */
#define FH_METER_STEP (1u << 20)

struct piecewise {
	fh_ctx *ctx;
	const struct window *w;
	struct fh_meter *meter;
};

static void hash_pieces(void *arg)
{
	const struct piecewise *h = arg;

	for (size_t at = 0; at < h->w->len; at += FH_METER_STEP) {
		size_t n = h->w->len - at < FH_METER_STEP ? h->w->len - at
							   : FH_METER_STEP;

		fh_update(h->ctx, h->w->p + at, n);
		fh_meter_add(h->meter, n);
	}
}

/* Why a window of FD failed, [FROM, TO) of a file that had SIZE bytes:
 * FH_ESHRANK if the file is shorter now, else the errno of the first
 * read(2) of those bytes that fails.  A page that faulted and now reads
 * fine still counts as a read error: the window was not hashed. */
static int fault_cause(int fd, off_t from, off_t to, off_t size)
{
	char page[4096];
	int64_t now = fh_fd_size(fd);

	if (now >= 0 && now < size)
		return FH_ESHRANK;
	for (off_t at = from; at < to; at += (off_t)sizeof page) {
		ssize_t n;

		do
			n = pread(fd, page, sizeof page, at);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return errno;
		if (n == 0)
			return FH_ESHRANK;
	}
	return EIO;
}

/* Whether a thread hashing a file alone, at POS of END, should stop at
 * this window's end for a team (or slices) of *MORE threads: other
 * threads could join now (the inputs that kept them busy are done) and
 * enough of the file is left.  Only for an ALGO with teams, or whose
 * slices combine where M takes them, and only where the run asks. */
static bool team_now(const struct fh_mapping *m, const struct fh_algo *algo,
		     off_t pos, off_t end, unsigned *more)
{
	bool team = fh_team_serves(algo),
	     slices = m->slices && fh_family_ops(algo->family)->combine;
	unsigned spare;

	if (!more || !m->spare || !(team || slices) ||
	    end - pos < (off_t)(team ? FH_KT_TEAM_MIN : FH_SLICE_MIN) ||
	    !(spare = m->spare(m->spare_arg)))
		return false;
	*more = spare + 1;
	return true;
}

/* fh_window_hash's loop; *COLD and *TICKET as map_window has them.  With
 * MORE (no TEAM), it may return 0 short of END, *MORE set to the threads
 * of the team to hash the rest (team_now). */
static int hash_windows(const struct fh_mapping *m, int fd, fh_ctx *ctx,
			struct fh_kt_team *team, off_t *pos, off_t end,
			bool *cold, uint64_t *ticket, unsigned *more)
{
	struct window cur = { 0 }, next = { 0 };
	/* A team's threads fault in their own leaves: a populater beside
	 * them would only take a core from them. */
	enum fill later = team     ? FILL_ON_DEMAND
			  : m->pop ? FILL_AHEAD
				   : FILL_NOW;

	if (*pos >= end)
		return 0;
	if (map_window(m, fd, *pos, end, FH_MAP_WINDOW, &cur, FILL_NOW, cold,
		       ticket))
		return FH_ENOMAP;
	if (team)
		fh_kt_team_submit(team, ctx, cur.map, cur.maplen, cur.p,
				  cur.len, fd, *pos);
	for (;;) {
		off_t after = *pos + (off_t)cur.len;
		/* A team's later windows of a cached file are larger:
		 * unmapping a window its threads touched stops each of them
		 * for a TLB shootdown.  From a disk they stay small, as the
		 * readahead asked for each one is tuned to. */
		size_t size = team && !*cold ? FH_TEAM_WINDOW : FH_MAP_WINDOW;
		bool ahead = after < end && later != FILL_NOW &&
			     map_window(m, fd, after, end, size, &next, later,
					cold, ticket) == 0;
		int err = 0;

		if (ahead && team)
			fh_kt_team_submit(team, ctx, next.map, next.maplen,
					  next.p, next.len, fd, after);
		struct piecewise h = { ctx, &cur, m->meter };
		bool whole = team      ? fh_kt_team_retire(team, ctx)
			   : !cur.map ? !(err = read_window(m, fd, ctx, *pos,
							    cur.len))
				      : fh_guard_run(cur.map, cur.maplen,
						     hash_pieces, &h);

		if (cur.map)
			munmap(cur.map, cur.maplen);
		if (!whole) {
			/* A team that failed holds no window any more; either
			 * of its two may have been the one. */
			off_t to = after;

			if (ahead) {
				if (next.map)
					munmap(next.map, next.maplen);
				if (team)
					to += (off_t)next.len;
			}
			return err ? err : fault_cause(fd, *pos, to, end);
		}
		*pos = after;
		if (team)
			fh_meter_add(m->meter, cur.len);
		if (after >= end)
			return 0;
		if (!team && team_now(m, ctx->algo, after, end, more)) {
			if (ahead && next.map)
				munmap(next.map, next.maplen);
			return 0;
		}
		if (!ahead) {
			if (map_window(m, fd, after, end, size, &next,
				       FILL_NOW, cold, ticket))
				return FH_ENOMAP;
			if (team)
				fh_kt_team_submit(team, ctx, next.map,
						  next.maplen, next.p, next.len,
						  fd, after);
		}
		cur = next;
	}
}

bool fh_window_costs(char *line, size_t n)
{
	if (atomic_load(&small_cost.state) != 2)
		return false;
	snprintf(line, n,
		 "small pages: %llu ns to fault one in, %llu to touch it, %llu "
		 "to read it; a cached window of them is %s",
		 (unsigned long long)small_cost.pop,
		 (unsigned long long)small_cost.touch,
		 (unsigned long long)small_cost.copy,
		 reads_small(true)    ? "read"
		 : reads_small(false) ? "read, unless the populater faults it in"
				      : "mapped");
	return true;
}

int fh_window_hash(const struct fh_mapping *m, int fd, fh_ctx *ctx,
		   off_t *pos, off_t end)
{
	bool cold = false;
	uint64_t ticket = 0;
	unsigned threads = m->kt_threads, more = 0;
	int err;

	/* Alone, a thread may be joined once, when the threads that other
	 * inputs kept busy are free (a large file listed before a smaller
	 * one): the rest of the file goes to a team. */
	for (;;) {
		struct fh_kt_team *team = NULL;

		if (fh_team_serves(ctx->algo) && threads > 1 &&
		    end - *pos >= (off_t)FH_KT_TEAM_MIN)
			team = fh_kt_team_new(threads, m->buf != NULL);
		err = hash_windows(m, fd, ctx, team, pos, end, &cold, &ticket,
				   team || threads > 1 ? NULL : &more);
		fh_kt_team_free(team);
		if (err || !more || *pos >= end)
			break;
		if (!fh_team_serves(ctx->algo)) {
			*m->slices = more;      /* the caller's to slice */
			break;
		}
		threads = more;
		more = 0;
	}
	/* The descriptor outlives the populater's last request for it. */
	pop_wait(m->pop, ticket);
	return err;
}
