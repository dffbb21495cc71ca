/* test_checklist.c: unit tests for lib/list/checklist.c.
 *
 * A table of list lines with the kind, name, digest, mode and algorithm
 * fh_list_parse must give for them, under several option sets and states
 * of GNU's reversed-form latch.  The expectations of the MD5 rows were
 * derived by running GNU md5sum 9.1 -c on the same lines during development
 * (the comments name the quirk); the SHA-3 and SHAKE rows apply the same
 * rules with fhsum(1)'s tags and lengths.  This test does not run md5sum
 * itself, the CLI tests do.
 * Then lines too big for a table (1 MiB names, SHAKE's longest digest),
 * exact fh_format_line output (as md5sum, --tag, -z and -b print it), and
 * format-then-parse round trips of random names.  Every line is copied to
 * a buffer of exactly its length so that AddressSanitizer catches a read
 * past the end.  Prints the number of cases; exits 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checklist.h"

static unsigned n_cases, n_failed;

/* A string literal and its length, NULs inside included. */
#define S(x) x, sizeof(x) - 1

#define X16 "0123456789abcdef"
#define H32 "b1946ac92492d2347c6235b4d2611184" /* md5 of "hello\n" */
#define H32U "B1946AC92492D2347C6235B4D2611184"
#define H56 X16 X16 X16 "01234567"
#define H64 X16 X16 X16 X16
#define H96 H64 X16 X16
#define H128 H64 H64

enum { NOALGO = -1, SAME = 9 };

struct cfg {
	int algo; /* enum fh_algo_id, or NOALGO */
	bool any_sha3;
	size_t outlen;
	bool is_stdin;
	int latch; /* initial p->reversed */
};

#define ALL { NOALGO, false, 0, false, -1 }
#define MD5 { FH_MD5, false, 0, false, -1 }
#define MD5_L0 { FH_MD5, false, 0, false, 0 }
#define MD5_L1 { FH_MD5, false, 0, false, 1 }
#define MD5_IN { FH_MD5, false, 0, true, -1 }
#define MD5_IN_L1 { FH_MD5, false, 0, true, 1 }
#define SHA3_224 { FH_SHA3_224, false, 0, false, -1 }
#define SHA3_256 { FH_SHA3_256, false, 0, false, -1 }
#define SHA3_512 { FH_SHA3_512, false, 0, false, -1 }
#define SHA3_ANY { NOALGO, true, 0, false, -1 }
#define SHAKE128 { FH_SHAKE128, false, 0, false, -1 }
#define SHAKE128_32 { FH_SHAKE128, false, 32, false, -1 }
#define SHAKE256 { FH_SHAKE256, false, 0, false, -1 }
#define SHAKE256_64 { FH_SHAKE256, false, 64, false, -1 }

struct pcase {
	struct cfg cfg;
	const char *line;
	size_t len;
	enum fh_line_kind kind;
	const char *name; /* expected name, OK lines only */
	size_t namelen;
	const char *hex;  /* expected digest text */
	bool binary;
	int algo;         /* expected enum fh_algo_id */
	int latch;        /* expected p->reversed afterwards, or SAME */
};

#define OK(c, line, name, hex, bin, algo, latch) \
	{ c, S(line), FH_LINE_OK, S(name), hex, bin, algo, latch }
#define BAD(c, line, latch) \
	{ c, S(line), FH_LINE_BAD, NULL, 0, NULL, false, 0, latch }
#define SKIP(c, line) \
	{ c, S(line), FH_LINE_SKIP, NULL, 0, NULL, false, 0, SAME }

static const struct pcase cases[] = {
	/* Comments and blank lines: '#' only in column 1, checked before the
	 * CR is stripped; a line of blanks is improper, not skipped. */
	SKIP(MD5, "#" H32 "  a"),
	SKIP(MD5, "#"),
	SKIP(MD5, "#\r"),
	SKIP(MD5, ""),
	SKIP(MD5, "\r"),
	SKIP(ALL, ""),
	BAD(MD5, " #" H32 "  a", -1),
	BAD(MD5, "   ", -1),
	BAD(MD5, " \t", -1),
	BAD(MD5, "\r\r", -1),
	BAD(MD5, "\r" H32 "  a", -1),

	/* The GNU form: two spaces or " *", blank may be a tab. */
	OK(MD5, H32 "  a", "a", H32, false, FH_MD5, 0),
	OK(MD5, H32 " *a", "a", H32, true, FH_MD5, 0),
	OK(MD5, H32 "\t a", "a", H32, false, FH_MD5, 0),
	OK(MD5, H32 "\t*a", "a", H32, true, FH_MD5, 0),
	OK(MD5, H32 "   a", " a", H32, false, FH_MD5, 0),
	OK(MD5, H32 "  a  ", "a  ", H32, false, FH_MD5, 0),
	OK(MD5, H32 " **a", "*a", H32, true, FH_MD5, 0),
	OK(MD5, H32 "  a b\tc", "a b\tc", H32, false, FH_MD5, 0),
	OK(MD5, H32U "  a", "a", H32U, false, FH_MD5, 0),
	OK(MD5, "b1946AC92492d2347c6235b4d2611184  a", "a",
	   "b1946AC92492d2347c6235b4d2611184", false, FH_MD5, 0),
	OK(MD5_L0, H32 "  a", "a", H32, false, FH_MD5, 0),
	OK(MD5, "  " H32 "  a", "a", H32, false, FH_MD5, 0),
	OK(MD5, "\t \t" H32 " *a", "a", H32, true, FH_MD5, 0),
	OK(MD5, H32 "  #a", "#a", H32, false, FH_MD5, 0),
	OK(MD5, H32 "  a)=(", "a)=(", H32, false, FH_MD5, 0),
	/* Only space and tab are blanks (GNU's ISWHITE, not isspace). */
	BAD(MD5, "\v" H32 "  a", -1),
	BAD(MD5, "\f" H32 "  a", -1),
	BAD(MD5, H32 "\va", -1),
	BAD(MD5, H32 "\fa", -1),
	BAD(MD5, H32 "\ra", -1),
	BAD(MD5, H32 "\r a", -1),
	BAD(MD5, H32 "\na", -1),

	/* CRLF: one CR goes, a second one stays in the name. */
	OK(MD5, H32 "  a\r", "a", H32, false, FH_MD5, 0),
	OK(MD5, H32 "  a\r\r", "a\r", H32, false, FH_MD5, 0),
	OK(MD5, H32 "  a\rb", "a\rb", H32, false, FH_MD5, 0),
	OK(MD5, "MD5 (a) = " H32 "\r", "a", H32, false, FH_MD5, SAME),

	/* The reversed (md5 -r) form and GNU's latch. */
	OK(MD5, H32 " a", "a", H32, false, FH_MD5, 1),
	OK(MD5, H32 "\ta", "a", H32, false, FH_MD5, 1),
	OK(MD5, H32 " a b", "a b", H32, false, FH_MD5, 1),
	OK(MD5_L1, H32 " a", "a", H32, false, FH_MD5, 1),
	BAD(MD5_L0, H32 " a", 0),
	BAD(MD5_L0, H32 "\ta", 0),
	/* After a reversed line the mode character is part of the name. */
	OK(MD5_L1, H32 "  a", " a", H32, false, FH_MD5, 1),
	OK(MD5_L1, H32 " *a", "*a", H32, false, FH_MD5, 1),
	OK(MD5_L1, H32 "\t*a", "*a", H32, false, FH_MD5, 1),
	/* One byte after the blank is always the reversed form. */
	OK(MD5, H32 " *", "*", H32, false, FH_MD5, 1),
	OK(MD5, H32 "  ", " ", H32, false, FH_MD5, 1),
	OK(MD5, H32 "\t ", " ", H32, false, FH_MD5, 1),
	BAD(MD5_L0, H32 " *", 0),
	BAD(MD5_L0, H32 "  ", 0),
	/* "HEX " with nothing after it is too short. */
	BAD(MD5, H32 " ", -1),
	BAD(MD5_L1, H32 " ", 1),
	BAD(MD5, H32 "\t", -1),
	BAD(MD5, H32, -1),

	/* NUL bytes: GNU's C strings cut an unescaped name at the first NUL,
	 * which can leave it empty (md5sum then fails to open ''). */
	OK(MD5, H32 "  a\0b", "a", H32, false, FH_MD5, 0),
	OK(MD5, H32 " a\0b", "a", H32, false, FH_MD5, 1),
	OK(MD5, H32 " \0", "", H32, false, FH_MD5, 1),
	OK(MD5, H32 " \0xyz", "", H32, false, FH_MD5, 1),
	OK(MD5, H32 "  \0", "", H32, false, FH_MD5, 0),
	OK(MD5, H32 "  \0\0\0", "", H32, false, FH_MD5, 0),
	BAD(MD5, H32 "\0 a", -1),
	BAD(MD5, H32 "\0", -1),
	BAD(MD5, "\0" H32 "  a", -1),
	BAD(MD5, "\0", -1),
	BAD(MD5, "\0\0\0\0", -1),
	BAD(MD5, "b1946ac92492d2347c6235b4d261118\0  a", -1),

	/* Wrong digests. */
	BAD(MD5, "1946ac92492d2347c6235b4d2611184  a", -1),
	BAD(MD5, H32 "0  a", -1),
	BAD(MD5, H32 "0 a", -1),
	BAD(MD5, "b1946ac92492d2347c6235b4d261118g  a", -1),
	BAD(MD5, "g1946ac92492d2347c6235b4d2611184  a", -1),
	BAD(MD5, "b1946ac92492d2347c6235b4d261118  a", -1),
	BAD(MD5, "  a", -1),
	BAD(MD5, "a", -1),
	BAD(MD5, "*" H32 "  a", -1),
	/* An improper digest leaves the latch alone. */
	BAD(MD5, "b1946ac92492d2347c6235b4d261118g a", -1),

	/* "-" is the list itself when the list is standard input: improper,
	 * though the latch has already moved. */
	OK(MD5, H32 "  -", "-", H32, false, FH_MD5, 0),
	BAD(MD5_IN, H32 "  -", 0),
	BAD(MD5_IN, H32 " -", 1),
	/* After a reversed line "HEX  -" names " -". */
	OK(MD5_IN_L1, H32 "  -", " -", H32, false, FH_MD5, 1),
	BAD(MD5_IN_L1, H32 " -", 1),
	BAD(MD5_IN, H32 "  -\0x", 0),
	BAD(MD5_IN, H32 "  -\r", 0),
	BAD(MD5_IN, "MD5 (-) = " H32, -1),
	BAD(MD5_IN, "\\MD5 (-) = " H32, -1),
	OK(MD5_IN, H32 "  -x", "-x", H32, false, FH_MD5, 0),
	OK(MD5_IN, H32 "  --", "--", H32, false, FH_MD5, 0),
	OK(MD5_IN, H32 "   -", " -", H32, false, FH_MD5, 0),
	OK(MD5_IN, "MD5 (./-) = " H32, "./-", H32, false, FH_MD5, -1),

	/* Escaped names: only \\, \n and \r. */
	OK(MD5, "\\" H32 "  b\\\\c", "b\\c", H32, false, FH_MD5, 0),
	OK(MD5, "\\" H32 "  n\\nl", "n\nl", H32, false, FH_MD5, 0),
	OK(MD5, "\\" H32 "  c\\rr", "c\rr", H32, false, FH_MD5, 0),
	OK(MD5, "\\" H32 "  a", "a", H32, false, FH_MD5, 0),
	OK(MD5, "\\" H32 " *a", "a", H32, true, FH_MD5, 0),
	OK(MD5, "\\" H32 " a", "a", H32, false, FH_MD5, 1),
	OK(MD5, "\\" H32 "  \\\\\\n\\r", "\\\n\r", H32, false, FH_MD5, 0),
	OK(MD5, "\\" H32 "  \\\\\\\\", "\\\\", H32, false, FH_MD5, 0),
	OK(MD5, " \\" H32 "  a", "a", H32, false, FH_MD5, 0),
	OK(MD5, "\\" H32 "  a\r", "a", H32, false, FH_MD5, 0),
	BAD(MD5, "\\ " H32 "  a", -1),
	BAD(MD5, "\\\\" H32 "  a", -1),
	BAD(MD5, "\\" H32 "  b\\c", 0),
	BAD(MD5, "\\" H32 "  b\\", 0),
	BAD(MD5, "\\" H32 "  b\\\\\\", 0),
	BAD(MD5, "\\" H32 "  \\t", 0),
	BAD(MD5, "\\" H32 "  \\0", 0),
	BAD(MD5, "\\" H32 "  \\N", 0),
	BAD(MD5, "\\" H32 "  a\0b", 0),
	BAD(MD5, "\\" H32 "  a\0", 0),
	/* The latch moves before the name is found improper. */
	BAD(MD5, "\\" H32 " b\\c", 1),
	BAD(MD5, "\\" H32 " \0", 1),
	/* Unescaped, a backslash is an ordinary byte. */
	OK(MD5, H32 "  b\\c", "b\\c", H32, false, FH_MD5, 0),
	OK(MD5, H32 "  b\\", "b\\", H32, false, FH_MD5, 0),
	OK(MD5, H32 "  \\n", "\\n", H32, false, FH_MD5, 0),

	/* Tagged lines: one optional space, name to the last ')', blanks
	 * around '=', the exact digest to the end of the line. */
	OK(MD5, "MD5 (a) = " H32, "a", H32, false, FH_MD5, -1),
	OK(MD5_L0, "MD5 (a) = " H32, "a", H32, false, FH_MD5, 0),
	OK(MD5_L1, "MD5 (a) = " H32, "a", H32, false, FH_MD5, 1),
	OK(MD5, "MD5(a)= " H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5(a)=" H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a)=" H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a)  =  \t" H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a)\t=\t" H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (x) = y) = " H32, "x) = y", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a)b) = " H32, "a)b", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 ((a)) = " H32, "(a)", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 ( a ) = " H32, " a ", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a) = " H32U, "a", H32U, false, FH_MD5, -1),
	OK(MD5, "  MD5 (a) = " H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "\t MD5 (a) = " H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 () = " H32, "", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 ()= " H32, "", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (b\\c) = " H32, "b\\c", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a=b) = " H32, "a=b", H32, false, FH_MD5, -1),
	/* GNU stops at a NUL: in the name, and after the digest. */
	OK(MD5, "MD5 (a\0b) = " H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (\0) = " H32, "", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a) = " H32 "\0junk", "a", H32, false, FH_MD5, -1),
	OK(MD5, "MD5 (a) = " H32 "\0", "a", H32, false, FH_MD5, -1),
	BAD(MD5, "MD5 (a)\0 = " H32, -1),
	BAD(MD5, "MD5 (a) = \0" H32, -1),
	BAD(MD5, "MD5 (a) = " H32 " ", -1),
	BAD(MD5, "MD5 (a) = " H32 "\t", -1),
	BAD(MD5, "MD5 (a) = " H32 " \0", -1),
	BAD(MD5, "MD5 (a) = " H32 "0", -1),
	BAD(MD5, "MD5 (a) = 1946ac92492d2347c6235b4d2611184", -1),
	BAD(MD5, "MD5 (a) = b1946ac92492d2347c6235b4d261118g", -1),
	BAD(MD5, "MD5 (a) = " H32 ")", -1),
	BAD(MD5, "MD5 (a) = " H32 "\r\r", -1),
	BAD(MD5, "MD5  (a) = " H32, -1),
	BAD(MD5, "MD5\t(a) = " H32, -1),
	BAD(MD5, "md5 (a) = " H32, -1),
	BAD(MD5, "Md5 (a) = " H32, -1),
	BAD(MD5, "mD5(a)= " H32, -1),
	BAD(MD5, "MD5x (a) = " H32, -1),
	BAD(MD5, "MD5x(a) = " H32, -1),
	BAD(MD5, "SHA1 (a) = " H32, -1),
	BAD(MD5, "MD5 (a) =", -1),
	BAD(MD5, "MD5 (a) = ", -1),
	BAD(MD5, "MD5 (a)", -1),
	BAD(MD5, "MD5 (a = " H32, -1),
	BAD(MD5, "MD5 a) = " H32, -1),
	BAD(MD5, "MD5 (a) " H32, -1),
	BAD(MD5, "MD5 (a) = = " H32, -1),
	BAD(MD5, "MD5 (a) == " H32, -1),
	BAD(MD5, "MD5", -1),
	BAD(MD5, "MD5 ", -1),
	BAD(MD5, "MD5 (", -1),
	BAD(MD5, "MD5 ()", -1),
	BAD(MD5, "MD5 () =", -1),
	BAD(MD5, "(a) = " H32, -1),
	BAD(MD5, " (a) = " H32, -1),
	/* Escaped tagged names. */
	OK(MD5, "\\MD5 (a) = " H32, "a", H32, false, FH_MD5, -1),
	OK(MD5, "\\MD5 (b\\\\c) = " H32, "b\\c", H32, false, FH_MD5, -1),
	OK(MD5, "\\MD5 (n\\nl) = " H32, "n\nl", H32, false, FH_MD5, -1),
	OK(MD5, "\\MD5 (c\\rr) = " H32, "c\rr", H32, false, FH_MD5, -1),
	OK(MD5, " \\MD5(a)=" H32, "a", H32, false, FH_MD5, -1),
	BAD(MD5, "\\MD5 (b\\c) = " H32, -1),
	BAD(MD5, "\\MD5 (b\\) = " H32, -1),
	BAD(MD5, "\\MD5 (a\0b) = " H32, -1),
	BAD(MD5, "\\ MD5 (a) = " H32, -1),

	/* Every algorithm by tag, without -a. */
	OK(ALL, "MD5 (a) = " H32, "a", H32, false, FH_MD5, -1),
	OK(ALL, "SHA3-224 (a) = " H56, "a", H56, false, FH_SHA3_224, -1),
	OK(ALL, "SHA3-256 (a) = " H64, "a", H64, false, FH_SHA3_256, -1),
	OK(ALL, "SHA3-384 (a) = " H96, "a", H96, false, FH_SHA3_384, -1),
	OK(ALL, "SHA3-512 (a) = " H128, "a", H128, false, FH_SHA3_512, -1),
	OK(ALL, "SHAKE128 (a) = " H64, "a", H64, false, FH_SHAKE128, -1),
	OK(ALL, "SHAKE256 (a) = " H128, "a", H128, false, FH_SHAKE256, -1),
	/* An extendable-output tag carries the default length, or states
	 * its own in bits: a digest cut short is improper. */
	BAD(ALL, "SHAKE128 (a) = ab", -1),
	BAD(ALL, "SHAKE256 (a) = " H32, -1),
	OK(ALL, "SHAKE128-8 (a) = ab", "a", "ab", false, FH_SHAKE128, -1),
	OK(ALL, "SHAKE256-128 (a) = " H32, "a", H32, false, FH_SHAKE256, -1),
	OK(ALL, "SHAKE128-512(a)= " H128, "a", H128, false, FH_SHAKE128, -1),
	BAD(ALL, "SHAKE128-16 (a) = ab", -1),
	BAD(ALL, "SHAKE128-0 (a) = ", -1),
	BAD(ALL, "SHAKE128-12 (a) = ab", -1),
	BAD(ALL, "SHAKE128-08 (a) = ab", -1),
	BAD(ALL, "SHAKE128- (a) = ab", -1),
	BAD(ALL, "SHAKE128-8x (a) = ab", -1),
	BAD(ALL, "SHA3-256-256 (a) = " H64, -1),
	BAD(ALL, "MD5-128 (a) = " H32, -1),
	OK(ALL, "SHA3-256(a)= " H64, "a", H64, false, FH_SHA3_256, -1),
	OK(ALL, "SHA3-256(a)=" H64, "a", H64, false, FH_SHA3_256, -1),
	OK(ALL, "\\SHA3-384 (n\\nl) = " H96, "n\nl", H96, false, FH_SHA3_384,
	   -1),
	BAD(ALL, "SHA3-256 (a) = " H56, -1),
	BAD(ALL, "SHA3-224 (a) = " H64, -1),
	BAD(ALL, "SHA3-512 (a) = " H96, -1),
	BAD(ALL, "MD5 (a) = " H64, -1),
	BAD(ALL, "SHAKE128 (a) = abc", -1),
	BAD(ALL, "SHAKE128 (a) = a", -1),
	BAD(ALL, "SHAKE128 (a) = ", -1),
	BAD(ALL, "SHAKE128 (a) = " H64 " ", -1),
	BAD(ALL, "sha3-256 (a) = " H64, -1),
	BAD(ALL, "Sha3-256 (a) = " H64, -1),
	BAD(ALL, "shake128 (a) = " H64, -1),
	BAD(ALL, "SHA3-2560 (a) = " H64, -1),
	BAD(ALL, "SHA3-25 (a) = " H64, -1),
	BAD(ALL, "SHA3 (a) = " H64, -1),
	BAD(ALL, "SHA3-256  (a) = " H64, -1),
	OK(ALL, "SHA256 (a) = " H64, "a", H64, false, FH_SHA256, -1),
	OK(ALL, "SHA1 (a) = " X16 X16 "01234567", "a", X16 X16 "01234567", false,
	   FH_SHA1, -1),
	OK(ALL, "SHA512 (a) = " H128, "a", H128, false, FH_SHA512, -1),
	BAD(ALL, "SHA384 (a) = " H128, -1),
	BAD(ALL, "SHAKE128 (a) = " H64 "g", -1),
	/* Every algorithm by hex length, without -a; SHAKE needs -a. */
	OK(ALL, H32 "  a", "a", H32, false, FH_MD5, 0),
	OK(ALL, H56 "  a", "a", H56, false, FH_SHA3_224, 0),
	OK(ALL, H64 "  a", "a", H64, false, FH_SHA3_256, 0),
	OK(ALL, H96 "  a", "a", H96, false, FH_SHA3_384, 0),
	OK(ALL, H128 " *a", "a", H128, true, FH_SHA3_512, 0),
	OK(ALL, H64 " a", "a", H64, false, FH_SHA3_256, 1),
	OK(ALL, "\\" H128 "  \\\\", "\\", H128, false, FH_SHA3_512, 0),
	BAD(ALL, "ab  a", -1),
	BAD(ALL, X16 X16 X16 "  a", -1),
	BAD(ALL, H64 "0  a", -1),
	BAD(ALL, H32 "0  a", -1),
	BAD(ALL, "0  a", -1),

	/* -a md5: untagged lines are MD5; a tag of another algorithm is
	 * improper, as GNU counts it. */
	BAD(MD5, "SHA3-256 (a) = " H64, -1),
	BAD(MD5, H64 "  a", -1),
	/* -a sha3-NNN: untagged lines of that length; its own tag only. */
	OK(SHA3_256, "SHA3-256 (a) = " H64, "a", H64, false, FH_SHA3_256, -1),
	OK(SHA3_256, H64 "  a", "a", H64, false, FH_SHA3_256, 0),
	OK(SHA3_256, H64 " a", "a", H64, false, FH_SHA3_256, 1),
	BAD(SHA3_256, "SHA3-224 (a) = " H56, -1),
	BAD(SHA3_256, "SHA3-224 (a) = " H64, -1),
	BAD(SHA3_256, "MD5 (a) = " H32, -1),
	BAD(SHA3_256, "SHA3-256 (a) = " H56, -1),
	BAD(SHA3_256, H32 "  a", -1),
	BAD(SHA3_256, H56 "  a", -1),
	BAD(SHA3_256, H128 "  a", -1),
	OK(SHA3_224, H56 "  a", "a", H56, false, FH_SHA3_224, 0),
	OK(SHA3_224, "SHA3-224(a)= " H56, "a", H56, false, FH_SHA3_224, -1),
	BAD(SHA3_224, "SHA3-256 (a) = " H64, -1),
	OK(SHA3_512, H128 "  a", "a", H128, false, FH_SHA3_512, 0),
	BAD(SHA3_512, H96 "  a", -1),
	/* -a sha3 without -l: any SHA3-NNN, never MD5 or SHAKE. */
	OK(SHA3_ANY, "SHA3-224 (a) = " H56, "a", H56, false, FH_SHA3_224, -1),
	OK(SHA3_ANY, "SHA3-512 (a) = " H128, "a", H128, false, FH_SHA3_512,
	   -1),
	OK(SHA3_ANY, H56 "  a", "a", H56, false, FH_SHA3_224, 0),
	OK(SHA3_ANY, H64 "  a", "a", H64, false, FH_SHA3_256, 0),
	OK(SHA3_ANY, H96 "  a", "a", H96, false, FH_SHA3_384, 0),
	OK(SHA3_ANY, H128 "  a", "a", H128, false, FH_SHA3_512, 0),
	BAD(SHA3_ANY, "MD5 (a) = " H32, -1),
	BAD(SHA3_ANY, "SHAKE128 (a) = " H64, -1),
	BAD(SHA3_ANY, "SHA3-256 (a) = " H56, -1),
	BAD(SHA3_ANY, H32 "  a", -1),
	/* xxhsum 0.8.2's "XXH3_HEX  NAME": its prefix names the algorithm,
	 * which -a must admit like a tag's. */
	OK(ALL, "XXH3_" X16 "  a", "a", X16, false, FH_XXH3, 0),
	BAD(MD5, "XXH3_" X16 "  a", -1),
	BAD(SHA3_ANY, "XXH3_" X16 "  a", -1),
	/* A GNU line of a digest in decimal digits and a name that starts
	 * with digits and a space is no cksum or sum line (test_forms). */
	OK(ALL, "12345678  2 files", "2 files", "12345678", false, FH_CRC, 0),
	OK(ALL, "00000004  6 ", "6 ", "00000004", false, FH_CRC, 0),
	/* -a shake128 without -l: any whole number of bytes. */
	OK(SHAKE128, "ab  a", "a", "ab", false, FH_SHAKE128, 0),
	OK(SHAKE128, H32 "  a", "a", H32, false, FH_SHAKE128, 0),
	OK(SHAKE128, H64 " a", "a", H64, false, FH_SHAKE128, 1),
	BAD(SHAKE128, "SHAKE128 (a) = ab", -1),
	OK(SHAKE128, "SHAKE128-8 (a) = ab", "a", "ab", false, FH_SHAKE128, -1),
	OK(SHAKE128, "SHAKE128(a)=" H64, "a", H64, false, FH_SHAKE128, -1),
	BAD(SHAKE128, "SHAKE128(a)=" H128, -1),
	BAD(SHAKE128, "abc  a", -1),
	BAD(SHAKE128, "a  a", -1),
	BAD(SHAKE128, "  a", -1),
	BAD(SHAKE128, "SHAKE256 (a) = " H128, -1),
	BAD(SHAKE128, "SHA3-256 (a) = " H64, -1),
	BAD(SHAKE128, "SHAKE128 (a) = abc", -1),
	OK(SHAKE256, "SHAKE256 (a) = " H128, "a", H128, false, FH_SHAKE256,
	   -1),
	BAD(SHAKE256, "SHAKE128 (a) = " H64, -1),
	/* -a shake128 -l 256: exactly 64 digits. */
	OK(SHAKE128_32, H64 "  a", "a", H64, false, FH_SHAKE128, 0),
	OK(SHAKE128_32, "SHAKE128 (a) = " H64, "a", H64, false, FH_SHAKE128,
	   -1),
	BAD(SHAKE128_32, H32 "  a", -1),
	BAD(SHAKE128_32, H128 "  a", -1),
	BAD(SHAKE128_32, "SHAKE128 (a) = " H32, -1),
	BAD(SHAKE128_32, "SHAKE128 (a) = " H64 "00", -1),
	/* A length in the tag rules over -l's. */
	OK(SHAKE128_32, "SHAKE128-64 (a) = " X16, "a", X16, false, FH_SHAKE128,
	   -1),
	OK(SHAKE256_64, H128 "  a", "a", H128, false, FH_SHAKE256, 0),
	BAD(SHAKE256_64, H64 "  a", -1),
};

/* Bytes as C escapes, for failure messages; at most 60 of them. */
static void print_bytes(const char *s, size_t n)
{
	putchar('"');
	for (size_t i = 0; i < n && i < 60; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == '"')
			printf("\\%c", c);
		else if (c >= 32 && c < 127)
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	printf(n > 60 ? "\"... (%zu bytes)" : "\"", n);
}

static const struct fh_algo *algo_of(int id)
{
	return id == NOALGO ? NULL : fh_algo_get((enum fh_algo_id)id);
}

static const char *kind_name(enum fh_line_kind k)
{
	return k == FH_LINE_OK ? "OK" : k == FH_LINE_BAD ? "BAD"
	     : k == FH_LINE_UNSUPPORTED ? "UNSUPPORTED" : "SKIP";
}

/* Whether [p, p + n) lies inside [buf, buf + len). */
static bool inside(const char *p, size_t n, const char *buf, size_t len)
{
	return p >= buf && p <= buf + len && n <= (size_t)(buf + len - p);
}

/* Parses LINE (LEN bytes, copied to a buffer of exactly that size) with
 * P and checks the result against the expectations; returns the kind. */
static bool run_case(struct fh_list_parser *p, const char *line, size_t len,
		     const struct pcase *want, const char *label)
{
	char *buf = malloc(len ? len : 1);
	struct fh_list_line out;
	enum fh_line_kind kind;
	const char *why = NULL;
	int latch_before = p->reversed;

	if (!buf) {
		perror("malloc");
		exit(1);
	}
	memcpy(buf, line, len);
	kind = fh_list_parse(p, buf, len, &out);
	n_cases++;
	if (kind != want->kind) {
		why = "kind";
	} else if (kind == FH_LINE_OK) {
		size_t hexlen = strlen(want->hex);

		if (!inside(out.name, out.namelen, buf, len) ||
		    !inside(out.digest, out.digestlen, buf, len))
			why = "pointer outside the line";
		else if (out.namelen != want->namelen ||
			 memcmp(out.name, want->name, want->namelen) != 0)
			why = "name";
		else if (out.digestlen != hexlen ||
			 memcmp(out.digest, want->hex, hexlen) != 0)
			why = "hex";
		else if (out.binary != want->binary)
			why = "binary";
		else if (!out.algo || (int)out.algo->id != want->algo)
			why = "algo";
	}
	if (!why && p->reversed !=
			    (want->latch == SAME ? latch_before : want->latch))
		why = "latch";
	if (why) {
		n_failed++;
		printf("FAIL %s: ", label);
		print_bytes(line, len);
		printf(": %s: got %s", why, kind_name(kind));
		if (kind == FH_LINE_OK) {
			printf(" name ");
			print_bytes(out.name, out.namelen);
			printf(" hex ");
			print_bytes(out.digest, out.digestlen);
			printf(" binary %d algo %s", out.binary,
			       out.algo ? out.algo->name : "NULL");
		}
		printf(" latch %d, want %s\n", p->reversed,
		       kind_name(want->kind));
	}
	free(buf);
	return !why;
}

static void init_cfg(struct fh_list_parser *p, const struct cfg *c)
{
	fh_list_parser_init(p, algo_of(c->algo),
			    c->any_sha3 ? fh_algo_row_by_name("sha3") : NULL,
			    c->outlen);
	p->list_is_stdin = c->is_stdin;
	p->reversed = c->latch;
}

static void test_table(void)
{
	char label[64];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fh_list_parser p;

		init_cfg(&p, &cases[i].cfg);
		snprintf(label, sizeof label, "table[%zu]", i);
		run_case(&p, cases[i].line, cases[i].len, &cases[i], label);
	}
}

/* The latch lives in the parser and carries across lines and lists. */
static void test_latch_sequences(void)
{
	static const struct pcase gnu_first[] = {
		OK(MD5, H32 "  a", "a", H32, false, FH_MD5, 0),
		BAD(MD5, H32 " a", 0),
		OK(MD5, "MD5 (a) = " H32, "a", H32, false, FH_MD5, 0),
		OK(MD5, H32 " *a", "a", H32, true, FH_MD5, 0),
		BAD(MD5, H32 "  ", 0),
	};
	static const struct pcase rev_first[] = {
		BAD(MD5, "\\" H32 " b\\c", 1),
		OK(MD5, H32 "  a", " a", H32, false, FH_MD5, 1),
		OK(MD5, H32 " a", "a", H32, false, FH_MD5, 1),
		OK(MD5, H32 " *a", "*a", H32, false, FH_MD5, 1),
	};
	static const struct pcase tagged_first[] = {
		OK(MD5, "MD5 (a) = " H32, "a", H32, false, FH_MD5, -1),
		BAD(MD5, "b1946ac92492d2347c6235b4d261118g a", -1),
		SKIP(MD5, "# H32 a"),
		OK(MD5, H32 " a", "a", H32, false, FH_MD5, 1),
		OK(MD5, H32 "  a", " a", H32, false, FH_MD5, 1),
	};
	const struct { const struct pcase *c; size_t n; } seqs[] = {
		{ gnu_first, sizeof gnu_first / sizeof gnu_first[0] },
		{ rev_first, sizeof rev_first / sizeof rev_first[0] },
		{ tagged_first, sizeof tagged_first / sizeof tagged_first[0] },
	};
	char label[64];

	for (size_t s = 0; s < sizeof seqs / sizeof seqs[0]; s++) {
		struct fh_list_parser p;

		fh_list_parser_init(&p, fh_algo_get(FH_MD5), NULL, 0);
		for (size_t i = 0; i < seqs[s].n; i++) {
			snprintf(label, sizeof label, "sequence %zu line %zu",
				 s, i + 1);
			run_case(&p, seqs[s].c[i].line, seqs[s].c[i].len,
				 &seqs[s].c[i], label);
		}
	}
}

/* LINE in a new buffer of exactly its length, no terminator, so that a
 * parser reading past the line's end meets the sanitizer; its length in
 * *LEN. */
static char *copy_line(const char *line, size_t *len)
{
	char *buf;

	*len = strlen(line);
	buf = malloc(*len ? *len : 1);
	if (!buf) {
		perror("malloc");
		exit(1);
	}
	memcpy(buf, line, *len);
	return buf;
}

/* Builds PREFIX, N copies of FILL and SUFFIX in a new buffer. */
static char *build(const char *prefix, char fill, size_t n,
		   const char *suffix, size_t *len)
{
	size_t pl = strlen(prefix), sl = strlen(suffix);
	char *s = malloc(pl + n + sl + 1);

	if (!s) {
		perror("malloc");
		exit(1);
	}
	memcpy(s, prefix, pl);
	memset(s + pl, fill, n);
	memcpy(s + pl + n, suffix, sl + 1);
	*len = pl + n + sl;
	return s;
}

/* Lines of a MiB and more: nothing is limited but SHAKE's length. */
static void test_long_lines(void)
{
	const size_t big = (size_t)1 << 20;
	const size_t xmax = 2 * (size_t)FH_MAX_XOF_BYTES;
	struct pcase want;
	struct fh_list_parser p;
	char *line, *name;
	size_t len;

	name = build("", 'x', big, "", &len);

	/* An untagged 1 MiB name. */
	line = build(H32 "  ", 'x', big, "", &len);
	want = (struct pcase){ MD5, line, len, FH_LINE_OK, name, big, H32,
			       false, FH_MD5, 0 };
	fh_list_parser_init(&p, fh_algo_get(FH_MD5), NULL, 0);
	run_case(&p, line, len, &want, "1 MiB untagged name");
	free(line);

	/* A tagged one, and one made of ')': the last closes it. */
	line = build("MD5 (", 'x', big, ") = " H32, &len);
	want.latch = -1;
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len, &want, "1 MiB tagged name");
	free(line);
	line = build("MD5 (", ')', big, " = " H32, &len);
	memset(name, ')', big);
	want.namelen = big - 1;
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len, &want, "1 MiB of ')'");
	free(line);

	/* An escaped one: 2 MiB of "\\" unescape to 1 MiB of '\'. */
	line = build("\\" H32 "  ", '\\', 2 * big, "", &len);
	memset(name, '\\', big);
	want = (struct pcase){ MD5, line, len, FH_LINE_OK, name, big, H32,
			       false, FH_MD5, 0 };
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len, &want, "1 MiB escaped name");
	/* The same with an odd count of '\' ends in a lone one. */
	want = (struct pcase){ MD5, line, len - 1, FH_LINE_BAD, NULL, 0, NULL,
			       false, 0, 0 };
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len - 1, &want, "odd backslashes");
	free(line);
	free(name);

	/* 1 MiB of hex, of blanks, of NULs, of '(': all improper. */
	want = (struct pcase){ ALL, NULL, 0, FH_LINE_BAD, NULL, 0, NULL,
			       false, 0, -1 };
	line = build("", 'a', big, "  a", &len);
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len, &want, "1 MiB of hex");
	fh_list_parser_init(&p, fh_algo_get(FH_SHAKE256), NULL, 0);
	run_case(&p, line, len, &want, "1 MiB of hex, SHAKE");
	free(line);
	line = build("", ' ', big, "", &len);
	run_case(&p, line, len, &want, "1 MiB of spaces");
	free(line);
	line = build("", '\0', big, "", &len);
	run_case(&p, line, len, &want, "1 MiB of NULs");
	free(line);
	line = build("MD5 ", '(', big, "", &len);
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len, &want, "1 MiB of '('");
	free(line);

	/* SHAKE's longest digest, 2^20 bits, and one byte more. */
	name = build("", 'e', xmax, "", &len);
	line = build("SHAKE256-1048576 (a) = ", 'e', xmax, "", &len);
	want = (struct pcase){ ALL, line, len, FH_LINE_OK, "a", 1, name,
			       false, FH_SHAKE256, -1 };
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len, &want, "longest SHAKE digest, tagged");
	free(line);
	line = build("", 'e', xmax, "  a", &len);
	want.latch = 0;
	fh_list_parser_init(&p, fh_algo_get(FH_SHAKE256), NULL, 0);
	run_case(&p, line, len, &want, "longest SHAKE digest");
	free(line);
	free(name);
	want = (struct pcase){ ALL, NULL, 0, FH_LINE_BAD, NULL, 0, NULL,
			       false, 0, -1 };
	line = build("SHAKE128 (a) = ", 'e', xmax + 2, "", &len);
	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, len, &want, "SHAKE digest too long, tagged");
	free(line);
	line = build("", 'e', xmax + 2, "  a", &len);
	fh_list_parser_init(&p, fh_algo_get(FH_SHAKE128), NULL, 0);
	run_case(&p, line, len, &want, "SHAKE digest too long");
	free(line);
}

static void expect(bool ok, const char *what)
{
	n_cases++;
	if (!ok) {
		n_failed++;
		printf("FAIL %s\n", what);
	}
}

/* Output as md5sum 9.1 prints it for the same names and options. */
static void test_format(void)
{
	static const struct {
		int algo;
		const char *name;
		size_t namelen;
		int flags;
		const char *line;
		size_t len;
	} fcases[] = {
		{ FH_MD5, S("a"), 0, S(H32 "  a\n") },
		{ FH_MD5, S("a"), FH_FMT_BINARY, S(H32 " *a\n") },
		{ FH_MD5, S("a"), FH_FMT_TAG, S("MD5 (a) = " H32 "\n") },
		/* --tag shows no mode. */
		{ FH_MD5, S("a"), FH_FMT_TAG | FH_FMT_BINARY,
		  S("MD5 (a) = " H32 "\n") },
		{ FH_MD5, S("a"), FH_FMT_ZERO, S(H32 "  a\0") },
		{ FH_MD5, S("a"), FH_FMT_TAG | FH_FMT_ZERO,
		  S("MD5 (a) = " H32 "\0") },
		{ FH_MD5, S("a"), FH_FMT_BINARY | FH_FMT_ZERO, S(H32 " *a\0") },
		{ FH_MD5, S(" a"), 0, S(H32 "   a\n") },
		{ FH_MD5, S("-"), 0, S(H32 "  -\n") },
		{ FH_MD5, S("a\tb c"), 0, S(H32 "  a\tb c\n") },
		{ FH_MD5, S("b\\c"), 0, S("\\" H32 "  b\\\\c\n") },
		{ FH_MD5, S("b\\c"), FH_FMT_BINARY, S("\\" H32 " *b\\\\c\n") },
		{ FH_MD5, S("b\\c"), FH_FMT_TAG, S("\\MD5 (b\\\\c) = " H32 "\n") },
		{ FH_MD5, S("b\\c"), FH_FMT_ZERO, S(H32 "  b\\c\0") },
		{ FH_MD5, S("b\\c"), FH_FMT_TAG | FH_FMT_ZERO,
		  S("MD5 (b\\c) = " H32 "\0") },
		{ FH_MD5, S("b\\c"), FH_FMT_BINARY | FH_FMT_ZERO,
		  S(H32 " *b\\c\0") },
		{ FH_MD5, S("n\nl"), 0, S("\\" H32 "  n\\nl\n") },
		{ FH_MD5, S("n\nl"), FH_FMT_TAG, S("\\MD5 (n\\nl) = " H32 "\n") },
		{ FH_MD5, S("n\nl"), FH_FMT_ZERO, S(H32 "  n\nl\0") },
		{ FH_MD5, S("c\rr"), 0, S("\\" H32 "  c\\rr\n") },
		{ FH_MD5, S("c\rr"), FH_FMT_TAG, S("\\MD5 (c\\rr) = " H32 "\n") },
		{ FH_MD5, S("c\rr"), FH_FMT_ZERO, S(H32 "  c\rr\0") },
		{ FH_MD5, S("\\\n\r\\"), 0, S("\\" H32 "  \\\\\\n\\r\\\\\n") },
		{ FH_SHA3_224, S("a"), FH_FMT_TAG, S("SHA3-224 (a) = " H56 "\n") },
		{ FH_SHA3_256, S("a"), FH_FMT_TAG, S("SHA3-256 (a) = " H64 "\n") },
		{ FH_SHA3_384, S("a"), 0, S(H96 "  a\n") },
		{ FH_SHA3_512, S("a"), FH_FMT_TAG, S("SHA3-512 (a) = " H128 "\n") },
		{ FH_SHAKE128, S("a"), FH_FMT_TAG, S("SHAKE128-8 (a) = ab\n") },
		{ FH_SHAKE256, S("x)"), FH_FMT_TAG,
		  S("SHAKE256-128 (x)) = " H32 "\n") },
		{ FH_MD5, S(""), 0, S(H32 "  \n") },
		{ FH_MD5, S(""), FH_FMT_TAG, S("MD5 () = " H32 "\n") },
	};
	static const char *hexes[] = { H32, H56, H64, H96, H128, "ab", H32 };
	char buf[512], what[80];

	for (size_t i = 0; i < sizeof fcases / sizeof fcases[0]; i++) {
		const struct fh_algo *a = fh_algo_get(fcases[i].algo);
		const char *hex = hexes[fcases[i].algo];
		size_t n;

		n = fh_format_line(buf, a, hex, strlen(hex), fcases[i].name,
				   fcases[i].namelen, fcases[i].flags);
		snprintf(what, sizeof what, "format[%zu]", i);
		expect(n == fcases[i].len &&
			       memcmp(buf, fcases[i].line, n) == 0 &&
			       n <= fh_format_size(strlen(hex),
						   fcases[i].namelen),
		       what);
	}
	/* Digests come out in lower case. */
	{
		size_t n = fh_format_line(buf, fh_algo_get(FH_MD5), H32U, 32,
					  "a", 1, 0);

		expect(n == 36 && memcmp(buf, H32 "  a\n", 36) == 0,
		       "format lowers the digest");
	}

	expect(!fh_name_needs_escape("abc", 3), "needs_escape abc");
	expect(!fh_name_needs_escape("", 0), "needs_escape empty");
	expect(!fh_name_needs_escape("a\tb\v\f c\x7f\xff", 10),
	       "needs_escape tab and others");
	expect(fh_name_needs_escape("a\\", 2), "needs_escape backslash");
	expect(fh_name_needs_escape("\n", 1), "needs_escape LF");
	expect(fh_name_needs_escape("x\r", 2), "needs_escape CR");
	/* Only the first LEN bytes count. */
	expect(!fh_name_needs_escape("ab\\", 2), "needs_escape length");
	{
		size_t n = fh_escape_name(buf, "a\\b\nc\rd\0e", 9, true);

		expect(n == 12 && memcmp(buf, "a\\\\b\\nc\\rd\0e", 12) == 0,
		       "escape_name escapes");
		n = fh_escape_name(buf, "a\\b\nc", 5, false);
		expect(n == 5 && memcmp(buf, "a\\b\nc", 5) == 0,
		       "escape_name copies");
	}
}

static void test_unhex(void)
{
	uint8_t b[8] = { 0 };

	expect(fh_unhex(b, "00ff7A", 6) && b[0] == 0 && b[1] == 0xff &&
		       b[2] == 0x7a,
	       "unhex 00ff7A");
	expect(fh_unhex(b, "aBcDeF09", 8) && b[0] == 0xab && b[1] == 0xcd &&
		       b[2] == 0xef && b[3] == 0x09,
	       "unhex mixed case");
	expect(fh_unhex(b, "", 0), "unhex empty");
	expect(!fh_unhex(b, "0g", 2), "unhex g");
	expect(!fh_unhex(b, "g0", 2), "unhex leading g");
	expect(!fh_unhex(b, " 0", 2), "unhex space");
	expect(!fh_unhex(b, "0\0", 2), "unhex NUL");
	expect(!fh_unhex(b, "abc", 3), "unhex odd length");
}

/* splitmix64, so that every run tries the same names. */
static uint64_t rng_state = 0x5eed;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A random name without NUL (GNU cannot list those), rich in the bytes
 * the formats treat specially. */
static size_t random_name(char *name, size_t max)
{
	static const char special[] = "\\\n\r ()=*-#\t\\nr";
	size_t n = 1 + rng() % max;

	for (size_t i = 0; i < n; i++) {
		if (rng() % 2)
			name[i] = special[rng() % (sizeof special - 1)];
		else
			name[i] = (char)(1 + rng() % 255);
	}
	return n;
}

/* Without -a, a line is cksum's or sum's when it has their shape: the
 * value, one space, the size and a space, or sum -r's five digits and a
 * size in five columns.  Their value is held as hex in the line's own
 * buffer, as the first form algorithm's (the run settles which). */
static void test_forms(void)
{
	static const struct {
		const char *line, *name, *hex;
	} forms[] = {
		{ "12345678 2 files", "files", "00bc614e" }, /* reversed GNU too */
		{ "00120     1 a", "a", "00000078" },
		{ "00120 123456 a", "a", "00000078" },
		{ "00120    1 a", NULL, NULL },     /* four columns: no */
		{ "1234  5 a", NULL, NULL },        /* two spaces: no */
	};

	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		struct fh_list_parser p;
		struct fh_list_line out;
		size_t len;
		char *buf = copy_line(forms[i].line, &len);
		enum fh_line_kind k;
		bool ok;

		fh_list_parser_init(&p, NULL, NULL, 0);
		k = fh_list_parse(&p, buf, len, &out);
		if (!forms[i].name)
			ok = k == FH_LINE_BAD;
		else
			ok = k == FH_LINE_OK && out.algo == fh_algo_get(FH_CRC) &&
			     out.namelen == strlen(forms[i].name) &&
			     memcmp(out.name, forms[i].name, out.namelen) == 0 &&
			     out.digestlen == 8 &&
			     memcmp(out.digest, forms[i].hex, 8) == 0;
		n_cases++;
		if (!ok) {
			n_failed++;
			printf("FAIL form \"%s\": got %s\n", forms[i].line,
			       kind_name(k));
		}
		free(buf);
	}
}

/* Formats random names and parses them back: the same name, digest, mode
 * and algorithm, for every algorithm and form. */
static void test_round_trip(void)
{
	static const int flag_sets[] = { 0, FH_FMT_BINARY, FH_FMT_TAG };
	static const char *hexes[FH_ALGO_COUNT] = {
		H32, H56, H64, H96, H128, "0a", H96,    /* md5 .. shake256 */
		H64, "0b", H128, H32,   /* turboshake128/256, kt128/256 */
		X16 X16 "01234567", H56, H64, H96, H128, /* sha1 .. sha512 */
		H128, H64,      /* blake2b, blake3 */
		/* crc, crc32b, bsd, sysv, crc32c, crc64nvme */
		"01234567", "89abcdef", "0000d16f", "000001dd", "e3069283", X16,
		"02cc5d05", X16, X16, H32, /* xxh32, xxh64, xxh3, xxh128 */
		H64,            /* sm3 */
	};
	char name[64], line[512];
	unsigned bad = 0;

	for (int iter = 0; iter < 2000; iter++) {
		size_t namelen = random_name(name, sizeof name);

		for (int id = 0; id < FH_ALGO_COUNT; id++) {
			const struct fh_algo *a = fh_algo_get(id);
			const char *hex = hexes[id];
			size_t hexlen = strlen(hex);

			for (size_t f = 0; f < 3; f++) {
				int flags = flag_sets[f];
				/* cksum's and sum's lines have one form: the
				 * value in decimal, the size, the name. */
				bool form = fh_algo_row(a)->form != FH_FORM_DIGEST;
				uint8_t value[4];
				size_t n;

				/* GNU escapes no name in them: a name with a
				 * line end, or none, cannot be read back. */
				if (form && (!namelen || memchr(name, '\n', namelen) ||
					     memchr(name, '\r', namelen)))
					continue;
				if (form) {
					fh_unhex(value, hex, 8);
					n = fh_format_form(line, a, value, 12345, name,
							   namelen, 0);
				} else {
					n = fh_format_line(line, a, hex, hexlen,
							   name, namelen, flags);
				}
				struct fh_list_parser p;
				struct fh_list_line out;
				enum fh_line_kind k;
				bool ok;

				/* Without -a an XOF needs its tag, and an
				 * untagged line of a length two algorithms
				 * share (SHA-2 and SHA-3) is the first's:
				 * those take -a, as `sha256sum -c` gives it. */
				bool given = a->xof ||
					     fh_algo_by_hexlen(hexlen) != a;
				fh_list_parser_init(&p, given ? a : NULL,
						    NULL, a->xof ? hexlen / 2 : 0);
				/* A GNU-form latch must not change the
				 * outcome. */
				p.reversed = (iter % 2) ? 0 : -1;
				ok = n <= fh_format_size(hexlen, namelen) &&
				     line[n - 1] == '\n';
				k = fh_list_parse(&p, line, n - 1, &out);
				ok = ok && k == FH_LINE_OK &&
				     out.namelen == namelen &&
				     memcmp(out.name, name, namelen) == 0 &&
				     out.digestlen == hexlen &&
				     memcmp(out.digest, hex, hexlen) == 0 &&
				     out.algo == a &&
				     out.binary == (!form && flags == FH_FMT_BINARY);
				n_cases++;
				if (!ok) {
					n_failed++;
					if (bad++ < 10) {
						printf("FAIL round trip %s "
						       "flags %d: ",
						       a->name, flags);
						print_bytes(name, namelen);
						putchar('\n');
					}
				}
			}
		}
	}
}

/* The one name that does not survive: an empty untagged name gives
 * "HEX  ", which GNU reads as the reversed form of the name " ". */
static void test_empty_name_quirk(void)
{
	char line[128];
	size_t n = fh_format_line(line, fh_algo_get(FH_MD5), H32, 32, "", 0,
				  0);
	struct pcase want = OK(MD5, "", " ", H32, false, FH_MD5, 1);
	struct fh_list_parser p;

	fh_list_parser_init(&p, NULL, NULL, 0);
	run_case(&p, line, n - 1, &want, "empty name formatted");
}

/* The parser looks for a tag only on a line that begins with a capital
 * letter: every algorithm's tag must. */
static void test_tags_capital(void)
{
	for (int i = 0; i < FH_ALGO_COUNT; i++) {
		const char *tag = fh_algo_get((enum fh_algo_id)i)->tag;

		n_cases++;
		if (tag[0] < 'A' || tag[0] > 'Z') {
			printf("FAIL tag %s: not a capital letter first\n", tag);
			n_failed++;
		}
	}
}

/* A well-formed tagged line of a tag the table lacks: FH_LINE_UNSUPPORTED
 * (its tag and name set) where tags rule and the parser is asked for it;
 * improper otherwise, and for anything malformed.  Tags no row has
 * (WHIRLPOOL, RIPEMD160, STREEBOG): a tag becomes known when its row
 * exists, as SM3's did. */
static void test_unknown_tags(void)
{
	static const struct {
		const char *line;
		bool asked, with_algo;
		enum fh_line_kind kind;
		const char *tag, *name;
	} t[] = {
		{ "WHIRLPOOL (a) = " H128, true, false, FH_LINE_UNSUPPORTED, "WHIRLPOOL", "a" },
		{ "RIPEMD160 (a b) = " H32 "01234567", true, false, FH_LINE_UNSUPPORTED, "RIPEMD160", "a b" },
		{ "STREEBOG-256 (x) = " H64, true, false, FH_LINE_UNSUPPORTED, "STREEBOG-256", "x" },
		{ "STREEBOG(x)= " H64, true, false, FH_LINE_UNSUPPORTED, "STREEBOG", "x" },
		{ "\\STREEBOG (a\\nb) = " H64, true, false, FH_LINE_UNSUPPORTED, "STREEBOG", "a\nb" },
		{ "STREEBOG (x) = ASNFZ4mrze8=", true, false, FH_LINE_UNSUPPORTED, "STREEBOG", "x" },
		{ "STREEBOG (x) = " H64, false, false, FH_LINE_BAD, NULL, NULL },
		{ "STREEBOG (x) = " H64, true, true, FH_LINE_BAD, NULL, NULL },
		{ "STREEBOG  (x) = " H64, true, false, FH_LINE_BAD, NULL, NULL },
		{ "STREEBOG (x) = " H64 " ", true, false, FH_LINE_BAD, NULL, NULL },
		{ "STREEBOG (x) = abc", true, false, FH_LINE_BAD, NULL, NULL },
		{ "STREEBOG (x) = xyz!", true, false, FH_LINE_BAD, NULL, NULL },
		{ "STREEBOG (x) = ", true, false, FH_LINE_BAD, NULL, NULL },
		{ "STREEBOG (x) " H64, true, false, FH_LINE_BAD, NULL, NULL },
		{ "STREE.BOG (x) = " H64, true, false, FH_LINE_BAD, NULL, NULL },
		{ "streebog (x) = " H64, true, false, FH_LINE_BAD, NULL, NULL },
		/* A known tag, wrongly sized or with a bad digest: improper. */
		{ "KT128-12 (x) = " H64, true, false, FH_LINE_BAD, NULL, NULL },
		{ "SHA3-256 (x) = " H32, true, false, FH_LINE_BAD, NULL, NULL },
		{ "SHA3-256-256 (x) = " H64, true, false, FH_LINE_BAD, NULL, NULL },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct fh_list_parser p;
		struct fh_list_line out;
		size_t len;
		char *buf = copy_line(t[i].line, &len);
		enum fh_line_kind kind;

		fh_list_parser_init(&p, t[i].with_algo ? fh_algo_get(FH_MD5) : NULL,
				    NULL, 0);
		p.unknown_tags = t[i].asked;
		kind = fh_list_parse(&p, buf, len, &out);
		n_cases++;
		if (kind != t[i].kind ||
		    (kind == FH_LINE_UNSUPPORTED &&
		     (out.algo || out.taglen != strlen(t[i].tag) ||
		      memcmp(out.tag, t[i].tag, out.taglen) != 0 ||
		      out.namelen != strlen(t[i].name) ||
		      memcmp(out.name, t[i].name, out.namelen) != 0))) {
			printf("FAIL unknown tag %s: got kind %d, want %d\n", t[i].line,
			       (int)kind, (int)t[i].kind);
			n_failed++;
		}
		free(buf);
	}
	/* Every tag of the table is known, whatever the table holds. */
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
		char line[512];
		struct fh_list_parser p;
		struct fh_list_line out;
		int n = snprintf(line, sizeof line, "%s (x) = ", a->tag);

		for (size_t b = 0; b < 2 * (size_t)a->digest_bytes; b++)
			line[n++] = 'a';
		fh_list_parser_init(&p, NULL, NULL, 0);
		p.unknown_tags = true;
		n_cases++;
		if (fh_list_parse(&p, line, (size_t)n, &out) != FH_LINE_OK) {
			printf("FAIL known tag %s: not OK\n", a->tag);
			n_failed++;
		}
	}
}

/* --expect's digest: fh_list_parse_digest takes it as an untagged line's. */
static void test_take_digest(void)
{
	static const struct {
		const char *digest;
		int algo;       /* NOALGO: refused */
		bool alt, base64;
	} t[] = {
		{ H32U, FH_MD5, true, false },  /* XXH128's length too */
		{ H64, FH_SHA3_256, true, false },
		{ "ASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4mrze8=", FH_SHA3_256, true, true },
		{ "abc", NOALGO, false, false },
		{ H64 "0", NOALGO, false, false },
		{ H32 " ", NOALGO, false, false },
		{ "", NOALGO, false, false },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct fh_list_parser p;
		struct fh_list_line out = { 0 };
		bool ok;

		fh_list_parser_init(&p, NULL, NULL, 0);
		ok = fh_list_parse_digest(&p, NULL, t[i].digest, strlen(t[i].digest), &out) == FH_LINE_OK;
		n_cases++;
		if (ok != (t[i].algo != NOALGO) ||
		    (ok && ((int)out.algo->id != t[i].algo || !out.alt != !t[i].alt ||
			    out.base64 != t[i].base64))) {
			printf("FAIL take_digest %s\n", t[i].digest);
			n_failed++;
		}
	}
}

int main(void)
{
	test_tags_capital();
	test_unknown_tags();
	test_take_digest();
	test_table();
	test_latch_sequences();
	test_long_lines();
	test_format();
	test_forms();
	test_unhex();
	test_round_trip();
	test_empty_name_quirk();
	printf("%u cases, %u failed\n", n_cases, n_failed);
	return n_failed ? 1 : 0;
}
