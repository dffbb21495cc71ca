/* test_split.c: fh_update must give the same digest however the input is cut.
 *
 * For every algorithm and every kernel of its family that this CPU runs, the
 * pattern of tests/vectors is fed in two pieces at every split point for all
 * lengths 0..300, in three pieces at points around the block size, and in
 * many random pieces (fixed seed, message at odd addresses) for longer
 * lengths up to 5000.  Each result is compared with a one-shot hash on the
 * portable kernel, and that one-shot with the <algo>.len vector where the
 * file has the length.
 * Usage: test_split VECTORS_DIR [KERNEL]; with KERNEL only that kernel is
 * tested, and the exit is 77 when it is not built here or not usable.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Every split point of every length up to here: past two SHAKE128 blocks. */
#define ALL_SPLITS_MAX 300
#define RANDOM_MAX 5000
#define RANDOM_ROUNDS 6
#define MAX_OUT 64

/* Longer lengths for random splits: just below, at and above common
 * multiples of the block sizes (576 = lcm(64,72), 1008 = lcm(72,144,168),
 * 1344 = lcm(64,168), 2448 = lcm(136,144)...), and a few odd ones. */
static const size_t random_lens[] = {
	301, 333, 511, 512, 513, 575, 576, 577, 719, 720, 721, 1007, 1008,
	1009, 1023, 1024, 1025, 1099, 1100, 1343, 1344, 1345, 2047, 2048,
	2049, 2447, 2448, 2449, 3023, 3024, 3025, 3333, 4095, 4096, 4097,
	4711, 4999, 5000,
};

/* The message lives at MSG inside STORE: block-aligned for the exhaustive
 * splits, at odd offsets for the random ones, so that whole blocks reach the
 * kernel straight from the caller's buffer at misaligned addresses too. */
static _Alignas(64) uint8_t store[RANDOM_MAX + 64];
static uint8_t *msg = store;

static void place_message(size_t offset)
{
	msg = store + offset;
	tu_fill_pattern(msg, RANDOM_MAX);
}

static unsigned long n_checks, n_failed;

struct job {
	const struct fh_algo *algo;
	const struct fh_kernel *k;
	const struct tu_lenvec *vec;
	size_t outlen;
};

static void fail(const struct job *j, size_t len, const char *how,
		 const uint8_t *want, const uint8_t *got)
{
	n_failed++;
	if (n_failed > 20)
		return; /* one bug tends to fail thousands of splits */
	printf("FAIL %s kernel=%s len=%zu (%s)\n  expected ", j->algo->name,
	       j->k->name, len, how);
	tu_print_hex(stdout, want, j->outlen);
	printf("\n  got      ");
	tu_print_hex(stdout, got, j->outlen);
	printf("\n");
}

/* Hashes msg[0..len) in pieces ending at CUTS[0..ncuts) (ascending, each
 * <= len; the last piece runs to len) and compares with WANT. */
static void check_cuts(const struct job *j, size_t len, const size_t *cuts,
		       size_t ncuts, const uint8_t *want)
{
	uint8_t got[MAX_OUT];
	fh_ctx ctx;
	size_t at = 0;

	tu_init_on(&ctx, j->algo, j->k, j->outlen);
	for (size_t i = 0; i < ncuts; i++) {
		fh_update(&ctx, msg + at, cuts[i] - at);
		at = cuts[i];
	}
	fh_update(&ctx, msg + at, len - at);
	fh_final(&ctx, got, j->outlen);
	n_checks++;
	if (memcmp(got, want, j->outlen)) {
		/* Name the cut points, the first few being enough to
		 * reproduce by hand. */
		char how[160];
		size_t n = 0, shown = ncuts < 8 ? ncuts : 8;
		n += (size_t)snprintf(how, sizeof how, "%zu pieces, cuts at",
				      ncuts + 1);
		for (size_t i = 0; i < shown; i++)
			n += (size_t)snprintf(how + n, sizeof how - n, " %zu",
					      cuts[i]);
		if (shown < ncuts)
			snprintf(how + n, sizeof how - n, " ...");
		fail(j, len, how, want, got);
	}
}

/* The portable one-shot of msg[0..len), checked against the vector file. */
static void reference(const struct job *j, size_t len, uint8_t *out)
{
	tu_hash_on(j->algo, tu_portable(j->algo->family), msg, len, out,
		   j->outlen);
	if (len < j->vec->count &&
	    memcmp(out, j->vec->digests + len * j->outlen, j->outlen)) {
		n_failed++;
		printf("FAIL %s len=%zu: portable one-shot disagrees with "
		       "%s.len\n  expected ", j->algo->name, len, j->algo->name);
		tu_print_hex(stdout, j->vec->digests + len * j->outlen,
			     j->outlen);
		printf("\n  got      ");
		tu_print_hex(stdout, out, j->outlen);
		printf("\n");
	}
}

static void two_and_three_pieces(const struct job *j)
{
	const size_t rate = j->algo->block_bytes;
	uint8_t want[MAX_OUT];

	for (size_t len = 0; len <= ALL_SPLITS_MAX; len++) {
		reference(j, len, want);
		for (size_t s = 0; s <= len; s++)
			check_cuts(j, len, &s, 1, want);

		/* Three pieces: cut around block boundaries, where buffered
		 * and direct absorption hand over. */
		const size_t pts[] = { 1, rate - 1, rate, rate + 1, 2 * rate,
				       len / 3, len / 2, len ? len - 1 : 0 };
		const size_t npts = sizeof pts / sizeof *pts;
		for (size_t a = 0; a < npts; a++) {
			for (size_t b = 0; b < npts; b++) {
				size_t cuts[2] = { pts[a], pts[b] };
				if (cuts[0] > cuts[1] || cuts[1] > len)
					continue;
				check_cuts(j, len, cuts, 2, want);
			}
		}
	}
}

/* Random partitions: mostly small pieces, some empty, now and then one
 * long enough to take the multi-block path. */
static void random_pieces(const struct job *j, struct tu_rng *rng)
{
	const size_t rate = j->algo->block_bytes;
	uint8_t want[MAX_OUT];
	size_t cuts[RANDOM_MAX + 1];

	for (size_t li = 0; li < sizeof random_lens / sizeof *random_lens;
	     li++) {
		size_t len = random_lens[li];
		place_message(0);
		reference(j, len, want);
		for (int round = 0; round < RANDOM_ROUNDS; round++) {
			size_t n = 0, at = 0;
			place_message(1 + (li * RANDOM_ROUNDS + (size_t)round) % 15);
			while (at < len) {
				size_t kind = tu_rand_below(rng, 16), step;
				if (kind == 0)
					step = 0;
				else if (kind < 8)
					step = 1 + tu_rand_below(rng, 16);
				else if (kind < 15)
					step = 1 + tu_rand_below(rng, 2 * rate + 8);
				else
					step = 1 + tu_rand_below(rng, len - at);
				at = at + step > len ? len : at + step;
				cuts[n++] = at;
			}
			check_cuts(j, len, cuts, n, want);
		}
	}
}

static void test_kernel(const struct fh_kernel *k,
			const struct tu_lenvec vecs[FH_ALGO_COUNT])
{
	/* Same seed per kernel: every kernel sees the same partitions. */
	struct tu_rng rng = { 0x5eed5b117ull };
	unsigned long before = n_checks, failed = n_failed;

	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		if (a->family != k->family)
			continue;
		struct job j = { a, k, &vecs[id], vecs[id].outlen };
		place_message(0);
		two_and_three_pieces(&j);
		random_pieces(&j, &rng);
	}
	printf("kernel %s: %lu split checks, %lu failed\n", k->name,
	       n_checks - before, n_failed - failed);
}

int main(int argc, char **argv)
{
	struct tu_lenvec vecs[FH_ALGO_COUNT];
	int status = 0;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s VECTORS_DIR [KERNEL]\n", argv[0]);
		return 2;
	}
	/* Keep what was printed if a kernel crashes the process. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	const struct fh_kernel *only = NULL;
	if (argc == 3 && !(only = tu_kernel_arg(argv[2], &status)))
		return status;

	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		if (tu_lenvec_load(&vecs[id], argv[1], a))
			return 1;
		if (vecs[id].outlen > MAX_OUT) {
			printf("FAIL %s.len: %zu-byte digests, at most %d "
			       "expected\n", a->name, vecs[id].outlen, MAX_OUT);
			return 1;
		}
	}

	if (only) {
		test_kernel(only, vecs);
	} else {
		const struct fh_kernel *k;
		for (size_t i = 0; (k = fh_kernel_at(i)); i++) {
			switch (tu_kernel_testable(k)) {
			case TU_KERNEL_RUN:
				test_kernel(k, vecs);
				break;
			case TU_KERNEL_SKIP:
				break;
			case TU_KERNEL_BROKEN:
				n_failed++;
				break;
			}
		}
	}
	for (int id = 0; id < FH_ALGO_COUNT; id++)
		tu_lenvec_free(&vecs[id]);
	printf("%lu split checks, %lu failed\n", n_checks, n_failed);
	return n_failed ? 1 : 0;
}
