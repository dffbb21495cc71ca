/* crc_fold.h: the folding constants of the carry-less multiply CRC
 * kernels (x86_64/crc_pclmul.c, x86_64/crc_vpclmul.c,
 * x86_64/crc_avx512.c, aarch64/crc_pmull.c), computed from a model's
 * polynomial, and each including kernel's table of them (filled once).
 * See x86_64/crc_pclmul.c for the method. */
#ifndef FH_CRC_FOLD_H
#define FH_CRC_FOLD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../lib/crc.h"

/* Moving a 128-bit value D bits on: the constants for its low and high
 * 64-bit halves. */
struct fh_fold {
	uint64_t lo, hi;
};

/* The longest distance kept, in 128-bit steps: 16 (2048 bits, the
 * 256 bytes crc-avx512's four ZMM registers hold). */
#define FH_FOLD_STEPS 16

struct fh_fold_consts {
	const struct fh_crc_model *m;
	struct fh_fold d[FH_FOLD_STEPS + 1]; /* d[i]: 128 * i bits; d[0] unused */
};

/* x^K mod P (P of the model's width, its top bit implied), as an integer
 * whose bit d is the coefficient of x^d. */
static inline uint64_t fh_fold_xpow(const struct fh_crc_model *m, unsigned k)
{
	uint64_t r = 1, top = 1ull << (m->width - 1);
	uint64_t mask = m->width == 64 ? ~0ull : (top << 1) - 1;

	for (unsigned i = 0; i < k; i++) {
		bool carry = r & top;

		r = (r << 1) & mask;
		if (carry)
			r ^= m->poly;
	}
	return r;
}

static inline uint64_t fh_fold_reflect64(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++, v >>= 1)
		r = r << 1 | (v & 1);
	return r;
}

/* A reflected model's 64x64 product is its reversed polynomials' times x:
 * x^(D+63) and x^(D-1), reversed; a normal model's x^D and x^(D+64). */
static inline struct fh_fold fh_fold_of(const struct fh_crc_model *m, unsigned d)
{
	if (m->reflected)
		return (struct fh_fold){ fh_fold_reflect64(fh_fold_xpow(m, d + 63)),
					 fh_fold_reflect64(fh_fold_xpow(m, d - 1)) };
	return (struct fh_fold){ fh_fold_xpow(m, d), fh_fold_xpow(m, d + 64) };
}

/* The constants of the four models, filled once in each kernel file that
 * includes this header (static: each gets its own table, so a kernel
 * links alone, as its tests build it). */
static struct fh_fold_consts fh_fold_table[4];
static pthread_once_t fh_fold_once = PTHREAD_ONCE_INIT;

static void fh_fold_fill(void)
{
	const struct fh_crc_model *ms[4] = { &fh_crc_cksum, &fh_crc_32, &fh_crc_32c,
					     &fh_crc_64nvme };

	for (int i = 0; i < 4; i++) {
		fh_fold_table[i].m = ms[i];
		for (unsigned s = 1; s <= FH_FOLD_STEPS; s++)
			fh_fold_table[i].d[s] = fh_fold_of(ms[i], 128 * s);
	}
}

/* M's constants, or NULL for a model not in the table.  Thread-safe. */
static inline const struct fh_fold_consts *
fh_fold_consts(const struct fh_crc_model *m)
{
	pthread_once(&fh_fold_once, fh_fold_fill);
	for (int i = 0; i < 4; i++)
		if (fh_fold_table[i].m == m)
			return &fh_fold_table[i];
	return NULL;
}

#endif
