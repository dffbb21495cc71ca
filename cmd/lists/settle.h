/* settle.h: which algorithm the untagged lines of a list are, when their
 * digests' length is several algorithms' (SHA-256 and SHA3-256 both
 * write 64 hex digits) and neither -a, a tag nor the list's "#fhsum"
 * lines say.  The candidates are every algorithm of that length in the
 * table; a file that the run reads anyway, hashed with all of them in one
 * read on the engine's threads (fh_job.cand), shows which (the verdict),
 * and the list's other lines of that length take it. */
#ifndef FH_SETTLE_H
#define FH_SETTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "engine/engine.h"

/* Digest lengths of one list that may need settling. */
#define FH_SETTLE_LENGTHS 8

/* One list's lengths: their candidates and verdicts. */
struct fh_settle {
	const struct cli *c;    /* whose kernels hash the candidates */
	size_t n;
	size_t outlen[FH_SETTLE_LENGTHS];
	struct fh_candidates cand[FH_SETTLE_LENGTHS];
	bool probed[FH_SETTLE_LENGTHS]; /* a probe was sent (the caller's) */
};

/* The algorithms of the table whose digests are OUTLEN bytes (fixed
 * lengths only), at most FH_CAND_MAX, in the table's order: their count. */
size_t fh_settle_algos(size_t outlen, const struct fh_algo **out);

/* S empty; C's kernels will hash its candidates. */
void fh_settle_init(struct fh_settle *s, const struct cli *c);

/* The candidates of untagged digests of OUTLEN bytes in S, set up on
 * first use; NULL when one algorithm alone has that length (or S is
 * full).  *PROBED, when given, is the length's flag. */
struct fh_candidates *fh_settle_for(struct fh_settle *s, size_t outlen, bool **probed);

/* The verdict of C (NULL: none yet). */
const struct fh_algo *fh_settle_verdict(const struct fh_candidates *c);

/* Sets C's verdict to ALGO unless it has one. */
void fh_settle_decide(struct fh_candidates *c, const struct fh_algo *algo);

/* Whether NAME may be read to settle a list: a regular file now (never
 * "-", standard input, nor a FIFO or device, which could wait for ever);
 * its size in *SIZE. */
bool fh_settle_readable(const char *name, uint64_t *size);

/* A second look at a line whose file did not match under the verdict
 * SKIP: the regular file NAME read once more, hashed with C's other
 * candidates; the one whose digest is EXPECT (OUTLEN bytes), or NULL.
 * So a list that mixes algorithms of one length raises no false alarm. */
const struct fh_algo *fh_settle_retry(const char *name, const struct fh_candidates *c,
				      const struct fh_algo *skip,
				      const uint8_t *expect, size_t outlen);

/* "sha3-256, sha256 or blake3": C's names, as -a takes them, for
 * messages, in OUT (N bytes). */
void fh_settle_names(const struct fh_candidates *c, char *out, size_t n);

#endif
