/* fhsum.h: the public hashing API of libfhsum.
 *
 * An algorithm is described by a constant descriptor (struct fh_algo); a
 * hashing context (fh_ctx) lives wherever the caller puts it, the stack
 * included.  Hashing cannot fail, so init/update/final return nothing.
 * Every function here is thread-safe as long as each thread uses its own
 * context.
 */
#ifndef FHSUM_H
#define FHSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FHSUM_VERSION "0.1.0"

enum fh_algo_id {
	FH_MD5,
	FH_SHA3_224,
	FH_SHA3_256,
	FH_SHA3_384,
	FH_SHA3_512,
	FH_SHAKE128,
	FH_SHAKE256,
	FH_ALGO_COUNT
};

/* The two kernel families: each algorithm runs on the kernels of one. */
enum fh_family {
	FH_FAMILY_MD5,
	FH_FAMILY_KECCAK,
	FH_FAMILY_COUNT
};

/* Largest output of a fixed-length algorithm, and the SHAKE limit (2^20 bits). */
#define FH_MAX_DIGEST 64
#define FH_MAX_XOF_BYTES (1u << 17)
/* Largest block (SHAKE128's rate, FIPS 202 §6.2). */
#define FH_MAX_BLOCK 168

struct fh_algo {
	enum fh_algo_id id;
	enum fh_family family;
	const char *name;      /* -a name, lower case: "sha3-256" */
	const char *tag;       /* BSD tag: "SHA3-256" */
	unsigned digest_bytes; /* default output length; SHAKE: its usual length */
	unsigned block_bytes;  /* MD5 block or Keccak rate */
	bool xof;              /* output length chosen by the caller */
	uint8_t pad;           /* Keccak domain/padding byte: 0x06 SHA3, 0x1F SHAKE */
	uint8_t rounds;        /* Keccak rounds: 24 (FIPS 202), 12 (RFC 9861) */
};

/* The descriptor of ID (never NULL for a valid id). */
const struct fh_algo *fh_algo_get(enum fh_algo_id id);
/* Lookups; each returns NULL when nothing matches.
 * by_name: case-insensitive "-a" name.  by_tag: exact BSD tag ("MD5").
 * by_hexlen: the fixed-length algorithm whose hex digest has HEXLEN digits. */
const struct fh_algo *fh_algo_by_name(const char *name);
const struct fh_algo *fh_algo_by_tag(const char *tag, size_t len);
const struct fh_algo *fh_algo_by_hexlen(size_t hexlen);

struct fh_kernel;

typedef struct fh_ctx {
	const struct fh_algo *algo;
	const struct fh_kernel *kernel;
	uint64_t total;   /* bytes hashed so far (MD5 length field) */
	size_t buffered;  /* bytes waiting in buf */
	union {
		uint32_t md5[4];
		uint64_t keccak[25];
	} state;
	uint8_t buf[FH_MAX_BLOCK];
} fh_ctx;

/* Starts a hash of ALGO on the best kernel this CPU runs. */
void fh_init(fh_ctx *ctx, const struct fh_algo *algo);
/* Starts a hash of ALGO on KERNEL, which must be of ALGO's family and usable
 * on this CPU (see fh_kernel_usable). */
void fh_init_kernel(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel);
void fh_update(fh_ctx *ctx, const void *data, size_t len);
/* Writes OUTLEN bytes of digest to OUT.  For fixed-length algorithms OUTLEN
 * must be algo->digest_bytes; for SHAKE any length up to FH_MAX_XOF_BYTES.
 * The context must be initialised again before further use. */
void fh_final(fh_ctx *ctx, uint8_t *out, size_t outlen);
/* One-shot: init, update, final on the best kernel. */
void fh_hash(const struct fh_algo *algo, const void *data, size_t len,
	     uint8_t *out, size_t outlen);

/* Writes LEN bytes as 2*LEN lower-case hex digits and a NUL to HEX. */
void fh_hex(char *hex, const uint8_t *bytes, size_t len);

#endif
