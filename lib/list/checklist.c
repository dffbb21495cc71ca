/* checklist.c: the lines of GNU checksum lists.  fh_list_parse reads one
 * line of a `-c` list the way GNU md5sum 9.1 does (its split_3,
 * bsd_split_3 and filename_unescape, re-derived and checked byte for byte
 * against md5sum -c), generalised to several algorithms: the tag or the
 * digest's length picks the algorithm where -a does not, and digests may be
 * written in base64 as GNU cksum 9.2 (tagged) and 9.9 (untagged) read them.  GNU treats the line as a C
 * string in places, so a NUL byte ends an unescaped name and ends the
 * digest of a tagged line; those quirks are reproduced on purpose, since a
 * drop-in must accept and reject exactly the lines md5sum does.
 * fh_format_line writes the lines that md5sum (and cksum, for --base64)
 * prints when generating.
 */
#include <stdio.h>
#include <string.h>

#include "checklist.h"

/* FH_TAG_MAX bounds both the tag scan in the parser and fh_format_size. */
#define TAG_MAX FH_TAG_MAX

/* GNU's ISWHITE: only space and tab separate fields.  Other isspace()
 * characters (\v, \f, \r) make a line improper; md5sum agrees. */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Each byte's value as a hex digit (either case) plus 1, 0 for any other
 * byte: a table, as every digit of a list of millions is read twice (its
 * run, its value). */
#define HEX_DIGITS(d) [d] = (d) - '0' + 1
#define HEX_LETTER(l) [l] = (l) - 'a' + 11, [(l) - 'a' + 'A'] = (l) - 'a' + 11
static const signed char hex_table[256] = {
	HEX_DIGITS('0'), HEX_DIGITS('1'), HEX_DIGITS('2'), HEX_DIGITS('3'),
	HEX_DIGITS('4'), HEX_DIGITS('5'), HEX_DIGITS('6'), HEX_DIGITS('7'),
	HEX_DIGITS('8'), HEX_DIGITS('9'),
	HEX_LETTER('a'), HEX_LETTER('b'), HEX_LETTER('c'), HEX_LETTER('d'),
	HEX_LETTER('e'), HEX_LETTER('f'),
};
#undef HEX_DIGITS
#undef HEX_LETTER

static int hex_value(unsigned char c)
{
	return hex_table[c] - 1;
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
			 const struct fh_algo_row *group, size_t outlen)
{
	p->algo = algo;
	p->group = group;
	p->outlen = outlen;
	p->list_is_stdin = false;
	p->published = false;
	p->tags_only = false;
	p->tags_rule = false;
	p->untagged_le = false;
	p->reversed = -1;
	p->ndeclared = 0;
	p->next_algo = NULL;
	p->unknown_tags = false;
	p->hex_only = false;
	p->xxhsum_lines = false;
}

const struct fh_algo *fh_list_declared(const struct fh_list_parser *p,
				       size_t outlen)
{
	for (size_t i = 0; i < p->ndeclared; i++)
		if (p->declared[i]->digest_bytes == outlen)
			return p->declared[i];
	return NULL;
}

/* Another algorithm of the table than A with A's fixed digest length, or
 * NULL: then A's length alone tells A. */
static const struct fh_algo *other_of_length(const struct fh_algo *a)
{
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *b = fh_algo_get((enum fh_algo_id)id);

		if (b && b != a && fh_algo_untagged_as(b, a->digest_bytes))
			return b;
	}
	return NULL;
}

/* The algorithm a "KEY=NAME" word of a "#fhsum" line names, or NULL. */
static const struct fh_algo *named(const char *w, size_t n, const char *key)
{
	size_t k = strlen(key);
	char name[32];

	if (n <= k || n - k >= sizeof name || memcmp(w, key, k) != 0)
		return NULL;
	memcpy(name, w + k, n - k);
	name[n - k] = '\0';
	const struct fh_algo *a = fh_algo_by_name(name);

	return a && fh_algo_untagged_as(a, a->digest_bytes) ? a : NULL;
}

/* A "#fhsum ..." line (LEN bytes): its words "untagged=NAME" and
 * "algorithm=NAME" noted in P; the others are the metadata's. */
static void fhsum_line(struct fh_list_parser *p, const char *line, size_t len)
{
	size_t i = 7;

	while (i < len) {
		size_t w = i;

		while (i < len && line[i] != ' ' && line[i] != '\r')
			i++;
		const struct fh_algo *a;

		if ((a = named(line + w, i - w, "algorithm=")) != NULL) {
			p->next_algo = a;
		} else if ((a = named(line + w, i - w, "untagged=")) != NULL) {
			size_t d = 0;

			while (d < p->ndeclared && p->declared[d]->digest_bytes != a->digest_bytes)
				d++;
			if (d < FH_DECLARED_MAX) {
				p->declared[d] = a;
				p->ndeclared += d == p->ndeclared;
			}
		}
		i++;
	}
}

/* Whether the run's -a (a group without -l) admits A. */
static bool in_group_run(const struct fh_list_parser *p, const struct fh_algo *a)
{
	return p->group && fh_algo_in_group(a, p->group);
}

/* The algorithm of a digest of BYTES bytes: the member of the run's group
 * of that length, else the first algorithm of it. */
static const struct fh_algo *of_bytes(const struct fh_list_parser *p,
				      size_t bytes)
{
	return p->group ? fh_algo_group_member(p->group, 8ull * bytes)
			: fh_algo_by_hexlen(2 * bytes);
}

/* Whether BYTES is a digest length of A: fixed algorithms have one; SHAKE
 * and the others of any length have WANT's when it is not 0 (a tagged
 * line's), else -l's, or any up to the limit. */
static bool outlen_fits(const struct fh_list_parser *p,
			const struct fh_algo *a, size_t want, size_t bytes)
{
	if (!a->xof)
		return bytes == (size_t)a->digest_bytes;
	if (want)
		return bytes == want;
	if (p->outlen && a == p->algo)
		return bytes == p->outlen;
	return bytes >= 1 && bytes <= fh_algo_max_bytes(a);
}

/* A bit per byte value: '+', '/', '0'-'9' in the first word, 'A'-'Z' and
 * 'a'-'z' in the second.  Without a branch per character: in a list's
 * digests letters and digits alternate as no predictor can follow. */
static const uint64_t base64_map[4] = {
	1ull << '+' | 1ull << '/' | 0x3ffull << '0',
	0x3ffffffull << ('A' - 64) | 0x3ffffffull << ('a' - 64),
};

static bool is_base64_char(unsigned char c)
{
	return base64_map[c >> 6] >> (c & 63) & 1;
}

/* The length of the digest at S (at most N bytes): base64 characters, hex
 * digits among them, then at most two '=' of padding. */
static size_t digest_run(const char *s, size_t n)
{
	size_t i = 0, pad = 0;

	while (i < n && is_base64_char((unsigned char)s[i]))
		i++;
	while (i < n && pad < 2 && s[i] == '=') {
		i++;
		pad++;
	}
	return i;
}

/* The bytes that the N characters at S encode in padded base64, or 0 when
 * they are not that: whole groups of four, '=' only at the end. */
static size_t base64_bytes(const char *s, size_t n)
{
	size_t pad = 0;

	if (n == 0 || n % 4)
		return 0;
	while (pad < 2 && s[n - 1 - pad] == '=')
		pad++;
	for (size_t i = 0; i < n - pad; i++)
		if (!is_base64_char((unsigned char)s[i]))
			return 0;
	return n / 4 * 3 - pad;
}

/* Takes the N characters at S as A's digest: hex where they are hex digits
 * throughout, of a length that A takes, else base64 of a length that A
 * takes.  Hex comes first, as in GNU cksum 9.9: 64 hex digits are
 * SHA3-256's digest, never SHA3-384's in base64 (which would have to be
 * written with hex digits alone: a chance of 1 in 10^29). */
static bool take_digest(const struct fh_list_parser *p, const struct fh_algo *a,
			size_t want, const char *s, size_t n,
			struct fh_list_line *out)
{
	size_t bytes;

	if (hex_run(s, n) == n && n % 2 == 0 && outlen_fits(p, a, want, n / 2)) {
		out->base64 = false;
		out->outlen = n / 2;
	} else if (!p->hex_only && (bytes = base64_bytes(s, n)) != 0 &&
		   outlen_fits(p, a, want, bytes)) {
		out->base64 = true;
		out->outlen = bytes;
	} else {
		return false;
	}
	out->algo = a;
	out->digest = s;
	out->digestlen = n;
	return true;
}

/* The length in bits that ends a tag, "-512" in "KT128-512" (the form
 * GNU cksum writes for "BLAKE2b-256"), as bytes of an extendable-output
 * algorithm's digest; 0 when the N bytes at S are not that. */
static size_t tag_bytes(const char *s, size_t n)
{
	size_t bits = 0;

	if (n < 2 || n > 8 || s[0] != '-' || s[1] == '0')
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		bits = bits * 10 + (size_t)(s[i] - '0');
	}
	if (bits % 8 || bits / 8 > FH_MAX_XOF_BYTES)
		return 0;
	return bits / 8;
}

/* The algorithm whose tag S begins with, the tag followed by ' ' or '('
 * (SHA3-224 and SHA3-256 share a prefix, so a bare prefix test would be
 * wrong); NULL if none.  *TAGLEN gets the tag's length, and *WANT the
 * digest's length in bytes when the tag states one ("SHAKE128-256", for
 * an extendable-output algorithm alone), else 0. */
static const struct fh_algo *match_tag(const struct fh_list_parser *p,
				       const char *s, size_t n,
				       size_t *taglen, size_t *want,
				       bool *anylen, bool *le, bool *ossl3)
{
	size_t lim = n < TAG_MAX ? n : TAG_MAX;

	/* Every tag begins with a capital letter (algo.c; test_checklist
	 * holds them to it): a line of lower-case hex is not scanned. */
	if (n == 0 || s[0] < 'A' || s[0] > 'Z')
		return NULL;
	for (size_t k = 1; k < lim; k++) {
		if (s[k] != ' ' && s[k] != '(')
			continue;
		const struct fh_algo *a = fh_algo_by_tag(s, k);
		size_t base = k;

		*taglen = k;
		*want = 0;
		*anylen = false;
		/* OpenSSL 3's names ("SHA2-256"); its SHAKE lines are of
		 * any length ("SHAKE-128", 16 bytes by default), while
		 * "BLAKE2B-512" says its length. */
		if (!a && p->published && (a = fh_algo_by_openssl(s, k)) != NULL) {
			*anylen = a->xof && a->family == FH_FAMILY_KECCAK;
			*ossl3 = true;
			return a;
		}
		/* xxhsum's little-endian tags ("XXH64_LE"). */
		if (!a && k > 3 && memcmp(s + k - 3, "_LE", 3) == 0 &&
		    (a = fh_algo_by_tag(s, k - 3)) != NULL) {
			if (!fh_algo_row(a)->le_tags)
				return NULL;
			*le = true;
			return a;
		}
		if (!a) {
			while (base > 0 && s[base - 1] != '-')
				base--;
			if (base < 2 || !(*want = tag_bytes(s + base - 1, k - base + 1)))
				return NULL;
			a = fh_algo_by_tag(s, base - 1);
			if (!a || !a->xof || *want > fh_algo_max_bytes(a))
				return NULL;
		}
		return a;
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
				      const struct fh_algo *a, size_t want,
				      char *s, size_t n, bool escaped,
				      struct fh_list_line *out)
{
	size_t i = 0, close, len;

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
	len = digest_run(s + i, n - i);
	if (i + len < n && s[i + len] != '\0')
		return FH_LINE_BAD;
	if (!a) {
		/* A tag the table lacks: any digest in hex or base64. */
		if (len == 0 || ((hex_run(s + i, len) != len || len % 2) &&
				 !base64_bytes(s + i, len)))
			return FH_LINE_BAD;
		out->digest = s + i;
		out->digestlen = len;
		return FH_LINE_UNSUPPORTED;
	}
	if (!take_digest(p, a, want, s + i, len, out))
		return FH_LINE_BAD;
	out->binary = false;
	out->tagged = true;
	return FH_LINE_OK;
}

/* Whether tag characters: letters, digits, '-', '_' and '/'
 * ("BLAKE2b-256", "XXH128", "SHA2-512/256"). */
static bool is_tag_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '/';
}

/* The length of the tag that S (N bytes) begins with when no algorithm of
 * the table has it, nor has it with a length after a '-' ("KT128-12" is
 * KT128's, wrongly sized: improper, not unsupported): a capital letter,
 * then tag characters, then ' ' or '('.  0 otherwise. */
static size_t unknown_tag(const char *s, size_t n)
{
	size_t k = 0, base;

	if (n == 0 || s[0] < 'A' || s[0] > 'Z')
		return 0;
	while (k < n && k < TAG_MAX && is_tag_char(s[k]))
		k++;
	if (k == n || (s[k] != ' ' && s[k] != '(') || fh_algo_by_tag(s, k))
		return 0;
	base = k;
	while (base > 0 && s[base - 1] >= '0' && s[base - 1] <= '9')
		base--;
	if (base > 1 && base < k && s[base - 1] == '-' && fh_algo_by_tag(s, base - 1))
		return 0;
	return k;
}

/* The algorithm of an untagged digest of N characters at S when -a does not
 * give it: by its length in hex, or else in base64 (a member of the
 * group alone with -a sha2 or sha3).  NULL when no algorithm has that length. */
static const struct fh_algo *algo_by_digest(const struct fh_list_parser *p,
					    const char *s, size_t n)
{
	const struct fh_algo *a = NULL;
	size_t bytes;

	if (hex_run(s, n) == n && n % 2 == 0)
		a = of_bytes(p, n / 2);
	if (!a && !p->hex_only && (bytes = base64_bytes(s, n)) != 0)
		a = of_bytes(p, bytes);
	return a;
}

/* Without -a, a length several algorithms share is the one the list's
 * "#fhsum" lines name, or is settled later by the file's content: OUT's
 * ALT then names another of that length. */
static void settle_or_declared(const struct fh_list_parser *p,
			       struct fh_list_line *out)
{
	if ((out->alt = other_of_length(out->algo)) != NULL) {
		const struct fh_algo *d = p->next_algo;

		if (!d || d->digest_bytes != out->outlen)
			d = fh_list_declared(p, out->outlen);
		if (d) {
			out->algo = d;
			out->alt = NULL;
		}
	}
}

/* The N hex digits at S with their bytes in the other order. */
static void reverse_hex(char *s, size_t n)
{
	for (size_t i = 0, j = n - 2; i < j; i += 2, j -= 2) {
		char a = s[i], b = s[i + 1];

		s[i] = s[j];
		s[i + 1] = s[j + 1];
		s[j] = a;
		s[j + 1] = b;
	}
}

/* The algorithm whose untagged lines carry the prefix at S (N bytes),
 * and the prefix's length; NULL when none does. */
static const struct fh_algo *prefixed(const char *s, size_t n, size_t *len)
{
	const struct fh_algo_row *r;

	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++)
		if (r->prefix && (*len = strlen(r->prefix)) < n &&
		    memcmp(s, r->prefix, *len) == 0)
			return &r->algo;
	return NULL;
}

/* Whether A's lines are the checksum lines of cksum and sum. */
static bool is_form_line(const struct fh_algo *a)
{
	return fh_algo_row(a)->form != FH_FORM_DIGEST;
}

/* The first algorithm of the table whose lines are checksum lines of
 * four-byte values: the one a line of that form takes when nothing
 * names its algorithm, the others of its length settling with it. */
static const struct fh_algo *first_form_algo(void)
{
	for (int id = 0; id < FH_ALGO_COUNT; id++) {
		const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);

		if (is_form_line(a))
			return a;
	}
	return NULL;
}

/* A checksum line of cksum or sum, as they write it: a decimal value, one
 * or more spaces, a decimal size (bytes, or blocks), one space, the name
 * as it is (GNU does not escape these names).  A line without a name (of
 * standard input) names no file to check, and is improper.  The size is
 * not compared: the value vouches for the content. */
static enum fh_line_kind parse_form(struct fh_list_parser *p,
				    const struct fh_algo *a, char *s, size_t n,
				    struct fh_list_line *out)
{
	size_t i = 0, digits;
	uint64_t v = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9' && i < 11)
		v = v * 10 + (uint64_t)(s[i++] - '0');
	if (i == 0 || i == 11 || v > 0xffffffffu || i >= n || s[i] != ' ')
		return FH_LINE_BAD;
	while (i < n && s[i] == ' ')
		i++;
	for (digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (!digits || i + 1 >= n || s[i] != ' ')
		return FH_LINE_BAD;
	i++;
	for (int k = 0; k < 8; k++)
		out->digest_buf[k] = "0123456789abcdef"[v >> (28 - 4 * k) & 15];
	out->digest_buf[8] = '\0';
	out->algo = a ? a : first_form_algo();
	out->digest = out->digest_buf;
	out->digestlen = 8;
	out->outlen = out->algo->digest_bytes;
	out->form = true;
	if (!a)
		settle_or_declared(p, out);
	if (!finish_name(s + i, n - i, false, &out->namelen))
		return FH_LINE_BAD;
	out->name = s + i;
	return FH_LINE_OK;
}

/* Whether the N bytes at S have the shape of a line cksum or sum writes:
 * a value of up to ten digits, one space, the size in digits and a space
 * (cksum's "%u %ju ", sum -s's "%d %s "), or sum -r's "%05d %5s ": five
 * digits, one space and the size right-aligned in five columns.  A GNU
 * line's digest is followed by two blanks or " *", so a hex digest of
 * decimal digits before a name such as "2 files" is no such line; a
 * reversed line (one blank) whose name starts with digits and a space is
 * taken for one, and needs -a. */
static bool form_shape(const char *s, size_t n)
{
	size_t i = 0, digits, blanks, size_at;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	digits = i;
	if (digits == 0 || digits > 10)
		return false;
	while (i < n && s[i] == ' ')
		i++;
	blanks = i - digits;
	size_at = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (blanks == 0 || i == size_at || i >= n || s[i] != ' ')
		return false;
	return blanks == 1 || (digits == 5 && blanks - 1 + (i - size_at) == 5);
}

/* DIGEST  NAME, DIGEST *NAME or the reversed DIGEST NAME; S holds N bytes
 * from the digest's first character. */
static enum fh_line_kind parse_untagged(struct fh_list_parser *p, char *s,
					size_t n, bool escaped,
					struct fh_list_line *out)
{
	size_t len, i, plen;
	const struct fh_algo *a, *pre = prefixed(s, n, &plen);

	/* "XXH3_HEX  NAME": the prefix names the algorithm, which -a (one
	 * algorithm, or a group without -l) must admit, as for a tag. */
	if (pre) {
		if (p->group ? !in_group_run(p, pre) : p->algo && p->algo != pre && !p->tags_rule)
			return FH_LINE_BAD;
		s += plen;
		n -= plen;
	}
	len = digest_run(s, n);
	a = pre ? pre : p->algo && !p->group ? p->algo : algo_by_digest(p, s, len);
	if (!a || !take_digest(p, a, 0, s, len, out))
		return FH_LINE_BAD;
	if (!pre && !p->algo && !p->group && !a->xof)
		settle_or_declared(p, out);
	/* GNU wants the digest, one blank and at least one more byte: "HEX "
	 * alone is improper, while "HEX  " names " " (reversed form). */
	if (n < len + 2 || !is_blank(s[len]))
		return FH_LINE_BAD;
	out->binary = false;
	out->tab = s[len] == '\t';
	i = len + 1;

	/* The latch: the first untagged line decides between the GNU form
	 * (mode character ' ' or '*') and BSD's `md5 -r` form, for the rest
	 * of the run, so that a renamed file with a leading space cannot turn
	 * one form into the other.  It is set before the name is checked:
	 * an improper escape on a reversed first line still sets it. */
	if (n - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		if (p->reversed == 0)
			return FH_LINE_BAD;
		p->reversed = 1;
		out->reversed = true;
	} else if (p->reversed == 1) {
		out->reversed = true;
	} else {
		p->reversed = 0;
		out->binary = s[i] == '*';
		i++;
	}
	/* All the rest is the name, leading and trailing spaces included. */
	out->name = s + i;
	if (!finish_name(s + i, n - i, escaped, &out->namelen))
		return FH_LINE_BAD;
	out->prefixed = pre != NULL;
	return FH_LINE_OK;
}

/* A line as xxhsum 0.8.1's parseLine reads it.  It is a C string there,
 * ended by its first NUL.  Its first space ends the digest, "HEX  NAME",
 * and the byte after that space is skipped whatever it is ("HEX *NAME",
 * and "HEX xNAME" too, name NAME); or, when a '(' follows it, the tag,
 * "TAG (NAME) = HEX", the name running to the line's last space, which
 * must follow ") =".  Nothing else is special: blank lines, '#', a
 * leading blank or '\', tabs and a CR are as any other byte, so most
 * make the line improper and an untagged line's CR is its name's.  Any
 * tag is XXH64's but for those starting "XXH3", "XXH32" or "XXH128", and
 * one holding "_LE" is little-endian whatever --little-endian says. */
static enum fh_line_kind xxhsum_line(const struct fh_list_parser *p,
				     char *line, size_t len,
				     struct fh_list_line *out)
{
	/* In xxhsum's order: a later prefix wins ("XXH32" over "XXH3"). */
	static const struct {
		const char *prefix;
		enum fh_algo_id id;
	} tags[] = {
		{ "XXH3", FH_XXH3 }, { "XXH32", FH_XXH32 },
		{ "XXH64", FH_XXH64 }, { "XXH128", FH_XXH128 },
	};
	enum fh_algo_id id = FH_XXH64;
	const struct fh_algo *a;
	const char *nul = memchr(line, '\0', len);
	size_t sp = 0, last, hex = 0, n, end;
	bool le = p->untagged_le;

	if (nul)
		len = (size_t)(nul - line);
	while (sp < len && line[sp] != ' ')
		sp++;
	if (sp + 1 >= len)
		return FH_LINE_BAD;
	end = len;
	if (line[sp + 1] == '(') {
		for (last = len - 1; line[last] != ' '; last--)
			;
		if (last - sp < 5 || memcmp(line + last - 3, ") =", 3) != 0)
			return FH_LINE_BAD;
		for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++)
			if (strlen(tags[t].prefix) <= sp &&
			    memcmp(line, tags[t].prefix, strlen(tags[t].prefix)) == 0)
				id = tags[t].id;
		le = false;
		for (size_t t = 0; t + 3 <= sp; t++)
			le |= memcmp(line + t, "_LE", 3) == 0;
		hex = last + 1;
		n = len - hex;
		end = last - 3;
		out->tagged = true;
	} else {
		n = sp;
		if (n == 8)
			id = FH_XXH32;
		else if (n == 32)
			id = FH_XXH128;
	}
	a = fh_algo_get(id);
	if (n != 2 * (size_t)a->digest_bytes || hex_run(line + hex, n) != n)
		return FH_LINE_BAD;
	if (le)
		reverse_hex(line + hex, n);
	out->algo = a;
	out->digest = line + hex;
	out->digestlen = n;
	out->outlen = n / 2;
	out->name = line + sp + 2;
	out->namelen = end - (sp + 2);
	return FH_LINE_OK;
}

enum fh_line_kind fh_list_parse(struct fh_list_parser *p, char *line,
				size_t len, struct fh_list_line *out)
{
	enum fh_line_kind kind;
	const struct fh_algo *a;
	bool escaped = false;
	size_t i = 0, taglen = 0, want = 0;
	bool anylen = false, le = false, crlf = false, ossl3 = false;

	memset(out, 0, sizeof *out);
	if (p->xxhsum_lines) {
		kind = xxhsum_line(p, line, len, out);
		goto done;
	}
	/* GNU looks for '#' before it strips the CR, and only in column 1. */
	if (len > 7 && memcmp(line, "#fhsum ", 7) == 0 && !p->algo) {
		fhsum_line(p, line, len);
		return FH_LINE_SKIP;
	}
	if (len > 0 && line[0] == '#')
		return FH_LINE_SKIP;
	if (len > 0 && line[len - 1] == '\r') {
		len--;
		crlf = true;
	}
	/* Empty lines are skipped, but a line of blanks is improper. */
	if (len == 0)
		return FH_LINE_SKIP;

	while (i < len && is_blank(line[i]))
		i++;
	if (i < len && line[i] == '\\') {
		escaped = true;
		i++;
	}

	/* A line's tag names its algorithm: one list may mix algorithms.
	 * But with -a, or as md5sum and the other GNU names, the run is of
	 * one algorithm, and a tag of another makes the line improper, as
	 * GNU counts it.  An extendable-output algorithm's tagged line
	 * carries its default length, the tag's, or -l's: a digest cut
	 * short vouches for nothing. */
	/* cksum's and sum's lines, under -a of theirs or alone; with -a of
	 * another algorithm, such a line is improper as any other. */
	if (!escaped && (p->algo && !p->group ? is_form_line(p->algo)
					      : !p->group && form_shape(line + i, len - i))) {
		kind = parse_form(p, p->algo, line + i, len - i, out);
		p->next_algo = NULL;
		goto done;
	}
	a = match_tag(p, line + i, len - i, &taglen, &want, &anylen, &le, &ossl3);
	if (a && a->xof && !want && !anylen)
		want = p->outlen && a == p->algo ? p->outlen : (size_t)a->digest_bytes;
	if (a && (p->group ? !in_group_run(p, a) : p->algo && a != p->algo && !p->tags_rule))
		kind = FH_LINE_BAD;
	else if (a) {
		kind = parse_tagged(p, a, want, line + i + taglen, len - i - taglen,
				    escaped, out);
		if (kind == FH_LINE_OK) {
			out->openssl = line[i + taglen] == '(';
			out->openssl3 = out->openssl && ossl3;
		}
		/* A little-endian digest is turned around, in place. */
		if (kind == FH_LINE_OK && le) {
			if (out->base64) {
				kind = FH_LINE_BAD;
			} else {
				reverse_hex((char *)out->digest, out->digestlen);
				out->le = true;
			}
		}
	}
	else if (p->tags_only && !p->algo)
		kind = FH_LINE_BAD;
	else {
		kind = parse_untagged(p, line + i, len - i, escaped, out);
		if (kind == FH_LINE_OK && p->untagged_le && !out->base64)
			reverse_hex((char *)out->digest, out->digestlen);
	}
	p->next_algo = NULL; /* a metadata line's word is its line's alone */
	/* Where tags rule (no -a, not GNU's program), a tag of an algorithm
	 * the table lacks is said as such: a BLAKE2b list is not corrupt. */
	if (kind == FH_LINE_BAD && !a && p->unknown_tags && !p->algo && !p->group &&
	    (taglen = unknown_tag(line + i, len - i)) != 0) {
		memset(out, 0, sizeof *out);
		kind = parse_tagged(p, NULL, 0, line + i + taglen, len - i - taglen,
				    escaped, out);
		if (kind == FH_LINE_UNSUPPORTED) {
			out->tag = line + i;
			out->taglen = taglen;
			return kind;
		}
	}
done:

	/* "-" would be the list itself when the list is standard input.  GNU
	 * compares C strings, so "-" followed by a NUL counts too. */
	if (kind == FH_LINE_OK && p->list_is_stdin && out->namelen == 1 &&
	    out->name[0] == '-')
		kind = FH_LINE_BAD;
	if (kind != FH_LINE_OK)
		memset(out, 0, sizeof *out);
	else
		out->crlf = crlf;
	return kind;
}

enum fh_line_kind fh_list_parse_digest(struct fh_list_parser *p,
				       const struct fh_algo *a, const char *s,
				       size_t n, struct fh_list_line *out)
{
	bool by_length = !a && !p->algo && !p->group;

	memset(out, 0, sizeof *out);
	if (!a)
		a = p->algo && !p->group ? p->algo : algo_by_digest(p, s, n);
	if (!a || n != digest_run(s, n) || !take_digest(p, a, 0, s, n, out)) {
		memset(out, 0, sizeof *out);
		return FH_LINE_BAD;
	}
	if (by_length && !a->xof)
		settle_or_declared(p, out);
	p->next_algo = NULL;
	return FH_LINE_OK;
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

size_t fh_base64(char *out, const uint8_t *in, size_t n)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0, i = 0;

	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = alphabet[v >> 6 & 63];
		out[o++] = alphabet[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)in[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
		out[o++] = '=';
	}
	return o;
}

/* '\', tag, " (", escaped name, ") = ", digest, line end: the tagged form
 * is the longer one. */
size_t fh_format_size(size_t digestlen, size_t namelen)
{
	/* The tag, its "_LE" and " (" ") = "; or, untagged, a prefix
	 * ("XXH3_"), shorter than a tag, and the mode and a blank. */
	return 1 + TAG_MAX + 3 + 2 * namelen + 4 + digestlen + 1;
}

size_t fh_format_line(char *out, const struct fh_algo *algo,
		      const char *digest, size_t digestlen, const char *name,
		      size_t len, int flags)
{
	bool zero = flags & FH_FMT_ZERO;
	bool named = !(flags & FH_FMT_NO_NAME);
	bool tag = named && (flags & FH_FMT_TAG);
	bool escape = named && !zero && fh_name_needs_escape(name, len);
	bool ossl = tag && (flags & FH_FMT_OPENSSL) && !escape && !algo->xof &&
		    !(flags & (FH_FMT_BASE64 | FH_FMT_LE));
	size_t o = 0;

	/* GNU marks an escaped line by a leading '\', before the tag too. */
	if (escape)
		out[o++] = '\\';
	if (ossl) {
		const char *t = flags & FH_FMT_OPENSSL3 && fh_algo_row(algo)->openssl
				? fh_algo_row(algo)->openssl : algo->tag;
		size_t taglen = strlen(t);

		memcpy(out + o, t, taglen);
		o += taglen;
		out[o++] = '(';
		memcpy(out + o, name, len);
		o += len;
		memcpy(out + o, ")= ", 3);
		o += 3;
	} else if (tag) {
		size_t taglen = strlen(algo->tag);
		size_t bytes = flags & FH_FMT_BASE64 ? base64_bytes(digest, digestlen)
						     : digestlen / 2;

		memcpy(out + o, algo->tag, taglen);
		o += taglen;
		if (flags & FH_FMT_LE) {
			memcpy(out + o, "_LE", 3);
			o += 3;
		}
		/* A length other than the default is part of the tag, so
		 * that the line says what it vouches for. */
		if (algo->xof && bytes != (size_t)algo->digest_bytes) {
			char bits[24];
			size_t k = sizeof bits;

			for (size_t b = 8 * bytes; k == sizeof bits || b; b /= 10)
				bits[--k] = (char)('0' + b % 10);
			bits[--k] = '-';
			memcpy(out + o, bits + k, sizeof bits - k);
			o += sizeof bits - k;
		}
		memcpy(out + o, " (", 2);
		o += 2;
		o += fh_escape_name(out + o, name, len, escape);
		memcpy(out + o, ") = ", 4);
		o += 4;
	}
	if (!tag && !ossl && (flags & FH_FMT_PREFIX) && fh_algo_row(algo)->prefix &&
	    !(flags & FH_FMT_BASE64)) {
		size_t pl = strlen(fh_algo_row(algo)->prefix);

		memcpy(out + o, fh_algo_row(algo)->prefix, pl);
		o += pl;
	}
	/* Hex digests are printed in lower case whatever case they came in;
	 * base64 is written as it is. */
	if (flags & FH_FMT_BASE64) {
		memcpy(out + o, digest, digestlen);
		o += digestlen;
	} else {
		for (size_t i = 0; i < digestlen; i++) {
			char c = digest[i];

			out[o++] = c >= 'A' && c <= 'F' ? (char)(c - 'A' + 'a') : c;
		}
	}
	/* --tag ignores the mode: GNU prints no '*' there. */
	if (named && !tag) {
		out[o++] = flags & FH_FMT_TAB ? '\t' : ' ';
		if (!(flags & FH_FMT_REVERSED))
			out[o++] = flags & FH_FMT_BINARY ? '*' : ' ';
		o += fh_escape_name(out + o, name, len, escape);
	}
	out[o++] = zero ? '\0' : '\n';
	return o;
}

size_t fh_format_form(char *out, const struct fh_algo *algo,
		      const uint8_t *value, uint64_t size, const char *name,
		      size_t len, int flags)
{
	unsigned long v = (unsigned long)value[0] << 24 | (unsigned long)value[1] << 16 |
			  (unsigned long)value[2] << 8 | value[3];
	/* Blocks are rounded up, as GNU's human_readable with
	 * human_ceiling counts them: 1 KiB for BSD, 512 bytes for System V. */
	unsigned long long bsd_blocks = size / 1024 + (size % 1024 != 0);
	unsigned long long sysv_blocks = size / 512 + (size % 512 != 0);
	int o;

	switch (fh_algo_row(algo)->form) {
	case FH_FORM_BSD:
		o = sprintf(out, "%05lu %5llu", v, bsd_blocks);
		break;
	case FH_FORM_SYSV:
		o = sprintf(out, "%lu %llu", v, sysv_blocks);
		break;
	default:
		o = sprintf(out, "%lu %llu", v, (unsigned long long)size);
		break;
	}
	if (!(flags & FH_FMT_NO_NAME)) {
		out[o++] = ' ';
		memcpy(out + o, name, len);
		o += (int)len;
	}
	out[o++] = flags & FH_FMT_ZERO ? '\0' : '\n';
	return (size_t)o;
}
