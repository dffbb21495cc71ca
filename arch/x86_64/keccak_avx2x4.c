/* keccak_avx2x4.c: the sponge absorb loop of four independent Keccak-f[1600]
 * states at once, one per 64-bit element of the AVX2 YMM registers.  ISA:
 * x86-64 + AVX2, built with -mavx2 (FH_CPU_X86_AVX2).  4 lanes.
 *
 * Measured here (AMD EPYC Zen 4, 2 cores, about 3.6 GHz; gcc 12 -O3;
 * `fhsum --benchmark`, all lanes busy on 16 KiB buffers, 12 runs
 * alternating with the previous version, medians): aggregate SHA3-256
 * 1418 MB/s (1344 before: +6.5%), 2.59x keccak-bmi2's 549 (2.72x the
 * 524 keccak-bmi2 had before its own gain; 2.56x before); SHA3-512 789
 * (750), SHAKE128 1753 (1674).  The 3.2x keccak-bmi2 aimed at is out of
 * reach by operation counts: a round is 184 vector operations for four
 * states on Zen 4's 4 vector pipes (20 XORs of parities, 20 for D, 25
 * applying it, 68 for rho, 50 for chi, one for iota), 46 cycles at best,
 * against keccak-bmi2's 130 operations for one state on 4 ALUs, so at
 * equal use of the pipes the ratio is 4 x 130 / 184 = 2.83x.  This code
 * runs at about 56 cycles a round, keccak-bmi2 at about 38: both use some
 * 80% of their pipes.  Measured and dropped: the state in registers with
 * the compiler's spills (the previous version, 59 cycles), the same in
 * hand-written assembly with every register placed (55, no better than
 * this C), the last plane's five lanes carried into the next round in
 * registers with the parities read back from memory (2% slower), all 120 plane orders (1% apart) and orders within a
 * plane (flat).  Removing theta's D dependence between rounds in a probe
 * saved 13%, most of it the 20 operations themselves.
 *
 * Shape: lane A[x,y] of state s is element s of vector x + 5y (XKCP's
 * times4 layout), so a round is the same lane-wise code as the one-state
 * kernels', on four states at once and with no shuffles.  AVX2 has no
 * 64-bit rotate: a rotate is two shifts and an OR, or one byte shuffle
 * for 8 and 56.
 *
 * Why the state lives in memory: 25 lanes outnumber the 16 YMM registers,
 * and left to itself the compiler spilled and reloaded lanes where it
 * could (some 50 extra loads, stores and moves a round).  Here two stack arrays hold the
 * state, a round reads one and writes the other, and a compiler barrier
 * at the end of each round keeps the lanes there; within a round each lane
 * is read once, as the memory operand of theta's XOR (loads are cheap:
 * two a cycle, and a round needs 28), and each result is stored once.
 * Theta's column parities for the next round are XORed up in five
 * registers as chi's outputs come out, so no lane is read twice.  That
 * leaves 5 D values, 5 parities, 5 lanes of the plane in hand and one
 * temporary: the 16 registers exactly.
 *
 * Loading: each state's block is read 16 bytes (two lanes) at a time;
 * states 0 and 2 go into the two halves of one row, 1 and 3 into another,
 * and one 64-bit unpack inside the halves pairs them up, so lane j of all
 * four states is one unpack of two rows (no lane-crossing shuffle).  An odd
 * last lane is read 8 bytes at a time.  The states are loaded and stored
 * the same way, once per call.
 */
#include <immintrin.h>
#include <stdint.h>

#include "keccak_rc.h"
#include "kernels_x86.h"

/* GCC's scheduling after register allocation (on at -O2) reorders the
 * round for a generic model and costs 1% here; its scheduling before
 * allocation, with register pressure counted (off by default on x86-64),
 * gains 1% (Zen 4, `fhsum --benchmark`).  Other compilers keep their own
 * order. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("schedule-insns", "sched-pressure", "no-schedule-insns2")
#endif

#define FH_XN 4

#define V __m256i

/* Rotate each element left by N (0 <= N < 64; N = 0 occurs, for A[0,0],
 * and a shift by 64 gives 0, so the OR is still right). */
static inline V v_rol(V x, int n)
{
	if (n == 8)
		return _mm256_shuffle_epi8(
			x, _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10,
					    11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5,
					    6, 15, 8, 9, 10, 11, 12, 13, 14));
	if (n == 56)
		return _mm256_shuffle_epi8(
			x, _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12,
					    13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7,
					    0, 9, 10, 11, 12, 13, 14, 15, 8));
	return _mm256_or_si256(_mm256_slli_epi64(x, n),
			       _mm256_srli_epi64(x, 64 - n));
}

#define FH_XOR(a, b) _mm256_xor_si256(a, b)
#define FH_XOR5(a, b, c, d, e) \
	FH_XOR(FH_XOR(FH_XOR(a, b), FH_XOR(c, d)), e)
/* rot(c, 1) as c + c | c >> 63: vpaddq runs on more ports than vpsllq. */
#define FH_THETA_D(c0, c2) \
	FH_XOR(c0, _mm256_or_si256(_mm256_add_epi64(c2, c2), \
				   _mm256_srli_epi64(c2, 63)))
/* _mm256_andnot_si256(b, c) is ~b & c (vpandn). */
#define FH_CHI(a, b, c) FH_XOR(a, _mm256_andnot_si256(b, c))
#define FH_IOTA(x, i) FH_XOR(x, _mm256_set1_epi64x((long long)fh_keccak_rc[i]))

/* Two 16-byte pieces into one row: LO in the low half, HI in the high. */
static inline V row2(const uint8_t *lo, const uint8_t *hi)
{
	return _mm256_inserti128_si256(
		_mm256_castsi128_si256(
			_mm_loadu_si128((const __m128i *)(const void *)lo)),
		_mm_loadu_si128((const __m128i *)(const void *)hi), 1);
}

/* The same with 8-byte pieces, in the low 64 bits of each half. */
static inline V row1(const uint8_t *lo, const uint8_t *hi)
{
	return _mm256_inserti128_si256(
		_mm256_castsi128_si256(
			_mm_loadl_epi64((const __m128i *)(const void *)lo)),
		_mm_loadl_epi64((const __m128i *)(const void *)hi), 1);
}

/* Lanes 0..N-1 of the four inputs at P[s] + OFF, little-endian: element s
 * of OUT[j] is lane j of input s. */
static inline void load_lanes(V *out, const uint8_t *const *p, size_t off,
			      size_t n)
{
	size_t j = 0;

	for (; j + 2 <= n; j += 2, off += 16) {
		V r0 = row2(p[0] + off, p[2] + off);
		V r1 = row2(p[1] + off, p[3] + off);

		out[j] = _mm256_unpacklo_epi64(r0, r1);
		out[j + 1] = _mm256_unpackhi_epi64(r0, r1);
	}
	if (j < n)
		out[j] = _mm256_unpacklo_epi64(row1(p[0] + off, p[2] + off),
					       row1(p[1] + off, p[3] + off));
}

/* The inverse of load_lanes at offset 0. */
static inline void store_lanes(uint8_t *const *p, const V *v, size_t n)
{
	size_t j = 0, off = 0;

	for (; j + 2 <= n; j += 2, off += 16) {
		V r0 = _mm256_unpacklo_epi64(v[j], v[j + 1]);
		V r1 = _mm256_unpackhi_epi64(v[j], v[j + 1]);

		_mm_storeu_si128((__m128i *)(void *)(p[0] + off),
				 _mm256_castsi256_si128(r0));
		_mm_storeu_si128((__m128i *)(void *)(p[2] + off),
				 _mm256_extracti128_si256(r0, 1));
		_mm_storeu_si128((__m128i *)(void *)(p[1] + off),
				 _mm256_castsi256_si128(r1));
		_mm_storeu_si128((__m128i *)(void *)(p[3] + off),
				 _mm256_extracti128_si256(r1, 1));
	}
	if (j < n) {
		V r0 = _mm256_unpacklo_epi64(v[j], v[j]);
		V r1 = _mm256_unpackhi_epi64(v[j], v[j]);

		_mm_storel_epi64((__m128i *)(void *)(p[0] + off),
				 _mm256_castsi256_si128(r0));
		_mm_storel_epi64((__m128i *)(void *)(p[2] + off),
				 _mm256_extracti128_si256(r0, 1));
		_mm_storel_epi64((__m128i *)(void *)(p[1] + off),
				 _mm256_castsi256_si128(r1));
		_mm_storel_epi64((__m128i *)(void *)(p[3] + off),
				 _mm256_extracti128_si256(r1, 1));
	}
}

/* The arrays at P and Q must be in memory here: the compiler keeps none
 * of their lanes in a register across this point, so it loads each lane
 * where the round reads it instead of spilling what it holds. */
#define FH_IN_MEMORY(p, q) __asm__ volatile("" : : "r"(p), "r"(q) : "memory")

/* Chi's output for column x of the first plane starts that column's
 * parity; the other planes' outputs are XORed into it. */
#define FH_PARITY_SET(c, v) c = v
#define FH_PARITY_ADD(c, v) c = FH_XOR(c, v)

/* Output plane y' of a round from A into E (FIPS 202 §3.2.2-3.2.4): its
 * lanes B[x', y'] come from A[x' + 3y', x'] (the lane indices I0..I4),
 * each with its column's D value and rho offset; chi's outputs go to
 * E[5y' .. 5y' + 4] and, through PARITY, into the next round's column
 * parities n0..n4. */
#define FH_PLANE(Y, PARITY, I0, D0, R0, I1, D1, R1, I2, D2, R2, I3, D3, R3,  \
		 I4, D4, R4)                                                \
	do {                                                                \
		V b0 = v_rol(FH_XOR(a[I0], D0), R0);                        \
		V b1 = v_rol(FH_XOR(a[I1], D1), R1);                        \
		V b2 = v_rol(FH_XOR(a[I2], D2), R2);                        \
		V b3 = v_rol(FH_XOR(a[I3], D3), R3);                        \
		V b4 = v_rol(FH_XOR(a[I4], D4), R4);                        \
		V e0 = FH_CHI(b0, b1, b2);                                  \
		if ((Y) == 0)                                               \
			e0 = FH_IOTA(e0, i);                                \
		e[5 * (Y)] = e0;                                            \
		PARITY(n0, e0);                                             \
		V e1 = FH_CHI(b1, b2, b3);                                  \
		e[5 * (Y) + 1] = e1;                                        \
		PARITY(n1, e1);                                             \
		V e2 = FH_CHI(b2, b3, b4);                                  \
		e[5 * (Y) + 2] = e2;                                        \
		PARITY(n2, e2);                                             \
		V e3 = FH_CHI(b3, b4, b0);                                  \
		e[5 * (Y) + 3] = e3;                                        \
		PARITY(n3, e3);                                             \
		V e4 = FH_CHI(b4, b0, b1);                                  \
		e[5 * (Y) + 4] = e4;                                        \
		PARITY(n4, e4);                                             \
	} while (0)

/* Round I from A into E.  C holds A's column parities on entry and E's on
 * exit.  The planes come in the order 3, 1, 4, 0, 2 (measured, see the
 * top of the file); any order gives the same state. */
static inline __attribute__((always_inline)) void
keccak_round_mem(const V *a, V *e, V c[5], unsigned i)
{
	/* D[x] = C[x-1] ^ rot(C[x+1], 1), FIPS 202 §3.2.1 */
	V d0 = FH_THETA_D(c[4], c[1]);
	V d1 = FH_THETA_D(c[0], c[2]);
	V d2 = FH_THETA_D(c[1], c[3]);
	V d3 = FH_THETA_D(c[2], c[4]);
	V d4 = FH_THETA_D(c[3], c[0]);
	V n0, n1, n2, n3, n4;

	/* Rho offsets: FIPS 202 §3.2.2 Table 2. */
	FH_PLANE(3, FH_PARITY_SET, 4, d4, 27, 5, d0, 36, 11, d1, 10,
		 17, d2, 15, 23, d3, 56);
	FH_PLANE(1, FH_PARITY_ADD, 3, d3, 28, 9, d4, 20, 10, d0, 3,
		 16, d1, 45, 22, d2, 61);
	FH_PLANE(4, FH_PARITY_ADD, 2, d2, 62, 8, d3, 55, 14, d4, 39,
		 15, d0, 41, 21, d1, 2);
	FH_PLANE(0, FH_PARITY_ADD, 0, d0, 0, 6, d1, 44, 12, d2, 43,
		 18, d3, 21, 24, d4, 14);
	FH_PLANE(2, FH_PARITY_ADD, 1, d1, 1, 7, d2, 6, 13, d3, 25,
		 19, d4, 8, 20, d0, 18);
	c[0] = n0;
	c[1] = n1;
	c[2] = n2;
	c[3] = n3;
	c[4] = n4;
	FH_IN_MEMORY(a, e);
}

/* The absorb loop, inlined into the entry point once per round count. */
static inline __attribute__((always_inline)) void
absorb_x4(uint64_t (*states)[25], const uint8_t *const *data, size_t nblocks,
	  size_t rate, unsigned rounds)
{
	uint8_t *sp[FH_XN];
	V s[25], t[25], c[5];

	if (!nblocks)
		return;
	for (int i = 0; i < FH_XN; i++)
		sp[i] = (uint8_t *)states[i];
	load_lanes(s, (const uint8_t *const *)sp, 0, 25);

	for (size_t off = 0; nblocks; nblocks--, off += rate) {
		V in[FH_MAX_BLOCK / 8];

		/* XOR the block's rate/8 lanes into the state. */
		load_lanes(in, data, off, rate / 8);
		for (size_t j = 0; j < rate / 8; j++)
			s[j] = FH_XOR(s[j], in[j]);
		for (int x = 0; x < 5; x++)
			c[x] = FH_XOR5(s[x], s[x + 5], s[x + 10], s[x + 15],
				       s[x + 20]);
		FH_IN_MEMORY(s, t);
		for (unsigned i = 24 - rounds; i < 24; i += 2) {
			keccak_round_mem(s, t, c, i);
			keccak_round_mem(t, s, c, i + 1);
		}
	}
	store_lanes(sp, s, 25);
}

/* One copy of the loop per round count (kernels_x86.h says why). */
FH_KECCAK_MULTI_ENTRY(avx2x4, absorb_x4)

const struct fh_kernel fh_keccak_avx2x4 = {
	.name = "keccak-avx2x4",
	.family = FH_FAMILY_KECCAK,
	.lanes = FH_XN,
	.features = FH_CPU_X86_AVX2,
	.blocks_xn = FH_KERNEL_FN(fh_keccak_absorb_xn_fn, fh_keccak_absorb_avx2x4),
};
