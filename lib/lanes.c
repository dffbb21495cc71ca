/* lanes.c: a worker's multi-buffer lanes (see lanes.h).  MD5 and SHA-3
 * are serial inside one input, so SIMD pays across inputs: a job manager
 * in the style of the multi-buffer managers of isa-l_crypto keeps one file
 * per lane and refills a lane as soon as its file ends. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "kernel.h"
#include "lanes.h"

/* Bytes read into a lane at a time.  All lanes' buffers together should
 * fit in L2, where the kernel's copy out of the page cache lands: with 8
 * lanes over 4096 cached 128 KiB files, 32 KiB buffers took 125 ms of
 * system time and 128 KiB ones 373 ms (2-core AMD EPYC, Zen 3). */
#define FH_LANE_BUF (32u << 10)

struct lane {
	struct fh_job *job;     /* NULL when the lane is free */
	void *tag;
	int fd;
	bool eof;
	uint8_t *buf;
	size_t len, pos;        /* bytes in buf, bytes of them absorbed */
	uint64_t absorbed;      /* whole blocks absorbed, in bytes */
};

struct fh_lanes {
	fh_lane_done_fn *done;
	void *arg;
	const struct fh_kernel *multi; /* the busy lanes' kernel and algorithm */
	const struct fh_algo *algo;
	bool multi_only;
	unsigned busy;
	struct lane lane[FH_MAX_LANES];
	uint32_t md5[FH_MAX_LANES][4];
	uint64_t keccak[FH_MAX_LANES][25];
	uint8_t *single;        /* read buffer for a lone input's rest */
};

struct fh_lanes *fh_lanes_new(fh_lane_done_fn *done, void *arg)
{
	struct fh_lanes *l = calloc(1, sizeof *l);

	if (l) {
		l->done = done;
		l->arg = arg;
	}
	return l;
}

void fh_lanes_free(struct fh_lanes *l)
{
	if (!l)
		return;
	for (unsigned i = 0; i < FH_MAX_LANES; i++)
		free(l->lane[i].buf);
	free(l->single);
	free(l);
}

bool fh_lanes_busy(const struct fh_lanes *l)
{
	return l->busy > 0;
}

bool fh_lanes_room(const struct fh_lanes *l, const struct fh_job *job)
{
	if (!job->multi)
		return false;
	if (!l->busy)
		return true;
	return job->multi == l->multi && job->algo == l->algo &&
	       l->busy < l->multi->lanes;
}

/* A context holding lane I's state after its absorbed blocks. */
static void lane_ctx(struct fh_lanes *l, unsigned i, fh_ctx *ctx)
{
	struct fh_job *job = l->lane[i].job;

	fh_init_kernel(ctx, job->algo, job->kernel);
	if (job->algo->family == FH_FAMILY_MD5)
		memcpy(ctx->state.md5, l->md5[i], sizeof l->md5[i]);
	else
		memcpy(ctx->state.keccak, l->keccak[i], sizeof l->keccak[i]);
	ctx->total = l->lane[i].absorbed;
}

static void release(struct fh_lanes *l, unsigned i, int err)
{
	struct lane *ln = &l->lane[i];
	struct fh_job *job = ln->job;
	void *tag = ln->tag;

	close(ln->fd);
	job->err = err;
	ln->job = NULL;
	l->busy--;
	l->done(l->arg, tag);
}

bool fh_lanes_take(struct fh_lanes *l, struct fh_job *job, void *tag,
		   bool waiting)
{
	struct stat st;
	unsigned i;
	int fd;

	if (!fh_lanes_room(l, job) || strcmp(job->path, "-") == 0)
		return false;
	/* Look before opening: opening a FIFO would wait for, and then
	 * consume, its writer.  Files to be mapped stay on the single-stream
	 * path, where a file that shrinks is caught; a lone small file too,
	 * unless forced onto the lanes. */
	if (stat(job->path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size >= FH_MAP_MIN || (!job->multi_only && !waiting && !l->busy))
		return false;
	fd = open(job->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false; /* the single-stream path reports it */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	for (i = 0; l->lane[i].job; i++)
		;
	struct lane *ln = &l->lane[i];

	if (!ln->buf && !(ln->buf = malloc(FH_LANE_BUF))) {
		close(fd);
		return false;
	}
	if (!l->busy) {
		l->multi = job->multi;
		l->algo = job->algo;
		l->multi_only = job->multi_only;
	}
	ln->job = job;
	ln->tag = tag;
	ln->fd = fd;
	ln->eof = false;
	ln->len = ln->pos = 0;
	ln->absorbed = 0;
	job->size = 0;
	l->busy++;

	fh_ctx ctx;

	fh_init_kernel(&ctx, job->algo, job->kernel);
	if (job->algo->family == FH_FAMILY_MD5)
		memcpy(l->md5[i], ctx.state.md5, sizeof l->md5[i]);
	else
		memcpy(l->keccak[i], ctx.state.keccak, sizeof l->keccak[i]);
	return true;
}

/* Tops up lane LN's buffer; returns 0 or an errno value. */
static int refill(struct lane *ln)
{
	memmove(ln->buf, ln->buf + ln->pos, ln->len - ln->pos);
	ln->len -= ln->pos;
	ln->pos = 0;
	while (!ln->eof && ln->len < FH_LANE_BUF) {
		ssize_t n = read(ln->fd, ln->buf + ln->len, FH_LANE_BUF - ln->len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (n == 0)
			ln->eof = true;
		ln->len += (size_t)n;
		ln->job->size += (uint64_t)n;
	}
	return 0;
}

/* Lane I's input ended: its tail and padding on the single-stream kernel. */
static void finish(struct fh_lanes *l, unsigned i)
{
	struct lane *ln = &l->lane[i];
	fh_ctx ctx;

	lane_ctx(l, i, &ctx);
	fh_update(&ctx, ln->buf + ln->pos, ln->len - ln->pos);
	fh_final(&ctx, ln->job->digest, ln->job->outlen);
	release(l, i, 0);
}

/* Lane I is alone with nothing to join it: the rest of its input goes
 * through the single-stream kernel, which is faster for one input. */
static void go_single(struct fh_lanes *l, unsigned i)
{
	struct lane *ln = &l->lane[i];
	fh_ctx ctx;
	int err = 0;

	if (!l->single && !(l->single = malloc(FH_READ_SIZE))) {
		err = ENOMEM;
	} else {
		lane_ctx(l, i, &ctx);
		fh_update(&ctx, ln->buf + ln->pos, ln->len - ln->pos);
		while (!ln->eof) {
			ssize_t n = read(ln->fd, l->single, FH_READ_SIZE);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				err = errno;
				break;
			}
			ln->eof = n == 0;
			ln->job->size += (uint64_t)n;
			fh_update(&ctx, l->single, (size_t)n);
		}
		if (!err)
			fh_final(&ctx, ln->job->digest, ln->job->outlen);
	}
	release(l, i, err);
}

void fh_lanes_step(struct fh_lanes *l, bool waiting)
{
	size_t block = l->algo->block_bytes;
	unsigned lanes = l->multi->lanes;
	size_t k = SIZE_MAX;
	int first = -1;

	/* Refill lanes short of a block; finish those whose input ended. */
	for (unsigned i = 0; i < lanes; i++) {
		struct lane *ln = &l->lane[i];
		int err;

		if (!ln->job)
			continue;
		if (ln->len - ln->pos < block && !ln->eof &&
		    (err = refill(ln)) != 0) {
			release(l, i, err);
			continue;
		}
		if (ln->len - ln->pos < block) {
			finish(l, i);
			continue;
		}
		if ((ln->len - ln->pos) / block < k)
			k = (ln->len - ln->pos) / block;
		if (first < 0)
			first = (int)i;
	}
	if (first < 0)
		return;
	if (l->busy == 1 && !waiting && !l->multi_only) {
		go_single(l, (unsigned)first);
		return;
	}

	/* One call over every lane: spare lanes reread the first busy lane's
	 * data into their own scratch state. */
	const uint8_t *data[FH_MAX_LANES];

	for (unsigned i = 0; i < lanes; i++) {
		const struct lane *ln = l->lane[i].job ? &l->lane[i] : &l->lane[first];

		data[i] = ln->buf + ln->pos;
	}
	if (l->algo->family == FH_FAMILY_MD5)
		l->multi->md5_blocks_xn(l->md5, data, k);
	else
		l->multi->keccak_absorb_xn(l->keccak, data, k, block);
	for (unsigned i = 0; i < lanes; i++) {
		if (l->lane[i].job) {
			l->lane[i].pos += k * block;
			l->lane[i].absorbed += k * block;
		}
	}
}
