/* check.c: checking checksum lists (-c).  Lists are read line by line (a
 * list of millions of lines is never held whole, nor a line longer than
 * any valid one); each properly formatted line becomes a job for the
 * engine, each other event (an improper line, a list's end) a marker, so
 * that reports and warnings come out in list order exactly as GNU md5sum
 * prints them.
 *
 * An untagged line without -a whose length several algorithms share (64
 * hex digits: SHA3-256 or SHA-256), which the list's "#fhsum" lines do
 * not name, is settled by content (settle.h): until one of its length
 * has matched, such a line's file is hashed with every candidate in one
 * read on the engine's threads, and the first match is the list's
 * verdict for that length.  Before the first such line, a small file of
 * the lines just ahead is sent first (a probe), so that a large first
 * file waits for a small one's verdict rather than being hashed N ways.
 * A line that does not match under the verdict is looked at once more
 * under the other candidates: a list may mix them.  When no line of such
 * a length matched under any candidate, the list's closing warnings say
 * that it may be of an algorithm the table lacks (b3sum's, b2sum's).
 *
 * Beyond GNU, under fhsum's own name: --only=NAME checks only the
 * entries of that name (the others are neither read, reported nor
 * counted), and names none of the lists held are said at the end;
 * a tagged line of an algorithm the table lacks is counted as such, not
 * as improperly formatted; --expect=DIGEST checks the FILE operands
 * against one digest, each as the line "DIGEST  FILE" of a list would
 * be checked.  A list whose first line is hashdeep's header is read by
 * hashdeep's rules (hashdeep.h): each row a job whose file is hashed
 * with every column's algorithm in one read, its digests and size
 * compared. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "list/checklist.h"
#include "cli.h"
#include "engine/engine.h"
#include "hashdeep.h"
#include "lines.h"
#include "list/manifest.h"
#include "operands.h"
#include "quote.h"
#include "settle.h"
#include "shapes.h"
#include "xxhsum.h"

/* Distinct unsupported tags a list's warning names. */
#define TAGS_NAMED 4

/* One list being checked; freed when its end is reported. */
struct list {
	char *shown;            /* its name, or "standard input" */
	uintmax_t misformatted, unreadable, mismatched;
	/* A clear-signed list's lines outside its signed part, not read;
	 * those of a pipe read before its signed part began. */
	uintmax_t outside, late;
	/* Lines of a tag the table lacks: counted (those checked), seen
	 * (any, --only's choice aside), and their tags. */
	uintmax_t unsupported;
	bool unsupported_seen;
	char tags[TAGS_NAMED][FH_TAG_MAX + 1];
	size_t ntags;
	bool more_tags;
	/* FORMATTED: a line was properly formatted (--only's choice aside);
	 * SELECTED: lines --only chose. */
	bool formatted, matched;
	uintmax_t selected;
	/* The lengths its untagged lines leave to settle, and verdicts; per
	 * length, the lines whose file matched no candidate, and whether a
	 * line matched. */
	struct fh_settle settle;
	uintmax_t cand_failed[FH_SETTLE_LENGTHS];
	bool cand_matched[FH_SETTLE_LENGTHS];
	struct fh_hashdeep hd;  /* a hashdeep list's columns */
};

/* EV_UNSUPPORTED: a line of a tag the table lacks; EV_FILE_ERROR: an
 * --expect operand that could not be walked or read. */
enum event { EV_LINE, EV_BAD_LINE, EV_OPEN_ERROR, EV_END, EV_PROBE,
	     EV_UNSUPPORTED, EV_FILE_ERROR };

struct item {
	enum event ev;
	struct list *list;
	int err;                /* EV_OPEN_ERROR, EV_END: errno, -1 read error */
	uintmax_t lineno;       /* EV_BAD_LINE, EV_UNSUPPORTED, EV_LINE */
	size_t digestlen;       /* EV_LINE: the digest's characters */
	bool base64;            /* EV_LINE: ... in base64, else hex */
	/* EV_LINE of a length left to settle: its candidates, and the digest
	 * listed (for a second look at a file that did not match). */
	struct fh_candidates *cand;
	uint8_t expect[FH_MAX_DIGEST];
	/* EV_LINE: the name the list's only line gave, when its file is
	 * not there and the one the list is named for is checked instead
	 * (malloc'd); NULL otherwise. */
	char *listed;
	/* EV_LINE: the digest; EV_OPEN_ERROR, EV_FILE_ERROR: the name;
	 * EV_UNSUPPORTED: the tag; EV_BAD_LINE: the algorithm cksum's -w
	 * names. */
	char text[];
};

struct checker {
	const struct cli *c;
	struct operands *ops;
	struct fh_list_parser parser;
	struct fh_lines lines;  /* the list being read */
	struct fh_shapes shapes; /* ... and its shape (shapes.h) */
	bool reading;           /* a list is open */
	bool is_stdin;
	struct list *list;
	uintmax_t lineno;
	bool ok;
	/* A line parsed and kept for the next call, which a probe went
	 * before. */
	struct fh_list_line held;
	bool has_held;
	char *list_name;        /* the list being read, as named */
	char *probe_name;       /* the last probe's file, kept for the engine */
	/* The file the list is named for, checked instead of the missing
	 * one its only line names (LISTED, until its item takes it). */
	char *stem, *listed;
	/* cksum -c without -a: the algorithm of the last tagged line read,
	 * which GNU 9.1's -w names in its words ("CRC" before any). */
	const char *cksum_label;
	/* --only: which of its names a list held; the lists read, and the
	 * first one's name. */
	bool *found;
	uintmax_t nlists;
	char *first_list;
	/* --expect: the digest, as a line of the one list the operands make
	 * (its name set per file); that list ended. */
	struct fh_list_line expect;
	bool expect_ended;
	/* The computed digest in hex or base64: 2n + 4 holds both. */
	char text[2 * FH_MAX_XOF_BYTES + 4];
};

static struct item *new_item(enum event ev, struct list *l, size_t extra)
{
	struct item *it = fh_xmalloc(sizeof *it + extra);

	memset(it, 0, sizeof *it);
	it->ev = ev;
	it->list = l;
	return it;
}

/* NAME less any leading "./": "./a" and "a" name one file. */
static const char *plain_name(const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	return name;
}

/* Whether --only chose the entry NAME (always, without --only); with
 * MARK, the names it matched are noted as held by a list. */
static bool selected(struct checker *k, const char *name, bool mark)
{
	const struct cli *c = k->c;
	bool hit = false;

	if (!c->nonly)
		return true;
	for (size_t i = 0; i < c->nonly; i++) {
		if (strcmp(name, c->only[i]) != 0 &&
		    strcmp(plain_name(name), plain_name(c->only[i])) != 0)
			continue;
		hit = true;
		if (!mark)
			break;
		k->found[i] = true;
	}
	return hit;
}

/* Whether DIGEST (OUTLEN bytes) is the text the line holds: hex in either
 * case; base64 exactly as cksum compares it (a digest written with other
 * bits in its last character's unused ones is not the same text, and
 * FAILS).  BUF holds 2 * OUTLEN + 4 bytes. */
static bool digest_matches(const struct item *it, const uint8_t *digest,
			   size_t outlen, char *buf)
{
	if (it->base64)
		return fh_base64(buf, digest, outlen) == it->digestlen &&
		       memcmp(buf, it->text, it->digestlen) == 0;
	fh_hex(buf, digest, outlen);
	return strncasecmp(buf, it->text, it->digestlen) == 0;
}

/* Bytes up to which a file is small enough to settle a list with at
 * once, without looking further ahead for a smaller one. */
#define PROBE_SMALL ((uint64_t)64 << 10)
/* Lines looked at ahead for a smaller file to settle with. */
#define PROBE_AHEAD 256

/* The smallest file that can settle untagged digests of OUTLEN bytes
 * among the lines of the list being read after line LINENO (at most
 * PROBE_AHEAD of them), if smaller than *SIZE: its name into *NAME
 * (malloc'd) and its digest into DIGEST.  A list on standard input
 * cannot be read ahead. */
static void look_ahead(struct checker *k, size_t outlen, uint64_t *size,
		       char **name, uint8_t *digest)
{
	struct fh_list_parser p = k->parser;
	struct fh_lines lines = { 0 };
	struct fh_shapes shapes = { 0 };
	int fd = k->is_stdin ? -1 : open(k->list_name, O_RDONLY | O_CLOEXEC);
	uintmax_t lineno, seen = 0;

	if (fd < 0)
		return;
	if (!fh_lines_start(&lines, fd, FH_LIST_LINE_MAX, '\n')) {
		close(fd);
		return;
	}
	/* The list's entries as the check reads them: its signed part. */
	fh_shapes_start(&shapes, &lines, -1, NULL, k->shapes.on);
	shapes.begin = k->shapes.begin;
	for (;;) {
		struct fh_list_line l;
		uint64_t sz;
		enum fh_shape_kind kind = fh_shapes_next(&shapes, &p, &l, &lineno);

		if (kind == FH_SHAPE_END || *size <= PROBE_SMALL || seen == PROBE_AHEAD)
			break;
		if (lineno <= k->lineno || kind != FH_SHAPE_OK)
			continue;
		seen++;
		if (!l.alt || l.outlen != outlen)
			continue;
		((char *)l.name)[l.namelen] = '\0';
		if (!selected(k, l.name, false) ||
		    !fh_settle_readable(l.name, &sz) || sz >= *size || !fh_list_digest(digest, &l))
			continue;
		char *copy = strdup(l.name);

		if (!copy)
			break;
		free(*name);
		*name = copy;
		*size = sz;
	}
	fh_shapes_free(&shapes);
	fh_lines_free(&lines);
	close(fd);
}

/* The first line L of a length left to settle: a probe of the smallest
 * file near it goes first into JOB, unless L's own file is that.  True
 * when JOB is the probe. */
static bool probe(struct checker *k, const struct fh_list_line *l,
		  struct fh_candidates *cand, struct fh_job *job)
{
	uint64_t size = UINT64_MAX;
	char *name = NULL;
	struct item *it;

	if (fh_settle_readable(l->name, &size) && size <= PROBE_SMALL)
		return false;
	it = new_item(EV_PROBE, k->list, 0);
	look_ahead(k, l->outlen, &size, &name, it->expect);
	if (!name) {
		free(it);
		return false;
	}
	it->cand = cand;
	job->user = it;
	job->user_bytes = sizeof *it;
	job->path = name;
	job->cand = cand;
	job->algo = cand->algo[0];
	job->expect = it->expect;
	job->outlen = l->outlen;
	job->watch = true; /* a regular file only */
	k->probe_name = name;
	return true;
}

/* Ends the list being read with an EV_END marker. */
static void end_list(struct checker *k, struct fh_job *job)
{
	struct item *it = new_item(EV_END, k->list, 0);

	if (k->lines.err)
		it->err = -1;
	k->list->outside = k->shapes.outside;
	k->list->late = k->shapes.late;
	if (!k->is_stdin && close(k->lines.fd) != 0 && !it->err)
		it->err = errno;
	k->reading = false;
	k->list = NULL;
	job->user = it;
}

/* The job of line L; one of a length left to settle carries its
 * candidates, and until the verdict hashes the file with them all. */
static void line_job(struct checker *k, const struct fh_list_line *l,
		     struct fh_job *job)
{
	struct item *it = new_item(EV_LINE, k->list, l->digestlen);
	struct fh_candidates *cand = NULL;

	memcpy(it->text, l->digest, l->digestlen);
	it->lineno = k->lineno;
	it->digestlen = l->digestlen;
	it->base64 = l->base64;
	fh_stdin_read |= strcmp(l->name, "-") == 0;
	it->listed = k->listed;
	k->listed = NULL;
	job->user = it;
	job->user_bytes = sizeof *it + l->digestlen;
	job->path = l->name;
	job->algo = l->algo;
	job->outlen = l->outlen;
	if (l->alt && (cand = fh_settle_for(&k->list->settle, l->outlen, NULL)) &&
	    fh_list_digest(it->expect, l)) {
		const struct fh_algo *v = fh_settle_verdict(cand);

		it->cand = cand;
		if (v) {
			job->algo = v;
		} else {
			job->cand = cand;
			job->expect = it->expect;
		}
	}
	fh_job_kernels(k->c, job);
}

/* The list's only line L names a file that is not there (a build
 * path, as some projects publish): when the file the list is named for
 * is there, that one is checked instead, and it is said. */
static void stem_instead(struct checker *k, struct fh_list_line *l)
{
	struct stat st;
	char *stem;

	if (k->is_stdin || strcmp(l->name, "-") == 0 ||
	    lstat(l->name, &st) == 0 || errno != ENOENT)
		return;
	stem = fh_shapes_stem(k->list_name);
	if (!stem || strcmp(stem, l->name) == 0 || stat(stem, &st) != 0 ||
	    !S_ISREG(st.st_mode)) {
		free(stem);
		return;
	}
	free(k->stem);
	k->stem = stem;
	k->listed = fh_xstrdup(l->name);
	l->name = stem;
	l->namelen = strlen(stem);
}

/* The job of hashdeep row L, its row bytes in the list's columns. */
static void row_job(struct checker *k, const struct fh_list_line *l, struct fh_job *job)
{
	struct item *it = new_item(EV_LINE, k->list, l->outlen);

	memcpy(it->text, k->list->hd.row, l->outlen);
	it->digestlen = l->outlen;
	job->user = it;
	job->user_bytes = sizeof *it + l->outlen;
	job->path = l->name;
	fh_hashdeep_job(&k->list->hd, job);
}

/* L is of a length left to settle: true when a probe went first into
 * JOB (L is held for the next call). */
static bool line_to_settle(struct checker *k, const struct fh_list_line *l,
			   struct fh_job *job)
{
	bool *probed;
	struct fh_candidates *cand = fh_settle_for(&k->list->settle, l->outlen, &probed);

	if (!cand || *probed || fh_settle_verdict(cand))
		return false;
	*probed = true;
	if (!probe(k, l, cand, job))
		return false;
	k->held = *l;
	/* A cksum line's digest is held in the line itself: in the copy. */
	if (l->digest == l->digest_buf)
		k->held.digest = k->held.digest_buf;
	k->has_held = true;
	return true;
}

/* A new list named SHOWN in messages, its lengths settled with C's
 * kernels. */
static struct list *new_list(const struct cli *c, const char *shown)
{
	struct list *l = fh_xcalloc(1, sizeof *l);

	fh_settle_init(&l->settle, c);
	fh_hashdeep_init(&l->hd, c);
	l->shown = fh_xstrdup(shown);
	return l;
}

/* Notes the tag of L, an unsupported line, in LIST's names of them. */
static void note_tag(struct list *list, const struct fh_list_line *l)
{
	for (size_t i = 0; i < list->ntags; i++)
		if (strlen(list->tags[i]) == l->taglen &&
		    memcmp(list->tags[i], l->tag, l->taglen) == 0)
			return;
	if (list->ntags == TAGS_NAMED) {
		list->more_tags = true;
		return;
	}
	memcpy(list->tags[list->ntags], l->tag, l->taglen);
	list->tags[list->ntags++][l->taglen] = '\0';
}

/* --expect: the next FILE operand as a line of the one list, an
 * EV_FILE_ERROR marker for one that could not be walked, the list's end
 * after the last. */
static bool next_expect(struct checker *k, struct fh_job *job)
{
	const char *name;
	int err;

	if (k->expect_ended)
		return false;
	if (!fh_operands_next(k->ops, &name, &err)) {
		job->user = new_item(EV_END, k->list, 0);
		k->list = NULL;
		k->expect_ended = true;
		return true;
	}
	if (err) {
		size_t n = strlen(name) + 1;
		struct item *it = new_item(EV_FILE_ERROR, k->list, n);

		it->err = err;
		memcpy(it->text, name, n);
		job->user = it;
		return true;
	}
	struct fh_list_line l = k->expect;

	l.name = name;
	l.namelen = strlen(name);
	line_job(k, &l, job);
	return true;
}

static bool next(void *ctx, struct fh_job *job)
{
	struct checker *k = ctx;

	if (k->c->expect)
		return next_expect(k, job);
	free(k->probe_name);
	k->probe_name = NULL;

	for (;;) {
		if (!k->reading) {
			const char *name;
			int err, fd = -1;

			if (!fh_operands_next(k->ops, &name, &err))
				return false;
			k->is_stdin = !err && strcmp(name, "-") == 0;
			fh_stdin_read |= k->is_stdin;
			if (!err) {
				fd = k->is_stdin ? STDIN_FILENO
						 : open(name, O_RDONLY | O_CLOEXEC);
				err = fd < 0 ? errno : 0;
			}
			if (!err && !fh_lines_start(&k->lines, fd, FH_LIST_LINE_MAX, '\n'))
				err = ENOMEM;
			if (!err)
				fh_shapes_start(&k->shapes, &k->lines, fd,
						k->is_stdin ? NULL : name, fh_gnu_as == NULL);
			if (err) {
				if (fd >= 0 && !k->is_stdin)
					close(fd);
				size_t n = strlen(name) + 1;
				struct item *it = new_item(EV_OPEN_ERROR, NULL, n);

				it->err = err;
				memcpy(it->text, name, n);
				job->user = it;
				return true;
			}
			const char *shown = !k->is_stdin ? name
					    : fh_as_xxhsum ? "stdin" : "standard input";

			k->list = new_list(k->c, shown);
			k->shapes.hashdeep = &k->list->hd;
			if (!k->nlists++)
				k->first_list = fh_xstrdup(shown);
			free(k->list_name);
			k->list_name = fh_xmalloc(strlen(name) + 1);
			strcpy(k->list_name, name);
			k->parser.list_is_stdin = k->is_stdin;
			/* What a list's "#fhsum" lines say is that list's. */
			k->parser.ndeclared = 0;
			k->parser.next_algo = NULL;
			k->lineno = 0;
			k->reading = true;
		}

		struct fh_list_line l;
		enum fh_shape_kind kind = FH_SHAPE_OK;
		bool has_held = k->has_held;

		if (k->has_held) {
			l = k->held;
			if (k->held.digest == k->held.digest_buf)
				l.digest = l.digest_buf;
			k->has_held = false;
		} else {
			kind = fh_shapes_next(&k->shapes, &k->parser, &l, &k->lineno);
		}

		switch (kind) {
		case FH_SHAPE_END:
			end_list(k, job);
			return true;
		case FH_SHAPE_BAD: {
			const char *label = k->cksum_label ? k->cksum_label : "CRC";
			struct item *it = new_item(EV_BAD_LINE, k->list, strlen(label) + 1);

			it->lineno = k->lineno;
			strcpy(it->text, label);
			job->user = it;
			return true;
		}
		case FH_SHAPE_UNSUPPORTED: {
			k->list->unsupported_seen = true;
			((char *)l.name)[l.namelen] = '\0';
			if (!selected(k, l.name, true))
				continue;
			struct item *it = new_item(EV_UNSUPPORTED, k->list, l.taglen + 1);

			it->lineno = k->lineno;
			memcpy(it->text, l.tag, l.taglen);
			it->text[l.taglen] = '\0';
			note_tag(k->list, &l);
			job->user = it;
			return true;
		}
		case FH_SHAPE_OK:
			k->list->formatted = true;
			if (l.tagged)
				k->cksum_label = l.algo->tag;
			((char *)l.name)[l.namelen] = '\0';
			if (k->shapes.single)
				stem_instead(k, &l);
			if (!selected(k, l.name, true))
				continue;
			if (!has_held)
				k->list->selected++;
			if (k->list->hd.on) {
				row_job(k, &l, job);
				return true;
			}
			if (l.alt && line_to_settle(k, &l, job))
				return true;
			line_job(k, &l, job);
			return true;
		}
	}
}

/* The result of one line: its name, algorithm, the computed digest
 * (OUTLEN bytes) and the file's size. */
struct result {
	const char *path;
	const struct fh_algo *algo;
	const uint8_t *digest;
	size_t outlen;
	uint64_t size;
	const uint8_t *expected; /* --json, a mismatch: the digest listed */
};

/* Prints "NAME: WHAT" (escaped as generated lines are), or with --json
 * its object: the computed digest and ERR's text (0: none). */
static void status_line(struct checker *k, const struct result *r,
			const char *what, int err)
{
	fh_record_put(k->c, &(struct fh_record){
		.name = r->path, .namelen = strlen(r->path), .algo = r->algo,
		.digest = err ? NULL : r->digest, .expected = err ? NULL : r->expected,
		.outlen = r->outlen, .sized = !err, .size = r->size, .status = what,
		.err = err });
}

/* A line's verdict: ERR (the file could not be read) or MATCH. */
static void verdict(struct checker *k, struct item *it, const struct result *r,
		    int err, bool match)
{
	const struct cli *c = k->c;
	struct list *l = it->list;

	l->formatted = true;
	if (err == ENOENT && c->ignore_missing)
		return;
	if (err && fh_as_xxhsum) {
		l->unreadable++;
		if (!c->status_only)
			fh_xxhsum_unreadable(l->shown, it->lineno, r->path, err);
		return;
	}
	if (err) {
		l->unreadable++;
		fh_report_input_error(r->path, err);
		if (!c->status_only)
			status_line(k, r, "FAILED open or read", err);
		return;
	}
	if (!match) {
		l->mismatched++;
		if (!c->status_only)
			status_line(k, r, "FAILED", 0);
	} else {
		l->matched = true;
		if (!c->status_only && !c->quiet)
			status_line(k, r, "OK", 0);
	}
}

/* A line's result.  One of a length left to settle that did not match
 * under the verdict gets a second look under the other candidates. */
static void line_done(struct checker *k, struct fh_job *job, struct item *it)
{
	struct result r = { job->path, job->algo, job->digest, job->outlen,
			    job->size, NULL };
	bool match = !job->err && (!job->cand || job->chosen >= 0) &&
		     digest_matches(it, job->digest, job->outlen, k->text);

	if (!job->err && job->cand && job->chosen < 0) {
		/* Matched none: shown under the verdict, when there is one. */
		const struct fh_algo *v = fh_settle_verdict(job->cand);

		for (size_t i = 0; v && i < job->cand->n; i++)
			if (job->cand->algo[i] == v) {
				r.algo = v;
				r.digest = job->digest + i * job->outlen;
			}
	} else if (!job->err && !match && it->cand) {
		const struct fh_algo *other = fh_settle_retry(job->path, it->cand, job->algo,
							      it->expect, job->outlen);

		if (other) {
			r.algo = other;
			r.digest = it->expect;
			match = true;
		}
	}
	uint8_t *listed = NULL;

	if (k->c->json && !job->err && !match) {
		/* The digest the list gives, decoded, for --json's
		 * "expected" (none for a text that does not decode). */
		struct fh_list_line l = { .digest = it->text, .digestlen = it->digestlen,
					  .outlen = r.outlen, .base64 = it->base64 };

		listed = fh_xmalloc(r.outlen);
		if (fh_list_digest(listed, &l))
			r.expected = listed;
	}
	if (it->cand && !job->err) {
		size_t i = (size_t)(it->cand - it->list->settle.cand);

		if (match)
			it->list->cand_matched[i] = true;
		else
			it->list->cand_failed[i]++;
	}
	verdict(k, it, &r, job->err, match);
	free(listed);
}

/* The lengths of L that no file matched under any of their candidates:
 * WHAT ("the list may use") an algorithm the table lacks, or the run
 * needs -a. */
static void unmatched_lengths(const struct list *l, const char *what)
{
	for (size_t i = 0; i < l->settle.n; i++) {
		char names[256];

		if (!l->cand_failed[i] || l->cand_matched[i])
			continue;
		fh_settle_names(&l->settle.cand[i], names, sizeof names);
		fh_error(0, "WARNING: no file matched under %s: %s another "
			    "algorithm (give it with -a)", names, what);
	}
}

/* The unsupported tags of L, "BLAKE2b, XXH64", into OUT (N bytes). */
static void tag_names(const struct list *l, char *out, size_t n)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < l->ntags && at < n; i++)
		at += (size_t)snprintf(out + at, n - at, "%s%s", i ? ", " : "",
				       l->tags[i]);
	if (l->more_tags && at < n)
		snprintf(out + at, n - at, ", ...");
}

/* The end of --expect's one list: no list to summarise, only what the
 * digest's length and --ignore-missing leave to say. */
static bool expect_done(const struct cli *c, const struct list *n)
{
	fh_progress_clear();
	if (!c->status_only) {
		unmatched_lengths(n, "the digest may be of");
		/* Every file missing under --ignore-missing, or none given
		 * (an empty --files-from). */
		if (!n->matched && !n->mismatched && !n->unreadable)
			fh_error(0, "no file was verified");
	}
	return n->matched && !n->mismatched && !n->unreadable;
}

/* A hashdeep row's result: its digests and size against the row's. */
static void row_done(struct checker *k, struct fh_job *job, struct item *it)
{
	const struct fh_hashdeep *h = &it->list->hd;
	uint8_t row[FH_HASHDEEP_ROW_MAX];
	/* Shown (--json) with its first column's digest. */
	struct result r = { job->path, h->cand.algo[0], job->digest,
			    h->cand.algo[0]->digest_bytes, job->size, NULL };
	bool match = !job->err && fh_hashdeep_row(h, job, row) == it->digestlen &&
		     memcmp(row, it->text, it->digestlen) == 0;

	/* The row's first column, as listed: its bytes begin the row's. */
	if (!job->err && !match)
		r.expected = (const uint8_t *)it->text;
	verdict(k, it, &r, job->err, match);
}

/* The end of a list: GNU's summary, and whether the list passed. */
static bool list_done(const struct cli *c, struct item *it)
{
	const struct list *n = it->list;
	const char *q = fh_quotef(n->shown, strlen(n->shown));

	fh_progress_clear();
	/* xxhsum reads a list it cannot read on (a directory) as ended. */
	if (it->err && !fh_as_xxhsum) {
		if (it->err < 0)
			fh_error(0, "%s: read error", q);
		else
			fh_error(it->err, "%s", q);
		return false;
	}
	if (c->expect)
		return expect_done(c, n);
	/* A hashdeep list's columns that went unchecked. */
	if (!c->status_only)
		fh_hashdeep_say_unsupported(&n->hd, n->shown);
	char tags[TAGS_NAMED * (FH_TAG_MAX + 2) + 8];

	tag_names(n, tags, sizeof tags);
	if (!n->formatted && fh_as_xxhsum) {
		fh_out_flush();
		fprintf(stderr, "%s: no properly formatted xxHash checksum lines found\n",
			n->shown);
		return false;
	}
	if (!n->formatted && n->unsupported) {
		fh_error(0, "%s: no checksum lines of a supported algorithm found "
			    "(%" PRIuMAX " %s %s)", q, n->unsupported,
			 n->unsupported == 1 ? "line uses" : "lines use", tags);
		return false;
	}
	/* A list of unsupported lines that --only passed over held none
	 * of its names: that is said at the end. */
	if (!n->formatted && !(c->nonly && n->unsupported_seen)) {
		fh_error(0, "%s: no properly formatted checksum lines found", q);
		return false;
	}
	/* With --only, a list that held none of its names has nothing to
	 * say: the names no list held are said at the end. */
	bool chosen = !c->nonly || n->selected;
	if (fh_as_xxhsum) {
		if (!c->status_only)
			fh_xxhsum_summary(n->misformatted, n->unreadable, n->mismatched);
		return !n->mismatched && !n->unreadable &&
		       (!c->strict || !n->misformatted);
	}
	if (!c->status_only) {
		if (n->late)
			fh_error(0, "WARNING: %" PRIuMAX " %s before the signed part %s read: "
				    "give the list as a file, or its signed text alone",
				 n->late, n->late == 1 ? "line" : "lines",
				 n->late == 1 ? "was" : "were");
		if (n->outside)
			fh_error(0, "WARNING: %" PRIuMAX " %s outside the signed part %s ignored",
				 n->outside, n->outside == 1 ? "line" : "lines",
				 n->outside == 1 ? "was" : "were");
		if (n->misformatted)
			fh_error(0, "WARNING: %" PRIuMAX " %s improperly formatted",
				 n->misformatted,
				 n->misformatted == 1 ? "line is" : "lines are");
		if (n->unsupported)
			fh_error(0, "WARNING: %" PRIuMAX " %s %s (%s)", n->unsupported,
				 n->unsupported == 1 ? "line uses" : "lines use",
				 n->ntags > 1 || n->more_tags ? "unsupported algorithms"
							      : "an unsupported algorithm",
				 tags);
		if (n->unreadable)
			fh_error(0, "WARNING: %" PRIuMAX " listed %s could not be read",
				 n->unreadable, n->unreadable == 1 ? "file" : "files");
		if (n->mismatched)
			fh_error(0, "WARNING: %" PRIuMAX " computed %s did NOT match",
				 n->mismatched,
				 n->mismatched == 1 ? "checksum" : "checksums");
		unmatched_lengths(n, "the list may use");
		if (c->ignore_missing && !n->matched && chosen)
			fh_error(0, "%s: no file was verified", q);
	}
	return (n->matched || !chosen) && !n->mismatched && !n->unreadable &&
	       !n->unsupported && !n->late &&
	       (!c->strict || (!n->misformatted && !n->outside));
}

static void done(void *ctx, struct fh_job *job)
{
	struct checker *k = ctx;
	struct item *it = job->user;

	switch (it->ev) {
	case EV_LINE:
		if (it->listed && !k->c->status_only) {
			fh_progress_clear();
			fh_error(0, "%s: %s is not there: checking %s, the file the list is named for",
				 fh_quotef(it->list->shown, strlen(it->list->shown)),
				 fh_quotef(it->listed, strlen(it->listed)),
				 fh_quotef(job->path, strlen(job->path)));
		}
		free(it->listed);
		if (it->list->hd.on)
			row_done(k, job, it);
		else
			line_done(k, job, it);
		break;
	case EV_PROBE:
		break; /* its verdict is the candidates' now */
	case EV_BAD_LINE:
		it->list->misformatted++;
		if (k->c->warn && fh_as_xxhsum) {
			fh_out_flush();
			fprintf(stderr, "%s:%ju: Error: Improperly formatted checksum line.\n",
				it->list->shown, it->lineno);
		} else if (k->c->warn) {
			const char *label = k->c->label;

			if (!label && fh_gnu_form == FH_FORM_CKSUM)
				label = it->text;
			fh_progress_clear();
			fh_error(0, "%s: %" PRIuMAX ": improperly formatted %s%s"
				    "checksum line",
				 fh_quotef(it->list->shown, strlen(it->list->shown)),
				 it->lineno, label ? label : "", label ? " " : "");
		}
		break;
	case EV_UNSUPPORTED:
		it->list->unsupported++;
		if (k->c->warn) {
			fh_progress_clear();
			fh_error(0, "%s: %" PRIuMAX ": checksum line of an unsupported "
				    "algorithm (%s)",
				 fh_quotef(it->list->shown, strlen(it->list->shown)),
				 it->lineno, it->text);
		}
		break;
	case EV_FILE_ERROR: {
		struct result r = { it->text, k->expect.algo, NULL, k->expect.outlen, 0, NULL };

		verdict(k, it, &r, it->err, false);
		break;
	}
	case EV_OPEN_ERROR:
		if (fh_as_xxhsum)
			fh_xxhsum_open_error(it->text, it->err, true);
		else
			fh_report_input_error(it->text, it->err);
		k->ok = false;
		break;
	case EV_END:
		k->ok &= list_done(k->c, it);
		free(it->list->shown);
		free(it->list);
		break;
	}
	free(it);
}

/* --expect's digest into OUT, as the digest of an untagged line of C's
 * run; false when it is none. */
static bool expect_digest(const struct cli *c, struct fh_list_line *out)
{
	struct fh_list_parser p;

	fh_list_parser_init(&p, c->algo, c->group, c->check_outlen);
	memset(out, 0, sizeof *out);
	return fh_list_parse_digest(&p, NULL, c->expect, strlen(c->expect), out) == FH_LINE_OK;
}

bool fh_expect_valid(const struct cli *c)
{
	struct fh_list_line l;

	return expect_digest(c, &l);
}

/* --only's names that no list held, said once the lists are read: false
 * when there is one. */
static bool report_unlisted(const struct checker *k)
{
	const struct cli *c = k->c;
	bool ok = true;

	/* No list read: the lists' own errors said why. */
	for (size_t i = 0; i < c->nonly && k->nlists; i++) {
		if (k->found[i])
			continue;
		ok = false;
		fh_progress_clear();
		if (k->nlists == 1)
			fh_error(0, "%s: not listed in %s",
				 fh_quotef(c->only[i], strlen(c->only[i])),
				 fh_quotef(k->first_list, strlen(k->first_list)));
		else
			fh_error(0, "%s: not listed in any of the %" PRIuMAX " lists",
				 fh_quotef(c->only[i], strlen(c->only[i])), k->nlists);
	}
	return ok;
}

bool fh_check(const struct cli *c, struct operands *ops)
{
	struct checker *k = fh_xmalloc(sizeof *k);
	struct fh_engine_opts eo;
	int err;

	memset(k, 0, sizeof *k);
	k->c = c;
	k->ops = ops;
	k->ok = true;
	/* One parser for the run: GNU's reversed-form latch carries from
	 * one list to the next. */
	fh_list_parser_init(&k->parser, c->algo, c->group, c->check_outlen);
	k->parser.published = fh_gnu_as == NULL;
	k->parser.unknown_tags = !fh_gnu_as;
	k->parser.untagged_le = fh_as_xxhsum && fh_xxh_little_endian;
	k->parser.hex_only = fh_gnu_as != NULL;
	k->parser.xxhsum_lines = fh_as_xxhsum;
	k->found = fh_xcalloc(c->nonly ? c->nonly : 1, sizeof *k->found);
	if (c->expect) {
		if (!expect_digest(c, &k->expect))
			return false; /* refused before the run (fhsum.c) */
		k->list = new_list(c, "");
	}
	k->parser.tags_only = fh_gnu_form == FH_FORM_CKSUM;
	fh_engine_opts_for(c, &eo);
	err = fh_engine_run(&eo, next, done, k);
	if (err) {
		fh_error(err, "%s", "cannot start");
		exit(EXIT_FAILURE);
	}
	bool ok = k->ok;

	ok &= report_unlisted(k);
	fh_lines_free(&k->lines);
	free(k->list_name);
	free(k->probe_name);
	free(k->stem);
	fh_shapes_free(&k->shapes);
	free(k->first_list);
	free(k->found);
	free(k);
	return ok;
}
