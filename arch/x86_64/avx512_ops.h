/* avx512_ops.h: the AVX-512 operations the AVX-512 kernels use: on XMM
 * registers (the one-stream kernels, AVX-512VL) VPTERNLOGD/Q (any function
 * of three inputs, chosen by an 8-bit truth table) and VPROLD/Q (rotate
 * each element left); on ZMM registers (keccak-avx512x8, AVX-512F) and
 * YMM registers (the multi-buffer MD5 kernels, AVX-512VL) those two plus
 * adds, XOR, broadcasts, unpacks and the loads and stores of their
 * transposes.  Only static inline helpers and macros.
 *
 * Normally these are the compiler's intrinsics.  With FH_AVX512_EMULATE
 * defined they are plain C with the semantics of the Intel SDM instead, so
 * that arch/x86_64/test_avx512_emu.c can run the AVX-512 kernels' logic,
 * truth tables included, on a CPU without AVX-512 (such as the machines this
 * project is developed on).  The emulation proves the algorithm and the
 * constants; it cannot prove the compiler's AVX-512 code generation, which
 * only a run on AVX-512 hardware does (tests/unit's kernel tests).
 */
#ifndef FH_AVX512_OPS_H
#define FH_AVX512_OPS_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#ifndef FH_AVX512_EMULATE

/* Bit i of IMM is the result for inputs (a, b, c) with i = 4a + 2b + c. */
#define FH_TERNLOG32(a, b, c, imm) _mm_ternarylogic_epi32(a, b, c, imm)
#define FH_TERNLOG64(a, b, c, imm) _mm_ternarylogic_epi64(a, b, c, imm)
#define FH_ROL32X(x, n) _mm_rol_epi32(x, n)
#define FH_ROL64X(x, n) _mm_rol_epi64(x, n)

#else

/* VPTERNLOG, Intel SDM vol. 2C: for every bit position, the result bit is
 * bit (4a + 2b + c) of IMM.  Element width does not change the result, so
 * every register width is done here as N 64-bit words. */
static inline void fh_emu_ternlog_words(uint64_t *r, const uint64_t *x,
					const uint64_t *y, const uint64_t *z,
					int n, unsigned imm)
{
	for (int w = 0; w < n; w++) {
		r[w] = 0;
		for (unsigned i = 0; i < 8; i++) {
			if (!(imm >> i & 1))
				continue;
			r[w] |= (i & 4 ? x[w] : ~x[w]) & (i & 2 ? y[w] : ~y[w]) &
				(i & 1 ? z[w] : ~z[w]);
		}
	}
}

static inline __m128i fh_emu_ternlog(__m128i a, __m128i b, __m128i c,
				     unsigned imm)
{
	uint64_t x[2], y[2], z[2], r[2];

	memcpy(x, &a, 16);
	memcpy(y, &b, 16);
	memcpy(z, &c, 16);
	fh_emu_ternlog_words(r, x, y, z, 2, imm);
	__m128i v;
	memcpy(&v, r, 16);
	return v;
}

/* VPROLD: each 32-bit element rotated left by N mod 32. */
static inline __m128i fh_emu_rol32(__m128i x, unsigned n)
{
	uint32_t e[4];

	n &= 31;
	memcpy(e, &x, 16);
	for (int i = 0; i < 4; i++)
		e[i] = n ? e[i] << n | e[i] >> (32 - n) : e[i];
	memcpy(&x, e, 16);
	return x;
}

/* VPROLQ: each 64-bit element rotated left by N mod 64. */
static inline __m128i fh_emu_rol64(__m128i x, unsigned n)
{
	uint64_t e[2];

	n &= 63;
	memcpy(e, &x, 16);
	for (int i = 0; i < 2; i++)
		e[i] = n ? e[i] << n | e[i] >> (64 - n) : e[i];
	memcpy(&x, e, 16);
	return x;
}

#define FH_TERNLOG32(a, b, c, imm) fh_emu_ternlog(a, b, c, imm)
#define FH_TERNLOG64(a, b, c, imm) fh_emu_ternlog(a, b, c, imm)
#define FH_ROL32X(x, n) fh_emu_rol32(x, n)
#define FH_ROL64X(x, n) fh_emu_rol64(x, n)

#endif

/* ---- ZMM registers, for keccak-avx512x8 ---------------------------------
 *
 * fh_zmm is a 512-bit vector of 8 64-bit elements, element 0 lowest.
 * The operations are AVX-512F ones; the unpacks and the 128-bit loads and
 * stores are the whole of the data movement keccak-avx512x8 does, so the
 * emulation below covers its transposes as well:
 *   FH_Z_XOR(a, b)                            element-wise
 *   FH_Z_SET1_64(v)                           every element v
 *   FH_Z_TERNLOG64(a, b, c, imm)              VPTERNLOGQ
 *   FH_Z_ROL64(x, n)                          VPROLQ
 *   FH_Z_UNPACKLO64/HI64(a, b)                VPUNPCK{L,H}QDQ: inside each
 *       128-bit quarter, the low (LO) or high (HI) elements of a and b,
 *       a's first
 *   FH_Z_LOAD4X128(p0, p1, p2, p3)            16 bytes from each pointer,
 *       p0's into quarter 0 ... p3's into quarter 3
 *   FH_Z_LOAD4X64(p0, p1, p2, p3)             8 bytes from each into the low
 *       half of its quarter, the high half zero
 *   FH_Z_STORE4X128(v, p0, p1, p2, p3)        the inverse of LOAD4X128
 *   FH_Z_STORE4X64(v, p0, p1, p2, p3)         each quarter's low 8 bytes
 */
#ifndef FH_AVX512_EMULATE

typedef __m512i fh_zmm;

#define FH_Z_XOR(a, b) _mm512_xor_si512(a, b)
#define FH_Z_SET1_64(v) _mm512_set1_epi64((long long)(uint64_t)(v))
#define FH_Z_TERNLOG64(a, b, c, imm) _mm512_ternarylogic_epi64(a, b, c, imm)
#define FH_Z_ROL64(x, n) _mm512_rol_epi64(x, n)
#define FH_Z_UNPACKLO64(a, b) _mm512_unpacklo_epi64(a, b)
#define FH_Z_UNPACKHI64(a, b) _mm512_unpackhi_epi64(a, b)

static inline fh_zmm fh_z_join(__m128i q0, __m128i q1, __m128i q2, __m128i q3)
{
	fh_zmm v = _mm512_castsi128_si512(q0);

	v = _mm512_inserti32x4(v, q1, 1);
	v = _mm512_inserti32x4(v, q2, 2);
	return _mm512_inserti32x4(v, q3, 3);
}

static inline fh_zmm fh_z_load4x128(const void *p0, const void *p1,
				    const void *p2, const void *p3)
{
	return fh_z_join(_mm_loadu_si128((const __m128i *)p0),
			 _mm_loadu_si128((const __m128i *)p1),
			 _mm_loadu_si128((const __m128i *)p2),
			 _mm_loadu_si128((const __m128i *)p3));
}

static inline fh_zmm fh_z_load4x64(const void *p0, const void *p1,
				   const void *p2, const void *p3)
{
	return fh_z_join(_mm_loadl_epi64((const __m128i *)p0),
			 _mm_loadl_epi64((const __m128i *)p1),
			 _mm_loadl_epi64((const __m128i *)p2),
			 _mm_loadl_epi64((const __m128i *)p3));
}

static inline void fh_z_store4x128(fh_zmm v, void *p0, void *p1, void *p2,
				   void *p3)
{
	_mm_storeu_si128((__m128i *)p0, _mm512_castsi512_si128(v));
	_mm_storeu_si128((__m128i *)p1, _mm512_extracti32x4_epi32(v, 1));
	_mm_storeu_si128((__m128i *)p2, _mm512_extracti32x4_epi32(v, 2));
	_mm_storeu_si128((__m128i *)p3, _mm512_extracti32x4_epi32(v, 3));
}

static inline void fh_z_store4x64(fh_zmm v, void *p0, void *p1, void *p2,
				  void *p3)
{
	_mm_storel_epi64((__m128i *)p0, _mm512_castsi512_si128(v));
	_mm_storel_epi64((__m128i *)p1, _mm512_extracti32x4_epi32(v, 1));
	_mm_storel_epi64((__m128i *)p2, _mm512_extracti32x4_epi32(v, 2));
	_mm_storel_epi64((__m128i *)p3, _mm512_extracti32x4_epi32(v, 3));
}

#else

typedef union {
	uint32_t d[16];
	uint64_t q[8];
} fh_zmm;

static inline fh_zmm fh_emu_z_xor(fh_zmm a, fh_zmm b)
{
	for (int i = 0; i < 8; i++)
		a.q[i] ^= b.q[i];
	return a;
}

static inline fh_zmm fh_emu_z_set1_64(uint64_t v)
{
	fh_zmm r;

	for (int i = 0; i < 8; i++)
		r.q[i] = v;
	return r;
}

static inline fh_zmm fh_emu_z_ternlog(fh_zmm a, fh_zmm b, fh_zmm c,
				      unsigned imm)
{
	fh_zmm r;

	fh_emu_ternlog_words(r.q, a.q, b.q, c.q, 8, imm);
	return r;
}

static inline fh_zmm fh_emu_z_rol64(fh_zmm x, unsigned n)
{
	n &= 63;
	for (int i = 0; i < 8; i++)
		x.q[i] = n ? x.q[i] << n | x.q[i] >> (64 - n) : x.q[i];
	return x;
}

/* VPUNPCKLQDQ / VPUNPCKHQDQ: in quarter k, qword 0 (LO) or 1 (HI) of a,
 * then of b. */
static inline fh_zmm fh_emu_z_unpack64(fh_zmm a, fh_zmm b, int hi)
{
	fh_zmm r;

	for (int k = 0; k < 8; k += 2) {
		r.q[k] = a.q[k + hi];
		r.q[k + 1] = b.q[k + hi];
	}
	return r;
}

static inline fh_zmm fh_z_load4x128(const void *p0, const void *p1,
				    const void *p2, const void *p3)
{
	fh_zmm r;

	memcpy(&r.d[0], p0, 16);
	memcpy(&r.d[4], p1, 16);
	memcpy(&r.d[8], p2, 16);
	memcpy(&r.d[12], p3, 16);
	return r;
}

static inline fh_zmm fh_z_load4x64(const void *p0, const void *p1,
				   const void *p2, const void *p3)
{
	fh_zmm r;

	memset(&r, 0, sizeof r);
	memcpy(&r.q[0], p0, 8);
	memcpy(&r.q[2], p1, 8);
	memcpy(&r.q[4], p2, 8);
	memcpy(&r.q[6], p3, 8);
	return r;
}

static inline void fh_z_store4x128(fh_zmm v, void *p0, void *p1, void *p2,
				   void *p3)
{
	memcpy(p0, &v.d[0], 16);
	memcpy(p1, &v.d[4], 16);
	memcpy(p2, &v.d[8], 16);
	memcpy(p3, &v.d[12], 16);
}

static inline void fh_z_store4x64(fh_zmm v, void *p0, void *p1, void *p2,
				  void *p3)
{
	memcpy(p0, &v.q[0], 8);
	memcpy(p1, &v.q[2], 8);
	memcpy(p2, &v.q[4], 8);
	memcpy(p3, &v.q[6], 8);
}

#define FH_Z_XOR(a, b) fh_emu_z_xor(a, b)
#define FH_Z_SET1_64(v) fh_emu_z_set1_64((uint64_t)(v))
#define FH_Z_TERNLOG64(a, b, c, imm) fh_emu_z_ternlog(a, b, c, imm)
#define FH_Z_ROL64(x, n) fh_emu_z_rol64(x, n)
#define FH_Z_UNPACKLO64(a, b) fh_emu_z_unpack64(a, b, 0)
#define FH_Z_UNPACKHI64(a, b) fh_emu_z_unpack64(a, b, 1)

#endif

#define FH_Z_LOAD4X128(p0, p1, p2, p3) fh_z_load4x128(p0, p1, p2, p3)
#define FH_Z_LOAD4X64(p0, p1, p2, p3) fh_z_load4x64(p0, p1, p2, p3)
#define FH_Z_STORE4X128(v, p0, p1, p2, p3) fh_z_store4x128(v, p0, p1, p2, p3)
#define FH_Z_STORE4X64(v, p0, p1, p2, p3) fh_z_store4x64(v, p0, p1, p2, p3)

/* ---- ZMM registers, for crc-avx512 and xxh-avx512 -----------------------
 *
 * Beside the FH_Z_ forms above:
 *   FH_Z_LOADU(p), FH_Z_STOREU(p, v)          64 bytes, any alignment
 *   FH_Z_ADD64(a, b)                          VPADDQ
 *   FH_Z_MULU32(a, b)                         VPMULUDQ: each element's low
 *       32 bits times b's, a 64-bit product
 *   FH_Z_SRLI64(x, n), FH_Z_SLLI64(x, n)      VPSRLQ, VPSLLQ, N under 64
 *   FH_Z_SWAP64(x)                            VPSHUFD with 0x4e: the two
 *       elements of each 128-bit quarter swapped
 *   FH_Z_BSWAP128(x)                          VPSHUFB (AVX-512BW) with the
 *       16 bytes of each quarter reversed
 *   FH_Z_CLMUL(a, b, imm)                     VPCLMULQDQ on ZMM: in each
 *       quarter the 128-bit carry-less product of a's element imm & 1 and
 *       b's element imm >> 4 & 1
 */
#ifndef FH_AVX512_EMULATE

#define FH_Z_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define FH_Z_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define FH_Z_ADD64(a, b) _mm512_add_epi64(a, b)
#define FH_Z_MULU32(a, b) _mm512_mul_epu32(a, b)
#define FH_Z_SRLI64(x, n) _mm512_srli_epi64(x, n)
#define FH_Z_SLLI64(x, n) _mm512_slli_epi64(x, n)
#define FH_Z_SWAP64(x) _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4e)
#define FH_Z_BSWAP128(x)                                                    \
	_mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_set_epi8(        \
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
#define FH_Z_CLMUL(a, b, imm) _mm512_clmulepi64_epi128(a, b, imm)

#else

static inline fh_zmm fh_emu_z_loadu(const void *p)
{
	fh_zmm r;

	memcpy(&r, p, 64);
	return r;
}

static inline fh_zmm fh_emu_z_add64(fh_zmm a, fh_zmm b)
{
	for (int i = 0; i < 8; i++)
		a.q[i] += b.q[i];
	return a;
}

static inline fh_zmm fh_emu_z_mulu32(fh_zmm a, fh_zmm b)
{
	for (int i = 0; i < 8; i++)
		a.q[i] = (a.q[i] & 0xffffffff) * (b.q[i] & 0xffffffff);
	return a;
}

static inline fh_zmm fh_emu_z_shift64(fh_zmm x, unsigned n, int left)
{
	for (int i = 0; i < 8; i++)
		x.q[i] = n > 63 ? 0 : left ? x.q[i] << n : x.q[i] >> n;
	return x;
}

static inline fh_zmm fh_emu_z_swap64(fh_zmm x)
{
	for (int i = 0; i < 8; i += 2) {
		uint64_t t = x.q[i];

		x.q[i] = x.q[i + 1];
		x.q[i + 1] = t;
	}
	return x;
}

static inline fh_zmm fh_emu_z_bswap128(fh_zmm x)
{
	uint8_t b[64], r[64];

	memcpy(b, &x, 64);
	for (int i = 0; i < 64; i++)
		r[i] = b[(i & ~15) + 15 - (i & 15)];
	memcpy(&x, r, 64);
	return x;
}

/* The 128-bit carry-less product of A and B: bit i of B adds A shifted
 * left by i (Intel SDM vol. 2B, PCLMULQDQ). */
static inline void fh_emu_clmul64(uint64_t a, uint64_t b, uint64_t *lo,
				  uint64_t *hi)
{
	uint64_t l = 0, h = 0;

	for (unsigned i = 0; i < 64; i++)
		if (b >> i & 1) {
			l ^= a << i;
			h ^= i ? a >> (64 - i) : 0;
		}
	*lo = l;
	*hi = h;
}

static inline fh_zmm fh_emu_z_clmul(fh_zmm a, fh_zmm b, unsigned imm)
{
	fh_zmm r;

	for (int k = 0; k < 8; k += 2)
		fh_emu_clmul64(a.q[k + (imm & 1)], b.q[k + (imm >> 4 & 1)],
			       &r.q[k], &r.q[k + 1]);
	return r;
}

#define FH_Z_LOADU(p) fh_emu_z_loadu(p)
#define FH_Z_STOREU(p, v) memcpy(p, &(v), 64)
#define FH_Z_ADD64(a, b) fh_emu_z_add64(a, b)
#define FH_Z_MULU32(a, b) fh_emu_z_mulu32(a, b)
#define FH_Z_SRLI64(x, n) fh_emu_z_shift64(x, n, 0)
#define FH_Z_SLLI64(x, n) fh_emu_z_shift64(x, n, 1)
#define FH_Z_SWAP64(x) fh_emu_z_swap64(x)
#define FH_Z_BSWAP128(x) fh_emu_z_bswap128(x)
#define FH_Z_CLMUL(a, b, imm) fh_emu_z_clmul(a, b, imm)

#endif

/* ---- YMM registers, AVX-512VL, for the multi-buffer MD5 kernels ---------
 *
 * fh_ymm is a 256-bit vector of 8 32-bit elements.  VPTERNLOGD and VPROLD
 * on YMM need AVX-512VL; the rest is AVX2.  Zen 4 issues four YMM
 * operations a cycle but two ZMM ones, so more short chains of YMM work
 * keep its pipes busier than fewer ZMM ones (md5_avx512_sets.h).
 *   FH_Y_ADD32(a, b), FH_Y_SET1_32(v), FH_Y_TERNLOG32(a, b, c, imm),
 *   FH_Y_ROL32(x, n)                          as the FH_Z_ forms
 *   FH_Y_UNPACKLO32/HI32/LO64/HI64(a, b)     as FH_Z_, in each 128-bit half
 *   FH_Y_LOAD(p), FH_Y_STORE(p, v)            32 bytes, p 32-byte aligned
 *   FH_Y_LOAD2X128(p0, p1)                    16 bytes from p0 into the low
 *       half, 16 from p1 into the high half
 *   FH_Y_STORE2X128(v, p0, p1)                the inverse of LOAD2X128
 *   FH_Y_KEEP(v)                              as FH_Z_KEEP
 */
#ifndef FH_AVX512_EMULATE

typedef __m256i fh_ymm;

#define FH_Y_ADD32(a, b) _mm256_add_epi32(a, b)
#define FH_Y_SET1_32(v) _mm256_set1_epi32((int)(uint32_t)(v))
#define FH_Y_TERNLOG32(a, b, c, imm) _mm256_ternarylogic_epi32(a, b, c, imm)
#define FH_Y_ROL32(x, n) _mm256_rol_epi32(x, n)
#define FH_Y_UNPACKLO32(a, b) _mm256_unpacklo_epi32(a, b)
#define FH_Y_UNPACKHI32(a, b) _mm256_unpackhi_epi32(a, b)
#define FH_Y_UNPACKLO64(a, b) _mm256_unpacklo_epi64(a, b)
#define FH_Y_UNPACKHI64(a, b) _mm256_unpackhi_epi64(a, b)
#define FH_Y_LOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define FH_Y_STORE(p, v) _mm256_store_si256((__m256i *)(void *)(p), v)
#define FH_Y_KEEP(v) __asm__("" : "+v"(v))

static inline fh_ymm fh_y_load2x128(const void *p0, const void *p1)
{
	return _mm256_inserti128_si256(
		_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p0)),
		_mm_loadu_si128((const __m128i *)p1), 1);
}

static inline void fh_y_store2x128(fh_ymm v, void *p0, void *p1)
{
	_mm_storeu_si128((__m128i *)p0, _mm256_castsi256_si128(v));
	_mm_storeu_si128((__m128i *)p1, _mm256_extracti128_si256(v, 1));
}

#else

typedef union {
	uint32_t d[8];
	uint64_t q[4];
} fh_ymm;

static inline fh_ymm fh_emu_y_add32(fh_ymm a, fh_ymm b)
{
	for (int i = 0; i < 8; i++)
		a.d[i] += b.d[i];
	return a;
}

static inline fh_ymm fh_emu_y_set1_32(uint32_t v)
{
	fh_ymm r;

	for (int i = 0; i < 8; i++)
		r.d[i] = v;
	return r;
}

static inline fh_ymm fh_emu_y_ternlog(fh_ymm a, fh_ymm b, fh_ymm c,
				      unsigned imm)
{
	fh_ymm r;

	fh_emu_ternlog_words(r.q, a.q, b.q, c.q, 4, imm);
	return r;
}

static inline fh_ymm fh_emu_y_rol32(fh_ymm x, unsigned n)
{
	n &= 31;
	for (int i = 0; i < 8; i++)
		x.d[i] = n ? x.d[i] << n | x.d[i] >> (32 - n) : x.d[i];
	return x;
}

/* VPUNPCK{L,H}DQ and {L,H}QDQ on YMM: as the ZMM forms, in each half. */
static inline fh_ymm fh_emu_y_unpack32(fh_ymm a, fh_ymm b, int hi)
{
	fh_ymm r;

	for (int k = 0; k < 8; k += 4) {
		int h = k + 2 * hi;

		r.d[k] = a.d[h];
		r.d[k + 1] = b.d[h];
		r.d[k + 2] = a.d[h + 1];
		r.d[k + 3] = b.d[h + 1];
	}
	return r;
}

static inline fh_ymm fh_emu_y_unpack64(fh_ymm a, fh_ymm b, int hi)
{
	fh_ymm r;

	for (int k = 0; k < 4; k += 2) {
		r.q[k] = a.q[k + hi];
		r.q[k + 1] = b.q[k + hi];
	}
	return r;
}

static inline fh_ymm fh_emu_y_load(const void *p)
{
	fh_ymm r;

	memcpy(&r, p, 32);
	return r;
}

static inline void fh_emu_y_store(void *p, fh_ymm v)
{
	memcpy(p, &v, 32);
}

static inline fh_ymm fh_y_load2x128(const void *p0, const void *p1)
{
	fh_ymm r;

	memcpy(&r.d[0], p0, 16);
	memcpy(&r.d[4], p1, 16);
	return r;
}

static inline void fh_y_store2x128(fh_ymm v, void *p0, void *p1)
{
	memcpy(p0, &v.d[0], 16);
	memcpy(p1, &v.d[4], 16);
}

#define FH_Y_ADD32(a, b) fh_emu_y_add32(a, b)
#define FH_Y_SET1_32(v) fh_emu_y_set1_32((uint32_t)(v))
#define FH_Y_TERNLOG32(a, b, c, imm) fh_emu_y_ternlog(a, b, c, imm)
#define FH_Y_ROL32(x, n) fh_emu_y_rol32(x, n)
#define FH_Y_UNPACKLO32(a, b) fh_emu_y_unpack32(a, b, 0)
#define FH_Y_UNPACKHI32(a, b) fh_emu_y_unpack32(a, b, 1)
#define FH_Y_UNPACKLO64(a, b) fh_emu_y_unpack64(a, b, 0)
#define FH_Y_UNPACKHI64(a, b) fh_emu_y_unpack64(a, b, 1)
#define FH_Y_LOAD(p) fh_emu_y_load(p)
#define FH_Y_STORE(p, v) fh_emu_y_store(p, v)
#define FH_Y_KEEP(v) ((void)0)

#endif

#define FH_Y_LOAD2X128(p0, p1) fh_y_load2x128(p0, p1)
#define FH_Y_STORE2X128(v, p0, p1) fh_y_store2x128(v, p0, p1)

/* Truth tables, derived from bit i = f(a, b, c) with i = 4a + 2b + c. */
#define FH_TL_XOR3 0x96    /* a ^ b ^ c */
#define FH_TL_SELECT 0xca  /* (a & b) | (~a & c): MD5's F(b, c, d) */
#define FH_TL_MD5_G 0xe4   /* (a & c) | (b & ~c): MD5's G(b, c, d) */
#define FH_TL_MD5_I 0x39   /* b ^ (a | ~c): MD5's I(b, c, d) */
#define FH_TL_CHI 0xd2     /* a ^ (~b & c): Keccak's chi */

#endif
