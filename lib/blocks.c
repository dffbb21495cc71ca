/* blocks.c: one way in to every family's block functions, for the modes
 * that do not care which family they drive (hash.c, hash_many.c, the
 * engine's lanes): the size of a state, its initial value, a run of
 * blocks on a single-stream or multi-buffer kernel, the padding, and the
 * digest of a Merkle-Damgard state.  States are the kernels' own arrays,
 * laid end to end for the multi-buffer kernels; the Keccak families
 * absorb at the algorithm's rate and rounds. */
#include <string.h>

#include "bytes.h"
#include "kernel.h"
#include "sponge.h"

size_t fh_state_bytes(enum fh_family family)
{
	switch (family) {
	case FH_FAMILY_MD5: return 4 * sizeof(uint32_t);
	case FH_FAMILY_SHA1: return 5 * sizeof(uint32_t);
	case FH_FAMILY_SHA256: return 8 * sizeof(uint32_t);
	case FH_FAMILY_SHA512: return 8 * sizeof(uint64_t);
	case FH_FAMILY_KECCAK:
	case FH_FAMILY_COUNT: break;
	}
	return 25 * sizeof(uint64_t);
}

void fh_state_start(const struct fh_algo *algo, void *state)
{
	/* RFC 1321 §3.3; FIPS 180-4 §5.3.1 to §5.3.5. */
	static const uint32_t md5[4] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
	};
	static const uint32_t sha1[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
	};
	static const uint32_t sha224[8] = {
		0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
		0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
	};
	static const uint32_t sha256[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	static const uint64_t sha384[8] = {
		0xcbbb9d5dc1059ed8ull, 0x629a292a367cd507ull,
		0x9159015a3070dd17ull, 0x152fecd8f70e5939ull,
		0x67332667ffc00b31ull, 0x8eb44a8768581511ull,
		0xdb0c2e0d64f98fa7ull, 0x47b5481dbefa4fa4ull,
	};
	static const uint64_t sha512[8] = {
		0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull,
		0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
		0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
		0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
	};
	const void *iv = NULL;

	switch (algo->id) {
	case FH_MD5: iv = md5; break;
	case FH_SHA1: iv = sha1; break;
	case FH_SHA224: iv = sha224; break;
	case FH_SHA256: iv = sha256; break;
	case FH_SHA384: iv = sha384; break;
	case FH_SHA512: iv = sha512; break;
	default: break;
	}
	if (iv)
		memcpy(state, iv, fh_state_bytes(algo->family));
	else
		memset(state, 0, fh_state_bytes(algo->family));
}

void fh_blocks(const struct fh_kernel *k, const struct fh_algo *algo,
	       void *state, const uint8_t *data, size_t nblocks)
{
	switch (algo->family) {
	case FH_FAMILY_MD5: k->md5_blocks(state, data, nblocks); break;
	case FH_FAMILY_SHA1: k->sha1_blocks(state, data, nblocks); break;
	case FH_FAMILY_SHA256: k->sha256_blocks(state, data, nblocks); break;
	case FH_FAMILY_SHA512: k->sha512_blocks(state, data, nblocks); break;
	case FH_FAMILY_KECCAK:
	case FH_FAMILY_COUNT:
		k->keccak_absorb(state, data, nblocks, algo->block_bytes,
				 algo->rounds);
		break;
	}
}

void fh_blocks_xn(const struct fh_kernel *k, const struct fh_algo *algo,
		  void *states, const uint8_t *const *data, size_t nblocks)
{
	switch (algo->family) {
	case FH_FAMILY_MD5: k->md5_blocks_xn(states, data, nblocks); break;
	case FH_FAMILY_SHA1: k->sha1_blocks_xn(states, data, nblocks); break;
	case FH_FAMILY_SHA256: k->sha256_blocks_xn(states, data, nblocks); break;
	case FH_FAMILY_SHA512: k->sha512_blocks_xn(states, data, nblocks); break;
	case FH_FAMILY_KECCAK:
	case FH_FAMILY_COUNT:
		k->keccak_absorb_xn(states, data, nblocks, algo->block_bytes,
				    algo->rounds);
		break;
	}
}

size_t fh_pad(const struct fh_algo *algo, uint8_t *blocks, size_t tail,
	      uint64_t total)
{
	size_t block = algo->block_bytes;

	if (algo->family == FH_FAMILY_KECCAK) {
		fh_keccak_pad(blocks, tail, block, algo->pad);
		return 1;
	}
	/* One 0x80 byte, zeros, then the message's length in bits: 64 bits
	 * little-endian for MD5 (RFC 1321 §3.1-3.2), big-endian for SHA-1
	 * and SHA-256, 128 bits big-endian for SHA-512 (FIPS 180-4
	 * §5.1); a second block when the tail leaves no room for it. */
	size_t lenbytes = algo->family == FH_FAMILY_SHA512 ? 16 : 8;
	size_t end = tail + 1 + lenbytes > block ? 2 * block : block;

	blocks[tail] = 0x80;
	memset(blocks + tail + 1, 0, end - 8 - tail - 1);
	if (algo->family == FH_FAMILY_MD5)
		fh_store64le(blocks + end - 8, total << 3);
	else
		fh_store64be(blocks + end - 8, total << 3);
	if (lenbytes == 16)
		fh_store64be(blocks + end - 16, total >> 61);
	return end / block;
}

void fh_md_digest(const struct fh_algo *algo, const void *state, uint8_t *out,
		  size_t outlen)
{
	const uint32_t *w = state;
	const uint64_t *q = state;

	for (size_t i = 0; i * 4 < outlen && algo->family != FH_FAMILY_SHA512; i++) {
		uint8_t word[4];

		if (algo->family == FH_FAMILY_MD5)
			fh_store32le(word, w[i]);
		else
			fh_store32be(word, w[i]);
		memcpy(out + 4 * i, word, outlen - 4 * i < 4 ? outlen - 4 * i : 4);
	}
	for (size_t i = 0; i * 8 < outlen && algo->family == FH_FAMILY_SHA512; i++) {
		uint8_t word[8];

		fh_store64be(word, q[i]);
		memcpy(out + 8 * i, word, outlen - 8 * i < 8 ? outlen - 8 * i : 8);
	}
}
