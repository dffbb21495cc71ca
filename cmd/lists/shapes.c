/* shapes.c: checksum lists as projects publish them (shapes.h).
 *
 * Three layers, each reading the one below: the lines of the list
 * (lines.h); the text, which leaves out what a clear-signature does not
 * vouch for; and the entries, where a line that GNU would call improper
 * may still be a `gpg --print-md` record or a sidecar's digest.  GNU's
 * reading comes first: a line GNU takes is taken as GNU takes it.
 *
 * The signed part.  gpg says "Good signature" for a clear-signed list
 * with lines added before "-----BEGIN PGP SIGNED MESSAGE-----" or after
 * "-----END PGP SIGNATURE-----", and `sha256sum -c` checks those lines as
 * if signed.  Here they are not read.  A regular file is looked through
 * for the message's first line before its first line is read, so that
 * lines before it are known to be outside; a pipe cannot be, and lines
 * read before its message began are counted apart (LATE), for the
 * caller to fail the list.  Inside the message, armour headers ("Hash:")
 * run to the first empty line; "- " starts a dash-escaped line; trailing
 * blanks are not signed (RFC 4880 §7.1) and are dropped. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "hashdeep.h"
#include "shapes.h"

#define BEGIN_SIGNED "-----BEGIN PGP SIGNED MESSAGE-----"
#define BEGIN_SIGNATURE "-----BEGIN PGP SIGNATURE-----"
#define END_SIGNATURE "-----END PGP SIGNATURE-----"

enum part {
	PLAIN,      /* no clear-signed message (yet) */
	HEADERS,    /* its armour headers */
	SIGNED,     /* its signed text */
	SIGNATURE,  /* its signature block */
	AFTER,      /* after the signature */
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* LEN without the blanks (and CR) that end LINE. */
static size_t trimmed(const char *line, size_t len)
{
	while (len > 0 && is_blank(line[len - 1]))
		len--;
	return len;
}

/* Whether the LEN bytes at LINE are MARK, trailing blanks aside. */
static bool is_mark(const char *line, size_t len, const char *mark)
{
	size_t n = strlen(mark);

	return trimmed(line, len) == n && memcmp(line, mark, n) == 0;
}

/* The line of FD's first BEGIN_SIGNED, from its start; 0: none. */
static uintmax_t find_begin(int fd)
{
	enum { CAP = 1 << 16 };
	char *buf = malloc(CAP);
	size_t mark = strlen(BEGIN_SIGNED);
	uintmax_t lineno = 1, found = 0;
	off_t off = 0;
	bool inside = false; /* within a line begun in an earlier block */

	if (!buf)
		return 0;
	for (;;) {
		ssize_t got = pread(fd, buf, CAP, off);
		size_t n = got > 0 ? (size_t)got : 0, at = 0;

		if (n == 0)
			break;
		while (at < n) {
			const char *nl;

			/* Too little of a line start left in the buffer to
			 * tell: read again from there. */
			if (!inside && n - at < mark + 64 && n == CAP && at > 0)
				break;
			nl = memchr(buf + at, '\n', n - at);
			if (!inside && is_mark(buf + at, (nl ? (size_t)(nl - buf) : n) - at,
					       BEGIN_SIGNED)) {
				found = lineno;
				goto out;
			}
			if (!nl) {
				inside = true;
				at = n;
				break;
			}
			inside = false;
			at = (size_t)(nl - buf) + 1;
			lineno++;
		}
		off += (off_t)at;
	}
out:
	free(buf);
	return found;
}

bool fh_shapes_signed(int fd)
{
	return find_begin(fd) != 0;
}

bool fh_shapes_sfv_name(const char *list)
{
	size_t n = strlen(list);

	return n > 4 && strcasecmp(list + n - 4, ".sfv") == 0;
}

bool fh_shapes_start(struct fh_shapes *s, struct fh_lines *lines, int fd,
		     const char *list, bool on)
{
	struct stat st;

	s->lines = lines;
	s->on = on;
	s->list = list;
	s->lineno = 0;
	s->begin = 0;
	s->part = PLAIN;
	s->outside = s->late = s->texts = s->entries = 0;
	s->single = false;
	s->ahead_status = -1;
	s->sfv = on && list && fh_shapes_sfv_name(list);
	if (on && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		s->begin = find_begin(fd);
	return true;
}

/* Copies the LEN bytes at LINE into *BUF (of *CAP bytes), with a NUL. */
static char *keep(char **buf, size_t *cap, const char *line, size_t len)
{
	if (len + 1 > *cap) {
		size_t c = *cap ? *cap : 256;

		while (c < len + 1)
			c *= 2;
		*buf = fh_xrealloc(*buf, c);
		*cap = c;
	}
	memmove(*buf, line, len);
	(*buf)[len] = '\0';
	return *buf;
}

/* The next line of the text: the signed text of a clear-signed list,
 * else every line. */
static enum fh_lines_status text_next(struct fh_shapes *s, char **line,
				      size_t *len, uintmax_t *lineno);

enum fh_lines_status fh_shapes_text(struct fh_shapes *s, char **line,
				    size_t *len, uintmax_t *lineno)
{
	return text_next(s, line, len, lineno);
}

static enum fh_lines_status text_next(struct fh_shapes *s, char **line,
				      size_t *len, uintmax_t *lineno)
{
	if (s->ahead_status >= 0) {
		enum fh_lines_status st = (enum fh_lines_status)s->ahead_status;

		s->ahead_status = -1;
		*line = s->ahead;
		*len = s->aheadlen;
		*lineno = s->ahead_lineno;
		return st;
	}
	for (;;) {
		enum fh_lines_status st = fh_lines_next(s->lines, line, len);
		char *l = *line;
		size_t n = *len;

		if (st == FH_LINES_END)
			return st;
		*lineno = ++s->lineno;
		if (!s->on)
			return st;
		if (st == FH_LINES_TOO_LONG) {
			if (s->part == AFTER || (s->part == PLAIN && s->lineno < s->begin)) {
				s->outside++;
				continue;
			}
			if (s->part == HEADERS || s->part == SIGNATURE)
				continue;
			s->texts++;
			return st;
		}
		switch (s->part) {
		case PLAIN:
			if (is_mark(l, n, BEGIN_SIGNED)) {
				s->part = HEADERS;
				s->late = s->texts;
				continue;
			}
			if (s->lineno < s->begin) {
				s->outside += trimmed(l, n) > 0;
				continue;
			}
			break;
		case HEADERS:
			if (trimmed(l, n) == 0)
				s->part = SIGNED;
			continue;
		case SIGNED:
			if (is_mark(l, n, BEGIN_SIGNATURE)) {
				s->part = SIGNATURE;
				continue;
			}
			if (n >= 2 && l[0] == '-' && l[1] == ' ') {
				*line = l += 2;
				*len = n -= 2;
			}
			*len = trimmed(l, n);
			l[*len] = '\0';
			break;
		case SIGNATURE:
			if (is_mark(l, n, END_SIGNATURE))
				s->part = AFTER;
			continue;
		default:
			s->outside += trimmed(l, n) > 0;
			continue;
		}
		s->texts++;
		return st;
	}
}

/* Keeps the line just read for the next text_next. */
static void put_back(struct fh_shapes *s, enum fh_lines_status st,
		     const char *line, size_t len, uintmax_t lineno)
{
	keep(&s->ahead, &s->aheadcap, line, len);
	s->aheadlen = len;
	s->ahead_lineno = lineno;
	s->ahead_status = (int)st;
}

/* Whether nothing but blank lines follow in the text (read ahead: the
 * first other line is put back). */
static bool nothing_more(struct fh_shapes *s)
{
	for (;;) {
		char *line;
		size_t len;
		uintmax_t lineno;
		enum fh_lines_status st = text_next(s, &line, &len, &lineno);

		if (st == FH_LINES_END)
			return true;
		if (st == FH_LINES_LINE && (len == 0 || (len == 1 && line[0] == '\r')))
			continue;
		put_back(s, st, line, len, lineno);
		return false;
	}
}

static bool is_upper_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

/* Whether the N bytes at S are groups of upper-case hex digits between
 * spaces (at least one digit when WANT_DIGIT), as gpg prints a digest. */
static bool hex_groups(const char *s, size_t n, bool want_digit)
{
	bool digit = false;

	for (size_t i = 0; i < n; i++) {
		if (is_upper_hex(s[i]))
			digit = true;
		else if (s[i] != ' ' && s[i] != '\r')
			return false;
	}
	return digit || !want_digit;
}

/* Makes REC hold at least N bytes, keeping what it holds. */
static void grow(struct fh_shapes *s, size_t n)
{
	if (n > s->reccap) {
		size_t c = s->reccap ? s->reccap : 256;

		while (c < n)
			c *= 2;
		s->rec = fh_xrealloc(s->rec, c);
		s->reccap = c;
	}
}

/* Appends the hex digits of the N bytes at SRC to REC (at *AT). */
static void add_digits(struct fh_shapes *s, size_t *at, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!is_upper_hex(src[i]))
			continue;
		grow(s, *at + 1);
		s->rec[(*at)++] = src[i];
	}
}

/* LINE as the first line of a `gpg --print-md ALGO NAME` record, "NAME:
 * HEX HEX..." (digits in groups of 2, 4 or 8; a long NAME ends its line
 * and the groups follow), with its further lines: into OUT.  The name
 * runs to the first ": " that only groups follow.  FH_SHAPE_BAD when the
 * line is not that; nothing is read ahead then. */
static enum fh_shape_kind gpg_record(struct fh_shapes *s, struct fh_list_parser *p,
				     const char *line, size_t len,
				     struct fh_list_line *out)
{
	size_t colon = 0, at = 0, namelen;
	char *name;

	len = trimmed(line, len);
	while (colon < len) {
		const char *c = memchr(line + colon, ':', len - colon);

		if (!c)
			return FH_SHAPE_BAD;
		colon = (size_t)(c - line);
		if (colon > 0 && (colon + 1 == len || line[colon + 1] == ' ') &&
		    hex_groups(line + colon + 1, len - colon - 1, false))
			break;
		colon++;
	}
	if (colon >= len)
		return FH_SHAPE_BAD;
	/* The record in REC: the name, a NUL, then the digits. */
	name = fh_xmalloc(colon + 1);
	memcpy(name, line, colon);
	name[colon] = '\0';
	namelen = colon;
	add_digits(s, &at, line + colon + 1, len - colon - 1);
	for (;;) {
		char *l;
		size_t n;
		uintmax_t lineno;
		enum fh_lines_status st = text_next(s, &l, &n, &lineno);

		if (st == FH_LINES_END)
			break;
		if (st != FH_LINES_LINE || !hex_groups(l, n, true)) {
			put_back(s, st, l, n, lineno);
			break;
		}
		add_digits(s, &at, l, n);
	}
	grow(s, at + namelen + 1);
	memmove(s->rec + namelen + 1, s->rec, at);
	memcpy(s->rec, name, namelen + 1);
	free(name);
	if (at == 0 || fh_list_parse_digest(p, NULL, s->rec + namelen + 1, at, out) != FH_LINE_OK)
		return FH_SHAPE_BAD;
	out->name = s->rec;
	out->namelen = namelen;
	return FH_SHAPE_OK;
}

char *fh_shapes_stem(const char *list)
{
	const char *base = strrchr(list, '/');
	const char *dot = strrchr(base ? base + 1 : list, '.');
	size_t n;
	char *stem;

	base = base ? base + 1 : list;
	if (!dot || dot == base || dot[1] == '\0')
		return NULL;
	n = (size_t)(dot - list);
	stem = fh_xmalloc(n + 1);
	memcpy(stem, list, n);
	stem[n] = '\0';
	return stem;
}

/* The algorithm a sidecar's extension names: ".sha256", ".md5",
 * ".sha3-256"..., or with "sum" after it (".sha256sum"); NULL: none. */
static const struct fh_algo *of_extension(const char *list)
{
	const char *base = strrchr(list, '/');
	const char *dot = strrchr(base ? base + 1 : list, '.');
	char ext[32];
	size_t n;
	const struct fh_algo *a;

	if (!dot || (n = strlen(dot + 1)) == 0 || n >= sizeof ext)
		return NULL;
	memcpy(ext, dot + 1, n + 1);
	if ((a = fh_algo_by_name(ext)) == NULL && n > 3 &&
	    strcmp(ext + n - 3, "sum") == 0) {
		ext[n - 3] = '\0';
		a = fh_algo_by_name(ext);
	}
	return a && !a->xof ? a : NULL;
}

/* LINE (LEN bytes) as a sidecar's digest alone: the file the list is
 * named for, in the algorithm -a or its extension names, else its
 * length's.  The list must hold nothing else. */
static enum fh_shape_kind sidecar(struct fh_shapes *s, struct fh_list_parser *p,
				  const char *line, size_t len,
				  struct fh_list_line *out)
{
	char *stem = fh_shapes_stem(s->list);
	const struct fh_algo *a = p->algo && !p->group ? NULL : of_extension(s->list);
	size_t n = strlen(stem ? stem : "");

	/* The digest at the start of REC, the name after it. */
	len = trimmed(line, len);
	grow(s, len + 1 + n + 1);
	memcpy(s->rec, line, len);
	s->rec[len] = '\0';
	if (!stem || fh_list_parse_digest(p, a, s->rec, len, out) != FH_LINE_OK ||
	    !nothing_more(s)) {
		free(stem);
		return FH_SHAPE_BAD;
	}
	memcpy(s->rec + len + 1, stem, n + 1);
	free(stem);
	out->digest = s->rec;
	out->name = s->rec + len + 1;
	out->namelen = n;
	return FH_SHAPE_OK;
}

/* Whether LINE may be a gpg record's first line, worth a copy before
 * GNU's parser has a go at it: it ends in ':' or an upper-case digit. */
static bool may_be_gpg(const char *line, size_t len)
{
	len = trimmed(line, len);
	return len > 1 && (line[len - 1] == ':' || is_upper_hex(line[len - 1])) &&
	       memchr(line, ':', len);
}

enum fh_line_kind fh_shapes_sfv_line(struct fh_list_parser *p, char *line,
				     size_t len, struct fh_list_line *out)
{
	const struct fh_algo *crc32 = fh_algo_get(FH_CRC32B);
	size_t sp;

	bool crlf = len && line[len - 1] == '\r';

	memset(out, 0, sizeof *out);
	len -= crlf;
	if (len == 0 || line[0] == ';' || trimmed(line, len) == 0)
		return FH_LINE_SKIP;
	for (sp = len; sp > 0 && line[sp - 1] != ' '; sp--)
		;
	if (sp < 2 || len - sp != 8 || (p->algo && p->algo != crc32) ||
	    fh_list_parse_digest(p, crc32, line + sp, 8, out) != FH_LINE_OK)
		return FH_LINE_BAD;
	out->name = line;
	out->namelen = sp - 1;
	out->crlf = crlf;
	return FH_LINE_OK;
}

size_t fh_shapes_sfv_format(char *out, const char *name, size_t len,
			    const uint8_t *crc, size_t n)
{
	memcpy(out, name, len);
	out[len] = ' ';
	for (size_t i = 0; i < n; i++) {
		out[len + 1 + 2 * i] = "0123456789ABCDEF"[crc[i] >> 4];
		out[len + 2 + 2 * i] = "0123456789ABCDEF"[crc[i] & 15];
	}
	out[len + 1 + 2 * n] = '\n';
	return len + 2 + 2 * n;
}

bool fh_shapes_sfv_name_ok(const char *name, size_t len)
{
	return len && name[0] != ';' && !memchr(name, '\n', len);
}

enum fh_shape_kind fh_shapes_next(struct fh_shapes *s, struct fh_list_parser *p,
				  struct fh_list_line *out, uintmax_t *lineno)
{
	while (s->sfv) {
		char *line;
		size_t len;
		enum fh_lines_status st = text_next(s, &line, &len, lineno);
		enum fh_line_kind kind;

		if (st == FH_LINES_END)
			return FH_SHAPE_END;
		s->entries++;
		if (st == FH_LINES_TOO_LONG)
			return FH_SHAPE_BAD;
		kind = fh_shapes_sfv_line(p, line, len, out);
		if (kind == FH_LINE_SKIP) {
			s->entries--;
			continue;
		}
		return kind == FH_LINE_OK ? FH_SHAPE_OK : FH_SHAPE_BAD;
	}

	for (;;) {
		char *line, *orig = NULL;
		size_t len;
		enum fh_line_kind kind;
		enum fh_lines_status st = text_next(s, &line, &len, lineno);
		bool first = s->entries == 0;

		s->single = false;
		if (st == FH_LINES_END)
			return FH_SHAPE_END;
		if (st == FH_LINES_TOO_LONG) {
			s->entries++;
			return FH_SHAPE_BAD;
		}
		/* A hashdeep list, by its first line: rows, not GNU lines. */
		if (s->on && s->hashdeep && *lineno == 1 && fh_hashdeep_starts(line, len))
			s->hashdeep->on = true;
		if (s->hashdeep && s->hashdeep->on) {
			kind = fh_hashdeep_parse(s->hashdeep, line, len, out);
			if (kind == FH_LINE_SKIP)
				continue;
			s->entries++;
			return kind == FH_LINE_OK ? FH_SHAPE_OK : FH_SHAPE_BAD;
		}
		/* The parser writes into the line: a line that may be a
		 * sidecar's or gpg's is kept as it was; a first line is
		 * parsed from a copy, since the lines after it are read to
		 * see whether it is alone. */
		if (s->on && (first || may_be_gpg(line, len))) {
			orig = keep(&s->orig, &s->origcap, line, len);
			if (first)
				line = keep(&s->rec, &s->reccap, line, len);
		}
		kind = fh_list_parse(p, line, len, out);
		if (kind == FH_LINE_SKIP)
			continue;
		s->entries++;
		if (kind == FH_LINE_OK) {
			/* Only a named list can be a sidecar: standard input's
			 * first line is not held for the next one to come. */
			s->single = s->on && first && s->list && nothing_more(s);
			return FH_SHAPE_OK;
		}
		if (kind == FH_LINE_UNSUPPORTED)
			return FH_SHAPE_UNSUPPORTED;
		if (!orig)
			return FH_SHAPE_BAD;
		if (first && s->list && sidecar(s, p, orig, len, out) == FH_SHAPE_OK) {
			s->single = true;
			return FH_SHAPE_OK;
		}
		if (!may_be_gpg(orig, len) || gpg_record(s, p, orig, len, out) != FH_SHAPE_OK)
			return FH_SHAPE_BAD;
		s->single = first && s->list && nothing_more(s);
		return FH_SHAPE_OK;
	}
}

void fh_shapes_free(struct fh_shapes *s)
{
	free(s->ahead);
	free(s->rec);
	free(s->orig);
	s->ahead = s->rec = s->orig = NULL;
	s->aheadcap = s->reccap = s->origcap = 0;
}
