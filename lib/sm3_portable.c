/* sm3_portable.c: SM3's compression function in plain C, as GB/T
 * 32905-2016 §5.3 writes it: the message expanded to 68 words W and 64
 * words W' (§5.3.2), then 64 steps of FF_j and GG_j (§4.3: XOR for the
 * first 16, majority and choice after) with the constants T_j (§4.2)
 * rotated by j (the table tj), and the new value XORed into the old
 * (§5.3.3), not added as SHA-2's is.  The padding and the big-endian
 * words of the digest are SHA-256's (md.c). */
#include "bytes.h"
#include "kernel.h"

static inline uint32_t p0(uint32_t x)
{
	return x ^ fh_rol32(x, 9) ^ fh_rol32(x, 17);
}

static inline uint32_t p1(uint32_t x)
{
	return x ^ fh_rol32(x, 15) ^ fh_rol32(x, 23);
}

/* The constants T_j rotated left by j (mod 32), as step j adds them. */
static const uint32_t tj[64] = {
	0x79cc4519, 0xf3988a32, 0xe7311465, 0xce6228cb,
	0x9cc45197, 0x3988a32f, 0x7311465e, 0xe6228cbc,
	0xcc451979, 0x988a32f3, 0x311465e7, 0x6228cbce,
	0xc451979c, 0x88a32f39, 0x11465e73, 0x228cbce6,
	0x9d8a7a87, 0x3b14f50f, 0x7629ea1e, 0xec53d43c,
	0xd8a7a879, 0xb14f50f3, 0x629ea1e7, 0xc53d43ce,
	0x8a7a879d, 0x14f50f3b, 0x29ea1e76, 0x53d43cec,
	0xa7a879d8, 0x4f50f3b1, 0x9ea1e762, 0x3d43cec5,
	0x7a879d8a, 0xf50f3b14, 0xea1e7629, 0xd43cec53,
	0xa879d8a7, 0x50f3b14f, 0xa1e7629e, 0x43cec53d,
	0x879d8a7a, 0x0f3b14f5, 0x1e7629ea, 0x3cec53d4,
	0x79d8a7a8, 0xf3b14f50, 0xe7629ea1, 0xcec53d43,
	0x9d8a7a87, 0x3b14f50f, 0x7629ea1e, 0xec53d43c,
	0xd8a7a879, 0xb14f50f3, 0x629ea1e7, 0xc53d43ce,
	0x8a7a879d, 0x14f50f3b, 0x29ea1e76, 0x53d43cec,
	0xa7a879d8, 0x4f50f3b1, 0x9ea1e762, 0x3d43cec5,
};

/* FF_j and GG_j: XOR for j < 16, majority and choice after. */
#define FF0(x, y, z) ((x) ^ (y) ^ (z))
#define GG0(x, y, z) ((x) ^ (y) ^ (z))
#define FF1(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define GG1(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

/* W_k from the words before it (§5.3.2). */
#define EXPAND(k)                                                            \
	(w[k] = p1(w[(k) - 16] ^ w[(k) - 9] ^ fh_rol32(w[(k) - 3], 15)) ^      \
		fh_rol32(w[(k) - 13], 7) ^ w[(k) - 6])

/* Step J, which reads W_J and W_{J+4}: the latter expanded here first
 * where J >= 12 (MORE).  Expanding the words inside the steps keeps them
 * out of a loop of their own, which GCC 12 vectorizes into stores that
 * the next loads must wait for: 23 cycles a byte against 13 here (Zen 3).
 * Instead of moving every word along (D = C, C = B <<< 9, ...), the step
 * writes its new A over D and its new E over H and rotates B and F in
 * place; the next step takes the eight names shifted by one. */
#define STEP(a, b, c, d, e, f, g, h, j, FF, GG, more)                       \
	do {                                                                 \
		if (more)                                                    \
			EXPAND((j) + 4);                                     \
		uint32_t a12 = fh_rol32(a, 12);                              \
		uint32_t ss1 = fh_rol32(a12 + e + tj[j], 7);                  \
		uint32_t tt1 = FF(a, b, c) + d + (ss1 ^ a12) + (w[j] ^ w[(j) + 4]); \
		uint32_t tt2 = GG(e, f, g) + h + ss1 + w[j];                  \
		b = fh_rol32(b, 9);                                          \
		f = fh_rol32(f, 19);                                         \
		d = tt1;                                                     \
		h = p0(tt2);                                                 \
	} while (0)

#define FOUR(j, FF, GG, more)                                               \
	do {                                                                 \
		STEP(a, b, c, d, e, f, g, h, (j), FF, GG, more);              \
		STEP(d, a, b, c, h, e, f, g, (j) + 1, FF, GG, more);          \
		STEP(c, d, a, b, g, h, e, f, (j) + 2, FF, GG, more);          \
		STEP(b, c, d, a, f, g, h, e, (j) + 3, FF, GG, more);          \
	} while (0)

static void sm3_block(uint32_t v[8], const uint8_t *m)
{
	uint32_t w[68];

	for (int j = 0; j < 16; j++)
		w[j] = fh_load32be(m + 4 * j);

	uint32_t a = v[0], b = v[1], c = v[2], d = v[3];
	uint32_t e = v[4], f = v[5], g = v[6], h = v[7];

	FOUR(0, FF0, GG0, false);
	FOUR(4, FF0, GG0, false);
	FOUR(8, FF0, GG0, false);
	FOUR(12, FF0, GG0, true);
	for (int j = 16; j < 64; j += 4)
		FOUR(j, FF1, GG1, true);
	v[0] ^= a;
	v[1] ^= b;
	v[2] ^= c;
	v[3] ^= d;
	v[4] ^= e;
	v[5] ^= f;
	v[6] ^= g;
	v[7] ^= h;
}

static void fh_sm3_blocks_portable(uint32_t state[8], const uint8_t *data,
				   size_t nblocks)
{
	for (; nblocks; nblocks--, data += 64)
		sm3_block(state, data);
}

const struct fh_kernel fh_sm3_portable = {
	.name = "sm3-portable",
	.family = FH_FAMILY_SM3,
	.lanes = 1,
	.features = 0,
	.blocks = FH_KERNEL_FN(fh_sm3_blocks_fn, fh_sm3_blocks_portable),
};
