/* exclude.c: the patterns of --exclude and --exclude-from, and the
 * matching of walk entries and list names against them.
 *
 * Patterns are rsync's and tar's globs read byte-wise, whatever the
 * locale: a name is any bytes but '/' and NUL, UTF-8 or not.  Each
 * pattern is compiled once into tokens, and matched by following every
 * way through the tokens at once, one byte of the name at a time (a
 * Thompson-style simulation), so that no pattern, however many stars it
 * holds, costs more than its length times the name's. */
#include <errno.h>
#include <limits.h>
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
	T_DSTAR,        /* "**": any run of bytes */
	T_DIRS,         /* before the T_DSTAR and '/' of a "**" then '/'
			 * where a component starts: matches nothing, and
			 * lets the match go on past both of them as well,
			 * so that they also stand for no directory */
};

struct tok {
	unsigned char kind;
	unsigned char byte;     /* T_BYTE */
	unsigned set;           /* T_CLASS: its index in sets */
};

/* A pattern matches names of at most PATH_MAX bytes, and each token but
 * the stars and the T_DIRS groups takes one byte: one with more such
 * tokens matches nothing.  Between two of them stand at most four others
 * (a T_DIRS group, then '*' or "**"). */
#define MAX_BYTE_TOKS PATH_MAX
#define MAX_TOKS (5 * (MAX_BYTE_TOKS + 1))
#define STATE_WORDS ((MAX_TOKS + 1 + 63) / 64)

struct fh_pattern {
	struct tok *toks;
	size_t ntoks;
	unsigned char (*sets)[32];
	size_t nsets;
	bool dir_only;          /* it ended in '/' */
	bool whole;             /* against the whole path, not its last name */
	bool never;             /* empty, or too long to match any name */
	bool self_too;          /* a trailing "/" "***": the directory too, as
				 * if the pattern ended in '/' there */
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

/* The class that opens at S[I] ('['), into SET: returns the index past
 * its ']', or 0 when none closes it (the '[' is then a plain byte).  A
 * ']' first (after any '!' or '^') is a member; '\' takes the next byte
 * as it is; "a-z" is a range; "[:alpha:]" a POSIX class (an unknown one
 * adds nothing).  '/' is never a member. */
static size_t parse_class(const char *s, size_t len, size_t i, unsigned char *set)
{
	size_t j = i + 1;
	bool negate = false, first = true;

	memset(set, 0, 32);
	if (j < len && (s[j] == '!' || s[j] == '^')) {
		negate = true;
		j++;
	}
	while (j < len) {
		unsigned lo = (unsigned char)s[j], hi;

		if (lo == ']' && !first) {
			if (negate)
				for (int k = 0; k < 32; k++)
					set[k] = (unsigned char)~set[k];
			set['/' >> 3] &= (unsigned char)~(1u << ('/' & 7));
			set[0] &= (unsigned char)~1u; /* NUL ends a name */
			return j + 1;
		}
		first = false;
		if (lo == '[' && j + 1 < len && s[j + 1] == ':') {
			const char *end = NULL;

			for (size_t k = j + 2; k + 1 < len; k++)
				if (s[k] == ':' && s[k + 1] == ']') {
					end = s + k;
					break;
				}
			if (end) {
				named_class(s + j + 2, (size_t)(end - (s + j + 2)), set);
				j = (size_t)(end - s) + 2;
				continue;
			}
		}
		if (lo == '\\' && j + 1 < len)
			lo = (unsigned char)s[++j];
		j++;
		hi = lo;
		if (j + 1 < len && s[j] == '-' && s[j + 1] != ']') {
			j++;
			hi = (unsigned char)s[j];
			if (hi == '\\' && j + 1 < len)
				hi = (unsigned char)s[++j];
			j++;
		}
		for (unsigned b = lo; b <= hi; b++)
			set_bit(set, b);
	}
	return 0;
}


/* Compiles S (LEN bytes, its trailing and leading '/' already dropped)
 * into P's tokens.  Returns false when memory runs out. */
static bool compile(struct fh_pattern *p, const char *s, size_t len)
{
	size_t n = 0, bytes = 0;

	p->toks = malloc((len + 1) * sizeof *p->toks);
	if (!p->toks)
		return false;
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		struct tok t = { .kind = T_BYTE };

		if (c == '*') {
			size_t run = 0;

			while (i + run < len && s[i + run] == '*')
				run++;
			bool at_start = i == 0 || s[i - 1] == '/';

			i += run;
			if (run == 1) {
				t.kind = T_STAR;
				p->toks[n++] = t;
				continue;
			}
			p->whole = true;
			t.kind = T_DSTAR;
			if (!at_start || i == len || s[i] != '/') {
				p->toks[n++] = t;
				continue;
			}
			while (i < len && s[i] == '/')
				i++;
			/* Twice in a row, such a group matches what it
			 * matches once. */
			if (n >= 3 && p->toks[n - 3].kind == T_DIRS)
				continue;
			p->toks[n++] = (struct tok){ .kind = T_DIRS };
			p->toks[n++] = t;
			p->toks[n++] = (struct tok){ .kind = T_BYTE, .byte = '/' };
			continue;
		}
		if (c == '?') {
			t.kind = T_ONE;
			i++;
		} else if (c == '[') {
			unsigned char set[32];
			size_t end = parse_class(s, len, i, set);

			if (end) {
				void *q = realloc(p->sets, (p->nsets + 1) * sizeof *p->sets);

				if (!q)
					return false;
				p->sets = q;
				memcpy(p->sets[p->nsets], set, 32);
				t.kind = T_CLASS;
				t.set = (unsigned)p->nsets++;
				i = end;
			} else {
				t.byte = c;
				i++;
			}
		} else {
			/* A '\' that ends the pattern stands for itself. */
			if (c == '\\' && i + 1 < len)
				c = (unsigned char)s[++i];
			i++;
			t.byte = c;
			if (c == '/') {
				p->whole = true;
				/* "a//b" is "a/b": names have no empty component. */
				if (n && p->toks[n - 1].kind == T_BYTE &&
				    p->toks[n - 1].byte == '/')
					continue;
			}
		}
		bytes++;
		p->toks[n++] = t;
	}
	p->ntoks = n;
	p->never = bytes > MAX_BYTE_TOKS || n > MAX_TOKS;
	/* rsync's trailing "/" and "***": the directory as well as what
	 * is in it. */
	p->self_too = len > 4 && memcmp(s + len - 4, "/***", 4) == 0 &&
		      s[len - 5] != '*' && n >= 3 && p->toks[n - 1].kind == T_DSTAR &&
		      p->toks[n - 2].kind == T_BYTE && p->toks[n - 2].byte == '/';
	return true;
}

bool fh_exclude_add(struct fh_exclude *x, const char *pat, size_t len)
{
	struct fh_pattern p = { 0 };

	/* A trailing '/' (or "\/", the same byte) asks for a directory. */
	while (len && pat[len - 1] == '/') {
		size_t bs = 0;

		while (bs + 1 < len && pat[len - 2 - bs] == '\\')
			bs++;
		len -= 1 + (bs & 1);
		p.dir_only = true;
	}
	while (len && pat[0] == '/') {
		pat++;
		len--;
		p.whole = true;
	}
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 8;
		void *q = realloc(x->pats, cap * sizeof *x->pats);

		if (!q)
			return false;
		x->pats = q;
		x->cap = cap;
	}
	if (!compile(&p, pat, len)) {
		free(p.toks);
		free(p.sets);
		return false;
	}
	p.never |= len == 0;
	x->pats[x->n++] = p;
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
		if (len && line[len - 1] == '\r')
			len--;
		if (!len || line[0] == '#')
			continue;
		if (!fh_exclude_add(x, line, len)) {
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
 * byte: past a star, which may match nothing, and past a T_DIRS group.
 * Every such step goes forward, so one pass in order is enough. */
static void reach(const struct fh_pattern *p, uint64_t *set)
{
	for (size_t i = 0; i < p->ntoks; i++) {
		if (!HAS(set, i))
			continue;
		switch (p->toks[i].kind) {
		case T_DIRS:
			ADD(set, i + 3);
			/* fall through */
		case T_STAR:
		case T_DSTAR:
			ADD(set, i + 1);
			break;
		}
	}
}

/* Whether P matches the whole of S (N bytes), a directory if IS_DIR. */
static bool match(const struct fh_pattern *p, const unsigned char *s, size_t n,
		  bool is_dir)
{
	uint64_t a[STATE_WORDS], b[STATE_WORDS];
	uint64_t *cur = a, *nxt = b;
	size_t T = p->ntoks, words = (T + 1 + 63) / 64;

	memset(cur, 0, words * sizeof *cur);
	ADD(cur, 0);
	reach(p, cur);
	for (size_t k = 0; k < n; k++) {
		unsigned c = s[k];
		bool any = false;

		memset(nxt, 0, words * sizeof *nxt);
		for (size_t i = 0; i < T; i++) {
			if (!HAS(cur, i))
				continue;
			const struct tok *t = &p->toks[i];

			switch (t->kind) {
			case T_BYTE:
				if (c == t->byte)
					ADD(nxt, i + 1);
				break;
			case T_ONE:
				if (c != '/')
					ADD(nxt, i + 1);
				break;
			case T_CLASS:
				if (has_bit(p->sets[t->set], c))
					ADD(nxt, i + 1);
				break;
			case T_STAR:
				if (c != '/')
					ADD(nxt, i);
				break;
			case T_DSTAR:
				ADD(nxt, i);
				break;
			case T_DIRS:
				break;
			}
		}
		for (size_t w = 0; w < words; w++)
			any |= nxt[w] != 0;
		if (!any)
			return false;
		reach(p, nxt);
		uint64_t *swap = cur;

		cur = nxt;
		nxt = swap;
	}
	return HAS(cur, T) || (p->self_too && is_dir && HAS(cur, T - 2));
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
	for (size_t i = 0; i < x->n; i++) {
		const struct fh_pattern *p = &x->pats[i];

		if (p->never || (p->dir_only && !is_dir))
			continue;
		if (p->whole ? match(p, (const unsigned char *)rel, len, is_dir)
			     : match(p, (const unsigned char *)base,
				     len - (size_t)(base - rel), is_dir))
			return true;
	}
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
