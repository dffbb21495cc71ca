/* lanes.c: a worker's multi-buffer lanes (see lanes.h).  MD5, SHA-1, SHA-2, SHA-3
 * and BLAKE2b are serial inside one input, so SIMD pays across inputs: a job manager
 * in the style of the multi-buffer managers of isa-l_crypto keeps one file
 * per lane and refills a lane as soon as its file ends.  Inputs of every
 * size take lanes, read in chunks; the lanes' states are the single-stream
 * kernel's, so an input can move between the two at any block. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "io.h"
#include "kernel.h"
#include "lanes.h"

/* The bytes of all of a worker's lane buffers in use together, and so the
 * bytes each of L lanes reads at a time (within the bounds below).  They
 * should stay in L2, where read(2) copies them out of the page cache: with
 * 8 lanes over 4096 cached 128 KiB files, 32 KiB buffers took 125 ms of
 * system time and 128 KiB ones 373 ms (2-core AMD EPYC, Zen 3).  Memory:
 * a worker holds at most FH_MAX_LANES buffers of FH_LANE_BUF_MAX bytes
 * (1 MiB with 32 lanes), and the lanes' states, about 7 KiB. */
#define FH_LANES_BYTES (512u << 10)
#define FH_LANE_BUF_MIN (16u << 10)
#define FH_LANE_BUF_MAX (32u << 10)
/* Room before the reads for the bytes a refill keeps: more than any
 * block, and a multiple of 64. */
#define FH_LANE_HEAD 256u

struct lane {
	struct fh_job *job;     /* NULL when the lane is free */
	bool waits;             /* its data is still on its way from the disk */
	unsigned backoff, skip; /* steps between its retries, and until the next */
	void *tag;
	struct fh_input in;
	bool eof;
	uint8_t *buf;           /* FH_LANE_HEAD + FH_LANE_BUF_MAX bytes, kept
				 * when the lane is freed */
	size_t len, pos;        /* [POS, LEN) of BUF: read, not yet absorbed */
	uint64_t absorbed;      /* whole blocks absorbed, in bytes */
	uint64_t got;           /* bytes read from the input */
};

struct fh_lanes {
	fh_lane_done_fn *done;
	void *arg;
	struct fh_meter *meter;
	const _Atomic bool *stop;
	uint32_t cpu;
	/* The busy lanes' widest kernel, algorithm and whether the kernel
	 * was forced (then it alone runs them); NARROW[B] is the kernel for
	 * B busy lanes. */
	const struct fh_kernel *multi;
	const struct fh_algo *algo;
	bool fixed;
	const struct fh_kernel *narrow[FH_MAX_LANES + 1];
	size_t use;             /* bytes of each buffer read at a time */
	unsigned busy;
	struct lane lane[FH_MAX_LANES];
	/* The lanes' states end to end, as the kernels take them. */
	uint64_t states[FH_MAX_LANES * 25];
};

static size_t lane_blocks(const struct fh_lanes *l, const struct lane *ln);

/* Lane I's state, of the busy lanes' algorithm. */
static void *lane_state(struct fh_lanes *l, unsigned i)
{
	return (uint8_t *)l->states + i * fh_state_bytes(l->algo->family);
}

struct fh_lanes *fh_lanes_new(fh_lane_done_fn *done, void *arg,
			      struct fh_meter *meter, const _Atomic bool *stop)
{
	struct fh_lanes *l = calloc(1, sizeof *l);

	if (l) {
		l->done = done;
		l->arg = arg;
		l->meter = meter;
		l->stop = stop;
		l->cpu = fh_cpu_features();
	}
	return l;
}

void fh_lanes_free(struct fh_lanes *l)
{
	if (!l)
		return;
	for (unsigned i = 0; i < FH_MAX_LANES; i++)
		free(l->lane[i].buf);
	free(l);
}

bool fh_lanes_busy(const struct fh_lanes *l)
{
	return l->busy > 0;
}

size_t fh_lanes_buffer(const struct fh_lanes *l)
{
	(void)l;
	return FH_LANE_BUF_MIN;
}

bool fh_lanes_room(const struct fh_lanes *l, const struct fh_job *job)
{
	if (!job->multi)
		return false;
	if (!l->busy)
		return true;
	return job->multi == l->multi && job->algo == l->algo &&
	       job->multi_only == l->fixed && l->busy < l->multi->lanes;
}

/* A context of JOB's algorithm and digest length, from the start. */
static void job_ctx(const struct fh_job *job, fh_ctx *ctx)
{
	const struct fh_hash_params p = { .outlen = job->outlen };

	fh_init_params(ctx, job->algo, job->kernel, &p);
}

/* A context holding lane I's state after its absorbed blocks. */
static void lane_ctx(struct fh_lanes *l, unsigned i, fh_ctx *ctx)
{
	struct fh_job *job = l->lane[i].job;

	fh_lane_ctx(ctx, job->algo, job->kernel, job->outlen, lane_state(l, i),
		    l->lane[i].absorbed);
}

/* The whole blocks lane LN may absorb in the lanes now. */
static size_t lane_blocks(const struct fh_lanes *l, const struct lane *ln)
{
	return fh_lane_blocks(l->algo, ln->len - ln->pos, ln->absorbed);
}

static void release(struct fh_lanes *l, unsigned i, int err)
{
	struct lane *ln = &l->lane[i];
	struct fh_job *job = ln->job;
	void *tag = ln->tag;

	if (!err)
		err = fh_input_unchanged(&ln->in, job->digest);
	job->torn = ln->in.torn;
	fh_input_close(&ln->in);
	job->err = err;
	job->size = ln->got;
	ln->job = NULL;
	l->busy--;
	l->done(l->arg, tag);
}

/* Tops up lane LN's buffer; returns 0 or an errno value (FH_ESHRANK).
 * With NOWAIT it reads only what is cached already, and returns EAGAIN
 * when that leaves the lane without a whole block.  The bytes left over
 * (less than a block) move to just before FH_LANE_HEAD, so that reads
 * land on a 64-byte boundary: the kernel's copy out of the page cache
 * into a destination 16 bytes off one took 3x the system time (0.78 s
 * against 0.25 s a cached GiB, AMD Zen 3). */
static int refill(struct fh_lanes *l, struct lane *ln, bool nowait)
{
	/* A worker takes many inputs into its lanes at once, and reads each
	 * only as the others let it: one not begun when the run stops is
	 * left unread, so that nothing starts after a scrub's deadline. */
	if (!ln->got && l->stop && atomic_load_explicit(l->stop, memory_order_relaxed))
		return ECANCELED;
	size_t keep = ln->len - ln->pos;
	size_t at = keep <= FH_LANE_HEAD ? FH_LANE_HEAD - keep : 0;

	memmove(ln->buf + at, ln->buf + ln->pos, keep);
	ln->pos = at;
	ln->len = at + keep;
	while (!ln->eof && ln->len - ln->pos < l->use) {
		size_t room = l->use - (ln->len - ln->pos);
		ssize_t n = nowait ? fh_input_try_read(&ln->in, ln->buf + ln->len,
						       room, ln->got, &ln->eof)
				   : fh_input_read(&ln->in, ln->buf + ln->len,
						   room, ln->got, &ln->eof);

		if (n == -EAGAIN)
			return lane_blocks(l, ln) == 0 ? EAGAIN : 0;
		if (n < 0)
			return (int)-n;
		ln->len += (size_t)n;
		ln->got += (uint64_t)n;
	}
	return ln->eof ? fh_input_check_end(&ln->in, ln->got) : 0;
}

bool fh_lanes_take(struct fh_lanes *l, struct fh_job *job, void *tag,
		   struct fh_input *in, bool whole)
{
	unsigned i;

	if (!in->regular || !fh_lanes_room(l, job) ||
	    (fh_lane_max(job->algo) && in->size > fh_lane_max(job->algo)))
		return false;
	if (!l->busy && (l->multi != job->multi || l->fixed != job->multi_only)) {
		l->multi = job->multi;
		l->fixed = job->multi_only;
		for (unsigned b = 1; b <= job->multi->lanes; b++)
			l->narrow[b] = l->fixed ? l->multi
				     : fh_kernel_narrowest(l->multi, b, l->cpu);
		size_t use = FH_LANES_BYTES / job->multi->lanes;

		l->use = use < FH_LANE_BUF_MIN ? FH_LANE_BUF_MIN
		       : use > FH_LANE_BUF_MAX ? FH_LANE_BUF_MAX : use;
	}
	for (i = 0; l->lane[i].job; i++)
		;
	struct lane *ln = &l->lane[i];

	if (!ln->buf && !(ln->buf = fh_buf_alloc(FH_LANE_HEAD + FH_LANE_BUF_MAX)))
		return false;
	l->algo = job->algo;
	*ln = (struct lane){ .job = job, .tag = tag, .in = *in, .buf = ln->buf };
	job->size = 0;
	l->busy++;

	fh_ctx ctx;

	job_ctx(job, &ctx);
	memcpy(lane_state(l, i), &ctx.state, fh_state_bytes(job->algo->family));
	/* A file that grew past the buffer since its fstat reads on later,
	 * as any lane does. */
	if (whole) {
		int err = refill(l, ln, false);

		if (err)
			release(l, i, err);
	}
	return true;
}

/* Lane I's input ended, or the lanes take no more of it: the rest, its
 * tail and padding on the single-stream kernel. */
static void finish(struct fh_lanes *l, unsigned i)
{
	struct lane *ln = &l->lane[i];
	fh_ctx ctx;

	lane_ctx(l, i, &ctx);
	for (;;) {
		int err;

		fh_update(&ctx, ln->buf + ln->pos, ln->len - ln->pos);
		fh_meter_add(l->meter, ln->len - ln->pos);
		ln->pos = ln->len;
		/* A lane that holds only an input's start (BLAKE3's) reads
		 * the rest of one that grew past it here. */
		if (ln->eof)
			break;
		if ((err = refill(l, ln, false)) != 0) {
			release(l, i, err);
			return;
		}
	}
	fh_final(&ctx, ln->job->digest, ln->job->outlen);
	release(l, i, 0);
}

/* Whether lane LN's input ends with the bytes it holds, a block at most
 * and inside what the lanes take: the family may finish it in them. */
static bool ends_here(const struct fh_lanes *l, const struct lane *ln)
{
	size_t left = ln->len - ln->pos;
	uint64_t max = fh_lane_max(l->algo);

	return ln->eof && left <= l->algo->block_bytes &&
	       (!max || ln->absorbed + left <= max);
}

/* The N lanes FIN, each at the end of its input: their last blocks in
 * one call of a multi-buffer kernel where the family can (BLAKE3's
 * roots: on 100,000 files of 1 KiB, each compressed alone took 2.7% of
 * the CPU time), else one after another through finish. */
static void finish_together(struct fh_lanes *l, const unsigned *fin,
			    unsigned n)
{
	const void *states[FH_MAX_LANES];
	const uint8_t *tails[FH_MAX_LANES];
	size_t lens[FH_MAX_LANES];
	uint8_t *out[FH_MAX_LANES];
	bool together = n >= 2;

	for (unsigned k = 0; k < n && together; k++) {
		struct lane *ln = &l->lane[fin[k]];

		states[k] = lane_state(l, fin[k]);
		tails[k] = ln->buf + ln->pos;
		lens[k] = ln->len - ln->pos;
		out[k] = ln->job->digest;
		together = ln->job->outlen == l->lane[fin[0]].job->outlen;
	}
	if (together && fh_lanes_final(l->narrow[n], l->algo, states, tails,
				       lens, n, out,
				       l->lane[fin[0]].job->outlen)) {
		for (unsigned k = 0; k < n; k++) {
			struct lane *ln = &l->lane[fin[k]];

			fh_meter_add(l->meter, lens[k]);
			ln->pos = ln->len;
			release(l, fin[k], 0);
		}
		return;
	}
	for (unsigned k = 0; k < n; k++)
		finish(l, fin[k]);
}

/* Lane I is alone with nothing to join it: its input goes on through the
 * single-stream kernel, which is faster for one input, on the lane's own
 * state, for up to FH_SOLO_BYTES.  Then the worker looks for new inputs,
 * which may join the lanes again: a large file is never committed to one
 * stream while others arrive behind it. */
#define FH_SOLO_BYTES (4u << 20)

static uint64_t solo(struct fh_lanes *l, unsigned i)
{
	struct lane *ln = &l->lane[i];
	const struct fh_kernel *k = ln->job->kernel;
	size_t block = l->algo->block_bytes;
	uint64_t done = 0;

	if (fh_lane_max(l->algo)) {
		/* Lanes that hold only an input's start: the rest at once. */
		done = ln->len - ln->pos;
		finish(l, i);
		return done;
	}
	while (done < FH_SOLO_BYTES) {
		size_t n = lane_blocks(l, ln);
		int err;

		fh_blocks(k, l->algo, lane_state(l, i), ln->buf + ln->pos, n);
		ln->pos += n * block;
		ln->absorbed += n * block;
		done += n * block;
		fh_meter_add(l->meter, n * block);
		if (ln->eof)
			break;
		if ((err = refill(l, ln, false)) != 0) {
			release(l, i, err);
			return done;
		}
		if (lane_blocks(l, ln) == 0)
			break;
	}
	if (ln->eof && lane_blocks(l, ln) == 0)
		finish(l, i);
	return done;
}

/* Moves the busy lanes into lanes 0..N-1, for a kernel of N lanes. */
static void compact(struct fh_lanes *l, unsigned n)
{
	unsigned to = 0;

	for (unsigned from = n; from < FH_MAX_LANES; from++) {
		if (!l->lane[from].job)
			continue;
		while (l->lane[to].job)
			to++;
		struct lane t = l->lane[to];

		l->lane[to] = l->lane[from];
		l->lane[from] = t;
		memcpy(lane_state(l, to), lane_state(l, from),
		       fh_state_bytes(l->algo->family));
	}
}

/* Once the run stops, the lanes read on for one input only, as a worker
 * without them finishes the one it reads: of those begun, the one with
 * the fewest bytes left to read.  Those read to their end are finished
 * too (their bytes are in the buffers); the others end with ECANCELED,
 * not verified.  A worker that had begun 32 MD5 inputs of 1 MiB on a
 * slow file system read them all, 4 to 5 s past a --max-time of 0.3 s. */
static void shed(struct fh_lanes *l)
{
	int keep = -1;
	uint64_t least = UINT64_MAX;

	for (unsigned i = 0; i < FH_MAX_LANES; i++) {
		const struct lane *ln = &l->lane[i];

		if (!ln->job || !ln->got || ln->eof)
			continue;
		uint64_t left = ln->in.size > ln->got ? ln->in.size - ln->got : 0;

		if (left < least) {
			least = left;
			keep = (int)i;
		}
	}
	for (unsigned i = 0; i < FH_MAX_LANES; i++)
		if (l->lane[i].job && !l->lane[i].eof && (int)i != keep)
			release(l, i, ECANCELED);
}

uint64_t fh_lanes_step(struct fh_lanes *l, bool waiting)
{
	size_t block = l->algo->block_bytes;
	unsigned cap = l->multi->lanes;
	size_t k = SIZE_MAX;
	int first = -1, waits = -1;
	unsigned active = 0, fin[FH_MAX_LANES], nfin = 0;

	if (l->busy > 1 && l->stop && atomic_load_explicit(l->stop, memory_order_relaxed)) {
		shed(l);
		if (!l->busy)
			return 0;
	}
	/* Refill lanes short of a block, from what is cached; finish those
	 * whose input ended.  A lane whose next block is still on its way
	 * from the disk waits, and the others go on without it. */
	for (unsigned i = 0; i < cap; i++) {
		struct lane *ln = &l->lane[i];
		int err = 0;

		if (!ln->job)
			continue;
		/* A waiting lane tries again after 1, 2, 4 ... 32 steps: each
		 * try is a system call. */
		if (ln->waits && ln->skip) {
			ln->skip--;
			if (waits < 0)
				waits = (int)i;
			continue;
		}
		if (lane_blocks(l, ln) == 0 && !ln->eof)
			err = refill(l, ln, true);
		ln->waits = err == EAGAIN;
		if (ln->waits) {
			ln->backoff = ln->backoff ? 2 * ln->backoff : 1;
			if (ln->backoff > 32)
				ln->backoff = 32;
			ln->skip = ln->backoff;
			if (waits < 0)
				waits = (int)i;
			continue;
		}
		ln->backoff = 0;
		if (err) {
			release(l, i, err);
			continue;
		}
		if (lane_blocks(l, ln) == 0) {
			if (ends_here(l, ln))
				fin[nfin++] = i;
			else
				finish(l, i);
			continue;
		}
		if (first < 0)
			first = (int)i;
		active++;
	}
	finish_together(l, fin, nfin);
	if (first < 0 && waits >= 0) {
		/* Every busy lane waits for the disk: wait for one. */
		struct lane *ln = &l->lane[waits];
		int err = refill(l, ln, false);

		ln->waits = false;
		ln->backoff = ln->skip = 0;
		if (err)
			release(l, (unsigned)waits, err);
		else if (lane_blocks(l, ln) == 0)
			finish(l, (unsigned)waits);
		return 0;
	}
	if (first < 0)
		return 0;
	if (l->busy == 1 && !waiting && !l->fixed)
		return solo(l, (unsigned)first);

	const struct fh_kernel *kern = l->narrow[l->busy];
	unsigned n = kern->lanes;

	if (n < cap) {
		compact(l, n);
		for (first = 0; !l->lane[first].job || l->lane[first].waits; first++)
			;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct lane *ln = &l->lane[i];

		if (ln->job && !ln->waits && lane_blocks(l, ln) < k)
			k = lane_blocks(l, ln);
	}

	/* One call over every lane: spare lanes reread the first busy lane's
	 * data into their own scratch state; lanes that wait do too, their
	 * state kept aside and put back. */
	const uint8_t *data[FH_MAX_LANES];
	uint64_t kept[FH_MAX_LANES * 25];
	size_t sb = fh_state_bytes(l->algo->family);

	for (unsigned i = 0; i < n; i++) {
		const struct lane *ln = l->lane[i].job && !l->lane[i].waits
					? &l->lane[i] : &l->lane[first];

		data[i] = ln->buf + ln->pos;
		if (l->lane[i].job && l->lane[i].waits)
			memcpy((uint8_t *)kept + i * sb, lane_state(l, i), sb);
	}
	fh_blocks_xn(kern, l->algo, l->states, data, k);
	for (unsigned i = 0; i < n; i++) {
		struct lane *ln = &l->lane[i];

		if (!ln->job)
			continue;
		if (ln->waits) {
			memcpy(lane_state(l, i), (uint8_t *)kept + i * sb, sb);
			continue;
		}
		ln->pos += k * block;
		ln->absorbed += k * block;
	}
	fh_meter_add(l->meter, (uint64_t)k * block * active);
	return (uint64_t)k * block;
}
