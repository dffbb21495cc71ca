/* test_kernels.c: every kernel against the portable kernel of its family.
 *
 * Modelled on Linux's crypto/hash-test-template.h: the raw block functions
 * (md5_blocks; keccak_absorb at each FIPS 202 rate; keccak_permute) on random
 * states and data, then the public API on the kernel: all lengths 0..4096
 * folded into one digest, random update splits, input at offsets 1..15, and
 * input whose last byte sits just before a PROT_NONE guard page, so a kernel
 * that reads past its input crashes here rather than in the field.
 *
 * A SHA-1, SHA-256 or SHA-512 kernel: its block function on random states
 * for every block count 0..64 at offsets 0..15, blocks ending at the guard
 * page, and every message length 0..4096 through a FIPS 180-4 mode of this
 * file's own (checked on FIPS 180-4's "abc"), in one call at offsets 0..15
 * and in random pieces.
 *
 * A multi-buffer kernel (lanes > 1) is tested lane by lane against the
 * portable single-stream kernel: md5_blocks_xn, keccak_absorb_xn and
 * blake2b_blocks_xn with different data, starting states (BLAKE2b's
 * counters too) and misalignment in every lane, many block counts, every
 * rate, each lane's data ending at its own guard page, and the states past
 * the kernel's lanes left alone; then the same fold of lengths 0..4096 as
 * above, computed by a small refilling manager: lanes of unequal lengths,
 * empty and one-block inputs, a lane refilled as soon as its input runs
 * out while the others go on, each input finished (tail and padding, or
 * BLAKE2b's last block) on the portable kernel from the lane's state.
 *
 * The SHA-1 and SHA-2 kernels are tested on their block functions with
 * the padding written out here: block counts 0..64 at offsets 0..7,
 * random pieces, the guard page, every message length 0..4096 and digests
 * from python3 hashlib; a multi-buffer one with every count of busy lanes
 * holding uneven block counts, each lane's remainder run on the portable
 * kernel as the engine runs it.
 *
 * Usage:
 *   test_kernels               every kernel; those this CPU lacks print SKIP
 *   test_kernels NAME          that kernel only; exit 77 if not built here or
 *                              not usable on this CPU
 *   test_kernels --registered NAME...
 *                              fail if a built kernel is missing from the
 *                              NAME list (tests/unit/meson.build), plus
 *                              sanity checks on the kernel tables
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "algo.h"
#include "blake3.h"
#include "testutil.h"

#define FOLD_MAX 4096
#define MAX_XOF_OUT 500
/* The input buffers: enough for FOLD_MAX and for 25 blocks at the largest
 * rate (4200 bytes), with 64 bytes for misaligning. */
#define SRC_BYTES 8192

static const size_t keccak_rates[] = { 72, 104, 136, 144, 168 };

static _Alignas(64) uint8_t src[SRC_BYTES];
static _Alignas(64) uint8_t work[SRC_BYTES + 64];
static unsigned long n_checks, n_failed;
static const char *kname;

/* The guard page: GUARD_SPAN readable bytes end at GUARD_END, which is the
 * first byte of a PROT_NONE page.  Each lane of a multi-buffer kernel has a
 * guarded region of its own, ending at LANE_END[i]. */
static uint8_t *guard_end;
static size_t guard_span;
static uint8_t *lane_end[FH_MAX_LANES];
/* What the kernel was doing, for the SIGSEGV handler. */
static char guard_what[160];

static void report(const char *what, size_t len, const void *want,
		   const void *got, size_t n)
{
	if (n_failed > 20)
		return; /* one bug tends to fail hundreds of checks */
	printf("FAIL kernel=%s %s len=%zu\n  expected ", kname, what, len);
	tu_print_hex(stdout, want, n);
	printf("\n  got      ");
	tu_print_hex(stdout, got, n);
	printf("\n");
}

static int same(const char *what, size_t len, const void *want,
		const void *got, size_t n)
{
	n_checks++;
	if (!memcmp(want, got, n))
		return 1;
	n_failed++;
	report(what, len, want, got, n);
	return 0;
}

/* ---- raw block functions ---------------------------------------------- */

static void raw_md5(const struct fh_kernel *k, const struct fh_kernel *p,
		    struct tu_rng *rng)
{
	static const size_t counts[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16,
					 17, 31, 32, 33, 63, 64 };
	for (size_t off = 0; off < 16; off++) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			size_t nb = counts[c];
			uint32_t want[4], got[4];
			for (int i = 0; i < 4; i++)
				want[i] = got[i] = (uint32_t)tu_rand(rng);
			memcpy(work + off, src, nb * 64);
			fh_md5_blocks_of(p)(want, src, nb);
			fh_md5_blocks_of(k)(got, work + off, nb);
			char what[64];
			snprintf(what, sizeof what, "md5_blocks off=%zu", off);
			same(what, nb * 64, want, got, sizeof want);
		}
	}
}

/* The first algorithm of family F in the table of algorithms: the one
 * whose block size the raw tests of any family's kernels run at. */
static const struct fh_algo *algo_of_family(enum fh_family f)
{
	const struct fh_algo *a;

	for (int id = 0; (a = fh_algo_get((enum fh_algo_id)id)) != NULL; id++)
		if (a->family == f)
			break;
	return a;
}

/* Any family but MD5 and Keccak, which have their own below (SHA-1,
 * SHA-256, SHA-512 today, and every family to come): the block function
 * from random states, against the portable kernel's (through blocks.c and
 * the family's ops record, as the modes call it): every block count
 * 0..64, each of the first 17 at every offset 0..15 and the others at one
 * offset each, twice in a row from where the first call left the state,
 * so that a kernel that gets only its first block or call right fails
 * too. */
static void raw_blocks(const struct fh_kernel *k, const struct fh_kernel *p,
		       struct tu_rng *rng)
{
	const struct fh_algo *a = algo_of_family(k->family);
	size_t block = a->block_bytes, sb = fh_state_bytes(k->family);

	for (size_t nb = 0; nb <= 64; nb++) {
		size_t step = nb <= 16 ? 1 : 16;
		for (size_t off = nb <= 16 ? 0 : nb % 16; off < 16; off += step) {
			uint64_t want[25], got[25];
			const uint8_t *from =
				src + tu_rand_below(rng, SRC_BYTES - nb * block + 1);

			tu_rand_bytes(rng, (uint8_t *)want, sb);
			memcpy(got, want, sb);
			memcpy(work + off, from, nb * block);
			for (int rep = 0; rep < 2; rep++) {
				fh_blocks(p, a, want, from, nb);
				fh_blocks(k, a, got, work + off, nb);
				char what[64];
				snprintf(what, sizeof what,
					 "%s blocks nblocks=%zu off=%zu call %d",
					 a->name, nb, off, rep + 1);
				same(what, nb * block, want, got, sb);
			}
		}
	}
}

static void random_state(struct tu_rng *rng, uint64_t a[25], uint64_t b[25])
{
	for (int i = 0; i < 25; i++)
		a[i] = b[i] = tu_rand(rng);
}

/* The round counts every Keccak kernel takes (kernel.h): Keccak-f[1600]
 * and the last 12 rounds, Keccak-p[1600,12] of RFC 9861. */
static const unsigned keccak_rounds[] = { FH_KECCAK_F_ROUNDS,
					  FH_KECCAK_P12_ROUNDS };
#define N_ROUNDS (sizeof keccak_rounds / sizeof *keccak_rounds)

static void raw_keccak_rounds(const struct fh_kernel *k,
			      const struct fh_kernel *p, struct tu_rng *rng,
			      unsigned nr)
{
	static const size_t counts[] = { 0, 1, 2, 3, 4, 5, 7, 8, 12, 16, 25 };
	uint64_t want[25], got[25];
	char what[64];

	/* The all-zero state first: FIPS 202's intermediate values start
	 * there, so a failure here is easy to trace by hand. */
	memset(want, 0, sizeof want);
	memset(got, 0, sizeof got);
	for (int round = 0; round < 64; round++) {
		if (round > 0)
			random_state(rng, want, got);
		/* Several applications in a row catch a kernel that only
		 * gets the first right (stale registers, round constants). */
		for (int rep = 0; rep < 3; rep++) {
			fh_keccak_permute_of(p)(want, nr);
			fh_keccak_permute_of(k)(got, nr);
			snprintf(what, sizeof what, "keccak_permute rounds=%u",
				 nr);
			same(what, 200, want, got, sizeof want);
		}
	}

	for (size_t r = 0; r < sizeof keccak_rates / sizeof *keccak_rates; r++) {
		size_t rate = keccak_rates[r];
		for (size_t off = 0; off < 16; off++) {
			for (size_t c = 0; c < sizeof counts / sizeof *counts;
			     c++) {
				size_t nb = counts[c];
				random_state(rng, want, got);
				memcpy(work + off, src, nb * rate);
				fh_keccak_absorb_of(p)(want, src, nb, rate, nr);
				fh_keccak_absorb_of(k)(got, work + off, nb, rate, nr);
				snprintf(what, sizeof what,
					 "keccak_absorb rate=%zu off=%zu "
					 "rounds=%u", rate, off, nr);
				same(what, nb * rate, want, got, sizeof want);
			}
		}
	}
}

static void raw_keccak(const struct fh_kernel *k, const struct fh_kernel *p,
		       struct tu_rng *rng)
{
	for (size_t r = 0; r < N_ROUNDS; r++)
		raw_keccak_rounds(k, p, rng, keccak_rounds[r]);
}

/* ---- guard page --------------------------------------------------------- */

static void say(const char *s)
{
	ssize_t rc = write(1, s, strlen(s));
	(void)rc;
}

static void on_segv(int sig)
{
	/* Only async-signal-safe calls: the message was built beforehand. */
	if (guard_what[0]) {
		say("FAIL read past the end of the input: ");
		say(guard_what);
	} else {
		say(sig == SIGBUS ? "FAIL SIGBUS" : "FAIL SIGSEGV");
		say(" in kernel ");
		say(kname ? kname : "(none)");
	}
	say("\n");
	_exit(1);
}

/* GUARD_SPAN readable bytes followed by a PROT_NONE page; returns the
 * first byte of that page, or NULL. */
static uint8_t *guarded_region(size_t page)
{
	void *m = mmap(NULL, guard_span + page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return NULL;
	}
	uint8_t *end = (uint8_t *)m + guard_span;
	if (mprotect(end, page, PROT_NONE)) {
		perror("mprotect");
		return NULL;
	}
	return end;
}

static int guard_setup(void)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	guard_span = ((size_t)SRC_BYTES + (size_t)page - 1) / (size_t)page *
		     (size_t)page;
	if (!(guard_end = guarded_region((size_t)page)))
		return -1;
	for (int i = 0; i < FH_MAX_LANES; i++)
		if (!(lane_end[i] = guarded_region((size_t)page)))
			return -1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	return 0;
}

/* Copies src[0..len) so that its last byte is the last before the guard. */
static const uint8_t *at_guard(size_t len)
{
	uint8_t *p = guard_end - len;
	memcpy(p, src, len);
	return p;
}

/* BLAKE2b's blocks function from random states and counters, the last
 * block final or not, every block count 0..17 at offsets 0..15, and
 * blocks that end at the guard page (GUARD). */
static void raw_blake2b(const struct fh_kernel *k, const struct fh_kernel *p,
			struct tu_rng *rng, int guard)
{
	for (size_t nb = guard; nb <= (guard ? 8u : 17u); nb++) {
		for (size_t off = 0; off < (guard ? 1u : 16u); off++) {
			uint64_t want[8], got[8], t = tu_rand(rng);
			bool last = tu_rand(rng) & 1;
			const uint8_t *d = guard ? at_guard(nb * 128) : work + off;

			tu_rand_bytes(rng, (uint8_t *)want, sizeof want);
			memcpy(got, want, sizeof got);
			if (!guard)
				memcpy(work + off, src, nb * 128);
			fh_blake2b_blocks_of(p)(want, src, nb, t, last);
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s blake2b_blocks nblocks=%zu", kname, nb);
			fh_blake2b_blocks_of(k)(got, d, nb, t, last);
			guard_what[0] = '\0';
			same(guard ? "blake2b_blocks at guard page" : "blake2b_blocks",
			     nb * 128, want, got, sizeof want);
		}
	}
}

/* BLAKE3's compression function from random chaining values, counters,
 * block lengths and flags, at offsets 0..15; its chunks function for 0..9
 * chunks from random keys and counters; both at the guard page. */
static void raw_blake3(const struct fh_kernel *k, const struct fh_kernel *p,
		       struct tu_rng *rng)
{
	for (int i = 0; i < 256; i++) {
		uint32_t cv[8], want[16], got[16];
		uint64_t counter = tu_rand(rng);
		uint32_t len = (uint32_t)tu_rand_below(rng, 65);
		uint32_t flags = (uint32_t)tu_rand_below(rng, 128);
		size_t off = (size_t)i % 16;
		bool guard = i % 32 == 31;
		const uint8_t *d = guard ? at_guard(64) : work + off;

		tu_rand_bytes(rng, (uint8_t *)cv, sizeof cv);
		memcpy(work + off, src + i, 64);
		fh_blake3_compress_of(p)(cv, guard ? src : src + i, len,
					 counter, flags, want);
		snprintf(guard_what, sizeof guard_what, "kernel %s blake3_compress", kname);
		fh_blake3_compress_of(k)(cv, d, len, counter, flags, got);
		guard_what[0] = '\0';
		same("blake3_compress", len, want, got, sizeof want);
	}
	for (size_t n = 0; n <= 7; n++) {
		for (int g = 0; g < 2; g++) {
			uint32_t key[8], want[7][8], got[7][8];
			uint64_t counter = g ? tu_rand(rng) : tu_rand_below(rng, 1000);
			uint32_t flags = (uint32_t)tu_rand_below(rng, 2) << 4;
			size_t off = n % 16;
			const uint8_t *d = g ? at_guard(n * 1024) : work + off;

			tu_rand_bytes(rng, (uint8_t *)key, sizeof key);
			if (!g)
				memcpy(work + off, src, n * 1024);
			fh_blake3_chunks_of(p)(key, g ? d : src, n, counter, flags, want);
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s blake3_chunks n=%zu", kname, n);
			fh_blake3_chunks_of(k)(key, d, n, counter, flags, got);
			guard_what[0] = '\0';
			same(g ? "blake3_chunks at guard page" : "blake3_chunks",
			     n * 1024, want, got, n * sizeof *want);
		}
	}
}

/* BLAKE3's whole chunks past the SIMD kernels' widths (0..40: every
 * lane count and left-over of 4, 8 and 16 lanes), counters across 2^32,
 * from every offset mod 16; its parents likewise, in place and not. */
static _Alignas(64) uint8_t b3_big[40 * 1024 + 64];

static void raw_blake3_wide(const struct fh_kernel *k,
			    const struct fh_kernel *p, struct tu_rng *rng)
{
	tu_rand_bytes(rng, b3_big, sizeof b3_big);
	for (size_t n = 0; n <= 40; n++) {
		uint32_t key[8], want[80][8], got[80][8], kids[80][8];
		uint64_t counter = n % 3 ? 0xfffffff0u + n : tu_rand(rng);
		uint32_t flags = (uint32_t)tu_rand_below(rng, 2) << 4;
		const uint8_t *d = b3_big + n % 16;

		tu_rand_bytes(rng, (uint8_t *)key, sizeof key);
		fh_blake3_chunks_of(p)(key, d, n, counter, flags, want);
		fh_blake3_chunks_of(k)(key, d, n, counter, flags, got);
		same("blake3_chunks wide", n * 1024, want, got, n * sizeof *want);

		tu_rand_bytes(rng, (uint8_t *)kids, sizeof kids);
		fh_blake3_parents_of(p)(key, (const uint32_t(*)[8])kids, n, flags,
					want);
		fh_blake3_parents_of(k)(key, (const uint32_t(*)[8])kids, n, flags,
					got);
		same("blake3_parents", n, want, got, n * sizeof *want);
		fh_blake3_parents_of(k)(key, (const uint32_t(*)[8])kids, n, flags,
					kids);
		same("blake3_parents in place", n, want, kids, n * sizeof *want);
	}
}

/* One block of LEN bytes into lane state ST by the portable compression
 * function P, with FLAGS and CHUNK_START where the lane's chunk has no
 * block before it. */
static void b3_lane_block(const struct fh_kernel *p, struct fh_blake3_lane *st,
			  const uint8_t *block, uint32_t len, uint32_t flags)
{
	uint32_t out[16];

	fh_blake3_compress_of(p)(st->cv, block, len, 0,
				 flags | (st->blocks ? 0 : 1), out);
	memcpy(st->cv, out, 32);
	st->blocks++;
}

/* A BLAKE3 multi-buffer kernel, lane by lane against the portable
 * compression function: each lane a different input at its own offset,
 * and a different count of its chunk's blocks already done (the first
 * block of a chunk flagged CHUNK_START); the states past the lanes
 * untouched. */
static void multi_raw_blake3(const struct fh_kernel *k,
			     const struct fh_kernel *p, struct tu_rng *rng)
{
	for (size_t nb = 0; nb <= 15; nb++) {
		struct fh_blake3_lane want[FH_MAX_LANES + 1], got[FH_MAX_LANES + 1];
		const uint8_t *d[FH_MAX_LANES];

		tu_rand_bytes(rng, (uint8_t *)want, sizeof want);
		for (unsigned i = 0; i <= FH_MAX_LANES; i++)
			want[i].blocks = (uint32_t)(i % 3 == 0 ? 0
				: tu_rand_below(rng, 16 - nb));
		memcpy(got, want, sizeof got);
		for (unsigned i = 0; i < k->lanes; i++) {
			d[i] = src + (i * 1031 + nb) % (SRC_BYTES - 15 * 64);
			for (size_t b = 0; b < nb; b++)
				b3_lane_block(p, &want[i], d[i] + 64 * b, 64, 0);
		}
		fh_blake3_lanes_of(k)(got, d, nb);
		for (unsigned i = 0; i <= k->lanes; i++)
			same(i < k->lanes ? "blake3 lanes" : "blake3 past the lanes",
			     nb * 64, &want[i], &got[i], sizeof want[i]);
	}
	/* The roots (the kernel's `tree`): each lane's last block, of 0 to
	 * 64 bytes zero-padded at its own offset, CHUNK_END and ROOT on it
	 * and CHUNK_START where the lane's blocks are 0. */
	for (int round = 0; round < 16; round++) {
		struct fh_blake3_lane want[FH_MAX_LANES + 1], got[FH_MAX_LANES + 1];
		uint8_t blocks[FH_MAX_LANES][64 + 8];
		const uint8_t *d[FH_MAX_LANES];
		uint32_t lens[FH_MAX_LANES];

		tu_rand_bytes(rng, (uint8_t *)want, sizeof want);
		for (unsigned i = 0; i <= FH_MAX_LANES; i++)
			want[i].blocks = (uint32_t)(i % 3 == 0 ? 0
				: tu_rand_below(rng, 16));
		memcpy(got, want, sizeof got);
		for (unsigned i = 0; i < k->lanes; i++) {
			uint8_t *b = blocks[i] + tu_rand_below(rng, 8);

			lens[i] = (uint32_t)(round == 0 ? 0 : round == 1 ? 64
					     : tu_rand_below(rng, 65));
			memset(b, 0, 64);
			memcpy(b, src + (i * 877 + (size_t)round) % (SRC_BYTES - 64),
			       lens[i]);
			d[i] = b;
			b3_lane_block(p, &want[i], b, lens[i], 2 | 8); /* END, ROOT */
		}
		fh_blake3_roots_of(k)(got, d, lens);
		for (unsigned i = 0; i <= k->lanes; i++)
			same(i < k->lanes ? "blake3 roots" : "blake3 past the roots",
			     i < k->lanes ? lens[i] : 0, &want[i], &got[i],
			     sizeof want[i]);
	}
}

/* Inputs that end in the lanes (fh_lanes_final: the family's
 * lanes_final over the kernel's `tree`, BLAKE3's roots and BLAKE2b's
 * last blocks): 1 to all lanes of inputs, the first of each length up to
 * MAXLEN (BLAKE3's one chunk) and the others of random ones, each at its
 * own offset, with outputs of 1 to MOST bytes; each state its input's
 * blocks but the last, run by the kernel's blocks_xn in the lanes (the
 * other lanes on the same input), as the engine's lanes leave it;
 * against the portable kernel's digest of the whole input.  An output
 * past the family's (the XOF's, for BLAKE3) and a tail past a block are
 * declined. */
static void lanes_final(const struct fh_algo *a, const struct fh_kernel *k,
			const struct fh_kernel *p, struct tu_rng *rng,
			size_t maxlen, size_t most)
{
	const size_t sb = fh_state_bytes(a->family), block = a->block_bytes;

	for (size_t len = 0; len <= maxlen; len++) {
		unsigned n = 1 + (unsigned)(len % k->lanes);
		/* BLAKE2b's length is a parameter of its state. */
		size_t outlen = len % 5 ? most : 1 + len % most;
		uint64_t st[FH_MAX_LANES][25], scratch[FH_MAX_LANES][25];
		const void *states[FH_MAX_LANES];
		const uint8_t *in[FH_MAX_LANES], *tails[FH_MAX_LANES];
		const uint8_t *d[FH_MAX_LANES];
		size_t l[FH_MAX_LANES], lens[FH_MAX_LANES];
		uint8_t got[FH_MAX_LANES][64], want[64], *out[FH_MAX_LANES];
		const struct fh_hash_params hp = { .outlen = outlen };
		char what[96];
		fh_ctx ctx;

		fh_init_params(&ctx, a, p, &hp);
		for (unsigned i = 0; i < n; i++) {
			l[i] = i ? tu_rand_below(rng, maxlen + 1) : len;
			in[i] = src + tu_rand_below(rng, SRC_BYTES - maxlen);
			size_t whole = l[i] ? (l[i] - 1) / block : 0;

			for (unsigned j = 0; j < k->lanes; j++) {
				memcpy(scratch[j], &ctx.state, sb);
				d[j] = in[i];
			}
			fh_blocks_xn(k, a, scratch, d, whole);
			memcpy(st[i], scratch[0], sb);
			states[i] = st[i];
			tails[i] = in[i] + block * whole;
			lens[i] = l[i] - block * whole;
			out[i] = got[i];
		}
		bool done = fh_lanes_final(k, a, states, tails, lens, n, out,
					   outlen);

		snprintf(what, sizeof what, "%s lanes_final takes", a->name);
		same(what, len, &(bool){ true }, &done, sizeof done);
		for (unsigned i = 0; done && i < n; i++) {
			fh_ctx c;

			fh_init_params(&c, a, p, &hp);
			fh_update(&c, in[i], l[i]);
			fh_final(&c, want, outlen);
			snprintf(what, sizeof what,
				 "%s lanes_final: input %u of %u, %zu bytes of "
				 "digest", a->name, i, n, outlen);
			same(what, l[i], want, got[i], outlen);
		}
		if (len % 64 == 0) {
			done = fh_lanes_final(k, a, states, tails, lens, n, out,
					      most + 1);
			snprintf(what, sizeof what, "%s lanes_final declines %zu bytes",
				 a->name, most + 1);
			same(what, len, &(bool){ false }, &done, sizeof done);
			lens[n - 1] = block + 1;
			done = fh_lanes_final(k, a, states, tails, lens, n, out,
					      outlen);
			snprintf(what, sizeof what,
				 "%s lanes_final declines a tail past a block", a->name);
			same(what, len, &(bool){ false }, &done, sizeof done);
		}
	}
}

static void raw_guard(const struct fh_kernel *k, const struct fh_kernel *p)
{
	if (k->family == FH_FAMILY_BLAKE2B || k->family == FH_FAMILY_BLAKE3)
		return; /* raw_blake2b and raw_blake3 test it */
	if (k->family != FH_FAMILY_MD5 && k->family != FH_FAMILY_KECCAK) {
		const struct fh_algo *a = algo_of_family(k->family);
		size_t block = a->block_bytes, sb = fh_state_bytes(k->family);

		for (size_t nb = 1; nb <= 8; nb++) {
			uint64_t want[25] = { 1, 2, 3, 4, 5, 6, 7, 8 }, got[25];
			const uint8_t *d = at_guard(nb * block);

			memcpy(got, want, sizeof got);
			fh_blocks(p, a, want, src, nb);
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s %s blocks nblocks=%zu", kname, a->name, nb);
			fh_blocks(k, a, got, d, nb);
			guard_what[0] = '\0';
			same("blocks at guard page", nb * block, want, got, sb);
		}
		return;
	}
	if (k->family == FH_FAMILY_MD5) {
		for (size_t nb = 1; nb <= 8; nb++) {
			uint32_t want[4] = { 1, 2, 3, 4 }, got[4] = { 1, 2, 3, 4 };
			const uint8_t *d = at_guard(nb * 64);
			fh_md5_blocks_of(p)(want, src, nb);
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s md5_blocks nblocks=%zu", kname, nb);
			fh_md5_blocks_of(k)(got, d, nb);
			guard_what[0] = '\0';
			same("md5_blocks at guard page", nb * 64, want, got,
			     sizeof want);
		}
		return;
	}
	for (size_t r = 0; r < sizeof keccak_rates / sizeof *keccak_rates; r++) {
		size_t rate = keccak_rates[r];
		for (size_t nb = 1; nb <= 4; nb++) {
			uint64_t want[25] = { 0 }, got[25] = { 0 };
			const uint8_t *d = at_guard(nb * rate);
			unsigned nr = keccak_rounds[nb % N_ROUNDS];
			fh_keccak_absorb_of(p)(want, src, nb, rate, nr);
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s keccak_absorb rate=%zu nblocks=%zu "
				 "rounds=%u", kname, rate, nb, nr);
			fh_keccak_absorb_of(k)(got, d, nb, rate, nr);
			guard_what[0] = '\0';
			same("keccak_absorb at guard page", nb * rate, want,
			     got, sizeof want);
		}
	}
}

/* ---- SHA-1 and SHA-2 ---------------------------------------------------- */

static int is_sha(enum fh_family f)
{
	return f == FH_FAMILY_SHA1 || f == FH_FAMILY_SHA256 ||
	       f == FH_FAMILY_SHA512;
}

/* 64-byte blocks, 128 for SHA-512 (FIPS 180-4 §1). */
static size_t sha_block_bytes(enum fh_family f)
{
	return f == FH_FAMILY_SHA512 ? 128 : 64;
}

union sha_state {
	uint32_t w32[8];
	uint64_t w64[8];
};

static void sha_blocks(const struct fh_kernel *k, union sha_state *s,
		       const uint8_t *data, size_t nblocks)
{
	if (k->family == FH_FAMILY_SHA1)
		fh_sha1_blocks_of(k)(s->w32, data, nblocks);
	else if (k->family == FH_FAMILY_SHA256)
		fh_sha256_blocks_of(k)(s->w32, data, nblocks);
	else
		fh_sha512_blocks_of(k)(s->w64, data, nblocks);
}

/* A message hashed on kernel K by this file's own FIPS 180-4 mode, so
 * that the kernels are tested whole whatever the library's modes do:
 * buffering, padding (§5.1) and the initial values of SHA-1, SHA-256 and
 * SHA-512 (§5.3).  Whole blocks go to the kernel straight from the
 * caller's buffer, at whatever address it has. */
struct sha_msg {
	const struct fh_kernel *k;
	union sha_state s;
	uint8_t buf[128];
	size_t buffered;
	uint64_t total;
};

static void sha_msg_init(struct sha_msg *m, const struct fh_kernel *k)
{
	static const uint32_t iv1[5] = { 0x67452301, 0xefcdab89, 0x98badcfe,
					 0x10325476, 0xc3d2e1f0 };
	static const uint32_t iv256[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
					   0xa54ff53a, 0x510e527f, 0x9b05688c,
					   0x1f83d9ab, 0x5be0cd19 };
	static const uint64_t iv512[8] = {
		0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull,
		0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
		0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
		0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
	};

	memset(m, 0, sizeof *m);
	m->k = k;
	if (k->family == FH_FAMILY_SHA1)
		memcpy(m->s.w32, iv1, sizeof iv1);
	else if (k->family == FH_FAMILY_SHA256)
		memcpy(m->s.w32, iv256, sizeof iv256);
	else
		memcpy(m->s.w64, iv512, sizeof iv512);
}

static void sha_msg_update(struct sha_msg *m, const uint8_t *d, size_t len)
{
	const size_t bb = sha_block_bytes(m->k->family);

	m->total += len;
	if (m->buffered) {
		size_t take = bb - m->buffered < len ? bb - m->buffered : len;
		memcpy(m->buf + m->buffered, d, take);
		m->buffered += take;
		d += take;
		len -= take;
		if (m->buffered < bb)
			return;
		sha_blocks(m->k, &m->s, m->buf, 1);
		m->buffered = 0;
	}
	sha_blocks(m->k, &m->s, d, len / bb);
	memcpy(m->buf, d + len / bb * bb, len % bb);
	m->buffered = len % bb;
}

/* Pads (0x80, zeros, the length in bits as a 64-bit or 128-bit big-endian
 * number) and writes H as big-endian words: the digest before any
 * truncation. */
static void sha_msg_final(struct sha_msg *m, uint8_t *out)
{
	const enum fh_family f = m->k->family;
	const size_t bb = sha_block_bytes(f), lenbytes = bb / 8;
	uint64_t bits = m->total * 8;
	uint8_t pad[256] = { 0x80 };
	size_t n = m->buffered + 1 + lenbytes <= bb ? bb - m->buffered
						    : 2 * bb - m->buffered;

	for (int i = 1; i <= 8; i++, bits >>= 8)
		pad[n - (size_t)i] = (uint8_t)bits;
	sha_msg_update(m, pad, n);
	for (size_t i = 0; i < fh_state_bytes(f); i++)
		out[i] = f == FH_FAMILY_SHA512
				 ? (uint8_t)(m->s.w64[i / 8] >> (56 - 8 * (i % 8)))
				 : (uint8_t)(m->s.w32[i / 4] >> (24 - 8 * (i % 4)));
}

/* FIPS 180-4's examples for "abc" (also python3's hashlib), for the mode
 * above: with it right, every other message compares kernel with kernel. */
static const struct {
	enum fh_family family;
	const char *hex;
} sha_abc[] = {
	{ FH_FAMILY_SHA1, "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ FH_FAMILY_SHA256, "ba7816bf8f01cfea414140de5dae2223"
			    "b00361a396177a9cb410ff61f20015ad" },
	{ FH_FAMILY_SHA512, "ddaf35a193617abacc417349ae204131"
			    "12e6fa4e89a97ea20a9eeee64b55d39a"
			    "2192992a274fc1a836ba3c23a3feebbd"
			    "454d4423643ce80e2a9ac94fa54ca49f" },
};

/* Every message length 0..FOLD_MAX: on the portable kernel in one call;
 * on K in one call at an offset of 0..15 bytes, and in random pieces of 0
 * to three blocks. */
static void sha_messages(const struct fh_kernel *k, const struct fh_kernel *p,
			 struct tu_rng *rng)
{
	const size_t bb = sha_block_bytes(k->family);
	const size_t sb = fh_state_bytes(k->family);
	uint8_t want[64], got[64];
	struct sha_msg m;

	for (size_t i = 0; i < sizeof sha_abc / sizeof *sha_abc; i++) {
		if (sha_abc[i].family != k->family)
			continue;
		tu_unhex(want, sha_abc[i].hex, 2 * sb);
		for (int on = 0; on < 2; on++) {
			sha_msg_init(&m, on ? k : p);
			sha_msg_update(&m, (const uint8_t *)"abc", 3);
			sha_msg_final(&m, got);
			same(on ? "message \"abc\"" : "message \"abc\" on the "
			     "portable kernel", 3, want, got, sb);
		}
	}
	for (size_t len = 0; len <= FOLD_MAX; len++) {
		size_t off = len % 16, at = 0;
		char what[80];

		sha_msg_init(&m, p);
		sha_msg_update(&m, src, len);
		sha_msg_final(&m, want);

		memcpy(work + off, src, len);
		sha_msg_init(&m, k);
		sha_msg_update(&m, work + off, len);
		sha_msg_final(&m, got);
		snprintf(what, sizeof what, "message, one call at offset %zu",
			 off);
		same(what, len, want, got, sb);

		sha_msg_init(&m, k);
		while (at < len) {
			size_t piece = tu_rand_below(rng, 3 * bb + 1);
			if (piece > len - at)
				piece = len - at;
			sha_msg_update(&m, work + off + at, piece);
			at += piece;
		}
		sha_msg_final(&m, got);
		same("message in random pieces", len, want, got, sb);
	}
}

/* ---- public API --------------------------------------------------------- */

/* SHAKE output lengths vary with the input length so that squeezing crosses
 * the rate (136 or 168 bytes) at many different input lengths. */
static size_t outlen_for(const struct fh_algo *a, size_t len)
{
	size_t max = fh_algo_max_bytes(a);

	if (!a->xof)
		return a->digest_bytes;
	return 1 + (len * 37) % (max < MAX_XOF_OUT ? max : MAX_XOF_OUT);
}

/* All lengths 0..FOLD_MAX, each digest compared and also folded (hashed in
 * sequence) into one digest per side; the fold is printed so that runs on
 * different machines and kernels can be compared at a glance. */
static void api_fold(const struct fh_algo *a, const struct fh_kernel *k,
		     const struct fh_kernel *p)
{
	uint8_t want[MAX_XOF_OUT], got[MAX_XOF_OUT];
	uint8_t fwant[FH_MAX_DIGEST], fgot[FH_MAX_DIGEST];
	size_t fold_len = a->digest_bytes;
	fh_ctx fold_p, fold_k;
	int first_bad_seen = 0;
	char what[64];

	snprintf(what, sizeof what, "%s all-lengths", a->name);
	tu_init_on(&fold_p, a, p, fold_len);
	tu_init_on(&fold_k, a, p, fold_len);
	for (size_t len = 0; len <= FOLD_MAX; len++) {
		size_t outlen = outlen_for(a, len);
		tu_hash_on(a, p, src, len, want, outlen);
		tu_hash_on(a, k, src, len, got, outlen);
		/* The fold below is the check; name the first differing
		 * length too, since that is the one worth debugging. */
		if (!first_bad_seen && memcmp(want, got, outlen)) {
			first_bad_seen = 1;
			report(what, len, want, got, outlen);
		}
		fh_update(&fold_p, want, outlen);
		fh_update(&fold_k, got, outlen);
	}
	fh_final(&fold_p, fwant, fold_len);
	fh_final(&fold_k, fgot, fold_len);
	snprintf(what, sizeof what, "%s fold of lengths 0..%d", a->name,
		 FOLD_MAX);
	if (same(what, FOLD_MAX, fwant, fgot, fold_len)) {
		printf("  %s %s fold ", kname, a->name);
		tu_print_hex(stdout, fgot, fold_len);
		printf("\n");
	}
}

static void api_splits(const struct fh_algo *a, const struct fh_kernel *k,
		       const struct fh_kernel *p, struct tu_rng *rng)
{
	const size_t rate = a->block_bytes;
	const size_t lens[] = { 0, 1, rate - 1, rate, rate + 1, 3 * rate + 5,
				1000, 4096 };
	uint8_t want[MAX_XOF_OUT], got[MAX_XOF_OUT];
	char what[64];

	snprintf(what, sizeof what, "%s random update split", a->name);
	for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
		size_t len = lens[li], outlen = outlen_for(a, len);
		tu_hash_on(a, p, src, len, want, outlen);
		for (int round = 0; round < 8; round++) {
			fh_ctx ctx;
			size_t at = 0;
			tu_init_on(&ctx, a, k, outlen);
			while (at < len) {
				size_t step = tu_rand_below(rng, 2 * rate + 2);
				if (step > len - at)
					step = len - at;
				fh_update(&ctx, src + at, step);
				at += step;
			}
			fh_final(&ctx, got, outlen);
			same(what, len, want, got, outlen);
		}
	}
}

static void api_unaligned(const struct fh_algo *a, const struct fh_kernel *k,
			  const struct fh_kernel *p)
{
	const size_t rate = a->block_bytes;
	const size_t lens[] = { 0, 1, 7, 8, 9, 63, 64, 65, rate - 1, rate,
				rate + 1, 2 * rate, 2 * rate + 3, 500, 1000,
				4096 };
	uint8_t want[MAX_XOF_OUT], got[MAX_XOF_OUT];
	char what[64];

	for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
		size_t len = lens[li], outlen = outlen_for(a, len);
		tu_hash_on(a, p, src, len, want, outlen);
		for (size_t off = 1; off < 16; off++) {
			memcpy(work + off, src, len);
			snprintf(what, sizeof what, "%s offset %zu", a->name,
				 off);
			tu_hash_on(a, k, work + off, len, got, outlen);
			same(what, len, want, got, outlen);

			/* A first piece of 1..15 bytes leaves the rest
			 * misaligned relative to the block buffer too. */
			size_t first = off < len ? off : len;
			fh_ctx ctx;
			tu_init_on(&ctx, a, k, outlen);
			fh_update(&ctx, work + off, first);
			fh_update(&ctx, work + off + first, len - first);
			fh_final(&ctx, got, outlen);
			snprintf(what, sizeof what,
				 "%s offset %zu, first piece %zu", a->name,
				 off, first);
			same(what, len, want, got, outlen);
		}
	}
}

static void api_guard(const struct fh_algo *a, const struct fh_kernel *k,
		      const struct fh_kernel *p)
{
	const size_t rate = a->block_bytes;
	uint8_t want[MAX_XOF_OUT], got[MAX_XOF_OUT];
	char what[64];

	snprintf(what, sizeof what, "%s input ending at guard page", a->name);
	/* Every length through three blocks, then some long ones. */
	const size_t longer[] = { 1000, 4095, 4096, SRC_BYTES };
	const size_t nshort = 3 * rate + 2;
	for (size_t i = 0; i < nshort + sizeof longer / sizeof *longer; i++) {
		size_t len = i < nshort ? i : longer[i - nshort];
		size_t outlen = outlen_for(a, len);
		const uint8_t *d = at_guard(len);
		tu_hash_on(a, p, src, len, want, outlen);
		snprintf(guard_what, sizeof guard_what,
			 "kernel %s, %s, len %zu", kname, a->name, len);
		tu_hash_on(a, k, d, len, got, outlen);
		guard_what[0] = '\0';
		same(what, len, want, got, outlen);
	}
}

/* ---- multi-buffer kernels ---------------------------------------------- */

/* Where lane I's LEN bytes of input go: OFF bytes into its region (misaligned
 * by OFF), or with AT_GUARD so that the last byte is the last before its
 * guard page. */
static const uint8_t *lane_place(unsigned i, const uint8_t *from, size_t len,
				 int at_guard, size_t off)
{
	uint8_t *p = at_guard ? lane_end[i] - len
			      : lane_end[i] - guard_span + off;
	memcpy(p, from, len);
	return p;
}

/* md5_blocks_xn: each lane against md5_blocks of the portable kernel. */
static void multi_raw_md5(const struct fh_kernel *k, const struct fh_kernel *p,
			  struct tu_rng *rng)
{
	static const size_t counts[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16,
					 17, 31, 33, 64 };
	const unsigned nl = k->lanes;

	for (int at_guard = 0; at_guard < 2; at_guard++) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			size_t nb = counts[c], len = nb * 64;
			uint32_t want[FH_MAX_LANES + 1][4];
			uint32_t got[FH_MAX_LANES + 1][4];
			const uint8_t *d[FH_MAX_LANES];
			char what[96];

			for (unsigned i = 0; i <= nl; i++)
				for (int w = 0; w < 4; w++)
					want[i][w] = got[i][w] =
						(uint32_t)tu_rand(rng);
			for (unsigned i = 0; i < nl; i++) {
				const uint8_t *from =
					src + tu_rand_below(rng,
							    SRC_BYTES - len + 1);
				d[i] = lane_place(i, from, len, at_guard,
						  (i * 7 + c) % 16);
				fh_md5_blocks_of(p)(want[i], from, nb);
			}
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s md5_blocks_xn nblocks=%zu%s", kname,
				 nb, at_guard ? ", lanes at guard pages" : "");
			fh_md5_blocks_xn_of(k)(got, d, nb);
			guard_what[0] = '\0';
			for (unsigned i = 0; i <= nl; i++) {
				snprintf(what, sizeof what,
					 i < nl ? "md5_blocks_xn lane %u%s"
						: "md5_blocks_xn wrote state %u, "
						  "past its lanes%s",
					 i, at_guard ? " at guard page" : "");
				same(what, len, want[i], got[i],
				     sizeof want[i]);
			}
		}
	}
}

/* keccak_absorb_xn: each lane against keccak_absorb of the portable
 * kernel, at every rate (and 8 and 16 bytes, which the interface allows). */
static void multi_raw_keccak(const struct fh_kernel *k,
			     const struct fh_kernel *p, struct tu_rng *rng)
{
	static const size_t rates[] = { 72, 104, 136, 144, 168, 8, 16 };
	static const size_t counts[] = { 0, 1, 2, 3, 4, 5, 7, 8, 12, 17, 25 };
	const unsigned nl = k->lanes;
	static uint64_t want[FH_MAX_LANES + 1][25], got[FH_MAX_LANES + 1][25];

	for (size_t r = 0; r < sizeof rates / sizeof *rates; r++) {
		size_t rate = rates[r];
		for (int at_guard = 0; at_guard < 2 * (int)N_ROUNDS; at_guard++) {
			unsigned nr = keccak_rounds[at_guard / 2];
			for (size_t c = 0; c < sizeof counts / sizeof *counts;
			     c++) {
				size_t nb = counts[c], len = nb * rate;
				const uint8_t *d[FH_MAX_LANES];
				char what[96];

				for (unsigned i = 0; i <= nl; i++)
					random_state(rng, want[i], got[i]);
				for (unsigned i = 0; i < nl; i++) {
					const uint8_t *from =
						src + tu_rand_below(
							      rng, SRC_BYTES - len + 1);
					d[i] = lane_place(i, from, len,
							  at_guard % 2,
							  (i * 5 + c) % 16);
					fh_keccak_absorb_of(p)(want[i], from, nb,
							 rate, nr);
				}
				snprintf(guard_what, sizeof guard_what,
					 "kernel %s keccak_absorb_xn rate=%zu "
					 "nblocks=%zu rounds=%u%s",
					 kname, rate, nb, nr,
					 at_guard % 2 ? ", lanes at guard pages"
						      : "");
				fh_keccak_absorb_xn_of(k)(got, d, nb, rate, nr);
				guard_what[0] = '\0';
				for (unsigned i = 0; i <= nl; i++) {
					snprintf(what, sizeof what,
						 i < nl ? "keccak_absorb_xn rate=%zu "
							  "rounds=%u lane %u%s"
							: "keccak_absorb_xn rate=%zu "
							  "rounds=%u wrote state %u, "
							  "past its lanes%s",
						 rate, nr, i,
						 at_guard % 2 ? " at guard page"
							      : "");
					same(what, len, want[i], got[i],
					     sizeof want[i]);
				}
			}
		}
	}
}

/* blake2b_blocks_xn: each lane against blake2b_blocks of the portable
 * kernel, from random states and counters (the counters near 2^64 - 1
 * too, where t wraps), the lanes' data misaligned or ending at their
 * guard pages, and the states past the lanes left alone. */
static void multi_raw_blake2b(const struct fh_kernel *k,
			      const struct fh_kernel *p, struct tu_rng *rng)
{
	static const size_t counts[] = { 0, 1, 2, 3, 4, 5, 7, 9, 17, 31 };
	const unsigned nl = k->lanes;
	static uint64_t want[FH_MAX_LANES + 1][FH_BLAKE2B_LANE_WORDS];
	static uint64_t got[FH_MAX_LANES + 1][FH_BLAKE2B_LANE_WORDS];

	for (int at_guard = 0; at_guard < 2; at_guard++) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			size_t nb = counts[c], len = nb * 128;
			const uint8_t *d[FH_MAX_LANES];
			char what[96];

			tu_rand_bytes(rng, (uint8_t *)want, sizeof want);
			for (unsigned i = 0; i < nl; i++)
				if (c % 3 == 2)
					want[i][8] = ~(uint64_t)0 - tu_rand_below(rng, 1000);
			memcpy(got, want, sizeof got);
			for (unsigned i = 0; i < nl; i++) {
				const uint8_t *from =
					src + tu_rand_below(rng, SRC_BYTES - len + 1);
				d[i] = lane_place(i, from, len, at_guard,
						  (i * 3 + c) % 16);
				fh_blake2b_blocks_of(p)(want[i], from, nb,
							want[i][8], false);
				want[i][8] += nb * 128;
			}
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s blake2b_blocks_xn nblocks=%zu%s", kname,
				 nb, at_guard ? ", lanes at guard pages" : "");
			fh_blake2b_blocks_xn_of(k)(got, d, nb);
			guard_what[0] = '\0';
			for (unsigned i = 0; i <= nl; i++) {
				snprintf(what, sizeof what,
					 i < nl ? "blake2b_blocks_xn lane %u%s"
						: "blake2b_blocks_xn wrote state %u, "
						  "past its lanes%s",
					 i, at_guard ? " at guard page" : "");
				same(what, len, want[i], got[i], sizeof want[i]);
			}
		}
	}
	/* The last blocks (the kernel's `tree`): 0 to 128 bytes each,
	 * zero-padded at its own offset, added to the lane's t, f0 set. */
	for (int round = 0; round < 16; round++) {
		uint8_t blocks[FH_MAX_LANES][128 + 8];
		const uint8_t *d[FH_MAX_LANES];
		uint64_t lens[FH_MAX_LANES];

		tu_rand_bytes(rng, (uint8_t *)want, sizeof want);
		for (unsigned i = 0; i <= nl; i++)
			want[i][8] = 128 * tu_rand_below(rng, 100);
		memcpy(got, want, sizeof got);
		for (unsigned i = 0; i < nl; i++) {
			uint8_t *b = blocks[i] + tu_rand_below(rng, 8);

			lens[i] = round == 0 ? 0 : round == 1 ? 128
				: tu_rand_below(rng, 129);
			memset(b, 0, 128);
			memcpy(b, src + (i * 877 + (size_t)round) % (SRC_BYTES - 128),
			       lens[i]);
			d[i] = b;
			fh_blake2b_blocks_of(p)(want[i], b, 1,
						want[i][8] + lens[i] - 128, true);
			want[i][8] += lens[i];
		}
		fh_blake2b_last_xn_of(k)(got, d, lens);
		for (unsigned i = 0; i <= nl; i++)
			same(i < nl ? "blake2b last blocks" : "blake2b past the last blocks",
			     i < nl ? lens[i] : 0, want[i], got[i], sizeof want[i]);
	}
}

/* One lane of the manager below: its input (a copy of src[0..len) ending
 * at the lane's guard page) and how much of it the kernel has absorbed. */
struct mb_lane {
	int busy;
	size_t len, pos;
	const uint8_t *data;
};

/* The digests of lengths 0..FOLD_MAX, as the manager finishes them. */
static uint8_t mb_digest[FOLD_MAX + 1][MAX_XOF_OUT];

/* Finishes the input in lane L, whose state is STATE: a context of the
 * portable kernel takes that state and the count of bytes absorbed, then
 * the input's tail and the padding. */
static void mb_finish(const struct fh_algo *a, const struct fh_kernel *p,
		      struct mb_lane *l, void *state)
{
	fh_ctx ctx;

	tu_init_on(&ctx, a, p, outlen_for(a, l->len));
	memcpy(&ctx.state, state, fh_state_bytes(a->family));
	ctx.total = l->pos;
	fh_update(&ctx, l->data + l->pos, l->len - l->pos);
	fh_final(&ctx, mb_digest[l->len], outlen_for(a, l->len));
	l->busy = 0;
}

/* Starts the input of length LEN in lane I (L, STATE): its copy, ending
 * at the lane's guard page, and the initial state. */
static void mb_start(const struct fh_algo *a, const struct fh_kernel *p,
		     unsigned i, struct mb_lane *l, void *state, size_t len)
{
	fh_ctx ctx;

	/* BLAKE2b's digest length is a parameter of its start. */
	tu_init_on(&ctx, a, p, outlen_for(a, len));
	memcpy(state, &ctx.state, fh_state_bytes(a->family));
	l->busy = 1;
	l->len = len;
	l->pos = 0;
	l->data = lane_place(i, src, len, 1, 0);
}

/* The whole blocks lane L may run: for BLAKE2b, whose last block is
 * compressed its own way, those that more bytes follow (fh_held_bytes). */
static size_t mb_blocks(const struct fh_algo *a, const struct mb_lane *l)
{
	size_t left = l->len - l->pos, held = fh_held_bytes(a->family);

	return left > held ? (left - held) / a->block_bytes : 0;
}

/* The fold of api_fold, computed through the multi-buffer kernel: the
 * inputs src[0..len) for len 0..FOLD_MAX go to the lanes in a shuffled
 * order, so lanes hold inputs of very different lengths, and each call
 * advances all lanes by the blocks the shortest has left, or by fewer. */
static void multi_fold(const struct fh_algo *a, const struct fh_kernel *k,
		       const struct fh_kernel *p, struct tu_rng *rng)
{
	static size_t order[FOLD_MAX + 1];
	static uint32_t md5[FH_MAX_LANES + 1][4];
	static uint64_t keccak[FH_MAX_LANES + 1][25];
	static uint64_t b2[FH_MAX_LANES + 1][FH_BLAKE2B_LANE_WORDS];
	const size_t block = a->block_bytes;
	const unsigned nl = k->lanes;
	const int is_md5 = a->family == FH_FAMILY_MD5;
	const int is_b2 = a->family == FH_FAMILY_BLAKE2B;
	struct mb_lane lane[FH_MAX_LANES];
	uint8_t want[MAX_XOF_OUT], canary[sizeof keccak[0]];
	uint8_t fwant[FH_MAX_DIGEST], fgot[FH_MAX_DIGEST];
	size_t next = 0, calls = 0, fold_len = a->digest_bytes;
	int first_bad_seen = 0;
	char what[96];

	for (size_t i = 0; i <= FOLD_MAX; i++)
		order[i] = i;
	for (size_t i = FOLD_MAX; i > 0; i--) {
		size_t j = tu_rand_below(rng, i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	memset(lane, 0, sizeof lane);
	void *extra = is_md5 ? (void *)md5[nl] : is_b2 ? (void *)b2[nl]
		    : (void *)keccak[nl];
	size_t state_size = fh_state_bytes(a->family);
	tu_rand_bytes(rng, canary, state_size);
	memcpy(extra, canary, state_size);

	for (;;) {
		/* Finish the lanes with no whole block left, and refill. */
		int busy = 0;
		size_t n = SIZE_MAX;
		for (unsigned i = 0; i < nl; i++) {
			void *st = is_md5 ? (void *)md5[i] : is_b2 ? (void *)b2[i]
				 : (void *)keccak[i];
			struct mb_lane *l = &lane[i];
			for (;;) {
				if (l->busy && mb_blocks(a, l))
					break;
				if (l->busy)
					mb_finish(a, p, l, st);
				if (next > FOLD_MAX)
					break;
				mb_start(a, p, i, l, st, order[next++]);
			}
			if (l->busy) {
				busy = 1;
				if (mb_blocks(a, l) < n)
					n = mb_blocks(a, l);
			}
		}
		if (!busy)
			break;
		/* Now and then fewer blocks than all lanes have, down to one. */
		if (tu_rand_below(rng, 4) == 0)
			n = 1 + tu_rand_below(rng, n);

		/* Idle lanes hash scratch data into their own state slot. */
		const uint8_t *d[FH_MAX_LANES];
		for (unsigned i = 0; i < nl; i++)
			d[i] = lane[i].busy ? lane[i].data + lane[i].pos : work;
		snprintf(guard_what, sizeof guard_what,
			 "kernel %s, %s, lanes ending at guard pages, "
			 "nblocks=%zu", kname, a->name, n);
		if (is_md5)
			fh_md5_blocks_xn_of(k)(md5, d, n);
		else if (is_b2)
			fh_blake2b_blocks_xn_of(k)(b2, d, n);
		else
			fh_keccak_absorb_xn_of(k)(keccak, d, n, block, a->rounds);
		guard_what[0] = '\0';
		calls++;
		for (unsigned i = 0; i < nl; i++)
			if (lane[i].busy)
				lane[i].pos += n * block;
	}
	snprintf(what, sizeof what, "%s lanes: state past the lanes",
		 a->name);
	same(what, 0, canary, extra, state_size);

	fh_ctx fold_p, fold_k;
	fh_init_kernel(&fold_p, a, p);
	fh_init_kernel(&fold_k, a, p);
	snprintf(what, sizeof what, "%s all-lengths through %u lanes",
		 a->name, nl);
	for (size_t len = 0; len <= FOLD_MAX; len++) {
		size_t outlen = outlen_for(a, len);
		tu_hash_on(a, p, src, len, want, outlen);
		if (!first_bad_seen && memcmp(want, mb_digest[len], outlen)) {
			first_bad_seen = 1;
			report(what, len, want, mb_digest[len], outlen);
		}
		fh_update(&fold_p, want, outlen);
		fh_update(&fold_k, mb_digest[len], outlen);
	}
	fh_final(&fold_p, fwant, fold_len);
	fh_final(&fold_k, fgot, fold_len);
	snprintf(what, sizeof what, "%s fold of lengths 0..%d in lanes",
		 a->name, FOLD_MAX);
	if (same(what, FOLD_MAX, fwant, fgot, fold_len)) {
		printf("  %s %s fold ", kname, a->name);
		tu_print_hex(stdout, fgot, fold_len);
		printf(" (%zu calls)\n", calls);
	}
}

/* ---- SHA-1 and SHA-2 ------------------------------------------------------
 *
 * The SHA kernels are block functions under the hashes' own padding, which
 * is written out here (FIPS 180-4 §5.1, the initial values of §5.3) so
 * that the kernels are tested whole, through the padding, without the
 * library's modes: every message length 0..FOLD_MAX on the kernel against
 * the portable kernel, and a few digests from python3 hashlib. */

/* FH_MAX_LANES + 1 states of each SHA family: the multi-buffer functions
 * take arrays of their own row length. */
struct sha_set {
	uint32_t s1[FH_MAX_LANES + 1][5];
	uint32_t s256[FH_MAX_LANES + 1][8];
	uint64_t s512[FH_MAX_LANES + 1][8];
};

static size_t mb_sha_block_bytes(enum fh_family f)
{
	return f == FH_FAMILY_SHA512 ? 128 : 64;
}

static size_t sha_state_bytes(enum fh_family f)
{
	return f == FH_FAMILY_SHA1 ? 20 : f == FH_FAMILY_SHA256 ? 32 : 64;
}

static void *sha_state(enum fh_family f, struct sha_set *s, unsigned i)
{
	return f == FH_FAMILY_SHA1	  ? (void *)s->s1[i]
	       : f == FH_FAMILY_SHA256 ? (void *)s->s256[i]
				       : (void *)s->s512[i];
}

static void mb_sha_blocks(const struct fh_kernel *k, void *st, const uint8_t *d,
		       size_t nb)
{
	if (k->family == FH_FAMILY_SHA1)
		fh_sha1_blocks_of(k)(st, d, nb);
	else if (k->family == FH_FAMILY_SHA256)
		fh_sha256_blocks_of(k)(st, d, nb);
	else
		fh_sha512_blocks_of(k)(st, d, nb);
}

static void sha_blocks_xn(const struct fh_kernel *k, struct sha_set *s,
			  const uint8_t *const *d, size_t nb)
{
	if (k->family == FH_FAMILY_SHA1)
		fh_sha1_blocks_xn_of(k)(s->s1, d, nb);
	else if (k->family == FH_FAMILY_SHA256)
		fh_sha256_blocks_xn_of(k)(s->s256, d, nb);
	else
		fh_sha512_blocks_xn_of(k)(s->s512, d, nb);
}

static void random_sha_state(enum fh_family f, struct tu_rng *rng, void *a,
			     void *b)
{
	size_t n = sha_state_bytes(f);

	tu_rand_bytes(rng, a, n);
	memcpy(b, a, n);
}

/* The initial hash values H(0), FIPS 180-4 §5.3. */
static void sha_iv(enum fh_algo_id id, void *st)
{
	static const uint32_t iv1[5] = { 0x67452301, 0xefcdab89, 0x98badcfe,
					 0x10325476, 0xc3d2e1f0 };
	static const uint32_t iv224[8] = {
		0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
		0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4 };
	static const uint32_t iv256[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	static const uint64_t iv384[8] = {
		0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17,
		0x152fecd8f70e5939, 0x67332667ffc00b31, 0x8eb44a8768581511,
		0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4 };
	static const uint64_t iv512[8] = {
		0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
		0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
		0x1f83d9abfb41bd6b, 0x5be0cd19137e2179 };

	switch (id) {
	case FH_SHA1:
		memcpy(st, iv1, sizeof iv1);
		break;
	case FH_SHA224:
		memcpy(st, iv224, sizeof iv224);
		break;
	case FH_SHA256:
		memcpy(st, iv256, sizeof iv256);
		break;
	case FH_SHA384:
		memcpy(st, iv384, sizeof iv384);
		break;
	default:
		memcpy(st, iv512, sizeof iv512);
		break;
	}
}

/* The digest of M[0..LEN) from ST, which has absorbed its first DONE
 * blocks: the other whole blocks and the padding on K, then H as
 * big-endian words, cut to the algorithm's length. */
static void sha_finish(const struct fh_kernel *k, const struct fh_algo *a,
		       void *st, const uint8_t *m, size_t len, size_t done,
		       uint8_t *out)
{
	const size_t bb = mb_sha_block_bytes(a->family);
	const size_t lenfield = bb == 128 ? 16 : 8;
	size_t whole = len / bb, r = len % bb;
	uint8_t tail[256];

	mb_sha_blocks(k, st, m + done * bb, whole - done);
	memset(tail, 0, sizeof tail);
	memcpy(tail, m + whole * bb, r);
	tail[r] = 0x80;
	size_t n = r + 1 + lenfield <= bb ? 1 : 2;
	uint64_t bits = (uint64_t)len * 8;
	for (int i = 0; i < 8; i++)
		tail[n * bb - 1 - i] = (uint8_t)(bits >> (8 * i));
	mb_sha_blocks(k, st, tail, n);
	for (unsigned i = 0; i < a->digest_bytes; i++)
		out[i] = a->family == FH_FAMILY_SHA512
				 ? (uint8_t)(((uint64_t *)st)[i / 8] >>
					     (56 - 8 * (i % 8)))
				 : (uint8_t)(((uint32_t *)st)[i / 4] >>
					     (24 - 8 * (i % 4)));
}

static void sha_digest(const struct fh_kernel *k, const struct fh_algo *a,
		       const uint8_t *m, size_t len, uint8_t *out)
{
	uint64_t st[8];

	sha_iv(a->id, st);
	sha_finish(k, a, st, m, len, 0, out);
}

/* Digests from python3 hashlib: of "", "abc" and 1000 bytes of the
 * vector pattern (byte i is i % 251). */
static const struct {
	enum fh_algo_id id;
	size_t len;
	const char *hex;
} sha_known[] = {
	{ FH_SHA1, 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ FH_SHA1, 3, "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ FH_SHA1, 1000, "c9c960a0b925474fab83942cc27d504fc24ac37b" },
	{ FH_SHA224, 0,
	  "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f" },
	{ FH_SHA224, 3,
	  "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
	{ FH_SHA224, 1000,
	  "c182669a7f6629dc7fd8a9198f15af15adbbaeffa1842e854f681357" },
	{ FH_SHA256, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495"
			"991b7852b855" },
	{ FH_SHA256, 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410"
			"ff61f20015ad" },
	{ FH_SHA256, 1000, "4e4c294b331f7a2099a379bec34b9f9fc03dc46ab465d998f4"
			   "d683da53487e6d" },
	{ FH_SHA384, 0, "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0c"
			"c7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b" },
	{ FH_SHA384, 3, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b"
			"605a43ff5bed8086072ba1e7cc2358baeca134c825a7" },
	{ FH_SHA384, 1000, "7a2f8c7f12344964a13cb9260492b845e56615d6152b9eb9e5"
			   "4b580fc88405e64f31813bfda10de2a642fdf1676c61b4" },
	{ FH_SHA512, 0, "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4"
			"a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd"
			"47417a81a538327af927da3e" },
	{ FH_SHA512, 3, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9e"
			"eee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423"
			"643ce80e2a9ac94fa54ca49f" },
	{ FH_SHA512, 1000, "5096498d96f50f9a137c4db5b8b0cd38383ad55350fb5a9880"
			   "5fedc31fa1262f1f0cf4d6f12d7ecd8dedd933a4c9126344fe"
			   "22e937a8ad35fdeae1e876ae698b" },
};

/* The hashlib digests on kernel K (each lane of a multi-buffer one). */
static void sha_known_digests(const struct fh_kernel *k)
{
	static uint8_t pattern[1000];
	uint8_t want[FH_MAX_DIGEST], got[FH_MAX_DIGEST];

	tu_fill_pattern(pattern, sizeof pattern);
	for (size_t i = 0; i < sizeof sha_known / sizeof *sha_known; i++) {
		const struct fh_algo *a = fh_algo_get(sha_known[i].id);
		size_t len = sha_known[i].len;
		const uint8_t *m = len == 3 ? (const uint8_t *)"abc" : pattern;
		char what[64];

		if (a->family != k->family)
			continue;
		tu_unhex(want, sha_known[i].hex, 2 * a->digest_bytes);
		snprintf(what, sizeof what, "%s hashlib digest", a->name);
		if (k->lanes == 1) {
			sha_digest(k, a, m, len, got);
			same(what, len, want, got, a->digest_bytes);
			continue;
		}
		/* Every lane hashes the message; the digest is finished on
		 * the portable kernel from each lane's state. */
		static struct sha_set set;
		const uint8_t *d[FH_MAX_LANES];
		size_t whole = len / mb_sha_block_bytes(a->family);
		for (unsigned l = 0; l < k->lanes; l++) {
			sha_iv(a->id, sha_state(a->family, &set, l));
			d[l] = lane_place(l, m, len, 1, 0);
		}
		sha_blocks_xn(k, &set, d, whole);
		for (unsigned l = 0; l < k->lanes; l++) {
			sha_finish(tu_portable(a->family), a,
				   sha_state(a->family, &set, l), d[l], len,
				   whole, got);
			same(what, len, want, got, a->digest_bytes);
		}
	}
}

/* The block function on random states: every block count 0..64 at
 * offsets 0..7, then 64 blocks in random pieces, then blocks that end at
 * the guard page. */
static void mb_raw_sha(const struct fh_kernel *k, const struct fh_kernel *p,
		    struct tu_rng *rng)
{
	const enum fh_family f = k->family;
	const size_t bb = mb_sha_block_bytes(f), sn = sha_state_bytes(f);
	uint64_t want[8], got[8];
	char what[64];

	for (size_t nb = 0; nb <= 64; nb++) {
		for (size_t off = 0; off < 8; off++) {
			random_sha_state(f, rng, want, got);
			memcpy(work + off, src, nb * bb);
			mb_sha_blocks(p, want, src, nb);
			mb_sha_blocks(k, got, work + off, nb);
			snprintf(what, sizeof what, "blocks off=%zu", off);
			same(what, nb * bb, want, got, sn);
		}
	}
	for (int round = 0; round < 32; round++) {
		random_sha_state(f, rng, want, got);
		mb_sha_blocks(p, want, src, 64);
		for (size_t at = 0; at < 64;) {
			size_t step = 1 + tu_rand_below(rng, 9);
			if (step > 64 - at)
				step = 64 - at;
			mb_sha_blocks(k, got, src + at * bb, step);
			at += step;
		}
		same("64 blocks in random pieces", 64 * bb, want, got, sn);
	}
	for (size_t nb = 1; nb <= 8; nb++) {
		const uint8_t *d = at_guard(nb * bb);
		random_sha_state(f, rng, want, got);
		mb_sha_blocks(p, want, src, nb);
		snprintf(guard_what, sizeof guard_what,
			 "kernel %s blocks nblocks=%zu", kname, nb);
		mb_sha_blocks(k, got, d, nb);
		guard_what[0] = '\0';
		same("blocks at guard page", nb * bb, want, got, sn);
	}
}

/* Every length 0..FOLD_MAX through the padding, on K and on P, for each
 * algorithm of K's family; the digests are also folded into one, printed
 * so that runs on different machines can be compared. */
static void sha_all_lengths(const struct fh_kernel *k,
			    const struct fh_kernel *p)
{
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		uint8_t want[FH_MAX_DIGEST], got[FH_MAX_DIGEST];
		uint8_t fold_want[FH_MAX_DIGEST], fold_got[FH_MAX_DIGEST];
		uint64_t fw[8], fg[8];
		int bad = 0;
		char what[64];

		if (a->family != k->family)
			continue;
		/* Each digest is chained into the next message's state. */
		sha_iv(a->id, fw);
		sha_iv(a->id, fg);
		snprintf(what, sizeof what, "%s all lengths", a->name);
		for (size_t len = 0; len <= FOLD_MAX; len++) {
			sha_digest(p, a, src, len, want);
			sha_digest(k, a, src, len, got);
			if (!bad && memcmp(want, got, a->digest_bytes)) {
				bad = 1;
				report(what, len, want, got, a->digest_bytes);
			}
			sha_finish(p, a, fw, want, a->digest_bytes, 0,
				   fold_want);
			sha_finish(p, a, fg, got, a->digest_bytes, 0, fold_got);
		}
		snprintf(what, sizeof what, "%s fold of lengths 0..%d",
			 a->name, FOLD_MAX);
		if (same(what, FOLD_MAX, fold_want, fold_got,
			 a->digest_bytes)) {
			printf("  %s %s fold ", kname, a->name);
			tu_print_hex(stdout, fold_got, a->digest_bytes);
			printf("\n");
		}
	}
}

static int test_sha_kernel(const struct fh_kernel *k)
{
	const struct fh_kernel *p = tu_portable(k->family);
	struct tu_rng rng = { 0xfe11a5ull };
	unsigned long checks = n_checks, failed = n_failed;

	kname = k->name;
	mb_raw_sha(k, p, &rng);
	sha_known_digests(k);
	sha_all_lengths(k, p);
	printf("kernel %s: %lu checks, %lu failed\n", k->name,
	       n_checks - checks, n_failed - failed);
	return n_failed != failed;
}

/* The multi-buffer function with BUSY lanes of 1..lanes holding inputs of
 * uneven block counts: the kernel takes all lanes as far as the shortest
 * goes, then each busy lane's remainder runs alone on the portable
 * kernel, as the engine runs it; each lane must end as the portable
 * kernel on its whole input.  Idle lanes hash scratch data into scratch
 * states; the state past the kernel's lanes must stay untouched. */
static void multi_raw_sha(const struct fh_kernel *k, const struct fh_kernel *p,
			  struct tu_rng *rng)
{
	static struct sha_set want, got;
	const enum fh_family f = k->family;
	const size_t bb = mb_sha_block_bytes(f), sn = sha_state_bytes(f);
	const unsigned nl = k->lanes;
	char what[96];

	for (unsigned busy = 1; busy <= nl; busy++) {
		for (int trial = 0; trial < 8; trial++) {
			const uint8_t *d[FH_MAX_LANES], *from[FH_MAX_LANES];
			size_t nb[FH_MAX_LANES], n = SIZE_MAX;
			int guard = trial % 2;

			for (unsigned i = 0; i <= nl; i++)
				random_sha_state(f, rng, sha_state(f, &want, i),
						 sha_state(f, &got, i));
			for (unsigned i = 0; i < nl; i++) {
				if (i >= busy) {
					d[i] = work;
					continue;
				}
				/* Trial 0 gives every lane the same count;
				 * the others up to 20 blocks each. */
				nb[i] = trial ? tu_rand_below(rng, 21) : 9;
				from[i] = src + tu_rand_below(
					rng, SRC_BYTES - nb[i] * bb + 1);
				d[i] = lane_place(i, from[i], nb[i] * bb, guard,
						  1 + (i + trial) % 7);
				mb_sha_blocks(p, sha_state(f, &want, i), from[i],
					   nb[i]);
				if (nb[i] < n)
					n = nb[i];
			}
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s, %u busy lanes, nblocks=%zu%s",
				 kname, busy, n,
				 guard ? ", lanes at guard pages" : "");
			sha_blocks_xn(k, &got, d, n);
			guard_what[0] = '\0';
			for (unsigned i = 0; i < busy; i++)
				mb_sha_blocks(p, sha_state(f, &got, i),
					   d[i] + n * bb, nb[i] - n);
			for (unsigned i = 0; i < busy; i++) {
				snprintf(what, sizeof what,
					 "lane %u of %u busy%s", i, busy,
					 guard ? " at guard page" : "");
				same(what, nb[i] * bb, sha_state(f, &want, i),
				     sha_state(f, &got, i), sn);
			}
			same("state past the lanes", 0,
			     sha_state(f, &want, nl), sha_state(f, &got, nl),
			     sn);
		}
	}
}

/* Every length 0..FOLD_MAX, LANES messages at a time in a shuffled order
 * (so that lanes hold very different lengths): the kernel takes all
 * lanes for the whole blocks the shortest has, in one or two calls, and
 * each lane is finished on the portable kernel. */
static void multi_sha_all_lengths(const struct fh_kernel *k,
				  const struct fh_kernel *p,
				  struct tu_rng *rng)
{
	static size_t order[FOLD_MAX + 1];
	static struct sha_set set;
	const enum fh_family f = k->family;
	const size_t bb = mb_sha_block_bytes(f);
	const unsigned nl = k->lanes;

	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		uint8_t want[FH_MAX_DIGEST], got[FH_MAX_DIGEST];
		unsigned long bad = 0;
		char what[64];

		if (a->family != f)
			continue;
		for (size_t i = 0; i <= FOLD_MAX; i++)
			order[i] = i;
		for (size_t i = FOLD_MAX; i > 0; i--) {
			size_t j = tu_rand_below(rng, i + 1), t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		snprintf(what, sizeof what, "%s all lengths in %u lanes",
			 a->name, nl);
		for (size_t g = 0; g <= FOLD_MAX; g += nl) {
			const uint8_t *d[FH_MAX_LANES];
			size_t len[FH_MAX_LANES], n = SIZE_MAX;

			for (unsigned i = 0; i < nl; i++) {
				/* Past the last length, lanes repeat it. */
				len[i] = order[g + i <= FOLD_MAX ? g + i
								 : FOLD_MAX];
				d[i] = lane_place(i, src, len[i], 1, 0);
				sha_iv(a->id, sha_state(f, &set, i));
				if (len[i] / bb < n)
					n = len[i] / bb;
			}
			size_t first = n ? tu_rand_below(rng, n + 1) : 0;
			const uint8_t *d2[FH_MAX_LANES];
			for (unsigned i = 0; i < nl; i++)
				d2[i] = d[i] + first * bb;
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s, %s, lanes ending at guard pages",
				 kname, a->name);
			sha_blocks_xn(k, &set, d, first);
			sha_blocks_xn(k, &set, d2, n - first);
			guard_what[0] = '\0';
			for (unsigned i = 0; i < nl; i++) {
				sha_digest(p, a, src, len[i], want);
				sha_finish(p, a, sha_state(f, &set, i), d[i],
					   len[i], n, got);
				n_checks++;
				if (memcmp(want, got, a->digest_bytes)) {
					if (!bad++)
						report(what, len[i], want, got,
						       a->digest_bytes);
					n_failed++;
				}
			}
		}
		printf("  %s %s: lengths 0..%d in lanes, %lu wrong\n", kname,
		       a->name, FOLD_MAX, bad);
	}
}

static int test_sha_multi(const struct fh_kernel *k)
{
	const struct fh_kernel *p = tu_portable(k->family);
	struct tu_rng rng = { 0xfe11a5ull };
	unsigned long checks = n_checks, failed = n_failed;

	kname = k->name;
	multi_raw_sha(k, p, &rng);
	sha_known_digests(k);
	multi_sha_all_lengths(k, p, &rng);
	printf("kernel %s (%u lanes): %lu checks, %lu failed\n", k->name,
	       k->lanes, n_checks - checks, n_failed - failed);
	return n_failed != failed;
}

/* ---- KangarooTwelve's tree ---------------------------------------------- */

/* KT128/KT256 on kernel K against the portable kernel for inputs of 0 to
 * TREE_CHUNKS chunks and a few bytes either side, hashed whole (K's lanes take the
 * leaves in batches of 8, 4, 2 and 1 as they come) and in random pieces
 * (leaves one at a time, then in lanes, then alone again), with and
 * without a customization string. */
#define TREE_CHUNKS 19
static void kt_tree(const struct fh_algo *a, const struct fh_kernel *k,
		    const struct fh_kernel *p, struct tu_rng *rng)
{
	static uint8_t big[TREE_CHUNKS * FH_KT_CHUNK + 64];
	static const long deltas[] = { -1, 0, 1, 129, -4000 };
	uint8_t want[FH_MAX_DIGEST], got[FH_MAX_DIGEST];
	char what[96];

	if (!big[1])
		for (size_t i = 0; i < sizeof big; i++)
			big[i] = (uint8_t)(tu_rand(rng) >> 7);
	for (size_t n = 0; n <= TREE_CHUNKS; n++) {
		for (size_t d = 0; d < sizeof deltas / sizeof *deltas; d++) {
			long l = (long)(n * FH_KT_CHUNK) + deltas[d];
			size_t len = l < 0 ? 0 : (size_t)l, clen = d % 3 ? 0 : n;

			if (len > sizeof big - 64)
				continue;
			fh_ctx cp, ck, cs;
			fh_init_kernel(&cp, a, p);
			fh_update(&cp, big, len);
			fh_final_custom(&cp, big + 7, clen, want, a->digest_bytes);

			fh_init_kernel(&ck, a, k);
			fh_update(&ck, big, len);
			fh_final_custom(&ck, big + 7, clen, got, a->digest_bytes);
			snprintf(what, sizeof what, "%s tree, whole, C %zu bytes",
				 a->name, clen);
			same(what, len, want, got, a->digest_bytes);

			fh_init_kernel(&cs, a, k);
			for (size_t at = 0; at < len;) {
				size_t piece = tu_rand_below(rng, 3 * FH_KT_CHUNK);
				if (piece > len - at)
					piece = len - at;
				fh_update(&cs, big + at, piece);
				at += piece;
			}
			fh_final_custom(&cs, big + 7, clen, got, a->digest_bytes);
			snprintf(what, sizeof what, "%s tree, in pieces, C %zu bytes",
				 a->name, clen);
			same(what, len, want, got, a->digest_bytes);
		}
	}
}

static int test_multi(const struct fh_kernel *k)
{
	const struct fh_kernel *p = tu_portable(k->family);
	struct tu_rng rng = { 0xfe11a5ull };
	unsigned long checks = n_checks, failed = n_failed;

	if (is_sha(k->family))
		return test_sha_multi(k);
	kname = k->name;
	if (k->family == FH_FAMILY_MD5)
		multi_raw_md5(k, p, &rng);
	else if (k->family == FH_FAMILY_KECCAK)
		multi_raw_keccak(k, p, &rng);
	else if (k->family == FH_FAMILY_BLAKE2B)
		multi_raw_blake2b(k, p, &rng);
	else if (k->family == FH_FAMILY_BLAKE3)
		multi_raw_blake3(k, p, &rng);
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		if (a->family != k->family)
			continue;
		/* BLAKE3's lanes hold only the first chunk's first blocks:
		 * multi_raw_blake3 is their test, the engine's lanes the
		 * whole inputs' (tests/cli). */
		if (!fh_lane_max(a))
			multi_fold(a, k, p, &rng);
		if (a->cv_bytes)
			kt_tree(a, k, p, &rng);
		/* BLAKE3: one chunk, the root's first 32 bytes; BLAKE2b:
		 * the lengths hashlib's results cover, outputs to 64. */
		if (a->family == FH_FAMILY_BLAKE3)
			lanes_final(a, k, p, &rng, 1024, 32);
		if (a->family == FH_FAMILY_BLAKE2B)
			lanes_final(a, k, p, &rng, 1100, 64);
	}
	printf("kernel %s (%u lanes): %lu checks, %lu failed\n", k->name,
	       k->lanes, n_checks - checks, n_failed - failed);
	return n_failed != failed;
}

/* Whether multi-buffer kernel K can be tested here: 1 yes; 0 and a SKIP
 * line when this CPU cannot run it; -1 and a FAIL line when it lacks its
 * family's multi-buffer function or has too many lanes. */
static int multi_testable(const struct fh_kernel *k)
{
	int has = k->blocks_xn != NULL;
	if (!has || k->lanes > FH_MAX_LANES) {
		printf("FAIL kernel %s: %u lanes, multi-buffer function %s\n",
		       k->name, k->lanes, has ? "present" : "missing");
		return -1;
	}
	if (!fh_kernel_usable(k)) {
		printf("SKIP kernel %s (this CPU cannot run it)\n", k->name);
		return 0;
	}
	return 1;
}

/* ---- driver ------------------------------------------------------------- */

/* BLAKE3 as an engine's team hashes a large input (blake3.h): LEAD bytes
 * through fh_update up to a leaf's start, N leaves' chaining values
 * (fh_blake3_leaves, in claims of C leaves as threads would take them)
 * given back in order (fh_blake3_add_leaves, in windows of W leaves),
 * then a tail; plain and keyed, against the portable kernel's fh_update
 * of the same bytes.  N past 16 leaves and claims of 1..17 cover the
 * leaves hashed together and the claims' remainders; windows of 1..40,
 * and N of 32, 64 and past 256 (the most add_leaves merges at once),
 * its merging of aligned runs of leaves into their subtree's value. */
static void blake3_team(const struct fh_algo *a, const struct fh_kernel *k,
			const struct fh_kernel *p, struct tu_rng *rng)
{
	static const size_t leads[] = { 0, 1, 1024, FH_BLAKE3_LEAF - 1,
					FH_BLAKE3_LEAF + 5 };
	static const size_t ns[] = { 1, 2, 7, 8, 9, 16, 17, 32, 33, 64, 260 };
	static uint8_t big[263 * FH_BLAKE3_LEAF]; /* 2 leaves of lead, 260, a tail */
	static uint8_t cvs[260 * 32];
	uint8_t want[64], got[64];
	char what[96];

	tu_rand_bytes(rng, big, sizeof big);
	for (int keyed = 0; keyed < 2; keyed++) {
		struct fh_hash_params hp = {
			.outlen = 64,
			.keying = keyed ? FH_KEY_KEYED : FH_KEY_NONE,
			.key = keyed ? big + 3 : NULL,
			.keylen = keyed ? 32 : 0,
		};

		for (size_t li = 0; li < sizeof leads / sizeof *leads; li++) {
			for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++) {
				size_t n = ns[ni], claim = 1 + tu_rand_below(rng, 17);
				size_t window = 1 + tu_rand_below(rng, 40);
				size_t lead = leads[li];

				/* The longest only unkeyed, from the first and
				 * the last lead: it takes time under emulation. */
				if (n > 64 && (keyed || (li != 0 &&
							 li + 1 != sizeof leads / sizeof *leads)))
					continue;
				/* The leaves start at the first leaf boundary. */
				size_t start = (lead + FH_BLAKE3_LEAF - 1) /
					       FH_BLAKE3_LEAF * FH_BLAKE3_LEAF;
				size_t at = start + n * FH_BLAKE3_LEAF;
				size_t len = at + 1 + tu_rand_below(rng, 3000);
				fh_ctx cp, ck;

				fh_init_params(&cp, a, p, &hp);
				fh_update(&cp, big, len);
				fh_final(&cp, want, sizeof want);

				fh_init_params(&ck, a, k, &hp);
				fh_update(&ck, big, lead);
				size_t more = fh_blake3_lead_after(&ck, 0);

				snprintf(what, sizeof what, "%s team: lead_after %zu",
					 a->name, lead);
				same(what, lead, &start, &(size_t){ lead + more },
				     sizeof start);
				fh_update(&ck, big + lead, start - lead);
				for (size_t i = 0; i < n; i += claim)
					fh_blake3_leaves(&ck, big + start + i * FH_BLAKE3_LEAF,
							 start / FH_BLAKE3_LEAF + i,
							 n - i < claim ? n - i : claim,
							 cvs + 32 * i);
				for (size_t i = 0; i < n; i += window)
					fh_blake3_add_leaves(&ck, cvs + 32 * i,
							     n - i < window ? n - i : window);
				fh_update(&ck, big + at, len - at);
				fh_final(&ck, got, sizeof got);
				snprintf(what, sizeof what,
					 "%s team: lead %zu, %zu leaves in claims of %zu, "
					 "windows of %zu%s", a->name, lead, n, claim,
					 window, keyed ? ", keyed" : "");
				same(what, len, want, got, sizeof want);
			}
		}
	}
}

static int test_kernel(const struct fh_kernel *k)
{
	const struct fh_kernel *p = tu_portable(k->family);
	/* One seed for all kernels: each sees the same states and splits. */
	struct tu_rng rng = { 0xfe11a5ull };
	unsigned long checks = n_checks, failed = n_failed;

	/* SHA kernels: their own raw, message and known-answer checks
	 * first, then the public API's as every kernel has them. */
	if (is_sha(k->family))
		test_sha_kernel(k);
	kname = k->name;
	if (k->family == FH_FAMILY_MD5)
		raw_md5(k, p, &rng);
	else if (k->family == FH_FAMILY_KECCAK)
		raw_keccak(k, p, &rng);
	else if (k->family == FH_FAMILY_BLAKE2B) {
		raw_blake2b(k, p, &rng, 0);
		raw_blake2b(k, p, &rng, 1);
	} else if (k->family == FH_FAMILY_BLAKE3) {
		raw_blake3(k, p, &rng);
		raw_blake3_wide(k, p, &rng);
	}
	else
		raw_blocks(k, p, &rng);
	raw_guard(k, p);
	if (is_sha(k->family))
		sha_messages(k, p, &rng);

	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		if (a->family != k->family)
			continue;
		api_fold(a, k, p);
		api_splits(a, k, p, &rng);
		api_unaligned(a, k, p);
		api_guard(a, k, p);
		if (a->cv_bytes)
			kt_tree(a, k, p, &rng);
		if (a->family == FH_FAMILY_BLAKE3)
			blake3_team(a, k, p, &rng);
	}
	printf("kernel %s: %lu checks, %lu failed\n", k->name,
	       n_checks - checks, n_failed - failed);
	return n_failed != failed;
}

static int in_list(const char *name, char **names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* The registry checks of `kernel list`. */
static int check_registered(char **names, int n)
{
	const struct fh_kernel *k;
	int bad = 0, saw_portable[FH_FAMILY_COUNT] = { 0 };

	for (size_t i = 0; (k = fh_kernel_at(i)); i++) {
		if (!in_list(k->name, names, n)) {
			printf("FAIL kernel %s is built but not in kernel_names "
			       "in tests/unit/meson.build\n", k->name);
			bad = 1;
		}
		if (fh_kernel_by_name(k->name) != k) {
			printf("FAIL fh_kernel_by_name(\"%s\") does not return "
			       "the kernel of that name\n", k->name);
			bad = 1;
		}
		if ((unsigned)k->family >= FH_FAMILY_COUNT) {
			printf("FAIL kernel %s has family %d\n", k->name,
			       (int)k->family);
			bad = 1;
			continue;
		}
		if (k == tu_portable(k->family))
			saw_portable[k->family] = 1;
		int single = k->blocks || k->permute;
		int multi = k->blocks_xn != NULL;
		if (k->lanes == 0 || k->lanes > FH_MAX_LANES ||
		    (k->lanes == 1 && (multi || !single)) ||
		    (k->lanes > 1 && (single || !multi))) {
			printf("FAIL kernel %s: %u lanes with %s single-stream "
			       "and %s multi-buffer functions\n", k->name,
			       k->lanes, single ? "some" : "no",
			       multi ? "some" : "no");
			bad = 1;
		}
		printf("kernel %s: family %d, %u lane(s), %s\n", k->name,
		       (int)k->family, k->lanes,
		       fh_kernel_usable(k) ? "usable here" : "not usable here");
	}
	for (int f = 0; f < FH_FAMILY_COUNT; f++) {
		const struct fh_kernel *best =
			fh_kernel_best((enum fh_family)f);
		if (!saw_portable[f]) {
			printf("FAIL the portable kernel of family %d is not in "
			       "fh_kernel_at\n", f);
			bad = 1;
		}
		if (!best || best->family != (enum fh_family)f ||
		    !fh_kernel_usable(best) || best->lanes != 1) {
			printf("FAIL fh_kernel_best(%d) is not a usable "
			       "single-stream kernel of that family\n", f);
			bad = 1;
		}
		const struct fh_kernel *mb =
			fh_kernel_best_multi((enum fh_family)f);
		if (mb && (mb->family != (enum fh_family)f ||
			   !fh_kernel_usable(mb) || mb->lanes < 2)) {
			printf("FAIL fh_kernel_best_multi(%d) is not a usable "
			       "multi-buffer kernel of that family\n", f);
			bad = 1;
		}
		printf("family %d: picks %s and multi-buffer %s\n", f,
		       best ? best->name : "(none)", mb ? mb->name : "(none)");
	}
	if (!fh_kernel_usable(&fh_md5_portable) ||
	    !fh_kernel_usable(&fh_keccak_portable) ||
	    !fh_kernel_usable(&fh_sha1_portable) ||
	    !fh_kernel_usable(&fh_sha256_portable) ||
	    !fh_kernel_usable(&fh_sha512_portable) ||
	    !fh_kernel_usable(&fh_blake2b_portable) ||
	    !fh_kernel_usable(&fh_blake3_portable)) {
		printf("FAIL a portable kernel says it is not usable\n");
		bad = 1;
	}
	printf("%s\n", bad ? "kernel list: FAILED" : "kernel list: ok");
	return bad;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--registered"))
		return check_registered(argv + 2, argc - 2);
	if (argc > 2) {
		fprintf(stderr, "usage: %s [NAME | --registered NAME...]\n",
			argv[0]);
		return 2;
	}

	/* Line-buffered even into meson's pipe, so that output printed before
	 * a crash in a kernel is not lost with the process. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct tu_rng rng = { 0x5eedull };
	tu_rand_bytes(&rng, src, sizeof src);
	if (guard_setup())
		return 1;

	if (argc == 2) {
		int status = 0;
		const struct fh_kernel *k = fh_kernel_by_name(argv[1]);
		if (k && k->lanes > 1) {
			switch (multi_testable(k)) {
			case 1:
				return test_multi(k);
			case 0:
				return TU_EXIT_SKIP;
			default:
				return 1;
			}
		}
		k = tu_kernel_arg(argv[1], &status);
		if (!k)
			return status;
		return test_kernel(k);
	}

	const struct fh_kernel *k;
	unsigned tested = 0;
	for (size_t i = 0; (k = fh_kernel_at(i)); i++) {
		if (k->lanes > 1) {
			switch (multi_testable(k)) {
			case 1:
				test_multi(k);
				tested++;
				break;
			case 0:
				break;
			default:
				n_failed++;
				break;
			}
			continue;
		}
		switch (tu_kernel_testable(k)) {
		case TU_KERNEL_RUN:
			test_kernel(k);
			tested++;
			break;
		case TU_KERNEL_SKIP:
			break;
		case TU_KERNEL_BROKEN:
			n_failed++;
			break;
		}
	}
	printf("%u kernels tested, %lu checks, %lu failed\n", tested, n_checks,
	       n_failed);
	return n_failed ? 1 : 0;
}
