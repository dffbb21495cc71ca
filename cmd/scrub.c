/* scrub.c: --scrub=LIST, verification on a schedule.
 *
 * LIST's entries (those the operands name, less what --exclude hides) are
 * read in the order of their last verification: never verified first,
 * then the oldest "verified=" stamp, ties in list order; until the budget
 * (--max-bytes, --max-time) is spent, the file that crosses it finished.
 * An entry found good gets a stamp in its "#fhsum" line; one that is not
 * keeps its old stamp, so that it stays first in line and is reported
 * again next time.  LIST is held and rewritten as --update holds and
 * rewrites it (auditlist.c, listfile.c): locked throughout, replaced
 * whole, its checksum lines copied byte for byte.
 *
 * The engine takes files far ahead of the hashing (a window of thousands),
 * so the scrub hands them over in rounds of about ROUND_SECONDS each at
 * the rate so far, under --max-time no more than most of the time left:
 * what is in flight when time runs out or a signal comes is one round's
 * worth.  SIGINT and SIGTERM stop the feeding: the round in flight
 * finishes, the stamps earned are written, and the exit status is 128 +
 * the signal's number. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audit.h"
#include "budget.h"
#include "clock.h"
#include "engine.h"
#include "quote.h"

/* A round's length at the rate so far, and the first round's size,
 * before there is a rate. */
#define ROUND_SECONDS 1.0
#define FIRST_BYTES (32u << 20)
#define FIRST_FILES 256u

struct scrub {
	struct auditor *a;
	const struct cli *c;
	/* The entries to verify, in order, and their stamps as the run
	 * leaves them (0: never verified). */
	struct fh_entry **order;
	int64_t *stamp;
	size_t n, pos;
	/* The budget: bytes (UINT64_MAX: none), and time (0: none). */
	uint64_t max_bytes;
	double max_time, start;
	uint64_t fed;
	/* This round's bytes and files, and their caps. */
	uint64_t round_bytes, round_files, cap_bytes, cap_files;
	/* What was verified good, and what the engine has handed back. */
	uint64_t good_files, good_bytes, hashed, files_done;
};

/* A job: where its entry stands in ORDER, and the state its file was
 * read in. */
struct rec {
	size_t at;
	struct fh_meta before;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* SIGINT and SIGTERM end the feeding; a second one ends the program (the
 * old list stays).  One ignored from the start (a background job's
 * SIGINT, nohup) stays ignored, as in GNU's tools. */
static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

/* ------------------------------------------------------------------ */
/* The order. */

static int64_t stamp_of(const struct fh_entry *e)
{
	struct fh_meta m;

	return fh_entry_meta(e, &m) ? m.verified : 0;
}

static int by_age(const void *x, const void *y)
{
	const struct fh_entry *p = *(struct fh_entry *const *)x;
	const struct fh_entry *q = *(struct fh_entry *const *)y;
	int64_t sp = stamp_of(p), sq = stamp_of(q);

	if (sp != sq)
		return sp < sq ? -1 : 1;
	return p->line < q->line ? -1 : p->line > q->line;
}

/* The entries of this run, the longest unverified first. */
static void select_entries(struct scrub *s)
{
	struct auditor *a = s->a;

	s->order = fh_audit_xmalloc(sizeof *s->order * a->m.n);
	for (size_t i = 0; i < a->m.n; i++) {
		struct fh_entry *e = &a->m.entries[i];
		size_t klen;
		const char *key = fh_name_key(e->name, e->namelen, &klen);

		if (!fh_audit_in_scope(a, e) || fh_audit_hidden(a, key, klen) ||
		    fh_audit_is_self(a, e->name, e->namelen))
			continue;
		s->order[s->n++] = e;
	}
	qsort(s->order, s->n, sizeof *s->order, by_age);
	s->stamp = fh_audit_xmalloc(sizeof *s->stamp * (s->n ? s->n : 1));
	for (size_t i = 0; i < s->n; i++)
		s->stamp[i] = stamp_of(s->order[i]);
}

/* ------------------------------------------------------------------ */
/* The engine's producer and consumer. */

/* A listed name as a path to open: "-" is a file of that name here. */
static const char *path_of(const struct fh_entry *e)
{
	return strcmp(e->name, "-") == 0 ? "./-" : e->name;
}

static bool spent(const struct scrub *s)
{
	if (stop_signal || s->fed >= s->max_bytes || s->round_bytes >= s->cap_bytes ||
	    s->round_files >= s->cap_files)
		return true;
	return s->max_time > 0 && fh_seconds(CLOCK_MONOTONIC) - s->start >= s->max_time;
}

/* The bytes entry E counts against the budget: as listed, or as it is
 * now (a line without metadata, rare once a list was scrubbed). */
static uint64_t planned(const struct fh_entry *e)
{
	struct fh_meta m;

	if (fh_entry_meta(e, &m) || fh_operands_meta(NULL, path_of(e), &m, NULL))
		return m.size;
	return 0;
}

/* No stat here: the engine's threads take the file's state at open and
 * check it once read (WATCH), so that this thread keeps up with them. */
static bool next(void *ctx, struct fh_job *job)
{
	struct scrub *s = ctx;

	if (s->pos == s->n || spent(s))
		return false;
	struct fh_entry *e = s->order[s->pos];
	struct rec *r = fh_audit_xmalloc(sizeof *r);
	uint64_t bytes = planned(e);

	memset(r, 0, sizeof *r);
	r->at = s->pos++;
	s->round_files++;
	s->fed += bytes;
	s->round_bytes += bytes;
	job->user = r;
	job->path = path_of(e);
	job->algo = fh_algo_get((enum fh_algo_id)e->algo);
	job->outlen = e->outlen;
	job->watch = true;
	fh_job_kernels(s->c, job);
	job->size_hint = bytes;
	job->sized = true;
	return true;
}

/* Found good: the state it was read in, and now, go in its "#fhsum"
 * line. */
static void stamp(struct scrub *s, struct rec *r, uint64_t size)
{
	struct fh_meta m = r->before;

	m.verified = (int64_t)time(NULL);
	s->stamp[r->at] = m.verified;
	s->good_files++;
	s->good_bytes += size;
	fh_audit_note_change(s->a, (struct change){
		.e = s->order[r->at], .action = STAMP, .meta = m, .has_meta = true });
	r->before = m;
}

/* Read whole, and unchanged while read: OK, DAMAGED or CHANGED. */
static void settle(struct scrub *s, struct rec *r, struct fh_job *job)
{
	struct auditor *a = s->a;
	struct fh_entry *e = s->order[r->at];

	r->before = (struct fh_meta){ .size = job->size, .sec = job->mtime_sec,
				      .nsec = job->mtime_nsec };
	enum fh_status st = fh_classify(e, job->digest, &r->before, &r->before);

	if (st == FH_ST_OK)
		stamp(s, r, job->size);
	else
		r->before.verified = s->stamp[r->at];
	a->changed += st == FH_ST_CHANGED;
	a->damaged += st == FH_ST_DAMAGED;
	fh_audit_report(a, e->name, e->namelen, st, e->algo, job->digest,
			e->outlen, &r->before, 0, NULL, 0);
}

static void done(void *ctx, struct fh_job *job)
{
	struct scrub *s = ctx;
	struct auditor *a = s->a;
	struct rec *r = job->user;
	struct fh_entry *e = s->order[r->at];
	struct fh_meta listed;

	s->hashed += job->size;
	s->files_done++;
	if (job->err == ENOENT) {
		if (!s->c->ignore_missing) {
			a->missing++;
			fh_audit_report(a, e->name, e->namelen, FH_ST_MISSING, e->algo,
					fh_entry_digest(e), e->outlen,
					fh_entry_meta(e, &listed) ? &listed : NULL, 0,
					NULL, 0);
		}
	} else if (job->err == FH_ECHANGED || job->err == FH_ESHRANK) {
		/* The digest is of no state the file was in. */
		fh_progress_clear();
		fh_error(0, "%s: file changed while being read; not verified",
			 fh_quotef(e->name, e->namelen));
		a->unsettled++;
	} else if (job->err) {
		fh_report_input_error(e->name, job->err);
		a->unreadable++;
		fh_audit_report(a, e->name, e->namelen, FH_ST_UNREADABLE, e->algo,
				NULL, 0, NULL, job->err, NULL, 0);
	} else {
		settle(s, r, job);
	}
	free(r);
}

/* The next round's caps on bytes and files (0: time is up): what the rate
 * so far does in ROUND_SECONDS, or under --max-time in four fifths of the
 * time left if that is less. */
static bool plan_round(struct scrub *s)
{
	double spent = fh_seconds(CLOCK_MONOTONIC) - s->start;
	double span = ROUND_SECONDS;

	if (s->max_time > 0) {
		double left = s->max_time - spent;

		if (left <= 0.01 * s->max_time || left <= 0.02)
			return false;
		span = 0.8 * left < span ? 0.8 * left : span;
	}
	s->round_bytes = s->round_files = 0;
	if (!s->files_done || spent <= 0) {
		s->cap_bytes = FIRST_BYTES;
		s->cap_files = FIRST_FILES;
		return true;
	}
	double bytes = span * (double)s->hashed / spent;
	double files = span * (double)s->files_done / spent;

	s->cap_bytes = bytes < 1 ? 1 : bytes > 1e18 ? UINT64_MAX : (uint64_t)bytes;
	s->cap_files = files < 1 ? 1 : files > 1e18 ? UINT64_MAX : (uint64_t)files;
	return true;
}

static void run_rounds(struct scrub *s)
{
	struct fh_engine_opts eo;

	fh_engine_opts_for(s->c, &eo);
	while (s->pos < s->n && !stop_signal && s->fed < s->max_bytes &&
	       plan_round(s)) {
		int err = fh_engine_run(&eo, next, done, s);

		if (err) {
			fh_error(err, "%s", "cannot start");
			exit(STATUS_USAGE);
		}
	}
}

/* ------------------------------------------------------------------ */
/* The summary. */

static void say_bytes(char *out, size_t n, uint64_t b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(out, n, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

/* The bytes of entry AT of ORDER: as listed, or as it is now. */
static uint64_t size_of(const struct scrub *s, size_t at)
{
	struct fh_meta m;

	if (fh_entry_meta(s->order[at], &m))
		return m.size;
	return fh_operands_meta(NULL, path_of(s->order[at]), &m, NULL) ? m.size : 0;
}

/* Files and bytes verified; the oldest stamp left (or how many entries
 * were never verified); the runs that verify every entry once at this
 * budget. */
static void summary(const struct scrub *s, double seconds)
{
	char b[32], when[32];
	size_t never = 0, oldest = SIZE_MAX;
	uint64_t all = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (!s->stamp[i])
			never++;
		else if (oldest == SIZE_MAX || s->stamp[i] < s->stamp[oldest])
			oldest = i;
	}
	say_bytes(b, sizeof b, s->good_bytes);
	fh_progress_clear();
	fh_error(0, "scrub: %" PRIu64 " of %zu files verified (%s) in %.1f s",
		 s->good_files, s->n, b, seconds);
	if (never) {
		fh_error(0, "scrub: %zu never verified", never);
	} else if (oldest != SIZE_MAX) {
		time_t t = (time_t)s->stamp[oldest];
		struct tm tm;

		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
		fh_error(0, "scrub: oldest stamp left: %s (%.1f days ago)", when,
			 difftime(time(NULL), t) / 86400);
	}
	if (s->max_bytes == UINT64_MAX && s->max_time <= 0)
		return; /* the whole list, every run */
	for (size_t i = 0; i < s->n; i++)
		all += size_of(s, i);
	if (!s->good_bytes) {
		fh_error(0, "scrub: nothing was verified: no rate to plan by");
		return;
	}
	uint64_t runs = all / s->good_bytes + (all % s->good_bytes != 0);

	fh_error(0, "scrub: at this budget every entry is verified once in %" PRIu64
		    " run%s (%" PRIu64 " day%s at one run a day)",
		 runs, runs == 1 ? "" : "s", runs, runs == 1 ? "" : "s");
}

/* ------------------------------------------------------------------ */

int fh_scrub(const struct cli *c, struct operands *ops, uint64_t max_bytes,
	     double max_time)
{
	struct auditor *a = fh_audit_xmalloc(sizeof *a);
	struct scrub s = { .a = a, .c = c, .max_bytes = max_bytes,
			   .max_time = max_time };

	catch_signals();
	memset(a, 0, sizeof *a);
	a->c = c;
	a->ops = ops;
	a->update = true; /* held and rewritten as --update's list */
	a->list = c->scrub;
	a->first_form = -1;
	fh_manifest_init(&a->m);
	fh_audit_load(a);
	if (!a->lf.exists) {
		fh_error(ENOENT, "%s", fh_quotef(a->list, strlen(a->list)));
		fh_listfile_release(&a->lf);
		exit(STATUS_USAGE);
	}
	if (ops->argc)
		fh_audit_set_scope(a);
	else
		a->expect_all = true;
	select_entries(&s);
	if (c->debug)
		fh_error(0, "scrub budget: %" PRIu64 " bytes, %g s", max_bytes, max_time);

	s.start = fh_seconds(CLOCK_MONOTONIC);
	run_rounds(&s);

	int status = a->nchanges ? fh_audit_write_list(a) : 0;

	fh_listfile_release(&a->lf);
	if (!status)
		status = fh_audit_status(a);
	if (!c->status_only)
		summary(&s, fh_seconds(CLOCK_MONOTONIC) - s.start);
	if (stop_signal)
		status = 128 + stop_signal;
	free(s.order);
	free(s.stamp);
	fh_audit_free(a);
	return status;
}
