/* algo.h: the table of algorithms, one row each, and what the command
 * reads off it: the -a names (groups such as "sha2" included), the tags,
 * the -l rule of each, the program names fhsum answers to, and the
 * family.  fhsum.h's struct fh_algo is a row's first member, so the row
 * of a descriptor is found at its address.  The table is constant:
 * everything here is thread-safe.  Internal to the library: the public
 * lookups stay those of fhsum.h. */
#ifndef FH_ALGO_H
#define FH_ALGO_H

#include <stdbool.h>
#include <stddef.h>

#include "fhsum.h"

/* What -l BITS may be. */
enum fh_length_rule {
	/* -l refused: "--length is not supported with --algorithm=NAME"
	 * (GNU cksum's words). */
	FH_LENGTH_NONE,
	/* The digest's length in bits, or 0 for it. */
	FH_LENGTH_FIXED,
	/* A multiple of 8 from 8 to 8 * FH_MAX_XOF_BYTES, or 0 for the
	 * default (digest_bytes). */
	FH_LENGTH_XOF,
	/* A group: -l is required and picks the member of that length;
	 * GNU cksum's "digest length for 'SHA2' must be 224, 256, 384, or
	 * 512" names the members' lengths otherwise. */
	FH_LENGTH_PICK,
};

/* The line an algorithm's result is written as: a digest and a name (the
 * digest's forms: hex, base64, tagged), or one of the checksum lines of
 * GNU cksum and sum, a decimal value, a size and the name: POSIX cksum's
 * "CRC BYTES NAME" (crc, crc32b), `sum -r`'s "%05u %5s NAME" in 1024-byte
 * blocks and `sum -s`'s "%u %s NAME" in 512-byte blocks, rounded up. */
enum fh_line_form {
	FH_FORM_DIGEST,
	FH_FORM_CKSUM,
	FH_FORM_BSD,
	FH_FORM_SYSV,
};

/* What S3 shows of an object uploaded in parts: no such value; the ETag,
 * the MD5 of the parts' MD5s in hex, "-N"; the composite checksum, the
 * algorithm over the parts' digests in base64, "-N". */
enum fh_s3 {
	FH_S3_NONE,
	FH_S3_ETAG,
	FH_S3_COMPOSITE,
};

struct fh_algo_row {
	/* The public descriptor.  A group's has id FH_ALGO_COUNT, its -a
	 * name and the label its messages use ("SHA2"); its family is
	 * its members'. */
	struct fh_algo algo;
	enum fh_length_rule length;
	/* The group whose -l picks this algorithm ("sha2"), or NULL. */
	const char *member_of;
	/* GNU's program for this algorithm ("md5sum"): invoked by that
	 * name, fhsum is that program, GNU's options only.  NULL: none. */
	const char *gnu_name;
	/* fhsum's own program name for it ("sha3-256sum", installed with
	 * -Dlinks): fhsum with this default algorithm.  NULL: none. */
	const char *link;
	/* OpenSSL 3's name for it where that is not its tag ("SHA2-256",
	 * written by `openssl dgst` as "SHA2-256(NAME)= HEX"), read in the
	 * lists of fhsum's own name; NULL: none. */
	const char *openssl;
	/* A Merkle-Damgard algorithm's initial state (its family's state
	 * layout); NULL for the families that start otherwise. */
	const void *iv;
	/* Another project's program for this algorithm (b3sum, BLAKE3's):
	 * invoked by that name, fhsum is that program, with its options
	 * and output.  NULL: none. */
	const char *program;
	/* FH_LENGTH_XOF: the longest digest -l may ask, in bytes (BLAKE2b:
	 * 64, RFC 7693 §2.1); 0: FH_MAX_XOF_BYTES. */
	unsigned max_bytes;
	/* An algorithm of chosen length whose programs write untagged lines
	 * of its default length (b2sum, b3sum): such a line may be its, and
	 * is settled by content among the algorithms of that length. */
	bool untagged;
	/* A checksum's parameters (crc.h's struct fh_crc_model, sum.c's
	 * kind), read by its family alone; NULL for the others. */
	const void *model;
	/* How its lines look where they are not a digest and a name. */
	enum fh_line_form form;
	/* A prefix its untagged lines may carry ("XXH3_": xxhsum 0.8.2's
	 * lines of XXH3), read by -c; NULL: none. */
	const char *prefix;
	/* Its tag also comes with "_LE" after it, the digest's bytes then
	 * least significant first (xxhsum --little-endian). */
	bool le_tags;
	/* The program gnu_name names is xxhsum, not a GNU one. */
	bool xxhsum;
	/* The value S3 shows for an upload in parts (--part-size). */
	enum fh_s3 s3;
	/* Its untagged lines are read only under -a, as SHAKE's: its program
	 * writes it tagged (GNU cksum -a sm3), and a length settled by
	 * content is then not hashed with it too, whose kernel is the
	 * slowest of that length. */
	bool needs_a;
	/* The program of its lists (b3sum, xxhsum) takes no comment line:
	 * b3sum -c calls a '#' line an error (exit 1), xxhsum counts it
	 * improper.  A list of it gets no "#fhsum" line naming its
	 * algorithm (its length is settled by content at each reading). */
	bool no_comments;
};

/* The most digest bytes A takes (its only length when it is not an XOF). */
static inline size_t fh_algo_max_bytes(const struct fh_algo *a);
/* Whether an untagged digest of BYTES bytes, read without -a, may be A's:
 * a fixed-length algorithm's length (unless `needs_a`), or the default
 * length of one whose programs write such lines (`untagged`). */
static inline bool fh_algo_untagged_as(const struct fh_algo *a, size_t bytes);

/* The rows in the order -a lists them (groups before their members);
 * fh_algo_row_at(i) is NULL past the end. */
const struct fh_algo_row *fh_algo_row_at(size_t i);
/* The row of descriptor A (from fh_algo_get or any lookup). */
static inline const struct fh_algo_row *fh_algo_row(const struct fh_algo *a)
{
	return (const struct fh_algo_row *)(const void *)a;
}
static inline size_t fh_algo_max_bytes(const struct fh_algo *a)
{
	if (!a->xof)
		return a->digest_bytes;
	return fh_algo_row(a)->max_bytes ? fh_algo_row(a)->max_bytes
					 : FH_MAX_XOF_BYTES;
}

static inline bool fh_algo_untagged_as(const struct fh_algo *a, size_t bytes)
{
	return a->digest_bytes == bytes && !fh_algo_row(a)->needs_a &&
	       (!a->xof || fh_algo_row(a)->untagged);
}

/* The row -a NAME (case-insensitive) names, groups included; NULL when
 * none. */
const struct fh_algo_row *fh_algo_row_by_name(const char *name);
/* The row whose gnu_name or link is PROG exactly; NULL when none. */
const struct fh_algo_row *fh_algo_row_by_program(const char *prog);
/* The algorithm whose OpenSSL 3 name is the LEN bytes at NAME; NULL when
 * none. */
const struct fh_algo *fh_algo_by_openssl(const char *name, size_t len);
/* The member of group G whose digest has BITS bits; NULL when none. */
const struct fh_algo *fh_algo_group_member(const struct fh_algo_row *g,
					   unsigned long long bits);
/* Whether A is a member of group G. */
bool fh_algo_in_group(const struct fh_algo *a, const struct fh_algo_row *g);

#endif
