/* audit.c: keeping a tree's checksum list true over time.
 *
 * --audit=LIST hashes the tree once (operands, -r, --files-from) and says
 * what each file is against LIST: OK, CHANGED, DAMAGED (another digest
 * under the same size and mtime), NEW, MOVED (a new name holding a
 * missing name's content), MISSING, FAILED open or read.  --update=LIST
 * rewrites LIST instead, reading only files whose metadata changed;
 * --audit=OLD --against=NEW compares two lists and opens no other file.
 *
 * LIST is held as a manifest (lib/list/manifest.c): entries by name, and
 * after the walk the missing ones by digest.  Files are reported in walk
 * order as the engine hands them back; new names wait for the walk's end
 * (one may be a missing name's content), then missing entries in list
 * order.  LIST is held in a store (lists/store.h): its reading and
 * writing back are the store's; this file keeps the policy and the report.
 * A hashdeep list's rows (hashdeep.h) are entries like any: a file is
 * hashed with every column's algorithm and its row bytes, digests and
 * size, compared with the row's. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "engine/engine.h"
#include "exclude.h"
#include "listread.h"
#include "quote.h"
#include "shapes.h"

/* What a job of the walk is. */
enum kind { K_PRESENT, K_NEW, K_TRUSTED, K_WALK_ERROR, K_PROBE };

struct rec {
	enum kind kind;
	struct fh_entry *e;
	struct fh_meta before;
	bool has_before;
	bool named;             /* a command-line operand itself */
	int err;
	char path[];            /* K_WALK_ERROR */
};

/* ------------------------------------------------------------------ */
/* Reporting. */

/* fh_audit_report and fh_audit_report_expected. */
static void report(struct auditor *a, const char *name, size_t len,
		   enum fh_status st, int algo, const uint8_t *digest,
		   const uint8_t *expected, size_t outlen,
		   const struct fh_meta *meta, int err, const char *from,
		   size_t fromlen)
{
	const struct cli *c = a->c;

	if (c->status_only || (st == FH_ST_OK && c->quiet))
		return;
	/* A hashdeep row is shown with its first column's digest. */
	if (a->st.hd.on && outlen > fh_algo_get((enum fh_algo_id)algo)->digest_bytes)
		outlen = fh_algo_get((enum fh_algo_id)algo)->digest_bytes;
	fh_record_put(c, &(struct fh_record){
		.name = name, .namelen = len, .algo = fh_algo_get((enum fh_algo_id)algo),
		.digest = digest, .expected = expected, .outlen = outlen,
		.sized = meta != NULL, .size = meta ? meta->size : 0,
		.verified = meta ? meta->verified : 0, .status = fh_status_word(st),
		.from = from, .fromlen = fromlen, .err = err });
}

void fh_audit_report(struct auditor *a, const char *name, size_t len,
		   enum fh_status st, int algo, const uint8_t *digest,
		   size_t outlen, const struct fh_meta *meta, int err,
		   const char *from, size_t fromlen)
{
	report(a, name, len, st, algo, digest, NULL, outlen, meta, err, from, fromlen);
}

void fh_audit_report_expected(struct auditor *a, const char *name, size_t len,
			      enum fh_status st, int algo, const uint8_t *digest,
			      const uint8_t *expected, size_t outlen,
			      const struct fh_meta *meta)
{
	report(a, name, len, st, algo, digest,
	       st == FH_ST_CHANGED || st == FH_ST_DAMAGED ? expected : NULL, outlen,
	       meta, 0, NULL, 0);
}

/* A listed file hashed: its status, and for --update its line's fate.
 * NOW is its metadata to record (NULL: none). */
static void present(struct auditor *a, struct fh_entry *e, const char *path,
		    size_t len, const uint8_t *digest, enum fh_status st,
		    const struct fh_meta *now, const struct fh_meta *shown,
		    struct fh_candidates *cand, bool named)
{
	struct fh_meta listed;

	if (a->update) {
		/* Metadata is written where the list keeps some, or --meta
		 * asks for it. */
		bool with_meta = now && (a->c->meta || a->st.any_meta);

		if (st == FH_ST_DAMAGED && !named) {
			/* The list keeps the good digest, unless the file is
			 * named: its content is then the one to keep. */
		} else if (st == FH_ST_CHANGED || st == FH_ST_DAMAGED ||
			   (with_meta && (!fh_entry_meta(e, &listed) ||
					  !fh_meta_equal(now, &listed)))) {
			size_t dlen = e->outlen * (cand ? cand->n : 1);
			uint8_t *d = fh_store_xmalloc(dlen);

			memcpy(d, digest, dlen);
			fh_store_change(&a->st, (struct fh_change){
				.e = e, .kind = FH_CH_REPLACE, .digest = d, .cand = cand,
				.meta = with_meta ? *now : (struct fh_meta){ 0 },
				.has_meta = with_meta,
				.size = shown ? shown->size : UINT64_MAX });
		}
		if (st == FH_ST_OK)
			return; /* --update prints what it changed */
	}
	a->changed += st == FH_ST_CHANGED;
	a->damaged += st == FH_ST_DAMAGED;
	fh_audit_report_expected(a, path, len, st, e->algo, digest, fh_entry_digest(e),
				 e->outlen, shown);
}

/* ------------------------------------------------------------------ */
/* The walk: the engine's producer and consumer. */

/* With -a: an untagged line whose file does not match under -a's
 * algorithm may be another algorithm's, the list's own, with -a given by
 * mistake.  The file is read under the other algorithms of that length;
 * a match stops an update, so that a list is never rewritten into -a's
 * algorithm over lines its files show to be another's, and an audit says
 * it beside its CHANGED lines.  A wrong
 * -a fails every file, so the first few that fail tell: files that
 * changed under a right one are not all read twice. */
#define SLIP_CHECKS 8

static void check_slip(struct auditor *a, const struct fh_entry *e, const char *path)
{
	struct fh_candidates *cand = fh_settle_for(&a->st.settle, e->outlen, NULL);
	const struct fh_algo *y;

	if (!cand || a->slip_checks == SLIP_CHECKS)
		return;
	a->slip_checks++;
	y = fh_settle_retry(path, cand, fh_algo_get((enum fh_algo_id)e->algo),
			    fh_entry_digest(e), e->outlen);
	if (y) {
		a->slip_algo = y;
		a->slip_name = fh_xstrdup(path);
	}
}

/* A job of a length left to settle: with the verdict's algorithm once
 * there is one, else with CAND's, EXPECT (may be NULL) the digest listed. */
static void job_settles(struct auditor *a, struct fh_job *job,
			struct fh_candidates *cand, const uint8_t *expect)
{
	const struct fh_algo *v;

	(void)a;
	if (!cand)
		return;
	if ((v = fh_settle_verdict(cand)) != NULL) {
		job->algo = v;
		return;
	}
	job->cand = cand;
	job->expect = expect;
}

static bool next(void *ctx, struct fh_job *job)
{
	struct auditor *a = ctx;
	const char *path;
	int err;

	/* First the probes that settle the list's open lengths. */
	if (fh_audit_probe(a, job)) {
		struct rec *r = fh_store_xmalloc(sizeof *r);

		memset(r, 0, sizeof *r);
		r->kind = K_PROBE;
		job->user = r;
		return true;
	}
	if (!fh_operands_next(a->ops, &path, &err))
		return false;
	size_t len = strlen(path);
	struct rec *r = fh_store_xmalloc(sizeof *r + (err ? len + 1 : 0));

	memset(r, 0, sizeof *r);
	job->user = r;
	if (err) {
		r->kind = K_WALK_ERROR;
		r->err = err;
		memcpy(r->path, path, len + 1);
		return true;
	}
	int stat_err = 0;
	struct fh_entry *e = fh_manifest_find(&a->st.m, path, len);

	if (fh_store_is_self(&a->st, path, len)) {
		/* The list is no entry of itself: its digest is stale the
		 * moment it is written.  A line for it (from a list made by
		 * "fhsum -r p > p/SUMS") is ignored, and --update drops it. */
		if (e && !(e->flags & FH_ENTRY_SEEN)) {
			e->flags |= FH_ENTRY_SEEN;
			if (a->update)
				fh_store_change(&a->st, (struct fh_change){ .e = e, .kind = FH_CH_DROP });
		}
		r->kind = K_TRUSTED;
		return true;
	}
	/* The metadata is needed by --update (to trust a line, or to write
	 * it) and for lines that have some (DAMAGED); an audit of a list
	 * without it costs no stat beyond -c's. */
	if (a->update || (e && (e->flags & FH_ENTRY_META)))
		r->has_before = fh_operands_meta(a->ops, path, &r->before, &stat_err);
	/* A listed name that is not there is missing, not unreadable. */
	if (e && stat_err == ENOENT && !(e->flags & FH_ENTRY_SEEN)) {
		r->kind = K_TRUSTED;
		return true;
	}

	if (e) {
		e->flags |= FH_ENTRY_SEEN;
		r->e = e;
		/* --update trusts a line whose metadata the file still has:
		 * not read.  A line without metadata vouches for no state of
		 * the file, so it is read. */
		struct fh_meta listed;

		/* A file named as an operand is read whatever its metadata:
		 * so a user accepts its content as it is now (a DAMAGED
		 * file restored, or its new content taken). */
		r->named = a->ops->named;
		if (a->update && !r->named && fh_entry_meta(e, &listed) &&
		    r->has_before && fh_meta_equal(&r->before, &listed)) {
			r->kind = K_TRUSTED;
			return true;
		}
		r->kind = K_PRESENT;
		job->algo = fh_algo_get((enum fh_algo_id)e->algo);
		job->outlen = e->outlen;
		if (e->flags & FH_ENTRY_OPEN)
			job_settles(a, job, fh_settle_for(&a->st.settle, e->outlen, NULL),
				    fh_entry_digest(e));
	} else {
		r->kind = K_NEW;
		job->algo = a->st.new_algo;
		job->outlen = a->new_outlen;
		job_settles(a, job, a->new_cand, NULL);
	}
	job->path = path;
	if (strcmp(path, "-") == 0)
		fh_stdin_read = true;
	if (a->st.hd.on)
		fh_hashdeep_job(&a->st.hd, job);
	fh_job_kernels(a->c, job);
	job->size_hint = r->before.size;
	job->sized = r->has_before;
	/* Whether the file held still while read is the engine's to say. */
	job->track = r->has_before;
	return true;
}

/* Keeps PATH, which the walk could not read, as a name key. */
static void add_blind(struct auditor *a, const char *path)
{
	char *tidy = fh_store_xmalloc(strlen(path) + 1);
	size_t klen;

	strcpy(tidy, path);
	fh_path_tidy(tidy);
	const char *key = fh_name_key(tidy, strlen(tidy), &klen);

	memmove(tidy, key, klen);
	tidy[klen] = '\0';
	fh_store_grow((void **)&a->blind, &a->blind_cap, a->nblind, sizeof *a->blind);
	a->blind[a->nblind++] = tidy;
}

/* Whether entry E lies under (or is) a name the walk could not read. */
static bool in_blind(const struct auditor *a, const struct fh_entry *e)
{
	size_t klen;
	const char *key = fh_name_key(e->name, e->namelen, &klen);

	for (size_t i = 0; i < a->nblind; i++) {
		size_t n = strlen(a->blind[i]);

		if (klen >= n && memcmp(key, a->blind[i], n) == 0 &&
		    (klen == n || key[n] == '/' || (n == 1 && a->blind[i][0] == '/')))
			return true;
		if (n == 1 && a->blind[i][0] == '.')
			return true;
	}
	return false;
}

static void done(void *ctx, struct fh_job *read)
{
	struct auditor *a = ctx;
	struct rec *r = read->user;
	/* A hashdeep row's digest: its row bytes. */
	uint8_t row[FH_HASHDEEP_ROW_MAX];
	struct fh_job as_row;
	const struct fh_job *job = fh_hashdeep_as_row(&a->st.hd, read, &as_row, row);

	if (r->kind == K_PROBE) {
		/* Its verdict, if any, is the candidates' now. */
	} else if (r->kind == K_WALK_ERROR) {
		/* Said once, here; the listed files under it are neither
		 * checked nor missing (finish). */
		fh_report_input_error(r->path, r->err);
		a->walk_errors++;
		if (r->err != ENOENT)
			add_blind(a, r->path);
	} else if (r->kind != K_TRUSTED) {
		size_t len = strlen(job->path);

		if (job->err == ENOENT && r->kind == K_PRESENT &&
		    !(r->e->flags & FH_ENTRY_META) && !a->update) {
			/* Gone before it could be opened (no stat was taken):
			 * missing, as a name the walk did not meet. */
			r->e->flags &= (uint8_t)~FH_ENTRY_SEEN;
		} else if (job->err) {
			fh_report_input_error(job->path, job->err);
			a->unreadable++;
			fh_audit_report(a, job->path, len, FH_ST_UNREADABLE, job->algo->id,
			       NULL, 0, NULL, job->err,
			       NULL, 0);
		} else {
			/* The state at open, which the engine found unchanged
			 * once the file was read (else TORN). */
			struct fh_meta after = { .size = job->open_size, .sec = job->mtime_sec,
						 .nsec = job->mtime_nsec },
				       *now = NULL, *shown = NULL;
			bool has_after = r->has_before && job->tracked && !job->torn;
			bool stable = has_after && fh_meta_equal(&r->before, &after);

			/* What to record: the metadata the digest is of; for
			 * a file that changed while read, the earlier one,
			 * so that the next update reads it again. */
			if (r->has_before)
				now = &r->before;
			if (!has_after) /* what was hashed, for --json's size */
				after = (struct fh_meta){ .size = job->size };
			shown = &after;
			/* --json's "verified": the listed stamp. */
			struct fh_meta listed;

			if (r->kind == K_PRESENT && fh_entry_meta(r->e, &listed))
				after.verified = listed.verified;
			if (a->update && r->has_before && !stable) {
				/* The digest is of no state the file was in: no
				 * line records it; a listed one stays as it was,
				 * for the next update to read again. */
				fh_progress_clear();
				fh_error(0, "%s: file changed while being read; %s",
					 fh_quotef(job->path, len),
					 r->kind == K_PRESENT ? "its line is kept"
							      : "not listed");
				a->torn++;
			} else if (r->kind == K_PRESENT) {
				bool open = r->e->flags & FH_ENTRY_OPEN;
				bool match = fh_store_settle_entry(&a->st, r->e, job);

				if (!match && !open && a->c->algo_given &&
				    !(r->e->form & FH_FMT_TAG) && !a->slip_algo)
					check_slip(a, r->e, job->path);
				enum fh_status st = fh_classify(
					r->e, job->digest, r->has_before ? &r->before : NULL,
					has_after ? &after : NULL);

				if (match)
					st = FH_ST_OK;
				else if (st == FH_ST_OK)
					st = FH_ST_CHANGED;
				if (!stable && st == FH_ST_OK && r->has_before)
					st = FH_ST_CHANGED; /* changed as it was read */
				if (open && job->cand && job->chosen < 0)
					fh_audit_unmatched(a, job->cand);
				present(a, r->e, job->path, len, job->digest, st, now, shown,
					job->cand && job->chosen < 0 ? job->cand : NULL, r->named);
			} else if (a->update && a->st.hd.on &&
				   !fh_hashdeep_name_ok(job->path, len)) {
				fh_progress_clear();
				fh_error(0, "%s: a hashdeep list has no way to write this "
					    "name; not listed", fh_quotef(job->path, len));
				a->unreadable++;
			} else if (a->update && a->st.sfv &&
				   !fh_shapes_sfv_name_ok(job->path, len)) {
				fh_progress_clear();
				fh_error(0, "%s: an SFV list has no way to write this "
					    "name; not listed", fh_quotef(job->path, len));
				a->unreadable++;
			} else {
				fh_store_add(&a->st, job->path, len, job->algo, job->digest,
					 job->outlen, now, job->size,
					 job->cand && job->chosen < 0 ? job->cand : NULL);
			}
		}
	}
	free(r);
}

/* ------------------------------------------------------------------ */
/* After the walk: new, moved and missing files. */

/* The operands' names, for which entries the run expects: "d" covers "d"
 * and "d/...", "." everything. */
void fh_audit_set_scope(struct auditor *a)
{
	if (a->ops->from >= 0) {
		a->expect_all = true;
		return;
	}
	a->scope = fh_store_xmalloc(sizeof *a->scope * (size_t)(a->ops->argc ? a->ops->argc : 1));
	for (int i = 0; i < a->ops->argc; i++) {
		char *tidy = fh_xstrdup(a->ops->argv[i]);

		fh_path_tidy(tidy);
		size_t klen;
		const char *key = fh_name_key(tidy, strlen(tidy), &klen);

		if ((klen == 1 && key[0] == '.') || (klen == 2 && memcmp(key, "./", 2) == 0))
			a->expect_all = true;
		a->scope[a->nscope] = fh_store_xmalloc(klen + 1);
		memcpy(a->scope[a->nscope], key, klen);
		a->scope[a->nscope++][klen] = '\0';
		free(tidy);
	}
}

bool fh_audit_in_scope(const struct auditor *a, const struct fh_entry *e)
{
	size_t klen;
	const char *key = fh_name_key(e->name, e->namelen, &klen);

	if (a->expect_all)
		return true;
	for (size_t i = 0; i < a->nscope; i++) {
		size_t n = strlen(a->scope[i]);

		if (klen >= n && memcmp(key, a->scope[i], n) == 0 &&
		    (klen == n || key[n] == '/' || (n > 0 && a->scope[i][n - 1] == '/')))
			return true;
	}
	return false;
}

/* Whether --exclude hides the listed name KEY (KLEN bytes, as
 * fh_name_key gives it): by its path from each directory operand it lies
 * under, as the walk would have met it; under none (a file operand,
 * --files-from, --against), by its name as listed. */
bool fh_audit_hidden(const struct auditor *a, const char *key, size_t klen)
{
	const struct fh_exclude *x = a->c->exclude;
	bool under = false;

	if (!fh_exclude_any(x))
		return false;
	for (size_t i = 0; i < a->nscope; i++) {
		const char *s = a->scope[i];
		size_t n = strlen(s);
		const char *rel = NULL;

		if (n == 1 && s[0] == '.')
			rel = key;
		else if (klen > n && memcmp(key, s, n) == 0 &&
			 (key[n] == '/' || s[n - 1] == '/'))
			rel = key + n + (key[n] == '/');
		if (!rel)
			continue;
		under = true;
		if (fh_excluded_path(x, rel, klen - (size_t)(rel - key)))
			return true;
	}
	return !under && fh_excluded_path(x, key, klen);
}

/* Probes: entries looked at for the smallest file, and the size that
 * is small enough to stop looking. */
#define PROBE_LOOK 256
#define PROBE_SMALL ((uint64_t)64 << 10)

bool fh_audit_probe(struct auditor *a, struct fh_job *job)
{
	for (size_t l = 0; l < a->st.settle.n; l++) {
		struct fh_candidates *cand = &a->st.settle.cand[l];
		struct fh_entry *best = NULL;
		uint64_t best_size = UINT64_MAX;
		size_t looked = 0;

		if (a->st.settle.probed[l] || fh_settle_verdict(cand))
			continue;
		a->st.settle.probed[l] = true;
		for (size_t i = 0; i < a->st.m.n && looked < PROBE_LOOK &&
				   best_size > PROBE_SMALL; i++) {
			struct fh_entry *e = &a->st.m.entries[i];
			struct fh_meta now, listed;
			size_t klen;
			const char *key;
			uint64_t size;

			if (!(e->flags & FH_ENTRY_OPEN) || e->outlen != a->st.settle.outlen[l] ||
			    !fh_audit_in_scope(a, e))
				continue;
			key = fh_name_key(e->name, e->namelen, &klen);
			if (fh_audit_hidden(a, key, klen))
				continue;
			looked++;
			if (!fh_settle_readable(e->name, &size) || size >= best_size)
				continue;
			/* --update does not read a file its line vouches for. */
			if (a->update && fh_entry_meta(e, &listed) &&
			    fh_operands_meta(NULL, e->name, &now, NULL) &&
			    fh_meta_equal(&now, &listed))
				continue;
			best = e;
			best_size = size;
		}
		if (!best)
			continue;
		job->path = best->name;
		job->cand = cand;
		job->algo = cand->algo[0];
		job->expect = fh_entry_digest(best);
		job->outlen = best->outlen;
		job->watch = true;
		job->size_hint = best_size;
		job->sized = true;
		return true;
	}
	return false;
}

/* New file N hashed with candidates: its digest under the verdict. */
static void take_verdict(struct fh_newfile *n, const struct fh_algo *v)
{
	for (size_t i = 0; i < n->cand->n; i++)
		if (n->cand->algo[i] == v)
			memmove(n->digest, n->digest + i * n->outlen, n->outlen);
	n->algo = (uint8_t)v->id;
	n->cand = NULL;
}

/* The missing entry new file N takes the content of, or NULL.  Hashed
 * with candidates and no verdict yet, N may show one: its digest under
 * some candidate is an open entry's. */
static struct fh_entry *pair_new(struct auditor *a, struct fh_newfile *n)
{
	const struct fh_algo *v;

	if (n->cand && (v = fh_settle_verdict(n->cand)) != NULL)
		take_verdict(n, v);
	if (!n->cand) {
		struct fh_entry *e = fh_manifest_pair(&a->st.m, n->algo, n->digest, n->outlen);
		struct fh_candidates *cand = fh_settle_for(&a->st.settle, n->outlen, NULL);

		/* An open entry is filed under the first candidate. */
		if (e || !cand || cand->algo[0]->id == n->algo)
			return e;
		e = fh_manifest_pair(&a->st.m, cand->algo[0]->id, n->digest, n->outlen);
		if (e && !(e->flags & FH_ENTRY_OPEN)) {
			e->flags &= (uint8_t)~FH_ENTRY_PAIRED;
			return NULL;
		}
		if (e) {
			e->algo = n->algo;
			e->flags &= (uint8_t)~FH_ENTRY_OPEN;
		}
		return e;
	}
	for (size_t i = 0; i < n->cand->n; i++) {
		/* Open entries are filed under the first candidate. */
		struct fh_entry *e = fh_manifest_pair(&a->st.m, n->cand->algo[0]->id,
						      n->digest + i * n->outlen, n->outlen);

		if (!e)
			continue;
		if (!(e->flags & FH_ENTRY_OPEN) && i) {
			e->flags &= (uint8_t)~FH_ENTRY_PAIRED;
			continue;
		}
		if (e->flags & FH_ENTRY_OPEN) {
			fh_settle_decide(n->cand, n->cand->algo[i]);
			e->algo = (uint8_t)n->cand->algo[i]->id;
			e->flags &= (uint8_t)~FH_ENTRY_OPEN;
		}
		take_verdict(n, n->cand->algo[i]);
		return e;
	}
	return NULL;
}

static void finish(struct auditor *a)
{
	const struct cli *c = a->c;

	for (size_t i = 0; i < a->st.m.n; i++) {
		struct fh_entry *e = &a->st.m.entries[i];
		size_t klen;
		const char *key;

		if ((e->flags & FH_ENTRY_SEEN) || !fh_audit_in_scope(a, e))
			continue;
		/* Left out by --exclude: kept as it is, never missing. */
		key = fh_name_key(e->name, e->namelen, &klen);
		if (fh_audit_hidden(a, key, klen))
			continue;
		/* Under a directory the walk could not read, a listed file
		 * may well be there: not checked, never missing. */
		if (a->nblind && in_blind(a, e))
			a->unchecked++;
		else
			e->flags |= FH_ENTRY_EXPECTED;
	}
	/* Open entries of a length settled meanwhile take the verdict, so
	 * that new names pair with them by it. */
	for (size_t i = 0; i < a->st.m.n; i++) {
		struct fh_entry *e = &a->st.m.entries[i];
		struct fh_candidates *cand;
		const struct fh_algo *v;

		if ((e->flags & FH_ENTRY_OPEN) &&
		    (cand = fh_settle_for(&a->st.settle, e->outlen, NULL)) &&
		    (v = fh_settle_verdict(cand))) {
			e->algo = (uint8_t)v->id;
			e->flags &= (uint8_t)~FH_ENTRY_OPEN;
		}
	}
	if (!fh_manifest_index_missing(&a->st.m))
		fh_out_of_memory();
	for (size_t i = 0; i < a->st.nnews; i++) {
		struct fh_newfile *n = a->st.news[i];
		struct fh_entry *e = pair_new(a, n);

		if (e) {
			/* Without --prune, --update keeps the old line and
			 * adds the new name: still a move, and said so. */
			a->moved++;
			struct fh_meta sz = { .size = n->size };

			fh_audit_report(a, n->name, n->len, FH_ST_MOVED, n->algo, n->digest,
			       n->outlen, n->size != UINT64_MAX ? &sz : NULL, 0,
			       e->name, e->namelen);
			if (a->update && c->prune) {
				n->renamed = true;
				fh_store_change(&a->st, (struct fh_change){
					.e = e, .kind = FH_CH_RENAME, .name = n->name,
					.size = n->size,
					.len = n->len, .meta = n->meta,
					.has_meta = n->has_meta &&
						    ((e->flags & FH_ENTRY_META) || c->meta) });
			}
			continue;
		}
		a->added++;
		struct fh_meta sz = { .size = n->size };

		fh_audit_report(a, n->name, n->len, FH_ST_NEW, n->algo, n->digest, n->outlen,
		       n->size != UINT64_MAX ? &sz : NULL, 0, NULL, 0);
	}
	for (size_t i = 0; i < a->st.m.n; i++) {
		struct fh_entry *e = &a->st.m.entries[i];

		struct fh_meta listed;

		if ((e->flags & (FH_ENTRY_EXPECTED | FH_ENTRY_SEEN | FH_ENTRY_PAIRED)) !=
		    FH_ENTRY_EXPECTED || c->ignore_missing)
			continue;
		if (a->update && !c->prune) {
			a->kept_missing++; /* kept, and counted */
			continue;
		}
		a->missing++;
		fh_audit_report(a, e->name, e->namelen, FH_ST_MISSING, e->algo,
		       fh_entry_digest(e), e->outlen,
		       fh_entry_meta(e, &listed) ? &listed : NULL, 0, NULL, 0);
		if (a->update)
			fh_store_change(&a->st, (struct fh_change){ .e = e, .kind = FH_CH_DROP });
	}
	if (!c->status_only && !c->against)
		fh_prefix_guess(&a->st, &a->prefix);
}

/* Said once, last: nearly every name found is a listed one under a
 * prefix, or the list's are the names found under one (an audit run
 * from another directory, or with absolute names for a list of relative
 * ones), which the report shows as every file NEW or MOVED. */
static void say_prefix(const struct auditor *a)
{
	const struct fh_prefix *p = &a->prefix;
	uint64_t of = a->st.nnews;

	if (!p->text)
		return;
	fh_error(0, "note: %" PRIu64 " of %" PRIu64 " names found are the list's "
		 "names %s %s before them", p->hits, of, p->under ? "with" : "without",
		 fh_quote(p->text));
	if (p->under)
		fh_error(0, "note: if nothing moved, run it from %s, with names "
			 "relative to it", fh_quote(p->text));
	else
		fh_error(0, "note: if nothing moved, run it where the list's names "
			 "start, naming the files as the list does (%s before them)",
			 fh_quote(p->text));
}

static void warn_count(uint64_t n, const char *one, const char *many)
{
	if (n)
		fh_error(0, "WARNING: %" PRIu64 " %s", n, n == 1 ? one : many);
}

void fh_audit_unmatched(struct auditor *a, const struct fh_candidates *cand)
{
	for (size_t l = 0; l < a->st.settle.n; l++)
		if (&a->st.settle.cand[l] == cand)
			a->unmatched[l] = true;
}

/* The lengths of untagged lines whose files matched under none of their
 * candidates: those lines are CHANGED, or of an algorithm the run was
 * not told (as -c says it). */
static void unsettled(const struct auditor *a)
{
	for (size_t l = 0; l < a->st.settle.n; l++) {
		char names[128];

		if (!a->unmatched[l] || fh_settle_verdict(&a->st.settle.cand[l]))
			continue;
		fh_settle_names(&a->st.settle.cand[l], names, sizeof names);
		fh_error(0, "WARNING: no file matched under %s: the list may use "
			    "another algorithm (give it with -a)", names);
	}
}

int fh_audit_status(struct auditor *a)
{
	const struct cli *c = a->c;

	fh_progress_clear();
	if (!c->status_only) {
		warn_count(a->st.bad_lines, "line is improperly formatted",
			   "lines are improperly formatted");
		warn_count(a->st.duplicates, "duplicate entry (the first line of a name counts)",
			   "duplicate entries (the first line of a name counts)");
		warn_count(a->walk_errors, "name in the tree could not be read",
			   "names in the tree could not be read");
		warn_count(a->unchecked, "listed file under an unreadable directory "
					 "was not checked",
			   "listed files under unreadable directories were not checked");
		warn_count(a->torn, "file changed while being read (not recorded)",
			   "files changed while being read (not recorded)");
		warn_count(a->unreadable, "listed file could not be read",
			   "listed files could not be read");
		if (a->uncompared)
			fh_error(0, "WARNING: %" PRIu64 " %s listed in other algorithms "
				    "(%s in %s, %s in %s): not compared", a->uncompared,
				 a->uncompared == 1 ? "file is" : "files are",
				 a->uncompared_old, fh_quotef(a->st.name, strlen(a->st.name)),
				 a->uncompared_new, fh_quotef(c->against, strlen(c->against)));
		warn_count(a->changed, "file changed", "files changed");
		unsettled(a);
		if (a->slip_algo)
			fh_error(0, "WARNING: the line of %s is %s's by its content, not "
				    "%s's (-a): the list may use another algorithm",
				 fh_quotef(a->slip_name, strlen(a->slip_name)),
				 a->slip_algo->name, c->algo->name);
		warn_count(a->damaged, "file damaged (same size and mtime, other content)",
			   "files damaged (same size and mtime, other content)");
		warn_count(a->moved, "file moved", "files moved");
		warn_count(a->added, "new file", "new files");
		warn_count(a->missing, "listed file missing", "listed files missing");
		warn_count(a->kept_missing, "listed file missing (its line kept: "
					    "--prune drops it)",
			   "listed files missing (their lines kept: --prune drops them)");
		say_prefix(a);
	}
	return (a->added ? FH_BIT_NEW : 0) |
	       (a->missing || a->kept_missing ? FH_BIT_MISSING : 0) |
	       (a->changed || a->torn ? FH_BIT_CHANGED : 0) |
	       (a->moved ? FH_BIT_MOVED : 0) | (a->damaged ? FH_BIT_DAMAGED : 0) |
	       (a->unreadable || a->walk_errors || a->unchecked || a->uncompared ||
		(c->strict && (a->st.bad_lines || a->st.duplicates)) ? FH_BIT_UNREADABLE : 0);
}

/* ------------------------------------------------------------------ */
/* --against: the second list in place of the tree. */

/* An improper line of the second list: counted with the first's. */
static void against_bad(void *ctx, uint64_t lineno)
{
	struct auditor *a = ctx;
	const struct cli *c = a->c;

	a->st.bad_lines++;
	if (c->warn)
		fh_error(0, "%s: %" PRIu64 ": improperly formatted %s%s"
			    "checksum line",
			 fh_quotef(c->against, strlen(c->against)), lineno,
			 c->label ? c->label : "", c->label ? " " : "");
}

static void against_entry(void *ctx, struct fh_list_line *l, uint64_t hash,
			  const uint8_t *digest, const struct fh_meta *meta,
			  uint64_t lineno)
{
	struct auditor *a = ctx;

	struct fh_entry *e = fh_manifest_find_hashed(&a->st.m, hash, l->name, l->namelen);
	size_t klen;
	const char *key = fh_name_key(l->name, l->namelen, &klen);

	(void)lineno;
	/* Neither new nor compared; LIST's line for it, hidden too, is not
	 * missing either (finish). */
	if (fh_audit_hidden(a, key, klen))
		return;
	if (!e) {
		fh_store_add(&a->st, l->name, l->namelen, l->algo, digest, l->outlen, meta,
			 meta ? meta->size : UINT64_MAX, NULL);
		return;
	}
	if (e->flags & FH_ENTRY_SEEN) {
		a->st.bad_lines++; /* a second line for one name */
		return;
	}
	e->flags |= FH_ENTRY_SEEN;
	/* An untagged line of a shared length is of the algorithm the other
	 * list names for that name; left open in both, the digests alone
	 * are compared. */
	const struct fh_algo *algo = l->algo;

	if (e->outlen == l->outlen && (l->alt || (e->flags & FH_ENTRY_OPEN)))
		algo = l->alt ? fh_algo_get((enum fh_algo_id)e->algo) : algo;
	if (e->outlen == l->outlen && (e->flags & FH_ENTRY_OPEN))
		e->algo = (uint8_t)algo->id;
	if (e->algo != algo->id || e->outlen != l->outlen) {
		/* Digests of two algorithms say nothing of each other: not a
		 * change, and not compared (said once, at the end). */
		if (!a->uncompared++) {
			/* An algorithm left to settle is named by its length. */
			if (e->flags & FH_ENTRY_OPEN)
				snprintf(a->uncompared_old, sizeof a->uncompared_old,
					 "%u hex digits", 2 * e->outlen);
			else
				snprintf(a->uncompared_old, sizeof a->uncompared_old, "%s",
					 fh_algo_get((enum fh_algo_id)e->algo)->name);
			if (l->alt)
				snprintf(a->uncompared_new, sizeof a->uncompared_new,
					 "%zu hex digits", 2 * l->outlen);
			else
				snprintf(a->uncompared_new, sizeof a->uncompared_new, "%s",
					 algo->name);
		}
		return;
	}
	enum fh_status st = fh_classify(e, digest, meta, meta);

	a->changed += st == FH_ST_CHANGED;
	a->damaged += st == FH_ST_DAMAGED;
	fh_audit_report_expected(a, l->name, l->namelen, st, algo->id, digest,
				 e->outlen == l->outlen ? fh_entry_digest(e) : NULL,
				 l->outlen, meta);
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* The list: opened, read and written through the store. */

static void say_bad_line(void *ctx, uint64_t lineno)
{
	struct auditor *a = ctx;
	const struct cli *c = a->c;

	if (c->warn)
		fh_error(0, "%s: %" PRIu64 ": improperly formatted %s%s"
			    "checksum line",
			 fh_quotef(a->st.name, strlen(a->st.name)), lineno,
			 c->label ? c->label : "", c->label ? " " : "");
}

/* The list is ambiguous, which is said whatever -w says. */
static void say_duplicate(void *ctx, const struct fh_list_line *l, uint64_t lineno,
			  uint64_t first)
{
	struct auditor *a = ctx;

	if (a->c->status_only)
		return;
	fh_error(0, "%s: %" PRIu64 ": duplicate entry for %s: line %" PRIu64
		    " counts", fh_quotef(a->st.name, strlen(a->st.name)), lineno,
		 fh_quotef(l->name, l->namelen), first);
}

void fh_audit_parser(const struct cli *c, struct fh_list_parser *p)
{
	fh_list_parser_init(p, c->algo_given ? c->algo : NULL, c->group, c->check_outlen);
	/* OpenSSL 3's tags: a line that is kept is kept byte for byte. */
	p->published = true;
	/* -a is new files' algorithm and untagged lines': a tag of another
	 * still names its line's. */
	p->tags_rule = true;
}

/* A list of NUL-ended records, NAME, refused. */
static void say_nul(const char *name)
{
	fh_error(0, "%s: a line holds a NUL byte (a list written with -z?): fhsum keeps "
		    "and audits lists of lines alone (-c reads it as GNU does)",
		 fh_quotef(name, strlen(name)));
}

/* Why the list A holds cannot be held or written, said (ERR: an errno
 * value, or one of errors.h's FH_ELIST_*); WHAT ends a plain errno's
 * line (NULL: nothing). */
static void say_list_error(struct auditor *a, int err, const char *what)
{
	const struct fh_listfile *l = &a->st.lf;
	const char *q = fh_quotef(a->st.name, strlen(a->st.name));
	const char *d = l->dir ? fh_listfile_dir_shown(l) : ".";

	switch (err) {
	case FH_ELIST_NOT_REGULAR:
		fh_error(0, "%s: not a regular file: a list that is written must be one", q);
		break;
	case FH_ELIST_BUSY:
		fh_error(0, "%s is busy: another run is writing it", q);
		break;
	case FH_ELIST_LOCK:
		fh_error(l->err, "cannot lock %s", q);
		break;
	case FH_ELIST_DIR:
		fh_error(l->err, "%s: cannot write in %s: the list is not updated",
			 q, fh_quotef(d, strlen(d)));
		break;
	case FH_ELIST_SIGNED:
		fh_error(0, "%s is clear-signed: writing it would void its signature; "
			 "update a list of its signed text instead", q);
		break;
	case FH_ELIST_MOVED:
		fh_error(0, "%s: changed while being updated; not written", q);
		break;
	case FH_ELIST_NUL:
		say_nul(a->st.name);
		break;
	default:
		if (what)
			fh_error(err, "%s: %s", q, what);
		else
			fh_error(err, "%s", q);
	}
}

/* The lines of the clear-signed list NAME outside its signed part, not
 * read: said, as -c says them. */
static void say_outside(const char *name, uint64_t n)
{
	if (n)
		fh_error(0, "%s: WARNING: %" PRIu64 " %s outside the signed part %s ignored",
			 fh_quotef(name, strlen(name)), n, n == 1 ? "line" : "lines",
			 n == 1 ? "was" : "were");
}

void fh_audit_open(struct auditor *a, bool hold, const struct fh_list_parser *how)
{
	const struct fh_store_events ev = { a, say_bad_line, say_duplicate };
	int err = fh_store_open(&a->st, hold, a->c->no_wait, how, &ev);

	if (err)
		say_list_error(a, err, NULL);
	if (err)
		exit(FH_STATUS_USAGE);
	say_outside(a->st.name, a->st.outside);
	if (a->st.lf.stray_err)
		fh_error(a->st.lf.stray_err, "%s: a temporary file a killed run left "
			 "beside it could not be removed",
			 fh_quotef(a->st.name, strlen(a->st.name)));
}

int fh_audit_store_error(struct auditor *a, int err)
{
	if (err)
		say_list_error(a, err, "the list was not updated");
	return err ? FH_STATUS_USAGE : 0;
}

int fh_audit_write(struct auditor *a)
{
	const struct fh_candidates *open;
	int err = fh_store_write(&a->st, &open);

	if (err == FH_ELIST_UNSETTLED) {
		char names[128];

		fh_settle_names(open, names, sizeof names);
		fh_error(0, "%s: untagged lines of %u hex digits may be %s, and no file "
			    "read matched one: give -a; the list was not updated",
			 fh_quotef(a->st.name, strlen(a->st.name)),
			 2 * open->algo[0]->digest_bytes, names);
		return FH_STATUS_USAGE;
	}
	return fh_audit_store_error(a, err);
}

void fh_audit_free(struct auditor *a)
{
	for (size_t i = 0; i < a->nscope; i++)
		free(a->scope[i]);
	for (size_t i = 0; i < a->nblind; i++)
		free(a->blind[i]);
	free(a->blind);
	free(a->prefix.text);
	free(a->slip_name);
	free(a->scope);
	fh_store_release(&a->st);
	free(a);
}

/* A hashdeep list held: the columns it has that fhsum lacks said; 64
 * when it cannot be audited (no column fhsum reads) or updated (a
 * column fhsum lacks: its rows could not be written whole), else 0. */
static int hashdeep_list(struct auditor *a)
{
	const struct fh_hashdeep *h = &a->st.hd;
	const char *q = fh_quotef(a->st.name, strlen(a->st.name));

	if (a->update && h->nunsupported) {
		for (size_t i = 0; i < h->ncols; i++)
			if (!h->algo[i])
				fh_error(0, "%s: %s: unsupported algorithm: the list "
					    "was not updated", q,
					 fh_quotef(h->colname[i], strlen(h->colname[i])));
		return FH_STATUS_USAGE;
	}
	if (!a->c->status_only)
		fh_hashdeep_say_unsupported(h, a->st.name);
	if (!h->nknown) {
		fh_error(0, "%s: a hashdeep list with no column of md5, sha1 or "
			    "sha256: nothing to check", q);
		return FH_STATUS_USAGE;
	}
	return 0;
}

/* FH_ELIST_NUL when the list FD holds a NUL byte, else 0 or a read
 * error's errno (read with pread: the offset stays). */
static int holds_nul(int fd)
{
	char buf[65536];
	off_t at = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof buf, at)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ESPIPE ? 0 : errno;
		if (memchr(buf, '\0', (size_t)n))
			return FH_ELIST_NUL;
		at += n;
	}
	return 0;
}

int fh_audit(const struct cli *c, struct operands *ops)
{
	struct auditor *a = fh_store_xmalloc(sizeof *a);
	struct fh_list_parser how;
	int status;

	memset(a, 0, sizeof *a);
	a->c = c;
	a->ops = ops;
	a->update = c->update != NULL;
	fh_store_init(&a->st, c->update ? c->update : c->audit, c);
	a->st.new_form = (c->tag ? FH_FMT_TAG : 0) | (c->binary > 0 ? FH_FMT_BINARY : 0) |
			 (c->base64 ? FH_FMT_BASE64 : 0);
	a->st.new_meta = c->meta;
	/* Metadata trusts lines (--update): the walk stats ahead, on its
	 * threads, while LIST is read. */
	if (a->update) {
		ops->want_meta = true;
		fh_operands_prime(ops);
	}
	fh_audit_parser(c, &how);
	fh_audit_open(a, a->update, &how);
	if (a->st.hd.on && (status = hashdeep_list(a)) != 0) {
		fh_audit_free(a);
		return status;
	}
	/* ... and tells DAMAGED from CHANGED in an audit. */
	ops->want_meta = a->update || a->st.any_meta;
	/* --update's statuses say what the new list holds: they wait for
	 * it to be written, and go unsaid if it is not. */
	if (a->update)
		fh_out_hold(true);

	/* New files take -a, else the list's one algorithm; in a hashdeep
	 * list, every column's. */
	if (a->st.hd.on) {
		a->st.new_algo = a->st.hd.cand.algo[0];
		a->new_outlen = a->st.hd.rowlen;
	} else if (a->st.sfv) {
		/* SFV: CRC-32 lines alone, which carry no metadata. */
		const char *q = fh_quotef(a->st.name, strlen(a->st.name));

		if (c->algo_given && c->algo->id != FH_CRC32B)
			fh_error(0, "%s: an SFV list holds CRC-32 (crc32b) alone, not %s",
				 q, c->algo->name);
		else if (a->update && c->meta)
			fh_error(0, "%s: an SFV line has no room for --meta's metadata", q);
		if ((c->algo_given && c->algo->id != FH_CRC32B) || (a->update && c->meta)) {
			fh_audit_free(a);
			return FH_STATUS_USAGE;
		}
		a->st.new_algo = fh_algo_get(FH_CRC32B);
		a->new_outlen = a->st.new_algo->digest_bytes;
	} else if (c->algo_given) {
		a->st.new_algo = c->algo;
		a->new_outlen = c->outlen;
	} else if (a->st.m.algo >= 0) {
		a->st.new_algo = fh_algo_get((enum fh_algo_id)a->st.m.algo);
		a->new_outlen = a->st.m.outlen;
		/* The list's lines are of a length left to settle: so are new
		 * files, hashed with the candidates until the verdict. */
		for (size_t i = 0; i < a->st.m.n && !a->new_cand; i++)
			if (a->st.m.entries[i].flags & FH_ENTRY_OPEN)
				a->new_cand = fh_settle_for(&a->st.settle, a->st.m.outlen, NULL);
	} else if (a->st.m.algo == -1 && a->update && a->st.bad_lines) {
		/* Lines, none of them read: a list of a form fhsum does not
		 * read, whose algorithm no line showed.  New lines of the
		 * default algorithm would be another list's, appended. */
		char lines[64];

		if (a->st.bad_lines == 1)
			snprintf(lines, sizeof lines, "its one line is not");
		else
			snprintf(lines, sizeof lines, "none of its %" PRIu64 " lines is",
				 a->st.bad_lines);
		fh_error(0, "%s: %s a checksum line fhsum reads, so its algorithm is "
			    "unknown: give -a; the list was not updated",
			 fh_quotef(a->st.name, strlen(a->st.name)), lines);
		fh_audit_free(a);
		return FH_STATUS_USAGE;
	} else if (a->st.m.algo == -1) {
		a->st.new_algo = fh_algo_get(FH_SHA3_256);
		a->new_outlen = a->st.new_algo->digest_bytes;
	} else if (!c->against) {
		fh_error(0, "%s: lines of several algorithms: give -a for new files",
			 fh_quotef(a->st.name, strlen(a->st.name)));
		fh_usage(FH_STATUS_USAGE);
	}

	if (c->against) {
		int fd = open(c->against, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			fh_error(errno, "%s", fh_quotef(c->against, strlen(c->against)));
			exit(FH_STATUS_USAGE);
		}
		a->expect_all = true;
		struct fh_list_parser p;
		uint64_t outside = 0;
		struct fh_hashdeep hd;
		uint64_t nul_lines = 0;
		const struct fh_list_reading reading = { a, against_entry, against_bad, NULL,
							 &outside, &hd,
							 fh_shapes_sfv_name(c->against), &nul_lines };

		fh_hashdeep_init(&hd, c);

		fh_audit_parser(c, &p);
		/* Its entries are compared as they are read: a list of NUL-ended
		 * records is refused before any is. */
		int err = holds_nul(fd);

		if (!err)
			err = fh_list_read(fd, &p, &reading);
		close(fd);
		if (err == FH_ELIST_NUL) {
			say_nul(c->against);
			exit(FH_STATUS_USAGE);
		}
		if (err) {
			fh_error(err, "%s", fh_quotef(c->against, strlen(c->against)));
			exit(FH_STATUS_USAGE);
		}
		say_outside(c->against, outside);
	} else {
		struct fh_engine_opts eo;

		fh_audit_set_scope(a);
		fh_engine_opts_for(c, &eo);
		int err = fh_engine_run(&eo, next, done, a);

		if (err) {
			fh_error(err, "%s", "cannot start");
			exit(FH_STATUS_USAGE);
		}
	}
	finish(a);
	status = 0;

	if (a->update && a->slip_algo) {
		fh_error(0, "%s: the line of %s is %s's by its content, not %s's (-a): "
			    "the list was not updated", fh_quotef(a->st.name, strlen(a->st.name)),
			 fh_quotef(a->slip_name, strlen(a->slip_name)), a->slip_algo->name,
			 c->algo->name);
		status = FH_STATUS_USAGE;
	} else if (a->update && (a->st.nchanges || a->st.nnews)) {
		status = fh_audit_write(a);
	}
	if (a->update) {
		if (status)
			fh_out_discard();
		fh_out_hold(false);
		fh_store_unlock(&a->st);
	}
	if (!status)
		status = fh_audit_status(a);

	fh_audit_free(a);
	return status;
}
