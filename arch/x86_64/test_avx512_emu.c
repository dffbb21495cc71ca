/* test_avx512_emu.c: the AVX-512 kernels' logic against the portable
 * kernels on any x86-64 CPU.  md5_avx512.c, keccak_avx512.c and the
 * multi-buffer md5_avx512x16.c, md5_avx512x32.c, keccak_avx512x8.c and
 * sha_avx512xn.c (SHA-1, SHA-256 and SHA-512 in 16, 16 and 8 lanes),
 * blake2b_avx512.c and blake2b_avx512x8.c (BLAKE2b, one stream and 8
 * lanes, their last blocks too) are
 * built a second time with FH_AVX512_EMULATE, which turns their AVX-512
 * operations (VPTERNLOG, VPROL, and for the multi-buffer kernels the adds,
 * unpacks, loads and stores of their transposes) into plain C with the
 * SDM's semantics (avx512_ops.h), so a wrong truth table, rotation, word or
 * lane order or round constant fails here even where no CPU runs AVX-512.
 * The multi-buffer kernels are checked lane by lane: different data, states
 * and misalignment in every lane, and the states past the kernel's lanes
 * untouched.  What it cannot check, the compiler's AVX-512 code, tests/unit's
 * kernel tests check on CPUs with AVX-512.  Exit 0 pass, 1 fail. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels_x86.h"

#define FH_EMU_SEED 0x243f6a8885a308d3u
#include "test_emu.h"

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
			fh_md5_blocks_of(&fh_md5_portable)(want[i], p[i], counts[c]);
		}
		fh_md5_blocks_xn_of(k)(got, p, counts[c]);
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
				fh_keccak_absorb_of(&fh_keccak_portable)(
					want[i], p[i], counts[c], rates[ri],
					rounds_of(c));
			}
			fh_keccak_absorb_xn_of(k)(got, p, counts[c], rates[ri],
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

/* A SHA multi-buffer kernel (K, of FAMILY with BLOCK-byte blocks): lanes
 * of uneven block counts, as the engine runs them, the kernel taking all
 * lanes as far as the shortest goes and the portable kernel (P) each
 * lane's remainder; every lane must end as P on its whole input, and the
 * state past the lanes must be left alone. */
static void multi_sha(const struct fh_kernel *k, const struct fh_kernel *p)
{
	static uint32_t w1[FH_MAX_LANES + 1][5], g1[FH_MAX_LANES + 1][5];
	static uint32_t w256[FH_MAX_LANES + 1][8], g256[FH_MAX_LANES + 1][8];
	static uint64_t w512[FH_MAX_LANES + 1][8], g512[FH_MAX_LANES + 1][8];
	const size_t block = k->family == FH_FAMILY_SHA512 ? 128 : 64;
	const size_t sbytes = k->family == FH_FAMILY_SHA1	? sizeof w1[0]
			      : k->family == FH_FAMILY_SHA256 ? sizeof w256[0]
							      : sizeof w512[0];

	for (int trial = 0; trial < 12; trial++) {
		const uint8_t *d[FH_MAX_LANES];
		size_t nb[FH_MAX_LANES], n = SIZE_MAX;

		for (unsigned i = 0; i <= FH_MAX_LANES; i++)
			for (int w = 0; w < 8; w++) {
				w512[i][w] = g512[i][w] = next();
				w256[i][w] = g256[i][w] = (uint32_t)next();
				if (w < 5)
					w1[i][w] = g1[i][w] = (uint32_t)next();
			}
		for (unsigned i = 0; i < k->lanes; i++) {
			/* Trial 0: every lane 17 blocks; later up to 17. */
			nb[i] = trial ? next() % 18 : 17;
			d[i] = lane_data[i] + (i * 7 + (size_t)trial) % 16;
			if (nb[i] < n)
				n = nb[i];
		}
		if (k->family == FH_FAMILY_SHA1)
			fh_sha1_blocks_xn_of(k)(g1, d, n);
		else if (k->family == FH_FAMILY_SHA256)
			fh_sha256_blocks_xn_of(k)(g256, d, n);
		else
			fh_sha512_blocks_xn_of(k)(g512, d, n);
		for (unsigned i = 0; i <= k->lanes; i++) {
			void *want, *got;

			if (k->family == FH_FAMILY_SHA1) {
				want = w1[i], got = g1[i];
				if (i < k->lanes) {
					fh_sha1_blocks_of(p)(w1[i], d[i], nb[i]);
					fh_sha1_blocks_of(p)(g1[i], d[i] + n * block,
						       nb[i] - n);
				}
			} else if (k->family == FH_FAMILY_SHA256) {
				want = w256[i], got = g256[i];
				if (i < k->lanes) {
					fh_sha256_blocks_of(p)(w256[i], d[i], nb[i]);
					fh_sha256_blocks_of(p)(g256[i],
							 d[i] + n * block,
							 nb[i] - n);
				}
			} else {
				want = w512[i], got = g512[i];
				if (i < k->lanes) {
					fh_sha512_blocks_of(p)(w512[i], d[i], nb[i]);
					fh_sha512_blocks_of(p)(g512[i],
							 d[i] + n * block,
							 nb[i] - n);
				}
			}
			char what[64];
			snprintf(what, sizeof what, "%s %s, trial", k->name,
				 i < k->lanes ? "lane" : "past the lanes");
			check(what, (size_t)trial, want, got, sbytes);
		}
	}
}

/* BLAKE2b in 8 lanes: each lane from its own random state and counter
 * over its own data and block count; the kernel runs all lanes as far as
 * the shortest goes and the portable kernel each lane's remainder, as the
 * engine does, and every lane must end as the portable kernel on its whole
 * input, the counter included; the state past the lanes left alone. */
static void multi_blake2b(const struct fh_kernel *k)
{
	fh_blake2b_blocks_fn *p = fh_blake2b_blocks_of(&fh_blake2b_portable);

	for (int trial = 0; trial < 40; trial++) {
		uint64_t want[FH_MAX_LANES + 1][FH_BLAKE2B_LANE_WORDS];
		uint64_t got[FH_MAX_LANES + 1][FH_BLAKE2B_LANE_WORDS];
		const uint8_t *d[FH_MAX_LANES];
		size_t nb[FH_MAX_LANES], n = SIZE_MAX;

		for (unsigned i = 0; i <= FH_MAX_LANES; i++)
			for (int w = 0; w < FH_BLAKE2B_LANE_WORDS; w++)
				want[i][w] = got[i][w] = next();
		for (unsigned i = 0; i < k->lanes; i++) {
			d[i] = lane_data[i] + (i * 5 + (unsigned)trial) % 16;
			nb[i] = trial % 5 == 0 ? (size_t)trial % 3 : next() % 18;
			if (nb[i] < n)
				n = nb[i];
			/* Counters about to wrap, now and then. */
			if (trial % 4 == 3)
				want[i][8] = got[i][8] = ~(uint64_t)0 - next() % 700;
			p(want[i], d[i], nb[i], want[i][8], false);
			want[i][8] += nb[i] * 128;
		}
		fh_blake2b_blocks_xn_of(k)(got, d, n);
		for (unsigned i = 0; i <= k->lanes; i++) {
			if (i < k->lanes) {
				p(got[i], d[i] + n * 128, nb[i] - n, got[i][8], false);
				got[i][8] += (nb[i] - n) * 128;
			}
			check(i < k->lanes ? "blake2b x8 lane, trial"
					   : "blake2b x8 past the lanes, trial",
			      (size_t)trial, want[i], got[i], sizeof want[i]);
		}
	}
	/* The last blocks (the kernel's `tree`): 0 to 128 bytes a lane,
	 * zero-padded, added to t, compressed with f0 set. */
	for (int trial = 0; trial < 8; trial++) {
		uint64_t want[FH_MAX_LANES + 1][FH_BLAKE2B_LANE_WORDS];
		uint64_t got[FH_MAX_LANES + 1][FH_BLAKE2B_LANE_WORDS];
		uint8_t blocks[FH_MAX_LANES][128];
		const uint8_t *d[FH_MAX_LANES];
		uint64_t lens[FH_MAX_LANES];

		for (unsigned i = 0; i <= FH_MAX_LANES; i++)
			for (int w = 0; w < FH_BLAKE2B_LANE_WORDS; w++)
				want[i][w] = got[i][w] = w < 8 ? next()
							: 128 * (next() % 50);
		for (unsigned i = 0; i < k->lanes; i++) {
			lens[i] = next() % 129;
			memset(blocks[i], 0, 128);
			memcpy(blocks[i], lane_data[i] + (unsigned)trial, lens[i]);
			d[i] = blocks[i];
			p(want[i], blocks[i], 1, want[i][8] + lens[i] - 128, true);
			want[i][8] += lens[i];
		}
		fh_blake2b_last_xn_of(k)(got, d, lens);
		for (unsigned i = 0; i <= k->lanes; i++)
			check(i < k->lanes ? "blake2b x8 last block, trial"
					   : "blake2b x8 past the last blocks, trial",
			      (size_t)trial, want[i], got[i], sizeof want[i]);
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
			fh_md5_blocks_of(&fh_md5_portable)(want, data + off, counts[c]);
			fh_md5_blocks_of(&fh_md5_avx512)(got, data + off, counts[c]);
			check("md5_blocks, blocks", counts[c], want, got,
			      sizeof want);
		}
	}

	for (int r = 0; r < 20; r++) {
		uint64_t want[25], got[25];

		for (int i = 0; i < 25; i++)
			want[i] = got[i] = r ? next() : 0;
		fh_keccak_permute_of(&fh_keccak_portable)(want, rounds_of((size_t)r));
		fh_keccak_permute_of(&fh_keccak_avx512)(got, rounds_of((size_t)r));
		check("keccak_permute, state", (size_t)r, want, got,
		      sizeof want);
	}
	for (size_t ri = 0; ri < sizeof rates / sizeof *rates; ri++) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			uint64_t want[25], got[25];

			for (int i = 0; i < 25; i++)
				want[i] = got[i] = next();
			fh_keccak_absorb_of(&fh_keccak_portable)(want, data + 3,
							 counts[c], rates[ri],
							 rounds_of(c + ri));
			fh_keccak_absorb_of(&fh_keccak_avx512)(got, data + 3, counts[c],
						       rates[ri],
						       rounds_of(c + ri));
			check("keccak_absorb, rate", rates[ri], want, got,
			      sizeof want);
		}
	}

	for (size_t off = 0; off < 16; off += 5) {
		for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
			uint64_t want[8], got[8], t = next();
			bool last = (c + off) % 2;

			if (c == 3)
				t = ~(uint64_t)0 - 200; /* wraps */
			for (int i = 0; i < 8; i++)
				want[i] = got[i] = next();
			fh_blake2b_blocks_of(&fh_blake2b_portable)(want, data + off,
								   counts[c], t, last);
			fh_blake2b_blocks_of(&fh_blake2b_avx512)(got, data + off,
								 counts[c], t, last);
			check("blake2b_blocks, blocks", counts[c], want, got,
			      sizeof want);
		}
	}

	for (unsigned i = 0; i < FH_MAX_LANES; i++)
		for (size_t j = 0; j < LANE_BYTES; j++)
			lane_data[i][j] = (uint8_t)next();
	multi_md5(&fh_md5_avx512x16);
	multi_md5(&fh_md5_avx512x32);
	multi_keccak(&fh_keccak_avx512x8, rates, sizeof rates / sizeof *rates);
	multi_sha(&fh_sha1_avx512x16, &fh_sha1_portable);
	multi_sha(&fh_sha256_avx512x16, &fh_sha256_portable);
	multi_sha(&fh_sha512_avx512x8, &fh_sha512_portable);
	multi_blake2b(&fh_blake2b_avx512x8);

	printf("avx512 kernels, emulated: %lu checks, %lu failed\n", checks,
	       failed);
	return failed != 0;
}
