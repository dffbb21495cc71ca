/* keccak_portable.c: the portable Keccak-f[1600] permutation and absorb
 * loop, written to follow FIPS 202 §3.2 (the step mappings theta, rho, pi,
 * chi, iota).  It is the reference every other Keccak kernel is tested
 * against.  Lane A[x,y] is state[x + 5*y]. */
#include "bytes.h"
#include "keccak_rc.h"
#include "kernel.h"

/* Rotation offsets of rho for lane [x + 5*y], FIPS 202 §3.2.2 Table 2. */
static const uint8_t keccak_rho[25] = {
	0, 1, 62, 28, 27,
	36, 44, 6, 55, 20,
	3, 10, 43, 25, 39,
	41, 45, 15, 21, 8,
	18, 2, 61, 56, 14,
};

static void keccak_round(uint64_t a[25], uint64_t rc)
{
	uint64_t c[5], b[25];

	/* theta: C[x] = parity of column x; A[x,y] ^= C[x-1] ^ rot(C[x+1], 1) */
	for (unsigned x = 0; x < 5; x++)
		c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
	for (unsigned x = 0; x < 5; x++) {
		uint64_t d = c[(x + 4) % 5] ^ fh_rol64(c[(x + 1) % 5], 1);
		for (unsigned y = 0; y < 25; y += 5)
			a[x + y] ^= d;
	}
	/* rho and pi: B[y, 2x+3y] = rot(A[x,y], r[x,y]) */
	for (unsigned x = 0; x < 5; x++)
		for (unsigned y = 0; y < 5; y++)
			b[y + 5 * ((2 * x + 3 * y) % 5)] =
				fh_rol64(a[x + 5 * y], keccak_rho[x + 5 * y]);
	/* chi: A[x,y] = B[x,y] ^ (~B[x+1,y] & B[x+2,y]) */
	for (unsigned y = 0; y < 25; y += 5)
		for (unsigned x = 0; x < 5; x++)
			a[x + y] = b[x + y] ^
				   (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
	/* iota */
	a[0] ^= rc;
}

/* Keccak-p[1600, ROUNDS] (FIPS 202 §3.3): rounds 24 - ROUNDS .. 23, so 24
 * is Keccak-f[1600] and 12 is RFC 9861's Keccak-p[1600,12]. */
static void fh_keccak_permute_portable(uint64_t state[25], unsigned rounds)
{
	for (unsigned ir = 24 - rounds; ir < 24; ir++)
		keccak_round(state, fh_keccak_rc[ir]);
}

static void fh_keccak_absorb_portable(uint64_t state[25], const uint8_t *data,
				      size_t nblocks, size_t rate,
				      unsigned rounds)
{
	for (; nblocks; nblocks--) {
		for (size_t i = 0; i < rate / 8; i++, data += 8)
			state[i] ^= fh_load64le(data);
		fh_keccak_permute_portable(state, rounds);
	}
}

const struct fh_kernel fh_keccak_portable = {
	.name = "keccak-portable",
	.family = FH_FAMILY_KECCAK,
	.lanes = 1,
	.features = 0,
	.blocks = FH_KERNEL_FN(fh_keccak_absorb_fn, fh_keccak_absorb_portable),
	.permute = FH_KERNEL_FN(fh_keccak_permute_fn, fh_keccak_permute_portable),
};
