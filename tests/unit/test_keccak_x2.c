/* test_keccak_x2.c: the two-state Keccak-f[1600] of the AArch64 SHA3
 * extension (fh_keccak_permute_x2_sha3ce) against two runs of the portable
 * permutation.  It is not a kernel yet (the descriptor has no multi-buffer
 * interface), so test_kernels does not see it.
 *
 * Checks: the zero state pair; random pairs, permuted several times in a
 * row (stale registers, round constants); two different states, so lanes
 * of one state leaking into the other fail; the same array passed twice.
 * Exit 0 pass, 1 fail, 77 skip (not an AArch64 build, or no SHA3 here).
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#if defined(__aarch64__)
#include "../../arch/aarch64/kernels_arm.h"
#endif

#if defined(__aarch64__)
static unsigned long n_checks, n_failed;

static void check(const char *what, int round, const uint64_t want[25],
		  const uint64_t got[25])
{
	n_checks++;
	if (!memcmp(want, got, 25 * sizeof *want))
		return;
	if (n_failed++ < 10) {
		printf("FAIL %s, round %d\n  expected ", what, round);
		tu_print_hex(stdout, (const uint8_t *)want, 200);
		printf("\n  got      ");
		tu_print_hex(stdout, (const uint8_t *)got, 200);
		printf("\n");
	}
}

/* Permutes (A, B) with the x2 function and copies of them with the portable
 * one, REPS times in a row, comparing after each. */
static void pair(const char *what, const uint64_t a[25], const uint64_t b[25],
		 int reps)
{
	uint64_t wa[25], wb[25], ga[25], gb[25];

	memcpy(wa, a, sizeof wa);
	memcpy(wb, b, sizeof wb);
	memcpy(ga, a, sizeof ga);
	memcpy(gb, b, sizeof gb);
	for (int r = 0; r < reps; r++) {
		fh_keccak_portable.keccak_permute(wa);
		fh_keccak_portable.keccak_permute(wb);
		fh_keccak_permute_x2_sha3ce(ga, gb);
		check(what, r, wa, ga);
		check(what, r, wb, gb);
	}
}

int main(void)
{
	if (!(fh_cpu_features() & FH_CPU_ARM_SHA3)) {
		printf("SKIP keccak x2 sha3ce (no SHA3 extension here)\n");
		return TU_EXIT_SKIP;
	}
	struct tu_rng rng = { 0x2a2a2aull };
	uint64_t a[25] = { 0 }, b[25] = { 0 };

	pair("zero states", a, b, 4);
	for (int i = 0; i < 64; i++) {
		for (int j = 0; j < 25; j++) {
			a[j] = tu_rand(&rng);
			b[j] = tu_rand(&rng);
		}
		pair("random states", a, b, 3);
	}
	/* One state zero, the other not: each half must ignore the other. */
	memset(b, 0, sizeof b);
	pair("random and zero", a, b, 2);
	pair("zero and random", b, a, 2);

	/* The same array as both states: loads finish before stores. */
	uint64_t want[25], got[25];
	memcpy(want, a, sizeof want);
	memcpy(got, a, sizeof got);
	fh_keccak_portable.keccak_permute(want);
	fh_keccak_permute_x2_sha3ce(got, got);
	check("one array passed twice", 0, want, got);

	printf("keccak x2 sha3ce: %lu checks, %lu failed\n", n_checks,
	       n_failed);
	return n_failed ? 1 : 0;
}
#else
int main(void)
{
	printf("SKIP keccak x2 sha3ce (not an AArch64 build)\n");
	return TU_EXIT_SKIP;
}
#endif
