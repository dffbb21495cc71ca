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

/* One step of RFC 1321 §3.4: a = b + ((a + f(b,c,d) + X[k] + T[i]) <<< s).
 * The 64 steps below are the RFC's own table, [abcd k s i] with i from 1. */
#define FH_MD5_STEP(f, a, b, c, d, k, s, i) \
	(a) = (b) + fh_rol32((a) + f((b), (c), (d)) + x[k] + md5_t[(i) - 1], (s))

static void md5_block(uint32_t state[4], const uint8_t *block)
{
	uint32_t x[16];
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];

	for (unsigned i = 0; i < 16; i++)
		x[i] = fh_load32le(block + 4 * i);

	/* Round 1. */
	FH_MD5_STEP(FH_MD5_F, a, b, c, d, 0, 7, 1);
	FH_MD5_STEP(FH_MD5_F, d, a, b, c, 1, 12, 2);
	FH_MD5_STEP(FH_MD5_F, c, d, a, b, 2, 17, 3);
	FH_MD5_STEP(FH_MD5_F, b, c, d, a, 3, 22, 4);
	FH_MD5_STEP(FH_MD5_F, a, b, c, d, 4, 7, 5);
	FH_MD5_STEP(FH_MD5_F, d, a, b, c, 5, 12, 6);
	FH_MD5_STEP(FH_MD5_F, c, d, a, b, 6, 17, 7);
	FH_MD5_STEP(FH_MD5_F, b, c, d, a, 7, 22, 8);
	FH_MD5_STEP(FH_MD5_F, a, b, c, d, 8, 7, 9);
	FH_MD5_STEP(FH_MD5_F, d, a, b, c, 9, 12, 10);
	FH_MD5_STEP(FH_MD5_F, c, d, a, b, 10, 17, 11);
	FH_MD5_STEP(FH_MD5_F, b, c, d, a, 11, 22, 12);
	FH_MD5_STEP(FH_MD5_F, a, b, c, d, 12, 7, 13);
	FH_MD5_STEP(FH_MD5_F, d, a, b, c, 13, 12, 14);
	FH_MD5_STEP(FH_MD5_F, c, d, a, b, 14, 17, 15);
	FH_MD5_STEP(FH_MD5_F, b, c, d, a, 15, 22, 16);
	/* Round 2. */
	FH_MD5_STEP(FH_MD5_G, a, b, c, d, 1, 5, 17);
	FH_MD5_STEP(FH_MD5_G, d, a, b, c, 6, 9, 18);
	FH_MD5_STEP(FH_MD5_G, c, d, a, b, 11, 14, 19);
	FH_MD5_STEP(FH_MD5_G, b, c, d, a, 0, 20, 20);
	FH_MD5_STEP(FH_MD5_G, a, b, c, d, 5, 5, 21);
	FH_MD5_STEP(FH_MD5_G, d, a, b, c, 10, 9, 22);
	FH_MD5_STEP(FH_MD5_G, c, d, a, b, 15, 14, 23);
	FH_MD5_STEP(FH_MD5_G, b, c, d, a, 4, 20, 24);
	FH_MD5_STEP(FH_MD5_G, a, b, c, d, 9, 5, 25);
	FH_MD5_STEP(FH_MD5_G, d, a, b, c, 14, 9, 26);
	FH_MD5_STEP(FH_MD5_G, c, d, a, b, 3, 14, 27);
	FH_MD5_STEP(FH_MD5_G, b, c, d, a, 8, 20, 28);
	FH_MD5_STEP(FH_MD5_G, a, b, c, d, 13, 5, 29);
	FH_MD5_STEP(FH_MD5_G, d, a, b, c, 2, 9, 30);
	FH_MD5_STEP(FH_MD5_G, c, d, a, b, 7, 14, 31);
	FH_MD5_STEP(FH_MD5_G, b, c, d, a, 12, 20, 32);
	/* Round 3. */
	FH_MD5_STEP(FH_MD5_H, a, b, c, d, 5, 4, 33);
	FH_MD5_STEP(FH_MD5_H, d, a, b, c, 8, 11, 34);
	FH_MD5_STEP(FH_MD5_H, c, d, a, b, 11, 16, 35);
	FH_MD5_STEP(FH_MD5_H, b, c, d, a, 14, 23, 36);
	FH_MD5_STEP(FH_MD5_H, a, b, c, d, 1, 4, 37);
	FH_MD5_STEP(FH_MD5_H, d, a, b, c, 4, 11, 38);
	FH_MD5_STEP(FH_MD5_H, c, d, a, b, 7, 16, 39);
	FH_MD5_STEP(FH_MD5_H, b, c, d, a, 10, 23, 40);
	FH_MD5_STEP(FH_MD5_H, a, b, c, d, 13, 4, 41);
	FH_MD5_STEP(FH_MD5_H, d, a, b, c, 0, 11, 42);
	FH_MD5_STEP(FH_MD5_H, c, d, a, b, 3, 16, 43);
	FH_MD5_STEP(FH_MD5_H, b, c, d, a, 6, 23, 44);
	FH_MD5_STEP(FH_MD5_H, a, b, c, d, 9, 4, 45);
	FH_MD5_STEP(FH_MD5_H, d, a, b, c, 12, 11, 46);
	FH_MD5_STEP(FH_MD5_H, c, d, a, b, 15, 16, 47);
	FH_MD5_STEP(FH_MD5_H, b, c, d, a, 2, 23, 48);
	/* Round 4. */
	FH_MD5_STEP(FH_MD5_I, a, b, c, d, 0, 6, 49);
	FH_MD5_STEP(FH_MD5_I, d, a, b, c, 7, 10, 50);
	FH_MD5_STEP(FH_MD5_I, c, d, a, b, 14, 15, 51);
	FH_MD5_STEP(FH_MD5_I, b, c, d, a, 5, 21, 52);
	FH_MD5_STEP(FH_MD5_I, a, b, c, d, 12, 6, 53);
	FH_MD5_STEP(FH_MD5_I, d, a, b, c, 3, 10, 54);
	FH_MD5_STEP(FH_MD5_I, c, d, a, b, 10, 15, 55);
	FH_MD5_STEP(FH_MD5_I, b, c, d, a, 1, 21, 56);
	FH_MD5_STEP(FH_MD5_I, a, b, c, d, 8, 6, 57);
	FH_MD5_STEP(FH_MD5_I, d, a, b, c, 15, 10, 58);
	FH_MD5_STEP(FH_MD5_I, c, d, a, b, 6, 15, 59);
	FH_MD5_STEP(FH_MD5_I, b, c, d, a, 13, 21, 60);
	FH_MD5_STEP(FH_MD5_I, a, b, c, d, 4, 6, 61);
	FH_MD5_STEP(FH_MD5_I, d, a, b, c, 11, 10, 62);
	FH_MD5_STEP(FH_MD5_I, c, d, a, b, 2, 15, 63);
	FH_MD5_STEP(FH_MD5_I, b, c, d, a, 9, 21, 64);

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
	.blocks = FH_KERNEL_FN(fh_md5_blocks_fn, fh_md5_blocks_portable),
};
