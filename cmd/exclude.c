/* exclude.c: the patterns of --exclude and --exclude-from, and the
 * matching of walk entries and list names against them.
 *
 * Patterns are rsync's (rsync(1), INCLUDE/EXCLUDE PATTERN RULES; its
 * exclude.c and wildmatch.c are the reference, and tests/cli/exclude.bats
 * asks rsync itself), read byte-wise, whatever the locale: a name is any
 * bytes but '/' and NUL, UTF-8 or not.  Each pattern is compiled once
 * into tokens, and matched by following every way through the tokens at
 * once, one byte of the name at a time (a Thompson-style simulation), so
 * that no pattern, however many stars it holds, costs more than its
 * length times the name's. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "exclude.h"
#include "lines.h"

#ifndef PATH_MAX
# define PATH_MAX 4096
#endif

enum tok_kind {
	T_BYTE,         /* this byte */
	T_ONE,          /* '?': any byte but '/' */
	T_CLASS,        /* "[...]": a byte of the set */
	T_STAR,         /* '*': any run of bytes but '/' */
	T_DSTAR,        /* "**" (or more stars): any run of bytes */
};

struct tok {
	unsigned char kind;
	unsigned char byte;     /* T_BYTE */
	unsigned set;           /* T_CLASS: its index in sets */
};

/* A pattern matches names of at most PATH_MAX bytes, and each token but
 * the stars takes one byte: one with more such tokens matches nothing.
 * A run of stars is one token, so at most one stands between two
 * others. */
#define MAX_BYTE_TOKS PATH_MAX
#define MAX_TOKS (2 * MAX_BYTE_TOKS + 1)
#define STATE_WORDS ((MAX_TOKS + 1 + 63) / 64)

/* Where a pattern is matched, as rsync's rule_matches decides from the
 * pattern's text. */
enum where {
	W_NAME,         /* no '/' and no "**": the last name alone */
	W_TAIL,         /* an inner '/', no "**": the last TAIL names */
	W_ANY,          /* "**" inside, not anchored: from the start of the
			 * path or from just after any '/' in it */
	W_WHOLE,        /* anchored by a leading '/', or starting with
			 * "**": the path from the walk's root */
};

struct fh_pattern {
	struct tok *toks;
	size_t ntoks;
	unsigned char (*sets)[32];
	size_t nsets;
	enum where where;
	size_t tail;            /* W_TAIL: how many names */
	bool dir_only;          /* it ended in '/' */
	bool lead_slash;        /* it starts with "**": a '/' before the path,
				 * so that "**" "/x" is x at the root too */
	bool dir_slash;         /* it ends in "***": a '/' after a directory,
				 * so that "dir/" "***" is dir too */
	bool never;             /* matches no name: empty, an unclosed '[',
				 * an unknown [:class:], a wildcard pattern
				 * ending in '\', or too long */
};

void fh_exclude_init(struct fh_exclude *x)
{
	x->pats = NULL;
	x->n = x->cap = 0;
}

void fh_exclude_free(struct fh_exclude *x)
{
	for (size_t i = 0; i < x->n; i++) {
		free(x->pats[i].toks);
		free(x->pats[i].sets);
	}
	free(x->pats);
	fh_exclude_init(x);
}

static void set_bit(unsigned char *set, unsigned b)
{
	set[b >> 3] |= (unsigned char)(1u << (b & 7));
}

static bool has_bit(const unsigned char *set, unsigned b)
{
	return set[b >> 3] >> (b & 7) & 1;
}

/* The bytes of the POSIX class NAME (LEN bytes) in the C locale, added
 * to SET; false for a name that is none. */
static bool named_class(const char *name, size_t len, unsigned char *set)
{
	static const char *const names[] = {
		"alnum", "alpha", "blank", "cntrl", "digit", "graph",
		"lower", "print", "punct", "space", "upper", "xdigit",
	};
	int which = -1;

	for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
		if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
			which = i;
	if (which < 0)
		return false;
	for (unsigned b = 0; b < 128; b++) {
		bool digit = b >= '0' && b <= '9';
		bool upper = b >= 'A' && b <= 'Z';
		bool lower = b >= 'a' && b <= 'z';
		bool graph = b > ' ' && b < 127;
		bool in;

		switch (which) {
		case 0: in = digit || upper || lower; break;
		case 1: in = upper || lower; break;
		case 2: in = b == ' ' || b == '\t'; break;
		case 3: in = b < ' ' || b == 127; break;
		case 4: in = digit; break;
		case 5: in = graph; break;
		case 6: in = lower; break;
		case 7: in = graph || b == ' '; break;
		case 8: in = graph && !digit && !upper && !lower; break;
		case 9: in = b == ' ' || (b >= '\t' && b <= '\r'); break;
		case 10: in = upper; break;
		default:
			in = digit || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
			break;
		}
		if (in)
			set_bit(set, b);
	}
	return true;
}

/* A "[:NAME:]" in a class at S[J] (its '['), rsync's way: the first ']'
 * after "[:" ends it, and unless a ':' stands before that ']' the '[' is
 * a plain member.  Returns the index past what it took, or 0 when no ']'
 * follows or NAME is no class: the pattern then matches nothing.
 * *NAMED says which way it went. */
static size_t class_name(const char *s, size_t len, size_t j, unsigned char *set,
			 bool *named)
{
	size_t k = j + 2;

	while (k < len && s[k] != ']')
		k++;
	if (k >= len)
		return 0;
	*named = k >= j + 3 && s[k - 1] == ':';
	if (!*named) {
		set_bit(set, '[');
		return j + 1;
	}
	return named_class(s + j + 2, k - 1 - (j + 2), set) ? k + 1 : 0;
}

/* The class that opens at S[I] ('['), into SET, as rsync's wildmatch
 * reads one: '!' or '^' first negates; a ']' first (after them) is a
 * member; '\' takes the next byte as it is; "a-z" is a range whose start
 * is the byte before the '-' (none after a range or a [:class:]: the
 * '-' is then a member, as it is last); "[:alpha:]" a POSIX class in the
 * C locale.  '/' is never a member.  Returns the index past its ']', or
 * 0 when the class is unclosed or names no POSIX class: rsync then
 * matches nothing. */
static size_t parse_class(const char *s, size_t len, size_t i, unsigned char *set)
{
	size_t j = i + 1;
	bool negate = false, first = true;
	unsigned prev = 0;      /* the byte a '-' would start a range from */

	memset(set, 0, 32);
	if (j < len && (s[j] == '!' || s[j] == '^')) {
		negate = true;
		j++;
	}
	for (; j < len; first = false) {
		unsigned c = (unsigned char)s[j];

		if (c == ']' && !first) {
			if (negate)
				for (int k = 0; k < 32; k++)
					set[k] = (unsigned char)~set[k];
			set['/' >> 3] &= (unsigned char)~(1u << ('/' & 7));
			return j + 1;
		}
		if (c == '[' && j + 1 < len && s[j + 1] == ':') {
			bool named;

			j = class_name(s, len, j, set, &named);
			if (!j)
				return 0;
			prev = named ? 0 : '[';
			continue;
		}
		if (c == '-' && prev && j + 1 < len && s[j + 1] != ']') {
			unsigned hi = (unsigned char)s[++j];

			if (hi == '\\' && ++j >= len)
				return 0;
			hi = (unsigned char)s[j++];
			for (unsigned b = prev; b <= hi; b++)
				set_bit(set, b);
			prev = 0;
			continue;
		}
		if (c == '\\' && ++j >= len)
			return 0;
		prev = (unsigned char)s[j++];
		set_bit(set, prev);
	}
	return 0;
}

/* Appends the class at S[I] to P's sets and sets *T to it; returns the
 * index past it, 0 when the pattern can match nothing, or (size_t)-1
 * when memory runs out. */
static size_t add_class(struct fh_pattern *p, const char *s, size_t len,
			size_t i, struct tok *t)
{
	unsigned char set[32];
	size_t end = parse_class(s, len, i, set);

	if (!end)
		return 0;
	void *q = realloc(p->sets, (p->nsets + 1) * sizeof *p->sets);

	if (!q)
		return (size_t)-1;
	p->sets = q;
	memcpy(p->sets[p->nsets], set, 32);
	t->kind = T_CLASS;
	t->set = (unsigned)p->nsets++;
	return end;
}

/* Compiles S (LEN bytes, after its leading '/' and trailing '/') into
 * P's tokens: with WILD, as rsync's wildmatch reads a pattern ('*', "**",
 * '?', classes, '\' escapes); else every byte stands for itself, '\'
 * included.  Returns false when memory runs out. */
static bool compile(struct fh_pattern *p, const char *s, size_t len, bool wild)
{
	size_t n = 0, bytes = 0;

	p->toks = malloc((len + 1) * sizeof *p->toks);
	if (!p->toks)
		return false;
	for (size_t i = 0; i < len && !p->never;) {
		unsigned char c = (unsigned char)s[i];
		struct tok t = { .kind = T_BYTE, .byte = c };

		if (wild && c == '*') {
			size_t run = 0;

			while (i + run < len && s[i + run] == '*')
				run++;
			i += run;
			t.kind = run == 1 ? T_STAR : T_DSTAR;
			p->toks[n++] = t;
			continue;
		}
		if (wild && c == '?') {
			t.kind = T_ONE;
			i++;
		} else if (wild && c == '[') {
			size_t end = add_class(p, s, len, i, &t);

			if (end == (size_t)-1)
				return false;
			p->never |= end == 0;
			i = end;
		} else if (wild && c == '\\') {
			/* A '\' that ends the pattern escapes nothing: rsync
			 * then matches nothing. */
			p->never |= i + 1 == len;
			t.byte = (unsigned char)s[i + 1 < len ? i + 1 : i];
			i += 2;
		} else {
			i++;
		}
		bytes++;
		p->toks[n++] = t;
	}
	p->ntoks = n;
	p->never |= bytes > MAX_BYTE_TOKS || n > MAX_TOKS;
	return true;
}

/* Where P is matched, from its text S (LEN bytes, its trailing '/'
 * gone), as rsync decides: by its slashes, whether it holds a wildcard
 * and where its "**" stand. */
static void classify(struct fh_pattern *p, const char *s, size_t len, bool wild)
{
	size_t slashes = 0;
	bool wild2 = false;

	for (size_t i = 0; i < len; i++) {
		slashes += s[i] == '/';
		wild2 |= wild && i + 1 < len && s[i] == '*' && s[i + 1] == '*';
	}
	p->lead_slash = wild2 && len >= 2 && s[0] == '*' && s[1] == '*';
	p->dir_slash = wild2 && len >= 3 && memcmp(s + len - 3, "***", 3) == 0;
	if (len && s[0] == '/')
		p->where = W_WHOLE;
	else if (slashes && !wild2)
		p->where = W_TAIL;
	else if (wild2 && !p->lead_slash)
		p->where = W_ANY;
	else if (wild2)
		p->where = W_WHOLE;
	else
		p->where = W_NAME;
	p->tail = slashes + 1;
}

bool fh_exclude_add(struct fh_exclude *x, const char *pat, size_t len)
{
	struct fh_pattern p = { 0 };

	/* One trailing '/' asks for a directory ("\/" too: rsync looks at
	 * the last byte alone); a lone "/" is a name. */
	if (len > 1 && pat[len - 1] == '/') {
		len--;
		p.dir_only = true;
	}
	bool wild = memchr(pat, '*', len) || memchr(pat, '[', len) ||
		    memchr(pat, '?', len);

	classify(&p, pat, len, wild);
	if (len && pat[0] == '/') {
		pat++;
		len--;
	}
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 8;
		void *q = realloc(x->pats, cap * sizeof *x->pats);

		if (!q)
			return false;
		x->pats = q;
		x->cap = cap;
	}
	if (!compile(&p, pat, len, wild)) {
		free(p.toks);
		free(p.sets);
		return false;
	}
	p.never |= len == 0;
	x->pats[x->n++] = p;
	return true;
}

/* Adds the patterns of one line of a file (LEN bytes), as rsync reads
 * it: a CR ends a pattern as a newline does, and a pattern that starts
 * with ';' or '#' is a comment.  Returns false when memory runs out. */
static bool add_line(struct fh_exclude *x, const char *line, size_t len)
{
	while (len) {
		const char *cr = memchr(line, '\r', len);
		size_t n = cr ? (size_t)(cr - line) : len;

		if (n && line[0] != ';' && line[0] != '#' &&
		    !fh_exclude_add(x, line, n))
			return false;
		len -= n + (cr != NULL);
		line += n + (cr != NULL);
	}
	return true;
}

int fh_exclude_read(struct fh_exclude *x, int fd, uint64_t *lineno)
{
	struct fh_lines r = { 0 };
	uint64_t n = 0;
	int err = 0;

	if (!fh_lines_start(&r, fd, FH_EXCLUDE_LINE_MAX, '\n'))
		return ENOMEM;
	for (;;) {
		char *line;
		size_t len;
		enum fh_lines_status st = fh_lines_next(&r, &line, &len);

		if (st == FH_LINES_END) {
			err = r.err;
			break;
		}
		n++;
		if (st == FH_LINES_TOO_LONG) {
			err = ENAMETOOLONG;
			break;
		}
		if (!add_line(x, line, len)) {
			err = ENOMEM;
			break;
		}
	}
	fh_lines_free(&r);
	if (lineno)
		*lineno = n;
	return err;
}

#define HAS(set, i) ((set)[(i) >> 6] >> ((i) & 63) & 1)
#define ADD(set, i) ((set)[(i) >> 6] |= (uint64_t)1 << ((i) & 63))

/* Adds to the live tokens SET those that a live token reaches without a
 * byte: past a star, which may match nothing.  Every such step goes
 * forward, so one pass in order is enough. */
static void reach(const struct fh_pattern *p, uint64_t *set)
{
	for (size_t i = 0; i < p->ntoks; i++)
		if (HAS(set, i) && (p->toks[i].kind == T_STAR ||
				    p->toks[i].kind == T_DSTAR))
			ADD(set, i + 1);
}

/* Whether token T takes byte C. */
static bool takes(const struct fh_pattern *p, const struct tok *t, unsigned c)
{
	switch (t->kind) {
	case T_BYTE: return c == t->byte;
	case T_CLASS: return has_bit(p->sets[t->set], c);
	case T_DSTAR: return true;
	default: return c != '/';   /* T_ONE, T_STAR */
	}
}

/* The bytes a pattern is matched against: rsync's list of strings read
 * as one, a '/' before the path and one after it where the pattern
 * asks for them. */
struct text {
	const unsigned char *s;
	size_t n;
	bool lead, trail;
};

/* Whether P matches the whole of T; with AT_SLASH, a match may also
 * start just after any '/' of T (rsync tries each). */
static bool match(const struct fh_pattern *p, const struct text *t, bool at_slash)
{
	uint64_t a[STATE_WORDS], b[STATE_WORDS];
	uint64_t *cur = a, *nxt = b;
	size_t T = p->ntoks, words = (T + 1 + 63) / 64;
	size_t total = t->lead + t->n + t->trail;

	memset(cur, 0, words * sizeof *cur);
	ADD(cur, 0);
	reach(p, cur);
	for (size_t k = 0; k < total; k++) {
		size_t at = k - t->lead;
		unsigned c = k < t->lead || at >= t->n ? '/' : t->s[at];
		bool any = false;

		memset(nxt, 0, words * sizeof *nxt);
		for (size_t i = 0; i < T; i++) {
			enum tok_kind kind = p->toks[i].kind;

			if (HAS(cur, i) && takes(p, &p->toks[i], c))
				ADD(nxt, kind == T_STAR || kind == T_DSTAR ? i : i + 1);
		}
		if (at_slash && c == '/')
			ADD(nxt, 0);
		for (size_t w = 0; w < words; w++)
			any |= nxt[w] != 0;
		/* Nothing lives: no match, unless a later '/' starts one. */
		if (!any && !at_slash)
			return false;
		reach(p, nxt);
		uint64_t *swap = cur;

		cur = nxt;
		nxt = swap;
	}
	return HAS(cur, T);
}

/* Where the last N names of S (LEN bytes) start, or -1 when S has fewer
 * (rsync's trailing_N_elements). */
static ptrdiff_t last_names(const char *s, size_t len, size_t n)
{
	for (size_t i = len; i > 0; i--)
		if (s[i - 1] == '/' && --n == 0)
			return (ptrdiff_t)i;
	return n == 1 ? 0 : -1;
}

/* Whether P leaves out REL (LEN bytes), whose last name starts at BASE. */
static bool pattern_excludes(const struct fh_pattern *p, const char *rel,
			     size_t len, const char *base, bool is_dir)
{
	struct text t = { (const unsigned char *)rel, len, false, false };

	if (p->never || (p->dir_only && !is_dir))
		return false;
	switch (p->where) {
	case W_NAME:
		t.s = (const unsigned char *)base;
		t.n = len - (size_t)(base - rel);
		return match(p, &t, false);
	case W_TAIL: {
		ptrdiff_t at = last_names(rel, len, p->tail);

		if (at < 0)
			return false;
		t.s += at;
		t.n -= (size_t)at;
		return match(p, &t, false);
	}
	default:
		t.lead = p->lead_slash;
		t.trail = p->dir_slash && is_dir;
		return match(p, &t, p->where == W_ANY);
	}
}

bool fh_excluded(const struct fh_exclude *x, const char *rel, size_t len,
		 bool is_dir)
{
	const char *base = rel;

	if (!x)
		return false;
	for (size_t i = len; i > 0; i--)
		if (rel[i - 1] == '/') {
			base = rel + i;
			break;
		}
	for (size_t i = 0; i < x->n; i++)
		if (pattern_excludes(&x->pats[i], rel, len, base, is_dir))
			return true;
	return false;
}

bool fh_excluded_path(const struct fh_exclude *x, const char *rel, size_t len)
{
	char small[256];
	char *tidy;
	size_t n = 0;
	bool out = false;

	if (!fh_exclude_any(x))
		return false;
	/* Undecided for want of memory: kept, the safer way to be wrong. */
	tidy = len < sizeof small ? small : malloc(len + 1);
	if (!tidy)
		return true;
	for (size_t i = 0; i < len;) {
		size_t j = i;

		while (j < len && rel[j] != '/')
			j++;
		if (j > i && !(j - i == 1 && rel[i] == '.')) {
			if (n)
				tidy[n++] = '/';
			memcpy(tidy + n, rel + i, j - i);
			n += j - i;
		}
		i = j + 1;
	}
	for (size_t k = 0; k < n && !out; k++)
		if (tidy[k] == '/')
			out = fh_excluded(x, tidy, k, true);
	if (!out && n)
		out = fh_excluded(x, tidy, n, false);
	if (tidy != small)
		free(tidy);
	return out;
}
