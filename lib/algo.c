/* algo.c: the table of algorithms (algo.h), one row each, in the order
 * -a lists them; the public lookups of fhsum.h over it, hex output and
 * the library's version.  Adding an algorithm to a family that exists is
 * one row here (and its enum fh_algo_id in fhsum.h). */
#include <string.h>
#include <strings.h>

#include "algo.h"
#include "crc.h"

/* Initial hash values: RFC 1321 §3.3; FIPS 180-4 §5.3.1 to §5.3.5. */
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
/* SM3's IV: GB/T 32905-2016 §4.1. */
static const uint32_t sm3_iv[8] = {
	0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
	0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e,
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

/* Block sizes: RFC 1321 §3.4 and FIPS 180-4 §1 (64 bytes; 128 for
 * SHA-384 and SHA-512); Keccak rates r = 1600 - 2c bits with c = 2 *
 * digest bits for SHA3 and c = 256/512 for SHAKE128/256 (FIPS 202 §6.1,
 * §6.2).  Padding bytes are the domain bits 01 (SHA3) and 1111 (SHAKE)
 * followed by the first bit of pad10*1 (FIPS 202 §6, B.2).
 * TurboSHAKE128/256 have SHAKE's rates, 12 rounds and the default domain
 * byte 0x1F (RFC 9861 §2.2); KT128/KT256 are trees of them whose single
 * node has domain byte 0x07 (§3.2, §3.4).  The XOFs' default lengths are
 * those of the RFC's test vectors and of its Named Information entries
 * (§5, §6): 256 bits for the 128s, 512 for the 256s.  The groups sha2 and
 * sha3 are GNU cksum's -a names (9.8) for the sizes -l picks.  BLAKE2b
 * (RFC 7693 §2.1): 128-byte blocks, a digest of 1 to 64 bytes chosen at
 * the start (fh_init_len), 64 by default as b2sum writes it; BLAKE3
 * (its paper, §2.1 and §2.6): 64-byte blocks, an extendable output of 32
 * bytes by default, as b3sum writes it. */
#define GROUP(nm, tg, fam)                                                   \
	.algo = { FH_ALGO_COUNT, fam, nm, tg, 0, 0, false, 0, 0, 0 },        \
	.length = FH_LENGTH_PICK
static const struct fh_algo_row rows[] = {
	{ .algo = { FH_MD5, FH_FAMILY_MD5, "md5", "MD5", 16, 64, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .gnu_name = "md5sum", .iv = md5_iv,
	  .s3 = FH_S3_ETAG },
	{ .algo = { FH_SHA1, FH_FAMILY_SHA1, "sha1", "SHA1", 20, 64, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .gnu_name = "sha1sum", .iv = sha1_iv,
	  .s3 = FH_S3_COMPOSITE },
	{ GROUP("sha2", "SHA2", FH_FAMILY_SHA256) },
	{ .algo = { FH_SHA224, FH_FAMILY_SHA256, "sha224", "SHA224", 28, 64, false, 0, 0, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha2",
	  .gnu_name = "sha224sum", .openssl = "SHA2-224", .iv = sha224_iv },
	{ .algo = { FH_SHA256, FH_FAMILY_SHA256, "sha256", "SHA256", 32, 64, false, 0, 0, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha2",
	  .gnu_name = "sha256sum", .openssl = "SHA2-256", .iv = sha256_iv,
	  .s3 = FH_S3_COMPOSITE },
	{ .algo = { FH_SHA384, FH_FAMILY_SHA512, "sha384", "SHA384", 48, 128, false, 0, 0, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha2",
	  .gnu_name = "sha384sum", .openssl = "SHA2-384", .iv = sha384_iv },
	{ .algo = { FH_SHA512, FH_FAMILY_SHA512, "sha512", "SHA512", 64, 128, false, 0, 0, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha2",
	  .gnu_name = "sha512sum", .openssl = "SHA2-512", .iv = sha512_iv },
	{ GROUP("sha3", "SHA3", FH_FAMILY_KECCAK) },
	{ .algo = { FH_SHA3_224, FH_FAMILY_KECCAK, "sha3-224", "SHA3-224", 28, 144, false, 0x06, 24, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha3", .link = "sha3-224sum" },
	{ .algo = { FH_SHA3_256, FH_FAMILY_KECCAK, "sha3-256", "SHA3-256", 32, 136, false, 0x06, 24, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha3", .link = "sha3-256sum" },
	{ .algo = { FH_SHA3_384, FH_FAMILY_KECCAK, "sha3-384", "SHA3-384", 48, 104, false, 0x06, 24, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha3", .link = "sha3-384sum" },
	{ .algo = { FH_SHA3_512, FH_FAMILY_KECCAK, "sha3-512", "SHA3-512", 64, 72, false, 0x06, 24, 0 },
	  .length = FH_LENGTH_FIXED, .member_of = "sha3", .link = "sha3-512sum" },
	{ .algo = { FH_SHAKE128, FH_FAMILY_KECCAK, "shake128", "SHAKE128", 32, 168, true, 0x1f, 24, 0 },
	  .length = FH_LENGTH_XOF, .openssl = "SHAKE-128" },
	{ .algo = { FH_SHAKE256, FH_FAMILY_KECCAK, "shake256", "SHAKE256", 64, 136, true, 0x1f, 24, 0 },
	  .length = FH_LENGTH_XOF, .openssl = "SHAKE-256" },
	{ .algo = { FH_TURBOSHAKE128, FH_FAMILY_KECCAK, "turboshake128", "TurboSHAKE128", 32, 168, true, 0x1f, 12, 0 },
	  .length = FH_LENGTH_XOF },
	{ .algo = { FH_TURBOSHAKE256, FH_FAMILY_KECCAK, "turboshake256", "TurboSHAKE256", 64, 136, true, 0x1f, 12, 0 },
	  .length = FH_LENGTH_XOF },
	{ .algo = { FH_KT128, FH_FAMILY_KECCAK, "kt128", "KT128", 32, 168, true, 0x07, 12, 32 },
	  .length = FH_LENGTH_XOF },
	{ .algo = { FH_KT256, FH_FAMILY_KECCAK, "kt256", "KT256", 64, 136, true, 0x07, 12, 64 },
	  .length = FH_LENGTH_XOF },
	{ .algo = { FH_BLAKE2B, FH_FAMILY_BLAKE2B, "blake2b", "BLAKE2b", 64, 128, true, 0, 0, 0 },
	  .length = FH_LENGTH_XOF, .max_bytes = 64, .untagged = true,
	  .gnu_name = "b2sum", .openssl = "BLAKE2B-512" },
	{ .algo = { FH_BLAKE3, FH_FAMILY_BLAKE3, "blake3", "BLAKE3", 32, 64, true, 0, 0, 0 },
	  .length = FH_LENGTH_XOF, .untagged = true, .program = "b3sum",
	  .no_comments = true },
	/* The checksums: POSIX cksum's CRC and ITU-T V.42's CRC-32 (GNU
	 * cksum's -a crc and crc32b, 9.6), the BSD and System V sums (GNU
	 * sum -r and -s), and the CRCs S3 keeps (CRC-32C; CRC-64/NVME, its
	 * default); crc.c has the models.  Their "block" is a byte.  The
	 * sums' 16 bits are held in four bytes (sum.c). */
	{ .algo = { FH_CRC, FH_FAMILY_CRC, "crc", "CRC", 4, 1, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .gnu_name = "cksum", .model = &fh_crc_cksum,
	  .form = FH_FORM_CKSUM },
	{ .algo = { FH_CRC32B, FH_FAMILY_CRC, "crc32b", "CRC32B", 4, 1, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_crc_32, .form = FH_FORM_CKSUM,
	  .s3 = FH_S3_COMPOSITE },
	{ .algo = { FH_BSD, FH_FAMILY_SUM, "bsd", "BSD", 4, 1, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .gnu_name = "sum", .model = &fh_sum_bsd_kind,
	  .form = FH_FORM_BSD },
	{ .algo = { FH_SYSV, FH_FAMILY_SUM, "sysv", "SYSV", 4, 1, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_sum_sysv_kind, .form = FH_FORM_SYSV },
	{ .algo = { FH_CRC32C, FH_FAMILY_CRC, "crc32c", "CRC32C", 4, 1, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_crc_32c, .s3 = FH_S3_COMPOSITE },
	{ .algo = { FH_CRC64NVME, FH_FAMILY_CRC, "crc64nvme", "CRC64NVME", 8, 1, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_crc_64nvme },
	/* xxHash (xxhash.c, its specification v0.2.0), seed 0: XXH32 and
	 * XXH64 over stripes of 16 and 32 bytes, XXH3's 64 bits and XXH128
	 * over 1024-byte blocks.  xxhsum 0.8 is the program of XXH64, its
	 * default; its lines of XXH3 carry the prefix "XXH3_" (0.8.2). */
	{ .algo = { FH_XXH32, FH_FAMILY_XXH, "xxh32", "XXH32", 4, 16, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_xxh_kinds[0], .le_tags = true,
	  .no_comments = true },
	{ .algo = { FH_XXH64, FH_FAMILY_XXH, "xxh64", "XXH64", 8, 32, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_xxh_kinds[1], .le_tags = true,
	  .gnu_name = "xxhsum", .xxhsum = true, .no_comments = true },
	{ .algo = { FH_XXH3, FH_FAMILY_XXH, "xxh3", "XXH3", 8, 1024, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_xxh_kinds[2], .le_tags = true,
	  .prefix = "XXH3_", .no_comments = true },
	{ .algo = { FH_XXH128, FH_FAMILY_XXH, "xxh128", "XXH128", 16, 1024, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .model = &fh_xxh_kinds[3], .le_tags = true,
	  .no_comments = true },
	/* SM3 (GB/T 32905-2016): 64-byte blocks, 32 bytes of digest, as GNU
	 * cksum -a sm3 writes it (tag SM3) and openssl dgst -sm3 ("SM3").
	 * Untagged, only under -a: settling a 64-digit list (SHA256SUMS of
	 * ISO images) with it too cost 5 s a GiB more (209 MB/s). */
	{ .algo = { FH_SM3, FH_FAMILY_SM3, "sm3", "SM3", 32, 64, false, 0, 0, 0 },
	  .length = FH_LENGTH_NONE, .openssl = "SM3", .iv = sm3_iv, .needs_a = true },
};
#undef GROUP

#define NROWS (sizeof rows / sizeof *rows)

const char *fh_version_string(void)
{
	return FHSUM_VERSION;
}

const struct fh_algo_row *fh_algo_row_at(size_t i)
{
	return i < NROWS ? &rows[i] : NULL;
}

/* A score of rows: a scan costs less than the index it would save. */
const struct fh_algo *fh_algo_get(enum fh_algo_id id)
{
	if ((unsigned)id >= FH_ALGO_COUNT)
		return NULL;
	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].algo.id == id)
			return &rows[i].algo;
	return NULL;
}

const struct fh_algo_row *fh_algo_row_by_name(const char *name)
{
	for (size_t i = 0; i < NROWS; i++)
		if (strcasecmp(name, rows[i].algo.name) == 0)
			return &rows[i];
	return NULL;
}

const struct fh_algo_row *fh_algo_row_by_program(const char *prog)
{
	for (size_t i = 0; i < NROWS; i++)
		if ((rows[i].gnu_name && strcmp(prog, rows[i].gnu_name) == 0) ||
		    (rows[i].link && strcmp(prog, rows[i].link) == 0))
			return &rows[i];
	return NULL;
}

bool fh_algo_in_group(const struct fh_algo *a, const struct fh_algo_row *g)
{
	const char *of = fh_algo_row(a)->member_of;

	return of && strcmp(of, g->algo.name) == 0;
}

const struct fh_algo *fh_algo_group_member(const struct fh_algo_row *g,
					   unsigned long long bits)
{
	for (size_t i = 0; i < NROWS; i++)
		if (fh_algo_in_group(&rows[i].algo, g) &&
		    8ull * rows[i].algo.digest_bytes == bits)
			return &rows[i].algo;
	return NULL;
}

/* The public lookups see algorithms only, never a group. */
const struct fh_algo *fh_algo_by_name(const char *name)
{
	const struct fh_algo_row *r = fh_algo_row_by_name(name);

	return r && r->algo.id != FH_ALGO_COUNT ? &r->algo : NULL;
}

const struct fh_algo *fh_algo_by_tag(const char *tag, size_t len)
{
	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].algo.id != FH_ALGO_COUNT &&
		    strlen(rows[i].algo.tag) == len &&
		    memcmp(tag, rows[i].algo.tag, len) == 0)
			return &rows[i].algo;
	return NULL;
}

const struct fh_algo *fh_algo_by_openssl(const char *name, size_t len)
{
	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].openssl && strlen(rows[i].openssl) == len &&
		    memcmp(name, rows[i].openssl, len) == 0)
			return &rows[i].algo;
	return NULL;
}

/* In the order of enum fh_algo_id, which decides between SHA-3 and SHA-2
 * of one length (SHA-3 first, as before the table). */
const struct fh_algo *fh_algo_by_hexlen(size_t hexlen)
{
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);

		if (!a->xof && 2 * (size_t)a->digest_bytes == hexlen)
			return a;
	}
	return NULL;
}

void fh_hex(char *hex, const uint8_t *bytes, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		hex[2 * i] = digits[bytes[i] >> 4];
		hex[2 * i + 1] = digits[bytes[i] & 15];
	}
	hex[2 * len] = '\0';
}
