/* blake3_sse41.c: BLAKE3 on SSE4.1 (-msse4.1), four 32-bit lanes of an
 * XMM register: whole chunks and parents four at a time, one per lane
 * (blake3-sse41), the first blocks of four inputs' chunks (the lanes of
 * blake3-sse41x4), and the compression function of one block with the
 * state's four rows in four registers, which the wider kernels share for
 * the blocks they compress one at a time.  Rotations by 16 and 8 are byte
 * shuffles (PSHUFB), as BLAKE3's own SSE4.1 code does them. */
#include <immintrin.h>

#include "kernels_x86.h"

#define B3V __m128i
#define B3N 4
#define B3_ADD(a, b) _mm_add_epi32(a, b)
#define B3_XOR(a, b) _mm_xor_si128(a, b)
#define B3_SET1(w) _mm_set1_epi32((int)(uint32_t)(w))
#define B3_ROR16(x) _mm_shuffle_epi8(x, rot16)
#define B3_ROR8(x) _mm_shuffle_epi8(x, rot8)
#define B3_ROR12(x) _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20))
#define B3_ROR7(x) _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25))
#define B3_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define B3_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define B3_FN(name) sse41_##name
#define B3_MSG_IN_MEMORY

/* Byte orders of a rotation right by 16 and by 8 of each word. */
#define rot16 _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define rot8 _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12)

/* Rows r0..r3 (one a lane) to columns, in place. */
static inline void transpose4(__m128i *r0, __m128i *r1, __m128i *r2,
			      __m128i *r3)
{
	__m128i a = _mm_unpacklo_epi32(*r0, *r1), b = _mm_unpackhi_epi32(*r0, *r1);
	__m128i c = _mm_unpacklo_epi32(*r2, *r3), d = _mm_unpackhi_epi32(*r2, *r3);

	*r0 = _mm_unpacklo_epi64(a, c);
	*r1 = _mm_unpackhi_epi64(a, c);
	*r2 = _mm_unpacklo_epi64(b, d);
	*r3 = _mm_unpackhi_epi64(b, d);
}

static inline void loadt(__m128i m[16], const uint8_t *const *p, size_t off)
{
	for (int g = 0; g < 4; g++) {
		for (int i = 0; i < 4; i++)
			m[4 * g + i] = B3_LOADU(p[i] + off + 16 * g);
		transpose4(&m[4 * g], &m[4 * g + 1], &m[4 * g + 2], &m[4 * g + 3]);
	}
}
#define B3_LOADT(m, p, off) loadt(m, p, off)

/* The vector of four words, a row of the state or four message words. */
#define B3_ROW4(a, b, c, d)                                                  \
	_mm_setr_epi32((int)(uint32_t)(a), (int)(uint32_t)(b),               \
		       (int)(uint32_t)(c), (int)(uint32_t)(d))
#define B3_TURN(x, k)                                                        \
	_mm_shuffle_epi32(x, (k) == 1 ? 0x39 : (k) == 2 ? 0x4e : 0x93)
#define B3_EXPORT(name) fh_blake3_##name##_sse41

#include "../blake3_lanes.h"
#include "../blake3_rows.h"

static void blake3_lanes_sse41x4(struct fh_blake3_lane *states,
				 const uint8_t *const *data, size_t nblocks)
{
	sse41_lanes_n(states, data, nblocks);
}

static void blake3_roots_sse41x4(struct fh_blake3_lane *states,
			    const uint8_t *const *blocks, const uint32_t *lens)
{
	sse41_roots_n(states, blocks, lens);
}

const struct fh_kernel fh_blake3_sse41 = {
	.name = "blake3-sse41", .family = FH_FAMILY_BLAKE3, .lanes = 1,
	.features = FH_CPU_X86_SSE41,
	.blocks = FH_KERNEL_FN(fh_blake3_chunks_fn, fh_blake3_chunks_sse41),
	.permute = FH_KERNEL_FN(fh_blake3_compress_fn, fh_blake3_compress_sse41),
	.tree = FH_KERNEL_FN(fh_blake3_parents_fn, fh_blake3_parents_sse41),
};

const struct fh_kernel fh_blake3_sse41x4 = {
	.name = "blake3-sse41x4", .family = FH_FAMILY_BLAKE3, .lanes = 4,
	.features = FH_CPU_X86_SSE41,
	.blocks_xn = FH_KERNEL_FN(fh_blake3_lanes_fn, blake3_lanes_sse41x4),
	.tree = FH_KERNEL_FN(fh_blake3_roots_fn, blake3_roots_sse41x4),
};
