/* crc_avx512.c: every CRC model of the family by carry-less multiply
 * folding on ZMM registers, x86-64 VPCLMULQDQ with AVX-512F and
 * AVX-512BW (-mavx512f -mavx512bw -mvpclmulqdq -mpclmul), one stream.
 * crc_pclmul.c's method (see there) with four 16-byte blocks a register:
 * four registers hold 256 bytes, each quarter folded 2048 bits on per
 * step, the two products and the next data added by one VPTERNLOGQ.  At
 * the end the registers fold into one (1536, 1024 and 512 bits on), that
 * one takes the input's remaining 64-byte blocks, and its quarters fold
 * into one 128-bit value (384, 256 and 128 bits on), which the portable
 * tables finish with the last bytes.  Inputs under 64 bytes go to the
 * portable tables.  The constants are crc_fold.h's.
 *
 * With FH_AVX512_EMULATE every vector operation is plain C with the
 * SDM's semantics (avx512_ops.h, VPCLMULQDQ included), so that
 * test_crc_xxh_avx512_emu.c checks this kernel's logic on CPUs without
 * AVX-512; only a run on AVX-512 hardware checks the compiler's code
 * (tests/unit's `kernel crc-avx512`).  On Intel family 6 model 207
 * (`fhsum --benchmark`, 16 KiB buffers): CRC-32C 33.3 GB/s against
 * crc-vpclmul's 24.5 and crc-sse42's 15.7. */
#include <stdint.h>
#include <string.h>

#include "../../lib/bytes.h"
#include "avx512_ops.h"
#include "../crc_fold.h"
#include "kernels_x86.h"


/* The same distance's constants in all four quarters. */
static fh_zmm consts4(const struct fh_fold *k)
{
	return FH_Z_LOAD4X128(k, k, k, k);
}

/* X moved on by K's distance, plus D. */
static fh_zmm fold_add(fh_zmm x, fh_zmm k, fh_zmm d)
{
	return FH_Z_TERNLOG64(FH_Z_CLMUL(x, k, 0x00), FH_Z_CLMUL(x, k, 0x11), d,
			      FH_TL_XOR3);
}

static uint64_t crc_avx512(const struct fh_crc_model *m, uint64_t reg,
			   const uint8_t *p, size_t n)
{
	const struct fh_fold_consts *c = NULL;
	bool rev = !m->reflected;
	uint64_t first[8] = { 0 }, lanes[8], folded[8];
	uint8_t last[16];
	fh_zmm a0, k;

	if (n >= 64) {
		c = fh_fold_consts(m);
	}
	if (!c)
		return fh_crc_portable_update(m, reg, p, n);
#define LOAD(at) (rev ? FH_Z_BSWAP128(FH_Z_LOADU(at)) : FH_Z_LOADU(at))
	/* The register joins the message's first bits: the low element of
	 * the first quarter when reflected, else the high one. */
	first[rev] = reg;
	a0 = FH_Z_XOR(LOAD(p), FH_Z_LOADU(first));
	if (n >= 256) {
		fh_zmm a1 = LOAD(p + 64), a2 = LOAD(p + 128), a3 = LOAD(p + 192);

		k = consts4(&c->d[16]);
		for (p += 256, n -= 256; n >= 256; p += 256, n -= 256) {
			for (int q = 0; q < 256; q += 64)
				fh_prefetch_far(p + q);
			a0 = fold_add(a0, k, LOAD(p));
			a1 = fold_add(a1, k, LOAD(p + 64));
			a2 = fold_add(a2, k, LOAD(p + 128));
			a3 = fold_add(a3, k, LOAD(p + 192));
		}
		a2 = fold_add(a2, consts4(&c->d[4]), a3);
		a1 = fold_add(a1, consts4(&c->d[8]), a2);
		a0 = fold_add(a0, consts4(&c->d[12]), a1);
	} else {
		p += 64;
		n -= 64;
	}
	k = consts4(&c->d[4]);
	for (; n >= 64; p += 64, n -= 64)
		a0 = fold_add(a0, k, LOAD(p));
#undef LOAD
	/* Quarter j of the four moves 3 - j blocks on; the last stays. */
	k = FH_Z_LOAD4X128(&c->d[3], &c->d[2], &c->d[1], &c->d[1]);
	k = FH_Z_XOR(FH_Z_CLMUL(a0, k, 0x00), FH_Z_CLMUL(a0, k, 0x11));
	FH_Z_STOREU(lanes, a0);
	FH_Z_STOREU(folded, k);
	for (int i = 0; i < 2; i++) {
		uint64_t v = folded[i] ^ folded[2 + i] ^ folded[4 + i] ^ lanes[6 + i];

		/* Reversed models hold the 16 bytes reversed: byte j of
		 * the block is byte 15 - j of the value. */
		for (int b = 0; b < 8; b++)
			last[rev ? 15 - 8 * i - b : 8 * i + b] = (uint8_t)(v >> 8 * b);
	}
	reg = fh_crc_portable_update(m, 0, last, 16);
	return fh_crc_portable_update(m, reg, p, n);
}

const struct fh_kernel fh_crc_avx512 = {
	.name = "crc-avx512",
	.family = FH_FAMILY_CRC,
	.lanes = 1,
	.features = FH_CPU_X86_AVX512F | FH_CPU_X86_AVX512BW | FH_CPU_X86_VPCLMUL |
		    FH_CPU_X86_PCLMUL,
	.blocks = FH_KERNEL_FN(fh_crc_update_fn, crc_avx512),
};
