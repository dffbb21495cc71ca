/* parts.c: --part-size: the value S3 shows for an object uploaded in
 * parts of that size (the engine's parts.c hashes them), written as a
 * line and checked by -c.  MD5's is the ETag, hex and "-N" (N parts);
 * the others' (SHA-1, SHA-256, CRC-32, CRC-32C: the algorithm table's
 * S3 column) the composite checksum, base64 and "-N".  A file smaller
 * than a part was one plain upload: its value alone, without "-N".
 * Files are hashed one after another, the parts of each on every thread
 * and in the kernels' lanes. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "engine/engine.h"
#include "engine/parts.h"
#include "lines.h"
#include "list/checklist.h"
#include "operands.h"
#include "parts.h"
#include "quote.h"

/* The longest value: base64 of a 64-byte digest, "-", 5 digits. */
#define VALUE_MAX (FH_BASE64_LEN(FH_MAX_DIGEST) + 8)

/* PATH's value into TEXT (VALUE_MAX bytes), its length into *LEN; an
 * errno value when it cannot be read. */
static int value_of(const struct cli *c, const char *path, char *text, size_t *len)
{
	bool in = strcmp(path, "-") == 0;
	int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	uint8_t d[FH_MAX_DIGEST];
	uint64_t nparts, total;
	struct stat st;
	int err;

	if (fd < 0)
		return errno;
	if (in)
		fh_stdin_read = true;
	if (fstat(fd, &st) != 0) {
		err = errno;
	} else if (S_ISDIR(st.st_mode)) {
		err = EISDIR;
	} else {
		err = fh_parts_hash(fd, S_ISREG(st.st_mode), (uint64_t)st.st_size, c->algo,
				    c->part_size, c->threads ? c->threads : fh_online_cpus(),
				    c->no_mmap, d, &nparts, &total);
	}
	if (!in)
		close(fd);
	if (err)
		return err;
	if (fh_algo_row(c->algo)->s3 == FH_S3_ETAG) {
		fh_hex(text, d, c->algo->digest_bytes);
		*len = 2 * c->algo->digest_bytes;
	} else {
		*len = fh_base64(text, d, c->algo->digest_bytes);
	}
	if (nparts)
		*len += (size_t)sprintf(text + *len, "-%" PRIu64, nparts);
	return 0;
}

static void report(const char *path, int err)
{
	if (err == EFBIG)
		fh_error(0, "%s: more than %d parts of that size (S3's limit)",
			 fh_quotef(path, strlen(path)), FH_PARTS_MAX);
	else
		fh_report_input_error(path, err);
}

bool fh_parts_generate(const struct cli *c, struct operands *ops)
{
	char text[VALUE_MAX], *line = NULL;
	size_t cap = 0;
	bool ok = true;
	const char *path;
	int err;

	while (fh_operands_next(ops, &path, &err)) {
		size_t len, namelen = strlen(path);

		if (!err)
			err = value_of(c, path, text, &len);
		if (err) {
			report(path, err);
			ok = false;
			continue;
		}
		if (fh_format_size(len, namelen) > cap) {
			free(line);
			cap = fh_format_size(len, namelen);
			line = fh_xmalloc(cap);
		}
		/* The value goes as it is: hex already in lower case. */
		fh_out_bytes(line, fh_format_line(line, c->algo, text, len, path, namelen,
						  FH_FMT_BASE64 | (c->tag ? FH_FMT_TAG : 0) |
						  (c->zero ? FH_FMT_ZERO : 0) |
						  (c->binary > 0 ? FH_FMT_BINARY : 0)));
		fh_out_end_line();
	}
	free(line);
	return ok;
}

/* Takes "-N" off the value of the list line LINE (*LEN bytes, changed in
 * place): at the end of a tagged line ("TAG (NAME) = VALUE-N"), else at
 * the end of the first word.  Returns N, or 0 when there is none. */
static uint64_t take_parts(char *line, size_t *len)
{
	size_t n = *len, ds, de;
	uint64_t parts = 0;

	if (n && line[n - 1] == '\r')
		n--;
	/* Tagged: the value ends the line, after ") = "; else the value is
	 * the first word.  DS..DE are N's digits, a '-' before them. */
	for (ds = n; ds > 0 && line[ds - 1] >= '0' && line[ds - 1] <= '9'; ds--)
		;
	de = n;
	if (!(ds < de && ds > 1 && line[ds - 1] == '-' && memmem(line, ds, ") = ", 4))) {
		de = strcspn(line, " \t");
		for (ds = de; ds > 0 && line[ds - 1] >= '0' && line[ds - 1] <= '9'; ds--)
			;
		if (ds == de || ds < 2 || line[ds - 1] != '-')
			return 0;
	}
	for (size_t i = ds; i < de; i++)
		parts = parts * 10 + (uint64_t)(line[i] - '0');
	memmove(line + ds - 1, line + de, *len - de);
	*len -= de - ds + 1;
	line[*len] = '\0';
	return parts;
}

struct tally {
	uintmax_t formatted, misformatted, unreadable, mismatched, matched;
};

/* One line of a list: its file's value against the line's. */
static void check_line(const struct cli *c, struct fh_list_parser *p, char *line,
		       size_t len, struct tally *t, const char *list, uintmax_t lineno)
{
	struct fh_list_line l;
	char want[VALUE_MAX + 24], got[VALUE_MAX], name[PATH_MAX + 1];
	uint64_t parts = take_parts(line, &len);
	size_t gotlen;
	int err;

	if (fh_list_parse(p, line, len, &l) != FH_LINE_OK) {
		if (line[0] != '#' && len) {
			t->misformatted++;
			if (c->warn)
				fh_error(0, "%s: %ju: improperly formatted %s checksum line",
					 fh_quotef(list, strlen(list)), lineno, c->algo->tag);
		}
		return;
	}
	t->formatted++;
	if (l.namelen > PATH_MAX) {
		t->misformatted++;
		return;
	}
	memcpy(name, l.name, l.namelen);
	name[l.namelen] = '\0';
	memcpy(want, l.digest, l.digestlen);
	gotlen = l.digestlen;
	if (parts)
		gotlen += (size_t)sprintf(want + gotlen, "-%" PRIu64, parts);
	err = value_of(c, name, got, &gotlen);
	if (err == ENOENT && c->ignore_missing)
		return;
	if (err) {
		t->unreadable++;
		report(name, err);
		if (!c->status_only)
			fh_out_status(name, l.namelen, "FAILED open or read", NULL, 0);
		return;
	}
	bool hex = fh_algo_row(c->algo)->s3 == FH_S3_ETAG;
	size_t wantlen = l.digestlen + (parts ? strlen(want + l.digestlen) : 0);
	bool match = gotlen == wantlen &&
		     (hex ? strncasecmp(got, want, wantlen) : memcmp(got, want, wantlen)) == 0;

	if (match) {
		t->matched++;
		if (!c->status_only && !c->quiet)
			fh_out_status(name, l.namelen, "OK", NULL, 0);
	} else {
		t->mismatched++;
		if (!c->status_only)
			fh_out_status(name, l.namelen, "FAILED", NULL, 0);
	}
}

bool fh_parts_check(const struct cli *c, struct operands *ops)
{
	struct fh_lines lines = { 0 };
	bool ok = true;
	const char *list;
	int err;

	while (fh_operands_next(ops, &list, &err)) {
		bool in = !err && strcmp(list, "-") == 0;
		int fd = err ? -1 : in ? STDIN_FILENO : open(list, O_RDONLY | O_CLOEXEC);
		struct fh_list_parser p;
		struct tally t = { 0 };
		uintmax_t lineno = 0;
		char *line;
		size_t len;
		enum fh_lines_status st;

		if (fd < 0) {
			fh_report_input_error(list, err ? err : errno);
			ok = false;
			continue;
		}
		fh_stdin_read |= in;
		if (!fh_lines_start(&lines, fd, FH_LIST_LINE_MAX, '\n'))
			fh_out_of_memory();
		fh_list_parser_init(&p, c->algo, NULL, 0);
		p.list_is_stdin = in;
		while ((st = fh_lines_next(&lines, &line, &len)) != FH_LINES_END) {
			lineno++;
			if (st == FH_LINES_TOO_LONG)
				t.misformatted++;
			else
				check_line(c, &p, line, len, &t, in ? "standard input" : list, lineno);
		}
		if (!in)
			close(fd);
		const char *q = fh_quotef(list, strlen(list));

		if (!t.formatted) {
			fh_error(0, "%s: no properly formatted checksum lines found", q);
			ok = false;
			continue;
		}
		if (!c->status_only) {
			if (t.misformatted)
				fh_error(0, "WARNING: %ju %s improperly formatted", t.misformatted,
					 t.misformatted == 1 ? "line is" : "lines are");
			if (t.unreadable)
				fh_error(0, "WARNING: %ju listed %s could not be read", t.unreadable,
					 t.unreadable == 1 ? "file" : "files");
			if (t.mismatched)
				fh_error(0, "WARNING: %ju computed %s did NOT match", t.mismatched,
					 t.mismatched == 1 ? "checksum" : "checksums");
			if (c->ignore_missing && !t.matched)
				fh_error(0, "%s: no file was verified", q);
		}
		ok &= t.matched && !t.mismatched && !t.unreadable &&
		      (!c->strict || !t.misformatted);
	}
	fh_lines_free(&lines);
	return ok;
}
