/* crc_armv8.c: CRC-32/ISO-HDLC (crc32b) and CRC-32/ISCSI (crc32c) with the
 * Armv8 CRC32 instructions (CRC32X and CRC32CX, eight bytes each; the
 * narrower ones for the last bytes), the other models of the family by
 * crc-pmull's folding where the CPU has PMULL and by the portable tables
 * where it has not.  Built with the CRC32 extension enabled for this file
 * alone (meson.build); runs only where FH_CPU_ARM_CRC32 is set.
 *
 * The instructions take the reflected register of those two models as
 * crc.h keeps it (no inversion: init and xorout stay with crc.c), so the
 * register goes in and out as it is.  One CRC32X depends on the one
 * before it, and takes more than a cycle where it is pipelined, so the
 * message runs as three independent streams of STREAM bytes side by side, joined at the end of each 3 * STREAM bytes: the first stream's
 * register moved on by 2 * STREAM zero bytes, the second's by STREAM, the
 * third's as it is, XORed (a CRC register is linear in the register and
 * the bytes).  Moving a 32-bit register on by a fixed number of zero
 * bytes is linear in its bits, so four tables of 256 (one per byte of the
 * register) do it, computed once from the portable kernel on zero bytes.
 *
 * Why these instructions and not crc-pmull's folding for these two
 * models: under qemu (tests/bench/aarch64-insns.sh, 1 MiB in one call)
 * this kernel executes 0.24 instructions a byte, the folding 0.30 and the
 * portable tables 3.38: per 16 bytes of each stream one LDP and two
 * CRC32X here, two PMULLs and two EORs there, plus the loads.  These
 * are instructions, not cycles: no Arm hardware was at hand to time
 * either kernel. */
#include <arm_acle.h>
#include <pthread.h>
#include <string.h>

#include "../../lib/crc.h"
#include "kernels_arm.h"

/* Bytes of each of the three streams. */
#define STREAM 1024

/* A reflected 32-bit register moved on by STREAM and by 2 * STREAM zero
 * bytes, for crc32b ([0]) and crc32c ([1]): shift[model][far][byte][v]. */
static uint32_t shift[2][2][4][256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fill_model(const struct fh_crc_model *m, uint32_t t[2][4][256])
{
	static const uint8_t zeros[2 * STREAM];

	for (int far = 0; far < 2; far++) {
		uint32_t bit[32];

		for (int i = 0; i < 32; i++)
			bit[i] = (uint32_t)fh_crc_portable_update(m, 1ull << i, zeros,
								  STREAM * (size_t)(far + 1));
		for (int j = 0; j < 4; j++)
			for (unsigned v = 0; v < 256; v++) {
				uint32_t r = 0;

				for (int i = 0; i < 8; i++)
					if (v >> i & 1)
						r ^= bit[8 * j + i];
				t[far][j][v] = r;
			}
	}
}

static void fill(void)
{
	fill_model(&fh_crc_32, shift[0]);
	fill_model(&fh_crc_32c, shift[1]);
}

static inline uint32_t moved(const uint32_t t[4][256], uint32_t r)
{
	return t[0][r & 0xff] ^ t[1][r >> 8 & 0xff] ^ t[2][r >> 16 & 0xff] ^
	       t[3][r >> 24];
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* One 64-bit word into the register: crc32c's instruction (C true) or
 * crc32b's.  The little-endian load of memcpy is what the instructions
 * want: the first byte in the register's low bits. */
#define STEP(C, r, p) \
	((C) ? __crc32cd((r), load64(p)) : __crc32d((r), load64(p)))

/* 16 bytes of each of three streams, R0 at Q0, R1 at Q1, R2 at Q2, by
 * the instruction INS, each pointer moved on: three LDPs and six CRC32s.
 * In assembly because GCC, given the same in C, reads the streams at
 * offsets from one pointer, past LDP's reach, or one word at a time. */
#define TURN(INS, r0, r1, r2, q0, q1, q2) do { \
		uint64_t a0_, a1_, b0_, b1_, c0_, c1_; \
		__asm__("ldp %[a0], %[a1], [%[p0]], #16\n\t" \
			"ldp %[b0], %[b1], [%[p1]], #16\n\t" \
			"ldp %[c0], %[c1], [%[p2]], #16\n\t" \
			INS " %w[x0], %w[x0], %[a0]\n\t" \
			INS " %w[x1], %w[x1], %[b0]\n\t" \
			INS " %w[x2], %w[x2], %[c0]\n\t" \
			INS " %w[x0], %w[x0], %[a1]\n\t" \
			INS " %w[x1], %w[x1], %[b1]\n\t" \
			INS " %w[x2], %w[x2], %[c1]" \
			: [x0] "+r"(r0), [x1] "+r"(r1), [x2] "+r"(r2), \
			  [p0] "+r"(q0), [p1] "+r"(q1), [p2] "+r"(q2), \
			  [a0] "=&r"(a0_), [a1] "=&r"(a1_), [b0] "=&r"(b0_), \
			  [b1] "=&r"(b1_), [c0] "=&r"(c0_), [c1] "=&r"(c1_) \
			: : "memory"); \
	} while (0)

/* The register after the N bytes at P, for crc32b (C false) or crc32c (C
 * true).  Inlined into one function per model, where C is a constant, so
 * that each loop holds its own instruction and nothing else. */
static inline __attribute__((always_inline)) uint32_t
crc32_streams(bool c, uint32_t reg, const uint8_t *p, size_t n)
{
	if (n >= 3 * STREAM) {
		const uint32_t (*t)[4][256];

		pthread_once(&once, fill);
		t = (const uint32_t (*)[4][256])shift[c];
		for (; n >= 3 * STREAM; p += 3 * STREAM, n -= 3 * STREAM) {
			const uint8_t *q0 = p, *q1 = p + STREAM, *q2 = p + 2 * STREAM;
			uint32_t r1 = 0, r2 = 0;

			/* 32 bytes of each stream a turn, the three chains
			 * side by side. */
			while (q0 < p + STREAM) {
				if (c) {
					TURN("crc32cx", reg, r1, r2, q0, q1, q2);
					TURN("crc32cx", reg, r1, r2, q0, q1, q2);
				} else {
					TURN("crc32x", reg, r1, r2, q0, q1, q2);
					TURN("crc32x", reg, r1, r2, q0, q1, q2);
				}
			}
			reg = moved(t[1], reg) ^ moved(t[0], r1) ^ r2;
		}
	}
	for (; n >= 8; p += 8, n -= 8)
		reg = STEP(c, reg, p);
	if (n & 4) {
		uint32_t w;

		memcpy(&w, p, 4);
		reg = c ? __crc32cw(reg, w) : __crc32w(reg, w);
		p += 4;
	}
	if (n & 2) {
		uint16_t h;

		memcpy(&h, p, 2);
		reg = c ? __crc32ch(reg, h) : __crc32h(reg, h);
		p += 2;
	}
	if (n & 1)
		reg = c ? __crc32cb(reg, *p) : __crc32b(reg, *p);
	return reg;
}

static uint32_t crc32b_update(uint32_t reg, const uint8_t *p, size_t n)
{
	return crc32_streams(false, reg, p, n);
}

static uint32_t crc32c_update(uint32_t reg, const uint8_t *p, size_t n)
{
	return crc32_streams(true, reg, p, n);
}

static uint64_t crc_armv8(const struct fh_crc_model *m, uint64_t reg,
			  const uint8_t *p, size_t n)
{
	if (m == &fh_crc_32)
		return crc32b_update((uint32_t)reg, p, n);
	if (m == &fh_crc_32c)
		return crc32c_update((uint32_t)reg, p, n);
	if (fh_cpu_features() & FH_CPU_ARM_PMULL)
		return fh_crc_pmull_update(m, reg, p, n);
	return fh_crc_portable_update(m, reg, p, n);
}

const struct fh_kernel fh_crc_armv8 = {
	.name = "crc-armv8",
	.family = FH_FAMILY_CRC,
	.lanes = 1,
	.features = FH_CPU_ARM_CRC32,
	.blocks = FH_KERNEL_FN(fh_crc_update_fn, crc_armv8),
};
