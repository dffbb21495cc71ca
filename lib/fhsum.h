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
	FH_TURBOSHAKE128,
	FH_TURBOSHAKE256,
	FH_KT128,
	FH_KT256,
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
	uint8_t pad;           /* Keccak domain/padding byte: 0x06 SHA3, 0x1F
				* SHAKE and TurboSHAKE, 0x07 KT's single node */
	uint8_t rounds;        /* Keccak rounds: 24 (FIPS 202), 12 (RFC 9861) */
	uint8_t cv_bytes;      /* KT128/KT256: chaining value bytes (32, 64);
				* 0 for the plain sponges */
};

/* KangarooTwelve's chunk (RFC 9861 §3.2): S is hashed in 8192-byte pieces. */
#define FH_KT_CHUNK 8192

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
	/* KT128/KT256 (RFC 9861 §3): the fields above are the final node's
	 * sponge, which absorbs S_0 and then the chaining values; these hold
	 * the leaf being hashed, one at a time, so memory stays this size
	 * whatever the input.  TOTAL counts the bytes of S. */
	struct {
		const struct fh_kernel *multi; /* whole leaves in SIMD lanes;
						* NULL: one at a time */
		bool tree;              /* S_0 is complete and more followed */
		uint64_t leaves;        /* leaves finished into the final node */
		size_t leaf_len;        /* bytes of S in the current leaf */
		size_t leaf_buffered;   /* of them, waiting in leaf_buf */
		uint64_t leaf[25];
		uint8_t leaf_buf[FH_MAX_BLOCK];
	} kt;
} fh_ctx;

/* Starts a hash of ALGO on the best kernel this CPU runs. */
void fh_init(fh_ctx *ctx, const struct fh_algo *algo);
/* Starts a hash of ALGO on KERNEL, which must be of ALGO's family and usable
 * on this CPU (see fh_kernel_usable).  KERNEL is single-stream, except for
 * KT128/KT256, where a multi-buffer kernel may be given: whole leaves then
 * run in its lanes and the rest on the best single-stream kernel, and a
 * single-stream one hashes the leaves one at a time. */
void fh_init_kernel(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel);
void fh_update(fh_ctx *ctx, const void *data, size_t len);
/* Writes OUTLEN bytes of digest to OUT.  For fixed-length algorithms OUTLEN
 * must be algo->digest_bytes; for the XOFs (SHAKE, TurboSHAKE, KT) any
 * length up to FH_MAX_XOF_BYTES.
 * The context must be initialised again before further use. */
void fh_final(fh_ctx *ctx, uint8_t *out, size_t outlen);
/* fh_final for KT128/KT256 with the customization string CUSTOM of
 * CUSTOMLEN bytes (RFC 9861 §3.1, C; fh_final is C empty).  Other
 * algorithms take no customization: CUSTOMLEN must be 0. */
void fh_final_custom(fh_ctx *ctx, const void *custom, size_t customlen,
		     uint8_t *out, size_t outlen);
/* One-shot: init, update, final on the best kernel. */
void fh_hash(const struct fh_algo *algo, const void *data, size_t len,
	     uint8_t *out, size_t outlen);

/* Writes LEN bytes as 2*LEN lower-case hex digits and a NUL to HEX. */
void fh_hex(char *hex, const uint8_t *bytes, size_t len);

#endif
