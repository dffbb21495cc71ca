/* fhsum.h: the public hashing API of libfhsum, the one header installed.
 *
 * An algorithm is described by a constant descriptor (struct fh_algo); a
 * hashing context (fh_ctx) lives wherever the caller puts it, the stack
 * included.  Hashing cannot fail, so init/update/final return nothing.
 * Every function here is thread-safe as long as each thread uses its own
 * context: the only shared state is the kernel choice, made once
 * (pthread_once) on first use.  man 3 libfhsum has the whole story.
 *
 * Stability: the names declared here, with FH_API, are all that the shared
 * library exports (libfhsum.so.0); the layouts of struct fh_algo and
 * fh_ctx are part of that ABI.  Build with `pkg-config --cflags --libs
 * fhsum` (add --static for libfhsum.a).
 *
 * The soname rule: sizeof(fh_ctx), sizeof(struct fh_algo) and the offset
 * of every member of struct fh_algo are frozen for a soname; a release
 * that changes one of them, or removes or renumbers an enum value, is
 * libfhsum.so.N+1.  Appending an enum fh_algo_id or fh_family value
 * (before its _COUNT) and adding functions keep the soname; FH_ALGO_COUNT
 * and FH_FAMILY_COUNT are therefore no bound a caller may size arrays by
 * across versions.  fh_ctx stays a caller-allocated struct (on the stack,
 * as BLAKE3's blake3_hasher is), not an opaque one the library
 * allocates: hashing then needs no allocation and cannot fail.  So that
 * the families planned next fit without a new soname, its mode area is
 * reserved at FH_CTX_MODE_BYTES whatever today's modes use: BLAKE3's
 * stack of chaining values (55 x 32 bytes, blake3.c) and its counters
 * take about 1.8 KiB of it (fh_ctx's mode.blake3), BLAKE2b, the CRCs and xxHash fit in `state`
 * and `buf`.  A family that needs more than that is a new soname.
 */
#ifndef FHSUM_H
#define FHSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; fh_version_string() gives the library's. */
#define FHSUM_VERSION "0.1.0"

/* Marks the exported API: libfhsum is built with hidden visibility, so
 * nothing else leaves the shared library. */
#if defined(__GNUC__) || defined(__clang__)
#define FH_API __attribute__((visibility("default")))
#else
#define FH_API
#endif

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
	FH_SHA1,
	FH_SHA224,
	FH_SHA256,
	FH_SHA384,
	FH_SHA512,
	FH_BLAKE2B,
	FH_BLAKE3,
	/* The checksums (crc.c, sum.c): POSIX cksum's CRC, the CRC-32 of
	 * gzip and zip, the BSD and System V sums, and the CRCs S3 stores. */
	FH_CRC,
	FH_CRC32B,
	FH_BSD,
	FH_SYSV,
	FH_CRC32C,
	FH_CRC64NVME,
	/* xxHash (xxhash.c): XXH32, XXH64, XXH3's 64 bits and XXH128. */
	FH_XXH32,
	FH_XXH64,
	FH_XXH3,
	FH_XXH128,
	/* SM3 (GB/T 32905-2016), which GNU cksum -a sm3 writes. */
	FH_SM3,
	FH_ALGO_COUNT
};

/* The kernel families: each algorithm runs on the kernels of one.
 * SHA-224 runs on SHA-256's, SHA-384 on SHA-512's. */
enum fh_family {
	FH_FAMILY_MD5,
	FH_FAMILY_KECCAK,
	FH_FAMILY_SHA1,
	FH_FAMILY_SHA256,
	FH_FAMILY_SHA512,
	FH_FAMILY_BLAKE2B,
	FH_FAMILY_BLAKE3,
	FH_FAMILY_CRC,  /* every CRC model (crc.c) */
	FH_FAMILY_SUM,  /* the BSD and System V sums (sum.c) */
	FH_FAMILY_XXH,  /* xxHash (xxhash.c) */
	FH_FAMILY_SM3,  /* SM3 (md.c, sm3_portable.c) */
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
	unsigned block_bytes;  /* MD5 or SHA block, or Keccak rate */
	bool xof;              /* output length chosen by the caller (BLAKE2b
				* too, up to its 64 bytes: see fh_init_len) */
	uint8_t pad;           /* Keccak domain/padding byte: 0x06 SHA3, 0x1F
				* SHAKE and TurboSHAKE, 0x07 KT's single node */
	uint8_t rounds;        /* Keccak rounds: 24 (FIPS 202), 12 (RFC 9861) */
	uint8_t cv_bytes;      /* KT128/KT256: chaining value bytes (32, 64);
				* 0 for the plain sponges */
};

/* The library's version, "0.1.0": FHSUM_VERSION of the header it was built
 * with.  Never NULL; thread-safe. */
FH_API const char *fh_version_string(void);

/* KangarooTwelve's chunk (RFC 9861 §3.2): S is hashed in 8192-byte pieces. */
#define FH_KT_CHUNK 8192

/* The descriptor of ID; NULL when ID is not an enum fh_algo_id below
 * FH_ALGO_COUNT.  Descriptors are constant: thread-safe. */
FH_API const struct fh_algo *fh_algo_get(enum fh_algo_id id);
/* Lookups; each returns NULL when nothing matches.  Thread-safe.
 * by_name: case-insensitive "-a" name ("sha3-256").  by_tag: the BSD tag
 * ("MD5"), LEN bytes of TAG, exact case.  by_hexlen: the fixed-length
 * algorithm whose hex digest has HEXLEN digits (SHAKE never matches). */
FH_API const struct fh_algo *fh_algo_by_name(const char *name);
FH_API const struct fh_algo *fh_algo_by_tag(const char *tag, size_t len);
FH_API const struct fh_algo *fh_algo_by_hexlen(size_t hexlen);

/* The name of the kernel ALGO runs on: the single-stream kernel of fh_init
 * and fh_hash (MULTI false; never NULL), or the multi-buffer kernel of
 * fh_hash_many (MULTI true; NULL when this CPU or build has none, and
 * fh_hash_many then hashes one buffer after another).  Names such as
 * "md5-bmi" or "keccak-avx512x8" are for logs; they may change between
 * releases.  Picked once for this CPU; thread-safe. */
FH_API const char *fh_kernel_name(const struct fh_algo *algo, bool multi);

struct fh_kernel; /* internal: the block functions a context runs on */

/* The bytes of fh_ctx's mode area, frozen with the soname. */
#define FH_CTX_MODE_BYTES 2048

/* A hashing context.  Its size and layout are public so that it can live
 * on the stack, but its members are not: use the functions below. */
typedef struct fh_ctx {
	const struct fh_algo *algo;
	const struct fh_kernel *kernel;
	uint64_t total;   /* bytes hashed so far (MD5 and SHA length field) */
	size_t buffered;  /* bytes waiting in buf */
	union {
		uint32_t md5[4];
		uint32_t sha1[5];
		uint32_t sha256[8];
		uint64_t sha512[8];
		uint64_t keccak[25];
		uint64_t xxh[8];  /* xxHash's accumulators */
	} state;
	uint8_t buf[FH_MAX_BLOCK];
	/* What a family's own mode keeps beyond one state and one block:
	 * FH_CTX_MODE_BYTES, reserved (see Stability above). */
	union {
		/* KT128/KT256 (RFC 9861 §3): the fields above are the final
		 * node's sponge, which absorbs S_0 and then the chaining
		 * values; these hold the leaf being hashed, one at a time,
		 * so memory stays this size whatever the input.  TOTAL
		 * counts the bytes of S. */
		struct {
			const struct fh_kernel *multi; /* whole leaves in SIMD
							* lanes; NULL: one
							* at a time */
			bool tree;          /* S_0 is complete and more followed */
			uint64_t leaves;    /* leaves finished into the final node */
			size_t leaf_len;    /* bytes of S in the current leaf */
			size_t leaf_buffered; /* of them, waiting in leaf_buf */
			uint64_t leaf[25];
			uint8_t leaf_buf[FH_MAX_BLOCK];
		} kt;
		/* BLAKE2b (RFC 7693): `state` is h, `buf` the block held
		 * back until more input shows it is not the last one. */
		struct {
			uint8_t outlen;     /* nn, the digest's bytes */
		} blake2b;
		/* BLAKE3: `state` is the current chunk's chaining value,
		 * `buf` its block being filled, TOTAL the input's bytes;
		 * here the key words, the mode's flags, and the stack of
		 * chaining values of the subtrees done (one per set bit of
		 * the count of chunks finished, 54 for 2^64 bytes, and one
		 * more while the last two wait to be merged). */
		struct {
			uint32_t key[8];
			uint32_t flags;     /* KEYED_HASH, DERIVE_KEY_MATERIAL or 0 */
			uint32_t blocks;    /* blocks of the chunk compressed */
			uint32_t depth;     /* chaining values on the stack */
			uint32_t stack[55][8];
		} blake3;
		/* XXH3 and XXH128 (xxhash.c): the last block read, hashed
		 * only once a byte follows it (the last one is hashed
		 * otherwise), and the last stripe of the block before it. */
		struct {
			uint8_t block[1024];
			uint8_t tail[64];
		} xxh;
		uint64_t reserved[FH_CTX_MODE_BYTES / 8];
	} mode;
} fh_ctx;

/* Starts a hash of ALGO in CTX, on the best single-stream kernel this CPU
 * runs (KT128/KT256: their leaves on the multi-buffer kernel where there
 * is one).  Thread-safe for distinct contexts. */
FH_API void fh_init(fh_ctx *ctx, const struct fh_algo *algo);
/* fh_init for a digest of OUTLEN bytes, to be given to fh_final.  The
 * length is one of BLAKE2b's parameters (RFC 7693 §2.5): its digest of 32
 * bytes is no prefix of its digest of 64, so the length is needed before
 * any input; OUTLEN from 1 to 64.  For every other algorithm OUTLEN is
 * only checked at fh_final, and this is fh_init.  Thread-safe for
 * distinct contexts. */
FH_API void fh_init_len(fh_ctx *ctx, const struct fh_algo *algo, size_t outlen);
/* Starts a keyed hash (a MAC) of ALGO with the KEYLEN bytes at KEY: BLAKE2b
 * with a key of 1 to 64 bytes and a digest of OUTLEN bytes (RFC 7693
 * §2.5), BLAKE3's keyed_hash mode with a key of 32 bytes (OUTLEN: any
 * length fh_final takes).  Returns false, CTX untouched, when ALGO takes
 * no key of that length.  Thread-safe for distinct contexts. */
FH_API bool fh_init_keyed(fh_ctx *ctx, const struct fh_algo *algo,
			  const void *key, size_t keylen, size_t outlen);
/* Starts BLAKE3's derive_key mode: the message then given to fh_update is
 * the key material, and CONTEXT (CONTEXTLEN bytes) the application's
 * fixed context string.  Returns false, CTX untouched, when ALGO is not
 * BLAKE3.  Thread-safe for distinct contexts. */
FH_API bool fh_init_derive_key(fh_ctx *ctx, const struct fh_algo *algo,
			       const void *context, size_t contextlen);
/* Hashes LEN bytes of DATA (NULL is fine when LEN is 0) into CTX; any
 * split of a message into updates gives the same digest.  Thread-safe for
 * distinct contexts. */
FH_API void fh_update(fh_ctx *ctx, const void *data, size_t len);
/* Writes OUTLEN bytes of digest to OUT.  For fixed-length algorithms OUTLEN
 * must be algo->digest_bytes; for the XOFs (SHAKE, TurboSHAKE, KT,
 * BLAKE3) any length up to FH_MAX_XOF_BYTES; for BLAKE2b the length it
 * was started with (fh_init: 64).  The context must be initialised again
 * before further use.  Thread-safe for distinct contexts. */
FH_API void fh_final(fh_ctx *ctx, uint8_t *out, size_t outlen);
/* fh_final for KT128/KT256 with the customization string CUSTOM of
 * CUSTOMLEN bytes (RFC 9861 §3.1, C; fh_final is C empty).  Other
 * algorithms take no customization: CUSTOMLEN must be 0.  Thread-safe
 * for distinct contexts. */
FH_API void fh_final_custom(fh_ctx *ctx, const void *custom, size_t customlen,
			    uint8_t *out, size_t outlen);
/* One-shot: init (fh_init_len: BLAKE2b's digest of OUTLEN bytes),
 * update, final on the best kernel; OUTLEN as for fh_final.  Thread-safe. */
FH_API void fh_hash(const struct fh_algo *algo, const void *data, size_t len,
		    uint8_t *out, size_t outlen);

/* Many independent messages at once: N messages, message i the LEN[i]
 * bytes at DATA[i] (NULL is fine when LEN[i] is 0), any lengths, in any
 * order.  Writes digest i, OUTLEN bytes (as for fh_final), to
 * OUT + i * OUTLEN.  The digests are those of fh_hash; the speed is that
 * of the multi-buffer kernel (fh_kernel_name(ALGO, true)), which hashes
 * several messages at once in SIMD lanes, so a batch of small or
 * similar-sized messages goes several times faster than a loop over
 * fh_hash.  Without such a kernel it is that loop.  Allocates nothing
 * and cannot fail; thread-safe (the buffers are only read, OUT only
 * written). */
FH_API void fh_hash_many(const struct fh_algo *algo, size_t n,
			 const void *const *data, const size_t *len,
			 uint8_t *out, size_t outlen);

/* Writes LEN bytes as 2*LEN lower-case hex digits and a NUL to HEX, which
 * must hold 2*LEN+1 bytes.  Thread-safe. */
FH_API void fh_hex(char *hex, const uint8_t *bytes, size_t len);

#ifdef __cplusplus
}
#endif

#endif
