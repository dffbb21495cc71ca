/* xxhash.c: the xxHash family (xxHash's specification, doc/xxhash_spec.md
 * v0.2.0, Cyan4973/xxHash): XXH32 and XXH64 over stripes of 16 and 32
 * bytes, XXH3's 64-bit and 128-bit hashes (seed 0, the default secret):
 * their short and medium inputs in one step, their large inputs as
 * 1024-byte blocks on the family's kernels (the portable one here),
 * the last block and the last stripe after.  The family's ops record
 * (family.h) streams all four in fh_ctx: the accumulators in its state,
 * XXH32's and XXH64's partial stripe in its block buffer, XXH3's last
 * block in its mode area.  Digests are the canonical form: the value's
 * bytes, most significant first (XXH128: the high half first). */
#include <string.h>

#include "algo.h"
#include "bytes.h"
#include "family.h"
#include "xxhash.h"

/* The specification's primes (its "Overview" sections). */
#define P32_1 0x9E3779B1u
#define P32_2 0x85EBCA77u
#define P32_3 0xC2B2AE3Du
#define P32_4 0x27D4EB2Fu
#define P32_5 0x165667B1u
#define P64_1 0x9E3779B185EBCA87ull
#define P64_2 0xC2B2AE3D27D4EB4Full
#define P64_3 0x165667B19E3779F9ull
#define P64_4 0x85EBCA77C2B2AE63ull
#define P64_5 0x27D4EB2F165667C5ull
#define PMX_1 0x165667919E3779F9ull
#define PMX_2 0x9FB21C651E98DF25ull

/* XXH3's default secret (the specification's "Seed and Secret"). */
const uint8_t fh_xxh3_secret[192] = {
	0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
	0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
	0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
	0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
	0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
	0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
	0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
	0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
	0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
	0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
	0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
	0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

/* The secret as the specification names it, and its length. */
static const uint8_t *const secret = fh_xxh3_secret;
#define SECRET_BYTES sizeof fh_xxh3_secret
#define XXH3_BLOCK 1024 /* 16 stripes of 64 bytes: (192 - 64) / 8 stripes */
#define XXH3_STRIPE 64

/* Which algorithm a row is (its model, algo.c). */
enum { XXH32, XXH64, XXH3_64, XXH3_128 };
const int fh_xxh_kinds[4] = { XXH32, XXH64, XXH3_64, XXH3_128 };

static int kind_of(const struct fh_algo *algo)
{
	return *(const int *)fh_algo_row(algo)->model;
}

static uint32_t bswap32(uint32_t x)
{
	return x >> 24 | (x >> 8 & 0xff00) | (x << 8 & 0xff0000) | x << 24;
}

static uint64_t bswap64(uint64_t x)
{
	return (uint64_t)bswap32((uint32_t)x) << 32 | bswap32((uint32_t)(x >> 32));
}

/* The full 128-bit product of A and B, as two halves. */
static void mul128(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
	unsigned __int128 r = (unsigned __int128)a * b;

	*lo = (uint64_t)r;
	*hi = (uint64_t)(r >> 64);
}

static uint64_t fold(uint64_t a, uint64_t b)
{
	uint64_t lo, hi;

	mul128(a, b, &lo, &hi);
	return lo ^ hi;
}

/* XXH32 ------------------------------------------------------------ */

/* A register the compiler must assume changed: it keeps XXH32's four
 * rounds in four general registers, where SSE2 (with no 32-bit multiply
 * before SSE4.1) turned them into a chain of shifts and adds at half the
 * speed (2.4 against 5 GB/s on Zen 3), as xxHash's own code notes. */
#if defined(__GNUC__) || defined(__clang__)
#define IN_REGISTER(v) __asm__("" : "+r"(v))
#else
#define IN_REGISTER(v) ((void)0)
#endif

static uint32_t round32(uint32_t acc, uint32_t lane)
{
	acc = fh_rol32(acc + lane * P32_2, 13);
	IN_REGISTER(acc);
	return acc * P32_1;
}

/* Four accumulators in four variables: their rounds are independent, and
 * the compiler keeps each in a register. */
static void xxh32_stripes(uint64_t *st, const uint8_t *p, size_t n)
{
	uint32_t a0 = (uint32_t)st[0], a1 = (uint32_t)st[1], a2 = (uint32_t)st[2],
		 a3 = (uint32_t)st[3];

	for (; n; n--, p += 16) {
		if (!(n & 3))   /* a line a prefetch */
			fh_prefetch_ahead(p);
		a0 = round32(a0, fh_load32le(p));
		a1 = round32(a1, fh_load32le(p + 4));
		a2 = round32(a2, fh_load32le(p + 8));
		a3 = round32(a3, fh_load32le(p + 12));
	}
	st[0] = a0, st[1] = a1, st[2] = a2, st[3] = a3;
}

static uint32_t xxh32_final(const uint64_t *st, uint64_t total,
			    const uint8_t *p, size_t rest)
{
	uint32_t acc;

	if (total >= 16)
		acc = fh_rol32((uint32_t)st[0], 1) + fh_rol32((uint32_t)st[1], 7) +
		      fh_rol32((uint32_t)st[2], 12) + fh_rol32((uint32_t)st[3], 18);
	else
		acc = P32_5;
	acc += (uint32_t)total;
	for (; rest >= 4; rest -= 4, p += 4)
		acc = fh_rol32(acc + fh_load32le(p) * P32_3, 17) * P32_4;
	for (; rest; rest--, p++)
		acc = fh_rol32(acc + *p * P32_5, 11) * P32_1;
	acc ^= acc >> 15;
	acc *= P32_2;
	acc ^= acc >> 13;
	acc *= P32_3;
	acc ^= acc >> 16;
	return acc;
}

/* XXH64 ------------------------------------------------------------ */

static uint64_t round64(uint64_t acc, uint64_t lane)
{
	return fh_rol64(acc + lane * P64_2, 31) * P64_1;
}

static void xxh64_stripes(uint64_t *st, const uint8_t *p, size_t n)
{
	uint64_t a0 = st[0], a1 = st[1], a2 = st[2], a3 = st[3];

	for (; n; n--, p += 32) {
		if (!(n & 1))
			fh_prefetch_ahead(p);
		a0 = round64(a0, fh_load64le(p));
		a1 = round64(a1, fh_load64le(p + 8));
		a2 = round64(a2, fh_load64le(p + 16));
		a3 = round64(a3, fh_load64le(p + 24));
	}
	st[0] = a0, st[1] = a1, st[2] = a2, st[3] = a3;
}

static uint64_t merge64(uint64_t acc, uint64_t a)
{
	return (acc ^ round64(0, a)) * P64_1 + P64_4;
}

static uint64_t avalanche64(uint64_t x)
{
	x ^= x >> 33;
	x *= P64_2;
	x ^= x >> 29;
	x *= P64_3;
	x ^= x >> 32;
	return x;
}

static uint64_t xxh64_final(const uint64_t *st, uint64_t total,
			    const uint8_t *p, size_t rest)
{
	uint64_t acc;

	if (total >= 32) {
		acc = fh_rol64(st[0], 1) + fh_rol64(st[1], 7) + fh_rol64(st[2], 12) +
		      fh_rol64(st[3], 18);
		for (int i = 0; i < 4; i++)
			acc = merge64(acc, st[i]);
	} else {
		acc = P64_5;
	}
	acc += total;
	for (; rest >= 8; rest -= 8, p += 8)
		acc = fh_rol64(acc ^ round64(0, fh_load64le(p)), 27) * P64_1 + P64_4;
	if (rest >= 4) {
		acc = fh_rol64(acc ^ (fh_load32le(p) * P64_1), 23) * P64_2 + P64_3;
		rest -= 4;
		p += 4;
	}
	for (; rest; rest--, p++)
		acc = fh_rol64(acc ^ (*p * P64_5), 11) * P64_1;
	return avalanche64(acc);
}

/* XXH3 ------------------------------------------------------------- */

static uint64_t avalanche3(uint64_t x)
{
	x ^= x >> 37;
	x *= PMX_1;
	x ^= x >> 32;
	return x;
}

static uint64_t mix16(const uint8_t *d, const uint8_t *s, uint64_t seed)
{
	return fold(fh_load64le(d) ^ (fh_load64le(s) + seed),
		    fh_load64le(d + 8) ^ (fh_load64le(s + 8) - seed));
}

static void mix32(uint64_t acc[2], const uint8_t *d1, const uint8_t *d2,
		  const uint8_t *s, uint64_t seed)
{
	acc[0] += mix16(d1, s, seed);
	acc[1] += mix16(d2, s + 16, seed);
	acc[0] ^= fh_load64le(d2) + fh_load64le(d2 + 8);
	acc[1] ^= fh_load64le(d1) + fh_load64le(d1 + 8);
}

/* Inputs of 0 to 240 bytes, whole: XXH3's 64 bits into *LO, or XXH128's
 * two halves. */
static void xxh3_short(const uint8_t *p, size_t len, bool wide, uint64_t *lo,
		       uint64_t *hi)
{
	const uint8_t *s = secret;

	if (len == 0) {
		*lo = avalanche64(fh_load64le(s + (wide ? 64 : 56)) ^
				  fh_load64le(s + (wide ? 72 : 64)));
		*hi = avalanche64(fh_load64le(s + 80) ^ fh_load64le(s + 88));
	} else if (len <= 3) {
		uint32_t c = (uint32_t)p[len - 1] | (uint32_t)len << 8 |
			     (uint32_t)p[0] << 16 | (uint32_t)p[len >> 1] << 24;

		*lo = avalanche64((uint64_t)(fh_load32le(s) ^ fh_load32le(s + 4)) ^ c);
		*hi = avalanche64((uint64_t)(fh_load32le(s + 8) ^ fh_load32le(s + 12)) ^
				  fh_rol32(bswap32(c), 13));
	} else if (len <= 8) {
		uint64_t first = fh_load32le(p), last = fh_load32le(p + len - 4);

		if (!wide) {
			uint64_t v = (fh_load64le(s + 8) ^ fh_load64le(s + 16)) ^
				     (last | first << 32);

			v ^= fh_rol64(v, 49) ^ fh_rol64(v, 24);
			v *= PMX_2;
			v ^= (v >> 35) + len;
			v *= PMX_2;
			*lo = v ^ (v >> 28);
		} else {
			uint64_t v = (fh_load64le(s + 16) ^ fh_load64le(s + 24)) ^
				     (first | last << 32);
			uint64_t l, h;

			mul128(v, P64_1 + ((uint64_t)len << 2), &l, &h);
			h += l << 1;
			l ^= h >> 3;
			l ^= l >> 35;
			l *= PMX_2;
			*lo = l ^ (l >> 28);
			*hi = avalanche3(h);
		}
	} else if (len <= 16) {
		uint64_t first = fh_load64le(p), last = fh_load64le(p + len - 8);

		if (!wide) {
			uint64_t l = (fh_load64le(s + 24) ^ fh_load64le(s + 32)) ^ first;
			uint64_t h = (fh_load64le(s + 40) ^ fh_load64le(s + 48)) ^ last;

			*lo = avalanche3(len + bswap64(l) + h + fold(l, h));
		} else {
			uint64_t v1 = (fh_load64le(s + 32) ^ fh_load64le(s + 40)) ^ first ^ last;
			uint64_t v2 = (fh_load64le(s + 48) ^ fh_load64le(s + 56)) ^ last;
			uint64_t l, h, l2, h2;

			mul128(v1, P64_1, &l, &h);
			l += (uint64_t)(len - 1) << 54;
			h += (v2 >> 32 << 32) + (uint64_t)(uint32_t)v2 * P32_2;
			l ^= bswap64(h);
			mul128(l, P64_2, &l2, &h2);
			*lo = avalanche3(l2);
			*hi = avalanche3(h2 + h * P64_2);
		}
	} else if (len <= 128) {
		size_t rounds = ((len - 1) >> 5) + 1;
		uint64_t acc[2] = { len * P64_1, 0 };

		for (size_t i = rounds; i-- > 0;) {
			const uint8_t *a = p + 16 * i, *b = p + len - 16 * i - 16;

			if (wide) {
				mix32(acc, a, b, s + 32 * i, 0);
			} else {
				acc[0] += mix16(a, s + 32 * i, 0);
				acc[0] += mix16(b, s + 32 * i + 16, 0);
			}
		}
		*lo = avalanche3(wide ? acc[0] + acc[1] : acc[0]);
		*hi = 0 - avalanche3(acc[0] * P64_1 + acc[1] * P64_4 + len * P64_2);
	} else if (!wide) {
		uint64_t acc = len * P64_1;
		size_t chunks = len >> 4;

		for (size_t i = 0; i < 8; i++)
			acc += mix16(p + 16 * i, s + 16 * i, 0);
		acc = avalanche3(acc);
		for (size_t i = 8; i < chunks; i++)
			acc += mix16(p + 16 * i, s + (i - 8) * 16 + 3, 0);
		acc += mix16(p + len - 16, s + 119, 0);
		*lo = avalanche3(acc);
	} else {
		uint64_t acc[2] = { len * P64_1, 0 };
		size_t chunks = len >> 5;

		for (size_t i = 0; i < 4; i++)
			mix32(acc, p + 32 * i, p + 32 * i + 16, s + 32 * i, 0);
		acc[0] = avalanche3(acc[0]);
		acc[1] = avalanche3(acc[1]);
		for (size_t i = 4; i < chunks; i++)
			mix32(acc, p + 32 * i, p + 32 * i + 16, s + (i - 4) * 32 + 3, 0);
		mix32(acc, p + len - 16, p + len - 32, s + 103, 0);
		*lo = avalanche3(acc[0] + acc[1]);
		*hi = 0 - avalanche3(acc[0] * P64_1 + acc[1] * P64_4 + len * P64_2);
	}
}

static void accumulate(uint64_t acc[8], const uint8_t *stripe, const uint8_t *s)
{
	for (int i = 0; i < 8; i++) {
		uint64_t v = fh_load64le(stripe + 8 * i);
		uint64_t k = v ^ fh_load64le(s + 8 * i);

		acc[i ^ 1] += v;
		acc[i] += (k & 0xffffffff) * (k >> 32);
	}
}

/* The portable kernel: NBLOCKS whole blocks of the large-input hash, each
 * 16 stripes then the scramble (the specification's "round"). */
static void xxh3_blocks_portable(uint64_t acc[8], const uint8_t *p, size_t nblocks)
{
	for (; nblocks; nblocks--, p += XXH3_BLOCK) {
		for (int n = 0; n < 16; n++) {
			fh_prefetch_ahead(p + XXH3_STRIPE * n);
			accumulate(acc, p + XXH3_STRIPE * n, secret + 8 * n);
		}
		for (int i = 0; i < 8; i++) {
			acc[i] ^= acc[i] >> 47;
			acc[i] ^= fh_load64le(secret + 128 + 8 * i);
			acc[i] *= P32_1;
		}
	}
}

const struct fh_kernel fh_xxh_portable = {
	.name = "xxh-portable",
	.family = FH_FAMILY_XXH,
	.lanes = 1,
	.blocks = FH_KERNEL_FN(fh_xxh3_blocks_fn, xxh3_blocks_portable),
};

static uint64_t merge3(const uint64_t acc[8], uint64_t init, const uint8_t *s)
{
	uint64_t r = init;

	for (int i = 0; i < 4; i++)
		r += fold(acc[2 * i] ^ fh_load64le(s + 16 * i),
			  acc[2 * i + 1] ^ fh_load64le(s + 16 * i + 8));
	return avalanche3(r);
}

/* The ops record ---------------------------------------------------- */

static void start(const struct fh_algo *algo, void *state)
{
	static const uint64_t xxh3_acc[8] = {
		P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1,
	};
	uint64_t *st = state;

	switch (kind_of(algo)) {
	case XXH32:
		st[0] = (uint32_t)(P32_1 + P32_2);
		st[1] = P32_2;
		st[2] = 0;
		st[3] = (uint32_t)(0 - P32_1);
		break;
	case XXH64:
		st[0] = P64_1 + P64_2;
		st[1] = P64_2;
		st[2] = 0;
		st[3] = 0 - P64_1;
		break;
	default:
		memcpy(st, xxh3_acc, sizeof xxh3_acc);
		break;
	}
}

/* Whole stripes (XXH32, XXH64) or blocks (XXH3) into STATE. */
static void blocks(const struct fh_kernel *k, const struct fh_algo *algo,
		   void *state, const uint8_t *data, size_t nblocks)
{
	switch (kind_of(algo)) {
	case XXH32: xxh32_stripes(state, data, nblocks); break;
	case XXH64: xxh64_stripes(state, data, nblocks); break;
	default: fh_xxh3_blocks_of(k)(state, data, nblocks); break;
	}
}

static size_t pad(const struct fh_algo *algo, uint8_t *b, size_t tail,
		  uint64_t total)
{
	(void)algo, (void)b, (void)tail, (void)total;
	return 0;
}

/* XXH32 and XXH64 stream through hash.c's buffer of partial stripes;
 * XXH3 keeps the last block back, since the last one ends otherwise. */
static void update(fh_ctx *ctx, const uint8_t *p, size_t len)
{
	uint8_t *blk = ctx->mode.xxh.block;
	size_t stripe = ctx->algo->block_bytes;

	ctx->total += len;
	if (kind_of(ctx->algo) <= XXH64) {
		if (ctx->buffered) {
			size_t take = stripe - ctx->buffered < len ? stripe - ctx->buffered : len;

			memcpy(ctx->buf + ctx->buffered, p, take);
			ctx->buffered += take;
			p += take;
			len -= take;
			if (ctx->buffered < stripe)
				return;
			blocks(ctx->kernel, ctx->algo, ctx->state.xxh, ctx->buf, 1);
			ctx->buffered = 0;
		}
		blocks(ctx->kernel, ctx->algo, ctx->state.xxh, p, len / stripe);
		p += len / stripe * stripe;
		len %= stripe;
		memcpy(ctx->buf, p, len);
		ctx->buffered = len;
		return;
	}
	if (ctx->buffered + len <= XXH3_BLOCK) {
		memcpy(blk + ctx->buffered, p, len);
		ctx->buffered += len;
		return;
	}
	if (ctx->buffered) {
		size_t take = XXH3_BLOCK - ctx->buffered;

		memcpy(blk + ctx->buffered, p, take);
		p += take;
		len -= take;
		fh_xxh3_blocks_of(ctx->kernel)(ctx->state.xxh, blk, 1);
		memcpy(ctx->mode.xxh.tail, blk + XXH3_BLOCK - XXH3_STRIPE, XXH3_STRIPE);
	}
	/* Blocks straight from P, all but the last byte's. */
	if (len > XXH3_BLOCK) {
		size_t n = (len - 1) / XXH3_BLOCK;

		fh_xxh3_blocks_of(ctx->kernel)(ctx->state.xxh, p, n);
		p += n * XXH3_BLOCK;
		len -= n * XXH3_BLOCK;
		memcpy(ctx->mode.xxh.tail, p - XXH3_STRIPE, XXH3_STRIPE);
	}
	memcpy(blk, p, len);
	ctx->buffered = len;
}

static void final(fh_ctx *ctx, const void *custom, size_t customlen,
		  uint8_t *out, size_t outlen)
{
	int kind = kind_of(ctx->algo);
	uint64_t lo = 0, hi = 0, total = ctx->total;
	uint8_t be[16];

	(void)custom, (void)customlen;
	if (kind == XXH32) {
		lo = xxh32_final(ctx->state.xxh, total, ctx->buf, ctx->buffered);
	} else if (kind == XXH64) {
		lo = xxh64_final(ctx->state.xxh, total, ctx->buf, ctx->buffered);
	} else if (total <= 240) {
		xxh3_short(ctx->mode.xxh.block, (size_t)total, kind == XXH3_128, &lo, &hi);
	} else {
		uint64_t *acc = ctx->state.xxh;
		const uint8_t *blk = ctx->mode.xxh.block;
		size_t len = ctx->buffered;
		uint8_t last[XXH3_STRIPE];

		/* The last stripe may reach back into the block before. */
		if (len >= XXH3_STRIPE) {
			memcpy(last, blk + len - XXH3_STRIPE, XXH3_STRIPE);
		} else {
			memcpy(last, ctx->mode.xxh.tail + len, XXH3_STRIPE - len);
			memcpy(last + XXH3_STRIPE - len, blk, len);
		}
		for (size_t n = 0; n < (len - 1) / XXH3_STRIPE; n++)
			accumulate(acc, blk + XXH3_STRIPE * n, secret + 8 * n);
		accumulate(acc, last, secret + SECRET_BYTES - 71);
		lo = merge3(acc, total * P64_1, secret + 11);
		hi = merge3(acc, ~(total * P64_2), secret + SECRET_BYTES - 75);
	}
	if (kind == XXH3_128) {
		fh_store64be(be, hi);
		fh_store64be(be + 8, lo);
	} else {
		fh_store64be(be, lo);
		if (kind == XXH32)
			memmove(be, be + 4, 4);
	}
	memcpy(out, be, outlen);
}

static void digest(const struct fh_algo *algo, const struct fh_kernel *k,
		   void *state, uint8_t *out, size_t outlen)
{
	/* Every digest is final's, which needs the context. */
	(void)algo, (void)k, (void)state;
	memset(out, 0, outlen);
}

const struct fh_family_ops fh_xxh_ops = {
	.name = "xxh", .state_bytes = 8 * sizeof(uint64_t),
	.start = start, .blocks = blocks, .pad = pad, .digest = digest,
	.update = update, .final = final,
};
