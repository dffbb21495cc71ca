/* test_hash_many.c: fh_hash_many, many messages through the lanes of a
 * multi-buffer kernel, against the one-shot fh_hash and against
 * tests/vectors.
 *
 * For every algorithm and every multi-buffer kernel this CPU runs, forced
 * alone (fh_hash_many_on, FIXED) and as the widest of its family (the
 * narrower kernels and the single-stream one take over as lanes drain):
 *   - the pattern at every length 0..1100 in one call, against the .len
 *     file of tests/vectors (Python hashlib);
 *   - batches of 0, 1, lanes-1, lanes, lanes+1, 2*lanes+3 and 300
 *     messages of random lengths (empty, under a block, around block
 *     multiples, a few of tens of KiB) at random, unaligned addresses,
 *     against fh_hash of each; SHAKE also at 1 and 300 output bytes,
 *     more than one squeeze; then batches of messages under three
 *     blocks, where lanes finish and refill at almost every call;
 *   - nothing written past the N digests.
 * Then the public fh_hash_many, on whatever this CPU picks.
 *
 * Usage: test_hash_many VECTOR-DIR [KERNEL]
 * Exit 77 when no multi-buffer kernel runs here (after checking the
 * public call, which then hashes one message after another), or when
 * KERNEL is not built here or not usable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "testutil.h"

#define POOL_BYTES (64u << 10)
#define MAX_BATCH 300
#define MAX_OUT 300
#define CANARY 0xa5

static uint8_t pool[POOL_BYTES];
static const void *ptrs[MAX_BATCH + 1200];
static size_t lens[MAX_BATCH + 1200];
static uint8_t got[(MAX_BATCH + 1200) * MAX_OUT + 64];
static unsigned long n_checks, n_failed;

/* The kernels under test; MULTI NULL is the public fh_hash_many. */
struct subject {
	const struct fh_kernel *multi;
	bool fixed;
};

static void run(const struct subject *s, const struct fh_algo *a, size_t n,
		size_t outlen)
{
	memset(got, CANARY, n * outlen + 64);
	if (!s->multi)
		fh_hash_many(a, n, ptrs, lens, got, outlen);
	else
		fh_hash_many_on(a, s->multi, fh_kernel_best(a->family), s->fixed,
				n, ptrs, lens, got, outlen);
	for (size_t i = 0; i < 64; i++)
		if (got[n * outlen + i] != CANARY) {
			printf("FAIL byte %zu past %zu digests written\n", i, n);
			n_failed++;
			break;
		}
}

static const char *label(const struct subject *s)
{
	return s->multi ? s->multi->name : "fh_hash_many";
}

static void fail(const struct subject *s, const struct fh_algo *a,
		 const char *what, size_t i, size_t len, const uint8_t *want,
		 const uint8_t *have, size_t outlen)
{
	n_failed++;
	if (n_failed > 20)
		return;
	printf("FAIL %s%s %s %s: message %zu, %zu bytes\n  expected ",
	       label(s), s->fixed ? " alone" : "", a->name, what, i, len);
	tu_print_hex(stdout, want, outlen);
	printf("\n  got      ");
	tu_print_hex(stdout, have, outlen);
	printf("\n");
}

/* The pattern at lengths 0..count-1 in one call, against the vectors. */
static void check_vectors(const struct subject *s, const struct fh_algo *a,
			  const struct tu_lenvec *v)
{
	static uint8_t pattern[1200];

	tu_fill_pattern(pattern, sizeof pattern);
	for (size_t i = 0; i < v->count; i++) {
		ptrs[i] = pattern;
		lens[i] = i;
	}
	run(s, a, v->count, v->outlen);
	for (size_t i = 0; i < v->count; i++) {
		n_checks++;
		if (memcmp(got + i * v->outlen, v->digests + i * v->outlen,
			   v->outlen))
			fail(s, a, "vector", i, i, v->digests + i * v->outlen,
			     got + i * v->outlen, v->outlen);
	}
}

/* A random length: mostly around a few blocks, where lanes come and go
 * every call, sometimes empty or up to tens of KiB; with SHORT, under
 * three blocks, so that lanes move between slots while others pad. */
static size_t random_len(struct tu_rng *r, size_t block, bool short_only)
{
	if (short_only)
		return tu_rand_below(r, 3 * block);
	switch (tu_rand_below(r, 8)) {
	case 0:
		return 0;
	case 1:
		return tu_rand_below(r, block);
	case 2:
		return block * (1 + tu_rand_below(r, 4)) - 1 + tu_rand_below(r, 3);
	case 3:
		return tu_rand_below(r, 40000);
	default:
		return tu_rand_below(r, 6 * block);
	}
}

static void check_batch(const struct subject *s, const struct fh_algo *a,
			struct tu_rng *r, size_t n, size_t outlen, bool short_only)
{
	uint8_t want[MAX_OUT];

	for (size_t i = 0; i < n; i++) {
		lens[i] = random_len(r, a->block_bytes, short_only);
		ptrs[i] = pool + tu_rand_below(r, POOL_BYTES - lens[i] + 1);
		if (!lens[i] && tu_rand_below(r, 2))
			ptrs[i] = NULL;
	}
	run(s, a, n, outlen);
	for (size_t i = 0; i < n; i++) {
		n_checks++;
		fh_hash(a, ptrs[i], lens[i], want, outlen);
		if (memcmp(got + i * outlen, want, outlen)) {
			fail(s, a, "batch", i, lens[i], want, got + i * outlen,
			     outlen);
			return;
		}
	}
}

static void check(const struct subject *s, const char *vectors)
{
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		unsigned lanes = s->multi ? s->multi->lanes : 8;
		const size_t counts[] = { 0, 1, lanes - 1, lanes, lanes + 1,
					  2 * lanes + 3, MAX_BATCH };
		const size_t xof_out[] = { 1, MAX_OUT };
		struct tu_rng r = { 0x5eed0000u + (uint64_t)id };
		struct tu_lenvec v;

		if (s->multi && s->multi->family != a->family)
			continue;
		if (tu_lenvec_load(&v, vectors, a)) {
			n_failed++;
			continue;
		}
		check_vectors(s, a, &v);
		tu_lenvec_free(&v);
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			check_batch(s, a, &r, counts[c], a->digest_bytes, false);
			for (size_t o = 0; a->xof && o < 2; o++)
				check_batch(s, a, &r, counts[c],
					    xof_out[o] < fh_algo_max_bytes(a)
						    ? xof_out[o] : fh_algo_max_bytes(a),
					    false);
		}
		for (unsigned rep = 0; rep < 4; rep++)
			check_batch(s, a, &r, MAX_BATCH, a->digest_bytes, true);
		/* Every batch size up to two full rounds of lanes and one
		 * more: each count of busy lanes at the start, and each count
		 * left over once the first inputs finish. */
		for (size_t n = 0; n <= 2 * (size_t)lanes + 1; n++)
			check_batch(s, a, &r, n, a->digest_bytes, true);
	}
}

int main(int argc, char **argv)
{
	const char *only = argc > 2 ? argv[2] : NULL;
	struct tu_rng r = { 42 };
	const struct fh_kernel *k;
	unsigned tested = 0;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: test_hash_many VECTOR-DIR [KERNEL]\n");
		return 2;
	}
	tu_rand_bytes(&r, pool, sizeof pool);
	if (only) {
		int code;

		if (!(k = tu_kernel_arg(only, &code)) && code != TU_EXIT_SKIP)
			return code;
		if (!k || k->lanes == 1) {
			/* Not built, not usable (printed), or single-stream. */
			if (k)
				printf("SKIP kernel %s (single stream)\n", only);
			return TU_EXIT_SKIP;
		}
	}
	for (size_t i = 0; (k = fh_kernel_at(i)) != NULL; i++) {
		if (k->lanes == 1 || (only && strcmp(k->name, only) != 0))
			continue;
		if (!fh_kernel_usable(k)) {
			printf("SKIP kernel %s (this CPU cannot run it)\n", k->name);
			continue;
		}
		for (int fixed = 1; fixed >= 0; fixed--) {
			struct subject s = { k, fixed };

			check(&s, argv[1]);
		}
		printf("kernel %s: checked\n", k->name);
		tested++;
	}
	if (!only) {
		struct subject s = { NULL, false };

		check(&s, argv[1]);
		for (int f = 0; f < FH_FAMILY_COUNT; f++) {
			const struct fh_kernel *m =
				fh_kernel_best_multi((enum fh_family)f);

			printf("fh_hash_many, family %d: %s\n", f,
			       m ? m->name : "no multi-buffer kernel");
		}
	}
	printf("%lu checks, %lu failed\n", n_checks, n_failed);
	if (n_failed)
		return 1;
	if (!tested) {
		printf("SKIP no multi-buffer kernel runs here\n");
		return TU_EXIT_SKIP;
	}
	return 0;
}
