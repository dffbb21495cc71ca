/* test_blake3_avx512_emu.c: blake3_avx512.c's logic against the portable
 * BLAKE3 kernel on any x86-64 CPU.  The kernel file is built here with
 * FH_AVX512_EMULATE (its vector operations, transpose included, in plain
 * C with the Intel SDM's semantics), so a wrong lane, word or quarter
 * order, rotation or flag fails even where no CPU runs AVX-512; the
 * compiler's AVX-512 code is checked by tests/unit's kernel tests on CPUs
 * that have it.  Whole chunks and parents for 0..40 (across the sixteen
 * lanes and the padded rest), counters across 2^32, the lanes of
 * sixteen inputs from different blocks of their chunks, and their roots.
 * Exit 0 pass, 1 fail. */
#include <stdio.h>
#include <string.h>

#include "kernels_x86.h"

#define FH_EMU_SEED 0x452821e638d01377u
#include "test_emu.h"

static void fill(void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((uint8_t *)p)[i] = (uint8_t)next();
}

#define MAXN 40
static uint8_t data[MAXN * 1024 + 16];

int main(void)
{
	const struct fh_kernel *p = &fh_blake3_portable;

	fill(data, sizeof data);
	for (size_t n = 0; n <= MAXN; n++) {
		uint32_t key[8], want[MAXN * 2][8], got[MAXN * 2][8];
		uint64_t counter = n % 2 ? 0xfffffff0u + n : next() % 1000;
		uint32_t flags = (uint32_t)(next() % 2) << 4;
		const uint8_t *d = data + n % 16;

		fill(key, sizeof key);
		fh_blake3_chunks_of(p)(key, d, n, counter, flags, want);
		fh_blake3_chunks_avx512(key, d, n, counter, flags, got);
		check("chunks", n, want, got, n * sizeof *want);

		uint32_t children[MAXN * 2][8];

		fill(children, sizeof children);
		for (size_t i = 0; i < n; i++) {
			uint32_t out[16];

			fh_blake3_compress_of(p)(key, (const uint8_t *)children[2 * i],
						 64, 0, flags | 4, out);
			memcpy(want[i], out, 32);
		}
		fh_blake3_parents_avx512(key, (const uint32_t(*)[8])children, n,
					 flags, got);
		check("parents", n, want, got, n * sizeof *want);
	}
	for (size_t nb = 0; nb <= 5; nb++) {
		struct fh_blake3_lane want[17], got[17];
		const uint8_t *ptr[16];

		fill(want, sizeof want);
		for (int i = 0; i < 17; i++)
			want[i].blocks = (uint32_t)(next() % 3 ? next() % 10 : 0);
		memcpy(got, want, sizeof got);
		for (int i = 0; i < 16; i++) {
			ptr[i] = data + (size_t)i * 1000 + (size_t)i % 7;
			for (size_t b = 0; b < nb; b++) {
				uint32_t out[16];
				uint32_t f = want[i].blocks == 0 ? 1 : 0;

				fh_blake3_compress_of(p)(want[i].cv, ptr[i] + 64 * b,
							 64, 0, f, out);
				memcpy(want[i].cv, out, 32);
				want[i].blocks++;
			}
		}
		fh_blake3_lanes_avx512x16(got, ptr, nb);
		for (int i = 0; i < 17; i++)
			check(i < 16 ? "lanes" : "past the lanes", nb, &want[i],
			      &got[i], sizeof want[i]);
	}
	for (int round = 0; round < 4; round++) {
		struct fh_blake3_lane want[17], got[17];
		uint8_t blocks[16][64];
		const uint8_t *ptr[16];
		uint32_t lens[16];

		fill(want, sizeof want);
		for (int i = 0; i < 17; i++)
			want[i].blocks = (uint32_t)(next() % 3 ? next() % 16 : 0);
		memcpy(got, want, sizeof got);
		for (int i = 0; i < 16; i++) {
			uint32_t out[16];

			lens[i] = (uint32_t)(next() % 65);
			memset(blocks[i], 0, 64);
			memcpy(blocks[i], data + (size_t)i * 1000 + (size_t)round,
			       lens[i]);
			ptr[i] = blocks[i];
			fh_blake3_compress_of(p)(want[i].cv, blocks[i], lens[i], 0,
						 2 | 8 | (want[i].blocks ? 0 : 1),
						 out);
			memcpy(want[i].cv, out, 32);
			want[i].blocks++;
		}
		fh_blake3_roots_avx512x16(got, ptr, lens);
		for (int i = 0; i < 17; i++)
			check(i < 16 ? "roots" : "past the roots", (size_t)round,
			      &want[i], &got[i], sizeof want[i]);
	}
	printf("%lu checks, %lu failed\n", checks, failed);
	return failed != 0;
}
