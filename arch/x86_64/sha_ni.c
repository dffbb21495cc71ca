/* sha_ni.c: SHA-1 and SHA-256 on the x86 SHA extensions (SHA-NI), one
 * stream (sha1-shani, sha256-shani) and two streams interleaved in one
 * thread (sha1-shanix2, sha256-shanix2).  ISA: x86-64 + SHA + SSE4.1,
 * built with -msha -msse4.1 (FH_CPU_X86_SHA; every CPU with the SHA
 * extensions has SSE4.1).
 *
 * Register layouts, from the instructions' definitions (Intel SDM Vol. 2,
 * SHA256RNDS2, SHA1RNDS4, SHA1NEXTE):
 *   SHA-256: SHA256RNDS2 takes the working variables as two registers,
 *   ABEF = {A, B, E, F} and CDGH = {C, D, G, H}, highest element first,
 *   and two words of W + K in the low half of XMM0; it returns the new
 *   ABEF, and after two rounds the old ABEF is the new CDGH.
 *   SHA-1: SHA1RNDS4 takes {A, B, C, D}, A highest, and {W0 + E, W1, W2,
 *   W3}, W0 highest; SHA1NEXTE adds ROL(A, 30) of the {A, B, C, D} of four
 *   rounds before (the E of the next four) to the highest word of W.
 * So SHA-256's message words are byte-swapped within each 32-bit word
 * (W0 lowest), SHA-1's across the whole 16 bytes (W0 highest).
 *
 * The message schedules: SHA256MSG1(W0..3, W4..7) gives W[i] +
 * σ0(W[i+1]); adding W9..12 and SHA256MSG2 with W12..15 gives W16..19.
 * SHA1MSG1(W0..3, W4..7) gives W[i] ^ W[i+2]; XOR W8..11 and SHA1MSG2
 * with W12..15 gives W16..19, each rotated left by one.
 *
 * Two streams: each round group depends on the one before through
 * SHA256RNDS2's or SHA1RNDS4's latency, which on AMD Zen is several
 * times its issue interval, so a second independent stream fills the
 * unit's idle cycles.  The *_x2 kernels run the same code on two states
 * step by step, leaving the interleaving to the out-of-order core.
 */
#include <immintrin.h>
#include <stdint.h>

#include "kernels_x86.h"
#include "sha256_k.h"

/* F(g) for g = 0..15 and 0..19, written out: with the group a constant
 * the compiler keeps the schedule in registers and the SHA1RNDS4 function
 * as its immediate (a loop left SHA-1 branching per group, 26% slower
 * on Zen 3). */
#define FH_REP4(F, b) F((b)); F((b) + 1); F((b) + 2); F((b) + 3)
#define FH_REP16(F) FH_REP4(F, 0); FH_REP4(F, 4); FH_REP4(F, 8); FH_REP4(F, 12)
#define FH_REP20(F) FH_REP16(F); FH_REP4(F, 16)

/* ---- SHA-256 ------------------------------------------------------------ */

/* One stream's working registers. */
struct sha256_regs {
	__m128i abef, cdgh, save_abef, save_cdgh;
	__m128i m[4];           /* the schedule's last 16 words */
};

static inline __m128i sha256_bswap(void)
{
	return _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1,
			    2, 3);
}

static inline void sha256_load_state(struct sha256_regs *r,
				     const uint32_t s[8])
{
	/* Elements named highest first, as the SDM draws registers. */
	__m128i abcd = _mm_loadu_si128((const __m128i *)s);       /* d c b a */
	__m128i efgh = _mm_loadu_si128((const __m128i *)(s + 4)); /* h g f e */

	abcd = _mm_shuffle_epi32(abcd, 0xb1);  /* c d a b */
	efgh = _mm_shuffle_epi32(efgh, 0x1b);  /* e f g h */
	r->abef = _mm_alignr_epi8(abcd, efgh, 8);     /* a b e f */
	r->cdgh = _mm_blend_epi16(efgh, abcd, 0xf0);  /* c d g h */
}

static inline void sha256_store_state(const struct sha256_regs *r,
				      uint32_t s[8])
{
	__m128i feba = _mm_shuffle_epi32(r->abef, 0x1b);  /* f e b a */
	__m128i dchg = _mm_shuffle_epi32(r->cdgh, 0xb1);  /* d c h g */

	_mm_storeu_si128((__m128i *)s, _mm_blend_epi16(feba, dchg, 0xf0));
	_mm_storeu_si128((__m128i *)(s + 4), _mm_alignr_epi8(dchg, feba, 8));
}

/* Block start: keep the state, load the 16 message words. */
static inline void sha256_begin(struct sha256_regs *r, const uint8_t *p)
{
	const __m128i bswap = sha256_bswap();

	r->save_abef = r->abef;
	r->save_cdgh = r->cdgh;
	for (int i = 0; i < 4; i++)
		r->m[i] = _mm_shuffle_epi8(
			_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
}

/* Rounds 4G..4G+3; from group 4 on, first the words they use. */
static inline void sha256_group(struct sha256_regs *r, int g)
{
	if (g >= 4) {
		__m128i *w = &r->m[g & 3];
		__m128i t = _mm_sha256msg1_epu32(*w, r->m[(g + 1) & 3]);
		t = _mm_add_epi32(t, _mm_alignr_epi8(r->m[(g + 3) & 3],
						     r->m[(g + 2) & 3], 4));
		*w = _mm_sha256msg2_epu32(t, r->m[(g + 3) & 3]);
	}
	__m128i wk = _mm_add_epi32(r->m[g & 3],
		_mm_loadu_si128((const __m128i *)&fh_sha256_k[4 * g]));
	r->cdgh = _mm_sha256rnds2_epu32(r->cdgh, r->abef, wk);
	r->abef = _mm_sha256rnds2_epu32(r->abef, r->cdgh,
					_mm_shuffle_epi32(wk, 0x0e));
}

static inline void sha256_end(struct sha256_regs *r)
{
	r->abef = _mm_add_epi32(r->abef, r->save_abef);
	r->cdgh = _mm_add_epi32(r->cdgh, r->save_cdgh);
}

static void fh_sha256_blocks_shani(uint32_t state[8], const uint8_t *data,
				   size_t nblocks)
{
	struct sha256_regs r;

	sha256_load_state(&r, state);
	for (; nblocks; nblocks--, data += 64) {
		sha256_begin(&r, data);
#define FH_G(g) sha256_group(&r, g)
		FH_REP16(FH_G);
#undef FH_G
		sha256_end(&r);
	}
	sha256_store_state(&r, state);
}

static void fh_sha256_blocks_shanix2(uint32_t (*states)[8],
				     const uint8_t *const *data,
				     size_t nblocks)
{
	struct sha256_regs a, b;
	const uint8_t *pa = data[0], *pb = data[1];

	sha256_load_state(&a, states[0]);
	sha256_load_state(&b, states[1]);
	for (; nblocks; nblocks--, pa += 64, pb += 64) {
		sha256_begin(&a, pa);
		sha256_begin(&b, pb);
#define FH_G(g) sha256_group(&a, g), sha256_group(&b, g)
		FH_REP16(FH_G);
#undef FH_G
		sha256_end(&a);
		sha256_end(&b);
	}
	sha256_store_state(&a, states[0]);
	sha256_store_state(&b, states[1]);
}

/* ---- SHA-1 -------------------------------------------------------------- */

struct sha1_regs {
	__m128i abcd, e, save_abcd, save_e;
	__m128i prev;           /* the {A, B, C, D} four rounds back */
	__m128i m[4];
};

/* SHA1RNDS4's function selector must be an immediate. */
#define FH_SHA1_RNDS4(abcd, we, g)                                          \
	((g) < 5    ? _mm_sha1rnds4_epu32(abcd, we, 0)                      \
	 : (g) < 10 ? _mm_sha1rnds4_epu32(abcd, we, 1)                      \
	 : (g) < 15 ? _mm_sha1rnds4_epu32(abcd, we, 2)                      \
		    : _mm_sha1rnds4_epu32(abcd, we, 3))

static inline void sha1_load_state(struct sha1_regs *r, const uint32_t s[5])
{
	r->abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)s), 0x1b);
	r->e = _mm_set_epi32((int)s[4], 0, 0, 0);
}

static inline void sha1_store_state(const struct sha1_regs *r, uint32_t s[5])
{
	_mm_storeu_si128((__m128i *)s, _mm_shuffle_epi32(r->abcd, 0x1b));
	s[4] = (uint32_t)_mm_extract_epi32(r->e, 3);
}

static inline void sha1_begin(struct sha1_regs *r, const uint8_t *p)
{
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					   11, 12, 13, 14, 15);

	r->save_abcd = r->abcd;
	r->save_e = r->e;
	r->prev = r->abcd; /* set by group 0 before any use */
	for (int i = 0; i < 4; i++)
		r->m[i] = _mm_shuffle_epi8(
			_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
}

/* Rounds 4G..4G+3 (G < 20); from group 4 on, first the words they use. */
static inline void sha1_group(struct sha1_regs *r, int g)
{
	if (g >= 4) {
		__m128i *w = &r->m[g & 3];
		__m128i t = _mm_sha1msg1_epu32(*w, r->m[(g + 1) & 3]);
		t = _mm_xor_si128(t, r->m[(g + 2) & 3]);
		*w = _mm_sha1msg2_epu32(t, r->m[(g + 3) & 3]);
	}
	/* The first group's E is the state's; later ones take ROL(A, 30)
	 * of the group before's input through SHA1NEXTE. */
	__m128i we = g == 0 ? _mm_add_epi32(r->e, r->m[0])
			    : _mm_sha1nexte_epu32(r->prev, r->m[g & 3]);
	r->prev = r->abcd;
	r->abcd = FH_SHA1_RNDS4(r->abcd, we, g);
}

static inline void sha1_end(struct sha1_regs *r)
{
	/* E after round 79 is ROL(A of round 76, 30): SHA1NEXTE adds it to
	 * the saved E in one step. */
	r->e = _mm_sha1nexte_epu32(r->prev, r->save_e);
	r->abcd = _mm_add_epi32(r->abcd, r->save_abcd);
}

static void fh_sha1_blocks_shani(uint32_t state[5], const uint8_t *data,
				 size_t nblocks)
{
	struct sha1_regs r;

	sha1_load_state(&r, state);
	for (; nblocks; nblocks--, data += 64) {
		sha1_begin(&r, data);
#define FH_G(g) sha1_group(&r, g)
		FH_REP20(FH_G);
#undef FH_G
		sha1_end(&r);
	}
	sha1_store_state(&r, state);
}

static void fh_sha1_blocks_shanix2(uint32_t (*states)[5],
				   const uint8_t *const *data, size_t nblocks)
{
	struct sha1_regs a, b;
	const uint8_t *pa = data[0], *pb = data[1];

	sha1_load_state(&a, states[0]);
	sha1_load_state(&b, states[1]);
	for (; nblocks; nblocks--, pa += 64, pb += 64) {
		sha1_begin(&a, pa);
		sha1_begin(&b, pb);
#define FH_G(g) sha1_group(&a, g), sha1_group(&b, g)
		FH_REP20(FH_G);
#undef FH_G
		sha1_end(&a);
		sha1_end(&b);
	}
	sha1_store_state(&a, states[0]);
	sha1_store_state(&b, states[1]);
}

const struct fh_kernel fh_sha1_shani = {
	.name = "sha1-shani",
	.family = FH_FAMILY_SHA1,
	.lanes = 1,
	.features = FH_CPU_X86_SHA,
	.blocks = FH_KERNEL_FN(fh_sha1_blocks_fn, fh_sha1_blocks_shani),
};

const struct fh_kernel fh_sha256_shani = {
	.name = "sha256-shani",
	.family = FH_FAMILY_SHA256,
	.lanes = 1,
	.features = FH_CPU_X86_SHA,
	.blocks = FH_KERNEL_FN(fh_sha256_blocks_fn, fh_sha256_blocks_shani),
};

const struct fh_kernel fh_sha1_shanix2 = {
	.name = "sha1-shanix2",
	.family = FH_FAMILY_SHA1,
	.lanes = 2,
	.features = FH_CPU_X86_SHA,
	.blocks_xn = FH_KERNEL_FN(fh_sha1_blocks_xn_fn, fh_sha1_blocks_shanix2),
};

const struct fh_kernel fh_sha256_shanix2 = {
	.name = "sha256-shanix2",
	.family = FH_FAMILY_SHA256,
	.lanes = 2,
	.features = FH_CPU_X86_SHA,
	.blocks_xn = FH_KERNEL_FN(fh_sha256_blocks_xn_fn, fh_sha256_blocks_shanix2),
};
