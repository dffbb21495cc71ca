/* slices.c: one large CRC input on every thread (slices.h).  The file is
 * cut into as many slices as there are threads; each thread reads its
 * slice with pread into a buffer of its own and hashes it from a zeroed
 * state, so the copies out of the page cache run on every core as the
 * hashing does; the states then join in order through the family's
 * combine (a CRC's linearity).  The digest never depends on the threads. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "family.h"
#include "slices.h"

#define PIECE ((size_t)64 << 10) /* in L2, as input.h's FH_READ_SIZE */
#define MAX_THREADS 64

struct slice {
	fh_ctx ctx;
	int fd;
	uint64_t off, len;
	int err;
};

static void *hash_slice(void *arg)
{
	struct slice *s = arg;
	uint8_t *buf = malloc(PIECE);
	uint64_t off = s->off, left = s->len;

	if (!buf) {
		s->err = ENOMEM;
		return NULL;
	}
	while (left && !s->err) {
		size_t want = left < PIECE ? (size_t)left : PIECE;
		ssize_t got = pread(s->fd, buf, want, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			s->err = errno;
		else if (got == 0)
			s->err = FH_ESHRANK;
		else {
			fh_update(&s->ctx, buf, (size_t)got);
			off += (uint64_t)got;
			left -= (uint64_t)got;
		}
	}
	free(buf);
	return NULL;
}

int fh_slices_hash(fh_ctx *ctx, int fd, uint64_t size, unsigned threads)
{
	const struct fh_family_ops *ops = fh_family_ops(ctx->algo->family);
	struct slice *s;
	pthread_t tid[MAX_THREADS];
	unsigned n = threads > MAX_THREADS ? MAX_THREADS : threads ? threads : 1, started;
	uint64_t each;
	int err = 0;

	if (n > size / (FH_SLICE_MIN / 2))
		n = (unsigned)(size / (FH_SLICE_MIN / 2));
	if (n < 1)
		n = 1;
	if (!(s = calloc(n, sizeof *s)))
		return ENOMEM;
	each = size / n;
	for (unsigned i = 0; i < n; i++) {
		s[i].ctx = *ctx;
		/* A slice after the first starts from zero (family.h). */
		if (i)
			memset(&s[i].ctx.state, 0, sizeof s[i].ctx.state);
		s[i].fd = fd;
		s[i].off = each * i;
		s[i].len = i + 1 == n ? size - each * i : each;
	}
	for (started = 1; started < n; started++)
		if (pthread_create(&tid[started], NULL, hash_slice, &s[started]) != 0)
			break;
	/* Slices no thread took are this one's. */
	hash_slice(&s[0]);
	for (unsigned i = started; i < n; i++)
		hash_slice(&s[i]);
	for (unsigned i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	for (unsigned i = 0; i < n && !err; i++)
		err = s[i].err;
	if (!err) {
		*ctx = s[0].ctx;
		for (unsigned i = 1; i < n; i++)
			ops->combine(ctx->algo, &ctx->state, &s[i].ctx.state, s[i].len);
		ctx->total = size;
	}
	free(s);
	return err;
}
