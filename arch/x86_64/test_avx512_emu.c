/* test_avx512_emu.c: the AVX-512 kernels' logic against the portable
 * kernels on any x86-64 CPU.  md5_avx512.c, keccak_avx512.c and the
 * multi-buffer md5_avx512x16.c, md5_avx512x32.c and keccak_avx512x8.c are
 * built a second time with FH_AVX512_EMULATE, which turns their AVX-512
 * operations (VPTERNLOG, VPROL, and for the multi-buffer kernels the adds,
 * unpacks, loads and stores of their transposes) into plain C with the
 * SDM's semantics (avx512_ops.h), so a wrong truth table, rotation, word or
 * lane order or round constant fails here even where no CPU runs AVX-512.
 * The multi-buffer kernels are checked lane by lane: different data, states
 * and misalignment in every lane, and the states past the kernel's lanes
 * untouched.  What it cannot check, the compiler's AVX-512 code, tests/unit's
 * kernel tests check on CPUs with AVX-512.  Exit 0 pass, 1 fail. */
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

/* Per-lane inputs for the multi-buffer kernels: lane i reads its own
 * random bytes at an offset of its own, so a mixed-up lane or word order
 * cannot go unnoticed. */
#define LANE_BYTES (17 * 168 + 32)
static uint8_t lane_data[FH_MAX_LANES][LANE_BYTES];

static void multi_md5(const struct fh_kernel *k)
{
	static const size_t counts[] = { 0, 1, 2, 3, 5, 17 };

	for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
		uint32_t want[FH_MAX_LANES + 1][4], got[FH_MAX_LANES + 1][4];
		const uint8_t *p[FH_MAX_LANES];

		for (unsigned i = 0; i <= FH_MAX_LANES; i++)
			for (int w = 0; w < 4; w++)
				want[i][w] = got[i][w] = (uint32_t)next();
		for (unsigned i = 0; i < k->lanes; i++) {
			p[i] = lane_data[i] + (i * 7 + c) % 16;
			fh_md5_portable.md5_blocks(want[i], p[i], counts[c]);
		}
		k->md5_blocks_xn(got, p, counts[c]);
		for (unsigned i = 0; i <= k->lanes; i++)
			check(i < k->lanes ? "md5 multi-buffer lane, blocks"
					   : "md5 past the lanes, blocks",
			      counts[c], want[i], got[i], sizeof want[i]);
	}
}

/* Both round counts every kernel takes, alternating with the case. */
static unsigned rounds_of(size_t c)
{
	return c % 2 ? FH_KECCAK_P12_ROUNDS : FH_KECCAK_F_ROUNDS;
}

static void multi_keccak(const struct fh_kernel *k, const size_t *rates,
			 size_t nrates)
{
	static const size_t counts[] = { 0, 1, 2, 3, 17 };

	for (size_t ri = 0; ri < nrates; ri++) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			uint64_t want[FH_MAX_LANES + 1][25];
			uint64_t got[FH_MAX_LANES + 1][25];
			const uint8_t *p[FH_MAX_LANES];

			for (unsigned i = 0; i <= FH_MAX_LANES; i++)
				for (int w = 0; w < 25; w++)
					want[i][w] = got[i][w] = next();
			for (unsigned i = 0; i < k->lanes; i++) {
				p[i] = lane_data[i] + (i * 5 + c) % 16;
				fh_keccak_portable.keccak_absorb(
					want[i], p[i], counts[c], rates[ri],
					rounds_of(c));
			}
			k->keccak_absorb_xn(got, p, counts[c], rates[ri],
					    rounds_of(c));
			for (unsigned i = 0; i <= k->lanes; i++)
				check(i < k->lanes
					      ? "keccak x8 lane, rate"
					      : "keccak x8 past the lanes, rate",
				      rates[ri], want[i], got[i],
				      sizeof want[i]);
		}
	}
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
		fh_keccak_portable.keccak_permute(want, rounds_of((size_t)r));
		fh_keccak_avx512.keccak_permute(got, rounds_of((size_t)r));
		check("keccak_permute, state", (size_t)r, want, got,
		      sizeof want);
	}
	for (size_t ri = 0; ri < sizeof rates / sizeof *rates; ri++) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			uint64_t want[25], got[25];

			for (int i = 0; i < 25; i++)
				want[i] = got[i] = next();
			fh_keccak_portable.keccak_absorb(want, data + 3,
							 counts[c], rates[ri],
							 rounds_of(c + ri));
			fh_keccak_avx512.keccak_absorb(got, data + 3, counts[c],
						       rates[ri],
						       rounds_of(c + ri));
			check("keccak_absorb, rate", rates[ri], want, got,
			      sizeof want);
		}
	}

	for (unsigned i = 0; i < FH_MAX_LANES; i++)
		for (size_t j = 0; j < LANE_BYTES; j++)
			lane_data[i][j] = (uint8_t)next();
	multi_md5(&fh_md5_avx512x16);
	multi_md5(&fh_md5_avx512x32);
	multi_keccak(&fh_keccak_avx512x8, rates, sizeof rates / sizeof *rates);

	printf("avx512 kernels, emulated: %lu checks, %lu failed\n", checks,
	       failed);
	return failed != 0;
}
