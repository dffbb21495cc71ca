/* test_crc_xxh_avx512_emu.c: crc_avx512.c's and xxh3_avx512.c's logic
 * against the portable kernels on any x86-64 CPU.  The kernel files are
 * built here with FH_AVX512_EMULATE (their vector operations, VPCLMULQDQ
 * and VPTERNLOGQ included, in plain C with the Intel SDM's semantics,
 * avx512_ops.h), so a wrong constant, quarter or byte order fails even
 * where no CPU runs AVX-512; the compiler's AVX-512 code is checked by
 * tests/unit's kernel tests on CPUs that have it.  CRC: every model, every
 * length 0..4096 at a varying misalignment from a random register, whole
 * and split in two at a random point.  XXH3: 0..5 blocks at every
 * misalignment 0..63 from random accumulators.  Exit 0 pass, 1 fail. */
#include <stdio.h>
#include <string.h>

#include "../../lib/crc.h"
#include "kernels_x86.h"

#define FH_EMU_SEED 0x13198a2e03707344u
#include "test_emu.h"

#define MAXN 4096
static uint8_t data[MAXN + 5 * 1024 + 64];

/* A random register of M: a reflected model's in its low WIDTH bits, a
 * normal one's in the top WIDTH bits (crc.h). */
static uint64_t random_reg(const struct fh_crc_model *m)
{
	uint64_t r = next();

	if (m->width == 64)
		return r;
	return m->reflected ? r & ((1ull << m->width) - 1) : r << (64 - m->width);
}

static void crc_model(const struct fh_crc_model *m)
{
	fh_crc_update_fn *want_fn = fh_crc_update_of(&fh_crc_portable);
	fh_crc_update_fn *got_fn = fh_crc_update_of(&fh_crc_avx512);
	char what[64];

	for (size_t n = 0; n <= MAXN; n++) {
		const uint8_t *p = data + n % 61;
		uint64_t reg = random_reg(m), want, got;
		size_t cut = n ? (size_t)(next() % (n + 1)) : 0;

		want = want_fn(m, reg, p, n);
		got = got_fn(m, reg, p, n);
		snprintf(what, sizeof what, "crc-avx512 %s, length", m->name);
		check(what, n, &want, &got, sizeof want);
		got = got_fn(m, got_fn(m, reg, p, cut), p + cut, n - cut);
		snprintf(what, sizeof what, "crc-avx512 %s split, length", m->name);
		check(what, n, &want, &got, sizeof want);
	}
}

int main(void)
{
	static const struct fh_crc_model *const models[] = {
		&fh_crc_cksum, &fh_crc_32, &fh_crc_32c, &fh_crc_64nvme,
	};

	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)next();
	for (size_t i = 0; i < sizeof models / sizeof *models; i++)
		crc_model(models[i]);
	for (size_t nb = 0; nb <= 5; nb++)
		for (size_t off = 0; off < 64; off++) {
			uint64_t want[8], got[8];

			for (int i = 0; i < 8; i++)
				want[i] = got[i] = next();
			fh_xxh3_blocks_of(&fh_xxh_portable)(want, data + off, nb);
			fh_xxh3_blocks_of(&fh_xxh_avx512)(got, data + off, nb);
			check("xxh-avx512 blocks", nb, want, got, sizeof want);
		}
	printf("crc-avx512, xxh-avx512 emulated: %lu checks, %lu failed\n",
	       checks, failed);
	return failed != 0;
}
