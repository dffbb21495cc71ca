/* sha1_portable.c: SHA-1's compression function in plain C, as FIPS 180-4
 * §6.1.2 writes it: the 80-word message schedule W, then 80 steps of
 * f_t (Ch, Parity, Maj, Parity by twenties, §4.1.1) with the constants K_t
 * of §4.2.1.  Every other SHA-1 kernel is tested against this one. */
#include "bytes.h"
#include "kernel.h"

static void sha1_block(uint32_t h[5], const uint8_t *m)
{
	uint32_t w[80];

	for (int t = 0; t < 16; t++)
		w[t] = fh_load32be(m + 4 * t);
	for (int t = 16; t < 80; t++)
		w[t] = fh_rol32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);

	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

	for (int t = 0; t < 80; t++) {
		uint32_t f, k;

		if (t < 20) {
			f = (b & c) ^ (~b & d);         /* Ch */
			k = 0x5a827999;
		} else if (t < 40) {
			f = b ^ c ^ d;                  /* Parity */
			k = 0x6ed9eba1;
		} else if (t < 60) {
			f = (b & c) ^ (b & d) ^ (c & d); /* Maj */
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		uint32_t tmp = fh_rol32(a, 5) + f + e + k + w[t];

		e = d;
		d = c;
		c = fh_rol32(b, 30);
		b = a;
		a = tmp;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

static void fh_sha1_blocks_portable(uint32_t state[5], const uint8_t *data,
				    size_t nblocks)
{
	for (; nblocks; nblocks--, data += 64)
		sha1_block(state, data);
}

const struct fh_kernel fh_sha1_portable = {
	.name = "sha1-portable",
	.family = FH_FAMILY_SHA1,
	.lanes = 1,
	.features = 0,
	.blocks = FH_KERNEL_FN(fh_sha1_blocks_fn, fh_sha1_blocks_portable),
};
