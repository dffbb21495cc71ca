/* keccak_bmi2.c: Keccak-f[1600] and the sponge absorb loop on the general
 * registers.  ISA: x86-64 + BMI1 (ANDN for chi) + BMI2 (RORX, a rotate
 * that does not overwrite its source, for rho and theta); built with
 * -mbmi -mbmi2 (FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2).  One lane.
 *
 * Measured here (AMD EPYC Zen 3, 16 KiB buffer, alternating runs, medians):
 * SHA3-256 297 MB/s, SHA3-512 169, SHAKE128 377 against keccak-portable's
 * 108, 56, 130 (2.8-3.0x); against OpenSSL 3.0 (its scalar
 * keccak1600-x86_64) 0.91x, 1.04x, 1.04x by `openssl speed -evp ALG
 * -bytes 16384`, and 1.08x, 1.05x, 1.09x alternating with OpenSSL's EVP in
 * one process: at best about 1.1x, short of the 1.25x aimed at.
 * Built with gcc 12 -O3 (the release build); -O2 and clang 14 -O2/-O3
 * were the same or slower.  Three hand-written assembly versions were
 * tried and measured slower in the same runs (9.0-10.3 cycles/byte
 * against 7.8-9.3 for this code): the state in memory with C and D in
 * registers (OpenSSL's shape, with ANDN and RORX), theta applied in
 * memory, and four of five column parities kept in registers.  llvm-mca
 * (-mcpu=znver3) puts both this code and those at about 32 cycles a
 * round, dispatch-bound at some 190 instructions a round, and the machine
 * here gives some 44, so none of them is kept.
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

#include "kernels_x86.h"
#include "keccak_round.h"

/* Round constants RC[ir] of iota, FIPS 202 §3.2.5 (Algorithm 5 evaluated). */
static const uint64_t keccak_rc[24] = {
	0x0000000000000001, 0x0000000000008082, 0x800000000000808a,
	0x8000000080008000, 0x000000000000808b, 0x0000000080000001,
	0x8000000080008081, 0x8000000000008009, 0x000000000000008a,
	0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
	0x000000008000808b, 0x800000000000008b, 0x8000000000008089,
	0x8000000000008003, 0x8000000000008002, 0x8000000000000080,
	0x000000000000800a, 0x800000008000000a, 0x8000000080008081,
	0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

#define FH_LANE uint64_t
#define FH_XOR(a, b) ((a) ^ (b))
#define FH_XOR5(a, b, c, d, e) ((a) ^ (b) ^ (c) ^ (d) ^ (e))
/* n == 0 occurs (lane A[0,0]); the mask keeps the shift defined. */
#define FH_ROL(x, n) (((x) << (n)) | ((x) >> ((64 - (n)) & 63)))
#define FH_THETA_D(c0, c2) ((c0) ^ FH_ROL(c2, 1))
#define FH_CHI(a, b, c) ((a) ^ (~(b) & (c)))
#define FH_IOTA(x, i) ((x) ^ keccak_rc[i])

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
keccak_run(uint64_t s[25], const uint8_t *data, size_t nblocks, size_t rate)
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
		for (unsigned i = 0; i < 24; i += 2) {
			FH_KECCAK_ROUND(a, e, i);
			FH_KECCAK_ROUND(e, a, i + 1);
		}
	}

#define FH_STORE(v, i) s[i] = v;
	FH_KECCAK_EACH_LANE(FH_STORE)
#undef FH_STORE
}

static void fh_keccak_absorb_bmi2(uint64_t state[25], const uint8_t *data,
				  size_t nblocks, size_t rate)
{
	keccak_run(state, data, nblocks, rate);
}

static void fh_keccak_permute_bmi2(uint64_t state[25])
{
	keccak_run(state, NULL, 1, 0);
}

const struct fh_kernel fh_keccak_bmi2 = {
	.name = "keccak-bmi2",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = FH_CPU_X86_BMI1 | FH_CPU_X86_BMI2,
	.keccak_absorb = fh_keccak_absorb_bmi2,
	.keccak_permute = fh_keccak_permute_bmi2,
};
