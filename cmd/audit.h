/* audit.h: what the audit (audit.c) and its list's reading and
 * rewriting (auditlist.c) share: the auditor, and what it records of a
 * run for the rewrite. */
#ifndef FH_AUDIT_H
#define FH_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "checklist.h"
#include "cli.h"
#include "listfile.h"
#include "manifest.h"
#include "operands.h"
#include "settle.h"

/* The exit status's bits. */
enum {
	BIT_NEW = 1,
	BIT_MISSING = 2,
	BIT_CHANGED = 4,
	BIT_MOVED = 8,
	BIT_DAMAGED = 16,
	BIT_UNREADABLE = 32,
	STATUS_USAGE = 64,
};

/* A name the list lacks, kept until the walk ends. */
struct newfile {
	struct fh_meta meta;
	/* Hashed with the candidates before a verdict: DIGEST holds one
	 * digest of each, in CAND's order, until the verdict picks one. */
	struct fh_candidates *cand;
	bool has_meta;
	uint64_t size;          /* bytes hashed */
	bool renamed;           /* --update --prune wrote it in OLD's place */
	uint8_t algo;
	uint32_t outlen;
	size_t len;
	uint8_t *digest;        /* follows the name's NUL */
	char name[];
};

/* A line --update (or --scrub) writes differently.  STAMP gives the
 * line a new metadata line (a scrub found it good) and copies the
 * checksum line itself byte for byte. */
enum action { REPLACE, DROP, RENAME, STAMP };

struct change {
	struct fh_entry *e;
	enum action action;
	struct fh_meta meta;    /* STAMP: the state verified, and when */
	bool has_meta;
	uint8_t *digest;        /* REPLACE: the new digest */
	/* REPLACE of a file that matched no candidate: DIGEST holds one of
	 * each, the verdict picks which is written. */
	struct fh_candidates *cand;
	const char *name;       /* RENAME: the new name */
	size_t len;
};
struct auditor {
	const struct cli *c;
	struct operands *ops;
	struct fh_manifest m;
	const char *list;       /* LIST as named */
	struct fh_listfile lf;  /* LIST held for --update */
	bool update;
	/* The list's own file, never an entry of itself: its device and
	 * inode, and the last component of its name (to stat only files
	 * that have it). */
	dev_t self_dev;
	ino_t self_ino;
	const char *self_base;
	bool self_known;
	/* Names the walk could not read (directories, mostly): listed
	 * files under them are not missing, only not checked. */
	char **blind;
	size_t nblind, blind_cap;
	const struct fh_algo *new_algo;
	size_t new_outlen;
	int first_form;         /* the list's first line's FH_FMT_* (-1: none) */
	bool any_meta;          /* a line of the list has metadata */
	/* Which entries the run expects: every one, or those named by an
	 * operand or under a directory operand. */
	bool expect_all;
	char **scope;
	size_t nscope;
	uint64_t bad_lines, unreadable, changed, damaged, moved, added, missing;
	uint64_t duplicates, walk_errors, unchecked, unsettled, kept_missing;
	/* Untagged lines of lengths several algorithms share, which the
	 * list does not name (entries FH_ENTRY_OPEN): their candidates and
	 * verdicts (settle.h); what the list's "#fhsum" lines declared, as
	 * its reading left the parser; new files' candidates when the list's
	 * one algorithm is such a length's. */
	struct fh_settle settle;
	struct fh_list_parser listed;
	struct fh_candidates *new_cand;
	uint64_t unmatched;     /* files that matched no candidate */
	struct newfile **news;
	size_t nnews, news_cap;
	struct change *changes;
	size_t nchanges, changes_cap;
	char text[2 * FH_MAX_XOF_BYTES + 4];
};

/* Memory, or exit 64 with a message. */
void *fh_audit_xmalloc(size_t n);
/* The same, its pages faulted in at once where the system can: for an
 * array written whole, whose first touch a page at a time is dear under
 * some hypervisors (a scrub's order of 100,000 entries: 390 faults, 2 to
 * 3 ms on AMD Zen 5 under pvm). */
void *fh_audit_xmalloc_touched(size_t n);
void fh_audit_grow(void **p, size_t *cap, size_t n, size_t size);

/* Reads the list FD (named NAME in messages) line by line, calling EACH
 * with every entry, its name's hash (fh_manifest_name_hash) and its
 * metadata; counts and (with -w) names the improper lines.  Returns 0,
 * or the errno value of a read error. */
typedef void fh_audit_each_fn(struct auditor *a, struct fh_list_line *l,
			      uint64_t hash, const uint8_t *digest,
			      const struct fh_meta *meta, uint64_t lineno);
int fh_audit_read_list(struct auditor *a, int fd, const char *name,
		       fh_audit_each_fn *each);
/* A second line for one name: said, counted; the first counts. */
void fh_audit_duplicate(struct auditor *a, const char *list,
			const struct fh_list_line *l, uint64_t lineno);
/* Opens (for --update: locks) and reads LIST into the manifest; exits 64
 * when it cannot. */
void fh_audit_load(struct auditor *a);
/* Writes the new list: 0, or 64 with the reason said. */
int fh_audit_write_list(struct auditor *a);

/* The same in steps, for a scrub that writes the lines of the entries it
 * has settled while it verifies the others: the old list's lines are
 * copied (restamped entries and CHANGES applied) up to a given line, then
 * the rest at the close.  The changes of lines not yet copied need not be
 * in line order until the close; the lines copied must have none to come. */
struct fh_rewriter {
	struct fh_listout out;
	int in;                 /* the old list, or -1 */
	int err;                /* a read error, or 0 */
	uint64_t lineno;        /* the line being copied */
	size_t next, at;        /* the next change; the entries passed */
	size_t i, got;          /* BUF's bytes copied and read */
	bool at_start, skipping, eof;
	char buf[1 << 16];
};

/* Starts the new text: 0, or an errno value. */
int fh_audit_rewrite_open(struct auditor *a, struct fh_rewriter *rw);
/* Copies the old list's lines before line LINE. */
void fh_audit_rewrite_upto(struct auditor *a, struct fh_rewriter *rw, uint64_t line);
/* Unless ERR (an errno value, from the open), writes the rest and
 * commits the new list; 0, or 64 with the reason said. */
int fh_audit_rewrite_close(struct auditor *a, struct fh_rewriter *rw, int err);

/* Shared with the scrub (scrub.c). */

/* The probe that settles an open length of the list before the run
 * reads its files: the smallest in-scope entry of that length whose file
 * the run reads anyway (for --update, one its metadata does not vouch
 * for), looked for among the first few such entries.  True with JOB
 * filled (its USER left to the caller). */
bool fh_audit_probe(struct auditor *a, struct fh_job *job);
/* Entry E's algorithm, as a job on it shows it (CHOSEN), or as a second
 * look under the other candidates finds it when DIGEST did not match
 * under the verdict; true when E's digest then matches. */
bool fh_audit_settle_entry(struct auditor *a, struct fh_entry *e,
			   const struct fh_job *job);

/* Says a file's status (or its --json record); --quiet drops OK lines,
 * --status every line.  META, when given, is the size shown, and its
 * stamp, when it has one, --json's "verified". */
void fh_audit_report(struct auditor *a, const char *name, size_t len,
		     enum fh_status st, int algo, const uint8_t *digest,
		     size_t outlen, const struct fh_meta *meta, int err,
		     const char *from, size_t fromlen);
void fh_audit_note_change(struct auditor *a, struct change ch);
/* Whether PATH (LEN bytes) is the list itself. */
bool fh_audit_is_self(const struct auditor *a, const char *path, size_t len);
/* Which entries the operands name (fh_audit_in_scope), and which of
 * them --exclude hides (by their name key, as fh_name_key gives it). */
void fh_audit_set_scope(struct auditor *a);
bool fh_audit_in_scope(const struct auditor *a, const struct fh_entry *e);
bool fh_audit_hidden(const struct auditor *a, const char *key, size_t klen);
/* The counts said as warnings (unless --status); returns the exit
 * status's bits. */
int fh_audit_status(struct auditor *a);
/* Frees A and everything it holds. */
void fh_audit_free(struct auditor *a);

#endif
