/* crc_sse42.c: CRC-32C (CRC-32/ISCSI, Castagnoli) with SSE4.2's crc32
 * instruction (-msse4.2), whose polynomial is that one model's: eight
 * bytes an instruction.
 *
 * One crc32 takes three cycles and a new one may start every cycle, so
 * one chain of them runs at a third of the speed the unit has.  A block
 * is therefore cut in three equal parts whose registers run side by side
 * (the first from the register so far, the others from zero), then
 * joined by the CRC's linearity: the register after A then B is A's
 * moved on by B's length in zero bytes, added to B's own from zero
 * (lib/crc.c's fh_crc_combine).  Moving a 32-bit register on by a fixed
 * length is linear in its bits, so it is four lookups in tables of 256
 * entries per byte of the register, built once from fh_crc_combine of
 * each of the 32 one-bit registers: no carry-less multiply, so that the
 * kernel runs on CPUs with SSE4.2 but no PCLMULQDQ.  Two block sizes
 * (three parts of 4096 and of 256 bytes) and one chain for the rest.
 *
 * Every other model has a polynomial the instruction does not know: it
 * goes to the fastest folding kernel this CPU runs (crc-vpclmul,
 * crc-pclmul), else to the portable tables, so that the family's one
 * kernel serves every model as well as the CPU can. */
#include <nmmintrin.h>
#include <pthread.h>
#include <string.h>

#include "../../lib/bytes.h"
#include "../../lib/crc.h"
#include "kernels_x86.h"

#define LONG_PART 4096
#define SHORT_PART 256

/* shift[s][j][b]: byte j of the register being B, the register moved on
 * by SHORT_PART (s = 0) or LONG_PART (s = 1) zero bytes. */
static uint32_t shift[2][4][256];
static fh_crc_update_fn *others;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fill(void)
{
	static const uint64_t parts[2] = { SHORT_PART, LONG_PART };

	for (int s = 0; s < 2; s++) {
		uint32_t bit[32];

		for (int i = 0; i < 32; i++)
			bit[i] = (uint32_t)fh_crc_combine(&fh_crc_32c, 1ull << i,
							  0, parts[s]);
		for (int j = 0; j < 4; j++)
			for (unsigned b = 0; b < 256; b++) {
				uint32_t v = 0;

				for (int i = 0; i < 8; i++)
					if (b >> i & 1)
						v ^= bit[8 * j + i];
				shift[s][j][b] = v;
			}
	}
	others = fh_crc_portable_update;
#if defined(FH_HAVE_X86_PCLMUL)
	if (fh_kernel_usable(&fh_crc_pclmul))
		others = fh_crc_update_of(&fh_crc_pclmul);
#endif
#if defined(FH_HAVE_X86_VPCLMUL) && defined(FH_HAVE_X86_PCLMUL)
	if (fh_kernel_usable(&fh_crc_vpclmul))
		others = fh_crc_update_of(&fh_crc_vpclmul);
#endif
}

static uint32_t move_on(int s, uint32_t c)
{
	return shift[s][0][c & 0xff] ^ shift[s][1][c >> 8 & 0xff] ^
	       shift[s][2][c >> 16 & 0xff] ^ shift[s][3][c >> 24];
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

/* The register after 3 * PART bytes at P, PART a multiple of 8. */
static inline uint32_t three(uint32_t a, const uint8_t *p, size_t part, int s)
{
	uint64_t x = a, y = 0, z = 0;

	for (size_t i = 0; i < part; i += 8) {
		if (!(i & 63)) {
			fh_prefetch_far(p + i);
			fh_prefetch_far(p + part + i);
			fh_prefetch_far(p + 2 * part + i);
		}
		x = _mm_crc32_u64(x, load64(p + i));
		y = _mm_crc32_u64(y, load64(p + part + i));
		z = _mm_crc32_u64(z, load64(p + 2 * part + i));
	}
	return move_on(s, move_on(s, (uint32_t)x) ^ (uint32_t)y) ^ (uint32_t)z;
}

static uint64_t crc_sse42(const struct fh_crc_model *m, uint64_t reg,
			  const uint8_t *p, size_t n)
{
	uint64_t c;

	pthread_once(&once, fill);
	if (m != &fh_crc_32c)
		return others(m, reg, p, n);
	c = (uint32_t)reg;
	for (; n >= 3 * LONG_PART; p += 3 * LONG_PART, n -= 3 * LONG_PART)
		c = three((uint32_t)c, p, LONG_PART, 1);
	for (; n >= 3 * SHORT_PART; p += 3 * SHORT_PART, n -= 3 * SHORT_PART)
		c = three((uint32_t)c, p, SHORT_PART, 0);
	for (; n >= 8; p += 8, n -= 8)
		c = _mm_crc32_u64(c, load64(p));
	for (; n; p++, n--)
		c = _mm_crc32_u8((uint32_t)c, *p);
	return c;
}

const struct fh_kernel fh_crc_sse42 = {
	.name = "crc-sse42",
	.family = FH_FAMILY_CRC,
	.lanes = 1,
	.features = FH_CPU_X86_SSE42,
	.blocks = FH_KERNEL_FN(fh_crc_update_fn, crc_sse42),
};
