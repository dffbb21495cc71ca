/* check.c: checking checksum lists (-c).  Lists are read line by line (a
 * list of millions of lines is never held whole, nor a line longer than
 * any valid one); each properly formatted line becomes a job for the
 * engine, each other event (an improper line, a list's end) a marker, so
 * that reports and warnings come out in list order exactly as GNU md5sum
 * prints them.
 *
 * An untagged line without -a whose length SHA-3 and SHA-2 share (64 hex
 * digits: SHA3-256 or SHA-256) is settled by content: the first such line
 * of a list has its file read once and hashed both ways, here, before it
 * goes on as a marker with its verdict; the algorithm that matched is
 * that list's for every later line of that length.  A line that matches
 * neither is FAILED, and the next one tries again. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "checklist.h"
#include "cli.h"
#include "engine.h"
#include "lines.h"
#include "operands.h"
#include "quote.h"
#include "settle.h"

/* One list being checked; freed when its end is reported. */
struct list {
	char *shown;            /* its name, or "standard input" */
	uintmax_t misformatted, unreadable, mismatched;
	bool formatted, matched;
	/* For each shared length, the algorithm its lines were found to
	 * be, or NULL while none has matched. */
	const struct fh_algo *settled[FH_SHARED_SIZES];
};

enum event { EV_LINE, EV_BAD_LINE, EV_OPEN_ERROR, EV_END, EV_SETTLED };

struct item {
	enum event ev;
	struct list *list;
	int err;                /* EV_OPEN_ERROR, EV_END: errno, -1 read error */
	uintmax_t lineno;       /* EV_BAD_LINE */
	size_t digestlen;       /* EV_LINE: the digest's characters */
	bool base64;            /* EV_LINE: ... in base64, else hex */
	/* EV_SETTLED: the line hashed both ways here; its name follows the
	 * digest's text; ALGO matched (or, when none did, the first). */
	const struct fh_algo *algo;
	uint8_t digest[FH_MAX_DIGEST];
	uint64_t size;
	bool match;
	char text[];            /* EV_LINE: the digest; EV_OPEN_ERROR: name */
};

struct checker {
	const struct cli *c;
	struct operands *ops;
	struct fh_list_parser parser;
	struct fh_lines lines;  /* the list being read */
	bool reading;           /* a list is open */
	bool is_stdin;
	struct list *list;
	uintmax_t lineno;
	bool ok;
	/* The computed digest in hex or base64: 2n + 4 holds both. */
	char text[2 * FH_MAX_XOF_BYTES + 4];
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fh_error(ENOMEM, "%s", "check");
		exit(EXIT_FAILURE);
	}
	return p;
}

static struct item *new_item(enum event ev, struct list *l, size_t extra)
{
	struct item *it = xmalloc(sizeof *it + extra);

	memset(it, 0, sizeof *it);
	it->ev = ev;
	it->list = l;
	return it;
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

/* The line L of a length SHA-3 and SHA-2 share, not yet settled for its
 * list: hashed both ways now, and handed on as an EV_SETTLED marker. */
static void settle(struct checker *k, const struct fh_list_line *l,
		   struct fh_job *job)
{
	struct item *it = new_item(EV_SETTLED, k->list, l->digestlen + l->namelen + 1);
	const struct fh_algo *const two[2] = { l->algo, l->alt };
	uint8_t d[2][FH_MAX_DIGEST];
	char buf[2 * FH_MAX_DIGEST + 4];
	char *name = it->text + l->digestlen;

	memcpy(it->text, l->digest, l->digestlen);
	it->digestlen = l->digestlen;
	it->base64 = l->base64;
	memcpy(name, l->name, l->namelen);
	name[l->namelen] = '\0';
	fh_stdin_read |= strcmp(name, "-") == 0;
	it->algo = two[0];
	it->err = fh_hash_both(name, two, d, &it->size);
	for (int i = 0; i < 2 && !it->err; i++) {
		if (digest_matches(it, d[i], l->outlen, buf)) {
			it->algo = two[i];
			it->match = true;
			k->list->settled[fh_shared_index(l->outlen)] = two[i];
			break;
		}
	}
	memcpy(it->digest, d[it->algo == two[1]], l->outlen);
	job->user = it;
}

/* Ends the list being read with an EV_END marker. */
static void end_list(struct checker *k, struct fh_job *job)
{
	struct item *it = new_item(EV_END, k->list, 0);

	if (k->lines.err)
		it->err = -1;
	if (!k->is_stdin && close(k->lines.fd) != 0 && !it->err)
		it->err = errno;
	k->reading = false;
	k->list = NULL;
	job->user = it;
}

static bool next(void *ctx, struct fh_job *job)
{
	struct checker *k = ctx;

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
			const char *shown = k->is_stdin ? "standard input" : name;

			k->list = xmalloc(sizeof *k->list);
			memset(k->list, 0, sizeof *k->list);
			k->list->shown = xmalloc(strlen(shown) + 1);
			strcpy(k->list->shown, shown);
			k->parser.list_is_stdin = k->is_stdin;
			k->lineno = 0;
			k->reading = true;
		}

		char *line;
		size_t len;
		enum fh_lines_status got = fh_lines_next(&k->lines, &line, &len);

		if (got == FH_LINES_END) {
			end_list(k, job);
			return true;
		}
		k->lineno++;

		struct fh_list_line l;

		switch (got == FH_LINES_TOO_LONG ? FH_LINE_BAD
			: fh_list_parse(&k->parser, line, len, &l)) {
		case FH_LINE_SKIP:
			continue;
		case FH_LINE_BAD: {
			struct item *it = new_item(EV_BAD_LINE, k->list, 0);

			it->lineno = k->lineno;
			job->user = it;
			return true;
		}
		case FH_LINE_OK: {
			if (l.alt) {
				const struct fh_algo *s =
					k->list->settled[fh_shared_index(l.outlen)];

				if (!s) {
					((char *)l.name)[l.namelen] = '\0';
					settle(k, &l, job);
					return true;
				}
				l.algo = s;
			}
			struct item *it = new_item(EV_LINE, k->list, l.digestlen);

			memcpy(it->text, l.digest, l.digestlen);
			it->digestlen = l.digestlen;
			it->base64 = l.base64;
			((char *)l.name)[l.namelen] = '\0';
			fh_stdin_read |= strcmp(l.name, "-") == 0;
			job->user = it;
			job->user_bytes = sizeof *it + l.digestlen;
			job->path = l.name;
			job->algo = l.algo;
			fh_job_kernels(k->c, job);
			job->outlen = l.outlen;
			return true;
		}
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
};

/* Prints "NAME: WHAT" (escaped as generated lines are), or with --json
 * its object: the computed digest and ERR's text (0: none). */
static void status_line(struct checker *k, const struct result *r,
			const char *what, int err)
{
	const struct cli *c = k->c;

	if (!c->json) {
		fh_out_status(r->path, strlen(r->path), what, NULL, 0);
		return;
	}
	fh_json_begin();
	fh_json_name("name", r->path, strlen(r->path));
	fh_json_str("algorithm", r->algo->name);
	if (!err) {
		if (c->base64)
			k->text[fh_base64(k->text, r->digest, r->outlen)] = '\0';
		else
			fh_hex(k->text, r->digest, r->outlen);
		fh_json_str("digest", k->text);
		fh_json_uint("size", r->size);
	}
	fh_json_str("status", what);
	if (err)
		fh_json_str("error", fh_strerror(err));
	fh_json_end();
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

static void line_done(struct checker *k, struct fh_job *job, struct item *it)
{
	struct result r = { job->path, job->algo, job->digest, job->outlen,
			    job->size };

	verdict(k, it, &r, job->err,
		!job->err && digest_matches(it, job->digest, job->outlen, k->text));
}

static void settled_done(struct checker *k, struct item *it)
{
	struct result r = { it->text + it->digestlen, it->algo, it->digest,
			    it->algo->digest_bytes, it->size };

	verdict(k, it, &r, it->err, it->match);
}

/* The end of a list: GNU's summary, and whether the list passed. */
static bool list_done(const struct cli *c, struct item *it)
{
	const struct list *n = it->list;
	const char *q = fh_quotef(n->shown, strlen(n->shown));

	fh_progress_clear();
	if (it->err) {
		if (it->err < 0)
			fh_error(0, "%s: read error", q);
		else
			fh_error(it->err, "%s", q);
		return false;
	}
	if (!n->formatted) {
		fh_error(0, "%s: no properly formatted checksum lines found", q);
		return false;
	}
	if (!c->status_only) {
		if (n->misformatted)
			fh_error(0, "WARNING: %" PRIuMAX " %s improperly formatted",
				 n->misformatted,
				 n->misformatted == 1 ? "line is" : "lines are");
		if (n->unreadable)
			fh_error(0, "WARNING: %" PRIuMAX " listed %s could not be read",
				 n->unreadable, n->unreadable == 1 ? "file" : "files");
		if (n->mismatched)
			fh_error(0, "WARNING: %" PRIuMAX " computed %s did NOT match",
				 n->mismatched,
				 n->mismatched == 1 ? "checksum" : "checksums");
		if (c->ignore_missing && !n->matched)
			fh_error(0, "%s: no file was verified", q);
	}
	return n->matched && !n->mismatched && !n->unreadable &&
	       (!c->strict || !n->misformatted);
}

static void done(void *ctx, struct fh_job *job)
{
	struct checker *k = ctx;
	struct item *it = job->user;

	switch (it->ev) {
	case EV_LINE:
		line_done(k, job, it);
		break;
	case EV_SETTLED:
		settled_done(k, it);
		break;
	case EV_BAD_LINE:
		it->list->misformatted++;
		if (k->c->warn) {
			const char *label = k->c->label;

			fh_progress_clear();
			fh_error(0, "%s: %" PRIuMAX ": improperly formatted %s%s"
				    "checksum line",
				 fh_quotef(it->list->shown, strlen(it->list->shown)),
				 it->lineno, label ? label : "", label ? " " : "");
		}
		break;
	case EV_OPEN_ERROR:
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

bool fh_check(const struct cli *c, struct operands *ops)
{
	struct checker *k = xmalloc(sizeof *k);
	struct fh_engine_opts eo;
	int err;

	memset(k, 0, sizeof *k);
	k->c = c;
	k->ops = ops;
	k->ok = true;
	/* One parser for the run: GNU's reversed-form latch carries from
	 * one list to the next. */
	fh_list_parser_init(&k->parser, c->algo, c->any_sha3, c->check_outlen);
	k->parser.any_sha2 = c->any_sha2;
	fh_engine_opts_for(c, &eo);
	err = fh_engine_run(&eo, next, done, k);
	if (err) {
		fh_error(err, "%s", "cannot start");
		exit(EXIT_FAILURE);
	}
	bool ok = k->ok;

	fh_lines_free(&k->lines);
	free(k);
	return ok;
}
