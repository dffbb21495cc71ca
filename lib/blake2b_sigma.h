/* blake2b_sigma.h: BLAKE2b's constants, for the portable kernel
 * (blake2b.c) and the SIMD ones, which unroll all 12 rounds with the
 * message schedule as constants: the IV (RFC 7693 §2.6, SHA-512's) and
 * the permutations SIGMA (§2.7), rows 10 and 11 being rows 0 and 1
 * again.  Indexed with constants in the kernels, so the compiler folds
 * every entry into the code. */
#ifndef FH_BLAKE2B_SIGMA_H
#define FH_BLAKE2B_SIGMA_H

#include <stdint.h>

static const uint64_t fh_b2_iv[8] = {
	0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull,
	0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
	0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
	0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

static const uint8_t fh_b2_sigma[12][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
};

/* ROUND(r) for r = 0..11, with r a constant at each use. */
#define FH_B2_ROUNDS(ROUND)                                                  \
	do {                                                                 \
		ROUND(0); ROUND(1); ROUND(2); ROUND(3);                      \
		ROUND(4); ROUND(5); ROUND(6); ROUND(7);                      \
		ROUND(8); ROUND(9); ROUND(10); ROUND(11);                    \
	} while (0)

#endif
