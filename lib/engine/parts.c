/* parts.c: an input in parts, as S3 hashes a multipart upload (parts.h).
 * The parts are independent messages: a regular file's are claimed in
 * batches by THREADS threads, each batch mapped (or, where it cannot be,
 * read with pread into the thread's buffer) and hashed at once by
 * fh_hash_many, whose multi-buffer kernel runs one part per SIMD lane.  A
 * batch holds at most 64 MiB, so memory stays that per thread whatever
 * the file; parts larger than that are streamed through a context, a MiB
 * at a time.  Other inputs (pipes) are read in order, one part after
 * another. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "errors.h"
#include "guard.h"
#include "os.h"
#include "parts.h"

#define BATCH_BYTES ((uint64_t)64 << 20)
#define STREAM_BUF ((size_t)1 << 20)
/* Parts to a batch: the widest lanes there are (kernel.h's FH_MAX_LANES). */
#define BATCH_PARTS 32

struct run {
	int fd;
	uint64_t size, part, nparts;
	const struct fh_algo *algo;
	size_t db;              /* digest bytes */
	uint8_t *digests;       /* nparts * db */
	unsigned per_batch;
	bool map;               /* batches are mapped, not read */
	_Atomic uint64_t next;  /* the next batch to claim */
	_Atomic int err;
};

static int read_at(int fd, uint8_t *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t got = pread(fd, buf, n, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errno;
		if (got == 0)
			return FH_ESHRANK;
		buf += got;
		n -= (size_t)got;
		off += (uint64_t)got;
	}
	return 0;
}

/* Part I streamed through a context, for parts too large to batch. */
static int stream_part(struct run *r, uint64_t i, uint8_t *buf)
{
	uint64_t off = i * r->part;
	uint64_t left = off + r->part > r->size ? r->size - off : r->part;
	fh_ctx ctx;

	fh_init(&ctx, r->algo);
	while (left) {
		size_t n = left < STREAM_BUF ? (size_t)left : STREAM_BUF;
		int err = read_at(r->fd, buf, n, off);

		if (err)
			return err;
		fh_update(&ctx, buf, n);
		off += n;
		left -= n;
	}
	fh_final(&ctx, r->digests + i * r->db, r->db);
	return 0;
}

/* One batch for fh_hash_many: N parts, their bytes at DATA[k]. */
struct batch {
	const struct run *r;
	uint64_t first, n, bytes;
	const uint8_t *p;
};

static void hash_batch(void *arg)
{
	const struct batch *b = arg;
	const struct run *r = b->r;
	const void *data[BATCH_PARTS];
	size_t len[BATCH_PARTS];

	for (uint64_t k = 0; k < b->n; k++) {
		uint64_t start = k * r->part;

		data[k] = b->p + start;
		len[k] = (size_t)(start + r->part > b->bytes ? b->bytes - start : r->part);
	}
	fh_hash_many(r->algo, (size_t)b->n, data, len,
		     r->digests + b->first * r->db, r->db);
}

/* Batch B (its P unset), at OFF of the file, hashed from a mapping: no
 * copy out of the page cache, which into a 64 MiB buffer, far past the
 * caches, cost three to five times the read itself (1 GiB in 8 MiB parts,
 * MD5: 0.7 to 1.3 s of system time with the file in 4 KiB folios,
 * against 0.2 s for reads into a buffer that stays in L2; AMD Zen 3).
 * False when it could not be mapped or a page of it could not be had:
 * the batch is then read, and the read tells the error. */
static bool hash_mapped(struct batch *b, int fd, uint64_t off)
{
	const long page = sysconf(_SC_PAGESIZE);
	off_t base = (off_t)off & ~(off_t)(page - 1);
	size_t skip = (size_t)((off_t)off - base), maplen = skip + (size_t)b->bytes;
	void *map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, base);
	bool ok;

	if (map == MAP_FAILED)
		return false;
	/* A hint: a page that cannot be had is met by the hashing. */
	fh_os_populate(map, maplen);
	b->p = (const uint8_t *)map + skip;
	ok = fh_guard_run(map, maplen, hash_batch, b);
	munmap(map, maplen);
	return ok;
}

static void *worker(void *arg)
{
	struct run *r = arg;
	size_t cap = r->per_batch ? (size_t)(r->per_batch * r->part) : STREAM_BUF;
	uint8_t *buf = NULL;

	for (;;) {
		uint64_t per = r->per_batch ? r->per_batch : 1;
		uint64_t first = atomic_fetch_add(&r->next, 1) * per;

		if (first >= r->nparts || atomic_load(&r->err))
			break;
		uint64_t n = first + per > r->nparts ? r->nparts - first : per;
		uint64_t off = first * r->part;
		uint64_t bytes = off + n * r->part > r->size ? r->size - off : n * r->part;
		struct batch b = { r, first, n, bytes, NULL };

		if (r->per_batch && r->map && bytes && hash_mapped(&b, r->fd, off))
			continue;
		if (!buf && !(buf = malloc(cap ? cap : 1))) {
			atomic_store(&r->err, ENOMEM);
			break;
		}
		if (!r->per_batch) {
			int err = stream_part(r, first, buf);

			if (err)
				atomic_store(&r->err, err);
			continue;
		}
		int err = read_at(r->fd, buf, (size_t)bytes, off);

		if (err) {
			atomic_store(&r->err, err);
			break;
		}
		b.p = buf;
		hash_batch(&b);
	}
	free(buf);
	return NULL;
}

static int regular_parts(struct run *r, unsigned threads)
{
	pthread_t tid[256];
	unsigned started = 0;

	r->per_batch = r->part <= BATCH_BYTES
			       ? (unsigned)(BATCH_BYTES / r->part < BATCH_PARTS
						    ? BATCH_BYTES / r->part : BATCH_PARTS)
			       : 0;
	if (threads > 256)
		threads = 256;
	/* No thread more than there are batches. */
	uint64_t batches = r->per_batch ? (r->nparts + r->per_batch - 1) / r->per_batch
					: r->nparts;

	if (threads > batches)
		threads = (unsigned)batches;
	while (started + 1 < threads &&
	       pthread_create(&tid[started], NULL, worker, r) == 0)
		started++;
	worker(r);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	return atomic_load(&r->err);
}

/* A stream's parts, in order. */
static int stream_parts(struct run *r, uint64_t *total)
{
	uint8_t *buf = malloc(STREAM_BUF);
	size_t cap = 16 * r->db, used = 0;
	uint64_t in_part = 0;
	fh_ctx ctx;
	int err = 0;

	r->digests = malloc(cap);
	if (!buf || !r->digests) {
		free(buf);
		return ENOMEM;
	}
	*total = 0;
	r->nparts = 0;
	fh_init(&ctx, r->algo);
	for (;;) {
		ssize_t got = read(r->fd, buf, STREAM_BUF);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno;
			break;
		}
		if (got == 0)
			break;
		for (size_t at = 0; at < (size_t)got;) {
			size_t n = (size_t)got - at;

			if (n > r->part - in_part)
				n = (size_t)(r->part - in_part);
			fh_update(&ctx, buf + at, n);
			at += n;
			in_part += n;
			*total += n;
			if (in_part < r->part)
				continue;
			/* A part is complete: its digest joins the others. */
			if (r->nparts == FH_PARTS_MAX) {
				err = EFBIG;
				goto out;
			}
			if (used + r->db > cap) {
				uint8_t *d = realloc(r->digests, cap * 2);

				if (!d) {
					err = ENOMEM;
					goto out;
				}
				r->digests = d;
				cap *= 2;
			}
			fh_final(&ctx, r->digests + used, r->db);
			used += r->db;
			r->nparts++;
			in_part = 0;
			fh_init(&ctx, r->algo);
		}
	}
	if (!err && (in_part || r->nparts == 0)) {
		if (r->nparts == FH_PARTS_MAX && in_part) {
			err = EFBIG;
		} else if (used + r->db > cap && !(r->digests = realloc(r->digests, cap + r->db))) {
			err = ENOMEM;
		} else {
			fh_final(&ctx, r->digests + used, r->db);
			r->nparts++;
		}
	}
out:
	free(buf);
	return err;
}

int fh_parts_hash(int fd, bool regular, uint64_t size, const struct fh_algo *algo,
		  uint64_t part, unsigned threads, bool no_mmap, uint8_t *out,
		  uint64_t *nparts, uint64_t *total)
{
	struct run r = { .fd = fd, .size = size, .part = part, .algo = algo,
			 .db = algo->digest_bytes, .map = !no_mmap };
	int err;

	atomic_init(&r.next, 0);
	atomic_init(&r.err, 0);
	if (part == 0)
		return EINVAL;
	if (regular) {
		r.nparts = size ? (size + part - 1) / part : 1;
		if (r.nparts > FH_PARTS_MAX)
			return EFBIG;
		r.digests = malloc(r.nparts * r.db);
		if (!r.digests)
			return ENOMEM;
		if (r.map)
			fh_guard_init();
		err = regular_parts(&r, threads ? threads : 1);
		*total = size;
	} else {
		err = stream_parts(&r, total);
		size = *total;
	}
	if (!err) {
		/* One plain upload below the part size: its digest alone. */
		if (size < part) {
			memcpy(out, r.digests, r.db);
			*nparts = 0;
		} else {
			fh_hash(algo, r.digests, r.nparts * r.db, out, r.db);
			*nparts = r.nparts;
		}
	}
	free(r.digests);
	return err;
}
