/* hashdeep.h: the lists hashdeep writes (hashdeep, and md5deep and its
 * kin with -c), read by -c, --audit and --update and written back by
 * --update, under fhsum's own name only: under a GNU program's name
 * such a list is read as GNU reads it, line by improper line.
 *
 *   %%%% HASHDEEP-1.0
 *   %%%% size,md5,sha256,filename
 *   ## Invoked from: /home/me
 *   ## $ hashdeep -c md5,sha256 -r d
 *   ##
 *   6,b1946ac9...,5891b5b5...,/home/me/d/a.txt
 *
 * A row holds the file's size, a digest per column the second line
 * names, and the name, never quoted, to the end of the line (commas
 * included, the name being the last column).  Lines that begin with '#'
 * are comments.  fhsum reads the columns md5, sha1 and sha256; a column
 * of another algorithm (tiger, whirlpool) is left unchecked, and a list
 * with one is never written.
 *
 * A row is held as one digest, its "row bytes": the digests of the
 * columns fhsum reads, in column order, then the size in 8 bytes (big
 * endian); so a row is compared, paired with a moved file and kept in a
 * manifest as any line's digest is.  A file is read once and hashed with
 * every column's algorithm (fh_job.cand). */
#ifndef FH_HASHDEEP_H
#define FH_HASHDEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "list/checklist.h"
#include "cli.h"
#include "engine/engine.h"

/* The most digest columns a list may have (hashdeep has five). */
#define FH_HASHDEEP_COLS 8
/* The most bytes a row's digest takes. */
#define FH_HASHDEEP_ROW_MAX (FH_CAND_MAX * FH_MAX_DIGEST + 8)

/* One list's columns. */
struct fh_hashdeep {
	const struct cli *c;    /* whose kernels hash the columns */
	bool on;                /* the list is a hashdeep list */
	bool columns;           /* its "%%%% size,..." line was read */
	size_t ncols;           /* digest columns, between size and filename */
	/* Each column's algorithm, NULL for one fhsum lacks, and its name
	 * as listed (shortened), for messages. */
	const struct fh_algo *algo[FH_HASHDEEP_COLS];
	char colname[FH_HASHDEEP_COLS][24];
	size_t nknown, nunsupported;
	size_t rowlen;          /* a row's bytes */
	/* A job on a row: the known columns' algorithms, hashed in one read,
	 * their digests OUTLEN bytes apart (the longest digest's). */
	struct fh_candidates cand;
	size_t outlen;
	/* The columns line as read, to tell a repeated one from another. */
	char line[128];
	size_t linelen;
	uint8_t row[FH_HASHDEEP_ROW_MAX]; /* the last row's bytes */
};

/* H off (not a hashdeep list); C's kernels will hash its columns. */
void fh_hashdeep_init(struct fh_hashdeep *h, const struct cli *c);

/* Whether LINE (LEN bytes, a list's first line) begins a hashdeep list
 * that this run reads as one: never under a GNU program's name. */
bool fh_hashdeep_starts(const char *line, size_t len);

/* Parses line LINE (LEN bytes, no '\n') of the hashdeep list H, which
 * its columns line sets up.  A row is FH_LINE_OK: OUT's name (pointing
 * into LINE, which gets a NUL after it), its ALGO the first known
 * column's and OUTLEN the row's bytes, which go to H->row.  Headers,
 * comments and blank lines are FH_LINE_SKIP; rows that do not fit the
 * columns, rows of a list whose columns fhsum cannot check at all, and a
 * second columns line unlike the first are FH_LINE_BAD. */
enum fh_line_kind fh_hashdeep_parse(struct fh_hashdeep *h, char *line, size_t len,
				    struct fh_list_line *out);

/* Makes JOB read a row's file: its algorithm (or the columns', hashed in
 * one read), its kernels and OUTLEN.  The caller sets the rest. */
void fh_hashdeep_job(struct fh_hashdeep *h, struct fh_job *job);

/* The row bytes of JOB, made by fh_hashdeep_job and read without error,
 * into ROW (FH_HASHDEEP_ROW_MAX); returns H->rowlen. */
size_t fh_hashdeep_row(const struct fh_hashdeep *h, const struct fh_job *job,
		       uint8_t *row);

/* JOB as a row: a copy of it (into *AS) whose digest is its row bytes
 * (into ROW), when H is on and JOB was read; JOB itself otherwise. */
const struct fh_job *fh_hashdeep_as_row(const struct fh_hashdeep *h,
					const struct fh_job *job,
					struct fh_job *as, uint8_t *row);

/* The size a row's bytes (H->rowlen of them) record. */
uint64_t fh_hashdeep_size(const struct fh_hashdeep *h, const uint8_t *row);

/* Whether a row can hold NAME (LEN bytes): no line break in it, and not
 * "-" (a row has no escapes). */
bool fh_hashdeep_name_ok(const char *name, size_t len);

/* The bytes fh_hashdeep_format writes at most for a name of LEN bytes. */
size_t fh_hashdeep_format_size(const struct fh_hashdeep *h, size_t len);
/* Writes the row of ROW (its bytes) and NAME into OUT, '\n' included;
 * returns its length.  Every column of H must be known. */
size_t fh_hashdeep_format(const struct fh_hashdeep *h, const uint8_t *row,
			  const char *name, size_t len, char *out);

/* Says on standard error, a line for each column fhsum lacks and leaves
 * unchecked: "LIST: tiger: unsupported algorithm; ...". */
void fh_hashdeep_say_unsupported(const struct fh_hashdeep *h, const char *list);

#endif
