/* sha512_portable.c: SHA-512's compression function in plain C, as FIPS
 * 180-4 §6.4.2 writes it (SHA-384 uses it too, §6.5): the 80-word message
 * schedule with σ0 and σ1, then 80 steps with Σ0, Σ1, Ch and Maj
 * (§4.1.3) and the constants K of §4.2.3.  Every other SHA-512 kernel is
 * tested against this one. */
#include "bytes.h"
#include "kernel.h"
#include "sha512_k.h"

#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x) (fh_ror64(x, 28) ^ fh_ror64(x, 34) ^ fh_ror64(x, 39))
#define BSIG1(x) (fh_ror64(x, 14) ^ fh_ror64(x, 18) ^ fh_ror64(x, 41))
#define SSIG0(x) (fh_ror64(x, 1) ^ fh_ror64(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (fh_ror64(x, 19) ^ fh_ror64(x, 61) ^ ((x) >> 6))

static void sha512_block(uint64_t h[8], const uint8_t *m)
{
	uint64_t w[80];

	for (int t = 0; t < 16; t++)
		w[t] = fh_load64be(m + 8 * t);
	for (int t = 16; t < 80; t++)
		w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) + w[t - 16];

	uint64_t a = h[0], b = h[1], c = h[2], d = h[3];
	uint64_t e = h[4], f = h[5], g = h[6], hh = h[7];

	for (int t = 0; t < 80; t++) {
		uint64_t t1 = hh + BSIG1(e) + CH(e, f, g) + fh_sha512_k[t] + w[t];
		uint64_t t2 = BSIG0(a) + MAJ(a, b, c);

		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

static void fh_sha512_blocks_portable(uint64_t state[8], const uint8_t *data,
				      size_t nblocks)
{
	for (; nblocks; nblocks--, data += 128)
		sha512_block(state, data);
}

const struct fh_kernel fh_sha512_portable = {
	.name = "sha512-portable",
	.family = FH_FAMILY_SHA512,
	.lanes = 1,
	.features = 0,
	.blocks = FH_KERNEL_FN(fh_sha512_blocks_fn, fh_sha512_blocks_portable),
};
