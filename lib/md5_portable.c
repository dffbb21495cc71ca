/* md5_portable.c: the portable MD5 compression function, written to follow
 * RFC 1321 §3.4 step by step.  It is the reference that every other MD5
 * kernel is tested against, so it favours the specification's shape over
 * speed; the compiler still turns it into straight-line code. */
#include "bytes.h"
#include "kernel.h"

/* The auxiliary functions of RFC 1321 §3.4. */
#define FH_MD5_F(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define FH_MD5_G(x, y, z) (((x) & (z)) | ((y) & ~(z)))
#define FH_MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define FH_MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))

/* T[i] = floor(2^32 * |sin(i + 1)|), RFC 1321 §3.4. */
static const uint32_t md5_t[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
	0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
	0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
	0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
	0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* Per-round shift amounts s and message word order k, RFC 1321 §3.4. */
static const uint8_t md5_s[4][4] = {
	{ 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 }, { 6, 10, 15, 21 },
};

static unsigned md5_word(unsigned i)
{
	if (i < 16)
		return i;
	if (i < 32)
		return (5 * i + 1) % 16;
	if (i < 48)
		return (3 * i + 5) % 16;
	return (7 * i) % 16;
}

static void md5_block(uint32_t state[4], const uint8_t *block)
{
	uint32_t x[16];
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];

	for (unsigned i = 0; i < 16; i++)
		x[i] = fh_load32le(block + 4 * i);

	for (unsigned i = 0; i < 64; i++) {
		uint32_t f;

		switch (i / 16) {
		case 0: f = FH_MD5_F(b, c, d); break;
		case 1: f = FH_MD5_G(b, c, d); break;
		case 2: f = FH_MD5_H(b, c, d); break;
		default: f = FH_MD5_I(b, c, d); break;
		}
		/* a = b + ((a + f + X[k] + T[i]) <<< s), then rotate the
		 * roles of a, b, c, d. */
		uint32_t t = b + fh_rol32(a + f + x[md5_word(i)] + md5_t[i],
					  md5_s[i / 16][i % 4]);
		a = d;
		d = c;
		c = b;
		b = t;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
}

static void fh_md5_blocks_portable(uint32_t state[4], const uint8_t *data,
				   size_t nblocks)
{
	for (; nblocks; nblocks--, data += 64)
		md5_block(state, data);
}

const struct fh_kernel fh_md5_portable = {
	.name = "md5-portable",
	.family = FH_FAMILY_MD5,
	.lanes = 1,
	.features = 0,
	.md5_blocks = fh_md5_blocks_portable,
};
