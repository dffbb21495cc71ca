/* shapes.h: checksum lists in the shapes projects publish them, read by
 * -c under fhsum's own name (never under a GNU one, where every line is
 * GNU's):
 *
 * - a clear-signed list (RFC 4880 §7): only its signed text is read, its
 *   dash-escaping undone; lines before the signed message or after its
 *   signature are not read, only counted, for a warning;
 * - `gpg --print-md` records: "NAME: " and the digest in upper-case
 *   groups, over one line or several;
 * - a sidecar: a list that holds one digest alone checks the file it is
 *   named for ("x.tar.gz.sha256" checks "x.tar.gz", beside it), in the
 *   algorithm its extension names, else by the digest's length;
 * - a hashdeep list, told by its first line: its rows (hashdeep.h).
 * - an SFV list (a name ending in ".sfv"): "NAME CRC32" lines, the CRC-32
 *   (crc32b) in 8 hex digits after the line's last space, ';' lines
 *   comments (RHash's and the scene's form).
 *
 * A list's entries come out one at a time, parsed (checklist.h), with
 * the line each began on; memory stays that of one line and one record. */
#ifndef FH_SHAPES_H
#define FH_SHAPES_H

#include <stdbool.h>
#include <stdint.h>

#include "lines.h"
#include "list/checklist.h"

struct fh_hashdeep;

struct fh_shapes {
	struct fh_lines *lines;
	bool on;                /* fhsum's own name: the shapes are read */
	/* Where a hashdeep list's columns go, set by the caller after
	 * fh_shapes_start; NULL: hashdeep lists are not read as such. */
	struct fh_hashdeep *hashdeep;
	bool sfv;               /* an SFV list: its lines alone are read */
	const char *list;       /* the list as named; NULL: standard input */
	uintmax_t lineno;       /* the last line read */
	/* The line of a clear-signed list's "-----BEGIN PGP SIGNED
	 * MESSAGE-----", found before reading a regular file; 0 when there
	 * is none or the list could not be looked at first (a pipe). */
	uintmax_t begin;
	int part;               /* where in the armour the last line was */
	/* Lines other than blank ones outside the signed part, not read;
	 * and those read before a pipe's signed part began (LATE). */
	uintmax_t outside, late;
	uintmax_t texts;        /* lines of text handed on so far */
	uintmax_t entries;      /* entries and improper lines so far */
	/* The entry just returned is the list's only one. */
	bool single;
	/* A line of text read ahead, kept for the next call. */
	char *ahead;
	size_t aheadlen, aheadcap;
	uintmax_t ahead_lineno;
	int ahead_status;       /* an enum fh_lines_status; -1: none held */
	/* The entry being returned, when it had to be copied out of the
	 * lines' buffer (a record of several lines, a first line). */
	char *rec;
	size_t reccap;
	/* A line as read, before the parser wrote into it. */
	char *orig;
	size_t origcap;
};

enum fh_shape_kind {
	FH_SHAPE_OK,            /* an entry */
	FH_SHAPE_BAD,           /* an improperly formatted line */
	FH_SHAPE_UNSUPPORTED,   /* a line of a tag the table lacks */
	FH_SHAPE_END,           /* the end of the list, or a read error */
};

/* Starts reading the list LINES reads (from FD, at its start), named
 * LIST (NULL: standard input), with the shapes when ON.  Returns false
 * when memory runs out. */
bool fh_shapes_start(struct fh_shapes *s, struct fh_lines *lines, int fd,
		     const char *list, bool on);

/* The next entry of the list, parsed with P into OUT (valid until the
 * next call), and the line it began on into *LINENO.  A hashdeep list's
 * rows are parsed by its rules instead, their row bytes in the
 * columns' record. */
enum fh_shape_kind fh_shapes_next(struct fh_shapes *s, struct fh_list_parser *p,
				  struct fh_list_line *out, uintmax_t *lineno);

/* The next line of the list's text alone (a clear-signed list's signed
 * text; every line of another list), and its line number: for readers
 * that parse the lines themselves.  Not to be mixed with fh_shapes_next
 * on one list. */
enum fh_lines_status fh_shapes_text(struct fh_shapes *s, char **line,
				    size_t *len, uintmax_t *lineno);

/* Whether LIST is named as an SFV list is: "*.sfv", in any case. */
bool fh_shapes_sfv_name(const char *list);

/* An SFV line (LEN bytes at LINE, modified in place): "NAME CRC32HEX",
 * the name everything before the last space.  ';' starts a comment;
 * blank lines are skipped.  -a of another algorithm than CRC-32 makes
 * every line improper. */
enum fh_line_kind fh_shapes_sfv_line(struct fh_list_parser *p, char *line,
				     size_t len, struct fh_list_line *out);

/* Writes the SFV line of NAME (LEN bytes) and the N-byte CRC into OUT
 * (LEN + 2 * N + 2 bytes): the name as it is, a blank, the CRC in upper
 * case hex, a newline.  Returns its length. */
size_t fh_shapes_sfv_format(char *out, const char *name, size_t len,
			    const uint8_t *crc, size_t n);

/* Whether an SFV line can carry NAME: it has no escapes, so a newline
 * would split the line, and a leading ';' makes it a comment that every
 * reader skips (the file then silently unchecked). */
bool fh_shapes_sfv_name_ok(const char *name, size_t len);

/* The file a list named LIST is named for, beside it: LIST without its
 * last extension (malloc'd); NULL when its last component has none. */
char *fh_shapes_stem(const char *list);

/* Whether the regular file FD holds a clear-signed message (read with
 * pread: its offset is left as it was). */
bool fh_shapes_signed(int fd);

/* Frees what S holds (not its lines). */
void fh_shapes_free(struct fh_shapes *s);

#endif
