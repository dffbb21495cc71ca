/* quote.c: file names and arguments as GNU coreutils quotes them.
 *
 * Written to match coreutils 9.1's observed output (md5sum for names, cksum
 * for quote()), not copied from its source.  A name is cut into units: one
 * byte in a single-byte locale, one character (or one invalid byte, or an
 * incomplete tail) in a multibyte one.  A unit is printable if
 * isprint/iswprint says so; every other unit is written as escapes of its
 * bytes.  fh_quotef() then picks one of three shell forms (bare when nothing
 * needs quoting, "double" when only a ' does, else 'single' with $'...'
 * escapes) and fh_quote() wraps in the locale's quotes with C backslash
 * escapes.  The comments below give the rules; tests/unit/test_quote.c pins
 * them down with md5sum's own output.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "cli.h"
#include "quote.h"

#include <ctype.h>
#include <langinfo.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* Defined by the program (cmd/out.c); names it in the out-of-memory line. */
extern const char *fh_prog;

struct ring {
	char *buf[FH_QUOTE_SLOTS];
	size_t cap[FH_QUOTE_SLOTS];
	unsigned next;
};

/* One ring per function, so quoting a name never invalidates an argument
 * quoted for the same message. */
static struct ring quotef_ring, quote_ring;

static void out_of_memory(void)
{
	fh_out_of_memory();
}

/* A buffer of at least NEED bytes from the next slot of R. */
static char *ring_take(struct ring *r, size_t need)
{
	unsigned i = r->next;

	r->next = (i + 1) % FH_QUOTE_SLOTS;
	if (r->cap[i] < need) {
		/* Round up so a run of growing names does not realloc each time. */
		size_t cap = need < 256 ? 256 : need;
		char *p;

		if (cap < SIZE_MAX / 2)
			cap += cap / 2;
		p = realloc(r->buf[i], cap);
		if (!p)
			out_of_memory();
		r->buf[i] = p;
		r->cap[i] = cap;
	}
	return r->buf[i];
}

/* A walk over the units of a string. */
struct units {
	const unsigned char *p;
	size_t len, pos;
	bool multibyte;
	mbstate_t st;
};

static void units_start(struct units *u, const char *s, size_t len)
{
	u->p = (const unsigned char *)s;
	u->len = len;
	u->pos = 0;
	/* coreutils judges single-byte locales (C, POSIX, Latin-1...) with
	 * isprint, where bytes >= 0x80 are unprintable in C. */
	u->multibyte = MB_CUR_MAX > 1;
	memset(&u->st, 0, sizeof u->st);
}

/* Length of the unit at u->pos (0 at the end); *PRINTABLE says whether it
 * is written as it is. */
static size_t units_next(struct units *u, bool *printable)
{
	size_t left = u->len - u->pos;
	unsigned char c;
	wchar_t w;
	size_t n;

	if (!left)
		return 0;
	c = u->p[u->pos];
	if (!u->multibyte || c < 0x80) {
		*printable = c && isprint(c);
		return 1;
	}
	n = mbrtowc(&w, (const char *)u->p + u->pos, left, &u->st);
	if (n == (size_t)-1) {
		/* An invalid byte is escaped alone; decoding resumes after it. */
		memset(&u->st, 0, sizeof u->st);
		*printable = false;
		return 1;
	}
	if (n == (size_t)-2) {
		/* A character cut short by the end of the name. */
		memset(&u->st, 0, sizeof u->st);
		*printable = false;
		return left;
	}
	if (n == 0) {
		*printable = false;
		return 1;
	}
	*printable = iswprint((wint_t)w) != 0;
	return n;
}

/* The letter of a C escape for control byte C, or 0 if it has none. */
static char escape_letter(unsigned char c)
{
	switch (c) {
	case '\a': return 'a';
	case '\b': return 'b';
	case '\f': return 'f';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\t': return 't';
	case '\v': return 'v';
	default: return 0;
	}
}

/* Writes the escape of byte C at O: \n and friends, else three octal
 * digits, which is what both $'...' and the locale style print. */
static char *put_escape(char *o, unsigned char c)
{
	char letter = escape_letter(c);

	*o++ = '\\';
	if (letter) {
		*o++ = letter;
	} else {
		*o++ = (char)('0' + (c >> 6));
		*o++ = (char)('0' + ((c >> 3) & 7));
		*o++ = (char)('0' + (c & 7));
	}
	return o;
}

static char *put(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	return o + n;
}

/* Whether printable ASCII byte C at byte offset I of a LEN-byte name forces
 * the name into quotes.  The shell metacharacters always do, and ':' does
 * because quotef quotes it too; '#' and '~' matter only where a shell sees
 * them (first), '{' and '}' only alone (brace expansion needs more). */
static bool forces_quotes(unsigned char c, size_t i, size_t len)
{
	if (c == '#' || c == '~')
		return i == 0;
	if (c == '{' || c == '}')
		return len == 1;
	return strchr(" !\"$&'()*;<=>?[\\^`|:", c) != NULL;
}

/* Whether printable ASCII byte C may sit in the "double-quoted" form, which
 * coreutils uses for a name whose only problem is a single quote.  Space,
 * the quote itself and the always-harmless characters (letters, digits,
 * %+,-./:@]_) may; the metacharacters may not.  Oddly, '#' and '~' may only
 * at the start and '{' and '}' only alone: exactly where they force quotes,
 * the reverse of what one would expect ("~'" gives "~'" but "a'~" gives
 * 'a'\''~').  md5sum does so, so fhsum follows. */
static bool double_quote_safe(unsigned char c, size_t i, size_t len)
{
	if (c == ' ' || c == '\'')
		return true;
	if (c == '#' || c == '~')
		return i == 0;
	if (c == '{' || c == '}')
		return len == 1;
	return strchr("!\"$&()*;<=>?[\\^`|", c) == NULL;
}

const char *fh_quotef(const char *name, size_t len)
{
	const unsigned char *p = (const unsigned char *)name;
	bool bare = true, has_squote = false, dq_safe = true;
	bool last_escaped = false, printable, pending;
	struct units u;
	size_t n, i;
	char *buf, *o;

	/* Worst case: a printable byte after an escape run costs 3 ("''x"), an
	 * escaped one after text 7 ("'$'\ooo"), a quote 4; 7 per byte bounds
	 * every mix, plus the outer quotes and the stray "''" below. */
	if (len > (SIZE_MAX - 8) / 7)
		out_of_memory();

	if (len == 0)
		return strcpy(ring_take(&quotef_ring, 3), "''");

	units_start(&u, name, len);
	for (i = 0; (n = units_next(&u, &printable)); i += n, u.pos += n) {
		last_escaped = !printable;
		if (!printable) {
			bare = dq_safe = false;
		} else if (n == 1 && p[i] < 0x80) {
			if (forces_quotes(p[i], i, len))
				bare = false;
			if (!double_quote_safe(p[i], i, len))
				dq_safe = false;
			if (p[i] == '\'')
				has_squote = true;
		}
	}

	buf = ring_take(&quotef_ring, 7 * len + 8);
	if (bare) {
		memcpy(buf, name, len);
		buf[len] = '\0';
		return buf;
	}
	if (has_squote && dq_safe) {
		/* Nothing in the name is special inside double quotes. */
		buf[0] = '"';
		memcpy(buf + 1, name, len);
		buf[len + 1] = '"';
		buf[len + 2] = '\0';
		return buf;
	}

	/* 'single quotes', ' as '\'', and unprintable runs as $'...' pieces:
	 * 'a'$'\n''b'.  PENDING means a $'...' piece is open.
	 *
	 * coreutils 9.1 starts PENDING as true when the name has a ' and ends
	 * with an escape (state left over from its first try at the double-
	 * quoted form), so the output opens with a spare "''" before text, or
	 * an escape run starts without its "'$'": "a'\303" in the C locale
	 * gives '''a'\'''$'\303'.  Still valid shell, and md5sum prints it, so
	 * fhsum does too. */
	pending = has_squote && last_escaped;
	o = buf;
	*o++ = '\'';
	units_start(&u, name, len);
	for (i = 0; (n = units_next(&u, &printable)); i += n, u.pos += n) {
		if (!printable) {
			if (!pending)
				o = put(o, "'$'");
			pending = true;
			for (size_t k = 0; k < n; k++)
				o = put_escape(o, p[i + k]);
		} else if (n == 1 && p[i] == '\'') {
			/* Closes whichever quotes are open, $'...' included. */
			o = put(o, "'\\''");
			pending = false;
		} else {
			if (pending)
				o = put(o, "''");
			pending = false;
			memcpy(o, p + i, n);
			o += n;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return buf;
}

/* Whether the locale's charset is UTF-8, the one case where quote() uses
 * curly quotes (coreutils has no message catalog here to say otherwise). */
static bool utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);
	const char *want = "utf-8";

	if (!cs)
		return false;
	for (; *want; cs++, want++)
		if (tolower((unsigned char)*cs) != *want)
			return false;
	return *cs == '\0';
}

const char *fh_quote(const char *s)
{
	bool utf8 = utf8_locale();
	const char *lq = utf8 ? "\xe2\x80\x98" : "'";
	const char *rq = utf8 ? "\xe2\x80\x99" : "'";
	size_t rqlen = strlen(rq), len = strlen(s), n, i;
	const unsigned char *p = (const unsigned char *)s;
	struct units u;
	bool printable;
	char *buf, *o;

	/* Four bytes ("\ooo") per byte at most, plus both quotes. */
	if (len > (SIZE_MAX - 8) / 4)
		out_of_memory();
	buf = ring_take(&quote_ring, 4 * len + 2 * rqlen + 1);

	o = put(buf, lq);
	units_start(&u, s, len);
	for (i = 0; (n = units_next(&u, &printable)); i += n, u.pos += n) {
		if (!printable) {
			for (size_t k = 0; k < n; k++)
				o = put_escape(o, p[i + k]);
			continue;
		}
		/* A backslash and the closing quote are escaped so the text
		 * between the quotes reads back unambiguously; the opening
		 * quote needs nothing. */
		if ((n == 1 && p[i] == '\\') ||
		    (n == rqlen && memcmp(p + i, rq, rqlen) == 0))
			*o++ = '\\';
		memcpy(o, p + i, n);
		o += n;
	}
	o = put(o, rq);
	*o = '\0';
	return buf;
}
