/* crc.c: the CRC family: the models of the algorithm table (Rocksoft
 * parameters, crc.h), the portable kernel (slice-by-8 tables, any model of
 * width 32 or 64, reflected or not) and the family's ops record
 * (family.h), whose context is one register in fh_ctx's state.  The
 * digest is the CRC's bytes, most significant first: the order in which
 * S3 shows a CRC in base64 and every tool prints it in hex. */
#include <pthread.h>
#include <string.h>

#include "algo.h"
#include "bytes.h"
#include "crc.h"
#include "family.h"

/* The models, as Greg Cook's catalogue of parametrised CRC algorithms
 * lists them (width, poly, init, refin = refout, xorout, check).
 * CRC-32/CKSUM is POSIX cksum's polynomial (POSIX.1-2017 cksum, its
 * length appended); CRC-32/ISO-HDLC is ITU-T V.42's, gzip's (RFC 1952)
 * and zip's; CRC-32/ISCSI is Castagnoli's (RFC 3720 §12.1, SSE4.2's
 * crc32); CRC-64/NVME is the NVM Express command set's 64-bit CRC
 * (§5.2.1.3.3, "Rocksoft" in Linux), S3's default. */
static uint64_t cksum_table[8][256], crc32_table[8][256],
	crc32c_table[8][256], crc64nvme_table[8][256];

const struct fh_crc_model fh_crc_cksum = {
	"CRC-32/CKSUM", 32, 0x04c11db7, 0, false, 0xffffffff, 0x765e7680,
	true, cksum_table,
};
const struct fh_crc_model fh_crc_32 = {
	"CRC-32/ISO-HDLC", 32, 0x04c11db7, 0xffffffff, true, 0xffffffff,
	0xcbf43926, false, crc32_table,
};
const struct fh_crc_model fh_crc_32c = {
	"CRC-32/ISCSI", 32, 0x1edc6f41, 0xffffffff, true, 0xffffffff,
	0xe3069283, false, crc32c_table,
};
const struct fh_crc_model fh_crc_64nvme = {
	"CRC-64/NVME", 64, 0xad93d23594c93659ull, ~0ull, true, ~0ull,
	0xae8b14860a799888ull, false, crc64nvme_table,
};

static uint64_t reflect(uint64_t v, unsigned width)
{
	uint64_t r = 0;

	for (unsigned i = 0; i < width; i++, v >>= 1)
		r = r << 1 | (v & 1);
	return r;
}

static uint64_t top_mask(unsigned width)
{
	return width == 64 ? ~0ull : (1ull << width) - 1;
}

/* Table k holds each byte's register after it and k zero bytes more, so
 * that eight bytes cost eight lookups and no loop-carried shift. */
static void fill(const struct fh_crc_model *m)
{
	uint64_t (*t)[256] = m->table;

	for (unsigned b = 0; b < 256; b++) {
		uint64_t c;

		if (m->reflected) {
			uint64_t rpoly = reflect(m->poly, m->width);

			c = b;
			for (int i = 0; i < 8; i++)
				c = c & 1 ? c >> 1 ^ rpoly : c >> 1;
		} else {
			uint64_t poly = m->poly << (64 - m->width);

			c = (uint64_t)b << 56;
			for (int i = 0; i < 8; i++)
				c = c >> 63 ? c << 1 ^ poly : c << 1;
		}
		t[0][b] = c;
	}
	for (unsigned k = 1; k < 8; k++)
		for (unsigned b = 0; b < 256; b++) {
			uint64_t c = t[k - 1][b];

			t[k][b] = m->reflected ? c >> 8 ^ t[0][c & 0xff]
					       : c << 8 ^ t[0][c >> 56];
		}
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_all(void)
{
	fill(&fh_crc_cksum);
	fill(&fh_crc_32);
	fill(&fh_crc_32c);
	fill(&fh_crc_64nvme);
}

uint64_t fh_crc_start(const struct fh_crc_model *m)
{
	/* The register of a reflected model holds its CRC bit-reversed. */
	return m->reflected ? reflect(m->init, m->width)
			    : m->init << (64 - m->width);
}

uint64_t fh_crc_value(const struct fh_crc_model *m, uint64_t reg)
{
	/* refout: a reflected register already reads as the CRC. */
	uint64_t v = m->reflected ? reg : reg >> (64 - m->width);

	return (v ^ m->xorout) & top_mask(m->width);
}

uint64_t fh_crc_portable_update(const struct fh_crc_model *m, uint64_t reg,
				const uint8_t *p, size_t n)
{
	const uint64_t (*t)[256];

	pthread_once(&tables_once, fill_all);
	t = (const uint64_t (*)[256])m->table;
	if (m->reflected) {
		for (; n >= 8; n -= 8, p += 8) {
			uint64_t x = reg ^ fh_load64le(p);

			reg = t[7][x & 0xff] ^ t[6][x >> 8 & 0xff] ^
			      t[5][x >> 16 & 0xff] ^ t[4][x >> 24 & 0xff] ^
			      t[3][x >> 32 & 0xff] ^ t[2][x >> 40 & 0xff] ^
			      t[1][x >> 48 & 0xff] ^ t[0][x >> 56];
		}
		for (; n; n--, p++)
			reg = reg >> 8 ^ t[0][(reg ^ *p) & 0xff];
	} else {
		for (; n >= 8; n -= 8, p += 8) {
			uint64_t x = reg ^ fh_load64be(p);

			reg = t[7][x >> 56] ^ t[6][x >> 48 & 0xff] ^
			      t[5][x >> 40 & 0xff] ^ t[4][x >> 32 & 0xff] ^
			      t[3][x >> 24 & 0xff] ^ t[2][x >> 16 & 0xff] ^
			      t[1][x >> 8 & 0xff] ^ t[0][x & 0xff];
		}
		for (; n; n--, p++)
			reg = reg << 8 ^ t[0][(reg >> 56) ^ *p];
	}
	return reg;
}

const struct fh_kernel fh_crc_portable = {
	.name = "crc-portable",
	.family = FH_FAMILY_CRC,
	.lanes = 1,
	.blocks = FH_KERNEL_FN(fh_crc_update_fn, fh_crc_portable_update),
};

static const struct fh_crc_model *model_of(const struct fh_algo *algo)
{
	return fh_algo_row(algo)->model;
}

static void start(const struct fh_algo *algo, void *state)
{
	uint64_t reg = fh_crc_start(model_of(algo));

	memcpy(state, &reg, sizeof reg);
}

/* Blocks are bytes: a CRC has no block, and the engine's lanes never
 * take a family without a multi-buffer kernel. */
static void blocks(const struct fh_kernel *k, const struct fh_algo *algo,
		   void *state, const uint8_t *data, size_t nblocks)
{
	uint64_t reg;

	memcpy(&reg, state, sizeof reg);
	reg = fh_crc_update_of(k)(model_of(algo), reg, data, nblocks);
	memcpy(state, &reg, sizeof reg);
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
	const struct fh_crc_model *m = model_of(algo);
	uint64_t reg, v;
	uint8_t be[8];

	(void)k;
	memcpy(&reg, state, sizeof reg);
	v = fh_crc_value(m, reg);
	fh_store64be(be, v);
	memcpy(out, be + 8 - outlen, outlen);
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
	if (model_of(ctx->algo)->length_appended) {
		uint8_t len[8];
		size_t n = 0;

		for (uint64_t t = ctx->total; t; t >>= 8)
			len[n++] = (uint8_t)t;
		blocks(ctx->kernel, ctx->algo, &ctx->state, len, n);
	}
	digest(ctx->algo, ctx->kernel, &ctx->state, out, outlen);
}

/* A times B modulo M's polynomial, both of degree under its width, as
 * integers whose bit d is the coefficient of x^d. */
static uint64_t mulmod(const struct fh_crc_model *m, uint64_t a, uint64_t b)
{
	uint64_t r = 0, top = 1ull << (m->width - 1);

	for (unsigned i = m->width; i-- > 0;) {
		bool carry = r & top;

		r = (r << 1) & top_mask(m->width);
		if (carry)
			r ^= m->poly;
		if (b >> i & 1)
			r ^= a;
	}
	return r;
}

/* x^(8 * LEN) modulo M's polynomial: LEN zero bytes. */
static uint64_t zeros(const struct fh_crc_model *m, uint64_t len)
{
	uint64_t r = 1, sq = 1ull << 8; /* x^8 */

	for (; len; len >>= 1) {
		if (len & 1)
			r = mulmod(m, r, sq);
		sq = mulmod(m, sq, sq);
	}
	return r;
}

uint64_t fh_crc_combine(const struct fh_crc_model *m, uint64_t reg, uint64_t tail,
			uint64_t len)
{
	/* The register as a polynomial, moved on by LEN zero bytes (which
	 * is what a zero byte does to it), then the tail's added: CRC's
	 * linearity (zlib's crc32_combine does the same). */
	uint64_t v = m->reflected ? reflect(reg & top_mask(m->width), m->width)
				  : reg >> (64 - m->width);

	v = mulmod(m, v, zeros(m, len));
	return (m->reflected ? reflect(v, m->width) : v << (64 - m->width)) ^ tail;
}

static void combine(const struct fh_algo *algo, void *state, const void *tail,
		    uint64_t len)
{
	uint64_t a, b;

	memcpy(&a, state, sizeof a);
	memcpy(&b, tail, sizeof b);
	a = fh_crc_combine(model_of(algo), a, b, len);
	memcpy(state, &a, sizeof a);
}

const struct fh_family_ops fh_crc_ops = {
	.name = "crc", .state_bytes = sizeof(uint64_t),
	.start = start, .blocks = blocks, .pad = pad, .digest = digest,
	.update = update, .final = final, .combine = combine,
};
