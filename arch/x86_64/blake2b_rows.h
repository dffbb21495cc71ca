/* blake2b_rows.h: BLAKE2b's compression F (RFC 7693 §3.2) on one stream,
 * the work vector v as four rows of four words in four 256-bit registers
 * (a = v0..v3, b = v4..v7, c = v8..v11, d = v12..v15), so that each step
 * of G runs on a round's four columns, then its four diagonals, as one
 * vector operation.  A kernel file includes it after defining:
 *
 *   B2_V                  the vector type: four 64-bit words, word 0 first
 *   B2_ADD(x, y)          word-wise sum
 *   B2_XOR(x, y)          exclusive or
 *   B2_ROR(x, n)          each word rotated right by n (32, 24, 16, 63)
 *   B2_ROT(x, n)          the words turned: word j of the result is word
 *                         (j + n) % 4 of x (n = 1, 2, 3)
 *   B2_SET(w0, w1, w2, w3)  the vector of four words
 *   B2_MSG(w0, w1, w2, w3)  the same, of four message words (lvalues in
 *                         the block's copy m[]): B2_SET unless defined
 *   B2_LOADU(p), B2_STOREU(p, x)  four words at P, any alignment
 *   FH_B2_ROWS_FN         the name of the fh_blake2b_blocks_fn to define
 *
 * G is a chain of dependent operations, 13 cycles long with one-cycle
 * rotates and a two-cycle rotate by 63, so one stream is bound by that
 * chain, not by the vector pipes.  The diagonal step therefore turns
 * rows a, c and d to meet b, not b, c and d to meet a: b is the last
 * row G writes, a and d are written halfway through and c a step before
 * b, so their turns (VPERMQ, 3 cycles on Zen 3) run in the shadow of the
 * chain, where turning b would add its latency twice a round.  The
 * message words of each step are gathered in the same lane order (word
 * j of b, v4+j, is in diagonal G (j + 3) % 4 of §3.2). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "blake2b_sigma.h"

#ifndef B2_MSG
#define B2_MSG B2_SET
#endif

/* One G (§3.1) on four columns at once, X and Y the message vectors. */
#define B2_G(a, b, c, d, x, y)                                               \
	do {                                                                 \
		a = B2_ADD(B2_ADD(a, x), b);                                 \
		d = B2_ROR(B2_XOR(d, a), 32);                                \
		c = B2_ADD(c, d);                                            \
		b = B2_ROR(B2_XOR(b, c), 24);                                \
		a = B2_ADD(B2_ADD(a, y), b);                                 \
		d = B2_ROR(B2_XOR(d, a), 16);                                \
		c = B2_ADD(c, d);                                            \
		b = B2_ROR(B2_XOR(b, c), 63);                                \
	} while (0)

#define B2_S(r, i) m[fh_b2_sigma[r][i]]

/* Round R: the columns G0..G3 (§3.2: v0,v4,v8,v12 ...), then the
 * diagonals with b kept in place: word j of b meets diagonal G (j+3)%4,
 * whose message words are s[8 + 2k], s[9 + 2k]. */
#define B2_ROUND(r)                                                          \
	do {                                                                 \
		B2_G(a, b, c, d,                                             \
		     B2_MSG(B2_S(r, 0), B2_S(r, 2), B2_S(r, 4), B2_S(r, 6)), \
		     B2_MSG(B2_S(r, 1), B2_S(r, 3), B2_S(r, 5), B2_S(r, 7))); \
		a = B2_ROT(a, 3);                                            \
		c = B2_ROT(c, 1);                                            \
		d = B2_ROT(d, 2);                                            \
		B2_G(a, b, c, d,                                             \
		     B2_MSG(B2_S(r, 14), B2_S(r, 8), B2_S(r, 10), B2_S(r, 12)), \
		     B2_MSG(B2_S(r, 15), B2_S(r, 9), B2_S(r, 11), B2_S(r, 13))); \
		a = B2_ROT(a, 1);                                            \
		c = B2_ROT(c, 3);                                            \
		d = B2_ROT(d, 2);                                            \
	} while (0)

static void FH_B2_ROWS_FN(uint64_t h[8], const uint8_t *data, size_t nblocks,
			  uint64_t t, bool last)
{
	const B2_V iv0 = B2_SET(fh_b2_iv[0], fh_b2_iv[1], fh_b2_iv[2], fh_b2_iv[3]);
	const B2_V iv1 = B2_SET(fh_b2_iv[4], fh_b2_iv[5], fh_b2_iv[6], fh_b2_iv[7]);
	B2_V h0 = B2_LOADU(h), h1 = B2_LOADU(h + 4);

	for (size_t i = 0; i < nblocks; i++, data += 128) {
		uint64_t m[16];

		/* Little-endian words (§2.4): x86-64's own order. */
		memcpy(m, data, sizeof m);
		t += 128;
		/* v12 ^= t (its high word is 0), v14 ^= f0 (§3.2). */
		B2_V a = h0, b = h1, c = iv0;
		B2_V d = B2_XOR(iv1, B2_SET(t, 0, last && i + 1 == nblocks
							 ? ~(uint64_t)0 : 0, 0));

		FH_B2_ROUNDS(B2_ROUND);
		h0 = B2_XOR(h0, B2_XOR(a, c));
		h1 = B2_XOR(h1, B2_XOR(b, d));
	}
	B2_STOREU(h, h0);
	B2_STOREU(h + 4, h1);
}

#undef B2_G
#undef B2_S
#undef B2_ROUND
#undef B2_MSG
