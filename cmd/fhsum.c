/* fhsum.c: the command's entry point: options, their checks and the run
 * over operands.  Option names, checks and messages follow GNU md5sum 9.1
 * (and cksum 9.8 for -a and -l); fhsum(1) is the contract. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "engine/engine.h"
#include "budget.h"
#include "exclude.h"
#include "kernel_set.h"
#include "operands.h"
#include "parts.h"
#include "quote.h"
#include "xxhsum.h"

enum {
	OPT_IGNORE_MISSING = 256,
	OPT_QUIET,
	OPT_STATUS,
	OPT_STRICT,
	OPT_TAG,
	OPT_HELP,
	OPT_VERSION,
	OPT_KERNEL,
	OPT_LIST_KERNELS,
	OPT_LIST_ALGORITHMS,
	OPT_DEBUG,
	OPT_NO_MMAP,
	OPT_IO_DEPTH,
	OPT_FILES_FROM,
	OPT_FILES0_FROM,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_BENCHMARK,
	OPT_UNTAGGED,
	OPT_BASE64,
	OPT_RAW,
	OPT_NO_NAMES,
	OPT_META,
	OPT_AUDIT,
	OPT_UPDATE,
	OPT_SCRUB,
	OPT_MAX_TIME,
	OPT_MAX_BYTES,
	OPT_AGAINST,
	OPT_PRUNE,
	OPT_NO_WAIT,
	OPT_JSON,
	OPT_EXCLUDE,
	OPT_EXCLUDE_FROM,
	OPT_ONLY,
	OPT_EXPECT,
	OPT_SFV,
	OPT_PART_SIZE,
};

static const struct option longopts[] = {
	{ "algorithm", required_argument, NULL, 'a' },
	{ "binary", no_argument, NULL, 'b' },
	{ "check", no_argument, NULL, 'c' },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "expect", required_argument, NULL, OPT_EXPECT },
	{ "length", required_argument, NULL, 'l' },
	{ "ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "status", no_argument, NULL, OPT_STATUS },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "tag", no_argument, NULL, OPT_TAG },
	{ "untagged", no_argument, NULL, OPT_UNTAGGED },
	{ "base64", no_argument, NULL, OPT_BASE64 },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "no-names", no_argument, NULL, OPT_NO_NAMES },
	{ "sfv", no_argument, NULL, OPT_SFV },
	{ "part-size", required_argument, NULL, OPT_PART_SIZE },
	{ "meta", no_argument, NULL, OPT_META },
	{ "audit", required_argument, NULL, OPT_AUDIT },
	{ "update", required_argument, NULL, OPT_UPDATE },
	{ "scrub", required_argument, NULL, OPT_SCRUB },
	{ "max-time", required_argument, NULL, OPT_MAX_TIME },
	{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
	{ "against", required_argument, NULL, OPT_AGAINST },
	{ "prune", no_argument, NULL, OPT_PRUNE },
	{ "no-wait", no_argument, NULL, OPT_NO_WAIT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "text", no_argument, NULL, 't' },
	{ "warn", no_argument, NULL, 'w' },
	{ "zero", no_argument, NULL, 'z' },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "list-kernels", no_argument, NULL, OPT_LIST_KERNELS },
	{ "list-algorithms", no_argument, NULL, OPT_LIST_ALGORITHMS },
	{ "debug", no_argument, NULL, OPT_DEBUG },
	{ "threads", required_argument, NULL, 'j' },
	{ "no-mmap", no_argument, NULL, OPT_NO_MMAP },
	{ "io-depth", required_argument, NULL, OPT_IO_DEPTH },
	{ "recursive", no_argument, NULL, 'r' },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "files0-from", required_argument, NULL, OPT_FILES0_FROM },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "exclude-from", required_argument, NULL, OPT_EXCLUDE_FROM },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "benchmark", no_argument, NULL, OPT_BENCHMARK },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* Under a GNU name (md5sum, sha1sum..sha512sum) fhsum is that program,
 * and its options are the only ones: getopt_long matches abbreviations
 * against the table it is given, so fhsum's own would make "--b" or
 * "--i" ambiguous where md5sum 9.1 takes them.  GNU's order, which its
 * "possibilities:" lists follow. */
static const struct option gnu_longopts[] = {
	/* b2sum's alone (gnu_longopts + 1 for the others). */
	{ "length", required_argument, NULL, 'l' },
	{ "binary", no_argument, NULL, 'b' },
	{ "check", no_argument, NULL, 'c' },
	{ "ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "status", no_argument, NULL, OPT_STATUS },
	{ "warn", no_argument, NULL, 'w' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "tag", no_argument, NULL, OPT_TAG },
	{ "zero", no_argument, NULL, 'z' },
	{ "text", no_argument, NULL, 't' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage_error(const char *msg, const char *arg)
{
	if (msg)
		fh_error(0, msg, arg);
	fh_usage(fh_usage_status);
}

/* The long option of SET that NAME (LEN bytes, an abbreviation or the
 * whole name) means, as getopt_long matches it: an exact name, else the
 * one name it begins, or several that are the same option.  NULL when
 * none; *AMBIGUOUS is set when several differ. */
static const struct option *match_long(const struct option *set, const char *name,
				       size_t len, bool *ambiguous)
{
	const struct option *hit = NULL;

	*ambiguous = false;
	for (const struct option *p = set; p->name; p++) {
		if (strncmp(p->name, name, len) != 0)
			continue;
		if (strlen(p->name) == len) {
			*ambiguous = false;
			return p;
		}
		if (!hit)
			hit = p;
		else if (p->has_arg != hit->has_arg || p->val != hit->val)
			*ambiguous = true;
	}
	return hit;
}

/* Whether ARGV asks for --audit, --update or --scrub, or gives an option
 * of theirs (--against, --prune, --max-time...), in full or abbreviated
 * as getopt_long takes them, before any "--": then usage errors exit 64,
 * whichever option they come from. */
static bool audit_run(int argc, char **argv, const struct option *opts)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ambiguous;

		if (strcmp(a, "--") == 0)
			break;
		if (strncmp(a, "--", 2) != 0 || !a[2])
			continue;
		const struct option *hit = match_long(opts, a + 2, strcspn(a + 2, "="),
						      &ambiguous);

		if (hit && !ambiguous &&
		    (hit->val == OPT_AUDIT || hit->val == OPT_UPDATE ||
		     hit->val == OPT_SCRUB || hit->val == OPT_MAX_TIME ||
		     hit->val == OPT_MAX_BYTES || hit->val == OPT_AGAINST ||
		     hit->val == OPT_PRUNE || hit->val == OPT_NO_WAIT))
			return true;
	}
	return false;
}

/* GNU cksum 9.1 and sum 9.1 (their form in the table of algorithms,
 * fh_gnu_form): their options alone, in their order.  cksum takes -b and
 * -t as short options and then refuses them with the usage line alone. */
static const struct option cksum_longopts[] = {
	{ "length", required_argument, NULL, 'l' },
	{ "check", no_argument, NULL, 'c' },
	{ "ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "status", no_argument, NULL, OPT_STATUS },
	{ "warn", no_argument, NULL, 'w' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "tag", no_argument, NULL, OPT_TAG },
	{ "zero", no_argument, NULL, 'z' },
	{ "algorithm", required_argument, NULL, 'a' },
	{ "debug", no_argument, NULL, OPT_DEBUG },
	{ "untagged", no_argument, NULL, OPT_UNTAGGED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};
static const char cksum_shortopts[] = ":a:l:bctwz";

static const struct option sum_longopts[] = {
	{ "sysv", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};
static const char sum_shortopts[] = ":rs";

/* The short options, after the ':' that makes getopt_long tell a missing
 * argument (':') from an unknown option ('?'); GNU's under a GNU name. */
static const char shortopts[] = ":a:bcj:l:rtwz";
static const char gnu_shortopts[] = ":bctwz";
static const char b2sum_shortopts[] = ":bcl:twz";

/* The options of this run: GNU's under a GNU name, else fhsum's. */
struct optset {
	const struct option *longs;
	const char *shorts;
};

/* Complains, in glibc's words whatever the C library (musl's getopt
 * words them otherwise), about the option getopt_long just refused with
 * RET, then exits as md5sum does.  A long option's error is worked out
 * again from its text, which getopt_long has always stepped past; a
 * short option's from optopt. */
static void option_error(int argc, char **argv, int ret, const struct optset *set)
{
	int o = optopt;
	const char *short_at = o > 0 && o < 256 && o != ':'
				       ? strchr(set->shorts, o) : NULL;
	bool flag = short_at && short_at[1] != ':';
	/* musl may leave optind past the end after a missing argument. */
	const char *arg = optind > 0 && optind <= argc && argv[optind - 1]
				  ? argv[optind - 1] : "";
	bool is_long = strncmp(arg, "--", 2) == 0 && arg[2] &&
		       (o == 0 || o > 255 || (ret == '?' && flag) || ret == ':');

	if (!is_long) {
		fh_error(0, ret == ':' ? "option requires an argument -- '%c'"
				       : "invalid option -- '%c'", o);
		usage_error(NULL, NULL);
	}
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	bool ambiguous;
	const struct option *hit = match_long(set->longs, name, len, &ambiguous);

	if (!hit) {
		fh_error(0, "unrecognized option '%s'", arg);
	} else if (ambiguous) {
		fh_out_flush();
		/* glibc names the argument whole, "=VALUE" and all. */
		fprintf(stderr, "%s: option '%s' is ambiguous; possibilities:",
			fh_prog, arg);
		for (const struct option *p = set->longs; p->name; p++)
			if (strncmp(p->name, name, len) == 0)
				fprintf(stderr, " '--%s'", p->name);
		fputc('\n', stderr);
	} else if (name[len] == '=') {
		fh_error(0, "option '--%s' doesn't allow an argument", hit->name);
	} else {
		fh_error(0, "option '--%s' requires an argument", hit->name);
	}
	usage_error(NULL, NULL);
}

/* A count from 1 to MAX for the option WHAT ("threads"), or a usage error. */
static unsigned parse_count(const char *arg, unsigned long max, const char *what)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || n < 1 || n > max) {
		fh_error(0, "invalid number of %s: %s (1..%lu)", what, fh_quote(arg),
			 max);
		usage_error(NULL, NULL);
	}
	return (unsigned)n;
}

/* Text printed through stdio (--help, --version, --list-kernels,
 * --benchmark) can fail at its flush at exit, and lines written through
 * fh_out_* at any time: say so, as GNU's close_stdout does, rather than
 * exit 0 having printed nothing. */
static void close_stdout(void)
{
	bool failed = ferror(stdout);
	int lost_err;
	bool lost = fh_out_failed(fh_gnu_as != NULL, &lost_err);

	/* An error met while printing through stdio has lost its errno:
	 * GNU says "write error" alone then. */
	errno = 0;
	if (fclose(stdout) != 0 || failed || lost) {
		fh_error(lost ? lost_err : errno, "write error");
		_exit(EXIT_FAILURE);
	}
}

/* An --exclude pattern or an --exclude-from file, in the order given. */
struct exclude_arg {
	const char *arg;
	bool file;
};

/* Reads the patterns ARGS give into X, before any file is read: a file of
 * patterns that cannot be read is a usage error. */
static void load_excludes(struct fh_exclude *x, const struct exclude_arg *args,
			  size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *a = args[i].arg;

		if (!args[i].file) {
			if (!fh_exclude_add(x, a, strlen(a)))
				fh_out_of_memory();
			continue;
		}
		bool in = strcmp(a, "-") == 0;
		const char *name = in ? "standard input" : a;
		int fd = in ? STDIN_FILENO : open(a, O_RDONLY | O_CLOEXEC);
		uint64_t line = 0;

		if (fd < 0) {
			fh_error(errno, "cannot open %s for reading", fh_quote(a));
			exit(fh_usage_status);
		}
		fh_stdin_read |= in;
		int err = fh_exclude_read(x, fd, &line);

		if (!in)
			close(fd);
		if (err == ENAMETOOLONG)
			fh_error(0, "%s:%" PRIu64 ": pattern longer than %d bytes",
				 fh_quotef(name, strlen(name)), line, FH_EXCLUDE_LINE_MAX);
		else if (err)
			fh_error(err, "%s", fh_quotef(name, strlen(name)));
		if (err)
			exit(fh_usage_status);
	}
}

/* What the options say beside struct cli, until they are checked. */
struct args {
	const char *forced;     /* --kernel, or FHSUM_KERNEL */
	const char *length;     /* -l */
	const char *max_time, *max_bytes;
	bool list, bench, untagged;
	bool algorithm;         /* -a, under cksum's name */
	const char *part_size;  /* --part-size */
	struct exclude_arg *excludes;
	size_t nexcludes;
	char **only;            /* --only's names, held for struct cli */
};

/* One option OPT (with optarg) into C and A; --help, --version and
 * --list-algorithms end the run here, as a usage error does. */
static void take_option(int opt, struct cli *c, struct args *a)
{
	switch (opt) {
	case 'a': fh_cli_set_algorithm(c, optarg); break;
	case 'b': c->binary = 1; break;
	case 'c': c->check = true; break;
	case 'l': a->length = optarg; break;
	case 't': c->binary = 0; break;
	case 'z': c->zero = true; break;
	case 'w': c->warn = true; c->status_only = c->quiet = false; break;
	case OPT_QUIET: c->quiet = true; c->status_only = c->warn = false; break;
	case OPT_STATUS: c->status_only = true; c->quiet = c->warn = false; break;
	case OPT_STRICT: c->strict = true; break;
	case OPT_IGNORE_MISSING: c->ignore_missing = true; break;
	case OPT_TAG: c->tag = true; a->untagged = false; break;
	case OPT_UNTAGGED: c->tag = false; a->untagged = true; break;
	case OPT_BASE64: c->base64 = true; break;
	case OPT_RAW: c->raw = true; break;
	case OPT_NO_NAMES: c->no_names = true; break;
	case OPT_SFV: c->sfv = true; break;
	case OPT_PART_SIZE: a->part_size = optarg; break;
	case OPT_META: c->meta = true; break;
	case OPT_AUDIT: c->audit = optarg; break;
	case OPT_UPDATE: c->update = optarg; break;
	case OPT_SCRUB: c->scrub = optarg; break;
	case OPT_MAX_TIME: a->max_time = optarg; break;
	case OPT_MAX_BYTES: a->max_bytes = optarg; break;
	case OPT_AGAINST: c->against = optarg; break;
	case OPT_PRUNE: c->prune = true; break;
	case OPT_NO_WAIT: c->no_wait = true; break;
	case OPT_JSON: c->json = true; break;
	case OPT_ONLY: c->only[c->nonly++] = optarg; break;
	case OPT_EXPECT: c->expect = optarg; break;
	case OPT_KERNEL: a->forced = optarg; break;
	case OPT_LIST_KERNELS: a->list = true; break;
	case OPT_LIST_ALGORITHMS: fh_list_algorithms(); exit(EXIT_SUCCESS);
	case OPT_DEBUG: c->debug = true; break;
	case 'j': c->threads = parse_count(optarg, 1024, "threads"); break;
	case OPT_IO_DEPTH:
		c->io_depth = parse_count(optarg, FH_IO_DEPTH_MAX, "reads in flight");
		break;
	case OPT_NO_MMAP: c->no_mmap = true; break;
	case 'r': c->recursive = true; break;
	case OPT_FILES_FROM: c->files_from = optarg; c->files_delim = '\n'; break;
	case OPT_FILES0_FROM: c->files_from = optarg; c->files_delim = '\0'; break;
	case OPT_EXCLUDE:
		a->excludes[a->nexcludes++] = (struct exclude_arg){ optarg, false };
		break;
	case OPT_EXCLUDE_FROM:
		a->excludes[a->nexcludes++] = (struct exclude_arg){ optarg, true };
		break;
	case OPT_PROGRESS: c->progress = 1; break;
	case OPT_NO_PROGRESS: c->progress = -1; break;
	case OPT_BENCHMARK: a->bench = true; break;
	case OPT_HELP: fh_usage(EXIT_SUCCESS);
	case OPT_VERSION: fh_version(); exit(EXIT_SUCCESS);
	default: usage_error(NULL, NULL);
	}
}

/* An option of cksum or sum, as those programs take it.  cksum's -a names
 * any algorithm of the table, its digests tagged by default; its -c
 * reads only tagged lines and cksum's and sum's own lines, which GNU's
 * refuses.  sum's -r and -s pick BSD's sum or System V's, the last one
 * given winning. */
static void take_program_option(int opt, struct cli *c, struct args *a)
{
	switch (opt) {
	case 'r': fh_cli_set_form(c, FH_FORM_BSD); break;
	case 's': fh_cli_set_form(c, FH_FORM_SYSV); break;
	case 'a':
		fh_cli_set_algorithm(c, optarg);
		a->algorithm = true;
		break;
	case 'b': case 't': usage_error(NULL, NULL); break;
	case 'l': {
		/* cksum 9.1 checks the number where it stands among the
		 * options, whatever the algorithm; 0 is no -l at all. */
		bool too_big;
		unsigned long long bits = fh_cli_length_bits(optarg, &too_big);

		if (too_big || bits % 8) {
			fh_error(too_big ? EOVERFLOW : 0, "invalid length: %s",
				 fh_quote(optarg));
			if (!too_big)
				fh_error(0, "length is not a multiple of 8");
			exit(EXIT_FAILURE);
		}
		a->length = bits ? optarg : NULL;
		break;
	}
	case OPT_DEBUG: c->cksum_debug = true; break;
	default: take_option(opt, c, a); break;
	}
}

/* The options of ARGV into C and A; the program's name into fh_prog. */
static int parse(int argc, char **argv, struct cli *c, struct args *a)
{
	const char *lookahead = getenv("FHSUM_LOOKAHEAD");
	const char *feed = getenv("FHSUM_FEED");
	int opt;

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		fh_prog = slash ? slash + 1 : argv[0];
		argv[0] = (char *)fh_prog; /* getopt's messages use it */
	}
	/* GNU's programs of an algorithm of chosen length (b2sum) take -l. */
	const bool gnu = fh_cli_algorithm_of_program(c);
	const bool gnu_length = gnu && c->algo->xof;

	if (fh_as_xxhsum) {
		/* xxhsum's own reading of its arguments. */
		argc = fh_xxhsum_parse(argc, argv, c);
		optind = 1;
		return argc;
	}
	const struct optset opts =
		!gnu ? (struct optset){ longopts, shortopts }
		: fh_gnu_form == FH_FORM_CKSUM ? (struct optset){ cksum_longopts, cksum_shortopts }
		: fh_gnu_form != FH_FORM_DIGEST ? (struct optset){ sum_longopts, sum_shortopts }
		: (struct optset){ gnu_length ? gnu_longopts : gnu_longopts + 1,
				   gnu_length ? b2sum_shortopts : gnu_shortopts };

	c->always_ahead = lookahead && strcmp(lookahead, "always") == 0;
	if (feed && strcmp(feed, "map") == 0)
		c->feed = FH_FEED_MAP;
	else if (feed && strcmp(feed, "read") == 0)
		c->feed = FH_FEED_READ;
	if (audit_run(argc, argv, opts.longs))
		fh_usage_status = FH_STATUS_USAGE;
	opterr = 0;     /* option_error speaks instead */
	while ((opt = getopt_long(argc, argv, opts.shorts, opts.longs, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			option_error(argc, argv, opt, &opts);
		if (fh_gnu_form != FH_FORM_DIGEST)
			take_program_option(opt, c, a);
		else
			take_option(opt, c, a);
	}
	/* cksum prints digests tagged unless --untagged. */
	if (fh_gnu_form == FH_FORM_CKSUM)
		c->tag = !a->untagged && !c->check;
	return argc;
}

/* Options that cannot go together, GNU's words for the output's forms
 * (cksum 9.x for the options md5sum 9.1 lacks; --no-names is b3sum's,
 * worded alike).  cksum takes --base64 and --raw with -c and ignores
 * them: -c reads hex and base64 alike, and prints no digest. */
static void check_forms(const struct cli *c)
{
	if (c->base64 && c->raw)
		usage_error("--base64 and --raw are mutually exclusive", NULL);
	if (c->tag && c->no_names)
		usage_error("--tag and --no-names are mutually exclusive", NULL);
	if (c->sfv) {
		/* An SFV list is its own form: CRC-32, upper-case hex, names
		 * as they are. */
		const struct { bool set; const char *name; } unlike[] = {
			{ c->tag, "--tag" }, { c->base64, "--base64" }, { c->raw, "--raw" },
			{ c->no_names, "--no-names" }, { c->zero, "--zero" },
			{ c->json, "--json" }, { c->meta, "--meta" },
		};

		for (size_t i = 0; i < sizeof unlike / sizeof *unlike; i++)
			if (unlike[i].set)
				usage_error("--sfv and %s are mutually exclusive",
					    unlike[i].name);
		if (c->check)
			usage_error("the --sfv option is meaningless when verifying "
				    "checksums (-c reads .sfv lists as they are)", NULL);
		if (c->algo && c->algo != fh_algo_get(FH_CRC32B))
			usage_error("--sfv writes CRC-32 (crc32b) alone, not %s",
				    c->algo->name);
	}
	if (c->json) {
		const struct { bool set; const char *name; } unlike[] = {
			{ c->raw, "--raw" }, { c->no_names, "--no-names" },
			{ c->tag, "--tag" }, { c->zero, "--zero" }, { c->meta, "--meta" },
		};

		for (size_t i = 0; i < sizeof unlike / sizeof *unlike; i++)
			if (unlike[i].set)
				usage_error("--json and %s are mutually exclusive",
					    unlike[i].name);
	}
}

/* --audit, --update and --scrub (fhsum(1), AUDITING AND UPDATING,
 * SCRUBBING) and the options that go with them. */
static void check_modes(const struct cli *c, const struct args *a, const char *mode)
{
	bool auditing = c->audit || c->update || c->scrub;

	if (c->audit && c->update)
		usage_error("--audit and --update are mutually exclusive", NULL);
	if (c->scrub && (c->audit || c->update))
		usage_error("%s and --scrub are mutually exclusive",
			    c->audit ? "--audit" : "--update");
	if (!c->scrub && (a->max_time || a->max_bytes))
		usage_error("%s needs --scrub", a->max_time ? "--max-time" : "--max-bytes");
	if (c->scrub && c->files_from)
		usage_error("--scrub takes FILE and DIR operands, not %s",
			    c->files_delim ? "--files-from" : "--files0-from");
	if (auditing && c->check)
		usage_error("%s and --check are mutually exclusive", mode);
	if (c->expect && (c->check || auditing))
		usage_error("--expect and %s are mutually exclusive",
			    c->check ? "--check" : mode);
	if (c->nonly && !c->check)
		usage_error("--only needs --check", NULL);
	if (c->against && !c->audit)
		usage_error("--against needs --audit", NULL);
	if (c->prune && !c->update)
		usage_error("--prune needs --update", NULL);
	if (c->no_wait && !c->update && !c->scrub)
		usage_error("--no-wait needs --update or --scrub", NULL);
	/* Patterns leave out names of a walk or of a list: nothing else
	 * has names to leave out. */
	if (a->nexcludes && !c->recursive && !auditing)
		usage_error("%s needs -r, --audit, --update or --scrub",
			    a->excludes[0].file ? "--exclude-from" : "--exclude");
	for (size_t i = 0; i < a->nexcludes; i++)
		if (a->excludes[i].file && strcmp(a->excludes[i].arg, "-") == 0 &&
		    c->files_from && strcmp(c->files_from, "-") == 0)
			usage_error("--exclude-from and %s cannot both read "
				    "standard input", c->files_delim ? "--files-from"
								     : "--files0-from");
	/* A list that is written is replaced by a rename: standard output
	 * cannot be. */
	if ((c->update && strcmp(c->update, "-") == 0) ||
	    (c->scrub && strcmp(c->scrub, "-") == 0))
		usage_error("%s cannot write standard input or output: "
			    "name a file", mode);
	if (c->meta && c->check)
		usage_error("the --meta option is meaningless when verifying checksums", NULL);
	if (!auditing)
		return;
	const struct { bool set; const char *name; } unlike[] = {
		{ c->zero, "--zero" }, { c->raw, "--raw" },
		{ c->no_names, "--no-names" },
		{ !c->update && c->meta, "--meta" },
		{ !c->update && c->tag, "--tag" },
		{ !c->update && a->untagged, "--untagged" },
		{ !c->update && c->binary > 0, "--binary" },
		{ !c->update && c->binary == 0, "--text" },
	};

	for (size_t i = 0; i < sizeof unlike / sizeof *unlike; i++)
		if (unlike[i].set) {
			fh_error(0, "the %s option is meaningless with %s",
				 unlike[i].name, mode);
			usage_error(NULL, NULL);
		}
}

/* The options that only -c (or only generating) means, GNU's words. */
static void check_checking(const struct cli *c, bool auditing)
{
	if (c->tag && c->binary == 0)
		usage_error("--tag does not support --text mode", NULL);
	if (c->zero && c->check)
		usage_error("the --zero option is not supported when verifying checksums", NULL);
	if (c->tag && c->check)
		usage_error("the --tag option is meaningless when verifying checksums", NULL);
	if (c->binary >= 0 && c->check)
		usage_error("the --binary and --text options are meaningless when "
			    "verifying checksums", NULL);
	if (c->no_names && c->check)
		usage_error("the --no-names option is meaningless when "
			    "verifying checksums", NULL);
	if (c->check || auditing)
		return;
	const struct { bool set; const char *name; } only_check[] = {
		{ c->ignore_missing, "--ignore-missing" },
		{ c->status_only, "--status" },
		{ c->warn, "--warn" },
		{ c->quiet, "--quiet" },
		{ c->strict, "--strict" },
	};

	for (size_t i = 0; i < sizeof only_check / sizeof *only_check; i++)
		if (only_check[i].set)
			usage_error("the %s option is meaningful only when "
				    "verifying checksums", only_check[i].name);
}

/* The checks of every option, in GNU's order; then the budget's numbers,
 * the algorithm and its length.  Returns 0, or the status to exit with. */
static int check(struct cli *c, struct args *a, uint64_t *max_bytes, double *max_time)
{
	bool auditing = c->audit || c->update || c->scrub;
	const char *mode = c->audit ? "--audit" : c->update ? "--update" : "--scrub";

	check_forms(c);
	check_modes(c, a, mode);
	/* --expect checks its files as the lines of a list: the options of
	 * -c are its options. */
	c->check |= c->expect != NULL;
	check_checking(c, auditing);
	*max_bytes = UINT64_MAX;
	*max_time = 0;
	if (a->max_bytes && !fh_parse_size(a->max_bytes, max_bytes))
		usage_error("invalid number of bytes: %s", fh_quote(a->max_bytes));
	if (a->max_time && !fh_parse_duration(a->max_time, max_time))
		usage_error("invalid time interval: %s", fh_quote(a->max_time));
	if (a->part_size) {
		if (!fh_parse_size(a->part_size, &c->part_size) || !c->part_size)
			usage_error("invalid part size: %s", fh_quote(a->part_size));
		/* The ETag when no -a says otherwise. */
		if (!c->algo && !c->group)
			c->algo = fh_algo_get(FH_MD5), c->label = c->algo->tag;
		if (!c->algo || fh_algo_row(c->algo)->s3 == FH_S3_NONE) {
			fh_error(0, "--part-size: S3 keeps no value of %s for uploads in "
				    "parts (md5, sha1, sha256, crc32b, crc32c do)",
				 c->algo ? c->algo->name : c->group->algo.name);
			usage_error(NULL, NULL);
		}
		const struct { bool set; const char *name; } unlike[] = {
			{ c->base64, "--base64" }, { c->raw, "--raw" }, { c->json, "--json" },
			{ c->meta, "--meta" }, { c->no_names, "--no-names" }, { c->sfv, "--sfv" },
			{ c->audit || c->update || c->scrub, "--audit, --update and --scrub" },
			{ c->recursive, "-r" },
		};

		for (size_t i = 0; i < sizeof unlike / sizeof *unlike; i++)
			if (unlike[i].set)
				usage_error("--part-size and %s are mutually exclusive",
					    unlike[i].name);
	}
	if (c->sfv) {
		c->algo = fh_algo_get(FH_CRC32B);
		c->label = c->algo->tag;
	}
	/* cksum 9.1 takes -l for BLAKE2b alone; of the algorithms it lacks,
	 * those with lengths take it too (sha2 and sha3, as cksum 9.8). */
	if (fh_gnu_form == FH_FORM_CKSUM && a->length && !c->group &&
	    !(c->algo && fh_algo_row(c->algo)->length == FH_LENGTH_XOF)) {
		fh_error(0, "--length is only supported with --algorithm=blake2b");
		exit(EXIT_FAILURE);
	}
	/* cksum -c without -a: each line's tag, or its form, says. */
	if (fh_gnu_form == FH_FORM_CKSUM && c->check && !a->algorithm)
		c->algo = NULL, c->label = NULL;
	if (c->algo)
		c->outlen = c->algo->digest_bytes;
	if (a->length)
		fh_cli_apply_length(c, a->length);
	if (!c->check && !a->list && !fh_cli_check_group(c))
		return fh_usage_status;
	c->algo_given = c->label != NULL;
	if (c->expect && !fh_expect_valid(c)) {
		if (c->label)
			fh_error(0, "invalid digest %s for --expect: not a %s digest in "
				    "hex or base64", fh_quote(c->expect), c->label);
		else
			fh_error(0, "invalid digest %s for --expect: no algorithm has a "
				    "digest of that length in hex or base64 (give one "
				    "with -a)", fh_quote(c->expect));
		usage_error(NULL, NULL);
	}
	return 0;
}

/* The operands of the run (ARGC names at ARGV, or --files-from's) into
 * OPS.  Returns 0, or the status to exit with. */
static int open_operands(struct cli *c, int argc, char **argv,
			 struct operands *ops)
{
	bool auditing = c->audit || c->update || c->scrub;
	const char *mode = c->audit ? "--audit" : c->update ? "--update" : "--scrub";

	*ops = (struct operands){
		.argv = argv,
		.argc = argc,
		.from = -1,
		/* A directory operand of --audit or --update is the tree under
		 * it, with or without -r, as --scrub takes it: never a file
		 * that cannot be read, whose listed files would all go missing. */
		.recursive = c->recursive || c->audit || c->update,
		/* The walk runs on as many threads as the hashing. */
		.threads = c->threads ? c->threads : fh_online_cpus(),
	};
	/* As cksum, even with -c; a walk or a names file that gives a second
	 * name is refused when it does (generate.c). */
	if (c->raw && ops->argc > 1) {
		fh_error(0, "the --raw option is not supported with multiple files");
		return EXIT_FAILURE;
	}
	if (c->against && (ops->argc || c->files_from)) {
		fh_error(0, "extra operand %s",
			 fh_quote(ops->argc ? ops->argv[0] : c->files_from));
		fh_error(0, "file operands cannot be combined with --against");
		usage_error(NULL, NULL);
	}
	if (auditing && !c->scrub && !c->against && !ops->argc && !c->files_from) {
		fh_error(0, "missing operand: %s needs FILE or DIR operands", mode);
		usage_error(NULL, NULL);
	}
	if (!c->files_from) {
		static char *dash[] = { (char *)"-" };

		if (!ops->argc && !auditing) {
			ops->argv = dash;
			ops->argc = 1;
			c->unnamed = true;
		}
		return 0;
	}
	if (ops->argc) {
		fh_error(0, "extra operand %s", fh_quote(ops->argv[0]));
		fh_error(0, "file operands cannot be combined with %s",
			 c->files_delim ? "--files-from" : "--files0-from");
		usage_error(NULL, NULL);
	}
	bool from_stdin = strcmp(c->files_from, "-") == 0;

	ops->from_name = from_stdin ? "standard input" : c->files_from;
	ops->from_stdin = from_stdin;
	fh_stdin_read = from_stdin;
	ops->from = from_stdin ? STDIN_FILENO : open(c->files_from, O_RDONLY | O_CLOEXEC);
	if (ops->from < 0) {
		fh_error(errno, "cannot open %s for reading", fh_quote(c->files_from));
		return fh_usage_status;
	}
	/* No longer name can be opened (open(2) says ENAMETOOLONG). */
	if (!fh_lines_start(&ops->names, ops->from, PATH_MAX, c->files_delim))
		fh_out_of_memory();
	return 0;
}

/* The mode the options chose, over OPS: its exit status. */
static int run(const struct cli *c, struct operands *ops, uint64_t max_bytes,
	       double max_time)
{
	bool auditing = c->audit || c->update || c->scrub;
	int status;

	if (c->scrub)
		status = fh_scrub(c, ops, max_bytes, max_time);
	else if (auditing)
		status = fh_audit(c, ops);
	else if (c->part_size)
		status = (c->check ? fh_parts_check(c, ops) : fh_parts_generate(c, ops))
			 ? EXIT_SUCCESS : EXIT_FAILURE;
	else
		status = (c->check ? fh_check(c, ops) : fh_generate(c, ops))
			 ? EXIT_SUCCESS : EXIT_FAILURE;
	fh_operands_free(ops);
	if (ops->from >= 0 && !ops->from_stdin)
		close(ops->from);
	fh_out_flush();
	if (!fh_close_stdin())
		return auditing ? status | FH_BIT_UNREADABLE : EXIT_FAILURE;
	return status;
}

int main(int argc, char **argv)
{
	struct cli c = { .binary = -1 };
	/* Static: the early exits (--version, usage errors) leave them to
	 * the exit, held, rather than leaked. */
	static struct args a;
	static struct fh_exclude exclude;
	struct operands ops;
	uint64_t max_bytes;
	double max_time;
	int status;
	bool b3sum = fh_b3sum_program(argc, argv);

	fh_std_fds_open(b3sum);
	setlocale(LC_ALL, "");
	fh_out_init();
	atexit(close_stdout);
	a.forced = getenv("FHSUM_KERNEL");
	a.excludes = fh_xcalloc((size_t)(argc > 0 ? argc : 1), sizeof *a.excludes);
	a.only = fh_xcalloc((size_t)(argc > 0 ? argc : 1), sizeof *a.only);
	c.only = a.only;
	fh_exclude_init(&exclude);
	if (b3sum)
		return fh_b3sum(argc, argv);
	argc = parse(argc, argv, &c, &a);
	if ((status = check(&c, &a, &max_bytes, &max_time)) != 0)
		return status;
	/* --benchmark measures the algorithm given, or all of them. */
	const struct fh_algo *bench_algo = c.label ? c.algo : NULL;

	if (!c.algo && !c.check) {
		c.algo = fh_algo_get(FH_SHA3_256);
		c.outlen = c.algo->digest_bytes;
	}
	c.kernels = fh_kernels_pick(a.forced);
	if (!c.kernels)
		return EXIT_FAILURE;
	if (a.list) {
		fh_kernels_list(c.kernels);
		return EXIT_SUCCESS;
	}
	if (a.bench)
		return fh_benchmark(bench_algo);
	if (c.debug)
		fh_kernels_debug(c.kernels);
	if ((status = open_operands(&c, argc - optind, argv + optind, &ops)) != 0)
		return status;
	/* After every usage error, before any file is read. */
	load_excludes(&exclude, a.excludes, a.nexcludes);
	if (fh_exclude_any(&exclude))
		c.exclude = ops.exclude = &exclude;
	status = run(&c, &ops, max_bytes, max_time);
	fh_exclude_free(&exclude);
	free(a.excludes);
	free(a.only);
	return status;
}
