/* test_kernels.c: every kernel against the portable kernel of its family.
 *
 * Modelled on Linux's crypto/hash-test-template.h: the raw block functions
 * (md5_blocks; keccak_absorb at each FIPS 202 rate; keccak_permute) on random
 * states and data, then the public API on the kernel: all lengths 0..4096
 * folded into one digest, random update splits, input at offsets 1..15, and
 * input whose last byte sits just before a PROT_NONE guard page, so a kernel
 * that reads past its input crashes here rather than in the field.
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
 * first byte of a PROT_NONE page. */
static uint8_t *guard_end;
static size_t guard_span;
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
			p->md5_blocks(want, src, nb);
			k->md5_blocks(got, work + off, nb);
			char what[64];
			snprintf(what, sizeof what, "md5_blocks off=%zu", off);
			same(what, nb * 64, want, got, sizeof want);
		}
	}
}

static void random_state(struct tu_rng *rng, uint64_t a[25], uint64_t b[25])
{
	for (int i = 0; i < 25; i++)
		a[i] = b[i] = tu_rand(rng);
}

static void raw_keccak(const struct fh_kernel *k, const struct fh_kernel *p,
		       struct tu_rng *rng)
{
	static const size_t counts[] = { 0, 1, 2, 3, 4, 5, 7, 8, 12, 16, 25 };
	uint64_t want[25], got[25];

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
			p->keccak_permute(want);
			k->keccak_permute(got);
			same("keccak_permute", 200, want, got, sizeof want);
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
				p->keccak_absorb(want, src, nb, rate);
				k->keccak_absorb(got, work + off, nb, rate);
				char what[64];
				snprintf(what, sizeof what,
					 "keccak_absorb rate=%zu off=%zu", rate,
					 off);
				same(what, nb * rate, want, got, sizeof want);
			}
		}
	}
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

static int guard_setup(void)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	guard_span = ((size_t)SRC_BYTES + (size_t)page - 1) / (size_t)page *
		     (size_t)page;
	void *m = mmap(NULL, guard_span + (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	guard_end = (uint8_t *)m + guard_span;
	if (mprotect(guard_end, (size_t)page, PROT_NONE)) {
		perror("mprotect");
		return -1;
	}
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

static void raw_guard(const struct fh_kernel *k, const struct fh_kernel *p)
{
	if (k->family == FH_FAMILY_MD5) {
		for (size_t nb = 1; nb <= 8; nb++) {
			uint32_t want[4] = { 1, 2, 3, 4 }, got[4] = { 1, 2, 3, 4 };
			const uint8_t *d = at_guard(nb * 64);
			p->md5_blocks(want, src, nb);
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s md5_blocks nblocks=%zu", kname, nb);
			k->md5_blocks(got, d, nb);
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
			p->keccak_absorb(want, src, nb, rate);
			snprintf(guard_what, sizeof guard_what,
				 "kernel %s keccak_absorb rate=%zu nblocks=%zu",
				 kname, rate, nb);
			k->keccak_absorb(got, d, nb, rate);
			guard_what[0] = '\0';
			same("keccak_absorb at guard page", nb * rate, want,
			     got, sizeof want);
		}
	}
}

/* ---- public API --------------------------------------------------------- */

/* SHAKE output lengths vary with the input length so that squeezing crosses
 * the rate (136 or 168 bytes) at many different input lengths. */
static size_t outlen_for(const struct fh_algo *a, size_t len)
{
	return a->xof ? 1 + (len * 37) % MAX_XOF_OUT : a->digest_bytes;
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
	fh_init_kernel(&fold_p, a, p);
	fh_init_kernel(&fold_k, a, p);
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
			fh_init_kernel(&ctx, a, k);
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
			fh_init_kernel(&ctx, a, k);
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

/* ---- driver ------------------------------------------------------------- */

static int test_kernel(const struct fh_kernel *k)
{
	const struct fh_kernel *p = tu_portable(k->family);
	/* One seed for all kernels: each sees the same states and splits. */
	struct tu_rng rng = { 0xfe11a5ull };
	unsigned long checks = n_checks, failed = n_failed;

	kname = k->name;
	if (k->family == FH_FAMILY_MD5)
		raw_md5(k, p, &rng);
	else
		raw_keccak(k, p, &rng);
	raw_guard(k, p);

	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		if (a->family != k->family)
			continue;
		api_fold(a, k, p);
		api_splits(a, k, p, &rng);
		api_unaligned(a, k, p);
		api_guard(a, k, p);
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
		    !fh_kernel_usable(best)) {
			printf("FAIL fh_kernel_best(%d) is not a usable kernel "
			       "of that family\n", f);
			bad = 1;
		}
	}
	if (!fh_kernel_usable(&fh_md5_portable) ||
	    !fh_kernel_usable(&fh_keccak_portable)) {
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
		const struct fh_kernel *k = tu_kernel_arg(argv[1], &status);
		if (!k)
			return status;
		return test_kernel(k);
	}

	const struct fh_kernel *k;
	unsigned tested = 0;
	for (size_t i = 0; (k = fh_kernel_at(i)); i++) {
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
