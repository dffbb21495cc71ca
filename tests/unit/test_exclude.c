/* test_exclude.c: cmd/exclude.c, the patterns of --exclude and
 * --exclude-from.  A table of pattern, path, kind and answer for
 * fh_excluded, one for fh_excluded_path, then files of patterns read
 * through a pipe.  Rows marked "rsync" are the examples of rsync(1)'s
 * PATTERN MATCHING RULES.  Every expected answer is written here, and is
 * what rsync 3.x does with the pattern and the path: each row of the
 * first table was run through rsync -r --exclude, but those whose
 * directory rsync would leave out first, which follow its rules as
 * written; tests/cli/exclude.bats asks rsync itself. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exclude.h"

static int failures;

enum { F, D };  /* a file, a directory */

struct row {
	const char *pattern;
	const char *path;
	int kind;
	int want;
};

/* Written as octal escapes where a byte is not plain ASCII. */
static const struct row rows[] = {
	/* A pattern without '/' or "**": the last component, at any depth.
	 * rsync: "*.o" would exclude all filenames ending with .o. */
	{ "*.o", "a.o", F, 1 },
	{ "*.o", "lib/sub/a.o", F, 1 },
	{ "*.o", "a.o.txt", F, 0 },
	{ "*.o", "lib.o/a.c", F, 0 },
	{ "*.o", "lib.o", D, 1 },
	{ "*.o", ".o", F, 1 },
	{ "foo", "foo", F, 1 },
	{ "foo", "foo", D, 1 },
	{ "foo", "sub/deeper/foo", F, 1 },
	{ "foo", "foobar", F, 0 },
	{ "foo", "xfoo", F, 0 },
	{ "foo", "foo/bar", F, 0 },
	/* A leading '.' is not special. */
	{ "*", ".hidden", F, 1 },
	{ "*", "a/.hidden", D, 1 },
	{ "?hidden", ".hidden", F, 1 },
	{ ".*", ".git", D, 1 },
	{ ".*", "a/.b", F, 1 },
	{ ".*", "a.b", F, 0 },
	{ "*", "a/b", F, 1 },
	{ "?", "a", F, 1 },
	{ "?", "ab", F, 0 },
	{ "?", "", F, 0 },
	{ "*", "", F, 1 },
	/* Bytes, not characters: U+00E9 in UTF-8 is two of them. */
	{ "??", "\303\251", F, 1 },
	{ "?", "\303\251", F, 0 },
	{ "\303\251*", "\303\251t\303\251", F, 1 },
	{ "?t?.txt", "\351t\351.txt", F, 1 },
	{ "\351t\351*", "\351t\351.txt", F, 1 },
	{ "*\351", "\303\251", F, 0 },
	/* Spaces and newlines are bytes like any other. */
	{ "* *", "with space.txt", F, 1 },
	{ "* *", "nospace.txt", F, 0 },
	{ "*.txt", "new\nline.txt", F, 1 },
	{ "*\n*", "a\nb", F, 1 },
	{ "*\n*", "a b", F, 0 },
	{ "new?line.txt", "new\nline.txt", F, 1 },
	{ " ", " ", F, 1 },
	{ " ", "  ", F, 0 },
	/* rsync: "/foo" would exclude a file (or directory) named foo in
	 * the transfer-root directory. */
	{ "/foo", "foo", F, 1 },
	{ "/foo", "foo", D, 1 },
	{ "/foo", "sub/foo", F, 0 },
	{ "/foo", "foo/bar", F, 0 },
	/* Only the first '/' anchors; names have no empty component, so
	 * the others match nothing. */
	{ "///foo", "foo", F, 0 },
	{ "//foo", "foo", F, 0 },
	/* rsync: "foo/" would exclude any directory named foo. */
	{ "foo/", "foo", D, 1 },
	{ "foo/", "foo", F, 0 },
	{ "foo/", "a/b/foo", D, 1 },
	{ "foo/", "a/b/foo", F, 0 },
	{ "foo//", "foo", D, 0 },
	{ "*/", "anything", D, 1 },
	{ "*/", "anything", F, 0 },
	{ "/foo/", "foo", D, 1 },
	{ "/foo/", "a/foo", D, 0 },
	/* rsync: foo, a star, bar, '/' between them, would exclude bar two
	 * levels below foo: an inner '/' matches the last names of the
	 * path, at any depth. */
	{ "foo/*/bar", "foo/x/bar", F, 1 },
	{ "foo/*/bar", "foo/x/bar", D, 1 },
	{ "foo/*/bar", "foo/bar", F, 0 },
	{ "foo/*/bar", "foo/x/y/bar", F, 0 },
	{ "foo/*/bar", "a/foo/x/bar", F, 1 },
	{ "foo/*/bar", "a/b/foo/x/bar", D, 1 },
	{ "foo/*/bar", "afoo/x/bar", F, 0 },
	{ "foo/*/bar", "foo/x/barn", F, 0 },
	{ "/foo/*/bar", "foo/x/bar", F, 1 },
	{ "/foo/*/bar", "a/foo/x/bar", F, 0 },
	{ "sub/*.c", "sub/a.c", F, 1 },
	{ "sub/*.c", "a/b/sub/a.c", F, 1 },
	{ "sub/*.c", "a/xsub/a.c", F, 0 },
	{ "b/sub", "a/b/sub", D, 1 },
	{ "b/sub", "sub", D, 0 },
	{ "a/b/c", "b/c", F, 0 },
	/* Without wildcards, the same: the last names, byte for byte. */
	{ "foo/bar", "x/foo/bar", F, 1 },
	{ "foo/bar", "x/afoo/bar", F, 0 },
	{ "foo/bar", "foo/bar", D, 1 },
	/* rsync: "/foo/", "**", "/bar" would exclude bar two or more levels
	 * below foo: "**" then '/' is one directory at least. */
	{ "/foo/**/bar", "foo/x/bar", F, 1 },
	{ "/foo/**/bar", "foo/x/y/z/bar", F, 1 },
	{ "/foo/**/bar", "foo/bar", F, 0 },
	{ "/foo/**/bar", "foo/barn", F, 0 },
	{ "/foo/**/bar", "xfoo/bar", F, 0 },
	{ "/foo/**/bar", "a/foo/x/bar", F, 0 },
	{ "foo/**/bar", "foo/bar", D, 0 },
	/* Not anchored, "**" inside: from the start or after any '/'. */
	{ "foo/**/bar", "a/foo/x/bar", F, 1 },
	{ "foo/**/bar", "a/xfoo/x/bar", F, 0 },
	/* "**" at the start and after '/', then '/'. */
	{ "**/node_modules", "node_modules", D, 1 },
	{ "**/node_modules", "a/node_modules", D, 1 },
	{ "**/node_modules", "a/b/node_modules", D, 1 },
	{ "**/node_modules", "a/b/node_modules", F, 1 },
	{ "**/node_modules", "xnode_modules", D, 0 },
	{ "**/node_modules", "a/xnode_modules", D, 0 },
	{ "**/node_modules", "a/node_modules/x", F, 0 },
	{ "**/node_modules/", "a/node_modules", F, 0 },
	{ "/**/node_modules", "node_modules", D, 0 },
	{ "/**/node_modules", "a/node_modules", D, 1 },
	{ "**/**/x", "x", F, 0 },
	{ "**/**/x", "a/x", F, 1 },
	{ "**/**/x", "a/b/x", F, 1 },
	{ "**/**/x", "a/b/c/x", F, 1 },
	{ "**/*.c", "a.c", F, 1 },
	{ "**/*.c", "a/b/a.c", F, 1 },
	{ "**/*.c", "a/b.c/d", F, 0 },
	{ "a/**/b/**/c", "a/b/c", F, 0 },
	{ "a/**/b/**/c", "a/x/b/y/c", F, 1 },
	{ "a/**/b/**/c", "a/x/b/y/z/c", F, 1 },
	{ "a/**/b/**/c", "a/x/y/c", F, 0 },
	/* "dir/" "**": everything under dir, not dir itself. */
	{ "dir/**", "dir", D, 0 },
	{ "dir/**", "dir/a", F, 1 },
	{ "dir/**", "dir/a/b/c", F, 1 },
	{ "dir/**", "dir/.x", D, 1 },
	{ "dir/**", "dir2/a", F, 0 },
	{ "dir/**", "a/dir/b", F, 1 },
	{ "/dir/**", "a/dir/b", F, 0 },
	/* rsync's trailing "/" "***": the directory (as "dir/") and all
	 * in it. */
	{ "dir/***", "dir", D, 1 },
	{ "dir/***", "dir", F, 0 },
	{ "dir/***", "dir/a/b", F, 1 },
	{ "dir/***", "dir2", D, 0 },
	/* "**" without '/': first, the whole path; inside, from the start
	 * or after any '/' (rsync: "**" can match a slash). */
	{ "**", "a", F, 1 },
	{ "**", "a/b/c", D, 1 },
	{ "**.o", "x/y.o", F, 1 },
	{ "**.o", "y.o", F, 1 },
	{ "**.o", "y.c", F, 0 },
	{ "a**b", "a/x/b", F, 1 },
	{ "a**b", "ab", F, 1 },
	{ "a**b", "x/ab", F, 1 },
	{ "a**b", "xa/b", F, 0 },
	{ "x**", "y/x", F, 1 },
	{ "x**", "yx", F, 0 },
	/* '*' and '?' never cross a '/', nor does a class. */
	{ "/a*b", "a/b", F, 0 },
	{ "/a?b", "a/b", F, 0 },
	{ "/a[!x]b", "a/b", F, 0 },
	{ "/a[+-0]b", "a/b", F, 0 },
	{ "/a[+-0]b", "a.b", F, 1 },
	{ "a/*", "a/b/c", F, 0 },
	{ "a/*", "a/b", F, 1 },
	{ "a/*", "a/.b", D, 1 },
	/* Classes. */
	{ "[abc]", "b", F, 1 },
	{ "[abc]", "d", F, 0 },
	{ "[a-c]x", "bx", F, 1 },
	{ "[a-c]x", "dx", F, 0 },
	{ "[!a-c]", "d", F, 1 },
	{ "[!a-c]", "a", F, 0 },
	{ "[^a-c]", "d", F, 1 },
	{ "[^a-c]", "c", F, 0 },
	{ "[]]", "]", F, 1 },
	{ "[]]", "a", F, 0 },
	{ "[!]]", "a", F, 1 },
	{ "[!]]", "]", F, 0 },
	{ "[]a]", "a", F, 1 },
	{ "[a-]", "-", F, 1 },
	{ "[-a]", "-", F, 1 },
	{ "[\\]]", "]", F, 1 },
	{ "[a\\-z]", "-", F, 1 },
	{ "[a\\-z]", "b", F, 0 },
	/* A range from a byte above its end holds nothing, but that byte
	 * was a member before the '-' was seen (rsync's wildmatch). */
	{ "[z-a]", "m", F, 0 },
	{ "[z-a]", "z", F, 1 },
	{ "[z-a]", "a", F, 0 },
	{ "[a-c-e]", "-", F, 1 },
	{ "[a-c-e]", "d", F, 0 },
	{ "[!!]", "!", F, 0 },
	{ "[!!]", "x", F, 1 },
	{ "[\200-\377]", "\303", F, 1 },
	{ "[\200-\377]", "a", F, 0 },
	{ "[!\200-\377]", "\303", F, 0 },
	{ "[!\200-\377]", "\n", F, 1 },
	{ "[\n]", "\n", F, 1 },
	{ "[[:digit:]]*", "7up", F, 1 },
	{ "[[:digit:]]*", "up7", F, 0 },
	{ "[[:upper:][:digit:]]", "Q", F, 1 },
	{ "[[:upper:][:digit:]]", "5", F, 1 },
	{ "[[:upper:][:digit:]]", "q", F, 0 },
	{ "[[:alpha:]]", "\303", F, 0 },
	{ "[[:alpha:]]b", "ab", F, 1 },
	{ "[[:space:]]", " ", F, 1 },
	{ "[[:space:]]", "\t", F, 1 },
	{ "[[:punct:]]", "!", F, 1 },
	{ "[[:punct:]]", "a", F, 0 },
	{ "[[:xdigit:]]", "F", F, 1 },
	{ "[[:xdigit:]]", "g", F, 0 },
	{ "[![:alnum:]]", "_", F, 1 },
	{ "[![:alnum:]]", "z", F, 0 },
	{ "[[:bogus:]]", "b", F, 0 },
	/* An unknown class makes the pattern match nothing (rsync). */
	{ "[[:bogus:]b]", "b", F, 0 },
	/* "[:" without ':' before the next ']' is a '[' member. */
	{ "[[:alpha]", ":", F, 1 },
	{ "[[:alpha]", "[", F, 1 },
	{ "[[:x]y:]]", "x", F, 0 },
	{ "[[:x]y:]]", "xy:]]", F, 1 },
	{ "[[:x]y:]]", ":y:]]", F, 1 },
	/* A '[' that nothing closes: the pattern matches nothing. */
	{ "[ab", "[ab", F, 0 },
	{ "[ab", "a", F, 0 },
	{ "a[", "a[", F, 0 },
	{ "[!", "[!", F, 0 },
	{ "[", "[", F, 0 },
	{ "*[", "a[", F, 0 },
	{ "[]", "[]", F, 0 },
	{ "[a\\", "[a\\", F, 0 },
	/* Escapes, in a pattern with a wildcard ('*', '?' or '['). */
	{ "\\*", "*", F, 1 },
	{ "\\*", "a", F, 0 },
	{ "\\?", "?", F, 1 },
	{ "\\?", "x", F, 0 },
	{ "\\[a]", "[a]", F, 1 },
	{ "\\[a]", "a", F, 0 },
	{ "a\\[b", "a[b", F, 1 },
	{ "a\\\\b*", "a\\b", F, 1 },
	{ "\\a*", "a", F, 1 },
	{ "?\\*", "a*", F, 1 },
	{ "?\\*", "ab", F, 0 },
	/* A '\' that ends a pattern with a wildcard matches nothing. */
	{ "a*\\", "a\\", F, 0 },
	{ "a*\\", "ab", F, 0 },
	{ "*\\", "\\", F, 0 },
	/* Without a wildcard, '\' is a byte like any other. */
	{ "a\\b", "a\\b", F, 1 },
	{ "a\\b", "ab", F, 0 },
	{ "a\\\\b", "a\\b", F, 0 },
	{ "\\a", "a", F, 0 },
	{ "\\a", "\\a", F, 1 },
	{ "a\\", "a\\", F, 1 },
	{ "a\\", "a", F, 0 },
	{ "\\*\\*", "**", F, 1 },
	{ "\\*\\*", "a/b", F, 0 },
	/* A trailing '/' is the last byte, a '\' before it or not. */
	{ "a\\/", "a", D, 0 },
	{ "a\\/", "a\\", D, 1 },
	{ "a\\/", "a\\", F, 0 },
	{ "a\\\\/", "a\\\\", D, 1 },
	{ "a\\\\/", "a\\", D, 0 },
	/* Empty components: names have none, so a doubled '/' matches
	 * nothing; "/" and "" match nothing. */
	{ "a//b", "a/b", F, 0 },
	{ "//a///b//", "a/b", D, 0 },
	{ "//a///b//", "a/b", F, 0 },
	{ "/", "a", D, 0 },
	{ "", "a", F, 0 },
	{ "", "", F, 0 },
	{ "**//x", "a/x", F, 0 },
	{ "**//x", "x", F, 0 },
};

/* fh_excluded_path: the file, or a directory above it. */
struct path_row {
	const char *pattern;
	const char *path;
	int want;
};

static const struct path_row path_rows[] = {
	{ "*.tmp", "a/b.tmp", 1 },
	{ "*.tmp", "b.tmp", 1 },
	{ "*.tmp", "a/b.tmpx", 0 },
	{ "*.tmp", "a.tmp/b", 1 },
	{ "skip/", "skip/c", 1 },
	{ "skip/", "skip", 0 },
	{ "skip/", "a/skip/x/y", 1 },
	{ "skip/", "skipx/c", 0 },
	{ "/a/b", "a/b/c", 1 },
	{ "/a/b", "a/b", 1 },
	{ "/a/b", "x/a/b", 0 },
	{ "/a/b", "a/bc", 0 },
	{ "dir/**", "dir/x", 1 },
	{ "dir/**", "dir", 0 },
	{ "**/node_modules", "node_modules/p/q.js", 1 },
	{ "**/node_modules", "x/y/node_modules/q", 1 },
	{ "**/node_modules", "x/y/node_module/q", 0 },
	{ "foo/*/bar", "foo/x/bar/baz", 1 },
	{ "foo/*/bar", "foo/bar/baz", 0 },
	/* Empty and "." components are passed over. */
	{ "*.tmp", "a//b.tmp", 1 },
	{ "*.tmp", "./a/b.tmp", 1 },
	{ "/a/b", "./a/./b/c", 1 },
	{ "/a/b", "a//b//c", 1 },
	{ "/a/b", "a/b/", 1 },
	{ "x", "", 0 },
	{ "*", "", 0 },
	{ "*", "/", 0 },
	{ "*", ".", 0 },
	{ "new?line", "d/new\nline/f", 1 },
	{ "/d/new\nline", "d/new\nline/f", 1 },
};

static void check_table(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const struct row *r = &rows[i];
		struct fh_exclude x;

		fh_exclude_init(&x);
		if (!fh_exclude_add(&x, r->pattern, strlen(r->pattern))) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
		int got = fh_excluded(&x, r->path, strlen(r->path), r->kind == D);

		if (got != r->want) {
			fprintf(stderr, "pattern \"%s\", %s \"%s\": %s, want %s\n",
				r->pattern, r->kind == D ? "directory" : "file", r->path,
				got ? "excluded" : "kept", r->want ? "excluded" : "kept");
			failures++;
		}
		fh_exclude_free(&x);
	}
	for (size_t i = 0; i < sizeof path_rows / sizeof *path_rows; i++) {
		const struct path_row *r = &path_rows[i];
		struct fh_exclude x;

		fh_exclude_init(&x);
		if (!fh_exclude_add(&x, r->pattern, strlen(r->pattern))) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
		int got = fh_excluded_path(&x, r->path, strlen(r->path));

		if (got != r->want) {
			fprintf(stderr, "pattern \"%s\", listed \"%s\": %s, want %s\n",
				r->pattern, r->path, got ? "excluded" : "kept",
				r->want ? "excluded" : "kept");
			failures++;
		}
		fh_exclude_free(&x);
	}
}

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: failed: %s\n", __FILE__,   \
				__LINE__, #cond);                          \
			failures++;                                        \
		}                                                          \
	} while (0)

#define EXCLUDED(x, s, dir) fh_excluded((x), (s), strlen(s), (dir))

/* Reads TEXT (LEN bytes) as a file of patterns into X, through a pipe;
 * returns fh_exclude_read's answer. */
static int read_text(struct fh_exclude *x, const char *text, size_t len,
		     uint64_t *lineno)
{
	FILE *f = tmpfile();
	int err;

	if (!f || fwrite(text, 1, len, f) != len || fflush(f) != 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		perror("tmpfile");
		exit(1);
	}
	err = fh_exclude_read(x, fileno(f), lineno);
	fclose(f);
	return err;
}

static void check_files(void)
{
	static const char text[] =
		"# a comment, then a blank line\n"
		"\n"
		"*.o\r\n"
		"build/\n"
		"#not-a-pattern\n"
		"\r\n"
		"  \n"
		" #x\n"
		"; a comment too\n"
		" ;y\n"
		"/a\\ b\n"
		"/a\\ b*\n"
		"p\rq\r\r;r\rs\n"
		"last";
	struct fh_exclude x;
	uint64_t line = 0;

	fh_exclude_init(&x);
	CHECK(!fh_exclude_any(&x));
	CHECK(!EXCLUDED(&x, "a.o", false));
	CHECK(read_text(&x, text, sizeof text - 1, &line) == 0);
	CHECK(fh_exclude_any(&x));
	CHECK(EXCLUDED(&x, "a.o", false));      /* its CR dropped */
	CHECK(!EXCLUDED(&x, "a.o\r", false));
	CHECK(EXCLUDED(&x, "x/build", true));
	CHECK(!EXCLUDED(&x, "x/build", false));
	CHECK(!EXCLUDED(&x, "#not-a-pattern", false));
	CHECK(!EXCLUDED(&x, "# a comment, then a blank line", false));
	CHECK(EXCLUDED(&x, "  ", false));       /* blanks are a name */
	CHECK(EXCLUDED(&x, " #x", false));      /* '#' only first */
	CHECK(!EXCLUDED(&x, "; a comment too", false));
	CHECK(EXCLUDED(&x, " ;y", false));      /* ';' only first */
	CHECK(EXCLUDED(&x, "a\\ b", false));    /* no wildcard: '\' a byte */
	CHECK(EXCLUDED(&x, "a b.c", false));    /* a wildcard: '\' escapes */
	/* A CR ends a pattern as a newline does (rsync): p, q, s; ";r" is
	 * a comment. */
	CHECK(EXCLUDED(&x, "p", false) && EXCLUDED(&x, "q", false));
	CHECK(EXCLUDED(&x, "s", false) && !EXCLUDED(&x, ";r", false));
	CHECK(!EXCLUDED(&x, "p\rq", false));
	CHECK(EXCLUDED(&x, "last", false));     /* no line end */
	CHECK(!EXCLUDED(&x, "", false));
	CHECK(!EXCLUDED(&x, "c", false));
	fh_exclude_free(&x);
	CHECK(!fh_exclude_any(&x));

	/* An empty file, and one of comments alone: no pattern. */
	CHECK(read_text(&x, "", 0, NULL) == 0 && !fh_exclude_any(&x));
	CHECK(read_text(&x, "#\n\n#*\n", 6, NULL) == 0 && !fh_exclude_any(&x));
	CHECK(read_text(&x, ";\n\r\n;*\r", 7, NULL) == 0 && !fh_exclude_any(&x));

	/* A line too long for any pattern: refused, by its number. */
	size_t big = FH_EXCLUDE_LINE_MAX + 10;
	char *buf = malloc(big + 16);

	if (!buf)
		exit(1);
	memcpy(buf, "*.o\n# c\n", 8);
	memset(buf + 8, 'x', big);
	memcpy(buf + 8 + big, "\nz\n", 3);
	CHECK(read_text(&x, buf, big + 11, &line) == ENAMETOOLONG && line == 3);
	fh_exclude_free(&x);
	free(buf);

	/* Several patterns: any of them. */
	fh_exclude_init(&x);
	CHECK(fh_exclude_add(&x, "*.o", 3) && fh_exclude_add(&x, "tmp/", 4) &&
	      fh_exclude_add(&x, "/top", 4));
	CHECK(EXCLUDED(&x, "tmp", true) && !EXCLUDED(&x, "tmp", false));
	CHECK(EXCLUDED(&x, "x/a.o", false) && EXCLUDED(&x, "top", false));
	CHECK(!EXCLUDED(&x, "x/top", false) && !EXCLUDED(&x, "a.c", false));
	/* A pattern holds any byte but NUL: LEN says where it ends. */
	CHECK(fh_exclude_add(&x, "nul\0ignored", 3));
	CHECK(EXCLUDED(&x, "nul", false));
	fh_exclude_free(&x);
	/* NULL: nothing excluded. */
	CHECK(!fh_exclude_any(NULL) && !fh_excluded(NULL, "a", 1, false));
}

/* Stars cost the pattern's length times the name's, never more: these
 * would take ages to a matcher that backtracks. */
static void check_cost(void)
{
	static char name[4001], pat[64];
	struct fh_exclude x;

	memset(name, 'a', sizeof name - 1);
	strcpy(pat, "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b");
	fh_exclude_init(&x);
	CHECK(fh_exclude_add(&x, pat, strlen(pat)));
	for (int i = 0; i < 200; i++)
		CHECK(!EXCLUDED(&x, name, false));
	fh_exclude_free(&x);
	for (size_t i = 0; i < sizeof name - 1; i++)
		if (i % 2)
			name[i] = '/';
	strcpy(pat, "**a**a**a**a**a**a**a**a**a**a**a**b");
	CHECK(fh_exclude_add(&x, pat, strlen(pat)));
	for (int i = 0; i < 200; i++)
		CHECK(!EXCLUDED(&x, name, false));
	name[sizeof name - 2] = 'b';
	CHECK(EXCLUDED(&x, name, false));
	fh_exclude_free(&x);

	/* A pattern of more bytes than any name: matches nothing. */
	size_t n = 3 * 4096;
	char *long_pat = malloc(n + 1);

	if (!long_pat)
		exit(1);
	memset(long_pat, '?', n);
	long_pat[n] = '\0';
	CHECK(fh_exclude_add(&x, long_pat, n));
	CHECK(!EXCLUDED(&x, name, false));
	fh_exclude_free(&x);
	free(long_pat);
}

int main(void)
{
	check_table();
	check_files();
	check_cost();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
