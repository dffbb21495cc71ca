/* blocks.c: one way in to every family's block functions, for the modes
 * that do not care which family they drive (hash.c, hash_many.c, the
 * engine's lanes): the table of the families' ops records (family.h), and
 * the size of a state, its initial value, a run of blocks on a
 * single-stream or multi-buffer kernel, the padding and the digest,
 * each through the record of the algorithm's family.  States are the
 * kernels' own arrays, laid end to end for the multi-buffer kernels. */
#include <string.h>

#include "family.h"

/* The records, one per family: md.c (MD5, SHA-1, SHA-256, SHA-512, the
 * Merkle-Damgard families), keccak.c, blake2b.c and blake3.c.  A new family is one line here
 * and one row below. */
extern const struct fh_family_ops fh_md5_ops, fh_sha1_ops, fh_sha256_ops,
	fh_sha512_ops, fh_keccak_ops, fh_blake2b_ops, fh_blake3_ops;
/* crc.c and sum.c: the checksums. */
extern const struct fh_family_ops fh_crc_ops, fh_sum_ops;
/* xxhash.c: XXH32, XXH64, XXH3 and XXH128. */
extern const struct fh_family_ops fh_xxh_ops;
/* md.c too: SM3. */
extern const struct fh_family_ops fh_sm3_ops;

static const struct fh_family_ops *const families[FH_FAMILY_COUNT] = {
	[FH_FAMILY_MD5] = &fh_md5_ops,
	[FH_FAMILY_KECCAK] = &fh_keccak_ops,
	[FH_FAMILY_SHA1] = &fh_sha1_ops,
	[FH_FAMILY_SHA256] = &fh_sha256_ops,
	[FH_FAMILY_SHA512] = &fh_sha512_ops,
	[FH_FAMILY_BLAKE2B] = &fh_blake2b_ops,
	[FH_FAMILY_BLAKE3] = &fh_blake3_ops,
	[FH_FAMILY_CRC] = &fh_crc_ops,
	[FH_FAMILY_SUM] = &fh_sum_ops,
	[FH_FAMILY_XXH] = &fh_xxh_ops,
	[FH_FAMILY_SM3] = &fh_sm3_ops,
};

const struct fh_family_ops *fh_family_ops(enum fh_family family)
{
	return families[family];
}

const char *fh_family_name(enum fh_family family)
{
	return (unsigned)family < FH_FAMILY_COUNT ? families[family]->name : "?";
}

size_t fh_state_bytes(enum fh_family family)
{
	return families[family]->state_bytes;
}

size_t fh_held_bytes(enum fh_family family)
{
	return families[family]->holds_last ? 1 : 0;
}

void fh_state_start(const struct fh_algo *algo, void *state)
{
	families[algo->family]->start(algo, state);
}

void fh_blocks(const struct fh_kernel *k, const struct fh_algo *algo,
	       void *state, const uint8_t *data, size_t nblocks)
{
	families[algo->family]->blocks(k, algo, state, data, nblocks);
}

void fh_blocks_xn(const struct fh_kernel *k, const struct fh_algo *algo,
		  void *states, const uint8_t *const *data, size_t nblocks)
{
	families[algo->family]->blocks_xn(k, algo, states, data, nblocks);
}

size_t fh_pad(const struct fh_algo *algo, uint8_t *blocks, size_t tail,
	      uint64_t total)
{
	return families[algo->family]->pad(algo, blocks, tail, total);
}

void fh_digest(const struct fh_algo *algo, const struct fh_kernel *k,
	       void *state, uint8_t *out, size_t outlen)
{
	families[algo->family]->digest(algo, k, state, out, outlen);
}

uint64_t fh_lane_max(const struct fh_algo *algo)
{
	return families[algo->family]->lane_max;
}

/* The lanes' states end to end and their last blocks zero-padded, the
 * spare lanes given the first input's, as lanes_final takes them; what
 * it cannot take is declined before any of it is copied. */
bool fh_lanes_final(const struct fh_kernel *multi, const struct fh_algo *algo,
		    const void *const *states, const uint8_t *const *tails,
		    const size_t *lens, size_t n, uint8_t *const *out,
		    size_t outlen)
{
	const struct fh_family_ops *ops = families[algo->family];
	const size_t sb = ops->state_bytes, block = algo->block_bytes;
	uint64_t st[FH_MAX_LANES * 25];
	uint8_t blocks[FH_MAX_LANES][FH_LANES_FINAL_BLOCK];
	const uint8_t *p[FH_MAX_LANES];
	size_t len[FH_MAX_LANES];

	if (!ops->lanes_final || !multi->tree || n == 0 || n > multi->lanes ||
	    outlen > ops->lanes_final_most || block > FH_LANES_FINAL_BLOCK)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lens[i] > block)
			return false;
	for (size_t i = 0; i < multi->lanes; i++) {
		size_t j = i < n ? i : 0;

		memcpy((uint8_t *)st + i * sb, states[j], sb);
		if (i < n) {
			memcpy(blocks[i], tails[i], lens[i]);
			memset(blocks[i] + lens[i], 0, block - lens[i]);
		}
		p[i] = blocks[j];
		len[i] = lens[j];
	}
	ops->lanes_final(multi, st, p, len, n, out, outlen);
	return true;
}

size_t fh_lane_blocks(const struct fh_algo *algo, size_t have,
		      uint64_t absorbed)
{
	uint64_t max = families[algo->family]->lane_max;

	if (max || families[algo->family]->holds_last)
		have = have ? have - 1 : 0;
	if (max) {
		uint64_t room = absorbed < max ? max - 1 - absorbed : 0;

		if (have > room)
			have = (size_t)room;
	}
	return have / algo->block_bytes;
}
