/* b3sum.c: fhsum invoked as b3sum, BLAKE3's own program (b3sum 1.2.0 as
 * Debian ships it): its options, output and messages, its check format
 * (HEX, two spaces, a name; a leading '\' when the name holds '\' or a
 * newline), over fhsum's engine, so that --num-threads is -j and
 * --no-mmap reads every file.  Not GNU: none of md5sum's options.  One
 * later addition is here too: --tag, BSD-style lines "BLAKE3 (NAME) =
 * HEX", written and read back by -c as b3sum 1.7 writes and reads them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "engine/engine.h"
#include "kernel.h"
#include "kernel_set.h"

struct b3 {
	bool check, keyed, no_mmap, no_names, raw, quiet, tag;
	const char *derive, *length, *threads;
	char **files;
	int nfiles;
	struct fh_hash_params key;
	uint8_t keybytes[32];
	const struct fh_algo *algo;
	const struct fh_kernel_set *kernels;
	size_t outlen;          /* the digest hashed: 32, or --length past it */
	/* The run. */
	bool failed;
	int at;                 /* the next operand */
	FILE *list;             /* -c: the checkfile being read */
	char *line;
	size_t line_cap;
	char *fatal;            /* -c: a checkfile that could not be read */
};

/* clap's usage error, as b3sum 1.2.0 prints it. */
static void clap_error(const char *what, const char *usage)
{
	fh_out_flush();
	fprintf(stderr, "error: %s\n\nUSAGE:\n    %s\n\nFor more information try --help\n",
		what, usage);
	exit(EXIT_FAILURE);
}

/* anyhow's report of an error that ends the run: "Error: ...". */
static void fail(const char *msg, const char *cause)
{
	fh_out_flush();
	fprintf(stderr, "Error: %s\n", msg);
	if (cause)
		fprintf(stderr, "\nCaused by:\n    %s\n", cause);
	exit(EXIT_FAILURE);
}

/* Rust's io::Error text: "No such file or directory (os error 2)". */
static void os_error(char *buf, size_t n, int err)
{
	snprintf(buf, n, "%s (os error %d)", strerror(err), err);
}

static void usage(void)
{
	printf("b3sum 1.2.0\n\n"
	       "USAGE:\n    b3sum [FLAGS] [OPTIONS] [FILE]...\n\n"
	       "FLAGS:\n"
	       "    -c, --check       Reads BLAKE3 sums from the [file]s and checks them\n"
	       "    -h, --help        Prints help information\n"
	       "        --keyed       Uses the keyed mode. The secret key is read from standard\n"
	       "                      input, and it must be exactly 32 raw bytes.\n"
	       "        --no-mmap     Disables memory mapping. Currently this also disables\n"
	       "                      multithreading.\n"
	       "        --no-names    Omits filenames in the output\n"
	       "        --quiet       Skips printing OK for each successfully verified file.\n"
	       "                      Must be used with --check.\n"
	       "        --raw         Writes raw output bytes to stdout, rather than hex.\n"
	       "                      --no-names is implied. In this case, only a single\n"
	       "                      input is allowed.\n"
	       "        --tag         Output BSD-style checksums: BLAKE3 ([FILE]) = [HASH]\n"
	       "    -V, --version     Prints version information\n\n"
	       "OPTIONS:\n"
	       "        --derive-key <CONTEXT>    Uses the key derivation mode, with the given\n"
	       "                                  context string. Cannot be used with --keyed.\n"
	       "    -l, --length <LEN>            The number of output bytes, prior to hex\n"
	       "                                  encoding (default 32)\n"
	       "        --num-threads <NUM>       The maximum number of threads to use. By\n"
	       "                                  default, this is the number of logical cores.\n"
	       "                                  If this flag is omitted, or if its value is 0,\n"
	       "                                  RAYON_NUM_THREADS is also respected.\n\n"
	       "ARGS:\n"
	       "    <FILE>...    Files to hash, or checkfiles to check. When no file is given,\n"
	       "                 or when - is given, read standard input.\n");
	exit(EXIT_SUCCESS);
}

/* b3sum 1.2.0's arguments as its clap 2 parser knows them, in the order a
 * usage line lists them. */
enum { A_CHECK, A_DERIVE, A_KEYED, A_LENGTH, A_NO_MMAP, A_NO_NAMES, A_THREADS,
       A_QUIET, A_RAW, A_TAG, A_N };

static const struct {
	const char *shown;      /* as clap's messages name it */
	const char *name;       /* the long option */
	bool value;
} args[A_N] = {
	{ "--check", "--check", false },
	{ "--derive-key <CONTEXT>", "--derive-key", true },
	{ "--keyed", "--keyed", false },
	{ "--length <LEN>", "--length", true },
	{ "--no-mmap", "--no-mmap", false },
	{ "--no-names", "--no-names", false },
	{ "--num-threads <NUM>", "--num-threads", true },
	{ "--quiet", "--quiet", false },
	{ "--raw", "--raw", false },
	{ "--tag", "--tag", false },
};

/* What clap has matched so far. */
struct matched {
	int count[A_N];
	const char *val[A_N];
	int order[A_N], norder;  /* first appearances */
};

/* clap's usage line for an error: the arguments matched (and those they
 * require), or the generic line when none was. */
static void clap_fail(const struct matched *m, const char *what)
{
	char use[256] = "b3sum";
	bool any = m->norder > 0;

	if (!any)
		strcat(use, " [FLAGS] [OPTIONS] [FILE]...");
	if (m->count[A_KEYED])
		strcat(use, " <FILE>...");
	for (int i = 0; any && i < A_N; i++)
		if (m->count[i] || (i == A_CHECK && m->count[A_QUIET])) {
			strcat(use, " ");
			strcat(use, args[i].shown);
		}
	clap_error(what, use);
}

static void clap_fail2(const struct matched *m, const char *fmt, const char *a,
		       const char *b)
{
	/* A's whole length: an argument of any size is named in full. */
	size_t n = (size_t)snprintf(NULL, 0, fmt, a, b) + 1;
	char *what = fh_xmalloc(n);

	snprintf(what, n, fmt, a, b);
	clap_fail(m, what);
}

static void take(struct matched *m, int i, const char *val)
{
	if (!m->count[i]++)
		m->order[m->norder++] = i;
	if (val)
		m->val[i] = val;
}

/* clap 2's rules: an option's value is the rest of "--name=VALUE" or
 * "-lVALUE" ("-l=VALUE"), else the next word unless that starts with '-'
 * (and is not "-" alone); a flag's "=VALUE" is ignored; short flags
 * cluster ("-cl 3"); -h and -V act where they are met.  Misuse is found
 * after the whole line is read (validate). */
static void parse(struct b3 *b, struct matched *m, int argc, char **argv)
{
	bool options = true;
	int pending = -1;       /* an option still waiting for its value */

	b->files = fh_xcalloc((size_t)argc + 1, sizeof *b->files);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (pending >= 0) {
			int p = pending;

			pending = -1;
			if (a[0] != '-' || !a[1]) {
				m->val[p] = a;
				continue;
			}
		}
		if (!options || a[0] != '-' || !a[1]) {
			b->files[b->nfiles++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			options = false;
			continue;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a, '=');
			size_t n = eq ? (size_t)(eq - a) : strlen(a);
			int k = -1;

			for (int j = 0; j < A_N && k < 0; j++)
				if (strlen(args[j].name) == n && strncmp(a, args[j].name, n) == 0)
					k = j;
			if (k < 0 && n == 6 && strncmp(a, "--help", 6) == 0)
				usage();
			if (k < 0 && n == 9 && strncmp(a, "--version", 9) == 0) {
				printf("b3sum 1.2.0\n");
				exit(EXIT_SUCCESS);
			}
			if (k < 0)
				clap_fail2(m, "Found argument '%s' which wasn't expected, or "
					   "isn't valid in this context", a, NULL);
			take(m, k, args[k].value && eq ? eq + 1 : NULL);
			if (args[k].value && !eq)
				pending = k;
			continue;
		}
		for (const char *c = a + 1; *c; c++) {
			if (*c == 'h')
				usage();
			if (*c == 'V') {
				printf("b3sum 1.2.0\n");
				exit(EXIT_SUCCESS);
			}
			if (*c == 'c') {
				take(m, A_CHECK, NULL);
				continue;
			}
			if (*c == 'l') {
				const char *rest = c[1] == '=' ? c + 2 : c[1] ? c + 1 : NULL;

				take(m, A_LENGTH, rest);
				if (!rest)
					pending = A_LENGTH;
				break;
			}
			char bad[3] = { '-', *c, 0 };

			clap_fail2(m, "Found argument '%s' which wasn't expected, or "
				   "isn't valid in this context", bad, NULL);
		}
	}
	/* An option at the end with no value is clap's first complaint. */
	if (pending >= 0)
		clap_fail2(m, "The argument '%s' requires a value but none was supplied",
			   args[pending].shown, NULL);
}

/* clap's checks after the parse, in its order: conflicts, required
 * arguments, then each argument matched (a missing value, a repeat).
 * Where several apply, clap 2 picks among them at random (its matches
 * are a hash map); this takes the first in a fixed order, which is one
 * of b3sum's answers. */
static void validate(struct b3 *b, const struct matched *m)
{
	static const int unlike_check[] = { A_DERIVE, A_KEYED, A_LENGTH, A_RAW,
					    A_NO_NAMES, A_TAG };

	if (m->count[A_CHECK])
		for (size_t i = 0; i < sizeof unlike_check / sizeof *unlike_check; i++)
			if (m->count[unlike_check[i]])
				clap_fail2(m, "The argument '%s' cannot be used with '%s'",
					   args[unlike_check[i]].shown, "--check");
	if (m->count[A_KEYED] && m->count[A_DERIVE])
		clap_fail2(m, "The argument '%s' cannot be used with '%s'", "--keyed",
			   args[A_DERIVE].shown);
	if (m->count[A_QUIET] && !m->count[A_CHECK])
		clap_fail(m, "The following required arguments were not provided:\n    --check");
	if (m->count[A_KEYED] && !b->nfiles)
		clap_fail(m, "The following required arguments were not provided:\n    <FILE>...");
	for (int j = 0; j < m->norder; j++) {
		int i = m->order[j];

		if (args[i].value && !m->val[i])
			clap_fail2(m, "The argument '%s' requires a value but none was supplied",
				   args[i].shown, NULL);
		if (m->count[i] > 1)
			clap_fail2(m, "The argument '%s' was provided more than once, but "
				   "cannot be used multiple times", args[i].shown, NULL);
	}
	b->check = m->count[A_CHECK];
	b->keyed = m->count[A_KEYED];
	b->no_mmap = m->count[A_NO_MMAP];
	b->no_names = m->count[A_NO_NAMES];
	b->raw = m->count[A_RAW];
	b->quiet = m->count[A_QUIET];
	b->tag = m->count[A_TAG];
	b->derive = m->val[A_DERIVE];
	b->length = m->val[A_LENGTH];
	b->threads = m->val[A_THREADS];
}

/* b3sum's own checks after clap's (Args::parse). */
static void check_args(struct b3 *b)
{
	if (!b->nfiles) {
		/* FILES has room for argc + 1 names. */
		b->files[0] = (char *)"-";
		b->nfiles = 1;
	}
	if (b->raw && b->nfiles > 1)
		fail("Only one filename can be provided when using --raw", NULL);
	if (b->keyed) {
		uint8_t buf[33];
		size_t got = 0;
		ssize_t r;

		while (got < sizeof buf &&
		       ((r = read(STDIN_FILENO, buf + got, sizeof buf - got)) > 0 ||
			(r < 0 && errno == EINTR)))
			got += r > 0 ? (size_t)r : 0;
		if (got > 32)
			fail("read more than 32 key bytes from stdin", NULL);
		if (got < 32) {
			char msg[64];

			snprintf(msg, sizeof msg, "expected 32 key bytes from stdin, found %zu", got);
			fail(msg, NULL);
		}
		memcpy(b->keybytes, buf, 32);
		b->key = (struct fh_hash_params){ 0, FH_KEY_KEYED, b->keybytes, 32 };
	} else if (b->derive) {
		b->key = (struct fh_hash_params){ 0, FH_KEY_DERIVE,
						  (const uint8_t *)b->derive,
						  strlen(b->derive) };
	}
}

/* Rust's u64/usize parse: digits, a '+' before them allowed. */
static bool parse_u64(const char *s, uint64_t *v, const char **why)
{
	const char *d = s[0] == '+' ? s + 1 : s;
	uint64_t n = 0;

	*why = "invalid digit found in string";
	if (!*s) {
		*why = "cannot parse integer from empty string";
		return false;
	}
	if (!*d)
		return false;
	for (; *d; d++) {
		if (*d < '0' || *d > '9')
			return false;
		if (n > (UINT64_MAX - (uint64_t)(*d - '0')) / 10) {
			*why = "number too large to fit in target type";
			return false;
		}
		n = n * 10 + (uint64_t)(*d - '0');
	}
	*v = n;
	return true;
}

/* What one input or one checkfile line comes back with. */
struct item {
	char *shown;            /* -c: the name as the line gave it */
	char *error;            /* a line that could not be parsed */
	uint8_t expect[32];
};

static void set_job(struct b3 *b, struct fh_job *job, const char *path,
		    size_t outlen)
{
	job->path = path;
	job->algo = b->algo;
	job->kernel = b->kernels->by_family[b->algo->family];
	job->outlen = outlen;
	job->key = b->key.keying == FH_KEY_NONE ? NULL : &b->key;
	if (strcmp(path, "-") == 0)
		fh_stdin_read = true;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The name of a check line, N bytes at NAME (unescaped in place when
 * ESCAPED), into *PATH; NULL, or the error's text. */
static const char *take_name(char *name, size_t n, bool escaped, struct item *it,
			     char **path)
{
	it->shown = fh_xmalloc(n + 2);
	memcpy(it->shown, "\\", escaped);
	memcpy(it->shown + escaped, name, n);
	it->shown[n + escaped] = '\0';
	if (escaped) {
		size_t d = 0;

		for (size_t i = 0; i < n; i++) {
			if (name[i] != '\\') {
				name[d++] = name[i];
				continue;
			}
			if (i + 1 == n || (name[i + 1] != 'n' && name[i + 1] != '\\'))
				return "Invalid backslash escape";
			name[d++] = name[++i] == 'n' ? '\n' : '\\';
		}
		n = d;
	}
	if (memchr(name, '\0', n))
		return "Null character in path";
	name[n] = '\0';
	if (strstr(name, "\xef\xbf\xbd"))
		return "Unicode replacement character in path";
	*path = name;
	return NULL;
}

/* parse_check_line of b3sum 1.2.0: NULL, or the error's text. */
static const char *parse_line(char *line, size_t len, struct item *it, char **path)
{
	bool escaped = false;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	if (!len)
		return "Empty line";
	if (line[0] == '\\') {
		escaped = true;
		line++;
		len--;
	}
	/* A tagged line, "BLAKE3 (NAME) = HEX": the name runs to the last
	 * ") = ". */
	if (len > 8 && memcmp(line, "BLAKE3 (", 8) == 0) {
		char *close = NULL;

		for (char *q = line + 8; (q = strstr(q, ") = ")) != NULL; q++)
			close = q;
		if (close) {
			size_t hexlen = len - (size_t)(close + 4 - line);
			char *hex = close + 4;

			if (hexlen != 64)
				return "Invalid hash length";
			for (int i = 0; i < 32; i++) {
				int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

				if (hi < 0 || lo < 0)
					return "Invalid hex character";
				it->expect[i] = (uint8_t)(hi << 4 | lo);
			}
			return take_name(line + 8, (size_t)(close - line - 8), escaped, it, path);
		}
	}
	if (len <= 66)
		return "Short line";
	for (int i = 0; i < 66; i++)
		if ((unsigned char)line[i] >= 0x80)
			return "Non-ASCII prefix";
	if (line[64] != ' ' || line[65] != ' ')
		return "Invalid space";
	for (int i = 0; i < 32; i++) {
		int hi = hex_digit(line[2 * i]), lo = hex_digit(line[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return "Invalid hex";
		it->expect[i] = (uint8_t)(hi << 4 | lo);
	}
	return take_name(line + 66, len - 66, escaped, it, path);
}

/* Rust's str::from_utf8, fed in pieces: false at the first byte that
 * cannot go on a well-formed sequence; NEED continuation bytes in LO..HI
 * still owed (0 at a valid end). */
struct utf8 {
	int need;
	unsigned char lo, hi;
};

static bool utf8_feed(struct utf8 *u, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (u->need) {
			if (c < u->lo || c > u->hi)
				return false;
			u->lo = 0x80;
			u->hi = 0xbf;
			u->need--;
			continue;
		}
		if (c < 0x80)
			continue;
		u->lo = 0x80;
		u->hi = 0xbf;
		if (c >= 0xc2 && c <= 0xdf) {
			u->need = 1;
		} else if (c >= 0xe0 && c <= 0xef) {
			u->need = 2;
			u->lo = c == 0xe0 ? 0xa0 : 0x80;  /* no overlong form */
			u->hi = c == 0xed ? 0x9f : 0xbf;  /* no surrogate */
		} else if (c >= 0xf0 && c <= 0xf4) {
			u->need = 3;
			u->lo = c == 0xf0 ? 0x90 : 0x80;
			u->hi = c == 0xf4 ? 0x8f : 0xbf;  /* up to U+10FFFF */
		} else {
			return false;
		}
	}
	return true;
}

static bool next(void *ctx, struct fh_job *job)
{
	struct b3 *b = ctx;

	if (!b->check) {
		if (b->at == b->nfiles)
			return false;
		const char *path = b->files[b->at++];
		struct item *it = fh_xcalloc(1, sizeof *it);

		job->user = it;
		if (b->keyed && strcmp(path, "-") == 0) {
			it->shown = fh_xstrdup(path);
			it->error = fh_xstrdup("Cannot open `-` in keyed mode");
			return true;
		}
		set_job(b, job, path, b->outlen);
		return true;
	}
	for (;;) {
		if (!b->list) {
			if (b->at == b->nfiles)
				return false;
			const char *name = b->files[b->at++];

			if (strcmp(name, "-") == 0) {
				fh_stdin_read = true;
				b->list = stdin;
			} else if (!(b->list = fopen(name, "r"))) {
				char msg[256];

				os_error(msg, sizeof msg, errno);
				b->fatal = fh_xstrdup(msg);
				return false;
			}
		}
		errno = 0;
		ssize_t n = getline(&b->line, &b->line_cap, b->list);

		if (n < 0) {
			int err = ferror(b->list) ? errno : 0;

			if (b->list != stdin)
				fclose(b->list);
			b->list = NULL;
			if (err) {
				char msg[256];

				os_error(msg, sizeof msg, err);
				b->fatal = fh_xstrdup(msg);
				return false;
			}
			continue;
		}
		/* b3sum reads each line into a Rust string: one that is not
		 * UTF-8 ends the run there. */
		struct utf8 u = { 0 };

		if (!utf8_feed(&u, (const unsigned char *)b->line, (size_t)n) || u.need) {
			b->fatal = fh_xstrdup("stream did not contain valid UTF-8");
			return false;
		}
		struct item *it = fh_xcalloc(1, sizeof *it);
		char *path = NULL;
		const char *why = parse_line(b->line, (size_t)n, it, &path);

		job->user = it;
		if (why)
			it->error = fh_xstrdup(why);
		else
			set_job(b, job, path, 32);
		return true;
	}
}

/* PATH as b3sum writes it: '\\' and newline escaped when ESC. */
static void out_name(const char *path, bool esc)
{
	for (const char *p = path; *p; p++)
		fh_out_str(*p == '\\' && esc ? "\\\\"
			   : *p == '\n' ? "\\n"
			   : (char[]){ *p, 0 });
}

static void done(void *ctx, struct fh_job *job)
{
	struct b3 *b = ctx;
	struct item *it = job->user;
	char msg[256];

	if (b->check) {
		if (it->error) {
			fh_out_flush();
			fprintf(stderr, "b3sum: %s\n", it->error);
			b->failed = true;
		} else if (job->err) {
			os_error(msg, sizeof msg, job->err);
			fh_out_str(it->shown);
			fh_out_str(": FAILED (");
			fh_out_str(msg);
			fh_out_str(")\n");
			fh_out_end_line();
			b->failed = true;
		} else if (memcmp(job->digest, it->expect, 32) != 0) {
			fh_out_str(it->shown);
			fh_out_str(": FAILED\n");
			fh_out_end_line();
			b->failed = true;
		} else if (!b->quiet) {
			fh_out_str(it->shown);
			fh_out_str(": OK\n");
			fh_out_end_line();
		}
	} else {
		const char *path = job->path ? job->path : it->shown;
		uint64_t len = 32;
		const char *why;

		if (job->err)
			os_error(msg, sizeof msg, job->err);
		else if (it->error)
			snprintf(msg, sizeof msg, "%s", it->error);
		else if (b->length && !parse_u64(b->length, &len, &why))
			snprintf(msg, sizeof msg, "Failed to parse length.");
		else if (len > FH_MAX_XOF_BYTES)
			snprintf(msg, sizeof msg, "length beyond %u bytes is not supported",
				 FH_MAX_XOF_BYTES);
		else
			msg[0] = '\0';
		if (msg[0]) {
			fh_out_flush();
			fprintf(stderr, "b3sum: %s: %s\n", path, msg);
			b->failed = true;
		} else {
			/* Shorter outputs are a prefix of the 32 bytes
			 * hashed (BLAKE3's output is a stream). */
			const uint8_t *d = job->digest;
			char hex[3];

			if (b->raw) {
				fh_out_bytes(d, len);
			} else {
				bool esc = !b->no_names &&
					   (strchr(path, '\\') || strchr(path, '\n'));

				if (esc)
					fh_out_str("\\");
				if (b->tag && !b->no_names) {
					fh_out_str("BLAKE3 (");
					out_name(path, esc);
					fh_out_str(") = ");
				}
				for (uint64_t i = 0; i < len; i++) {
					fh_hex(hex, d + i, 1);
					fh_out_bytes(hex, 2);
				}
				if (!b->no_names && !b->tag) {
					fh_out_str("  ");
					out_name(path, esc);
				}
				fh_out_str("\n");
			}
			fh_out_end_line();
		}
	}
	free(it->shown);
	free(it->error);
	free(it);
}

int fh_b3sum(int argc, char **argv)
{
	struct b3 *b = fh_xcalloc(1, sizeof *b);
	struct fh_engine_opts eo = { 0 };
	uint64_t threads = 0;
	const char *why;
	int err;

	struct matched m = { 0 };

	b->algo = fh_algo_get(FH_BLAKE3);
	parse(b, &m, argc, argv);
	validate(b, &m);
	check_args(b);
	if (b->threads && !parse_u64(b->threads, &threads, &why))
		fail("Failed to parse num threads.", why);
	b->kernels = fh_kernels_pick(getenv("FHSUM_KERNEL"));
	if (!b->kernels)
		return EXIT_FAILURE;
	eo.threads = threads > 1024 ? 1024 : (unsigned)threads;
	eo.no_mmap = b->no_mmap;
	/* --length is read where b3sum reads it, at each file's output
	 * (done); the engine hashes the longer of it and 32 bytes. */
	uint64_t len;

	b->outlen = 32;
	if (!b->check && b->length && parse_u64(b->length, &len, &why) &&
	    len > 32 && len <= FH_MAX_XOF_BYTES)
		b->outlen = (size_t)len;
	err = fh_engine_run(&eo, next, done, b);
	if (err)
		fail(strerror(err), NULL);
	fh_out_flush();
	if (b->fatal)
		fail(b->fatal, NULL);
	bool failed = b->failed;

	free(b->line);
	free(b->files);
	free(b);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
