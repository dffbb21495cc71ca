/* iostage.c: the engine's I/O stage (see iostage.h).
 *
 * Each thread takes the next slot in order, no further than DEPTH slots
 * past the workers' claim cursor and within a budget of bytes and
 * descriptors, opens its input (fh_input_open: open and fstat) and, for a
 * regular file, probes whether its first page is cached.  If it is not,
 * fh_os_read_ahead starts the reads of its first FH_AHEAD_FILE
 * bytes (within FH_AHEAD_BYTES for all the files opened ahead), which the
 * kernel issues asynchronously; the worker's reads then
 * find the data arriving or arrived.  The stage starts warm: one thread
 * samples an input at once and then every FH_WARM_SAMPLE_MS, the others
 * rest, and the workers open the inputs themselves (open, fstat, read,
 * close: nothing more).  One uncached sample turns it cold, and all its
 * threads look ahead; FH_WARM_AFTER cached inputs in a row turn it warm
 * again. */
#include <time.h>

#include "iostage.h"
#include "os.h"

/* Bytes of one file asked ahead: the kernel's own readahead takes over
 * behind the reader for the rest of a longer one.  And the bytes asked
 * ahead and not yet taken by a worker, all files together: enough to keep
 * the disk busy, but a deeper queue only makes the next file a worker
 * needs wait behind the read-ahead of later ones.  Verifying the installed
 * system from a cold cache (virtio disk, medians of 4 alternating runs)
 * took 1.15x the read ceiling with 8 MiB a file and 128 MiB in all, 1.10x
 * with 2 and 32, 1.07-1.10x with 2 and 16, 1.06x with 1 and 8; 4096 cold
 * files of 128 KiB took 1.10-1.18x whatever the budget. */
#define FH_AHEAD_FILE (2u << 20)
#define FH_AHEAD_BYTES (16u << 20)
/* Cached inputs in a row that make the stage warm. */
#define FH_WARM_AFTER 64
/* How often a warm stage samples an input, and how far ahead of the
 * workers' claim, so that the sample is still unclaimed when taken. */
#define FH_WARM_SAMPLE_MS 20
#define FH_WARM_LEAD 64

void fh_iostage_init(struct fh_iostage *io, const struct fh_iostage_ops *ops,
		     void *arg, struct fh_fds *fds, _Atomic uint64_t *tail,
		     _Atomic uint64_t *claim)
{
	*io = (struct fh_iostage){ .ops = ops, .arg = arg, .fds = fds,
				   .tail = tail, .claim = claim };
	pthread_mutex_init(&io->lock, NULL);
	pthread_cond_init(&io->cv, NULL);
}

static void *io_main(void *arg);

/* Starts thread N on a small stack: it only opens, probes and advises. */
static bool start(struct fh_iostage *io, unsigned n)
{
	return fh_thread_start(&io->tids[n], io_main, &io->th[n],
			       FH_STACK_SMALL) == 0;
}

/* Starts the threads not yet started (all but the sampler). */
static void grow(struct fh_iostage *io)
{
	pthread_mutex_lock(&io->lock);
	while (!atomic_load(&io->finished) && io->nthreads < FH_IO_THREADS &&
	       io->nthreads < io->depth) {
		unsigned n = io->nthreads;

		io->th[n] = (struct fh_io_thread){ .io = io, .n = n };
		if (!start(io, n))
			break;
		io->nthreads++;
	}
	pthread_mutex_unlock(&io->lock);
}

static void wake(struct fh_iostage *io, bool all)
{
	pthread_mutex_lock(&io->lock);
	if (all)
		pthread_cond_broadcast(&io->cv);
	else
		pthread_cond_signal(&io->cv);
	pthread_mutex_unlock(&io->lock);
}

/* Opens slot INDEX's input PATH, starts its reads if uncached, hands it
 * to the slot. */
static void open_one(struct fh_iostage *io, uint64_t index, const char *path)
{
	struct fh_input in;
	uint64_t ahead = 0;
	int err = fh_input_open(path, &in, &io->fds->held);

	/* An open can wait long for cold metadata: the run may have stopped
	 * since the slot was claimed, and then its input is not read. */
	if (!err && in.regular && in.size > 0 && !io->ops->stopped(io->arg)) {
		int cached = fh_os_cached(in.fd, 0);

		if (cached == 1) {
			if (atomic_fetch_add(&io->hits, 1) + 1 >= FH_WARM_AFTER && !io->always)
				atomic_store(&io->cold, false);
		} else {
			if (cached == 0) {
				atomic_store(&io->hits, 0);
				if (!atomic_exchange(&io->cold, true)) {
					grow(io);
					wake(io, true);
				}
			}
			ahead = in.size < FH_AHEAD_FILE ? in.size : FH_AHEAD_FILE;
			fh_os_read_ahead(in.fd, 0, (off_t)ahead);
			atomic_fetch_add(&io->ahead, ahead);
		}
	}
	io->ops->give(io->arg, index, &in, err, ahead);
}

/* Sleeps up to MS milliseconds, or until woken. */
static void rest(struct fh_iostage *io, long ms)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += ms * 1000000L;
	while (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&io->lock);
	atomic_fetch_add(&io->sleepers, 1);
	pthread_cond_timedwait(&io->cv, &io->lock, &until);
	atomic_fetch_sub(&io->sleepers, 1);
	pthread_mutex_unlock(&io->lock);
}

static void *io_main(void *arg)
{
	struct fh_io_thread *me = arg;
	struct fh_iostage *io = me->io;
	int fd_room = io->fds->limit / 2;
	bool sampled = false;

	for (;;) {
		/* Slots a worker claimed but has not reached yet are fair game
		 * too: whoever takes a slot first opens it. */
		uint64_t c = atomic_load(io->claim), t = atomic_load(io->tail);
		uint64_t old = atomic_load(&io->next), i = old;
		bool cold = atomic_load(&io->cold);

		/* At the end a warm stage has nothing left to learn. */
		if (atomic_load(&io->finished) && (i >= t || !cold))
			break;
		if (!cold) {
			/* Warm: thread 0 samples one input now and then, the
			 * first at once. */
			if (me->n != 0) {
				rest(io, 10 * FH_WARM_SAMPLE_MS);
				continue;
			}
			if (sampled)
				rest(io, FH_WARM_SAMPLE_MS);
			sampled = true;
			c = atomic_load(io->claim);
			t = atomic_load(io->tail);
			if (t <= c)
				continue;
			i = c + FH_WARM_LEAD < t ? c + FH_WARM_LEAD : t - 1;
			old = atomic_load(&io->next);
			if (old > i)
				continue;
		} else if (i >= t || i >= c + io->depth ||
			   fh_fds_held(io->fds) >= fd_room ||
			   atomic_load(&io->ahead) >= FH_AHEAD_BYTES) {
			rest(io, 50);
			continue;
		}
		if (!atomic_compare_exchange_weak(&io->next, &old, i + 1))
			continue;
		const char *path = io->ops->claim(io->arg, i);

		if (path)
			open_one(io, i, path);
	}
	return NULL;
}

void fh_iostage_start(struct fh_iostage *io, unsigned depth, bool always)
{
	if (io->started || depth < 2)
		return;
	io->started = true;
	io->depth = depth;
	io->always = always;
	atomic_store(&io->cold, always);
	io->th[0] = (struct fh_io_thread){ .io = io, .n = 0 };
	/* Under the lock: the sampler may grow the stage at once, and must
	 * find itself counted. */
	pthread_mutex_lock(&io->lock);
	if (start(io, 0))
		io->nthreads = 1;
	pthread_mutex_unlock(&io->lock);
	if (always)
		grow(io);
}

void fh_iostage_produced(struct fh_iostage *io, uint64_t tail)
{
	/* Wake a cold stage that had caught up with the producer. */
	if (io->started && atomic_load(&io->sleepers) && atomic_load(&io->cold) &&
	    atomic_load(&io->next) + 1 >= tail)
		wake(io, false);
}

void fh_iostage_claimed(struct fh_iostage *io, uint64_t claim)
{
	(void)claim;
	if (io->started && atomic_load(&io->sleepers) && atomic_load(&io->cold))
		wake(io, false);
}

void fh_iostage_taken(struct fh_iostage *io, uint64_t ahead)
{
	if (ahead)
		atomic_fetch_sub(&io->ahead, ahead);
}

void fh_iostage_finish(struct fh_iostage *io)
{
	atomic_store(&io->finished, true);
	if (io->started)
		wake(io, true);
}

void fh_iostage_stop(struct fh_iostage *io)
{
	fh_iostage_finish(io);
	pthread_mutex_lock(&io->lock);
	unsigned n = io->nthreads;

	pthread_mutex_unlock(&io->lock);
	for (unsigned i = 0; i < n; i++)
		pthread_join(io->tids[i], NULL);
	io->nthreads = 0;
	pthread_mutex_destroy(&io->lock);
	pthread_cond_destroy(&io->cv);
}
