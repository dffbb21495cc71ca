/* checklist.h: GNU checksum lists: parsing the lines of `-c` lists and
 * formatting generated lines.  Pure functions over bytes: no I/O, no
 * allocation, thread-safe (the parser's state lives in the caller's
 * struct fh_list_parser). */
#ifndef FH_CHECKLIST_H
#define FH_CHECKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algo.h"

/* Digest lengths a list may declare an algorithm for. */
#define FH_DECLARED_MAX 8

/* What the lines of a list may be, from the command line. */
struct fh_list_parser {
	/* The algorithm given with -a (or by the program's name), or NULL to
	 * take each line's from its tag or hex length. */
	const struct fh_algo *algo;
	/* A group given with -a and no -l (sha2, sha3; algo.h): any of its
	 * members, from the tag or the digest's length.  NULL otherwise. */
	const struct fh_algo_row *group;
	/* -l for SHAKE: the required digest length in bytes; 0 = any. */
	size_t outlen;
	/* The list is standard input: a line naming "-" is then improper. */
	bool list_is_stdin;
	/* Lists as projects publish them (fhsum's own name, never a GNU
	 * one): OpenSSL 3's names of algorithms in tags ("SHA2-256(f)= "). */
	bool published;
	/* xxhsum --little-endian: untagged digests are written least
	 * significant byte first. */
	bool untagged_le;
	/* As GNU cksum without -a: an untagged digest line is improper (a
	 * tag, or the form of cksum's and sum's lines, must say). */
	bool tags_only;
	/* A tag names its line's algorithm even under -a, which is then the
	 * untagged lines' alone (lists as a store: -a names new files' and
	 * untagged lines' algorithm, and a tagged line of another is still
	 * that file's entry, not an improper line). */
	bool tags_rule;
	/* GNU's latch: -1 until the first untagged line, then 0 after a
	 * two-space/'*' line, 1 after a reversed single-space line.  It holds
	 * for all later lines of all lists of a run: initialise it once. */
	int reversed;
	/* What the list's "#fhsum" lines say of its untagged lines:
	 * "untagged=NAME" declares NAME the algorithm of the untagged lines
	 * of its digest length that follow; "algorithm=NAME" (in a metadata
	 * line, or alone) is the next checksum line's.  Without -a, an
	 * untagged line of a length several algorithms share takes these
	 * instead of being left to settle. */
	const struct fh_algo *declared[FH_DECLARED_MAX];
	size_t ndeclared;
	const struct fh_algo *next_algo;
	/* Without -a: a well-formed tagged line whose tag no algorithm of the
	 * table has (BLAKE2b, XXH64...) is FH_LINE_UNSUPPORTED rather than
	 * improper.  Off for GNU's behaviour, where such a line is improper
	 * (fh_list_parser_init clears it). */
	bool unknown_tags;
	/* Digests in hex alone, never base64: GNU md5sum..b2sum and cksum
	 * 9.1 and xxhsum, which read no base64 (fh_list_parser_init clears
	 * it). */
	bool hex_only;
	/* Lines as xxhsum 0.8.1 reads them, and nothing else: for -c
	 * through the xxhsum link, whose counts of improper lines (and so
	 * --strict's status) must be xxhsum's (fh_list_parser_init clears
	 * it). */
	bool xxhsum_lines;
};

enum fh_line_kind {
	FH_LINE_SKIP, /* blank line or '#' comment */
	FH_LINE_OK,
	FH_LINE_BAD,  /* improperly formatted */
	/* TAG (NAME) = DIGEST of a tag the table lacks (unknown_tags only):
	 * TAG and NAME are set, ALGO is NULL. */
	FH_LINE_UNSUPPORTED,
};

struct fh_list_line {
	const struct fh_algo *algo; /* the line's algorithm */
	/* Its digest as written: hex digits (either case), or base64 (the
	 * standard alphabet, padded) when BASE64. */
	const char *digest;
	size_t digestlen;           /* characters */
	size_t outlen;              /* the digest's bytes */
	bool base64;
	const char *name;           /* the file name, unescaped */
	size_t namelen;
	bool binary;                /* '*' mode character */
	bool tagged;                /* the BSD form, TAG (NAME) = DIGEST */
	bool form;                  /* cksum's or sum's: VALUE SIZE NAME */
	bool crlf;                  /* the line ended in CR LF */
	/* A tag with "_LE" (xxhsum --little-endian): the digest was written
	 * least significant byte first, and DIGEST is turned around. */
	bool le;
	/* A tagged line in OpenSSL's form, "TAG(NAME)= HEX" (no blank
	 * before the '('); OPENSSL3: the tag was OpenSSL 3's name for it
	 * ("SHA2-256"). */
	bool openssl, openssl3;
	/* An untagged digest after its algorithm's prefix ("XXH3_"). */
	bool prefixed;
	/* BSD's reversed form, "HEX NAME" with one blank (md5 -r). */
	bool reversed;
	/* Untagged, the blank after the digest was a tab. */
	bool tab;
	/* An untagged line without -a whose length several algorithms of the
	 * table share, none declared by the list: ALGO is the first of them,
	 * ALT another, and the caller settles which by the file's content
	 * (cmd/lists/settle.h).  NULL otherwise. */
	const struct fh_algo *alt;
	/* FH_LINE_UNSUPPORTED: the tag as written (TAGLEN bytes, at most
	 * FH_TAG_MAX). */
	const char *tag;
	size_t taglen;
	/* A checksum line's decimal value as hex digits, which DIGEST then
	 * points to (cksum's and sum's lines, algo.h's forms). */
	char digest_buf[2 * 8 + 1];
};

/* The longest tag a line may carry ("TurboSHAKE128-1048576"), with room
 * to spare. */
#define FH_TAG_MAX 32

/* Initialises P for a run. */
void fh_list_parser_init(struct fh_list_parser *p, const struct fh_algo *algo,
			 const struct fh_algo_row *group, size_t outlen);

/* Parses one line of a list.  LINE holds LEN bytes with the '\n' already
 * removed (a trailing '\r' is removed here, but for xxhsum_lines, where it
 * is the line's as any byte); it is modified in place (names are unescaped
 * into it) and OUT points into it.  Returns the line's kind. */
enum fh_line_kind fh_list_parse(struct fh_list_parser *p, char *line,
				size_t len, struct fh_list_line *out);

/* A digest alone, the N characters at S (hex in either case, or base64),
 * as the digest of an untagged line would be taken: its algorithm A, else
 * -a's, else its length's (OUT->alt set where several share it).  OUT's
 * name is left empty, for the caller.  FH_LINE_OK or FH_LINE_BAD. */
enum fh_line_kind fh_list_parse_digest(struct fh_list_parser *p,
				       const struct fh_algo *a, const char *s,
				       size_t n, struct fh_list_line *out);

/* The algorithm P's "#fhsum untagged=" lines declare for untagged
 * digests of OUTLEN bytes, or NULL. */
const struct fh_algo *fh_list_declared(const struct fh_list_parser *p,
				       size_t outlen);

/* Converts HEXLEN hex digits (either case) to bytes; false if any is not a
 * hex digit. */
bool fh_unhex(uint8_t *out, const char *hex, size_t hexlen);

/* The characters of N bytes in base64 (padded), and their encoding into
 * OUT (that many bytes, no NUL); returns the length. */
#define FH_BASE64_LEN(n) (((n) + 2) / 3 * 4)
size_t fh_base64(char *out, const uint8_t *in, size_t n);

enum {
	FH_FMT_TAG = 1 << 0,    /* BSD form: TAG (NAME) = HEX */
	FH_FMT_BINARY = 1 << 1, /* '*' mode character */
	FH_FMT_ZERO = 1 << 2,   /* end with NUL, never escape */
	FH_FMT_BASE64 = 1 << 3, /* the digest is base64: written as given */
	FH_FMT_NO_NAME = 1 << 4, /* the digest and the line end alone */
	FH_FMT_FORM = 1 << 5,   /* a list's line of cksum's or sum's form */
	FH_FMT_LE = 1 << 6,     /* with FH_FMT_TAG: TAG_LE, the hex given
				 * least significant byte first */
	FH_FMT_OPENSSL = 1 << 7, /* with FH_FMT_TAG: OpenSSL's TAG(NAME)= HEX,
				  * for a name that needs no escape and an
				  * algorithm of fixed length */
	FH_FMT_OPENSSL3 = 1 << 8, /* with FH_FMT_OPENSSL: OpenSSL 3's name for
				   * the tag, where it has one */
	FH_FMT_PREFIX = 1 << 9, /* untagged: the algorithm's prefix before the
				 * digest ("XXH3_", algo.h), where it has one */
	FH_FMT_REVERSED = 1 << 10, /* untagged: BSD's "HEX NAME", one blank
				    * and no mode (GNU's latch then reads
				    * every untagged line of the list so) */
	FH_FMT_TAB = 1 << 11,   /* untagged: a tab after the digest */
};

/* Whether NAME needs GNU escaping (it holds '\', LF or CR). */
bool fh_name_needs_escape(const char *name, size_t len);

/* Writes NAME to OUT, escaped as GNU does when ESCAPE ('\' -> "\\", LF ->
 * "\n", CR -> "\r"); returns the bytes written (at most 2 * LEN). */
size_t fh_escape_name(char *out, const char *name, size_t len, bool escape);

/* Formats one generated line into OUT: DIGEST (DIGESTLEN characters: hex,
 * written in lower case, or base64 with FH_FMT_BASE64), NAME and the line
 * end, with FLAGS (FH_FMT_*) and ALGO's tag.  OUT must hold
 * fh_format_size(digestlen, len) bytes.  Returns the line's length. */
size_t fh_format_line(char *out, const struct fh_algo *algo,
		      const char *digest, size_t digestlen, const char *name,
		      size_t len, int flags);
size_t fh_format_size(size_t digestlen, size_t namelen);

/* Formats the checksum line of ALGO's form (algo.h, not FH_FORM_DIGEST)
 * into OUT, as GNU cksum and sum print it: VALUE (the digest's four
 * bytes, most significant first), SIZE bytes as that form counts them,
 * NAME (LEN bytes, as it is: GNU escapes none) unless FH_FMT_NO_NAME,
 * and a newline, or a NUL with FH_FMT_ZERO.  OUT must hold
 * fh_format_size(0, len) bytes.  Returns the line's length. */
size_t fh_format_form(char *out, const struct fh_algo *algo,
		      const uint8_t *value, uint64_t size, const char *name,
		      size_t len, int flags);

#endif
