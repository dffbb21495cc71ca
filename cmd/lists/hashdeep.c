/* hashdeep.c: hashdeep's lists (hashdeep.h): the header, the columns
 * and the rows, read as hashdeep 4.4 reads them (its hashlist.cpp), save
 * for the name, which runs to the end of the line whatever commas it
 * holds, where hashdeep takes the last comma's field; and the rows that
 * --update appends, as hashdeep writes them. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hashdeep.h"
#include "quote.h"

#define HEADER "%%%% HASHDEEP-1.0"
#define COLUMNS "%%%% size,"

/* hashdeep's names of the algorithms fhsum has; its others (tiger,
 * whirlpool) fhsum lacks. */
static const char *const known[] = { "md5", "sha1", "sha256" };

void fh_hashdeep_init(struct fh_hashdeep *h, const struct cli *c)
{
	memset(h, 0, sizeof *h);
	h->c = c;
}

/* LEN without a trailing '\r' (hashdeep's chop_line). */
static size_t chop(const char *line, size_t len)
{
	return len && line[len - 1] == '\r' ? len - 1 : len;
}

bool fh_hashdeep_starts(const char *line, size_t len)
{
	len = chop(line, len);
	return !fh_gnu_as && len == sizeof HEADER - 1 && memcmp(line, HEADER, len) == 0;
}

/* The known algorithm hashdeep calls NAME (LEN bytes, any case), or NULL. */
static const struct fh_algo *algo_named(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (strlen(known[i]) == len && strncasecmp(name, known[i], len) == 0)
			return fh_algo_by_name(known[i]);
	return NULL;
}

/* The columns line's list after "%%%% size,": "md5,sha256,filename".
 * False when it is not one hashdeep writes (no columns, too many, an
 * empty name, a last column other than the name). */
static bool set_columns(struct fh_hashdeep *h, const char *s, size_t len)
{
	const char *end = s + len;

	h->ncols = h->nknown = h->nunsupported = h->outlen = 0;
	h->rowlen = 8;
	h->cand.n = 0;
	for (;;) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		size_t n = comma ? (size_t)(comma - s) : (size_t)(end - s);

		if (!comma)
			return n == 8 && strncasecmp(s, "filename", 8) == 0 && h->ncols;
		if (!n || h->ncols == FH_HASHDEEP_COLS)
			return false;
		const struct fh_algo *a = algo_named(s, n);
		size_t i = h->ncols++;

		h->algo[i] = a;
		snprintf(h->colname[i], sizeof h->colname[i], "%.*s", (int)n, s);
		if (!a) {
			h->nunsupported++;
		} else if (h->nknown < FH_CAND_MAX) {
			struct fh_job job = { .algo = a };

			fh_job_kernels(h->c, &job);
			h->cand.algo[h->nknown] = a;
			h->cand.kernel[h->nknown] = job.kernel;
			h->nknown++;
			h->rowlen += a->digest_bytes;
			if (a->digest_bytes > h->outlen)
				h->outlen = a->digest_bytes;
		} else {
			return false; /* more known columns than one read hashes */
		}
		s = comma + 1;
	}
}

/* A "%%%% size,..." line: the columns, or a repeat of them. */
static enum fh_line_kind columns_line(struct fh_hashdeep *h, const char *line, size_t len)
{
	if (h->columns)
		return len == h->linelen && memcmp(line, h->line, len) == 0 ? FH_LINE_SKIP
									     : FH_LINE_BAD;
	if (len > sizeof h->line ||
	    !set_columns(h, line + sizeof COLUMNS - 1, len - (sizeof COLUMNS - 1))) {
		h->ncols = h->nknown = h->nunsupported = 0;
		return FH_LINE_BAD;
	}
	h->cand.n = h->nknown;
	for (size_t i = 0; i < FH_CAND_MAX; i++)
		h->cand.order[i] = (uint8_t)i;
	atomic_init(&h->cand.verdict, NULL);
	memcpy(h->line, line, len);
	h->linelen = len;
	h->columns = true;
	return FH_LINE_SKIP;
}

/* Reads the decimal size at *S (before END) and the comma after it. */
static bool read_size(const char **s, const char *end, uint64_t *size)
{
	const char *p = *s;
	uint64_t v = 0;

	if (p == end || *p < '0' || *p > '9')
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == end || *p != ',')
		return false;
	*size = v;
	*s = p + 1;
	return true;
}

static void put_size(uint8_t *out, uint64_t size)
{
	for (int i = 7; i >= 0; i--, size >>= 8)
		out[i] = (uint8_t)size;
}

uint64_t fh_hashdeep_size(const struct fh_hashdeep *h, const uint8_t *row)
{
	uint64_t v = 0;

	for (size_t i = h->rowlen - 8; i < h->rowlen; i++)
		v = v << 8 | row[i];
	return v;
}

enum fh_line_kind fh_hashdeep_parse(struct fh_hashdeep *h, char *line, size_t len,
				    struct fh_list_line *out)
{
	uint8_t *row = h->row;
	const char *s = line, *end;
	uint64_t size;
	size_t at = 0;

	len = chop(line, len);
	end = line + len;
	if (!len || line[0] == '#' || (len == sizeof HEADER - 1 && memcmp(line, HEADER, len) == 0))
		return FH_LINE_SKIP;
	if (len >= sizeof COLUMNS - 1 && strncasecmp(line, COLUMNS, sizeof COLUMNS - 1) == 0)
		return columns_line(h, line, len);
	if (!h->nknown || !read_size(&s, end, &size))
		return FH_LINE_BAD;
	for (size_t i = 0; i < h->ncols; i++) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		size_t n = comma ? (size_t)(comma - s) : 0;

		if (!comma || !n)
			return FH_LINE_BAD;
		if (h->algo[i]) {
			if (n != 2 * h->algo[i]->digest_bytes || !fh_unhex(row + at, s, n))
				return FH_LINE_BAD;
			at += h->algo[i]->digest_bytes;
		} else {
			/* A column fhsum lacks: hex digits, left unchecked. */
			uint8_t b;

			for (size_t k = 0; k < n; k += 2)
				if (!fh_unhex(&b, s + k, n - k == 1 ? 1 : 2))
					return FH_LINE_BAD;
		}
		s = comma + 1;
	}
	if (!fh_hashdeep_name_ok(s, (size_t)(end - s)))
		return FH_LINE_BAD;
	put_size(row + at, size);
	line[len] = '\0';
	*out = (struct fh_list_line){
		.algo = h->cand.algo[0], .outlen = h->rowlen,
		.name = s, .namelen = (size_t)(end - s),
	};
	return FH_LINE_OK;
}

bool fh_hashdeep_name_ok(const char *name, size_t len)
{
	return len && !(len == 1 && name[0] == '-') && !memchr(name, '\n', len) &&
	       name[len - 1] != '\r';
}

void fh_hashdeep_job(struct fh_hashdeep *h, struct fh_job *job)
{
	job->algo = h->cand.algo[0];
	job->cand = NULL;
	if (h->nknown > 1) {
		job->cand = &h->cand;
		job->outlen = h->outlen;
	} else {
		job->outlen = job->algo->digest_bytes;
	}
	fh_job_kernels(h->c, job);
}

size_t fh_hashdeep_row(const struct fh_hashdeep *h, const struct fh_job *job,
		       uint8_t *row)
{
	size_t at = 0;

	/* Each column's digest lies JOB->outlen bytes after the one before. */
	for (size_t i = 0; i < h->nknown; i++) {
		size_t n = h->cand.algo[i]->digest_bytes;

		memcpy(row + at, job->digest + i * job->outlen, n);
		at += n;
	}
	put_size(row + at, job->size);
	return h->rowlen;
}

const struct fh_job *fh_hashdeep_as_row(const struct fh_hashdeep *h,
					const struct fh_job *job,
					struct fh_job *as, uint8_t *row)
{
	if (!h->on || !job->path || job->err)
		return job;
	*as = *job;
	as->outlen = fh_hashdeep_row(h, job, row);
	as->digest = row;
	as->algo = h->cand.algo[0];
	as->cand = NULL;
	as->chosen = -1;
	return as;
}

size_t fh_hashdeep_format_size(const struct fh_hashdeep *h, size_t len)
{
	return 21 + 2 * (h->rowlen - 8) + h->ncols + len + 1;
}

size_t fh_hashdeep_format(const struct fh_hashdeep *h, const uint8_t *row,
			  const char *name, size_t len, char *out)
{
	size_t n = (size_t)sprintf(out, "%llu",
				   (unsigned long long)fh_hashdeep_size(h, row));

	for (size_t i = 0, at = 0; i < h->ncols; i++) {
		size_t d = h->algo[i]->digest_bytes;

		out[n++] = ',';
		fh_hex(out + n, row + at, d);
		n += 2 * d;
		at += d;
	}
	out[n++] = ',';
	memcpy(out + n, name, len);
	n += len;
	out[n++] = '\n';
	return n;
}

void fh_hashdeep_say_unsupported(const struct fh_hashdeep *h, const char *list)
{
	for (size_t i = 0; i < h->ncols; i++)
		if (!h->algo[i])
			fh_error(0, "%s: %s: unsupported algorithm; its column is not checked",
				 fh_quotef(list, strlen(list)),
				 fh_quotef(h->colname[i], strlen(h->colname[i])));
}
