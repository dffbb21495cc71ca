/* checklist.c: the lines of GNU checksum lists.  fh_list_parse reads one
 * line of a `-c` list the way GNU md5sum 9.1 does (its split_3,
 * bsd_split_3 and filename_unescape, re-derived and checked byte for byte
 * against md5sum -c), generalised to several algorithms: the tag or the hex
 * length picks the algorithm where -a does not.  GNU treats the line as a C
 * string in places, so a NUL byte ends an unescaped name and ends the
 * digest of a tagged line; those quirks are reproduced on purpose, since a
 * drop-in must accept and reject exactly the lines md5sum does.
 * fh_format_line writes the lines that md5sum prints when generating.
 */
#include <string.h>

#include "checklist.h"

/* The longest tag ("SHA3-256", "SHAKE128"), with room to spare; it bounds
 * both the tag scan in the parser and fh_format_size. */
#define TAG_MAX 16

/* GNU's ISWHITE: only space and tab separate fields.  Other isspace()
 * characters (\v, \f, \r) make a line improper; md5sum agrees. */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The number of hex digits at the start of S (at most N). */
static size_t hex_run(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && hex_value((unsigned char)s[i]) >= 0)
		i++;
	return i;
}

void fh_list_parser_init(struct fh_list_parser *p, const struct fh_algo *algo,
			 bool any_sha3, size_t outlen)
{
	p->algo = algo;
	p->any_sha3 = any_sha3;
	p->outlen = outlen;
	p->list_is_stdin = false;
	p->reversed = -1;
}

static bool is_fixed_sha3(const struct fh_algo *a)
{
	return a->id == FH_SHA3_224 || a->id == FH_SHA3_256 ||
	       a->id == FH_SHA3_384 || a->id == FH_SHA3_512;
}

/* Whether HEXLEN digits are a digest of A: fixed algorithms have one
 * length; SHAKE has -l's, or any whole number of bytes up to the limit. */
static bool hexlen_fits(const struct fh_list_parser *p,
			const struct fh_algo *a, size_t hexlen)
{
	if (!a->xof)
		return hexlen == 2 * (size_t)a->digest_bytes;
	if (p->outlen && a == p->algo)
		return hexlen == 2 * p->outlen;
	return hexlen >= 2 && hexlen % 2 == 0 &&
	       hexlen <= 2 * (size_t)FH_MAX_XOF_BYTES;
}

/* The algorithm whose tag S begins with, the tag followed by ' ' or '('
 * (SHA3-224 and SHA3-256 share a prefix, so a bare prefix test would be
 * wrong); NULL if none.  *TAGLEN gets the tag's length. */
static const struct fh_algo *match_tag(const char *s, size_t n,
				       size_t *taglen)
{
	size_t lim = n < TAG_MAX ? n : TAG_MAX;

	for (size_t k = 1; k < lim; k++) {
		if (s[k] == ' ' || s[k] == '(') {
			*taglen = k;
			return fh_algo_by_tag(s, k);
		}
	}
	return NULL;
}

/* Unescapes the N bytes at S in place: only \\, \n and \r are escapes (\r
 * since GNU 9.0); any other, a lone trailing '\' and a NUL anywhere make
 * the name improper.  Returns false for those, else the new length. */
static bool unescape(char *s, size_t n, size_t *outlen)
{
	size_t d = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\0')
			return false;
		if (c == '\\') {
			if (++i == n)
				return false;
			switch (s[i]) {
			case '\\': c = '\\'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			default: return false;
			}
		}
		s[d++] = c;
	}
	*outlen = d;
	return true;
}

/* The name's final length: unescaped, or cut at the first NUL as GNU's C
 * strings cut it.  False when the escapes are improper. */
static bool finish_name(char *name, size_t n, bool escaped, size_t *namelen)
{
	const char *nul;

	if (escaped)
		return unescape(name, n, namelen);
	nul = memchr(name, '\0', n);
	*namelen = nul ? (size_t)(nul - name) : n;
	return true;
}

/* TAG (NAME) = HEX, from just after the tag.  S holds N bytes. */
static enum fh_line_kind parse_tagged(const struct fh_list_parser *p,
				      const struct fh_algo *a, char *s,
				      size_t n, bool escaped,
				      struct fh_list_line *out)
{
	size_t i = 0, close, hexlen;

	/* One optional space: "MD5  (a)" and "MD5\t(a)" are improper. */
	if (i < n && s[i] == ' ')
		i++;
	if (i >= n || s[i] != '(')
		return FH_LINE_BAD;
	s += i + 1;
	n -= i + 1;
	if (n == 0)
		return FH_LINE_BAD;

	/* The name runs to the last ')' of the line, so "MD5 (x) = y) = H"
	 * names "x) = y"; a ')' at the very start gives an empty name. */
	close = n - 1;
	while (close > 0 && s[close] != ')')
		close--;
	if (s[close] != ')')
		return FH_LINE_BAD;
	out->name = s;
	if (!finish_name(s, close, escaped, &out->namelen))
		return FH_LINE_BAD;

	i = close + 1;
	while (i < n && is_blank(s[i]))
		i++;
	if (i >= n || s[i] != '=')
		return FH_LINE_BAD;
	i++;
	while (i < n && is_blank(s[i]))
		i++;

	/* The digest runs to the end of the line: a trailing blank is
	 * improper, but GNU stops reading at a NUL, so junk after a NUL that
	 * follows the digest goes unnoticed. */
	hexlen = hex_run(s + i, n - i);
	if (i + hexlen < n && s[i + hexlen] != '\0')
		return FH_LINE_BAD;
	if (!hexlen_fits(p, a, hexlen))
		return FH_LINE_BAD;
	out->algo = a;
	out->hex = s + i;
	out->hexlen = hexlen;
	out->binary = false;
	return FH_LINE_OK;
}

/* HEX  NAME, HEX *NAME or the reversed HEX NAME; S holds N bytes from the
 * first hex digit. */
static enum fh_line_kind parse_untagged(struct fh_list_parser *p, char *s,
					size_t n, bool escaped,
					struct fh_list_line *out)
{
	size_t hexlen = hex_run(s, n), i;
	const struct fh_algo *a;

	if (p->algo && !p->any_sha3) {
		a = p->algo;
		if (!hexlen_fits(p, a, hexlen))
			return FH_LINE_BAD;
	} else {
		/* By hex length; -a sha3 leaves out MD5's 32. */
		a = fh_algo_by_hexlen(hexlen);
		if (!a || (p->any_sha3 && !is_fixed_sha3(a)))
			return FH_LINE_BAD;
	}
	/* GNU wants the digest, one blank and at least one more byte: "HEX "
	 * alone is improper, while "HEX  " names " " (reversed form). */
	if (n < hexlen + 2 || !is_blank(s[hexlen]))
		return FH_LINE_BAD;
	out->algo = a;
	out->hex = s;
	out->hexlen = hexlen;
	out->binary = false;
	i = hexlen + 1;

	/* The latch: the first untagged line decides between the GNU form
	 * (mode character ' ' or '*') and BSD's `md5 -r` form, for the rest
	 * of the run, so that a renamed file with a leading space cannot turn
	 * one form into the other.  It is set before the name is checked:
	 * an improper escape on a reversed first line still sets it. */
	if (n - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		if (p->reversed == 0)
			return FH_LINE_BAD;
		p->reversed = 1;
	} else if (p->reversed != 1) {
		p->reversed = 0;
		out->binary = s[i] == '*';
		i++;
	}
	/* All the rest is the name, leading and trailing spaces included. */
	out->name = s + i;
	if (!finish_name(s + i, n - i, escaped, &out->namelen))
		return FH_LINE_BAD;
	return FH_LINE_OK;
}

enum fh_line_kind fh_list_parse(struct fh_list_parser *p, char *line,
				size_t len, struct fh_list_line *out)
{
	enum fh_line_kind kind;
	const struct fh_algo *a;
	bool escaped = false;
	size_t i = 0, taglen = 0;

	memset(out, 0, sizeof *out);
	/* GNU looks for '#' before it strips the CR, and only in column 1. */
	if (len > 0 && line[0] == '#')
		return FH_LINE_SKIP;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	/* Empty lines are skipped, but a line of blanks is improper. */
	if (len == 0)
		return FH_LINE_SKIP;

	while (i < len && is_blank(line[i]))
		i++;
	if (i < len && line[i] == '\\') {
		escaped = true;
		i++;
	}

	/* A line's tag names its algorithm, whatever -a says (SPEC.md,
	 * Checking): one list may mix algorithms. */
	a = match_tag(line + i, len - i, &taglen);
	if (a)
		kind = parse_tagged(p, a, line + i + taglen, len - i - taglen,
				    escaped, out);
	else
		kind = parse_untagged(p, line + i, len - i, escaped, out);

	/* "-" would be the list itself when the list is standard input.  GNU
	 * compares C strings, so "-" followed by a NUL counts too. */
	if (kind == FH_LINE_OK && p->list_is_stdin && out->namelen == 1 &&
	    out->name[0] == '-')
		kind = FH_LINE_BAD;
	if (kind != FH_LINE_OK)
		memset(out, 0, sizeof *out);
	return kind;
}

/* An odd HEXLEN cannot be whole bytes, so it is refused too. */
bool fh_unhex(uint8_t *out, const char *hex, size_t hexlen)
{
	if (hexlen % 2)
		return false;
	for (size_t i = 0; i < hexlen; i += 2) {
		int hi = hex_value((unsigned char)hex[i]);
		int lo = hex_value((unsigned char)hex[i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

bool fh_name_needs_escape(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (name[i] == '\\' || name[i] == '\n' || name[i] == '\r')
			return true;
	return false;
}

size_t fh_escape_name(char *out, const char *name, size_t len, bool escape)
{
	size_t o = 0;

	if (!escape) {
		memcpy(out, name, len);
		return len;
	}
	for (size_t i = 0; i < len; i++) {
		switch (name[i]) {
		case '\\': out[o++] = '\\'; out[o++] = '\\'; break;
		case '\n': out[o++] = '\\'; out[o++] = 'n'; break;
		case '\r': out[o++] = '\\'; out[o++] = 'r'; break;
		default: out[o++] = name[i]; break;
		}
	}
	return o;
}

/* '\', tag, " (", escaped name, ") = ", digest, line end: the tagged form
 * is the longer one. */
size_t fh_format_size(size_t hexlen, size_t namelen)
{
	return 1 + TAG_MAX + 2 + 2 * namelen + 4 + hexlen + 1;
}

size_t fh_format_line(char *out, const struct fh_algo *algo, const char *hex,
		      size_t hexlen, const char *name, size_t len, int flags)
{
	bool zero = flags & FH_FMT_ZERO;
	bool escape = !zero && fh_name_needs_escape(name, len);
	size_t o = 0;

	/* GNU marks an escaped line by a leading '\', before the tag too. */
	if (escape)
		out[o++] = '\\';
	if (flags & FH_FMT_TAG) {
		size_t taglen = strlen(algo->tag);

		memcpy(out + o, algo->tag, taglen);
		o += taglen;
		memcpy(out + o, " (", 2);
		o += 2;
		o += fh_escape_name(out + o, name, len, escape);
		memcpy(out + o, ") = ", 4);
		o += 4;
	}
	/* Digests are printed in lower case whatever case they came in. */
	for (size_t i = 0; i < hexlen; i++) {
		char c = hex[i];

		out[o++] = c >= 'A' && c <= 'F' ? (char)(c - 'A' + 'a') : c;
	}
	/* --tag ignores the mode: GNU prints no '*' there. */
	if (!(flags & FH_FMT_TAG)) {
		out[o++] = ' ';
		out[o++] = flags & FH_FMT_BINARY ? '*' : ' ';
		o += fh_escape_name(out + o, name, len, escape);
	}
	out[o++] = zero ? '\0' : '\n';
	return o;
}
