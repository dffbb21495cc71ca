/* test_lanes.c: the engine's multi-buffer lanes, driven through
 * fh_engine_run with stand-in multi-buffer kernels (the portable kernels
 * looped over the lanes), so the job manager itself is tested on any CPU:
 * uneven lengths, empty and one-block files, refills, lanes of mixed
 * algorithms, a lone large file handed to the single-stream kernel,
 * errors, and order, for several thread counts, and with the files out of
 * the page cache (lanes waiting for the disk).  Then the lanes alone:
 * an input that shares them with another until that one ends, at every
 * block, and goes on alone on the single-stream kernel, for every
 * algorithm family and several rates; a stop that leaves the lanes
 * one begun input to finish; and the count of descriptors held.  Every
 * digest is compared with a one-shot hash of the file's bytes.
 *
 * With a kernel's name (test_lanes sha256-avx2x8), the same for one of the
 * real SHA-1, SHA-256, SHA-512 or BLAKE2b multi-buffer kernels (BLAKE2b's
 * digests of 64 and 32 bytes, in turn: its length is a parameter that
 * changes the start; its files of whole blocks end on the block that
 * its lanes must leave to the last compression), against the
 * portable single-stream kernel: the engine's lanes over every length up
 * to past two blocks (both paddings: one block, or two where the tail
 * leaves no room for the length) and a few large files; migration at
 * every block for a message whose padding fits its last block and one
 * whose padding needs a second; and every lane of the kernel busy at
 * once with inputs of uneven lengths and both paddings.  Exit 77 where the kernel is not built or
 * this CPU cannot run it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "input.h"
#include "kernel.h"
#include "lanes.h"

#define LANES 4

static void md5_x4(uint32_t (*states)[4], const uint8_t *const *data,
		   size_t nblocks)
{
	for (unsigned i = 0; i < LANES; i++)
		fh_md5_blocks_of(&fh_md5_portable)(states[i], data[i], nblocks);
}

static void keccak_x4(uint64_t (*states)[25], const uint8_t *const *data,
		      size_t nblocks, size_t rate, unsigned rounds)
{
	for (unsigned i = 0; i < LANES; i++)
		fh_keccak_absorb_of(&fh_keccak_portable)(states[i], data[i], nblocks,
						 rate, rounds);
}

static const struct fh_kernel md5_lanes = {
	.name = "md5-test-x4", .family = FH_FAMILY_MD5, .lanes = LANES,
	.blocks_xn = FH_KERNEL_FN(fh_md5_blocks_xn_fn, md5_x4),
};
static const struct fh_kernel keccak_lanes = {
	.name = "keccak-test-x4", .family = FH_FAMILY_KECCAK, .lanes = LANES,
	.blocks_xn = FH_KERNEL_FN(fh_keccak_absorb_xn_fn, keccak_x4),
};

enum { NFILES = 160 };

struct run {
	char paths[NFILES + 2][64];
	size_t sizes[NFILES + 2];
	size_t next, seen, failed;
	bool multi_only;
	int mix; /* 0: all md5, 1: all sha3-256, 2: mixed algorithms,
		  * 3: all blake3, 4: all blake2b (on this CPU's multi-buffer
		  * kernels, inputs ending in the lanes together) */
};

static const struct fh_algo *algo_of(const struct run *r, size_t i)
{
	static const enum fh_algo_id mixed[] = { FH_MD5, FH_SHA3_256, FH_SHAKE128,
						 FH_SHA3_512, FH_MD5 };

	if (r->mix == 0)
		return fh_algo_get(FH_MD5);
	if (r->mix == 1)
		return fh_algo_get(FH_SHA3_256);
	if (r->mix == 3)
		return fh_algo_get(FH_BLAKE3);
	if (r->mix == 4)
		return fh_algo_get(FH_BLAKE2B);
	return fh_algo_get(mixed[i % 5]);
}

static bool next(void *ctx, struct fh_job *job)
{
	struct run *r = ctx;
	const struct fh_algo *a;

	if (r->next == NFILES + 2)
		return false;
	a = algo_of(r, r->next);
	job->path = r->paths[r->next];
	job->algo = a;
	job->kernel = fh_kernel_best(a->family);
	job->multi = a->family == FH_FAMILY_MD5	    ? &md5_lanes
		   : a->family == FH_FAMILY_KECCAK ? &keccak_lanes
						   : fh_kernel_best_multi(a->family);
	job->multi_only = r->multi_only && job->multi;
	/* Inputs ending together in the lanes are finished together only
	 * with one output length (BLAKE3's: 32 bytes at most), so one in
	 * four asks for another. */
	job->outlen = a->family == FH_FAMILY_BLAKE3  ? (r->next % 4 == 3 ? 40 : 32)
		    : a->family == FH_FAMILY_BLAKE2B ? (r->next % 4 == 3 ? 32 : 64)
		    : a->xof			     ? 40
						     : a->digest_bytes;
	job->user = (void *)(uintptr_t)r->next;
	r->next++;
	return true;
}

static uint8_t *slurp(const char *path, size_t size)
{
	uint8_t *p = malloc(size ? size : 1);
	FILE *f = fopen(path, "rb");

	if (!p || !f || fread(p, 1, size, f) != size) {
		fprintf(stderr, "cannot read back %s\n", path);
		exit(1);
	}
	fclose(f);
	return p;
}

static void done(void *ctx, struct fh_job *job)
{
	struct run *r = ctx;
	size_t i = (size_t)(uintptr_t)job->user;
	uint8_t want[64];

	if (i != r->seen) {
		fprintf(stderr, "FAIL job %zu handed back as number %zu\n", i, r->seen);
		r->failed++;
	}
	r->seen++;
	if (i >= NFILES) { /* the missing file and the directory */
		int want_err = i == NFILES ? ENOENT : EISDIR;

		if (job->err != want_err) {
			fprintf(stderr, "FAIL %s: error %d, want %d\n", job->path,
				job->err, want_err);
			r->failed++;
		}
		return;
	}
	uint8_t *data = slurp(job->path, r->sizes[i]);

	fh_hash(job->algo, data, r->sizes[i], want, job->outlen);
	free(data);
	if (job->err || job->size != r->sizes[i] ||
	    memcmp(want, job->digest, job->outlen) != 0) {
		fprintf(stderr, "FAIL %s (%s, %zu bytes, threads/mix/only): err %d, size %llu, digest %s\n",
			job->path, job->algo->name, r->sizes[i], job->err,
			(unsigned long long)job->size,
			job->err ? "-" : "differs");
		r->failed++;
	}
}

/* The reference: ALGO over DATA on its family's portable kernel. */
static void portable_hash(const struct fh_algo *a, const uint8_t *data,
			  size_t len, uint8_t *out, size_t outlen)
{
	const struct fh_hash_params p = { .outlen = outlen };
	fh_ctx ctx;

	fh_init_params(&ctx, a, fh_kernel_portable(a->family), &p);
	fh_update(&ctx, data, len);
	fh_final(&ctx, out, outlen);
}

/* Lane migration. */

struct migration {
	struct fh_job job[2];
	uint8_t digest[2][64];
	int finished;
};

static void migration_done(void *arg, void *tag)
{
	struct migration *m = arg;

	(void)tag;
	m->finished++;
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(1);
	}
}

/* JOB's file into lanes L: WHAT and I name it in a failure. */
static void take(struct fh_lanes *l, struct fh_job *job, const char *what,
		 unsigned i)
{
	struct fh_input in;

	if (!l || fh_input_open(job->path, &in, NULL) != 0 ||
	    !fh_lanes_take(l, job, NULL, &in, false)) {
		fprintf(stderr, "FAIL %s setup, input %u\n", what, i);
		exit(1);
	}
}

/* Input A (LEN bytes of DATA) shares the lanes with input B of K whole
 * blocks and a few bytes; once B ends nothing waits, so A moves to the
 * single-stream kernel after exactly K blocks in the lanes.  For every K
 * from 0 to A's blocks, A's digest must be the one-shot's.  Returns the
 * failures. */
static size_t migrate_at_every_block(const char *dir, const struct fh_algo *a,
				     const struct fh_kernel *multi, bool fixed,
				     const uint8_t *data, size_t len)
{
	size_t block = a->block_bytes, outlen = a->xof ? 40 : a->digest_bytes;
	uint8_t want[64];
	char pa[128], pb[128];
	size_t failed = 0;

	portable_hash(a, data, len, want, outlen);
	snprintf(pa, sizeof pa, "%s/migrate-a", dir);
	snprintf(pb, sizeof pb, "%s/migrate-b", dir);
	write_file(pa, data, len);
	for (size_t k = 0; k <= len / block; k++) {
		struct migration m = { .finished = 0 };
		struct fh_lanes *l = fh_lanes_new(migration_done, &m, NULL, NULL);

		write_file(pb, data + 3, k * block + 5);
		for (int i = 0; i < 2; i++) {
			m.job[i] = (struct fh_job){
				.path = i ? pb : pa, .algo = a,
				.kernel = fh_kernel_best(a->family), .multi = multi,
				.multi_only = fixed, .outlen = outlen,
				.digest = m.digest[i],
			};
			take(l, &m.job[i], "migration", (unsigned)i);
		}
		while (fh_lanes_busy(l))
			fh_lanes_step(l, false);
		if (m.finished != 2 || m.job[0].err || m.job[0].size != len ||
		    memcmp(m.digest[0], want, outlen) != 0) {
			fprintf(stderr, "FAIL %s on %s: migration after %zu blocks of %zu "
				"(%zu bytes): err %d, size %llu, digest %s\n", a->name,
				multi->name, k, len / block, len,
				m.job[0].err, (unsigned long long)m.job[0].size,
				memcmp(m.digest[0], want, outlen) ? "differs" : "right");
			failed++;
		}
		fh_lanes_free(l);
	}
	unlink(pa);
	unlink(pb);
	return failed;
}

/* One real SHA multi-buffer kernel in the lanes. */

/* Every lane of MULTI busy at once (and only MULTI: the job is fixed to
 * it), each input of a different length, so that lanes end one by one
 * and each tail needs one padding block or two; ROUNDS rounds shift the
 * lengths across the lanes.  Every digest against the portable kernel's.
 * Returns the failures. */
static size_t every_lane_busy(const char *dir, const struct fh_algo *a,
			      const struct fh_kernel *multi, unsigned rounds)
{
	size_t block = a->block_bytes, failed = 0;
	unsigned n = multi->lanes;
	size_t maxlen = (n + rounds + 2) * block * 3;
	uint8_t *data = malloc(maxlen);

	for (size_t j = 0; j < maxlen; j++)
		data[j] = (uint8_t)(j * 13 + (j >> 7));
	for (unsigned r = 0; r < rounds; r++) {
		struct migration m = { .finished = 0 };
		struct fh_lanes *l = fh_lanes_new(migration_done, &m, NULL, NULL);
		struct fh_job job[FH_MAX_LANES];
		uint8_t digest[FH_MAX_LANES][64], want[64];
		size_t len[FH_MAX_LANES];
		char path[FH_MAX_LANES][128];

		for (unsigned i = 0; i < n; i++) {
			/* Tails of 0, 5, block - 9 (two blocks of padding for
			 * every family) and block - 1 bytes, in turn. */
			static const int tails[] = { 0, 5, -9, -1 };
			int t = tails[(i + r) % 4];

			len[i] = (i + r) % (n + 2) * 3 * block + (size_t)(t < 0 ? (int)block + t : t);
			snprintf(path[i], sizeof path[i], "%s/lane%02u", dir, i);
			write_file(path[i], data + i, len[i]);
			job[i] = (struct fh_job){
				.path = path[i], .algo = a,
				.kernel = fh_kernel_best(a->family), .multi = multi,
				.multi_only = true, .outlen = a->digest_bytes,
				.digest = digest[i],
			};
			take(l, &job[i], "lanes", i);
		}
		while (fh_lanes_busy(l))
			fh_lanes_step(l, false);
		for (unsigned i = 0; i < n; i++) {
			portable_hash(a, data + i, len[i], want, a->digest_bytes);
			if (job[i].err || job[i].size != len[i] ||
			    memcmp(digest[i], want, a->digest_bytes) != 0) {
				fprintf(stderr, "FAIL %s on %s, lane %u of %u busy, %zu bytes: "
					"err %d, digest %s\n", a->name, multi->name, i, n,
					len[i], job[i].err,
					job[i].err ? "-" : "differs");
				failed++;
			}
			unlink(path[i]);
		}
		if ((unsigned)m.finished != n) {
			fprintf(stderr, "FAIL %s: %d of %u inputs finished\n",
				multi->name, m.finished, n);
			failed++;
		}
		fh_lanes_free(l);
	}
	free(data);
	return failed;
}

/* The run stops while the lanes hold begun inputs of 200, 150, 300 and
 * 250 KiB: they go on for the one with the fewest bytes left (150 KiB)
 * and a fifth, taken after the stop, is never read; the others end with
 * ECANCELED.  The one finished must have its one-shot digest.  Returns
 * the failures. */
static size_t stop_keeps_one(const char *dir)
{
	static const size_t kib[] = { 200, 150, 300, 250, 100 };
	enum { N = sizeof kib / sizeof kib[0], KEEP = 1 };
	const struct fh_algo *a = fh_algo_get(FH_MD5);
	_Atomic bool stop = false;
	struct migration m = { .finished = 0 };
	struct fh_lanes *l = fh_lanes_new(migration_done, &m, NULL, &stop);
	struct fh_job job[N];
	uint8_t digest[N][64], want[64];
	char path[N][128];
	size_t failed = 0, len = kib[KEEP] << 10;
	/* Input I is the bytes from I on. */
	uint8_t *data = malloc((300u << 10) + N);

	for (size_t j = 0; j < (300u << 10) + N; j++)
		data[j] = (uint8_t)(j * 29 + (j >> 11));
	for (unsigned i = 0; i < N; i++) {
		snprintf(path[i], sizeof path[i], "%s/stop%u", dir, i);
		write_file(path[i], data + i, kib[i] << 10);
		job[i] = (struct fh_job){
			.path = path[i], .algo = a, .kernel = fh_kernel_best(a->family),
			.multi = &md5_lanes, .outlen = a->digest_bytes,
			.digest = digest[i], .err = -1,
		};
		if (i == N - 1) {
			/* Every lane has read its first chunk: then the stop. */
			fh_lanes_step(l, true);
			atomic_store(&stop, true);
			while (fh_lanes_busy(l) && !fh_lanes_room(l, &job[i]))
				fh_lanes_step(l, true);
		}
		take(l, &job[i], "stop", i);
	}
	while (fh_lanes_busy(l))
		fh_lanes_step(l, false);
	portable_hash(a, data + KEEP, len, want, a->digest_bytes);
	for (unsigned i = 0; i < N; i++) {
		int wanted = i == KEEP ? 0 : ECANCELED;

		if (job[i].err != wanted ||
		    (i == KEEP && (job[i].size != len ||
				   memcmp(digest[i], want, a->digest_bytes) != 0)) ||
		    (i == N - 1 && job[i].size != 0)) {
			fprintf(stderr, "FAIL stop: input %u of %zu KiB: err %d (want %d), "
				"%llu bytes read\n", i, kib[i], job[i].err, wanted,
				(unsigned long long)job[i].size);
			failed++;
		}
		unlink(path[i]);
	}
	if (m.finished != N) {
		fprintf(stderr, "FAIL stop: %d of %d jobs handed back\n", m.finished, N);
		failed++;
	}
	fh_lanes_free(l);
	free(data);
	return failed;
}

enum { SHA_SHORT = 300, SHA_FILES = SHA_SHORT + 3 };

struct sha_run {
	const struct fh_kernel *multi;
	const struct fh_algo *algo[2];  /* the family's algorithms, alternating */
	char paths[SHA_FILES][64];
	size_t sizes[SHA_FILES];
	size_t next, seen, failed;
	bool multi_only;
};

static bool sha_next(void *ctx, struct fh_job *job)
{
	struct sha_run *r = ctx;
	const struct fh_algo *a;

	if (r->next == SHA_FILES)
		return false;
	a = r->algo[r->next % 2];
	job->path = r->paths[r->next];
	job->algo = a;
	job->kernel = fh_kernel_best(a->family);
	job->multi = r->multi;
	job->multi_only = r->multi_only;
	job->outlen = a->digest_bytes;
	if (a->family == FH_FAMILY_BLAKE2B && r->next % 2)
		job->outlen = 32;
	job->user = (void *)(uintptr_t)r->next;
	r->next++;
	return true;
}

static void sha_done(void *ctx, struct fh_job *job)
{
	struct sha_run *r = ctx;
	size_t i = (size_t)(uintptr_t)job->user;
	uint8_t want[64];

	if (i != r->seen++) {
		fprintf(stderr, "FAIL job %zu handed back out of order\n", i);
		r->failed++;
		return;
	}
	uint8_t *data = slurp(job->path, r->sizes[i]);

	portable_hash(job->algo, data, r->sizes[i], want, job->outlen);
	free(data);
	if (job->err || job->size != r->sizes[i] ||
	    memcmp(want, job->digest, job->outlen) != 0) {
		fprintf(stderr, "FAIL %s on %s%s, %zu bytes: err %d, size %llu, digest %s\n",
			job->algo->name, r->multi->name,
			r->multi_only ? " only" : "", r->sizes[i], job->err,
			(unsigned long long)job->size, job->err ? "-" : "differs");
		r->failed++;
	}
}

static int sha_lanes(const char *name)
{
	const struct fh_kernel *k = fh_kernel_by_name(name);
	static struct sha_run r;
	char dir[] = "/tmp/fh-lanes-sha.XXXXXX";
	size_t failed = 0, runs = 0, checks = 0;
	enum fh_algo_id ids[2];

	if (!k) {
		printf("SKIP %s: not built for this ISA\n", name);
		return 77;
	}
	switch (k->family) {
	case FH_FAMILY_SHA1: ids[0] = ids[1] = FH_SHA1; break;
	case FH_FAMILY_SHA256: ids[0] = FH_SHA256; ids[1] = FH_SHA224; break;
	case FH_FAMILY_SHA512: ids[0] = FH_SHA512; ids[1] = FH_SHA384; break;
	case FH_FAMILY_BLAKE2B: ids[0] = ids[1] = FH_BLAKE2B; break;
	default:
		fprintf(stderr, "%s is no SHA or BLAKE2b kernel\n", name);
		return 1;
	}
	if (k->lanes < 2) {
		fprintf(stderr, "%s is no multi-buffer kernel\n", name);
		return 1;
	}
	if (!fh_kernel_usable(k)) {
		printf("SKIP %s: this CPU cannot run it\n", name);
		return 77;
	}
	if (!mkdtemp(dir))
		return 1;
	r.multi = k;
	for (int i = 0; i < 2; i++)
		r.algo[i] = fh_algo_get(ids[i]);
	/* Every length from 0 to past two 128-byte blocks, then files that
	 * take many blocks, one larger than FH_MAP_MIN. */
	for (size_t i = 0; i < SHA_FILES; i++) {
		static const size_t large[] = { 100000 + 119, 300000 + 55,
						(3u << 19) + 112 };
		size_t size = i < SHA_SHORT ? i : large[i - SHA_SHORT];
		uint8_t *buf = malloc(size ? size : 1);

		for (size_t j = 0; j < size; j++)
			buf[j] = (uint8_t)(j * 151 + i * 7 + (j >> 8));
		snprintf(r.paths[i], sizeof r.paths[i], "%s/s%03zu", dir, i);
		write_file(r.paths[i], buf, size);
		free(buf);
		r.sizes[i] = size;
	}
	for (unsigned threads = 1; threads <= 2; threads++)
		for (int only = 0; only < 2; only++) {
			struct fh_engine_opts o = { .threads = threads, .lanes = true };

			r.next = r.seen = r.failed = 0;
			r.multi_only = only;
			if (fh_engine_run(&o, sha_next, sha_done, &r) != 0 ||
			    r.seen != SHA_FILES) {
				fprintf(stderr, "FAIL run: %zu jobs back\n", r.seen);
				r.failed++;
			}
			if (r.failed)
				fprintf(stderr, "  in run threads=%u multi_only=%d\n",
					threads, only);
			failed += r.failed;
			runs++;
		}
	for (size_t i = 0; i < SHA_FILES; i++)
		unlink(r.paths[i]);

	/* Migration at every block (two inputs busy: the kernel's table
	 * may run them on a narrower sibling, then the lone one goes on on
	 * the single-stream kernel), the tail of the message leaving room
	 * for the padding in its last block (5 bytes) and not (block - 5:
	 * past 55 of 64, or 111 of 128, a second block holds the length). */
	const struct fh_algo *a = r.algo[0];
	size_t block = a->block_bytes;
	size_t lens[2] = { (16u << 10) + 5, (16u << 10) + block - 5 };
	uint8_t *mdata = malloc(lens[1]);

	for (size_t j = 0; j < lens[1]; j++)
		mdata[j] = (uint8_t)(j * 7 + (j >> 9));
	for (int i = 0; i < 2; i++) {
		failed += migrate_at_every_block(dir, a, k, false, mdata, lens[i]);
		checks += lens[i] / block + 1;
	}
	free(mdata);
	for (int i = 0; i < 2; i++)
		failed += every_lane_busy(dir, r.algo[i], k, 8);
	rmdir(dir);
	printf("lanes %s: %zu runs of %d jobs, %zu migrations checked, %zu failures\n",
	       name, runs, SHA_FILES, checks, failed);
	return failed ? 1 : 0;
}

/* Descriptors are counted where they were opened and uncounted there at
 * close, whoever closes them; a thread under its share of the limit opens
 * without asking the others' counts, and one at its share stops only
 * when all together hold the limit.  Returns the failures. */
static size_t descriptors_counted(const char *dir)
{
	struct fh_meter m[3] = { 0 };
	struct fh_fds fds = { .limit = 8, .share = 2, .meters = m, .nmeters = 3 };
	struct fh_input a, b;
	char path[64];
	size_t failed = 0;

	snprintf(path, sizeof path, "%s/counted", dir);
	write_file(path, (const uint8_t *)"x", 1);
	if (fh_input_open(path, &a, &fds.held) != 0 ||
	    fh_input_open(path, &b, &m[1].fds) != 0)
		return 1;
	if (atomic_load(&fds.held) != 1 || atomic_load(&m[1].fds) != 1 ||
	    fh_fds_held(&fds) != 2) {
		fprintf(stderr, "FAIL descriptors: %d and %d counted, %d in all\n",
			atomic_load(&fds.held), atomic_load(&m[1].fds),
			fh_fds_held(&fds));
		failed++;
	}
	fh_input_close(&a);
	fh_input_close(&a);     /* closed already: nothing to uncount */
	fh_input_close(&b);
	if (atomic_load(&fds.held) != 0 || atomic_load(&m[1].fds) != 0) {
		fprintf(stderr, "FAIL descriptors: %d and %d left counted\n",
			atomic_load(&fds.held), atomic_load(&m[1].fds));
		failed++;
	}
	unlink(path);

	/* Thread 1 holds 1, under its share; thread 2 holds 5. */
	atomic_store(&fds.held, 3);
	atomic_store(&m[1].fds, 1);
	atomic_store(&m[2].fds, 5);
	bool full_1 = fh_fds_full(&fds, &m[1]), full_2 = fh_fds_full(&fds, &m[2]);

	atomic_store(&fds.held, 1);
	bool full_2_under = fh_fds_full(&fds, &m[2]);

	if (full_1 || !full_2 || full_2_under) {
		fprintf(stderr, "FAIL descriptors: full %d %d at 9 of 8, %d at 7\n",
			full_1, full_2, full_2_under);
		failed++;
	}
	return failed;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return sha_lanes(argv[1]);

	char dir[] = "/tmp/fh-lanes.XXXXXX";
	static struct run r;
	uint64_t seed = 12345;
	size_t runs = 0, failed = 0;

	if (!mkdtemp(dir))
		return 1;
	for (size_t i = 0; i < NFILES; i++) {
		/* Sizes around the block sizes, and a few over FH_MAP_MIN. */
		static const size_t base[] = { 0, 1, 63, 64, 65, 135, 136, 137, 168,
					       4096, 100000, 300000 };
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		size_t size = i % 40 == 39 ? (3u << 19) + (seed >> 50)
			    : base[i % 12] + (i % 3 == 0 ? (seed >> 56) : 0);
		uint8_t *buf = malloc(size ? size : 1);
		FILE *f;

		for (size_t j = 0; j < size; j++)
			buf[j] = (uint8_t)(j * 131 + i);
		snprintf(r.paths[i], sizeof r.paths[i], "%s/f%03zu", dir, i);
		f = fopen(r.paths[i], "wb");
		if (!f || fwrite(buf, 1, size, f) != size || fclose(f) != 0)
			return 1;
		free(buf);
		r.sizes[i] = size;
	}
	snprintf(r.paths[NFILES], sizeof r.paths[0], "%s/missing", dir);
	snprintf(r.paths[NFILES + 1], sizeof r.paths[0], "%s", dir);

	for (unsigned threads = 1; threads <= 3; threads++)
		for (int mix = 0; mix < 5; mix++)
			for (int only = 0; only < 2; only++) {
				struct fh_engine_opts o = { .threads = threads, .lanes = true };

				r.next = r.seen = r.failed = 0;
				r.mix = mix;
				r.multi_only = only;
				if (fh_engine_run(&o, next, done, &r) != 0 || r.seen != NFILES + 2) {
					fprintf(stderr, "FAIL run: %zu jobs back\n", r.seen);
					r.failed++;
				}
				if (r.failed)
					fprintf(stderr, "  in run threads=%u mix=%d multi_only=%d\n",
						threads, mix, only);
				failed += r.failed;
				runs++;
			}
	/* The same files out of the page cache (written back, then dropped
	 * with POSIX_FADV_DONTNEED, which any user may do to his own files):
	 * lanes whose next block is still on its way from the disk wait
	 * while the others go on, and every digest must still be right. */
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < NFILES; i++) {
			int fd = open(r.paths[i], O_RDONLY);

			if (fd >= 0) {
				fsync(fd);
#ifdef POSIX_FADV_DONTNEED  /* macOS has no fadvise: cached there */
				posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#endif
				close(fd);
			}
		}
		struct fh_engine_opts o = { .threads = 2, .lanes = true };

		r.next = r.seen = r.failed = 0;
		r.mix = round ? 2 : 0;
		r.multi_only = round;
		if (fh_engine_run(&o, next, done, &r) != 0 || r.seen != NFILES + 2)
			r.failed++;
		if (r.failed)
			fprintf(stderr, "  in the run over files out of the cache, mix %d\n",
				r.mix);
		failed += r.failed;
		runs++;
	}

	/* Migration at every block, past a lane buffer's refills (16 to 32
	 * KiB), for each family and rates from 72 to 168 bytes. */
	static const enum fh_algo_id migrating[] = { FH_MD5, FH_SHA3_256,
						     FH_SHA3_512, FH_SHAKE128 };
	size_t mlen = (40u << 10) + 17, checks = 0;
	uint8_t *mdata = malloc(mlen);

	for (size_t j = 0; j < mlen; j++)
		mdata[j] = (uint8_t)(j * 7 + (j >> 9));
	for (size_t i = 0; i < sizeof migrating / sizeof migrating[0]; i++) {
		const struct fh_algo *a = fh_algo_get(migrating[i]);

		failed += migrate_at_every_block(dir, a,
						 a->family == FH_FAMILY_MD5 ? &md5_lanes
									    : &keccak_lanes,
						 false, mdata, mlen);
		checks += mlen / a->block_bytes + 1;
	}
	free(mdata);
	printf("lanes: %zu migrations checked\n", checks);
	failed += stop_keeps_one(dir);
	failed += descriptors_counted(dir);
	for (size_t i = 0; i < NFILES + 2; i++)
		if (i < NFILES)
			unlink(r.paths[i]);
	rmdir(dir);
	printf("lanes: %zu runs of %d jobs, %zu failures\n", runs, NFILES + 2, failed);
	return failed ? 1 : 0;
}
