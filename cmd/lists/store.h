/* store.h: a checksum list as fhsum keeps it, for --audit, --update,
 * --scrub and --against: held for reading, or held, locked and rewritten
 * in place.  One interface over the list's file (listfile.h), its reading
 * (listread.h), its entries (the manifest), the untagged lengths it
 * leaves to settle (settle.h), and its new text.
 *
 *   fh_store_init      the options that shape new lines
 *   fh_store_open      read it (HOLD: lock it first, for a rewrite)
 *   fh_store_change / fh_store_add   what the new text changes or appends
 *   fh_store_rewrite_open / _upto / _close   the new text in steps (a
 *                      scrub writes as it verifies), or fh_store_write
 *                      all at once
 *   fh_store_release   unlock, free
 *
 * It says nothing itself: errors come back as codes (0, an errno value,
 * or FH_STORE_*), and what the reading meets (improper lines, duplicate
 * names) through the caller's events.  Policy (what a file's state means,
 * what to report) is the caller's: audit.c and scrub.c. */
#ifndef FH_STORE_H
#define FH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "list/checklist.h"
#include "errors.h"
#include "hashdeep.h"
#include "listfile.h"
#include "list/manifest.h"
#include "settle.h"

/* A name the list lacks, kept until the walk ends; appended by a rewrite
 * unless RENAMED took a missing entry's line. */
struct fh_newfile {
	struct fh_meta meta;
	/* Hashed with the candidates before a verdict: DIGEST holds one
	 * digest of each, in CAND's order, until the verdict picks one. */
	struct fh_candidates *cand;
	bool has_meta;
	uint64_t size;          /* bytes hashed */
	bool renamed;           /* written in a missing entry's place */
	uint8_t algo;
	uint32_t outlen;
	size_t len;
	uint8_t *digest;        /* follows the name's NUL */
	char name[];
};

/* A line the rewrite writes differently.  STAMP gives the line a new
 * metadata line and copies the checksum line itself byte for byte. */
enum fh_change_kind { FH_CH_REPLACE, FH_CH_DROP, FH_CH_RENAME, FH_CH_STAMP };

struct fh_change {
	struct fh_entry *e;
	enum fh_change_kind kind;
	struct fh_meta meta;    /* STAMP: the state verified, and when */
	bool has_meta;
	uint8_t *digest;        /* REPLACE: the new digest (the store's) */
	/* REPLACE, RENAME: the file's size, for a line of cksum's form
	 * (UINT64_MAX: not known). */
	uint64_t size;
	/* REPLACE of a file that matched no candidate: DIGEST holds one of
	 * each, the verdict picks which is written. */
	struct fh_candidates *cand;
	const char *name;       /* RENAME: the new name */
	size_t len;
};

/* What reading the list meets, for the caller to say (any may be NULL). */
struct fh_store_events {
	void *ctx;
	/* Line LINENO is improperly formatted. */
	void (*bad_line)(void *ctx, uint64_t lineno);
	/* Line LINENO names L->name again: line FIRST counts. */
	void (*duplicate)(void *ctx, const struct fh_list_line *l, uint64_t lineno,
			  uint64_t first);
};

struct fh_store {
	const char *name;       /* as named, for messages */
	bool held;              /* locked, for a rewrite */
	struct fh_listfile lf;  /* HELD: the file */
	struct fh_manifest m;
	/* What the list's "#fhsum" lines declared, as its reading left the
	 * parser; the lengths its untagged lines leave to settle. */
	struct fh_list_parser listed;
	struct fh_settle settle;
	/* A hashdeep list's columns (HD.on): its rows are kept, and new
	 * ones written, by its rules, with every column's digests. */
	struct fh_hashdeep hd;
	/* An SFV list (named "*.sfv"): CRC-32 lines, "NAME CRC32HEX", that
	 * carry no metadata and no declaration. */
	bool sfv;
	int first_form;         /* the first line's FH_FMT_* (-1: none) */
	bool crlf;              /* every entry's line ends in CR LF: so do new ones */
	bool any_meta;          /* a line has metadata */
	uint64_t bad_lines, duplicates;
	/* A clear-signed list's lines outside its signed part, not read. */
	uint64_t outside;
	/* The list's own file, never an entry of itself. */
	dev_t self_dev;
	ino_t self_ino;
	const char *self_base;
	bool self_known;
	/* New lines: their algorithm, their form where the list has no
	 * line to follow, and whether they carry metadata anyway. */
	const struct fh_algo *new_algo;
	int new_form;
	bool new_meta;
	struct fh_change *changes;
	size_t nchanges, changes_cap;
	struct fh_newfile **news;
	size_t nnews, news_cap;
	char text[2 * FH_MAX_XOF_BYTES + 4];
};

/* The new text in steps, for a scrub that writes the lines of the
 * entries it has settled while it verifies the others: the old lines are
 * copied (restamped entries and changes applied) up to a given line, then
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

/* Memory, or exit 64 with a message (the command's one way out of a
 * failed allocation of the list's bookkeeping). */
void *fh_store_xmalloc(size_t n);
/* The same, its pages faulted in at once where the system can: for an
 * array written whole, whose first touch a page at a time is dear under
 * some hypervisors (a scrub's order of 100,000 entries: 390 faults, 2 to
 * 3 ms on AMD Zen 5 under pvm). */
void *fh_store_xmalloc_touched(size_t n);
/* Room in *P (*CAP items of SIZE) for item N. */
void fh_store_grow(void **p, size_t *cap, size_t n, size_t size);

/* S empty, named NAME; C's kernels settle it (settle.h). */
void fh_store_init(struct fh_store *s, const char *name, const struct cli *c);

/* Reads the list (HOLD: locks it first, waiting unless NO_WAIT; a list
 * that does not exist is then created by the rewrite).  ALGO (-a, or
 * NULL), ANY_SHA3, ANY_SHA2 and OUTLEN read its lines as the command
 * line says.  0, an errno value, or an FH_ELIST_* code (errors.h). */
int fh_store_open(struct fh_store *s, bool hold, bool no_wait,
		  const struct fh_list_parser *how, const struct fh_store_events *ev);

/* Whether PATH (LEN bytes) is the list itself. */
bool fh_store_is_self(const struct fh_store *s, const char *path, size_t len);

void fh_store_change(struct fh_store *s, struct fh_change ch);
/* Keeps new file PATH with DIGEST (of ALGO; with CAND, one digest of
 * each candidate), META (NULL: none) and the bytes hashed. */
void fh_store_add(struct fh_store *s, const char *path, size_t len,
		  const struct fh_algo *algo, const uint8_t *digest, size_t outlen,
		  const struct fh_meta *meta, uint64_t size, struct fh_candidates *cand);

/* Entry E's algorithm, as a job on it shows it (CHOSEN), or as a second
 * look under the other candidates finds it when the digest did not
 * match under the verdict; true when E's digest then matches. */
bool fh_store_settle_entry(struct fh_store *s, struct fh_entry *e,
			   const struct fh_job *job);

/* Starts the new text: 0, or an errno value. */
int fh_store_rewrite_open(struct fh_store *s, struct fh_rewriter *rw);
/* Copies the old list's lines before line LINE. */
void fh_store_rewrite_upto(struct fh_store *s, struct fh_rewriter *rw, uint64_t line);
/* Unless ERR (an errno value, from the open), writes the rest and
 * commits the new list: 0, an errno value, or FH_ELIST_MOVED. */
int fh_store_rewrite_close(struct fh_store *s, struct fh_rewriter *rw, int err);
/* The whole new text at once, after every digest to write was settled:
 * 0, an errno value, FH_ELIST_MOVED, or FH_ELIST_UNSETTLED with
 * *OPEN the candidates left open. */
int fh_store_write(struct fh_store *s, const struct fh_candidates **open);

/* Unlocks the list, if held (a list created empty for the lock and
 * never written is removed). */
void fh_store_unlock(struct fh_store *s);
/* Unlocks the list (if held) and frees what S holds. */
void fh_store_release(struct fh_store *s);

#endif
