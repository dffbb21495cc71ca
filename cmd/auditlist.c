/* auditlist.c: the list side of --audit and --update: LIST read into the
 * manifest (parsed by listread.c; a name's first line counts, a second is
 * said as a duplicate),
 * and for --update its new text: the old lines byte for byte, the changes
 * in their places, the new files at the end, written beside LIST and
 * renamed over it (listfile.c). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "quote.h"
#include "settle.h"

void *fh_audit_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fh_error(ENOMEM, "%s", "audit");
		exit(STATUS_USAGE);
	}
	return p;
}

void *fh_audit_xmalloc_touched(size_t n)
{
	char *p = fh_audit_xmalloc(n);
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(page - 1);

	/* A hint: an older kernel refuses it, and the pages come one by
	 * one as before. */
	if (page && to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#endif
	return p;
}

void fh_audit_grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return;
	size_t c = *cap ? 2 * *cap : 64;
	void *q = realloc(*p, c * size);

	if (!q) {
		fh_error(ENOMEM, "%s", "audit");
		exit(STATUS_USAGE);
	}
	*p = q;
	*cap = c;
}

static int form_of(const struct fh_list_line *l)
{
	return (l->tagged ? FH_FMT_TAG : 0) | (l->binary ? FH_FMT_BINARY : 0) |
	       (l->base64 ? FH_FMT_BASE64 : 0);
}

/* The list is ambiguous, which is said whatever -w says. */
void fh_audit_duplicate(struct auditor *a, const char *list,
			   const struct fh_list_line *l, uint64_t lineno)
{
	struct fh_entry *e = fh_manifest_find(&a->m, l->name, l->namelen);

	a->duplicates++;
	if (a->c->status_only)
		return;
	fh_error(0, "%s: %" PRIu64 ": duplicate entry for %s: line %" PRIu64
		    " counts", fh_quotef(list, strlen(list)), lineno,
		 fh_quotef(l->name, l->namelen), e ? (uint64_t)e->line : 0);
}

static void add_entry(struct auditor *a, struct fh_list_line *l, uint64_t hash,
		      const uint8_t *digest, const struct fh_meta *meta,
		      uint64_t lineno)
{
	switch (fh_manifest_add_hashed(&a->m, hash, l, digest, meta, form_of(l), lineno)) {
	case FH_ADD_OK:
		if (a->first_form < 0)
			a->first_form = form_of(l);
		a->any_meta |= meta != NULL;
		if (l->alt && fh_settle_for(&a->settle, a->c, l->outlen, NULL))
			a->m.entries[a->m.n - 1].flags |= FH_ENTRY_OPEN;
		break;
	case FH_ADD_DUPLICATE:
		fh_audit_duplicate(a, a->list, l, lineno);
		break;
	case FH_ADD_NOMEM:
		fh_error(ENOMEM, "%s", fh_quotef(a->list, strlen(a->list)));
		exit(STATUS_USAGE);
	}
}

bool fh_audit_settle_entry(struct auditor *a, struct fh_entry *e,
			   const struct fh_job *job)
{
	const struct fh_algo *algo = job->algo;
	bool match = memcmp(job->digest, fh_entry_digest(e), e->outlen) == 0;

	if (!(e->flags & FH_ENTRY_OPEN))
		return match;
	struct fh_candidates *cand = fh_settle_for(&a->settle, a->c, e->outlen, NULL);

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
static void know_self(struct auditor *a, const struct stat *st, const char *path)
{
	const char *slash = strrchr(path, '/');

	a->self_dev = st->st_dev;
	a->self_ino = st->st_ino;
	a->self_base = slash ? slash + 1 : path;
	a->self_known = true;
}

/* For --update, LIST is locked first and stays locked to its rewrite. */
void fh_audit_load(struct auditor *a)
{
	const char *q = fh_quotef(a->list, strlen(a->list));
	struct stat st;
	int fd;

	if (a->update) {
		if (!fh_listfile_lock(&a->lf, a->list, a->c->no_wait) ||
		    !fh_listfile_writable(&a->lf))
			exit(STATUS_USAGE);
		know_self(a, &a->lf.st, a->lf.path);
		if (!a->lf.exists)
			return; /* created by the update */
		fd = a->lf.fd;
		st = a->lf.st;
	} else {
		fd = open(a->list, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0) {
			fh_error(errno, "%s", q);
			exit(STATUS_USAGE);
		}
		if (S_ISREG(st.st_mode))
			know_self(a, &st, a->list);
	}
	/* Lines of lists are rarely under 40 bytes. */
	fh_manifest_expect(&a->m, (size_t)(st.st_size / 40));
	int err = fh_audit_read_list(a, fd, a->list, add_entry);

	if (!a->update)
		close(fd);
	if (err) {
		fh_error(err, "%s", fh_quotef(a->list, strlen(a->list)));
		exit(STATUS_USAGE);
	}
}

/* New files' algorithm, when the new list declares it for them: they are
 * written untagged, their length is others' too, and neither the old
 * list nor a verdict declares one for it. */
static const struct fh_algo *news_declared(const struct auditor *a)
{
	const struct fh_algo *n = a->new_algo;
	bool untagged = a->first_form >= 0 ? !(a->first_form & FH_FMT_TAG) : !a->c->tag;
	size_t unwritten = 0;

	for (size_t i = 0; i < a->nnews; i++)
		unwritten += !a->news[i]->renamed;
	if (!unwritten || !n || !untagged || n->xof || fh_settle_algos(n->digest_bytes, NULL) < 2 ||
	    fh_list_declared(&a->listed, n->digest_bytes))
		return NULL;
	for (size_t i = 0; i < a->settle.n; i++)
		if (a->settle.outlen[i] == n->digest_bytes && fh_settle_verdict(&a->settle.cand[i]))
			return NULL;
	return n;
}

/* The algorithm the new list declares for untagged digests of OUTLEN
 * bytes: the old list's "#fhsum untagged=" line, else the verdict (a
 * declaration the new list begins with), else new files' algorithm. */
static const struct fh_algo *declared(const struct auditor *a, size_t outlen)
{
	const struct fh_algo *d = fh_list_declared(&a->listed, outlen);

	for (size_t i = 0; !d && i < a->settle.n; i++)
		if (a->settle.outlen[i] == outlen)
			d = fh_settle_verdict(&a->settle.cand[i]);
	if (!d && a->new_algo && news_declared(a) == a->new_algo &&
	    a->new_algo->digest_bytes == outlen)
		d = a->new_algo;
	return d;
}

/* Whether a line in FORM of ALGO must name its algorithm: untagged, of a
 * length others share, and not the one the list declares. */
static bool needs_name(const struct auditor *a, int form, const struct fh_algo *algo,
		       size_t outlen)
{
	return !(form & FH_FMT_TAG) && !algo->xof && fh_settle_algos(outlen, NULL) > 1 &&
	       declared(a, outlen) != algo;
}

/* A metadata line; for an entry whose line must name its algorithm
 * (ALGO, else NULL), with its "algorithm=" word. */
static void put_meta(struct fh_listout *w, const struct fh_meta *meta,
		     const struct fh_algo *algo)
{
	char m[FH_META_MAX];
	struct fh_meta named = *meta;

	named.algo = algo;
	fh_listout_put(w, m, fh_meta_format(m, &named));
}

/* The metadata line of entry E. */
static void put_entry_meta(struct auditor *a, struct fh_listout *w,
			   const struct fh_meta *meta, const struct fh_entry *e)
{
	const struct fh_algo *algo = fh_algo_get((enum fh_algo_id)e->algo);

	put_meta(w, meta, !(e->flags & FH_ENTRY_OPEN) &&
			  needs_name(a, e->form, algo, e->outlen) ? algo : NULL);
}

/* One checksum line (and its metadata line) in FORM. */
static void put_line(struct auditor *a, struct fh_listout *w, int form,
		     const struct fh_algo *algo, const uint8_t *digest,
		     size_t outlen, const char *name, size_t len,
		     const struct fh_meta *meta)
{
	size_t textlen = form & FH_FMT_BASE64 ? fh_base64(a->text, digest, outlen)
					      : 2 * outlen;
	char *line = fh_audit_xmalloc(fh_format_size(textlen, len));
	bool named = needs_name(a, form, algo, outlen);

	if (!(form & FH_FMT_BASE64))
		fh_hex(a->text, digest, outlen);
	if (meta) {
		put_meta(w, meta, named ? algo : NULL);
	} else if (named) {
		fh_listout_put(w, "#fhsum algorithm=", 17);
		fh_listout_put(w, algo->name, strlen(algo->name));
		fh_listout_put(w, "\n", 1);
	}
	fh_listout_put(w, line, fh_format_line(line, algo, a->text, textlen, name, len,
				    form & (FH_FMT_TAG | FH_FMT_BINARY | FH_FMT_BASE64)));
	free(line);
}

/* The new list's first lines: a declaration for each length the run
 * settled that the old list did not declare. */
static void put_declarations(struct auditor *a, struct fh_listout *w)
{
	for (size_t i = 0; i < a->settle.n; i++) {
		const struct fh_algo *v = fh_settle_verdict(&a->settle.cand[i]);

		if (!v || fh_list_declared(&a->listed, a->settle.outlen[i]))
			continue;
		fh_listout_put(w, "#fhsum untagged=", 16);
		fh_listout_put(w, v->name, strlen(v->name));
		fh_listout_put(w, "\n", 1);
	}
	/* New files of such a length that nothing declares yet. */
	const struct fh_algo *n = news_declared(a);

	if (n) {
		fh_listout_put(w, "#fhsum untagged=", 16);
		fh_listout_put(w, n->name, strlen(n->name));
		fh_listout_put(w, "\n", 1);
	}
}

/* Before any writing: every digest to be written is of a known
 * algorithm.  A line or new file hashed with candidates that none
 * matched takes the verdict; where there is none, nothing can be
 * written (0, or 64 with the reason said). */
static int settle_writes(struct auditor *a)
{
	const struct fh_candidates *open = NULL;

	for (size_t i = 0; i < a->nchanges; i++) {
		struct change *ch = &a->changes[i];
		const struct fh_algo *v;

		if (ch->action != REPLACE || !ch->cand)
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
	for (size_t i = 0; i < a->nnews && !open; i++)
		if (a->news[i]->cand && !a->news[i]->renamed)
			open = a->news[i]->cand;
	if (!open)
		return 0;
	char names[128];

	fh_settle_names(open, names, sizeof names);
	fh_error(0, "%s: untagged lines of %u hex digits may be %s, and no file "
		    "read matched one: give -a; the list was not updated",
		 fh_quotef(a->list, strlen(a->list)), 2 * open->algo[0]->digest_bytes, names);
	return STATUS_USAGE;
}

static int by_line(const void *x, const void *y)
{
	const struct change *p = x, *q = y;

	return p->e->line < q->e->line ? -1 : p->e->line > q->e->line;
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
static void line_start(struct auditor *a, struct fh_rewriter *rw)
{
	struct fh_listout *w = &rw->out;
	uint64_t lineno = rw->lineno;
	const struct fh_entry *r;
	struct fh_meta meta;

	while (rw->next < a->nchanges && a->changes[rw->next].e->line < lineno)
		rw->next++;
	rw->skipping = false;
	if ((r = restamped(&a->m, &rw->at, lineno)) != NULL && fh_entry_meta(r, &meta)) {
		rw->skipping = true;
		put_entry_meta(a, w, &meta, r);
	}
	if (rw->next == a->nchanges)
		return;
	struct change *ch = &a->changes[rw->next];
	struct fh_entry *e = ch->e;

	if (lineno + 1 == e->line && (e->flags & FH_ENTRY_META)) {
		rw->skipping = true;
		if (ch->action == STAMP)
			put_entry_meta(a, w, &ch->meta, e);
	}
	if (lineno == e->line && ch->action == STAMP) {
		/* The checksum line stays as it was. */
		if (!(e->flags & FH_ENTRY_META))
			put_entry_meta(a, w, &ch->meta, e);
	} else if (lineno == e->line) {
		rw->skipping = true;
		if (ch->action != DROP)
			put_line(a, w, e->form, fh_algo_get((enum fh_algo_id)e->algo),
				 ch->action == REPLACE ? ch->digest : fh_entry_digest(e),
				 e->outlen, ch->action == RENAME ? ch->name : e->name,
				 ch->action == RENAME ? ch->len : e->namelen,
				 ch->has_meta ? &ch->meta : NULL);
	}
}

int fh_audit_rewrite_open(struct auditor *a, struct fh_rewriter *rw)
{
	int err = fh_listout_open(&a->lf, &rw->out);

	if (!err)
		put_declarations(a, &rw->out);

	rw->in = a->lf.exists ? a->lf.fd : -1;
	rw->lineno = 1;
	rw->next = rw->at = rw->i = rw->got = 0;
	rw->at_start = true;
	rw->skipping = rw->eof = false;
	rw->err = 0;
	if (!err && rw->in >= 0 && lseek(rw->in, 0, SEEK_SET) != 0)
		err = errno;
	return err;
}

void fh_audit_rewrite_upto(struct auditor *a, struct fh_rewriter *rw, uint64_t line)
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
			line_start(a, rw);
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

/* The rest of the old list, then the new lines.  0 or an errno value. */
static int rewrite_rest(struct auditor *a, struct fh_rewriter *rw)
{
	const struct cli *c = a->c;
	struct fh_listout *w = &rw->out;

	/* The changes not yet reached, in line order. */
	if (a->nchanges - rw->next > 1)
		qsort(a->changes + rw->next, a->nchanges - rw->next, sizeof *a->changes,
		      by_line);
	fh_audit_rewrite_upto(a, rw, UINT64_MAX);
	if (rw->err)
		return rw->err;
	/* The last line had no line end: give it one before adding. */
	if (!rw->at_start && !rw->skipping && a->nnews)
		fh_listout_put(w, "\n", 1);

	int form = a->first_form >= 0 ? a->first_form
		 : (c->tag ? FH_FMT_TAG : 0) | (c->binary > 0 ? FH_FMT_BINARY : 0) |
		   (c->base64 ? FH_FMT_BASE64 : 0);
	bool with_meta = a->any_meta || c->meta;

	for (size_t i = 0; i < a->nnews; i++) {
		struct newfile *n = a->news[i];

		if (n->renamed)
			continue; /* written in its old name's place */
		put_line(a, w, form, fh_algo_get((enum fh_algo_id)n->algo), n->digest,
			 n->outlen, n->name, n->len,
			 with_meta && n->has_meta ? &n->meta : NULL);
	}
	return w->err;
}

int fh_audit_rewrite_close(struct auditor *a, struct fh_rewriter *rw, int err)
{
	struct fh_listout *w = &rw->out;

	if (!err)
		err = rewrite_rest(a, rw);
	if (w->tmp) {
		/* Committed, or given up: either way the temporary goes. */
		if (err)
			w->err = err;
		int cerr = fh_listout_commit(&a->lf, w);

		err = err ? err : cerr;
	}
	if (err > 0)
		fh_error(err, "%s: the list was not updated",
			 fh_quotef(a->list, strlen(a->list)));
	return err ? STATUS_USAGE : 0;
}

/* LIST is always the old list or the new one. */
int fh_audit_write_list(struct auditor *a)
{
	int status = settle_writes(a);

	if (status)
		return status;
	struct fh_rewriter *rw = fh_audit_xmalloc(sizeof *rw);

	status = fh_audit_rewrite_close(a, rw, fh_audit_rewrite_open(a, rw));

	free(rw);
	return status;
}
