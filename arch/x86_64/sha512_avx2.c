/* sha512_avx2.c: SHA-512's compression (FIPS 180-4 §6.4.2, SHA-384's too)
 * with the message schedule in vector registers and the rounds in general
 * registers.  ISA: x86-64 + AVX2 + BMI2, built with -mavx2 -mbmi2
 * (FH_CPU_X86_AVX2 | FH_CPU_X86_BMI2).  One stream.
 *
 * The rounds are a chain through e and a that no vector unit shortens;
 * what can leave the chain's way is everything else.  The schedule's 64
 * new words are made two at a time in XMM registers (σ1 of W[t-2] is
 * needed for W[t], so two words of a pair are all that is independent),
 * interleaved with the rounds that use the words 16 places earlier, so
 * that the out-of-order core runs them in the rounds' shadow; each pair
 * goes to the stack with its round constants added, where the round
 * reads W[t] + K[t] as one memory operand.  BMI2's RORX rotates without
 * touching the flags or its source, which saves the copies that ROR's
 * two-operand form needs for the three rotations of each Σ.
 */
#include <immintrin.h>
#include <stdint.h>

#include "kernels_x86.h"
#include "sha512_k.h"

static inline uint64_t ror64(uint64_t x, unsigned n)
{
	return x >> n | x << (64 - n);
}

/* A 64-bit rotation of each element: AVX2 has none (VPRORQ is
 * AVX-512), so two shifts and an OR. */
#define V_ROR(x, n) \
	_mm_or_si128(_mm_srli_epi64(x, n), _mm_slli_epi64(x, 64 - (n)))
/* σ0 and σ1 of §4.1.3 on both elements. */
#define V_SSIG0(x) \
	_mm_xor_si128(_mm_xor_si128(V_ROR(x, 1), V_ROR(x, 8)), \
		      _mm_srli_epi64(x, 7))
#define V_SSIG1(x) \
	_mm_xor_si128(_mm_xor_si128(V_ROR(x, 19), V_ROR(x, 61)), \
		      _mm_srli_epi64(x, 6))

/* Round T with the working variables in the order given: T1 and T2 of
 * §6.4.2, d + T1 the new e (in d's variable), T1 + T2 the new a (in h's);
 * the next round names them one place on. */
#define ROUND(a, b, c, d, e, f, g, h, t)                                    \
	do {                                                               \
		uint64_t t1 = h + (ror64(e, 14) ^ ror64(e, 18) ^           \
				   ror64(e, 41)) +                          \
			      (((f ^ g) & e) ^ g) + wk[t];                  \
		uint64_t t2 = (ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39)) + \
			      ((a & b) | (c & (a | b)));                   \
		d += t1;                                                   \
		h = t1 + t2;                                               \
	} while (0)

/* Words W[T+16], W[T+17] from the pairs x[0..7] = W[T..T+15] (pair J in
 * x[J], oldest first, the array seen as a ring from index T/2): W[i] =
 * σ1(W[i-2]) + W[i-7] + σ0(W[i-15]) + W[i-16]; stored as W + K. */
#define SCHED(t)                                                           \
	do {                                                               \
		__m128i w0 = x[((t) / 2) & 7], w1 = x[((t) / 2 + 1) & 7];  \
		__m128i w4 = x[((t) / 2 + 4) & 7];                        \
		__m128i w5 = x[((t) / 2 + 5) & 7];                        \
		__m128i w7 = x[((t) / 2 + 7) & 7];                        \
		__m128i n = _mm_add_epi64(w0, V_SSIG0(_mm_alignr_epi8(w1, w0, 8))); \
		n = _mm_add_epi64(n, _mm_alignr_epi8(w5, w4, 8));          \
		n = _mm_add_epi64(n, V_SSIG1(w7));                         \
		x[((t) / 2) & 7] = n;                                      \
		_mm_store_si128((__m128i *)&wk[(t) + 16],                  \
			_mm_add_epi64(n, _mm_loadu_si128(                  \
				(const __m128i *)&fh_sha512_k[(t) + 16]))); \
	} while (0)

/* Rounds T..T+7, and the schedule's pairs for T+16..T+23 unless LAST. */
#define ROUNDS8(t, sched)                                                  \
	do {                                                               \
		ROUND(a, b, c, d, e, f, g, h, (t));                        \
		ROUND(h, a, b, c, d, e, f, g, (t) + 1);                    \
		if (sched)                                                 \
			SCHED(t);                                          \
		ROUND(g, h, a, b, c, d, e, f, (t) + 2);                    \
		ROUND(f, g, h, a, b, c, d, e, (t) + 3);                    \
		if (sched)                                                 \
			SCHED((t) + 2);                                    \
		ROUND(e, f, g, h, a, b, c, d, (t) + 4);                    \
		ROUND(d, e, f, g, h, a, b, c, (t) + 5);                    \
		if (sched)                                                 \
			SCHED((t) + 4);                                    \
		ROUND(c, d, e, f, g, h, a, b, (t) + 6);                    \
		ROUND(b, c, d, e, f, g, h, a, (t) + 7);                    \
		if (sched)                                                 \
			SCHED((t) + 6);                                    \
	} while (0)

static void fh_sha512_blocks_avx2(uint64_t state[8], const uint8_t *data,
				  size_t nblocks)
{
	const __m128i bswap = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1,
					   2, 3, 4, 5, 6, 7);
	_Alignas(16) uint64_t wk[80];
	__m128i x[8];

	for (; nblocks; nblocks--, data += 128) {
		for (int j = 0; j < 8; j++) {
			x[j] = _mm_shuffle_epi8(
				_mm_loadu_si128((const __m128i *)(data + 16 * j)),
				bswap);
			_mm_store_si128((__m128i *)&wk[2 * j],
				_mm_add_epi64(x[j], _mm_loadu_si128(
					(const __m128i *)&fh_sha512_k[2 * j])));
		}
		uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint64_t e = state[4], f = state[5], g = state[6], h = state[7];

		ROUNDS8(0, 1);
		ROUNDS8(8, 1);
		ROUNDS8(16, 1);
		ROUNDS8(24, 1);
		ROUNDS8(32, 1);
		ROUNDS8(40, 1);
		ROUNDS8(48, 1);
		ROUNDS8(56, 1);
		ROUNDS8(64, 0);
		ROUNDS8(72, 0);
		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
		state[5] += f;
		state[6] += g;
		state[7] += h;
	}
}

const struct fh_kernel fh_sha512_avx2 = {
	.name = "sha512-avx2",
	.family = FH_FAMILY_SHA512,
	.lanes = 1,
	.features = FH_CPU_X86_AVX2 | FH_CPU_X86_BMI2,
	.sha512_blocks = fh_sha512_blocks_avx2,
};
