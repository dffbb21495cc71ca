/* audit.h: the audit's policy (audit.c), and what the scrub (scrub.c)
 * borrows of it. */
#ifndef FH_AUDIT_H
#define FH_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "list/checklist.h"
#include "cli.h"
#include "engine/engine.h"
#include "list/manifest.h"
#include "operands.h"
#include "prefix.h"
#include "store.h"

/* The policy of --audit, --update and --against over a list held in a
 * store (lists/store.h): which files the run expects, what each one's
 * state is, and the report.  The scrub (scrub.c) has its own policy and
 * borrows the report and the scope. */
struct auditor {
	const struct cli *c;
	struct operands *ops;
	struct fh_store st;     /* the list */
	bool update;            /* --update: held and rewritten */
	/* Names the walk could not read (directories, mostly): listed
	 * files under them are not missing, only not checked. */
	char **blind;
	size_t nblind, blind_cap;
	size_t new_outlen;
	/* New files' candidates when the list's one algorithm is of a
	 * length left to settle. */
	struct fh_candidates *new_cand;
	/* Which entries the run expects: every one, or those named by an
	 * operand or under a directory operand. */
	bool expect_all;
	char **scope;
	size_t nscope;
	uint64_t unreadable, changed, damaged, moved, added, missing;
	/* TORN: files that changed while they were read. */
	uint64_t walk_errors, unchecked, torn, kept_missing;
	/* --against: files the two lists name in different algorithms, not
	 * compared; the first such pair (LIST's, NEW's). */
	uint64_t uncompared;
	char uncompared_old[32], uncompared_new[32];
	/* With -a: the first listed file whose untagged line its
	 * content shows to be another algorithm's (SLIP_ALGO), not -a's. */
	const struct fh_algo *slip_algo;
	char *slip_name;
	unsigned slip_checks;   /* the files read again for it */
	/* The settle lengths (st.settle) of which a listed file was read
	 * and matched none of the candidates. */
	bool unmatched[FH_SETTLE_LENGTHS];
	/* A prefix that the names found have more or less than the list's,
	 * said once after the report (prefix.h). */
	struct fh_prefix prefix;
};

/* Opens A's list (HOLD: locked, for a rewrite), its lines read as HOW
 * says, or exits 64 with the reason. */
void fh_audit_open(struct auditor *a, bool hold, const struct fh_list_parser *how);
/* The parser of the command line's -a, for the list's lines. */
void fh_audit_parser(const struct cli *c, struct fh_list_parser *p);

/* A listed file hashed under CAND, the candidates of its length, matched
 * none: said at the end if no file settles that length. */
void fh_audit_unmatched(struct auditor *a, const struct fh_candidates *cand);

/* Says a file's status (or its --json record); --quiet drops OK lines,
 * --status every line.  META, when given, is the size shown, and its
 * stamp, when it has one, --json's "verified". */
void fh_audit_report(struct auditor *a, const char *name, size_t len,
		     enum fh_status st, int algo, const uint8_t *digest,
		     size_t outlen, const struct fh_meta *meta, int err,
		     const char *from, size_t fromlen);
/* The same for a file whose digest is not the one listed (CHANGED,
 * DAMAGED): EXPECTED (OUTLEN bytes) is that one, for --json. */
void fh_audit_report_expected(struct auditor *a, const char *name, size_t len,
			      enum fh_status st, int algo, const uint8_t *digest,
			      const uint8_t *expected, size_t outlen,
			      const struct fh_meta *meta);
/* The probe that settles an open length of the list before the run
 * reads its files: the smallest in-scope entry of that length whose file
 * the run reads anyway (for --update, one its metadata does not vouch
 * for), looked for among the first few such entries.  True with JOB
 * filled (its USER left to the caller). */
bool fh_audit_probe(struct auditor *a, struct fh_job *job);
/* Which entries the operands name (fh_audit_in_scope), and which of
 * them --exclude hides (by their name key, as fh_name_key gives it). */
void fh_audit_set_scope(struct auditor *a);
bool fh_audit_in_scope(const struct auditor *a, const struct fh_entry *e);
bool fh_audit_hidden(const struct auditor *a, const char *key, size_t klen);
/* Writes the new list, saying why when it cannot: 0 or 64. */
int fh_audit_write(struct auditor *a);
/* The store's error ERR (from a rewrite) said: 64, or 0 for none. */
int fh_audit_store_error(struct auditor *a, int err);
/* The counts said as warnings (unless --status); returns the exit
 * status's bits. */
int fh_audit_status(struct auditor *a);
/* Frees A and everything it holds. */
void fh_audit_free(struct auditor *a);

#endif
