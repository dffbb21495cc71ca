/* algo.c: the algorithm descriptor table, its lookups, hex output and
 * the library's version. */
#include <string.h>
#include <strings.h>

#include "fhsum.h"

/* Block sizes: RFC 1321 §3.4 (64 bytes); Keccak rates r = 1600 - 2c bits
 * with c = 2 * digest bits for SHA3 and c = 256/512 for SHAKE128/256
 * (FIPS 202 §6.1, §6.2).  Padding bytes are the domain bits 01 (SHA3) and
 * 1111 (SHAKE) followed by the first bit of pad10*1 (FIPS 202 §6, B.2).
 * TurboSHAKE128/256 have SHAKE's rates, 12 rounds and the default domain
 * byte 0x1F (RFC 9861 §2.2); KT128/KT256 are trees of them whose single
 * node has domain byte 0x07 (§3.2, §3.4).  The XOFs' default lengths are
 * those of the RFC's test vectors and of its Named Information entries
 * (§5, §6): 256 bits for the 128s, 512 for the 256s. */
static const struct fh_algo algos[FH_ALGO_COUNT] = {
	{ FH_MD5, FH_FAMILY_MD5, "md5", "MD5", 16, 64, false, 0, 0, 0 },
	{ FH_SHA3_224, FH_FAMILY_KECCAK, "sha3-224", "SHA3-224", 28, 144, false, 0x06, 24, 0 },
	{ FH_SHA3_256, FH_FAMILY_KECCAK, "sha3-256", "SHA3-256", 32, 136, false, 0x06, 24, 0 },
	{ FH_SHA3_384, FH_FAMILY_KECCAK, "sha3-384", "SHA3-384", 48, 104, false, 0x06, 24, 0 },
	{ FH_SHA3_512, FH_FAMILY_KECCAK, "sha3-512", "SHA3-512", 64, 72, false, 0x06, 24, 0 },
	{ FH_SHAKE128, FH_FAMILY_KECCAK, "shake128", "SHAKE128", 32, 168, true, 0x1f, 24, 0 },
	{ FH_SHAKE256, FH_FAMILY_KECCAK, "shake256", "SHAKE256", 64, 136, true, 0x1f, 24, 0 },
	{ FH_TURBOSHAKE128, FH_FAMILY_KECCAK, "turboshake128", "TurboSHAKE128", 32, 168, true, 0x1f, 12, 0 },
	{ FH_TURBOSHAKE256, FH_FAMILY_KECCAK, "turboshake256", "TurboSHAKE256", 64, 136, true, 0x1f, 12, 0 },
	{ FH_KT128, FH_FAMILY_KECCAK, "kt128", "KT128", 32, 168, true, 0x07, 12, 32 },
	{ FH_KT256, FH_FAMILY_KECCAK, "kt256", "KT256", 64, 136, true, 0x07, 12, 64 },
	{ FH_SHA1, FH_FAMILY_SHA1, "sha1", "SHA1", 20, 64, false, 0, 0, 0 },
	{ FH_SHA224, FH_FAMILY_SHA256, "sha224", "SHA224", 28, 64, false, 0, 0, 0 },
	{ FH_SHA256, FH_FAMILY_SHA256, "sha256", "SHA256", 32, 64, false, 0, 0, 0 },
	{ FH_SHA384, FH_FAMILY_SHA512, "sha384", "SHA384", 48, 128, false, 0, 0, 0 },
	{ FH_SHA512, FH_FAMILY_SHA512, "sha512", "SHA512", 64, 128, false, 0, 0, 0 },
};

const char *fh_version_string(void)
{
	return FHSUM_VERSION;
}

const struct fh_algo *fh_algo_get(enum fh_algo_id id)
{
	return (unsigned)id < FH_ALGO_COUNT ? &algos[id] : NULL;
}

const struct fh_algo *fh_algo_by_name(const char *name)
{
	for (size_t i = 0; i < FH_ALGO_COUNT; i++)
		if (strcasecmp(name, algos[i].name) == 0)
			return &algos[i];
	return NULL;
}

const struct fh_algo *fh_algo_by_tag(const char *tag, size_t len)
{
	for (size_t i = 0; i < FH_ALGO_COUNT; i++)
		if (strlen(algos[i].tag) == len && memcmp(tag, algos[i].tag, len) == 0)
			return &algos[i];
	return NULL;
}

const struct fh_algo *fh_algo_by_hexlen(size_t hexlen)
{
	for (size_t i = 0; i < FH_ALGO_COUNT; i++)
		if (!algos[i].xof && 2 * (size_t)algos[i].digest_bytes == hexlen)
			return &algos[i];
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
