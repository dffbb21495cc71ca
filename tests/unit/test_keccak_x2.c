/* test_keccak_x2.c: the AArch64 two-state Keccak code against the portable
 * kernel, one state at a time: the permutations fh_keccak_permute_x2_neon
 * and fh_keccak_permute_x2_sha3ce, and the absorb functions behind the
 * kernels keccak-neonx2 and keccak-sha3cex2 (test_kernels tests those
 * kernels through their descriptors; this file also reaches the bare
 * permutations and the edge cases of the computed branch).
 *
 * Checks, for each function this CPU runs:
 *  - permutation: the zero state pair; random pairs, permuted several times
 *    in a row (stale registers, round constants); two different states, so
 *    lanes of one state leaking into the other fail; one array passed
 *    twice (loads finish before stores);
 *  - absorb: every rate from 0 to 200 in steps of 8 (the computed branch
 *    into the lane run), 0 to 3 blocks, different data and states per lane,
 *    input at odd addresses, and each lane's input ending just before a
 *    PROT_NONE page, so reading one byte past a block faults.
 * Exit 0 pass, 1 fail, 77 skip (not an AArch64 build).  The SHA3-extension
 * functions are skipped, with a line saying so, where HWCAP_SHA3 is clear.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"
#if defined(__aarch64__)
#include "../../arch/aarch64/kernels_arm.h"
#endif

#if defined(__aarch64__)
static unsigned long n_checks, n_failed;

static void check(const char *what, const char *detail, const uint64_t want[25],
		  const uint64_t got[25])
{
	n_checks++;
	if (!memcmp(want, got, 25 * sizeof *want))
		return;
	if (n_failed++ < 10) {
		printf("FAIL %s, %s\n  expected ", what, detail);
		tu_print_hex(stdout, (const uint8_t *)want, 200);
		printf("\n  got      ");
		tu_print_hex(stdout, (const uint8_t *)got, 200);
		printf("\n");
	}
}

typedef void permute_x2_fn(uint64_t s0[25], uint64_t s1[25], unsigned rounds);

/* Permutes (A, B) with X2 and copies of them with the portable kernel,
 * REPS times in a row, comparing after each: alternately 24 rounds and the
 * 12 of Keccak-p[1600,12], starting with 24 - 12 * FIRST12. */
static void pair(const char *what, permute_x2_fn *x2, const uint64_t a[25],
		 const uint64_t b[25], int reps, int first12)
{
	uint64_t wa[25], wb[25], ga[25], gb[25];
	char detail[64];

	memcpy(wa, a, sizeof wa);
	memcpy(wb, b, sizeof wb);
	memcpy(ga, a, sizeof ga);
	memcpy(gb, b, sizeof gb);
	for (int r = 0; r < reps; r++) {
		unsigned nr = (r + first12) % 2 ? FH_KECCAK_P12_ROUNDS
						: FH_KECCAK_F_ROUNDS;

		fh_keccak_permute_of(&fh_keccak_portable)(wa, nr);
		fh_keccak_permute_of(&fh_keccak_portable)(wb, nr);
		x2(ga, gb, nr);
		snprintf(detail, sizeof detail, "state 0, call %d, %u rounds",
			 r, nr);
		check(what, detail, wa, ga);
		snprintf(detail, sizeof detail, "state 1, call %d, %u rounds",
			 r, nr);
		check(what, detail, wb, gb);
	}
}

static void test_permute(const char *what, permute_x2_fn *x2,
			 struct tu_rng *rng)
{
	uint64_t a[25] = { 0 }, b[25] = { 0 };

	pair(what, x2, a, b, 4, 0);
	pair(what, x2, a, b, 4, 1);
	for (int i = 0; i < 64; i++) {
		for (int j = 0; j < 25; j++) {
			a[j] = tu_rand(rng);
			b[j] = tu_rand(rng);
		}
		pair(what, x2, a, b, 3, i % 2);
	}
	/* One state zero, the other not: each half must ignore the other. */
	memset(b, 0, sizeof b);
	pair(what, x2, a, b, 2, 0);
	pair(what, x2, b, a, 2, 1);

	uint64_t want[25], got[25];
	memcpy(want, a, sizeof want);
	memcpy(got, a, sizeof got);
	fh_keccak_permute_of(&fh_keccak_portable)(want, FH_KECCAK_F_ROUNDS);
	x2(got, got, FH_KECCAK_F_ROUNDS);
	check(what, "one array passed twice", want, got);
}

/* Each lane's input lives in its own mapping, ending at a PROT_NONE page. */
#define MAX_BLOCKS 3
#define SPAN (MAX_BLOCKS * 200 + 16)

static uint8_t *lane_end[2];

static int map_guarded(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (SPAN + page - 1) / page * page;

	for (int i = 0; i < 2; i++) {
		uint8_t *m = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED || mprotect(m + len, page, PROT_NONE)) {
			perror("test_keccak_x2: mmap");
			return -1;
		}
		lane_end[i] = m + len;
	}
	return 0;
}

static void test_absorb(const char *what, fh_keccak_absorb_xn_fn *xn,
			struct tu_rng *rng)
{
	char detail[96];

	for (size_t rate = 0; rate <= 200; rate += 8) {
		for (size_t nblocks = 0; nblocks <= MAX_BLOCKS; nblocks++) {
			size_t len = nblocks * rate;
			/* Lane 0 ends at its guard page; lane 1 at an odd
			 * address before its own. */
			const uint8_t *data[2] = {
				lane_end[0] - len,
				lane_end[1] - len - 1 - 2 * (rate % 16),
			};
			uint64_t want[2][25], got[2][25];
			unsigned nr = (rate / 8 + nblocks) % 2
					      ? FH_KECCAK_P12_ROUNDS
					      : FH_KECCAK_F_ROUNDS;

			for (int l = 0; l < 2; l++) {
				tu_rand_bytes(rng, (uint8_t *)data[l], len);
				for (int j = 0; j < 25; j++)
					want[l][j] = got[l][j] = tu_rand(rng);
			}
			xn(got, data, nblocks, rate, nr);
			for (int l = 0; l < 2; l++) {
				for (size_t b = 0; b < nblocks; b++) {
					if (rate)
						fh_keccak_absorb_of(&fh_keccak_portable)(
							want[l], data[l] + b * rate, 1,
							rate, nr);
					else
						fh_keccak_permute_of(&fh_keccak_portable)(
							want[l], nr);
				}
				snprintf(detail, sizeof detail,
					 "absorb lane %d, rate %zu, %zu block(s), "
					 "%u rounds", l, rate, nblocks, nr);
				check(what, detail, want[l], got[l]);
			}
		}
	}
}

int main(void)
{
	uint32_t cpu = fh_cpu_features();
	struct tu_rng rng = { 0x2a2a2aull };
	int ran = 0;

	if (map_guarded())
		return 1;
	if (cpu & FH_CPU_ARM_ASIMD) {
		test_permute("permute x2 neon", fh_keccak_permute_x2_neon, &rng);
		test_absorb("keccak-neonx2", fh_keccak_absorb_x2_neon, &rng);
		ran++;
	} else {
		printf("SKIP x2 neon (no Advanced SIMD here)\n");
	}
	if (cpu & FH_CPU_ARM_SHA3) {
		test_permute("permute x2 sha3ce", fh_keccak_permute_x2_sha3ce,
			     &rng);
		test_absorb("keccak-sha3cex2", fh_keccak_absorb_x2_sha3ce, &rng);
		ran++;
	} else {
		printf("SKIP x2 sha3ce (no SHA3 extension here)\n");
	}
	if (!ran)
		return TU_EXIT_SKIP;
	printf("keccak x2: %lu checks, %lu failed\n", n_checks, n_failed);
	return n_failed ? 1 : 0;
}
#else
int main(void)
{
	printf("SKIP keccak x2 (not an AArch64 build)\n");
	return TU_EXIT_SKIP;
}
#endif
