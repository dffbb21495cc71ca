/* blake2b_lanes.h: BLAKE2b's compression F (RFC 7693 §3.2) on FH_B2_XN
 * independent messages at once, one per 64-bit element of the vector
 * registers: vector j holds word j of every lane's work vector, so a
 * round is the sixteen G steps of §3.2 written out, each a vector
 * operation over all lanes, with no shuffles between the columns and the
 * diagonals.  A kernel file includes it after defining:
 *
 *   FH_B2_XN              the lanes
 *   L_V                   the vector type
 *   L_ADD(x, y), L_XOR(x, y)  element-wise
 *   L_ROR(x, n)           each element rotated right by n (32, 24, 16, 63)
 *   L_SET1(w)             every element W
 *   L_LOAD(p), L_STORE(p, x)  FH_B2_XN words at P, aligned to the vector
 *   L_LOAD_MSG(m, data, off)  m[w] = word w (0..15) of the block at
 *                         DATA[i] + OFF, in element i, for every lane i
 *   FH_B2_LANES_FN        the name of the fh_blake2b_blocks_xn_fn to define
 *   FH_B2_LAST_FN         the name of the fh_blake2b_last_xn_fn to define
 *
 * Each lane's state is h and its counter t (kernel.h).  The blocks that
 * FH_B2_LANES_FN runs are never a message's last, so f0 is 0 in every
 * lane; FH_B2_LAST_FN runs the last ones, f0 all ones. */

#include <stddef.h>
#include <stdint.h>

#include "blake2b_sigma.h"

/* G (§3.1) on V[A], V[B], V[C], V[D] with message words X and Y. */
#define L_G(a, b, c, d, x, y)                                                \
	do {                                                                 \
		v[a] = L_ADD(L_ADD(v[a], x), v[b]);                          \
		v[d] = L_ROR(L_XOR(v[d], v[a]), 32);                         \
		v[c] = L_ADD(v[c], v[d]);                                    \
		v[b] = L_ROR(L_XOR(v[b], v[c]), 24);                         \
		v[a] = L_ADD(L_ADD(v[a], y), v[b]);                          \
		v[d] = L_ROR(L_XOR(v[d], v[a]), 16);                         \
		v[c] = L_ADD(v[c], v[d]);                                    \
		v[b] = L_ROR(L_XOR(v[b], v[c]), 63);                         \
	} while (0)

#define L_S(r, i) m[fh_b2_sigma[r][i]]

#define L_ROUND(r)                                                           \
	do {                                                                 \
		L_G(0, 4, 8, 12, L_S(r, 0), L_S(r, 1));                      \
		L_G(1, 5, 9, 13, L_S(r, 2), L_S(r, 3));                      \
		L_G(2, 6, 10, 14, L_S(r, 4), L_S(r, 5));                     \
		L_G(3, 7, 11, 15, L_S(r, 6), L_S(r, 7));                     \
		L_G(0, 5, 10, 15, L_S(r, 8), L_S(r, 9));                     \
		L_G(1, 6, 11, 12, L_S(r, 10), L_S(r, 11));                   \
		L_G(2, 7, 8, 13, L_S(r, 12), L_S(r, 13));                    \
		L_G(3, 4, 9, 14, L_S(r, 14), L_S(r, 15));                    \
	} while (0)

/* NBLOCKS blocks of each lane, each adding 128 to its t; or, with LENS,
 * one block each, the last, adding LENS[i] and with f0 set. */
static inline __attribute__((always_inline)) void
b2_lanes(uint64_t (*states)[FH_BLAKE2B_LANE_WORDS], const uint8_t *const *data,
	 size_t nblocks, const uint64_t *lens)
{
	/* The states turned into columns: word j of every lane. */
	_Alignas(64) uint64_t col[FH_BLAKE2B_LANE_WORDS + 1][FH_B2_XN];
	L_V h[8], t;

	for (int i = 0; i < FH_B2_XN; i++) {
		for (int j = 0; j < FH_BLAKE2B_LANE_WORDS; j++)
			col[j][i] = states[i][j];
		col[FH_BLAKE2B_LANE_WORDS][i] = lens ? lens[i] : 128;
	}
	for (int j = 0; j < 8; j++)
		h[j] = L_LOAD(col[j]);
	t = L_LOAD(col[8]);
	for (size_t b = 0; b < nblocks; b++) {
		L_V m[16], v[16];

		L_LOAD_MSG(m, data, b * 128);
		t = L_ADD(t, L_LOAD(col[FH_BLAKE2B_LANE_WORDS]));
		for (int j = 0; j < 8; j++) {
			v[j] = h[j];
			v[j + 8] = L_SET1(fh_b2_iv[j]);
		}
		/* v12 ^= t (its high word is 0); v14 ^= f0 (§3.2). */
		v[12] = L_XOR(v[12], t);
		if (lens)
			v[14] = L_XOR(v[14], L_SET1(~(uint64_t)0));
		FH_B2_ROUNDS(L_ROUND);
		for (int j = 0; j < 8; j++)
			h[j] = L_XOR(h[j], L_XOR(v[j], v[j + 8]));
	}
	for (int j = 0; j < 8; j++)
		L_STORE(col[j], h[j]);
	L_STORE(col[8], t);
	for (int i = 0; i < FH_B2_XN; i++)
		for (int j = 0; j < FH_BLAKE2B_LANE_WORDS; j++)
			states[i][j] = col[j][i];
}

static void FH_B2_LANES_FN(uint64_t (*states)[FH_BLAKE2B_LANE_WORDS],
			   const uint8_t *const *data, size_t nblocks)
{
	b2_lanes(states, data, nblocks, NULL);
}

static void FH_B2_LAST_FN(uint64_t (*states)[FH_BLAKE2B_LANE_WORDS],
			  const uint8_t *const *blocks, const uint64_t *lens)
{
	b2_lanes(states, blocks, 1, lens);
}

#undef L_G
#undef L_S
#undef L_ROUND
