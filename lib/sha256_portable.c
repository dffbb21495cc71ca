/* sha256_portable.c: SHA-256's compression function in plain C, as FIPS
 * 180-4 §6.2.2 writes it (SHA-224 uses it too, §6.3): the 64-word message
 * schedule with σ0 and σ1, then 64 steps with Σ0, Σ1, Ch and Maj (§4.1.2)
 * and the constants K of §4.2.2.  Every other SHA-256 kernel is tested
 * against this one. */
#include "bytes.h"
#include "kernel.h"
#include "sha256_k.h"

#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x) (fh_ror32(x, 2) ^ fh_ror32(x, 13) ^ fh_ror32(x, 22))
#define BSIG1(x) (fh_ror32(x, 6) ^ fh_ror32(x, 11) ^ fh_ror32(x, 25))
#define SSIG0(x) (fh_ror32(x, 7) ^ fh_ror32(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (fh_ror32(x, 17) ^ fh_ror32(x, 19) ^ ((x) >> 10))

static void sha256_block(uint32_t h[8], const uint8_t *m)
{
	uint32_t w[64];

	for (int t = 0; t < 16; t++)
		w[t] = fh_load32be(m + 4 * t);
	for (int t = 16; t < 64; t++)
		w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) + w[t - 16];

	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
	uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];

	for (int t = 0; t < 64; t++) {
		uint32_t t1 = hh + BSIG1(e) + CH(e, f, g) + fh_sha256_k[t] + w[t];
		uint32_t t2 = BSIG0(a) + MAJ(a, b, c);

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

static void fh_sha256_blocks_portable(uint32_t state[8], const uint8_t *data,
				      size_t nblocks)
{
	for (; nblocks; nblocks--, data += 64)
		sha256_block(state, data);
}

const struct fh_kernel fh_sha256_portable = {
	.name = "sha256-portable",
	.family = FH_FAMILY_SHA256,
	.lanes = 1,
	.features = 0,
	.blocks = FH_KERNEL_FN(fh_sha256_blocks_fn, fh_sha256_blocks_portable),
};
