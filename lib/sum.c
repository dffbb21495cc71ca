/* sum.c: the sums of GNU sum (and cksum -a bsd, -a sysv): the BSD sum
 * (`sum -r`: a 16-bit checksum rotated right by one bit before each byte
 * is added) and the System V sum (`sum -s`: the bytes added into 32 bits,
 * then folded to 16), as coreutils' sum.c computes them; the portable
 * kernel and the family's ops record (family.h).  The digest is the
 * 16-bit value in four bytes, most significant first, so that a decimal
 * line's candidates (crc, crc32b, bsd, sysv) share one length. */
#include <string.h>

#include "algo.h"
#include "bytes.h"
#include "family.h"

/* A row's model says which sum: BSD's or not (algo.c). */
const bool fh_sum_bsd_kind = true, fh_sum_sysv_kind = false;

static uint32_t sum_portable(bool bsd, uint32_t s, const uint8_t *p, size_t n)
{
	if (bsd) {
		for (size_t i = 0; i < n; i++) {
			s = (s >> 1) + ((s & 1) << 15);
			s = (s + p[i]) & 0xffff;
		}
		return s;
	}
	/* A line at a time, each with a prefetch; the compiler vectorises
	 * the line's sum. */
	for (; n >= 64; p += 64, n -= 64) {
		fh_prefetch_ahead(p);
		for (size_t i = 0; i < 64; i++)
			s += p[i];
	}
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

const struct fh_kernel fh_sum_portable = {
	.name = "sum-portable",
	.family = FH_FAMILY_SUM,
	.lanes = 1,
	.blocks = FH_KERNEL_FN(fh_sum_update_fn, sum_portable),
};

static bool is_bsd(const struct fh_algo *algo)
{
	return *(const bool *)fh_algo_row(algo)->model;
}

static void start(const struct fh_algo *algo, void *state)
{
	(void)algo;
	memset(state, 0, sizeof(uint32_t));
}

static void blocks(const struct fh_kernel *k, const struct fh_algo *algo,
		   void *state, const uint8_t *data, size_t nblocks)
{
	uint32_t s;

	memcpy(&s, state, sizeof s);
	s = fh_sum_update_of(k)(is_bsd(algo), s, data, nblocks);
	memcpy(state, &s, sizeof s);
}

static size_t pad(const struct fh_algo *algo, uint8_t *b, size_t tail,
		  uint64_t total)
{
	(void)algo, (void)b, (void)tail, (void)total;
	return 0;
}

static void digest(const struct fh_algo *algo, const struct fh_kernel *k,
		   void *state, uint8_t *out, size_t outlen)
{
	uint32_t s, v;
	uint8_t be[4];

	(void)k;
	memcpy(&s, state, sizeof s);
	if (is_bsd(algo)) {
		v = s;
	} else {
		/* Folded twice: the first fold may carry into bit 16. */
		uint32_t r = (s & 0xffff) + (s >> 16);

		v = (r & 0xffff) + (r >> 16);
	}
	fh_store32be(be, v);
	memcpy(out, be + 4 - outlen, outlen);
}

static void update(fh_ctx *ctx, const uint8_t *p, size_t len)
{
	ctx->total += len;
	blocks(ctx->kernel, ctx->algo, &ctx->state, p, len);
}

static void final(fh_ctx *ctx, const void *custom, size_t customlen,
		  uint8_t *out, size_t outlen)
{
	(void)custom, (void)customlen;
	digest(ctx->algo, ctx->kernel, &ctx->state, out, outlen);
}

const struct fh_family_ops fh_sum_ops = {
	.name = "sum", .state_bytes = sizeof(uint32_t),
	.start = start, .blocks = blocks, .pad = pad, .digest = digest,
	.update = update, .final = final,
};
