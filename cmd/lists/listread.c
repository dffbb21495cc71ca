/* listread.c: a list read for --audit, --update, --scrub and --against
 * (listread.h).
 * Its lines are split and parsed on a thread of their own while this
 * thread takes the entries in (hashing their names into the manifest):
 * the parse hands over batches of parsed lines, in line order, through a
 * ring of BATCHES buffers, so memory stays bounded whatever the list's
 * length.  A short list, or one that is not a regular file, is parsed on
 * this thread, a batch at a time, by the same code. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hashdeep.h"
#include "lines.h"
#include "listread.h"
#include "shapes.h"

/* A batch holds this much and one more line, whatever its length. */
#define BATCH_BYTES ((size_t)256 << 10)
#define BATCHES 4
/* Lists shorter than this are parsed on this thread. */
#define THREAD_FROM ((off_t)1 << 20)

/* One line as parsed: its name, then its digest, follow it. */
struct parsed {
	uint64_t lineno;
	uint64_t hash;          /* the name's, for the name table */
	struct fh_meta meta;
	const struct fh_algo *algo, *alt;
	size_t namelen, outlen;
	bool ok;                /* else improperly formatted */
	bool has_meta, tagged, binary, base64, form, crlf, le, openssl, openssl3;
	bool prefixed, reversed, tab;
};

#define RECORD_MAX (sizeof(struct parsed) + FH_LIST_LINE_MAX + FH_MAX_XOF_BYTES + \
		    2 * alignof(struct parsed))

struct batch {
	size_t used;
	unsigned char *data;    /* BATCH_BYTES + RECORD_MAX */
};

struct reader {
	/* The parse's own. */
	struct fh_list_parser p;
	struct fh_lines lines;
	struct fh_shapes text;  /* what of the lines is read (shapes.h) */
	struct fh_meta meta;
	bool pending;           /* META is the next entry's */
	uint64_t lineno;
	uint8_t *digest;        /* FH_MAX_XOF_BYTES */
	struct fh_hashdeep *hd; /* NULL, or a hashdeep list's columns */
	bool sfv;               /* an SFV list's lines */
	uint64_t nul_lines;     /* lines holding a NUL byte */

	/* The ring: batches [head, head + full) are parsed and waiting;
	 * the parse fills batch head + full once it is free. */
	struct batch ring[BATCHES];
	size_t head, full;
	bool done;              /* the parse handed over its last batch */
	pthread_mutex_t lock;
	pthread_cond_t cv;
};

static size_t round_up(size_t n)
{
	return (n + alignof(struct parsed) - 1) & ~(alignof(struct parsed) - 1);
}

static void put(struct batch *b, enum fh_line_kind kind,
		const struct fh_list_line *l, const uint8_t *digest,
		const struct fh_meta *meta, uint64_t lineno)
{
	struct parsed *r = (struct parsed *)(void *)(b->data + b->used);

	*r = (struct parsed){ .lineno = lineno, .ok = kind == FH_LINE_OK };
	b->used += round_up(sizeof *r);
	if (!r->ok)
		return;
	r->hash = fh_manifest_name_hash(l->name, l->namelen);
	r->algo = l->algo;
	r->alt = l->alt;
	r->namelen = l->namelen;
	r->outlen = l->outlen;
	r->tagged = l->tagged;
	r->binary = l->binary;
	r->base64 = l->base64;
	r->form = l->form;
	r->crlf = l->crlf;
	r->le = l->le;
	r->openssl = l->openssl;
	r->openssl3 = l->openssl3;
	r->prefixed = l->prefixed;
	r->reversed = l->reversed;
	r->tab = l->tab;
	if (meta) {
		r->has_meta = true;
		r->meta = *meta;
	}
	memcpy(b->data + b->used, l->name, l->namelen);
	memcpy(b->data + b->used + l->namelen, digest, l->outlen);
	b->used += round_up(l->namelen + l->outlen);
}

/* Parses lines into B until it holds BATCH_BYTES; false at the end of
 * the list. */
static bool parse_batch(struct reader *r, struct batch *b)
{
	b->used = 0;
	while (b->used < BATCH_BYTES) {
		char *line;
		size_t len;
		uintmax_t lineno;
		enum fh_lines_status got = fh_shapes_text(&r->text, &line, &len, &lineno);
		struct fh_list_line l;
		enum fh_line_kind kind = FH_LINE_BAD;

		if (got == FH_LINES_END)
			return false;
		r->lineno = lineno;
		if (got == FH_LINES_LINE && memchr(line, '\0', len))
			r->nul_lines++;
		if (r->hd && r->lineno == 1 && got == FH_LINES_LINE &&
		    fh_hashdeep_starts(line, len))
			r->hd->on = true;
		if (r->hd && r->hd->on) {
			/* A hashdeep list: its rows, and no "#fhsum" lines. */
			if (got == FH_LINES_LINE)
				kind = fh_hashdeep_parse(r->hd, line, len, &l);
			if (kind != FH_LINE_SKIP)
				put(b, kind, &l, r->hd->row, NULL, r->lineno);
			continue;
		}
		if (r->sfv) {
			/* An SFV list: its lines, and no "#fhsum" lines. */
			if (got == FH_LINES_LINE)
				kind = fh_shapes_sfv_line(&r->p, line, len, &l);
			if (kind == FH_LINE_OK && !fh_list_digest(r->digest, &l))
				kind = FH_LINE_BAD;
			if (kind != FH_LINE_SKIP)
				put(b, kind, &l, r->digest, NULL, r->lineno);
			continue;
		}
		if (got == FH_LINES_LINE && fh_meta_parse(line, len, &r->meta)) {
			r->pending = true;
			continue;
		}
		if (got == FH_LINES_LINE)
			kind = fh_list_parse(&r->p, line, len, &l);
		/* A metadata line may name its entry's algorithm. */
		if (kind == FH_LINE_OK && !l.tagged && !r->p.algo && r->pending &&
		    r->meta.algo && r->meta.algo->digest_bytes == l.outlen) {
			l.algo = r->meta.algo;
			l.alt = NULL;
		}
		if (kind == FH_LINE_OK && !fh_list_digest(r->digest, &l))
			kind = FH_LINE_BAD;
		if (kind != FH_LINE_SKIP)
			put(b, kind, &l, r->digest, r->pending ? &r->meta : NULL, r->lineno);
		r->pending = false;
	}
	return true;
}

static void *parse_main(void *arg)
{
	struct reader *r = arg;
	bool more = true;

	while (more) {
		pthread_mutex_lock(&r->lock);
		while (r->full == BATCHES)
			pthread_cond_wait(&r->cv, &r->lock);
		struct batch *b = &r->ring[(r->head + r->full) % BATCHES];

		pthread_mutex_unlock(&r->lock);
		more = parse_batch(r, b);
		pthread_mutex_lock(&r->lock);
		r->full++;
		r->done = !more;
		pthread_cond_signal(&r->cv);
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

/* The record after the one at *AT of B (*AT moves past it), or NULL. */
static const struct parsed *next_record(const struct batch *b, size_t *at)
{
	if (*at >= b->used)
		return NULL;
	const struct parsed *r = (const struct parsed *)(const void *)(b->data + *at);

	*at += round_up(sizeof *r) + (r->ok ? round_up(r->namelen + r->outlen) : 0);
	return r;
}

/* How many lines ahead a name's place in the table is fetched: the
 * table is far larger than the cache, and each add would wait on it. */
#define PREFETCH_AHEAD 8

/* Hands B's lines to EACH, and the improper ones to BAD, in line order. */
static void take_batch(const struct batch *b, const struct fh_list_reading *how)
{
	const struct parsed *r, *ahead;
	size_t at = 0, ahead_at = 0;

	for (int i = 0; i < PREFETCH_AHEAD; i++)
		if ((ahead = next_record(b, &ahead_at)) != NULL && ahead->ok && how->prefetch)
			how->prefetch(how->ctx, ahead->hash);
	while ((r = next_record(b, &at)) != NULL) {
		if ((ahead = next_record(b, &ahead_at)) != NULL && ahead->ok && how->prefetch)
			how->prefetch(how->ctx, ahead->hash);
		if (!r->ok) {
			if (how->bad)
				how->bad(how->ctx, r->lineno);
			continue;
		}
		const char *text = (const char *)(r + 1);
		struct fh_list_line l = {
			.algo = r->algo, .alt = r->alt, .outlen = r->outlen,
			.name = text, .namelen = r->namelen, .tagged = r->tagged,
			.binary = r->binary, .base64 = r->base64, .form = r->form,
			.crlf = r->crlf, .le = r->le, .openssl = r->openssl,
			.openssl3 = r->openssl3, .prefixed = r->prefixed,
			.reversed = r->reversed, .tab = r->tab,
		};

		how->each(how->ctx, &l, r->hash, (const uint8_t *)text + r->namelen,
			  r->has_meta ? &r->meta : NULL, r->lineno);
	}
}

/* The batches as the parse thread hands them over. */
static void take_threaded(struct reader *r, const struct fh_list_reading *how)
{
	for (;;) {
		pthread_mutex_lock(&r->lock);
		while (!r->full && !r->done)
			pthread_cond_wait(&r->cv, &r->lock);
		bool last = !r->full;

		pthread_mutex_unlock(&r->lock);
		if (last)
			return;
		take_batch(&r->ring[r->head], how);
		pthread_mutex_lock(&r->lock);
		r->head = (r->head + 1) % BATCHES;
		r->full--;
		pthread_cond_signal(&r->cv);
		pthread_mutex_unlock(&r->lock);
	}
}

int fh_list_read(int fd, struct fh_list_parser *parser, const struct fh_list_reading *how)
{
	struct stat st;
	pthread_t tid;
	bool threaded = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
			st.st_size >= THREAD_FROM;
	size_t nbatches = threaded ? BATCHES : 1;
	size_t head = round_up(sizeof(struct reader));
	size_t batch = round_up(BATCH_BYTES + RECORD_MAX);
	/* One allocation: the reader, its batches, the digest's room. */
	struct reader *r = calloc(1, head + nbatches * batch + FH_MAX_XOF_BYTES);

	if (!r)
		return ENOMEM;
	if (!fh_lines_start(&r->lines, fd, FH_LIST_LINE_MAX, '\n')) {
		free(r);
		return ENOMEM;
	}
	for (size_t i = 0; i < nbatches; i++)
		r->ring[i].data = (unsigned char *)r + head + i * batch;
	r->digest = (uint8_t *)r + head + nbatches * batch;
	r->p = *parser;
	/* A clear-signed list's signed text alone, where asked. */
	fh_shapes_start(&r->text, &r->lines, fd, NULL, how->outside != NULL);
	r->hd = how->hashdeep;
	r->sfv = how->sfv;
	if (threaded) {
		pthread_mutex_init(&r->lock, NULL);
		pthread_cond_init(&r->cv, NULL);
		threaded = pthread_create(&tid, NULL, parse_main, r) == 0;
		if (!threaded) {
			pthread_mutex_destroy(&r->lock);
			pthread_cond_destroy(&r->cv);
		}
	}
	if (threaded) {
		take_threaded(r, how);
		pthread_join(tid, NULL);
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->cv);
	} else {
		bool more;

		do {
			more = parse_batch(r, &r->ring[0]);
			take_batch(&r->ring[0], how);
		} while (more);
	}
	int err = r->lines.err;

	if (how->outside)
		*how->outside = r->text.outside + r->text.late;
	if (how->nul_lines)
		*how->nul_lines = r->nul_lines;
	fh_shapes_free(&r->text);
	*parser = r->p;
	fh_lines_free(&r->lines);
	free(r);
	return err;
}
