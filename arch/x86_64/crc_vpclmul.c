/* crc_vpclmul.c: every CRC model of the family by carry-less multiply
 * folding on YMM registers, x86-64 VPCLMULQDQ with AVX2 (-mvpclmulqdq
 * -mavx2 -mpclmul -msse4.1), one stream.  crc_pclmul.c's method (see
 * there) with two 16-byte blocks a register: four registers hold 128
 * bytes, each lane folded 1024 bits on per step; at the end the eight
 * lanes fold into one 128-bit value, which the portable tables finish.
 * Inputs under 256 bytes go to crc-pclmul's way of doing it (one lane). */
#include <immintrin.h>

#include "../../lib/bytes.h"
#include "../crc_fold.h"
#include "kernels_x86.h"


static __m256i fold2(__m256i x, struct fh_fold k)
{
	__m256i kk = _mm256_set_epi64x((long long)k.hi, (long long)k.lo,
				       (long long)k.hi, (long long)k.lo);

	return _mm256_xor_si256(_mm256_clmulepi64_epi128(x, kk, 0x00),
				_mm256_clmulepi64_epi128(x, kk, 0x11));
}

static __m128i fold1(__m128i x, struct fh_fold k)
{
	__m128i kk = _mm_set_epi64x((long long)k.hi, (long long)k.lo);

	return _mm_xor_si128(_mm_clmulepi64_si128(x, kk, 0x00),
			     _mm_clmulepi64_si128(x, kk, 0x11));
}

static uint64_t crc_vpclmul(const struct fh_crc_model *m, uint64_t reg,
			    const uint8_t *p, size_t n)
{
	const struct fh_fold_consts *c = NULL;
	const __m256i swap2 = _mm256_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
					      13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
					      10, 11, 12, 13, 14, 15);
	const __m128i swap = _mm256_castsi256_si128(swap2);
	bool rev = !m->reflected;
	__m256i a[4];
	__m128i x;
	uint8_t last[16];

	if (n >= 256) {
		c = fh_fold_consts(m);
	}
	if (!c)
		return fh_crc_update_of(&fh_crc_pclmul)(m, reg, p, n);
#define LOAD2(at) (rev ? _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(at)), swap2) \
		       : _mm256_loadu_si256((const __m256i *)(at)))
#define LOAD1(at) (rev ? _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(at)), swap) \
		       : _mm_loadu_si128((const __m128i *)(at)))
	for (int i = 0; i < 4; i++)
		a[i] = LOAD2(p + 32 * i);
	/* The register joins the message's first bits. */
	a[0] = _mm256_xor_si256(a[0], rev ? _mm256_set_epi64x(0, 0, (long long)reg, 0)
					  : _mm256_set_epi64x(0, 0, 0, (long long)reg));
	p += 128;
	n -= 128;
	for (; n >= 128; p += 128, n -= 128) {
		fh_prefetch_far(p);
		fh_prefetch_far(p + 64);
		for (int i = 0; i < 4; i++)
			a[i] = _mm256_xor_si256(fold2(a[i], c->d[8]), LOAD2(p + 32 * i));
	}
	/* Lane j of the eight (two a register, in order) moves 7 - j
	 * blocks on. */
	x = _mm256_extracti128_si256(a[3], 1);
	for (int j = 0; j < 7; j++) {
		__m256i r = a[j / 2];
		__m128i lane = j % 2 ? _mm256_extracti128_si256(r, 1)
				     : _mm256_castsi256_si128(r);

		x = _mm_xor_si128(x, fold1(lane, c->d[7 - j]));
	}
	for (; n >= 16; p += 16, n -= 16)
		x = _mm_xor_si128(fold1(x, c->d[1]), LOAD1(p));
#undef LOAD1
#undef LOAD2
	if (rev)
		x = _mm_shuffle_epi8(x, swap);
	_mm_storeu_si128((__m128i *)last, x);
	reg = fh_crc_portable_update(m, 0, last, 16);
	return fh_crc_portable_update(m, reg, p, n);
}

const struct fh_kernel fh_crc_vpclmul = {
	.name = "crc-vpclmul",
	.family = FH_FAMILY_CRC,
	.lanes = 1,
	.features = FH_CPU_X86_VPCLMUL | FH_CPU_X86_PCLMUL,
	.blocks = FH_KERNEL_FN(fh_crc_update_fn, crc_vpclmul),
};
