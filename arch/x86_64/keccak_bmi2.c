/* keccak_bmi2.c: Keccak-f[1600] and the sponge absorb loop on the general
 * registers.  ISA: x86-64 + BMI1 (ANDN for chi) + BMI2 (RORX, a rotate
 * that does not overwrite its source, for rho and theta); built with
 * -mbmi -mbmi2 (FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2).  One lane.
 *
 * Measured here (AMD EPYC Zen 4, 2 cores, about 3.6 GHz by a dependent
 * ADD chain; gcc 12 -O3, the release build; `fhsum --benchmark`, 16 KiB
 * buffers, 10-12 runs alternating with the previous version, medians):
 * SHA3-256 549 MB/s (524 before: +4.9%), SHA3-512 295 (283), SHAKE128
 * 670 (645), about 38 cycles a round.  End to end, `fhsum -a ALG -j1
 * --kernel keccak-bmi2` on a cached 1 GiB file against `openssl dgst`
 * (OpenSSL 3.0.19, its scalar keccak1600-x86_64): SHA3-256 1.18-1.20x
 * (1.14-1.18x before), SHA3-512 1.14-1.16x (1.08x before), medians of 10
 * runs alternating and `hyperfine -N -w 2 -r 10` means; short of the 1.25x
 * aimed at.
 *
 * Why no more: a round is 130 ALU operations (20 XORs of parities, 5 RORX
 * and 5 XORs for D, 25 XORs applying it, 24 RORX for rho, 25 ANDN and 25
 * XORs for chi, one for iota) on 4 ALUs, 2 of which rotate: 32.5 cycles
 * at best, and the 25 lanes, 5 D values and chi's temporaries need some
 * 50 loads and stores a round on top.  The same mix with no dependences
 * between its operations runs in about 35 cycles here, so this code is
 * within 10% of what the general registers give.  What moved it: the
 * plane order (3, 2, 4, 0, 1 measured best of all 120, 2% over 0..4) and
 * GCC's second scheduling pass turned off (3%).  Assembly versions were
 * measured in the same runs and lost, here as on Zen 3 before: the state
 * in memory with C and D in registers (OpenSSL's shape, with ANDN and
 * RORX), four column parities accumulated in registers during chi with
 * all 24 rounds unrolled, and variants of both, all at 38-41 cycles a
 * round.  Taking parts out of such a version shows where the time goes:
 * without the stores 5% faster, with ADDs for the rotates 1%, without
 * theta's D (10 operations and the dependence of each round on the whole
 * previous one) 13%.
 *
 * The 25 lanes are C variables and the round is keccak_round.h's macro;
 * the compiler keeps what fits of them in the 16 registers and the rest on
 * the stack, where x86's memory operands read them at no extra ALU cost.
 * With ANDN, chi costs one AND-NOT and one XOR per lane, so lane
 * complementing (OpenSSL's keccak1600-x86_64, which has no ANDN) would only
 * add work.  The whole absorb loop is one function so that the state stays
 * in those variables from one block to the next.
 */
#include <stdint.h>
#include <string.h>

#include "keccak_rc.h"
#include "kernels_x86.h"
#include "keccak_round.h"

/* GCC's scheduling after register allocation (on at -O2) reorders the
 * round for a generic model and costs 3% on Zen 4; with it off the
 * instructions keep the order of the source, planes in the order below
 * (`fhsum --benchmark`; see the top of the file).  Other compilers keep
 * their own order. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-schedule-insns2")
#endif

#define FH_LANE uint64_t
#define FH_XOR(a, b) ((a) ^ (b))
#define FH_XOR5(a, b, c, d, e) ((a) ^ (b) ^ (c) ^ (d) ^ (e))
/* n == 0 occurs (lane A[0,0]); the mask keeps the shift defined. */
#define FH_ROL(x, n) (((x) << (n)) | ((x) >> ((64 - (n)) & 63)))
#define FH_THETA_D(c0, c2) ((c0) ^ FH_ROL(c2, 1))
#define FH_CHI(a, b, c) ((a) ^ (~(b) & (c)))
#define FH_IOTA(x, i) ((x) ^ fh_keccak_rc[i])

/* Little-endian lane I of a block (x86 is little-endian). */
static inline uint64_t lane_at(const uint8_t *p, unsigned i)
{
	uint64_t v;

	memcpy(&v, p + 8 * i, 8);
	return v;
}

/* The absorb loop; with DATA == NULL, one permutation and no input.
 * Inlined into both entry points so each gets its own constant DATA test. */
static inline __attribute__((always_inline)) void
keccak_run(uint64_t s[25], const uint8_t *data, size_t nblocks, size_t rate,
	   unsigned rounds)
{
	uint64_t FH_KECCAK_LANES(a), FH_KECCAK_LANES(e);

#define FH_LOAD(v, i) v = s[i];
	FH_KECCAK_EACH_LANE(FH_LOAD)
#undef FH_LOAD

	for (; nblocks; nblocks--) {
		if (data) {
			/* XOR the block's rate/8 lanes into the state. */
#define FH_IN(v, i) v ^= lane_at(data, i)
			FH_KECCAK_EACH_RATE_LANE(rate / 8, FH_IN)
#undef FH_IN
			data += rate;
		}
		/* Planes in the order measured fastest (top of file). */
		for (unsigned i = 24 - rounds; i < 24; i += 2) {
			FH_KECCAK_ROUND_ORDERED(a, e, i, 3, 2, 4, 0, 1);
			FH_KECCAK_ROUND_ORDERED(e, a, i + 1, 3, 2, 4, 0, 1);
		}
	}

#define FH_STORE(v, i) s[i] = v;
	FH_KECCAK_EACH_LANE(FH_STORE)
#undef FH_STORE
}

/* One copy of the loop per round count (kernels_x86.h says why). */
FH_KECCAK_SINGLE_ENTRIES(bmi2)

const struct fh_kernel fh_keccak_bmi2 = {
	.name = "keccak-bmi2",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2,
	.blocks = FH_KERNEL_FN(fh_keccak_absorb_fn, fh_keccak_absorb_bmi2),
	.permute = FH_KERNEL_FN(fh_keccak_permute_fn, fh_keccak_permute_bmi2),
};
