/* prefix.c: telling that an audit's names differ from its list's by one
 * prefix (prefix.h).  A candidate comes from the first few names found
 * (a suffix after one of their '/' that names an entry not seen: the
 * names found are under the prefix) or from the first few entries not
 * seen (a suffix of theirs that is a name found: the list's are); then
 * every name found is tried against it, by the manifest's own lookup. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "prefix.h"

/* Names found or entries tried for a candidate: a prefix that explains
 * nearly every name explains one of the first few. */
#define FH_PREFIX_TRIES 8

/* The entry named NAME (LEN bytes) if the walk did not meet it. */
static const struct fh_entry *unseen(const struct fh_manifest *m, const char *name,
				     size_t len)
{
	const struct fh_entry *e = fh_manifest_find(m, name, len);

	return e && !(e->flags & FH_ENTRY_SEEN) ? e : NULL;
}

static int cmp_key(const void *x, const void *y)
{
	const struct fh_newfile *a = *(struct fh_newfile *const *)x;
	const struct fh_newfile *b = *(struct fh_newfile *const *)y;
	size_t la, lb;
	const char *ka = fh_name_key(a->name, a->len, &la);
	const char *kb = fh_name_key(b->name, b->len, &lb);
	int c = memcmp(ka, kb, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

/* Whether the name KEY (LEN bytes) was found: a search of SORTED. */
static bool found(struct fh_newfile *const *sorted, size_t n, const char *key, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, lk;
		const char *k = fh_name_key(sorted[mid]->name, sorted[mid]->len, &lk);
		int c = memcmp(k, key, lk < len ? lk : len);

		if (!c)
			c = (lk > len) - (lk < len);
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Names found that are a listed name under PREFIX (PLEN bytes). */
static uint64_t count_under(const struct fh_store *st, const char *prefix, size_t plen)
{
	uint64_t hits = 0;

	for (size_t i = 0; i < st->nnews; i++) {
		size_t len;
		const char *k = fh_name_key(st->news[i]->name, st->news[i]->len, &len);

		hits += len > plen && memcmp(k, prefix, plen) == 0 &&
			unseen(&st->m, k + plen, len - plen);
	}
	return hits;
}

/* Names found that, under PREFIX, are a listed name. */
static uint64_t count_above(const struct fh_store *st, const char *prefix, size_t plen)
{
	uint64_t hits = 0;
	char *buf = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < st->nnews; i++) {
		size_t len;
		const char *k = fh_name_key(st->news[i]->name, st->news[i]->len, &len);

		if (plen + len > cap) {
			cap = 2 * (plen + len);
			buf = fh_xrealloc(buf, cap);
		}
		memcpy(buf, prefix, plen);
		memcpy(buf + plen, k, len);
		hits += unseen(&st->m, buf, plen + len) != NULL;
	}
	free(buf);
	return hits;
}

/* The first prefix of the first few names found after which one names
 * an entry not seen; its length in *PLEN. */
static const char *under_candidate(const struct fh_store *st, size_t *plen)
{
	for (size_t i = 0; i < st->nnews && i < FH_PREFIX_TRIES; i++) {
		size_t len;
		const char *k = fh_name_key(st->news[i]->name, st->news[i]->len, &len);

		for (size_t j = 0; j + 1 < len; j++)
			if (k[j] == '/' && unseen(&st->m, k + j + 1, len - j - 1)) {
				*plen = j + 1;
				return k;
			}
	}
	return NULL;
}

/* The first prefix of the first few entries not seen after which one is
 * a name found; its length in *PLEN. */
static const char *above_candidate(const struct fh_store *st,
				   struct fh_newfile *const *sorted, size_t *plen)
{
	size_t tried = 0;

	for (size_t i = 0; i < st->m.n && tried < FH_PREFIX_TRIES; i++) {
		const struct fh_entry *e = &st->m.entries[i];
		size_t len;
		const char *k;

		if (e->flags & FH_ENTRY_SEEN)
			continue;
		tried++;
		k = fh_name_key(e->name, e->namelen, &len);
		for (size_t j = 0; j + 1 < len; j++)
			if (k[j] == '/' && found(sorted, st->nnews, k + j + 1, len - j - 1)) {
				*plen = j + 1;
				return k;
			}
	}
	return NULL;
}

bool fh_prefix_guess(const struct fh_store *st, struct fh_prefix *p)
{
	size_t ulen = 0, alen = 0;
	const char *u, *a = NULL;
	uint64_t uhits = 0, ahits = 0;
	struct fh_newfile **sorted;

	*p = (struct fh_prefix){ 0 };
	if (st->nnews < 2)
		return false;
	u = under_candidate(st, &ulen);
	if (u)
		uhits = count_under(st, u, ulen);
	sorted = fh_xmalloc(st->nnews * sizeof *sorted);
	memcpy(sorted, st->news, st->nnews * sizeof *sorted);
	qsort(sorted, st->nnews, sizeof *sorted, cmp_key);
	a = above_candidate(st, sorted, &alen);
	free(sorted);
	if (a)
		ahits = count_above(st, a, alen);
	p->under = uhits >= ahits;
	p->hits = p->under ? uhits : ahits;
	if (p->hits < 2 || p->hits * 10 < st->nnews * 9)
		return false;
	size_t n = p->under ? ulen : alen;

	p->text = fh_xmalloc(n + 1);
	memcpy(p->text, p->under ? u : a, n);
	p->text[n] = '\0';
	return true;
}
