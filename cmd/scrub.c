/* scrub.c: --scrub=LIST, verification on a schedule.
 *
 * LIST's entries (those the operands name, less what --exclude hides) are
 * read in the order of their last verification: never verified first,
 * then the oldest "verified=" stamp, ties in list order; until the budget
 * (--max-bytes, --max-time) is spent, the file that crosses it finished.
 * An entry found good gets a stamp in its "#fhsum" line; one that is not
 * keeps its old stamp, so that it stays first in line and is reported
 * again next time.  LIST is held and rewritten as --update holds and
 * rewrites it (lists/store.c, lists/listfile.c): locked throughout, replaced
 * whole, its checksum lines copied byte for byte.  The new text is
 * written as the entries are decided, so that little is left to write, and to
 * reach the disk, once the last file is verified.
 *
 * One engine run verifies them all.  It takes files far ahead of the
 * hashing (a ring of thousands), so the end of the time (a thread that
 * waits for it) and SIGINT or SIGTERM stop it through its stop flag: the
 * files being read finish, those queued or taken into the SIMD lanes
 * and not yet read from go back unread, the stamps earned are written,
 * and after a signal the exit status is 128 + the signal's number (64
 * when the list could not be written, or when the signal came in the
 * wait for the list's lock, which it ends). */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "audit.h"
#include "budget.h"
#include "clock.h"
#include "engine/engine.h"
#include "quote.h"

/* An entry of the run, and its stamp as listed (0: never verified):
 * the order is by stamp, then by line. */
struct age {
	int64_t stamp;
	struct fh_entry *e;
};

/* What became of an entry of the run: not reached (the budget, or a
 * signal, ended the run first), found good, or read and found anything
 * else (DAMAGED, CHANGED, MISSING, unreadable, changed as it was read). */
enum fate { UNREACHED, GOOD, BAD };

struct scrub {
	struct auditor *a;
	const struct cli *c;
	/* The entries to verify, in order. */
	struct age *order;
	size_t n, pos;
	/* The budget: bytes (UINT64_MAX: none), and time (0: none). */
	uint64_t max_bytes;
	double max_time, start;
	uint64_t fed;
	/* The time ran out before the run ended (the bytes' budget ran
	 * out when FED reached MAX_BYTES). */
	bool timed_out;
	/* What was verified good, found bad, and the stamps that changed;
	 * the first new stamp (0: none); what became of each entry of
	 * ORDER (a byte of its own, not a field of struct age, which the
	 * sort moves). */
	uint64_t good_files, good_bytes, bad_files, restamped;
	int64_t first_stamp;
	uint8_t *fate;
	/* The new list (NULL: not begun), the error that opening it met,
	 * the first entry in line order not yet decided, and the entries
	 * decided since the new list was last written. */
	struct fh_rewriter *rw;
	int rw_err;
	size_t first_awaited, since;
};

/* The engine's stop flag, and the signal that set it (0: none).  A flag
 * a signal handler sets must be lock-free. */
_Static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "a lock-free atomic_bool");
static _Atomic bool stopping;
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	atomic_store(&stopping, true);
}

/* SIGINT and SIGTERM end the feeding; a second one ends the program (the
 * old list stays).  One ignored from the start (a background job's
 * SIGINT, nohup) stays ignored, as in GNU's tools.  Caught first without
 * RESTART, so that a blocking call they interrupt fails with EINTR: the
 * wait for the list's lock, which would otherwise last as long as
 * another writer holds it.  Then (RESTART) the handlers still in place
 * are made to restart the calls they interrupt; one that a signal has
 * reset stays reset, the signals held meanwhile so that none is lost. */
static void catch_signals(bool restart)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa, old;
	sigset_t held, was;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | (restart ? SA_RESTART : 0);
	sigemptyset(&sa.sa_mask);
	sigemptyset(&held);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaddset(&held, sigs[i]);
	pthread_sigmask(SIG_BLOCK, &held, &was);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN &&
		    (!restart || old.sa_handler == on_signal))
			sigaction(sigs[i], &sa, NULL);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
}

/* ------------------------------------------------------------------ */
/* The order. */

/* E's stamp, 0 for none.  One later than NOW (a clock that was wrong,
 * a list from elsewhere) vouches for nothing and would keep its entry
 * last in line for years: it counts as none, and in *FUTURE. */
static int64_t stamp_of(const struct fh_entry *e, int64_t now, size_t *future)
{
	struct fh_meta m;

	if (!fh_entry_meta(e, &m))
		return 0;
	if (m.verified > now) {
		++*future;
		return 0;
	}
	return m.verified;
}

/* Merges the sorted runs A[0, MID) and A[MID, N) by stamp into OUT,
 * ties from the first: list order, as both runs are in it. */
static void merge(const struct age *a, size_t mid, size_t n, struct age *out)
{
	size_t i = 0, j = mid, o = 0;

	while (i < mid && j < n)
		out[o++] = a[j].stamp < a[i].stamp ? a[j++] : a[i++];
	while (i < mid)
		out[o++] = a[i++];
	while (j < n)
		out[o++] = a[j++];
}

/* The end of the run of rising stamps that starts at FROM. */
static size_t run_end(const struct age *a, size_t from, size_t n)
{
	while (++from < n && a[from].stamp >= a[from - 1].stamp)
		;
	return from;
}

/* Sorts A (N entries in list order) by stamp, stably.  A list scrubbed
 * before holds few runs of rising stamps (each run's share in list
 * order), and one when every stamp is the same or they rise already: the
 * runs are merged pairwise, no pass at all for one. */
static void sort_by_age(struct age *a, size_t n)
{
	struct age *tmp = NULL, *from = a, *to;

	if (n < 2)
		return;
	for (;;) {
		size_t at = 0, runs = 0;

		if (run_end(from, 0, n) == n)
			break;
		if (!tmp)
			tmp = fh_store_xmalloc_touched(sizeof *tmp * n);
		to = from == a ? tmp : a;
		while (at < n) {
			size_t mid = run_end(from, at, n);
			size_t end = mid < n ? run_end(from, mid, n) : n;

			merge(from + at, mid - at, end - at, to + at);
			at = end;
			runs++;
		}
		from = to;
		if (runs == 1)
			break;
	}
	if (from != a)
		memcpy(a, from, sizeof *a * n);
	free(tmp);
}

/* The entries of this run, the longest unverified first. */
static void select_entries(struct scrub *s)
{
	struct auditor *a = s->a;
	int64_t now = (int64_t)time(NULL);
	size_t future = 0;

	s->order = fh_store_xmalloc_touched(sizeof *s->order * (a->st.m.n ? a->st.m.n : 1));
	s->fate = fh_xcalloc(a->st.m.n, sizeof *s->fate);
	for (size_t i = 0; i < a->st.m.n; i++) {
		struct fh_entry *e = &a->st.m.entries[i];
		size_t klen;
		const char *key = fh_name_key(e->name, e->namelen, &klen);

		if (!fh_audit_in_scope(a, e) || fh_audit_hidden(a, key, klen) ||
		    fh_store_is_self(&a->st, e->name, e->namelen))
			continue;
		s->order[s->n++] = (struct age){ stamp_of(e, now, &future), e };
		e->flags |= FH_ENTRY_AWAITED;
	}
	sort_by_age(s->order, s->n);
	if (future && !s->c->status_only)
		fh_error(0, "scrub: %zu %s in the future: counted as never verified",
			 future, future == 1 ? "entry has a verified= stamp"
					     : "entries have verified= stamps");
}

/* An operand that names no entry and is not there (a typo) would leave
 * the scrub nothing to do and say so as a success: it is said as
 * --audit says it, a name that could not be read (exit bit 32).  One
 * that names an entry is that entry's business (MISSING). */
static void absent_operands(struct auditor *a)
{
	const struct cli *c = a->c;
	int algo = c->algo_given ? (int)c->algo->id
		 : a->st.m.algo >= 0 ? a->st.m.algo : FH_SHA3_256;

	for (int i = 0; i < a->ops->argc; i++) {
		const char *op = a->ops->argv[i];
		char *tidy = fh_xstrdup(op);
		struct stat st;
		int err = 0;

		fh_path_tidy(tidy);
		if (!fh_manifest_find(&a->st.m, tidy, strlen(tidy)) && stat(op, &st) != 0)
			err = errno;
		free(tidy);
		if (!err)
			continue;
		fh_report_input_error(op, err);
		a->unreadable++;
		fh_audit_report(a, op, strlen(op), FH_ST_UNREADABLE, algo, NULL, 0, NULL,
				err, NULL, 0);
	}
}

/* ------------------------------------------------------------------ */
/* The engine's producer and consumer. */

/* A listed name as a path to open: "-" is a file of that name here. */
static const char *path_of(const struct fh_entry *e)
{
	return strcmp(e->name, "-") == 0 ? "./-" : e->name;
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

	if (s->pos == s->n || s->fed >= s->max_bytes)
		return false;
	/* First the probes that settle the list's open lengths, from the
	 * smallest files in scope; they count against the budget. */
	if (fh_audit_probe(s->a, job)) {
		job->user = (void *)(uintptr_t)SIZE_MAX;
		s->fed += job->size_hint;
		return true;
	}
	struct fh_entry *e = s->order[s->pos].e;
	uint64_t bytes = planned(e);

	job->user = (void *)(uintptr_t)s->pos++;
	s->fed += bytes;
	job->path = path_of(e);
	job->algo = fh_algo_get((enum fh_algo_id)e->algo);
	job->outlen = e->outlen;
	job->watch = true;
	job->expect = fh_entry_digest(e);
	if (e->flags & FH_ENTRY_OPEN) {
		struct fh_candidates *cand = fh_settle_for(&s->a->st.settle, e->outlen, NULL);
		const struct fh_algo *v = cand ? fh_settle_verdict(cand) : NULL;

		if (v)
			job->algo = v;
		else
			job->cand = cand;
	}
	fh_job_kernels(s->c, job);
	job->size_hint = bytes;
	job->sized = true;
	return true;
}

/* Found good: the state it was read in, *M, and now go in the "#fhsum"
 * line of entry AT of ORDER: in place where it has one (the list's
 * writer reads them there), else as a change that adds one. */
static void stamp(struct scrub *s, size_t at, struct fh_meta *m)
{
	struct fh_entry *e = s->order[at].e;

	m->verified = (int64_t)time(NULL);
	if (!s->first_stamp)
		s->first_stamp = m->verified;
	s->fate[at] = GOOD;
	s->good_files++;
	s->good_bytes += m->size;
	s->restamped++;
	if (!fh_entry_set_meta(e, m))
		fh_store_change(&s->a->st, (struct fh_change){
			.e = e, .kind = FH_CH_STAMP, .meta = *m, .has_meta = true });
}

/* Read whole, and unchanged while read: OK, DAMAGED or CHANGED. */
static void judge(struct scrub *s, size_t at, struct fh_job *job)
{
	struct auditor *a = s->a;
	struct fh_entry *e = s->order[at].e;
	struct fh_meta now = { .size = job->size, .sec = job->mtime_sec,
			       .nsec = job->mtime_nsec };
	bool open = e->flags & FH_ENTRY_OPEN;
	bool match = fh_store_settle_entry(&a->st, e, job);
	enum fh_status st = fh_classify(e, job->digest, &now, &now);

	if (match)
		st = FH_ST_OK;
	else if (st == FH_ST_OK)
		st = FH_ST_CHANGED;
	if (open && job->cand && job->chosen < 0)
		fh_audit_unmatched(a, job->cand);

	if (st == FH_ST_OK) {
		stamp(s, at, &now);
	} else {
		now.verified = s->order[at].stamp;
		s->fate[at] = BAD;
		s->bad_files++;
	}
	a->changed += st == FH_ST_CHANGED;
	a->damaged += st == FH_ST_DAMAGED;
	fh_audit_report_expected(a, e->name, e->namelen, st, e->algo, job->digest,
				 fh_entry_digest(e), e->outlen, &now);
}

/* Entries decided between two steps of the new list's writing. */
#define FOLLOW_EVERY 256

/* Writes the new list as far as every entry before is decided.  They
 * are verified in stamp order, which after a whole scrub is nearly line
 * order, so the writing follows the verification closely.  Not before
 * an entry is found good (a run that stamps nothing writes nothing),
 * nor once an entry without a metadata line was: its change comes in
 * stamp order, and the changes are put in line order at the end. */
static void follow(struct scrub *s)
{
	struct auditor *a = s->a;
	const struct fh_manifest *m = &a->st.m;

	s->since = 0;
	if (!s->restamped || a->st.nchanges || s->rw_err)
		return;
	if (!s->rw) {
		s->rw = fh_store_xmalloc(sizeof *s->rw);
		s->rw_err = fh_store_rewrite_open(&a->st, s->rw);
		if (s->rw_err)
			return; /* said when the run ends */
		s->rw->out.paced = true;
	}
	size_t *at = &s->first_awaited;

	while (*at < m->n && !(m->entries[*at].flags & FH_ENTRY_AWAITED))
		++*at;
	/* Up to its metadata line. */
	fh_store_rewrite_upto(&a->st, s->rw, *at < m->n ? m->entries[*at].line - 1 : UINT64_MAX);
}

static void done(void *ctx, struct fh_job *job)
{
	struct scrub *s = ctx;
	struct auditor *a = s->a;
	size_t at = (size_t)(uintptr_t)job->user;

	if (at == SIZE_MAX)
		return; /* a probe: its verdict is the candidates' now */
	struct fh_entry *e = s->order[at].e;
	struct fh_meta listed;

	if (job->err && job->err != ECANCELED) {
		/* Tried and not found good. */
		s->fate[at] = BAD;
		s->bad_files++;
	}
	if (job->err == ECANCELED) {
		/* Queued when the run stopped: not reached. */
	} else if (job->err == ENOENT) {
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
		a->torn++;
	} else if (job->err) {
		fh_report_input_error(e->name, job->err);
		a->unreadable++;
		fh_audit_report(a, e->name, e->namelen, FH_ST_UNREADABLE, e->algo,
				NULL, 0, NULL, job->err, NULL, 0);
	} else {
		judge(s, at, job);
	}
	e->flags &= ~FH_ENTRY_AWAITED;
	if (++s->since == FOLLOW_EVERY)
		follow(s);
}

/* --max-time: a thread that raises the stop flag when the time is up,
 * unless the run ends first. */
struct deadline {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cv;
	double at;              /* CLOCK_MONOTONIC seconds */
	bool over;              /* the run ended first */
	bool fired;             /* the time ran out first */
};

static void *deadline_main(void *arg)
{
	struct deadline *d = arg;

	pthread_mutex_lock(&d->lock);
	while (!d->over) {
		double left = d->at - fh_seconds(CLOCK_MONOTONIC);

		if (left <= 0) {
			d->fired = true;
			atomic_store(&stopping, true);
			break;
		}
		/* Waits of at most a second, measured on the monotonic
		 * clock: a change of the wall clock moves no deadline. */
		double nap = left < 1 ? left : 1;
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)nap;
		until.tv_nsec += (long)((nap - (double)(time_t)nap) * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&d->cv, &d->lock, &until);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

static void run_engine(struct scrub *s)
{
	struct fh_engine_opts eo;
	struct deadline d = { .at = s->start + s->max_time };
	bool timed = false;

	fh_engine_opts_for(s->c, &eo);
	eo.stop = &stopping;
	if (s->max_time > 0) {
		pthread_mutex_init(&d.lock, NULL);
		pthread_cond_init(&d.cv, NULL);
		int err = pthread_create(&d.tid, NULL, deadline_main, &d);

		if (err) {
			fh_error(err, "%s", "cannot start");
			exit(FH_STATUS_USAGE);
		}
		timed = true;
	}
	int err = fh_engine_run(&eo, next, done, s);

	if (timed) {
		pthread_mutex_lock(&d.lock);
		d.over = true;
		pthread_cond_signal(&d.cv);
		pthread_mutex_unlock(&d.lock);
		pthread_join(d.tid, NULL);
		s->timed_out = d.fired;
		pthread_mutex_destroy(&d.lock);
		pthread_cond_destroy(&d.cv);
	}
	if (err) {
		fh_error(err, "%s", "cannot start");
		exit(FH_STATUS_USAGE);
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

	if (fh_entry_meta(s->order[at].e, &m))
		return m.size;
	return fh_operands_meta(NULL, path_of(s->order[at].e), &m, NULL) ? m.size : 0;
}

/* The oldest stamp the list is left with, of the entries not found bad
 * (one that is keeps its stamp, or none, until it is fixed, and would
 * hide the progress of the others), FIRST_STAMP for the entries stamped
 * anew; and how many entries have none.  KEPT: this run's stamps were
 * written. */
struct left {
	size_t never;
	bool any;
	int64_t oldest;
};

static struct left stamps_left(const struct scrub *s, bool kept)
{
	struct left l = { 0 };

	for (size_t i = 0; i < s->n; i++) {
		if (s->fate[i] == BAD)
			continue;
		int64_t t = kept && s->fate[i] == GOOD ? s->first_stamp : s->order[i].stamp;

		if (!t)
			l.never++;
		else if (!l.any || t < l.oldest)
			l = (struct left){ .never = l.never, .any = true, .oldest = t };
	}
	return l;
}

static void say_left(const struct scrub *s, bool kept)
{
	struct left l = stamps_left(s, kept);
	char when[32];

	if (l.never) {
		fh_error(0, "scrub: %zu never verified", l.never);
	} else if (l.any) {
		time_t t = (time_t)l.oldest;
		struct tm tm;

		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
		fh_error(0, "scrub: oldest stamp left: %s (%.1f days ago)", when,
			 difftime(time(NULL), t) / 86400);
	}
}

/* What the run did besides the files found good: "N found bad, M not
 * reached", the parts that are not 0. */
static void say_rest(const struct scrub *s)
{
	uint64_t unreached = s->n - s->good_files - s->bad_files;

	if (s->bad_files && unreached)
		fh_error(0, "scrub: %" PRIu64 " found bad, %" PRIu64 " not reached",
			 s->bad_files, unreached);
	else if (s->bad_files)
		fh_error(0, "scrub: %" PRIu64 " found bad", s->bad_files);
	else if (unreached)
		fh_error(0, "scrub: %" PRIu64 " not reached", unreached);
}

/* The runs that verify every entry once at this budget, from the bytes
 * found good in this one: of the entries not found bad, which are read
 * again at every run until they are fixed. */
static void forecast(const struct scrub *s)
{
	uint64_t all = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->fate[i] != BAD)
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

/* Files and bytes verified, those found bad and those not reached; the
 * oldest stamp left (or how many entries were never verified); and,
 * when the run ended on its budget, the runs that verify every entry
 * once at this budget (a run that read them all, or that a signal
 * ended, gives no rate).  KEPT: the list was written, or had nothing to
 * write.  When it was not, this run's stamps are not in it: the list is
 * said as it stays, and no rate is promised. */
static void summary(const struct scrub *s, double seconds, bool kept)
{
	bool budget = s->max_bytes != UINT64_MAX || s->max_time > 0;
	bool spent = s->fed >= s->max_bytes || s->timed_out;
	char b[32];

	say_bytes(b, sizeof b, s->good_bytes);
	fh_progress_clear();
	fh_error(0, "scrub: %" PRIu64 " of %zu files verified (%s) in %.1f s",
		 s->good_files, s->n, b, seconds);
	say_rest(s);
	if (!kept && s->restamped)
		fh_error(0, "scrub: no stamp was written: the list was not updated");
	say_left(s, kept);
	if (!budget || !kept || stop_signal)
		return;
	if (spent)
		forecast(s);
	else
		fh_error(0, "scrub: every entry was read within this budget");
}

/* ------------------------------------------------------------------ */

int fh_scrub(const struct cli *c, struct operands *ops, uint64_t max_bytes,
	     double max_time)
{
	struct auditor *a = fh_store_xmalloc(sizeof *a);
	/* An infinite duration (timeout(1) takes "inf") is no limit, as
	 * 0 is: the whole list, and no plan of runs. */
	struct scrub s = { .a = a, .c = c, .max_bytes = max_bytes,
			   .max_time = max_time <= DBL_MAX ? max_time : 0 };

	catch_signals(false);
	memset(a, 0, sizeof *a);
	a->c = c;
	a->ops = ops;
	fh_store_init(&a->st, c->scrub, c);

	double t_load = fh_seconds(CLOCK_MONOTONIC);

	/* A signal in the wait for the lock ends the run there (exit 64,
	 * nothing written); once the list is held, the run's own calls
	 * restart, and a signal only stops the feeding. */
	struct fh_list_parser how;

	fh_audit_parser(c, &how);
	fh_audit_open(a, true, &how);
	catch_signals(true);
	if (!a->st.lf.exists) {
		fh_error(ENOENT, "%s", fh_quotef(a->st.name, strlen(a->st.name)));
		fh_store_unlock(&a->st);
		exit(FH_STATUS_USAGE);
	}
	/* A row of hashdeep's, or an SFV line, has no room for a stamp. */
	if (a->st.hd.on || a->st.sfv) {
		fh_error(0, "%s: %s list cannot be scrubbed: it keeps no "
			    "stamps (--audit checks it)",
			 fh_quotef(a->st.name, strlen(a->st.name)),
			 a->st.hd.on ? "a hashdeep" : "an SFV");
		fh_store_unlock(&a->st);
		exit(FH_STATUS_USAGE);
	}
	if (ops->argc) {
		fh_audit_set_scope(a);
		absent_operands(a);
	} else {
		a->expect_all = true;
	}
	double t_order = fh_seconds(CLOCK_MONOTONIC);

	select_entries(&s);
	if (c->debug)
		fh_error(0, "scrub budget: %" PRIu64 " bytes, %g s", max_bytes, max_time);

	s.start = fh_seconds(CLOCK_MONOTONIC);
	run_engine(&s);

	double t_write = fh_seconds(CLOCK_MONOTONIC);
	int status = s.rw ? fh_audit_store_error(a, fh_store_rewrite_close(&a->st, s.rw,
									   s.rw_err))
			 : s.restamped ? fh_audit_write(a) : 0;
	bool kept = status == 0;

	if (c->debug)
		fh_error(0, "scrub times: list read %.3f s, ordered %.3f s, verified %.3f s, "
			    "written %.3f s", t_order - t_load, s.start - t_order,
			 t_write - s.start, fh_seconds(CLOCK_MONOTONIC) - t_write);
	fh_store_unlock(&a->st);
	if (!status)
		status = fh_audit_status(a);
	if (!c->status_only)
		summary(&s, fh_seconds(CLOCK_MONOTONIC) - s.start, kept);
	/* 128 + N says the stamps earned were written: not when the list
	 * could not be. */
	if (stop_signal && status != FH_STATUS_USAGE)
		status = 128 + stop_signal;
	free(s.order);
	free(s.fate);
	free(s.rw);
	fh_audit_free(a);
	return status;
}
