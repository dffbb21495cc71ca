/* test_avx512_emu.c: the AVX-512 kernels' logic against the portable
 * kernels on any x86-64 CPU.  md5_avx512.c and keccak_avx512.c are built a
 * second time with FH_AVX512_EMULATE, which turns their two AVX-512
 * operations (VPTERNLOG, VPROL) into plain C with the SDM's semantics
 * (avx512_ops.h), so a wrong truth table, rotation, word order or round
 * constant fails here even where no CPU runs AVX-512.  What it cannot
 * check, the compiler's AVX-512 code, tests/unit's kernel tests check on
 * CPUs with AVX-512VL.  Exit 0 pass, 1 fail. */
#include <stdio.h>
#include <string.h>

#include "kernels_x86.h"

static unsigned long checks, failed;

static uint64_t rng = 0x243f6a8885a308d3u;

/* splitmix64 */
static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void check(const char *what, size_t n, const void *want,
		  const void *got, size_t len)
{
	checks++;
	if (memcmp(want, got, len) == 0)
		return;
	if (failed++ < 10)
		printf("FAIL %s (%zu)\n", what, n);
}

int main(void)
{
	static uint8_t data[16 * 168 + 16];
	static const size_t rates[] = { 72, 104, 136, 144, 168 };
	static const size_t counts[] = { 0, 1, 2, 3, 5, 16 };

	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)next();

	for (size_t off = 0; off < 16; off += 5) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			uint32_t want[4], got[4];

			for (int i = 0; i < 4; i++)
				want[i] = got[i] = (uint32_t)next();
			fh_md5_portable.md5_blocks(want, data + off, counts[c]);
			fh_md5_avx512.md5_blocks(got, data + off, counts[c]);
			check("md5_blocks, blocks", counts[c], want, got,
			      sizeof want);
		}
	}

	for (int r = 0; r < 20; r++) {
		uint64_t want[25], got[25];

		for (int i = 0; i < 25; i++)
			want[i] = got[i] = r ? next() : 0;
		fh_keccak_portable.keccak_permute(want);
		fh_keccak_avx512.keccak_permute(got);
		check("keccak_permute, state", (size_t)r, want, got,
		      sizeof want);
	}
	for (size_t ri = 0; ri < sizeof rates / sizeof *rates; ri++) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			uint64_t want[25], got[25];

			for (int i = 0; i < 25; i++)
				want[i] = got[i] = next();
			fh_keccak_portable.keccak_absorb(want, data + 3,
							 counts[c], rates[ri]);
			fh_keccak_avx512.keccak_absorb(got, data + 3, counts[c],
						       rates[ri]);
			check("keccak_absorb, rate", rates[ri], want, got,
			      sizeof want);
		}
	}
	printf("avx512 kernels, emulated: %lu checks, %lu failed\n", checks,
	       failed);
	return failed != 0;
}
