/* generate.c: generating checksum lines: the operands go through the
 * engine, and each comes back, in order, as a line or an error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "list/checklist.h"
#include "cli.h"
#include "engine/engine.h"
#include "kernel.h"
#include "list/manifest.h"
#include "operands.h"
#include "quote.h"
#include "settle.h"
#include "shapes.h"
#include "xxhsum.h"

struct gen {
	const struct cli *c;
	struct operands *ops;
	bool ok;
	uint64_t names;         /* names produced */
	/* The digest in hex or base64: 2n + 4 holds both for any n. */
	char text[2 * FH_MAX_XOF_BYTES + 4];
	char *line;
	size_t line_cap;
	/* --raw: the one digest, written at the end. */
	uint8_t *raw;
	size_t rawlen;
};

/* --meta: the file's metadata before its read, carried in its job. */
struct before {
	struct fh_meta meta;
	bool known;
};

/* A file that could not be hashed, as a --json object. */
static void json_failure(const struct cli *c, const char *path, int err)
{
	fh_record_put(c, &(struct fh_record){ .name = path, .namelen = strlen(path),
					      .algo = c->algo,
					      .status = "FAILED open or read", .err = err });
}

/* The error a walk or a names file met, carried in a marker job. */
struct walk_error {
	int err;
	char path[];
};

void fh_report_input_error(const char *path, int err)
{
	fh_progress_clear();
	/* A name too long to hold is described, not named: printed as it is. */
	fh_error(0, "%s: %s", err == FH_ENAMEFROM ? path : fh_quotef(path, strlen(path)),
		 fh_strerror(err));
}

static bool next(void *ctx, struct fh_job *job)
{
	struct gen *g = ctx;
	const char *path;
	int err;

	if (!fh_operands_next(g->ops, &path, &err))
		return false;
	/* --raw is for one input; with more operands it was refused at the
	 * start, a walk or a names file is refused at its second name,
	 * before any digest is written. */
	if (g->c->raw && ++g->names > 1) {
		fh_error(0, "the --raw option is not supported with multiple files");
		exit(EXIT_FAILURE);
	}
	if (err) {
		size_t n = strlen(path) + 1;
		struct walk_error *w = fh_xmalloc(sizeof *w + n);

		w->err = err;
		memcpy(w->path, path, n);
		job->user = w;
		return true;
	}
	job->path = path;
	if (strcmp(path, "-") == 0)
		fh_stdin_read = true;
	job->algo = g->c->algo;
	fh_job_kernels(g->c, job);
	job->outlen = g->c->outlen;
	if (g->c->meta) {
		struct before *b = fh_xmalloc(sizeof *b);

		b->known = fh_operands_meta(g->ops, path, &b->meta, NULL);
		job->user = b;
		job->track = true; /* the engine tells whether it held still */
	}
	if (fh_progress_enabled() && strcmp(path, "-") == 0) {
		/* Standard input has a total when it is a regular file: what
		 * is left of it from its offset. */
		struct stat st;
		off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);

		if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) && at >= 0) {
			job->size_hint = st.st_size > at ? (uint64_t)(st.st_size - at) : 0;
			job->sized = true;
		}
	} else if (fh_progress_enabled()) {
		struct fh_meta m;

		if (fh_operands_meta(g->ops, path, &m, NULL)) {
			job->size_hint = m.size;
			job->sized = true;
		}
	}
	return true;
}


/* GNU cksum 9.1's --debug line: once, when its CRC first reads a file
 * it opened, naming the code it picked (on x86-64 where PCLMULQDQ and
 * AVX are, its PCLMUL loop; elsewhere, without a word, a portable one).
 * The library's probe answers, not __builtin_cpu_supports, whose
 * run-time part the macOS cross build's linker lacks.
 * A file that could not be opened reads nothing: its errors are open's. */
static void cksum_debug(const struct fh_job *job)
{
	static bool said;
	int e = job->err;

	if (said || job->algo->id != FH_CRC || e == ENOENT || e == EACCES ||
	    e == EPERM || e == ENOTDIR || e == ELOOP || e == ENAMETOOLONG ||
	    e == EMFILE || e == ENFILE || e == ENXIO || e == ENODEV)
		return;
	said = true;
#if defined(__x86_64__)
	const uint32_t want = FH_CPU_X86_PCLMUL | FH_CPU_X86_AVX;

	fh_progress_clear();
	fh_error(0, "%s", (fh_cpu_features() & want) == want
			  ? "using pclmul hardware support"
			  : "pclmul support not detected");
#endif
}

static void done(void *ctx, struct fh_job *job)
{
	struct gen *g = ctx;
	const struct cli *c = g->c;

	if (c->cksum_debug && job->path)
		cksum_debug(job);

	if (!job->path) {
		struct walk_error *w = job->user;

		fh_report_input_error(w->path, w->err);
		if (c->json)
			json_failure(c, w->path, w->err);
		free(w);
		g->ok = false;
		return;
	}
	struct before *b = job->user;
	bool stable = false;

	if (b && !job->err) {
		/* The metadata is the file's only if it did not change while
		 * it was read: as it was at open, and as the engine found it
		 * once read. */
		struct fh_meta at_open = { .size = job->open_size, .sec = job->mtime_sec,
					   .nsec = job->mtime_nsec };

		stable = b->known && job->tracked && !job->torn &&
			 fh_meta_equal(&b->meta, &at_open);
		if (b->known && !stable) {
			/* Its digest is of no state the file was ever in:
			 * a list must not record it. */
			fh_progress_clear();
			fh_error(0, "%s: file changed while being read; not listed",
				 fh_quotef(job->path, strlen(job->path)));
			g->ok = false;
			free(b);
			return;
		}
	}
	if (job->err && fh_as_xxhsum) {
		fh_xxhsum_open_error(job->path, job->err, false);
		free(b);
		g->ok = false;
		return;
	}
	if (job->err == EISDIR && !c->recursive && !fh_gnu_as) {
		/* What to do about it, under fhsum's own name: a GNU name's
		 * message stays GNU's. */
		fh_progress_clear();
		fh_error(0, "%s: %s (use -r to hash the files under it)",
			 fh_quotef(job->path, strlen(job->path)), fh_strerror(EISDIR));
	} else if (job->err) {
		fh_report_input_error(job->path, job->err);
	}
	if (job->err) {
		if (c->json)
			json_failure(c, job->path, job->err);
		free(b);
		g->ok = false;
		return;
	}
	if (c->json) {
		fh_record_put(c, &(struct fh_record){
			.name = job->path, .namelen = strlen(job->path), .algo = job->algo,
			.digest = job->digest, .outlen = job->outlen, .sized = true,
			.size = job->size });
		free(b);
		return;
	}
	if (c->raw) {
		g->raw = fh_xmalloc(job->outlen);
		memcpy(g->raw, job->digest, job->outlen);
		g->rawlen = job->outlen;
		free(b);
		return;
	}
	size_t namelen = strlen(job->path);

	if (fh_as_xxhsum) {
		if (namelen + 64 + 2 * job->outlen > g->line_cap) {
			free(g->line);
			g->line_cap = namelen + 64 + 2 * job->outlen;
			g->line = fh_xmalloc(g->line_cap);
		}
		fh_progress_clear();
		fh_out_bytes(g->line, fh_xxhsum_line(g->line, job->algo, job->digest,
						     job->outlen, job->path, c->tag));
		fh_out_end_line();
		free(b);
		return;
	}
	if (c->sfv) {
		/* "NAME CRC32": the name as it is, the CRC in upper case;
		 * standard input is "(stdin)", as RHash names it. */
		const char *name = strcmp(job->path, "-") == 0 ? "(stdin)" : job->path;

		namelen = strlen(name);
		if (!fh_shapes_sfv_name_ok(name, namelen)) {
			fh_progress_clear();
			fh_error(0, "%s: an SFV list has no way to write this name; not listed",
				 fh_quotef(name, namelen));
			g->ok = false;
			free(b);
			return;
		}
		if (namelen + 10 > g->line_cap) {
			free(g->line);
			g->line_cap = namelen + 10;
			g->line = fh_xmalloc(g->line_cap);
		}
		fh_progress_clear();
		fh_out_bytes(g->line, fh_shapes_sfv_format(g->line, name, namelen, job->digest,
							   job->outlen));
		fh_out_end_line();
		free(b);
		return;
	}
	/* cksum's and sum's lines, unless the digest is asked for in base64
	 * (a CRC as S3 shows it). */
	bool form = fh_algo_row(job->algo)->form != FH_FORM_DIGEST && !c->base64;
	size_t textlen = c->base64 ? fh_base64(g->text, job->digest, job->outlen)
				   : 2 * job->outlen;
	size_t need = fh_format_size(textlen, namelen);

	if (need > g->line_cap) {
		free(g->line);
		g->line = fh_xmalloc(need);
		g->line_cap = need;
	}
	int flags = (c->tag ? FH_FMT_TAG : 0) | (c->binary > 0 ? FH_FMT_BINARY : 0) |
		    (c->zero ? FH_FMT_ZERO : 0) | (c->base64 ? FH_FMT_BASE64 : 0) |
		    (c->no_names ? FH_FMT_NO_NAME : 0);

	if (!c->base64)
		fh_hex(g->text, job->digest, job->outlen);
	fh_progress_clear();
	if (stable) {
		char m[FH_META_MAX];

		/* An untagged line whose length another algorithm shares says
		 * which it is, so that no later reader has to settle it. */
		if (!(flags & FH_FMT_TAG) && fh_algo_untagged_as(job->algo, job->outlen) &&
		    fh_settle_algos(job->outlen, NULL) > 1)
			b->meta.algo = job->algo;
		fh_out_bytes(m, fh_meta_format(m, &b->meta));
	}
	free(b);
	if (form)
		/* As GNU, the name only of a named operand. */
		fh_out_bytes(g->line, fh_format_form(g->line, job->algo, job->digest,
						     job->size, job->path, namelen,
						     flags | (c->unnamed ? FH_FMT_NO_NAME : 0)));
	else
		fh_out_bytes(g->line, fh_format_line(g->line, job->algo, g->text,
						     textlen, job->path, namelen,
						     flags));
	fh_out_end_line();
}

/* An SFV list's head, as RHash writes it: who wrote it and when, then a
 * comment per file operand, its size and local modification time. */
static void sfv_head(const struct operands *ops)
{
	char when[64], line[96];
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, sizeof when, "on %Y-%m-%d at %H:%M.%S",
		 localtime_r(&now, &tm));
	snprintf(line, sizeof line, "; Generated by fhsum v%s %s", FHSUM_VERSION, when);
	fh_out_str(line);
	fh_out_str("\n;\n");
	fh_out_end_line();
	for (int i = 0; i < ops->argc; i++) {
		struct stat st;
		time_t mtime;

		if (stat(ops->argv[i], &st) != 0 || !S_ISREG(st.st_mode) ||
		    !fh_shapes_sfv_name_ok(ops->argv[i], strlen(ops->argv[i])))
			continue;
		mtime = st.st_mtime;
		strftime(when, sizeof when, "%H:%M.%S %Y-%m-%d", localtime_r(&mtime, &tm));
		snprintf(line, sizeof line, ";%13llu  %s ",
			 (unsigned long long)st.st_size, when);
		fh_out_str(line);
		fh_out_bytes(ops->argv[i], strlen(ops->argv[i]));
		fh_out_str("\n");
		fh_out_end_line();
	}
}

bool fh_generate(const struct cli *c, struct operands *ops)
{
	struct gen *g = fh_xcalloc(1, sizeof *g);
	struct fh_engine_opts eo;
	int err;

	g->c = c;
	g->ops = ops;
	g->ok = true;
	fh_engine_opts_for(c, &eo);
	/* The walk stats ahead, on its threads, only what is asked. */
	ops->want_meta = c->meta || fh_progress_enabled();
	if (c->sfv)
		sfv_head(ops);
	err = fh_engine_run(&eo, next, done, g);
	if (err) {
		fh_error(err, "%s", "cannot start");
		exit(EXIT_FAILURE);
	}
	bool ok = g->ok;

	/* The bytes alone: no name, no line end (cksum --raw, b3sum --raw). */
	if (g->raw) {
		fh_progress_clear();
		fh_out_bytes(g->raw, g->rawlen);
		fh_out_end_line();
		free(g->raw);
	}
	free(g->line);
	free(g);
	return ok;
}
