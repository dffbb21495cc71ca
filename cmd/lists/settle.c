/* settle.c: the candidates of an untagged digest's length, and their
 * verdict (settle.h).  The reading is the engine's (fh_job.cand); here
 * only the second look at a file that did not match, on the caller's
 * thread. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel.h"
#include "settle.h"

size_t fh_settle_algos(size_t outlen, const struct fh_algo **out)
{
	size_t n = 0;

	for (int id = 0; id < FH_ALGO_COUNT && n < FH_CAND_MAX; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);

		if (a && fh_algo_untagged_as(a, outlen)) {
			if (out)
				out[n] = a;
			n++;
		}
	}
	return n;
}

/* The order a large file tries the N algorithms ALGOS of one length's
 * untagged digests in (fh_candidates.order): the cheap before the
 * common, where the cheap one costs a small part of the common one
 * (BLAKE3 before SHA-256, XXH128 before MD5), then the common (GNU's
 * programs'), then the rest (SHA-3's, which few lists use untagged) as
 * the table has them. */
static void try_order(const struct fh_algo *const *algos, size_t n, uint8_t *order)
{
	static const char *const first[] = {
		"xxh128", "md5", "sha1", "sha224", "blake3", "sha256",
		"sha384", "sha512", "blake2b", "xxh64", "xxh32",
	};
	bool taken[FH_CAND_MAX] = { false };
	size_t k = 0;

	for (size_t f = 0; f < sizeof first / sizeof *first; f++)
		for (size_t i = 0; i < n; i++)
			if (!taken[i] && strcmp(algos[i]->name, first[f]) == 0) {
				taken[i] = true;
				order[k++] = (uint8_t)i;
			}
	for (size_t i = 0; i < n; i++)
		if (!taken[i])
			order[k++] = (uint8_t)i;
}

void fh_settle_init(struct fh_settle *s, const struct cli *c)
{
	memset(s, 0, sizeof *s);
	s->c = c;
}

struct fh_candidates *fh_settle_for(struct fh_settle *s, size_t outlen, bool **probed)
{
	size_t i = 0;

	while (i < s->n && s->outlen[i] != outlen)
		i++;
	if (i == s->n) {
		const struct fh_algo *algos[FH_CAND_MAX];
		size_t n = fh_settle_algos(outlen, algos);

		if (n < 2 || s->n == FH_SETTLE_LENGTHS)
			return NULL;
		struct fh_candidates *k = &s->cand[s->n];

		k->n = n;
		try_order(algos, n, k->order);
		for (size_t j = 0; j < n; j++) {
			struct fh_job job = { .algo = algos[j] };

			fh_job_kernels(s->c, &job);
			k->algo[j] = algos[j];
			k->kernel[j] = job.kernel;
		}
		atomic_init(&k->verdict, NULL);
		s->outlen[s->n++] = outlen;
	}
	if (probed)
		*probed = &s->probed[i];
	return &s->cand[i];
}

const struct fh_algo *fh_settle_verdict(const struct fh_candidates *c)
{
	return atomic_load_explicit(&((struct fh_candidates *)c)->verdict,
				    memory_order_acquire);
}

void fh_settle_decide(struct fh_candidates *c, const struct fh_algo *algo)
{
	const struct fh_algo *none = NULL;

	atomic_compare_exchange_strong(&c->verdict, &none, algo);
}

bool fh_settle_readable(const char *name, uint64_t *size)
{
	struct stat st;

	if (strcmp(name, "-") == 0 || stat(name, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	*size = (uint64_t)st.st_size;
	return true;
}

const struct fh_algo *fh_settle_retry(const char *name, const struct fh_candidates *c,
				      const struct fh_algo *skip,
				      const uint8_t *expect, size_t outlen)
{
	/* O_NONBLOCK: a FIFO put in the file's place must not hold the run. */
	int fd = strcmp(name, "-") == 0 ? -1 : open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t cap = 1 << 16;
	uint8_t *buf = NULL;
	fh_ctx ctx[FH_CAND_MAX];
	const struct fh_algo *found = NULL;
	struct stat st;
	bool ok = true;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(buf = malloc(cap))) {
		close(fd);
		return NULL;
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->algo[i] != skip)
			fh_init_params(&ctx[i], c->algo[i], c->kernel[i],
				       &(struct fh_hash_params){ .outlen = outlen });
	for (;;) {
		ssize_t got = read(fd, buf, cap);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			ok = got == 0;
			break;
		}
		for (size_t i = 0; i < c->n; i++)
			if (c->algo[i] != skip)
				fh_update(&ctx[i], buf, (size_t)got);
	}
	for (size_t i = 0; i < c->n && ok && !found; i++) {
		uint8_t d[FH_MAX_DIGEST];

		if (c->algo[i] == skip)
			continue;
		fh_final(&ctx[i], d, outlen);
		if (memcmp(d, expect, outlen) == 0)
			found = c->algo[i];
	}
	free(buf);
	close(fd);
	return found;
}

void fh_settle_names(const struct fh_candidates *c, char *out, size_t n)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < c->n && at < n; i++)
		at += (size_t)snprintf(out + at, n - at, "%s%s",
				       i == 0 ? "" : i + 1 == c->n ? " or " : ", ",
				       c->algo[i]->name);
}
