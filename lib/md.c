/* md.c: the Merkle-Damgard families, MD5 (RFC 1321), SHA-1 and SHA-2
 * (FIPS 180-4) and SM3 (GB/T 32905-2016), as ops records (family.h): the
 * start from the initial value in the algorithm's row (algo.c), the
 * padding (one 0x80 byte, zeros, the message's length in bits) and the
 * digest, the state's words in the family's byte order.  The buffering
 * of partial blocks is hash.c's, shared with every family that has none
 * of its own. */
#include <string.h>

#include "algo.h"
#include "bytes.h"
#include "family.h"

/* One 0x80 byte, zeros, then the message's length in bits in the last
 * LENBYTES bytes of the last block: a second block when the tail leaves
 * no room for it.  Returns the blocks and their end. */
static size_t pad_to(const struct fh_algo *algo, uint8_t *blocks, size_t tail,
		     size_t lenbytes)
{
	size_t block = algo->block_bytes;
	size_t end = tail + 1 + lenbytes > block ? 2 * block : block;

	blocks[tail] = 0x80;
	memset(blocks + tail + 1, 0, end - tail - 1);
	return end;
}

/* 64 bits little-endian (RFC 1321 §3.1-3.2). */
static size_t pad_le64(const struct fh_algo *algo, uint8_t *blocks,
		       size_t tail, uint64_t total)
{
	size_t end = pad_to(algo, blocks, tail, 8);

	fh_store64le(blocks + end - 8, total << 3);
	return end / algo->block_bytes;
}

/* 64 bits big-endian (FIPS 180-4 §5.1.1). */
static size_t pad_be64(const struct fh_algo *algo, uint8_t *blocks,
		       size_t tail, uint64_t total)
{
	size_t end = pad_to(algo, blocks, tail, 8);

	fh_store64be(blocks + end - 8, total << 3);
	return end / algo->block_bytes;
}

/* 128 bits big-endian (FIPS 180-4 §5.1.2). */
static size_t pad_be128(const struct fh_algo *algo, uint8_t *blocks,
			size_t tail, uint64_t total)
{
	size_t end = pad_to(algo, blocks, tail, 16);

	fh_store64be(blocks + end - 8, total << 3);
	fh_store64be(blocks + end - 16, total >> 61);
	return end / algo->block_bytes;
}

/* The digest: the first OUTLEN bytes of the state's words, in the
 * family's byte order (SHA-224 and SHA-384 truncate). */
static void digest_le32(const struct fh_algo *algo, const struct fh_kernel *k,
			void *state, uint8_t *out, size_t outlen)
{
	const uint32_t *w = state;

	(void)algo, (void)k;
	for (size_t i = 0; i * 4 < outlen; i++) {
		uint8_t word[4];

		fh_store32le(word, w[i]);
		memcpy(out + 4 * i, word, outlen - 4 * i < 4 ? outlen - 4 * i : 4);
	}
}

static void digest_be32(const struct fh_algo *algo, const struct fh_kernel *k,
			void *state, uint8_t *out, size_t outlen)
{
	const uint32_t *w = state;

	(void)algo, (void)k;
	for (size_t i = 0; i * 4 < outlen; i++) {
		uint8_t word[4];

		fh_store32be(word, w[i]);
		memcpy(out + 4 * i, word, outlen - 4 * i < 4 ? outlen - 4 * i : 4);
	}
}

static void digest_be64(const struct fh_algo *algo, const struct fh_kernel *k,
			void *state, uint8_t *out, size_t outlen)
{
	const uint64_t *q = state;

	(void)algo, (void)k;
	for (size_t i = 0; i * 8 < outlen; i++) {
		uint8_t word[8];

		fh_store64be(word, q[i]);
		memcpy(out + 8 * i, word, outlen - 8 * i < 8 ? outlen - 8 * i : 8);
	}
}

/* The start and the single-stream kernel call of family FAM, whose
 * state is WORDS words of type T. */
#define FH_MD_START(fam, T, words)                                           \
	static void fam##_start(const struct fh_algo *algo, void *state)     \
	{                                                                    \
		memcpy(state, fh_algo_row(algo)->iv, words * sizeof(T));     \
	}                                                                    \
	static void fam##_blocks(const struct fh_kernel *k,                  \
				 const struct fh_algo *algo, void *state,    \
				 const uint8_t *data, size_t nblocks)        \
	{                                                                    \
		(void)algo;                                                  \
		fh_##fam##_blocks_of(k)((T *)state, data, nblocks);          \
	}
/* The same and its multi-buffer kernel call. */
#define FH_MD_BLOCKS(fam, T, words)                                          \
	FH_MD_START(fam, T, words)                                           \
	static void fam##_blocks_xn(const struct fh_kernel *k,               \
				    const struct fh_algo *algo, void *states, \
				    const uint8_t *const *data, size_t nblocks) \
	{                                                                    \
		(void)algo;                                                  \
		fh_##fam##_blocks_xn_of(k)(states, data, nblocks);           \
	}
FH_MD_BLOCKS(md5, uint32_t, 4)
FH_MD_BLOCKS(sha1, uint32_t, 5)
FH_MD_BLOCKS(sha256, uint32_t, 8)
FH_MD_BLOCKS(sha512, uint64_t, 8)
/* SM3 has a single-stream kernel only: no lanes. */
FH_MD_START(sm3, uint32_t, 8)

const struct fh_family_ops fh_md5_ops = {
	.name = "md5", .state_bytes = 4 * sizeof(uint32_t),
	.start = md5_start, .blocks = md5_blocks, .blocks_xn = md5_blocks_xn,
	.pad = pad_le64, .digest = digest_le32,
};

const struct fh_family_ops fh_sha1_ops = {
	.name = "sha1", .state_bytes = 5 * sizeof(uint32_t),
	.start = sha1_start, .blocks = sha1_blocks, .blocks_xn = sha1_blocks_xn,
	.pad = pad_be64, .digest = digest_be32,
};

const struct fh_family_ops fh_sha256_ops = {
	.name = "sha256", .state_bytes = 8 * sizeof(uint32_t),
	.start = sha256_start, .blocks = sha256_blocks, .blocks_xn = sha256_blocks_xn,
	.pad = pad_be64, .digest = digest_be32,
};

const struct fh_family_ops fh_sha512_ops = {
	.name = "sha512", .state_bytes = 8 * sizeof(uint64_t),
	.start = sha512_start, .blocks = sha512_blocks, .blocks_xn = sha512_blocks_xn,
	.pad = pad_be128, .digest = digest_be64,
};

/* SM3's padding is SHA-256's (GB/T 32905-2016 §5.2), its digest the
 * state's words big-endian (§5.4). */
const struct fh_family_ops fh_sm3_ops = {
	.name = "sm3", .state_bytes = 8 * sizeof(uint32_t),
	.start = sm3_start, .blocks = sm3_blocks,
	.pad = pad_be64, .digest = digest_be32,
};
