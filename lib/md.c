/* md.c: the Merkle-Damgard families, MD5 (RFC 1321), SHA-1 and SHA-2
 * (FIPS 180-4), as ops records (family.h): their initial values, the
 * padding (one 0x80 byte, zeros, the message's length in bits) and the
 * digest, the state's words in the family's byte order.  The buffering of
 * partial blocks is hash.c's, shared with every family that has none of
 * its own. */
#include <string.h>

#include "bytes.h"
#include "family.h"

/* RFC 1321 §3.3; FIPS 180-4 §5.3.1 to §5.3.5. */
static const uint32_t md5_iv[4] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
};
static const uint32_t sha1_iv[5] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
};
static const uint32_t sha224_iv[8] = {
	0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
	0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
};
static const uint32_t sha256_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};
static const uint64_t sha384_iv[8] = {
	0xcbbb9d5dc1059ed8ull, 0x629a292a367cd507ull,
	0x9159015a3070dd17ull, 0x152fecd8f70e5939ull,
	0x67332667ffc00b31ull, 0x8eb44a8768581511ull,
	0xdb0c2e0d64f98fa7ull, 0x47b5481dbefa4fa4ull,
};
static const uint64_t sha512_iv[8] = {
	0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull,
	0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
	0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
	0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

static const void *const ivs[FH_ALGO_COUNT] = {
	[FH_MD5] = md5_iv, [FH_SHA1] = sha1_iv,
	[FH_SHA224] = sha224_iv, [FH_SHA256] = sha256_iv,
	[FH_SHA384] = sha384_iv, [FH_SHA512] = sha512_iv,
};

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

/* The start and the typed kernel calls of family FAM, whose state is
 * WORDS words of type T. */
#define FH_MD_BLOCKS(fam, T, words)                                          \
	static void fam##_start(const struct fh_algo *algo, void *state)     \
	{                                                                    \
		memcpy(state, ivs[algo->id], words * sizeof(T));             \
	}                                                                    \
	static void fam##_blocks(const struct fh_kernel *k,                  \
				 const struct fh_algo *algo, void *state,    \
				 const uint8_t *data, size_t nblocks)        \
	{                                                                    \
		(void)algo;                                                  \
		fh_##fam##_blocks_of(k)((T *)state, data, nblocks);          \
	}                                                                    \
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
