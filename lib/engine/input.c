/* input.c: opening and hashing one input.  Regular files of at least
 * FH_MAP_MIN bytes, and block devices that look cached, are
 * hashed through mapped windows (window.c); everything else (small
 * files, pipes, sockets, cold devices, /proc files) is read through a
 * per-thread buffer.  A read file that ends short of the
 * size fstat gave at open is checked again: if it shrank, FH_ESHRANK. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "input.h"
#include "io.h"
#include "kernel.h"
#include "kt.h"
#include "kt_team.h"
#include "os.h"
#include "slices.h"
#include "family.h"
#include "window.h"

static void describe(struct fh_input *in, const struct stat *st)
{
	in->regular = S_ISREG(st->st_mode);
	in->blk = S_ISBLK(st->st_mode);
	in->fifo = S_ISFIFO(st->st_mode);
	in->dir = S_ISDIR(st->st_mode);
	in->size = in->regular ? (uint64_t)st->st_size : 0;
	in->open_size = (uint64_t)st->st_size;
	in->dev = (uint64_t)st->st_dev;
#ifdef __APPLE__
	in->sec = (int64_t)st->st_mtimespec.tv_sec;
	in->nsec = (uint32_t)st->st_mtimespec.tv_nsec;
#else
	in->sec = (int64_t)st->st_mtim.tv_sec;
	in->nsec = (uint32_t)st->st_mtim.tv_nsec;
#endif
}

/* A block device's size, which fstat does not give, into IN->size, so
 * that it is hashed as a file of that size (mapped, sliced, by a team),
 * but only where what is left of it looks cached: its next byte, its
 * last, and three between.  A device's cache goes when its last opener
 * closes it, so most devices are read cold, and a cold one is read in
 * order as other devices are: mapped, a loop device over the virtio disk
 * of docs/performance.md read slower.  (A mounted file system's device
 * keeps some of its metadata cached, its first pages among them.) */
static void size_device(struct fh_input *in)
{
	off_t at;
	int64_t end;

	if (!in->blk || (at = lseek(in->fd, 0, SEEK_CUR)) < 0 ||
	    (end = fh_fd_size(in->fd)) <= at)
		return;
	for (int i = 0; i <= 4; i++)
		if (fh_os_cached(in->fd, i < 4 ? at + (end - 1 - at) / 4 * i
						: end - 1) != 1)
			return;
	in->size = (uint64_t)end;
}

int fh_input_unchanged(struct fh_input *in, const uint8_t *digest)
{
	struct fh_input now = *in;
	struct stat st;

	if (!in->watch)
		return 0;
	if (in->expect && memcmp(digest, in->expect, in->expect_len) == 0)
		return 0;
	if (fstat(in->fd, &st) != 0)
		return errno;
	describe(&now, &st);
	bool moved = now.open_size != in->open_size || now.sec != in->sec ||
		     now.nsec != in->nsec;

	if (in->track) {
		in->torn = moved;
		return 0;
	}
	return moved ? FH_ECHANGED : 0;
}

int fh_input_open(const char *path, struct fh_input *in, _Atomic int *count)
{
	struct stat st;

	*in = (struct fh_input){ .fd = -1 };
	/* O_NONBLOCK: a FIFO's open would wait for a writer, and the I/O
	 * stage must never wait on one; reads wait instead (fh_input_read).
	 * It changes nothing for regular files. */
	in->fd = fh_os_open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (in->fd < 0)
		return errno;
	if ((in->counted = count))
		atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
	if (fstat(in->fd, &st) != 0) {
		int err = errno;

		fh_input_close(in);
		return err;
	}
	describe(in, &st);
	size_device(in);
	if (in->fifo)
		fh_os_widen_pipe(in->fd);
	return 0;
}

void fh_input_stdin(struct fh_input *in)
{
	struct stat st;

	*in = (struct fh_input){ .fd = STDIN_FILENO, .is_stdin = true };
	if (fstat(STDIN_FILENO, &st) == 0)
		describe(in, &st);
	size_device(in);
	if (in->fifo)
		fh_os_widen_pipe(in->fd);
}

void fh_input_close(struct fh_input *in)
{
	if (in->fd < 0 || in->is_stdin)
		return;
	fh_os_close(in->fd);
	in->fd = -1;
	if (in->counted)
		atomic_fetch_sub_explicit(in->counted, 1, memory_order_relaxed);
}

int fh_fds_held(const struct fh_fds *fds)
{
	int n = atomic_load_explicit(&fds->held, memory_order_relaxed);

	for (unsigned i = 0; i < fds->nmeters; i++)
		n += atomic_load_explicit(&fds->meters[i].fds,
					  memory_order_relaxed);
	return n;
}

bool fh_fds_full(const struct fh_fds *fds, const struct fh_meter *mine)
{
	return atomic_load_explicit(&mine->fds, memory_order_relaxed) >= fds->share &&
	       fh_fds_held(fds) >= fds->limit;
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

ssize_t fh_input_try_read(struct fh_input *in, void *buf, size_t n,
			  uint64_t total, bool *eof)
{
	ssize_t got;

	if (!in->regular || in->is_stdin)
		return fh_input_read(in, buf, n, total, eof);
	got = fh_os_read_cached(in->fd, buf, n);
	if (got == -EAGAIN || (got < 0 && got != -ENOTSUP))
		return got;
	/* Some kernels (5.9, 5.10) return 0 before the end: trust a 0 only
	 * at the size the file had, and confirm it otherwise by waiting. */
	if (got < 0 || (got == 0 && total < in->size))
		return fh_input_read(in, buf, n, total, eof);
	*eof = got == 0 || ((size_t)got < n && total + (uint64_t)got >= in->size);
	return got;
}

int fh_input_check_end(const struct fh_input *in, uint64_t total)
{
	if (!fh_input_sized(in) || in->is_stdin || total >= in->size)
		return 0;
	int64_t now = fh_fd_size(in->fd);

	return now >= 0 && (uint64_t)now < in->size ? FH_ESHRANK : 0;
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

int fh_input_hash(struct fh_reader *r, struct fh_input *in,
		  const struct fh_algo *algo, const struct fh_kernel *kernel,
		  const struct fh_kernel *multi, const struct fh_hash_params *key,
		  uint8_t *out, size_t outlen, uint64_t *size)
{
	struct fh_hash_params p = key ? *key : (struct fh_hash_params){ 0 };
	fh_ctx ctx;
	int err = 0;

	*size = 0;
	p.outlen = outlen;
	if (!fh_init_params(&ctx, algo, kernel, &p)) {
		fh_input_close(in);
		return EINVAL;
	}
	if (algo->cv_bytes)
		fh_kt_init(&ctx, multi);
	/* A lone large input of a family whose slices combine (the CRCs)
	 * runs on every thread, each reading its own slice: on standard
	 * input from its offset, which is left at the end as reading would
	 * have left it. */
	off_t from = 0;

	if (fh_family_ops(algo->family)->combine && r->kt_threads > 1 && !r->seq &&
	    fh_input_sized(in) && in->size >= FH_SLICE_MIN &&
	    (!in->is_stdin || (from = lseek(in->fd, 0, SEEK_CUR)) >= 0) &&
	    (uint64_t)from <= in->size &&
	    in->size - (uint64_t)from >= FH_SLICE_MIN) {
		const struct fh_slicing how = { !r->no_mmap, r->feed, r->meter };

		err = fh_slices_hash(&ctx, in->fd, (uint64_t)from,
				     in->size - (uint64_t)from, r->kt_threads,
				     &how);
		if (!err && in->is_stdin &&
		    lseek(in->fd, (off_t)in->size, SEEK_SET) < 0)
			err = errno;
		if (!err) {
			*size = in->size - (uint64_t)from;
			fh_final(&ctx, out, outlen);
			err = fh_input_unchanged(in, out);
		}
		fh_input_close(in);
		return err;
	}
	if (fh_input_sized(in) && in->size >= FH_MAP_MIN) {
		off_t pos = in->is_stdin ? lseek(in->fd, 0, SEEK_CUR) : 0;
		off_t end = (off_t)in->size;

		/* Read, not mapped, a lone large KT input still has its
		 * team, each thread reading the leaves it claims, and one
		 * started alone may get one (its windows read); not at
		 * depth 1, whose disk wants one reader in order. */
		bool team_reads = r->no_mmap && !r->seq && fh_team_serves(algo) &&
				  (r->kt_threads > 1 || r->spare) &&
				  end - pos >= (off_t)FH_KT_TEAM_MIN;

		if (r->no_mmap)
			fh_os_read_sequential(in->fd);
		if ((!r->no_mmap || team_reads) && pos >= 0 &&
		    end - pos >= (off_t)FH_MAP_MIN) {
			unsigned slices = 0;
			const struct fh_mapping m = {
				.pop = r->pop,
				.meter = r->meter,
				.kt_threads = r->kt_threads,
				.spare = r->seq ? NULL : r->spare,
				.spare_arg = r->spare_arg,
				.slices = &slices,
				.feed = team_reads ? FH_FEED_READ : r->feed,
				.buf = r->buf,
				.bufsize = r->bufsize,
			};
			off_t start = pos;

			err = fh_window_hash(&m, in->fd, &ctx, &pos, end);
			/* Alone on a file whose slices combine, this thread
			 * stopped where others became free: the rest is
			 * sliced among them. */
			if (!err && slices) {
				const struct fh_slicing how = { !r->no_mmap, r->feed,
								r->meter };

				err = fh_slices_hash(&ctx, in->fd, (uint64_t)pos,
						     (uint64_t)(end - pos), slices,
						     &how);
				if (!err)
					pos = end;
			}
			*size = (uint64_t)(pos - start);
			/* Leave the offset where reading would have, and read
			 * on: the file may have grown meanwhile, or a window
			 * could not be mapped (a file system that cannot map,
			 * a refused mmap), and reading is the way from there,
			 * the size fstat gave still telling its end. */
			if ((!err || err == FH_ENOMAP) &&
			    lseek(in->fd, pos, SEEK_SET) < 0)
				err = errno;
			else if (err == FH_ENOMAP)
				err = 0;
			else if (!err) {
				int64_t now = fh_fd_size(in->fd);

				if (now >= 0 && now < pos)
					err = FH_ESHRANK;
				in->size = (uint64_t)pos;
			}
		}
	}
	if (!err)
		err = hash_read(r, in, &ctx, size);
	if (!err) {
		fh_final(&ctx, out, outlen);
		err = fh_input_unchanged(in, out);
	}
	fh_input_close(in);
	return err;
}

/* A candidate job (fh_job.cand) whose verdict is not known: IN read once
 * into a context per candidate, those the verdict rules out dropped as
 * soon as it is known, so that a large file pays for the others only
 * until a smaller one has settled the list.  D receives each
 * candidate's digest (OUTLEN bytes apart, each of its algorithm's
 * length); LIVE says which were finished, *SETTLED the verdict known
 * while IN was read that chose them, else NULL. */
static int hash_cands(struct fh_reader *r, struct fh_input *in,
		      const struct fh_candidates *c, size_t outlen, uint8_t *d,
		      bool *live, const struct fh_algo **settled,
		      uint64_t *size)
{
	const struct fh_algo *v = NULL;
	fh_ctx ctx[FH_CAND_MAX];
	int err;

	for (size_t i = 0; i < c->n; i++) {
		const struct fh_hash_params p = { .outlen = outlen };

		live[i] = true;
		fh_init_params(&ctx[i], c->algo[i], c->kernel[i], &p);
	}
	*size = 0;
	for (;;) {
		bool eof;
		ssize_t n = fh_input_read(in, r->buf, r->bufsize, *size, &eof);

		if (n < 0)
			return (int)-n;
		for (size_t i = 0; i < c->n; i++)
			if (live[i])
				fh_update(&ctx[i], r->buf, (size_t)n);
		*size += (uint64_t)n;
		fh_meter_add(r->meter, (uint64_t)n);
		if (!v && (v = atomic_load_explicit(&c->verdict,
						    memory_order_acquire))) {
			for (size_t i = 0; i < c->n; i++)
				live[i] = live[i] && c->algo[i] == v;
		}
		if (eof)
			break;
	}
	*settled = v;
	err = fh_input_check_end(in, *size);
	for (size_t i = 0; i < c->n && !err; i++)
		if (live[i])
			fh_final(&ctx[i], d + i * outlen,
				 c->algo[i]->xof ? outlen : c->algo[i]->digest_bytes);
	return err;
}

/* The index of ALGO among C's candidates. */
static int cand_index(const struct fh_candidates *c, const struct fh_algo *algo)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->algo[i] == algo)
			return (int)i;
	return 0;
}

/* Below this size a candidate job reads its file once for every
 * candidate at once; from it on, once a candidate (one_by_one). */
#define FH_CAND_ALONE_MIN (4u << 20)

/* Lists of one algorithm are the rule, and a length's lists mostly use
 * one of its candidates.  So a large file is hashed with one candidate
 * at a time, in C->order, each by the usual path (mapped, on a team
 * where the algorithm has one), on a descriptor of its own, until one
 * gives the digest listed (or is the verdict, known meanwhile): it is
 * then the job's, and the verdict (1).  When none does, D holds every
 * candidate's digest (1 too, J->chosen -1).  -1: not tried, or given up
 * for want of a descriptor (IN open at the file's start), or an error in
 * *ERR (IN closed). */
static int one_by_one(struct fh_reader *r, struct fh_input *in,
		      struct fh_job *j, uint8_t *d, int *err)
{
	struct fh_candidates *c = j->cand;
	bool done[FH_CAND_MAX] = { false };

	if (!j->expect || !in->regular || in->is_stdin ||
	    in->size < FH_CAND_ALONE_MIN)
		return -1;
	for (size_t k = 0; k < c->n; k++) {
		const struct fh_algo *v = atomic_load_explicit(&c->verdict,
							       memory_order_acquire);
		size_t i = c->order[k];

		if (v) {
			/* Settled by another file meanwhile: its digest. */
			i = (size_t)cand_index(c, v);
			if (done[i]) {
				fh_input_close(in);
				goto chosen;
			}
		}
		bool last = k + 1 == c->n || v;
		int again = last ? -1 : fcntl(in->fd, F_DUPFD_CLOEXEC, 0);

		/* No descriptor to spare: IN, at the file's start, is read
		 * once for every candidate (the caller's way). */
		if (!last && again < 0)
			return -1;
		struct fh_input next = *in;

		*err = fh_input_hash(r, in, c->algo[i], c->kernel[i], NULL, NULL,
				     d + i * j->outlen, j->outlen, &j->size);
		if (!*err && !last && lseek(again, 0, SEEK_SET) != 0)
			*err = errno;
		if (*err) {
			if (again >= 0)
				fh_os_close(again);
			return -1;
		}
		done[i] = true;
		if (v || memcmp(d + i * j->outlen, j->expect, j->outlen) == 0) {
			const struct fh_algo *none = NULL;

			if (again >= 0)
				fh_os_close(again);
			atomic_compare_exchange_strong(&c->verdict, &none, c->algo[i]);
chosen:
			j->chosen = (int)i;
			j->algo = c->algo[i];
			memcpy(j->digest, d + i * j->outlen, j->outlen);
			return 1;
		}
		if (last)
			break;
		next.fd = again;
		next.counted = NULL;
		*in = next;
	}
	/* None matched, and no verdict: every digest, ALGO the first. */
	j->algo = c->algo[0];
	memcpy(j->digest, d, c->n * j->outlen);
	return 1;
}

int fh_input_hash_job(struct fh_reader *r, struct fh_input *in,
		      struct fh_job *j)
{
	struct fh_candidates *c = j->cand;
	const struct fh_algo *v;
	uint8_t d[FH_CAND_MAX * FH_MAX_DIGEST];
	bool live[FH_CAND_MAX];
	int err = 0;

	j->chosen = -1;
	if (!c)
		return fh_input_hash(r, in, j->algo, j->kernel, j->multi,
				     j->key, j->digest, j->outlen, &j->size);
	v = atomic_load_explicit(&c->verdict, memory_order_acquire);
	if (v) {
		/* Settled already: the one algorithm, by the usual path. */
		j->chosen = cand_index(c, v);
		j->algo = v;
		return fh_input_hash(r, in, v, c->kernel[j->chosen], NULL,
				     NULL, j->digest, j->outlen, &j->size);
	}
	if (one_by_one(r, in, j, d, &err) == 1 || err)
		return err;
	err = hash_cands(r, in, c, j->outlen, d, live, &v, &j->size);
	if (!err && v) {
		/* The verdict chose while the file was read: its digest. */
		j->chosen = cand_index(c, v);
	}
	for (size_t i = 0; i < c->n && !err && j->chosen < 0; i++) {
		const struct fh_algo *none = NULL;

		if (live[i] && j->expect &&
		    memcmp(d + i * j->outlen, j->expect, j->outlen) == 0) {
			j->chosen = (int)i;
			atomic_compare_exchange_strong(&c->verdict, &none, c->algo[i]);
		}
	}
	if (!err && j->chosen >= 0) {
		j->algo = c->algo[j->chosen];
		memcpy(j->digest, d + (size_t)j->chosen * j->outlen, j->outlen);
	} else if (!err) {
		j->algo = c->algo[0];
		memcpy(j->digest, d, c->n * j->outlen);
	}
	if (!err)
		err = fh_input_unchanged(in, j->digest);
	fh_input_close(in);
	return err;
}
