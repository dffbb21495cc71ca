/* crc_pclmul.c: every CRC model of the family (crc.h; width 32 or 64,
 * reflected or not) by carry-less multiplication, x86-64 PCLMULQDQ with
 * SSSE3 and SSE4.1 (-mpclmul -mssse3 -msse4.1), one stream.
 *
 * Folding (Gopal et al., "Fast CRC computation for generic polynomials
 * using PCLMULQDQ", Intel, 2009): the message is kept as a 128-bit value
 * congruent to it modulo the polynomial P; moving it D bits further on is
 * two 64x64 products with x^k mod P for the two halves, and the next 16
 * bytes are added.  Four such values run 64 bytes apart so that the
 * multiplier's latency is hidden.  The last 128-bit value is then handed
 * to the portable tables as 16 bytes from a zero register, which gives
 * the same register as the whole message would: no Barrett reduction,
 * and one code for every model.  The constants are computed from each
 * model's polynomial once (crc_fold.h).
 *
 * In a reflected model the bytes are loaded as they are (bit i of the
 * 128-bit value is the coefficient of x^(127-i)): a 64x64 product is then
 * the product of the reversed polynomials times x, so the constants are
 * x^(D+63) and x^(D-1) mod P, reversed.  In a normal model the 16 bytes
 * are reversed first (bit i is x^i) and the constants are x^(D+64) and
 * x^D mod P as they are. */
#include <immintrin.h>
#include <string.h>

#include "../../lib/bytes.h"
#include "../crc_fold.h"
#include "kernels_x86.h"


static __m128i fold(__m128i x, struct fh_fold k)
{
	__m128i kk = _mm_set_epi64x((long long)k.hi, (long long)k.lo);

	return _mm_xor_si128(_mm_clmulepi64_si128(x, kk, 0x00),
			     _mm_clmulepi64_si128(x, kk, 0x11));
}

static uint64_t crc_pclmul(const struct fh_crc_model *m, uint64_t reg,
			   const uint8_t *p, size_t n)
{
	const struct fh_fold_consts *c = n >= 64 ? fh_fold_consts(m) : NULL;
	const __m128i swap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
					  14, 15);
	bool rev = !m->reflected;
	__m128i a0, a1, a2, a3, x;
	uint8_t last[16];

	if (!c)
		return fh_crc_portable_update(m, reg, p, n);
#define LOAD(at) (rev ? _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(at)), swap) \
		      : _mm_loadu_si128((const __m128i *)(at)))
	a0 = LOAD(p);
	a1 = LOAD(p + 16);
	a2 = LOAD(p + 32);
	a3 = LOAD(p + 48);
	/* The register joins the message's first bits. */
	a0 = _mm_xor_si128(a0, rev ? _mm_set_epi64x((long long)reg, 0)
				   : _mm_set_epi64x(0, (long long)reg));
	p += 64;
	n -= 64;
	for (; n >= 64; p += 64, n -= 64) {
		fh_prefetch_far(p);
		a0 = _mm_xor_si128(fold(a0, c->d[4]), LOAD(p));
		a1 = _mm_xor_si128(fold(a1, c->d[4]), LOAD(p + 16));
		a2 = _mm_xor_si128(fold(a2, c->d[4]), LOAD(p + 32));
		a3 = _mm_xor_si128(fold(a3, c->d[4]), LOAD(p + 48));
	}
	x = _mm_xor_si128(_mm_xor_si128(fold(a0, c->d[3]), fold(a1, c->d[2])),
			  _mm_xor_si128(fold(a2, c->d[1]), a3));
	for (; n >= 16; p += 16, n -= 16)
		x = _mm_xor_si128(fold(x, c->d[1]), LOAD(p));
#undef LOAD
	if (rev)
		x = _mm_shuffle_epi8(x, swap);
	_mm_storeu_si128((__m128i *)last, x);
	reg = fh_crc_portable_update(m, 0, last, 16);
	return fh_crc_portable_update(m, reg, p, n);
}

const struct fh_kernel fh_crc_pclmul = {
	.name = "crc-pclmul",
	.family = FH_FAMILY_CRC,
	.lanes = 1,
	.features = FH_CPU_X86_PCLMUL,
	.blocks = FH_KERNEL_FN(fh_crc_update_fn, crc_pclmul),
};
