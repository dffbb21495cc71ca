/* store.c: a checksum list held (store.h): read into the manifest
 * (listread.c; a name's first line counts, a second is handed to the
 * caller as a duplicate), and for a rewrite its new text: the old lines
 * byte for byte, the changes in their places, the new files at the end,
 * written beside the list and renamed over it (listfile.c).  A hashdeep
 * list's rows are entries whose digest is their row bytes (hashdeep.h):
 * its lines are copied and replaced as any list's are, its new rows
 * written in its columns. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "listread.h"
#include "platform.h"
#include "shapes.h"
#include "store.h"

void *fh_store_xmalloc(size_t n)
{
	return fh_xmalloc(n);
}

void *fh_store_xmalloc_touched(size_t n)
{
	char *p = fh_store_xmalloc(n);

	fh_populate_write(p, n);
	return p;
}

void fh_store_grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return;
	size_t c = *cap ? 2 * *cap : 64;
	*p = fh_xrealloc(*p, c * size);
	*cap = c;
}

static int form_of(const struct fh_list_line *l)
{
	return (l->tagged ? FH_FMT_TAG : 0) | (l->binary ? FH_FMT_BINARY : 0) |
	       (l->base64 ? FH_FMT_BASE64 : 0) | (l->form ? FH_FMT_FORM : 0) |
	       (l->le ? FH_FMT_LE : 0) | (l->openssl ? FH_FMT_OPENSSL : 0) |
	       (l->openssl3 ? FH_FMT_OPENSSL3 : 0) | (l->prefixed ? FH_FMT_PREFIX : 0) |
	       (l->reversed ? FH_FMT_REVERSED : 0) | (l->tab ? FH_FMT_TAB : 0);
}

/* A reading: the store and the caller's events. */
struct reading {
	struct fh_store *s;
	const struct fh_store_events *ev;
	int err;
};

static void add_entry(void *ctx, struct fh_list_line *l, uint64_t hash,
		      const uint8_t *digest, const struct fh_meta *meta,
		      uint64_t lineno)
{
	struct reading *r = ctx;
	struct fh_store *s = r->s;
	struct fh_entry *e;

	switch (fh_manifest_add_hashed(&s->m, hash, l, digest, meta, form_of(l), lineno)) {
	case FH_ADD_OK:
		/* CR LF where every entry's line ends so. */
		s->crlf = l->crlf && (s->first_form < 0 || s->crlf);
		if (s->first_form < 0)
			s->first_form = form_of(l);
		s->any_meta |= meta != NULL;
		if (l->alt && fh_settle_for(&s->settle, l->outlen, NULL))
			s->m.entries[s->m.n - 1].flags |= FH_ENTRY_OPEN;
		break;
	case FH_ADD_DUPLICATE:
		s->duplicates++;
		e = fh_manifest_find(&s->m, l->name, l->namelen);
		if (r->ev && r->ev->duplicate)
			r->ev->duplicate(r->ev->ctx, l, lineno, e ? e->line : 0);
		break;
	case FH_ADD_NOMEM:
		r->err = ENOMEM;
		break;
	}
}

static void bad_line(void *ctx, uint64_t lineno)
{
	struct reading *r = ctx;

	r->s->bad_lines++;
	if (r->ev && r->ev->bad_line)
		r->ev->bad_line(r->ev->ctx, lineno);
}

static void prefetch(void *ctx, uint64_t hash)
{
	struct reading *r = ctx;

	fh_manifest_prefetch(&r->s->m, hash);
}

bool fh_store_settle_entry(struct fh_store *s, struct fh_entry *e,
			   const struct fh_job *job)
{
	const struct fh_algo *algo = job->algo;
	bool match = memcmp(job->digest, fh_entry_digest(e), e->outlen) == 0;

	if (!(e->flags & FH_ENTRY_OPEN))
		return match;
	struct fh_candidates *cand = fh_settle_for(&s->settle, e->outlen, NULL);

	if (job->cand && job->chosen < 0)
		return false; /* none of them, said at the end */
	if (!match && cand) {
		/* Not under the verdict: the list may mix algorithms. */
		algo = fh_settle_retry(job->path, cand, job->algo, fh_entry_digest(e),
				       e->outlen);
		if (!algo)
			return false;
		match = true;
	}
	e->algo = (uint8_t)algo->id;
	e->flags &= (uint8_t)~FH_ENTRY_OPEN;
	return match;
}

/* The list's own file, so that the walk skips it. */
static void know_self(struct fh_store *s, const struct stat *st, const char *path)
{
	const char *slash = strrchr(path, '/');

	s->self_dev = st->st_dev;
	s->self_ino = st->st_ino;
	s->self_base = slash ? slash + 1 : path;
	s->self_known = true;
}

bool fh_store_is_self(const struct fh_store *s, const char *path, size_t len)
{
	size_t blen = s->self_known ? strlen(s->self_base) : 0;
	struct stat st;

	if (!s->self_known || len < blen || memcmp(path + len - blen, s->self_base, blen) != 0 ||
	    (len > blen && path[len - blen - 1] != '/'))
		return false;
	return stat(path, &st) == 0 && st.st_dev == s->self_dev && st.st_ino == s->self_ino;
}

void fh_store_init(struct fh_store *s, const char *name, const struct cli *c)
{
	memset(s, 0, sizeof *s);
	s->name = name;
	s->first_form = -1;
	s->lf.fd = -1;
	fh_manifest_init(&s->m);
	fh_settle_init(&s->settle, c);
	fh_hashdeep_init(&s->hd, c);
	s->sfv = fh_shapes_sfv_name(name);
}

/* Held, the list is locked first and stays locked to its rewrite. */
int fh_store_open(struct fh_store *s, bool hold, bool no_wait,
		  const struct fh_list_parser *how, const struct fh_store_events *ev)
{
	struct stat st;
	int fd;

	s->held = hold;
	if (hold) {
		int err = fh_listfile_lock(&s->lf, s->name, no_wait);

		if (!err)
			err = fh_listfile_writable(&s->lf);
		if (err)
			return err;
		know_self(s, &s->lf.st, s->lf.path);
		s->listed = *how;
		if (!s->lf.exists)
			return 0; /* created by the rewrite */
		fd = s->lf.fd;
		st = s->lf.st;
		/* Lines written into a clear-signed list would be outside
		 * its signed part, or void its signature. */
		if (fh_shapes_signed(fd))
			return FH_ELIST_SIGNED;
	} else {
		fd = open(s->name, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0) {
			int err = errno;

			if (fd >= 0)
				close(fd);
			return err;
		}
		if (S_ISREG(st.st_mode))
			know_self(s, &st, s->name);
	}
	/* Lines of lists are rarely under 40 bytes. */
	fh_manifest_expect(&s->m, (size_t)(st.st_size / 40));
	struct reading r = { s, ev, 0 };
	uint64_t nul_lines = 0;
	const struct fh_list_reading reading = { &r, add_entry, bad_line, prefetch,
						 &s->outside, &s->hd, s->sfv, &nul_lines };

	s->listed = *how;
	int err = fh_list_read(fd, &s->listed, &reading);

	if (!hold)
		close(fd);
	/* A list of NUL-ended records (written with -z) reads as one line
	 * whose first record alone is seen, as GNU reads it: an audit of it
	 * would call its other files NEW, an update append lines of another
	 * shape. */
	return err ? err : r.err ? r.err : nul_lines ? FH_ELIST_NUL : 0;
}

/* New files' algorithm, when the new list implies it for them: they are
 * written untagged, their length is others' too, and neither the old
 * list nor a verdict declares one for it.  The list declares it, unless
 * the algorithm's own program takes no comment line (news_declared). */
static const struct fh_algo *news_implied(const struct fh_store *s)
{
	const struct fh_algo *n = s->new_algo;
	bool untagged = s->first_form >= 0 ? !(s->first_form & FH_FMT_TAG) : !(s->new_form & FH_FMT_TAG);
	size_t unwritten = 0;

	for (size_t i = 0; i < s->nnews; i++)
		unwritten += !s->news[i]->renamed;
	if (!unwritten || !n || !untagged || !fh_algo_untagged_as(n, n->digest_bytes) ||
	    fh_settle_algos(n->digest_bytes, NULL) < 2 ||
	    fh_list_declared(&s->listed, n->digest_bytes))
		return NULL;
	for (size_t i = 0; i < s->settle.n; i++)
		if (s->settle.outlen[i] == n->digest_bytes && fh_settle_verdict(&s->settle.cand[i]))
			return NULL;
	return n;
}

static const struct fh_algo *news_declared(const struct fh_store *s)
{
	const struct fh_algo *n = news_implied(s);

	return n && !fh_algo_row(n)->no_comments ? n : NULL;
}

/* The algorithm the new list declares for untagged digests of OUTLEN
 * bytes: the old list's "#fhsum untagged=" line, else the verdict (a
 * declaration the new list begins with), else new files' algorithm. */
static const struct fh_algo *declared(const struct fh_store *s, size_t outlen)
{
	const struct fh_algo *d = fh_list_declared(&s->listed, outlen);

	for (size_t i = 0; !d && i < s->settle.n; i++)
		if (s->settle.outlen[i] == outlen)
			d = fh_settle_verdict(&s->settle.cand[i]);
	if (!d && s->new_algo && news_implied(s) == s->new_algo &&
	    s->new_algo->digest_bytes == outlen)
		d = s->new_algo;
	return d;
}

/* Whether the new list has a "#fhsum untagged=" line for OUTLEN: the
 * old list's, or one put_declarations writes. */
static bool declares(const struct fh_store *s, size_t outlen)
{
	const struct fh_algo *n = news_declared(s);

	if (fh_list_declared(&s->listed, outlen) || (n && n->digest_bytes == outlen))
		return true;
	for (size_t i = 0; i < s->settle.n; i++) {
		const struct fh_algo *v = fh_settle_verdict(&s->settle.cand[i]);

		if (s->settle.outlen[i] == outlen && v && !fh_algo_row(v)->no_comments)
			return true;
	}
	return false;
}

/* Whether a line in FORM of ALGO must name its algorithm: untagged, of a
 * length others share, and not the one the list declares.  A line of an
 * algorithm whose own program takes no comment line (b3sum's, xxhsum's)
 * goes unnamed in a list that declares nothing for its length: it is
 * settled by content at each reading, another algorithm's line found by
 * trying the others. */
static bool needs_name(const struct fh_store *s, int form, const struct fh_algo *algo,
		       size_t outlen)
{
	return !(form & FH_FMT_TAG) && fh_algo_untagged_as(algo, outlen) &&
	       fh_settle_algos(outlen, NULL) > 1 &&
	       declared(s, outlen) != algo &&
	       (!fh_algo_row(algo)->no_comments || declares(s, outlen));
}

/* Text of whole lines, N bytes at TEXT, each line ended as the list's
 * are: CR LF where every entry's is, else LF. */
static void put_lines(const struct fh_store *s, struct fh_listout *w, const char *text,
		      size_t n)
{
	const char *nl;

	while (s->crlf && (nl = memchr(text, '\n', n)) != NULL) {
		fh_listout_put(w, text, (size_t)(nl - text));
		fh_listout_put(w, "\r\n", 2);
		n -= (size_t)(nl + 1 - text);
		text = nl + 1;
	}
	fh_listout_put(w, text, n);
}

/* A metadata line; for an entry whose line must name its algorithm
 * (ALGO, else NULL), with its "algorithm=" word. */
static void put_meta(const struct fh_store *s, struct fh_listout *w,
		     const struct fh_meta *meta, const struct fh_algo *algo)
{
	char m[FH_META_MAX];
	struct fh_meta named = *meta;

	named.algo = algo;
	put_lines(s, w, m, fh_meta_format(m, &named));
}

/* The metadata line of entry E. */
static void put_entry_meta(struct fh_store *s, struct fh_listout *w,
			   const struct fh_meta *meta, const struct fh_entry *e)
{
	const struct fh_algo *algo = fh_algo_get((enum fh_algo_id)e->algo);

	put_meta(s, w, meta, !(e->flags & FH_ENTRY_OPEN) &&
			  needs_name(s, e->form, algo, e->outlen) ? algo : NULL);
}

/* One checksum line (and its metadata line) in FORM, of a file of SIZE
 * bytes (UINT64_MAX: not known). */
static void put_line(struct fh_store *s, struct fh_listout *w, int form,
		     const struct fh_algo *algo, const uint8_t *digest,
		     size_t outlen, const char *name, size_t len,
		     const struct fh_meta *meta, uint64_t size)
{
	if (s->sfv) {
		/* An SFV line: the name as it is, the CRC in upper case; no
		 * metadata (the caller writes no name SFV cannot carry). */
		char *line = fh_store_xmalloc(len + 2 + 2 * outlen);

		put_lines(s, w, line, fh_shapes_sfv_format(line, name, len, digest, outlen));
		free(line);
		return;
	}
	if (s->hd.on) {
		/* A hashdeep row: no metadata, no escapes. */
		char *row = fh_store_xmalloc(fh_hashdeep_format_size(&s->hd, len));

		put_lines(s, w, row, fh_hashdeep_format(&s->hd, digest, name, len, row));
		free(row);
		return;
	}
	size_t textlen = form & FH_FMT_BASE64 ? fh_base64(s->text, digest, outlen)
					      : 2 * outlen;
	char *line = fh_store_xmalloc(fh_format_size(textlen, len));
	bool named = needs_name(s, form, algo, outlen);
	/* A list of cksum's or sum's lines keeps their form: the value in
	 * decimal and the size, where the algorithm has that form. */
	bool as_form = (form & FH_FMT_FORM) && size != UINT64_MAX &&
		       fh_algo_row(algo)->form != FH_FORM_DIGEST &&
		       !memchr(name, '\n', len); /* unescaped there: an escaped hex line */

	/* xxhsum --little-endian's tag, where the algorithm has one: the
	 * digest's bytes the other way round. */
	uint8_t rev[FH_MAX_DIGEST];
	int le = (form & FH_FMT_LE) && (form & FH_FMT_TAG) && !(form & FH_FMT_BASE64) &&
		 fh_algo_row(algo)->le_tags && outlen <= sizeof rev ? FH_FMT_LE : 0;

	for (size_t i = 0; le && i < outlen; i++)
		rev[i] = digest[outlen - 1 - i];
	if (!(form & FH_FMT_BASE64))
		fh_hex(s->text, le ? rev : digest, outlen);
	if (meta) {
		put_meta(s, w, meta, named ? algo : NULL);
	} else if (named) {
		fh_listout_put(w, "#fhsum algorithm=", 17);
		fh_listout_put(w, algo->name, strlen(algo->name));
		put_lines(s, w, "\n", 1);
	}
	if (as_form)
		put_lines(s, w, line, fh_format_form(line, algo, digest, size, name, len, 0));
	else
		put_lines(s, w, line, fh_format_line(line, algo, s->text, textlen, name,
						      len, le | (form & (FH_FMT_TAG | FH_FMT_BINARY |
									FH_FMT_BASE64 | FH_FMT_OPENSSL |
									FH_FMT_OPENSSL3 | FH_FMT_PREFIX |
									FH_FMT_REVERSED | FH_FMT_TAB))));
	free(line);
}

/* The new list's first lines: a declaration for each length the run
 * settled that the old list did not declare. */
static void put_declarations(struct fh_store *s, struct fh_listout *w)
{
	if (s->hd.on || s->sfv)
		return; /* its header stays the first line; SFV has none */
	for (size_t i = 0; i < s->settle.n; i++) {
		const struct fh_algo *v = fh_settle_verdict(&s->settle.cand[i]);

		if (!v || fh_algo_row(v)->no_comments ||
		    fh_list_declared(&s->listed, s->settle.outlen[i]))
			continue;
		fh_listout_put(w, "#fhsum untagged=", 16);
		fh_listout_put(w, v->name, strlen(v->name));
		put_lines(s, w, "\n", 1);
	}
	/* New files of such a length that nothing declares yet. */
	const struct fh_algo *n = news_declared(s);

	if (n) {
		fh_listout_put(w, "#fhsum untagged=", 16);
		fh_listout_put(w, n->name, strlen(n->name));
		put_lines(s, w, "\n", 1);
	}
}

/* Before any writing: every digest to be written is of a known
 * algorithm.  A line or new file hashed with candidates that none
 * matched takes the verdict; where there is none, nothing can be
 * written: the candidates left open, or NULL. */
static const struct fh_candidates *settle_writes(struct fh_store *s)
{
	const struct fh_candidates *open = NULL;

	for (size_t i = 0; i < s->nchanges; i++) {
		struct fh_change *ch = &s->changes[i];
		const struct fh_algo *v;

		if (ch->kind != FH_CH_REPLACE || !ch->cand)
			continue;
		if (!(v = fh_settle_verdict(ch->cand))) {
			open = ch->cand;
			continue;
		}
		for (size_t k = 0; k < ch->cand->n; k++)
			if (ch->cand->algo[k] == v)
				memmove(ch->digest, ch->digest + k * ch->e->outlen,
					ch->e->outlen);
		ch->e->algo = (uint8_t)v->id;
		ch->e->flags &= (uint8_t)~FH_ENTRY_OPEN;
		ch->cand = NULL;
	}
	for (size_t i = 0; i < s->nnews && !open; i++)
		if (s->news[i]->cand && !s->news[i]->renamed)
			open = s->news[i]->cand;
	return open;
}

/* Whether line LINENO is the metadata line of an entry restamped in place
 * (fh_entry_set_meta); *AT walks the entries, which are in line order. */
static const struct fh_entry *restamped(const struct fh_manifest *m, size_t *at,
					uint64_t lineno)
{
	while (*at < m->n && m->entries[*at].line <= lineno)
		++*at;
	if (*at == m->n)
		return NULL;
	const struct fh_entry *e = &m->entries[*at];

	return e->line == lineno + 1 && (e->flags & FH_ENTRY_RESTAMPED) ? e : NULL;
}

/* The start of line RW->lineno: skips a changed line (and the metadata
 * line before one) and writes the change in its place. */
static void line_start(struct fh_store *s, struct fh_rewriter *rw)
{
	struct fh_listout *w = &rw->out;
	uint64_t lineno = rw->lineno;
	const struct fh_entry *r;
	struct fh_meta meta;

	while (rw->next < s->nchanges && s->changes[rw->next].e->line < lineno)
		rw->next++;
	rw->skipping = false;
	if ((r = restamped(&s->m, &rw->at, lineno)) != NULL && fh_entry_meta(r, &meta)) {
		rw->skipping = true;
		put_entry_meta(s, w, &meta, r);
	}
	if (rw->next == s->nchanges)
		return;
	struct fh_change *ch = &s->changes[rw->next];
	struct fh_entry *e = ch->e;

	if (lineno + 1 == e->line && (e->flags & FH_ENTRY_META)) {
		rw->skipping = true;
		if (ch->kind == FH_CH_STAMP)
			put_entry_meta(s, w, &ch->meta, e);
	}
	if (lineno == e->line && ch->kind == FH_CH_STAMP) {
		/* The checksum line stays as it was. */
		if (!(e->flags & FH_ENTRY_META))
			put_entry_meta(s, w, &ch->meta, e);
	} else if (lineno == e->line) {
		rw->skipping = true;
		if (ch->kind != FH_CH_DROP)
			put_line(s, w, e->form, fh_algo_get((enum fh_algo_id)e->algo),
				 ch->kind == FH_CH_REPLACE ? ch->digest : fh_entry_digest(e),
				 e->outlen, ch->kind == FH_CH_RENAME ? ch->name : e->name,
				 ch->kind == FH_CH_RENAME ? ch->len : e->namelen,
				 ch->has_meta ? &ch->meta : NULL, ch->size);
	}
}

int fh_store_rewrite_open(struct fh_store *s, struct fh_rewriter *rw)
{
	int err = fh_listout_open(&s->lf, &rw->out);

	if (!err)
		put_declarations(s, &rw->out);

	rw->in = s->lf.exists ? s->lf.fd : -1;
	rw->lineno = 1;
	rw->next = rw->at = rw->i = rw->got = 0;
	rw->at_start = true;
	rw->skipping = rw->eof = false;
	rw->err = 0;
	if (!err && rw->in >= 0 && lseek(rw->in, 0, SEEK_SET) != 0)
		err = errno;
	return err;
}

void fh_store_rewrite_upto(struct fh_store *s, struct fh_rewriter *rw, uint64_t line)
{
	while (!rw->eof && !(rw->at_start && rw->lineno >= line)) {
		if (rw->i == rw->got) {
			ssize_t got = rw->in >= 0 ? read(rw->in, rw->buf, sizeof rw->buf) : 0;

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				rw->err = got < 0 ? errno : 0;
				rw->eof = true;
				break;
			}
			rw->i = 0;
			rw->got = (size_t)got;
		}
		if (rw->at_start) {
			line_start(s, rw);
			rw->at_start = false;
		}
		char *nl = memchr(rw->buf + rw->i, '\n', rw->got - rw->i);
		size_t end = nl ? (size_t)(nl - rw->buf) + 1 : rw->got;

		if (!rw->skipping)
			fh_listout_put(&rw->out, rw->buf + rw->i, end - rw->i);
		if (nl) {
			rw->lineno++;
			rw->at_start = true;
		}
		rw->i = end;
	}
}

static int by_line(const void *x, const void *y)
{
	const struct fh_change *p = x, *q = y;

	return p->e->line < q->e->line ? -1 : p->e->line > q->e->line;
}

/* The rest of the old list, then the new lines.  0 or an errno value. */
static int rewrite_rest(struct fh_store *s, struct fh_rewriter *rw)
{
	struct fh_listout *w = &rw->out;

	/* The changes not yet reached, in line order. */
	if (s->nchanges - rw->next > 1)
		qsort(s->changes + rw->next, s->nchanges - rw->next, sizeof *s->changes,
		      by_line);
	fh_store_rewrite_upto(s, rw, UINT64_MAX);
	if (rw->err)
		return rw->err;
	/* The last line had no line end: give it one before adding. */
	if (!rw->at_start && !rw->skipping && s->nnews)
		put_lines(s, w, "\n", 1);

	int form = s->first_form >= 0 ? s->first_form : s->new_form;
	bool with_meta = s->any_meta || s->new_meta;

	for (size_t i = 0; i < s->nnews; i++) {
		struct fh_newfile *n = s->news[i];

		if (n->renamed)
			continue; /* written in its old name's place */
		put_line(s, w, form, fh_algo_get((enum fh_algo_id)n->algo), n->digest,
			 n->outlen, n->name, n->len,
			 with_meta && n->has_meta ? &n->meta : NULL, n->size);
	}
	return w->err;
}

int fh_store_rewrite_close(struct fh_store *s, struct fh_rewriter *rw, int err)
{
	struct fh_listout *w = &rw->out;

	if (!err)
		err = rewrite_rest(s, rw);
	if (w->tmp) {
		/* Committed, or given up: either way the temporary goes. */
		if (err)
			w->err = err;
		int cerr = fh_listout_commit(&s->lf, w);

		err = err ? err : cerr;
	}
	return err;
}

/* The list is always the old list or the new one. */
int fh_store_write(struct fh_store *s, const struct fh_candidates **open)
{
	if ((*open = settle_writes(s)) != NULL)
		return FH_ELIST_UNSETTLED;
	struct fh_rewriter *rw = fh_store_xmalloc(sizeof *rw);
	int err = fh_store_rewrite_close(s, rw, fh_store_rewrite_open(s, rw));

	free(rw);
	return err;
}

void fh_store_change(struct fh_store *s, struct fh_change ch)
{
	fh_store_grow((void **)&s->changes, &s->changes_cap, s->nchanges, sizeof ch);
	s->changes[s->nchanges++] = ch;
}

void fh_store_add(struct fh_store *s, const char *path, size_t len,
		  const struct fh_algo *algo, const uint8_t *digest, size_t outlen,
		  const struct fh_meta *meta, uint64_t size, struct fh_candidates *cand)
{
	size_t dlen = outlen * (cand ? cand->n : 1);
	struct fh_newfile *n = fh_store_xmalloc(sizeof *n + len + 1 + dlen);

	memcpy(n->name, path, len);
	n->name[len] = '\0';
	n->len = len;
	n->cand = cand;
	n->digest = (uint8_t *)n->name + len + 1;
	memcpy(n->digest, digest, dlen);
	n->algo = (uint8_t)algo->id;
	n->outlen = (uint32_t)outlen;
	n->has_meta = meta != NULL;
	n->renamed = false;
	n->size = size;
	if (meta)
		n->meta = *meta;
	fh_store_grow((void **)&s->news, &s->news_cap, s->nnews, sizeof *s->news);
	s->news[s->nnews++] = n;
}

void fh_store_unlock(struct fh_store *s)
{
	if (s->held)
		fh_listfile_release(&s->lf);
	s->held = false;
}

void fh_store_release(struct fh_store *s)
{
	fh_store_unlock(s);
	for (size_t i = 0; i < s->nnews; i++)
		free(s->news[i]);
	for (size_t i = 0; i < s->nchanges; i++)
		if (s->changes[i].kind == FH_CH_REPLACE)
			free(s->changes[i].digest);
	free(s->news);
	free(s->changes);
	fh_manifest_free(&s->m);
}
