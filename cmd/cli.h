/* cli.h: what the parts of the command share: the parsed options, the
 * output of whole lines, and diagnostics. */
#ifndef FH_CLI_H
#define FH_CLI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algo.h"
#include "errors.h"
#include "fhsum.h"

#ifndef PATH_MAX
# define PATH_MAX 4096
#endif

/* The longest list line kept: a tagged line of the longest SHAKE digest
 * (FH_MAX_XOF_BYTES in hex) naming a file the system can open (under
 * PATH_MAX bytes, each of which escaping may double), with room for the
 * tag, the brackets, " = ", blanks and a CR.  Any longer line is
 * improperly formatted, and is read past rather than held.  GNU would
 * accept a longer line only by its blanks or by bytes after a NUL that
 * ends the name: no list that fhsum or md5sum writes holds those. */
#define FH_LIST_LINE_MAX (2 * (size_t)FH_MAX_XOF_BYTES + 2 * (size_t)PATH_MAX + 1024)

/* The exit status: GNU's 0 and 1 for generating and -c; for --audit,
 * --update and --scrub a bit per kind of finding, 64 alone for a usage
 * error or a list that could not be read or written. */
enum {
	FH_BIT_NEW = 1,
	FH_BIT_MISSING = 2,
	FH_BIT_CHANGED = 4,
	FH_BIT_MOVED = 8,
	FH_BIT_DAMAGED = 16,
	FH_BIT_UNREADABLE = 32,
	FH_STATUS_USAGE = 64,
};

struct fh_kernel_set;
struct fh_exclude;

struct cli {
	/* The algorithm: given with -a (or by the program's name), else NULL
	 * when checking (each line says) and SHA3-256 when generating. */
	const struct fh_algo *algo;
	/* -a GROUP (sha2, sha3) without -l yet: its row; NULL otherwise. */
	const struct fh_algo_row *group;
	const char *label;      /* the -a name as messages spell it, or NULL */
	size_t outlen;          /* digest bytes when generating */
	size_t check_outlen;    /* SHAKE digest bytes required when checking; 0: any */
	int binary;             /* -1 unset, 0 -t, 1 -b */
	bool tag, zero, check;  /* --tag (--untagged clears it), -z, -c */
	bool base64, raw;       /* --base64, --raw: the digest's form */
	bool no_names;          /* --no-names */
	bool sfv;               /* --sfv: an SFV list (RHash's layout) */
	uint64_t part_size;     /* --part-size: S3's parts, or 0 */
	/* No operand was given (standard input is read): cksum's and sum's
	 * lines then name nothing, as GNU's. */
	bool unnamed;
	bool ignore_missing, quiet, status_only, strict, warn;
	bool debug;
	/* --debug as cksum: GNU cksum 9.1's one line on its CRC's code. */
	bool cksum_debug;
	const struct fh_kernel_set *kernels; /* fh_kernels_pick (kernel_set.h) */
	/* The engine and the inputs (beyond GNU). */
	unsigned threads;       /* -j; 0: one per online CPU */
	unsigned io_depth;      /* --io-depth; 0: the engine chooses */
	bool always_ahead;      /* FHSUM_LOOKAHEAD=always */
	int feed;               /* FHSUM_FEED: an enum fh_feed */
	bool no_mmap;
	bool recursive;
	const char *files_from; /* --files-from / --files0-from, or NULL */
	int files_delim;        /* '\n' or '\0' */
	/* --exclude and --exclude-from (exclude.h), or NULL: the names of
	 * the walk, and the listed names of --audit and --update, that the
	 * run leaves out. */
	const struct fh_exclude *exclude;
	int progress;           /* -1 --no-progress, 0 auto, 1 --progress */
	/* Lists kept over time (audit.c). */
	const char *audit;      /* --audit=LIST */
	const char *update;     /* --update=LIST */
	const char *scrub;      /* --scrub=LIST (scrub.c) */
	const char *against;    /* --against=LIST */
	bool prune;             /* --prune */
	bool no_wait;           /* --no-wait: a busy list is an error */
	bool meta;              /* --meta */
	bool json;              /* --json */
	bool algo_given;        /* -a (or the program's name) chose ALGO */
	/* -c --only=NAME (repeatable): the entries checked, by name; the
	 * others are passed over.  NONLY 0: every entry. */
	char **only;
	size_t nonly;
	/* --expect=DIGEST: the FILE operands are checked against DIGEST, as
	 * the lines of a list (CHECK is set with it); NULL otherwise. */
	const char *expect;
};

/* The program's name in messages: the last component of argv[0]. */
extern const char *fh_prog;

/* Set once standard input is read (a "-" operand, list or list line, or
 * --files-from -): fh_close_stdin then closes it. */
extern bool fh_stdin_read;

/* Puts /dev/null on each of descriptors 0, 1 and 2 that is closed, open
 * for the other direction (standard input write-only...), so that no file
 * the run opens lands there and a read of a closed standard input or a
 * write to a closed standard output fails with EBADF as it would have.
 * USABLE (b3sum, whose Rust runtime does so): open for both directions
 * instead, so that a closed standard input reads as empty and a closed
 * standard output takes what is written.  Call it first thing. */
void fh_std_fds_open(bool usable);
/* At exit: closes standard input if it was read and reports a failure
 * ("PROG: standard input: Bad file descriptor" when it was closed), as
 * GNU md5sum does.  Returns false after such a report. */
bool fh_close_stdin(void);

/* Diagnostics on stderr, "PROG: " first, after flushing stdout so that the
 * two streams keep their order. */
void fh_error(int errnum, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The text fh_error gives ERR: glibc's words whatever the C library
 * (FH_ESHRANK, the engine's own, is "file shrank while being read"). */
const char *fh_strerror(int err);
/* The command's own codes beside errno values are in errors.h. */

/* Standard output, written in whole lines: fh_out_* append to the current
 * line, fh_out_end_line closes it.  Lines leave the program whole, never
 * split across two writes (except a single line larger than the buffer).
 * After a write error the run goes on, its lines lost, as GNU md5sum's
 * does (its messages on stderr still appear), and ends with "PROG: write
 * error: ...", status 1, at its end (fh_out_failed) or once 64 KiB of
 * lines are lost. */
void fh_out_init(void);
/* Whether a write to standard output failed and was not yet said: *ERR
 * is then its errno value, or, with AS_GNU, 0 where md5sum 9.1 says
 * "write error" alone (its line-buffered stdout had nothing left to write
 * at exit). */
bool fh_out_failed(bool as_gnu, int *err);
void fh_out_bytes(const void *p, size_t n);
void fh_out_str(const char *s);
void fh_out_end_line(void);
void fh_out_flush(void);
/* While held, lines gather and nothing is written (--update's statuses
 * wait for the list); fh_out_discard drops the whole lines gathered. */
void fh_out_hold(bool hold);
void fh_out_discard(void);
/* A status line, "NAME: WHAT" or "NAME: WHAT from FROM" (FROM NULL: none),
 * the names escaped as generated lines escape them (a leading '\' when
 * either holds '\', LF or CR), after calling the hook fh_out_on_status
 * set.  The hook erases whatever line stands on stderr (progress.c sets
 * it), so that the output calls no unit above it; NULL: none. */
void fh_out_status(const char *name, size_t len, const char *what,
		   const char *from, size_t fromlen);
void fh_out_on_status(void (*hook)(void));
/* Status lines print their names as they are, unescaped (xxhsum's; set
 * where the program's name is settled). */
extern bool fh_out_status_raw;

/* JSON Lines (json.c): one object a line, its keys in the order given.
 * A name that is not UTF-8 goes as KEY_base64 ("name_base64"), its bytes
 * in base64. */
void fh_json_begin(void);
void fh_json_name(const char *key, const char *s, size_t n);
void fh_json_str(const char *key, const char *s);
void fh_json_uint(const char *key, uint64_t v);
void fh_json_end(void);

/* One file's result, as every mode reports it (json.c). */
struct fh_record {
	const char *name;
	size_t namelen;
	const struct fh_algo *algo;
	const uint8_t *digest;  /* computed (OUTLEN bytes), or NULL */
	/* The digest listed (OUTLEN bytes), where it differs: FAILED,
	 * CHANGED, DAMAGED; NULL otherwise. */
	const uint8_t *expected;
	size_t outlen;
	bool sized;             /* SIZE is known */
	uint64_t size;
	int64_t verified;       /* a scrub's stamp, or 0 */
	const char *status;     /* "OK", "FAILED"...; NULL: a generated digest */
	const char *from;       /* MOVED: the old name (FROMLEN bytes) */
	size_t fromlen;
	int err;                /* 0, or why the file could not be read */
};

/* R with --json as one object (the digest in hex, or base64 with
 * --base64); otherwise, for a status, the line "NAME: STATUS" (" from
 * FROM" after it).  Generated lines are generate.c's. */
void fh_record_put(const struct cli *c, const struct fh_record *r);

struct operands;

/* Generates lines for every name of OPS; returns true if all went well. */
bool fh_generate(const struct cli *c, struct operands *ops);
/* Checks every list named by OPS (with --expect, every file named by
 * OPS against the one digest); returns true if every one passed. */
bool fh_check(const struct cli *c, struct operands *ops);
/* Whether --expect's digest is one of the run's algorithms (-a, its
 * group, or any by the digest's length) in hex or base64. */
bool fh_expect_valid(const struct cli *c);
/* --audit, --update, --against: returns the exit status (audit.c). */
int fh_audit(const struct cli *c, struct operands *ops);
/* --scrub within MAX_BYTES (UINT64_MAX: no limit) and MAX_TIME seconds
 * (0 or infinite: no limit): returns the exit status (scrub.c). */
int fh_scrub(const struct cli *c, struct operands *ops, uint64_t max_bytes,
	     double max_time);

/* The exit status of a usage error: 1, as GNU's, or 64 under --audit,
 * --update and --scrub, whose statuses 1 to 32 say what the audit found. */
extern int fh_usage_status;

/* The one way out when memory runs short: "PROG: memory exhausted", GNU's
 * words, and fh_usage_status (1, or 64 in the list modes).  The x
 * functions allocate or take it. */
_Noreturn void fh_out_of_memory(void);
void *fh_xmalloc(size_t n);
void *fh_xcalloc(size_t n, size_t size);
void *fh_xrealloc(void *p, size_t n);
char *fh_xstrdup(const char *s);

/* The engine's options for C, progress included. */
struct fh_engine_opts;
void fh_engine_opts_for(const struct cli *c, struct fh_engine_opts *e);
/* Sets JOB's kernels for its algorithm, from C's kernel set. */
struct fh_job;
void fh_job_kernels(const struct cli *c, struct fh_job *job);
/* Reports the failure of PATH: "PROG: PATH: reason". */
void fh_report_input_error(const char *path, int err);

/* Progress on stderr (progress.c): starting it (MODE as cli.progress;
 * true if it is on), whether it is on, the tick the engine calls, and
 * erasing the line before other output. */
struct fh_progress;
bool fh_progress_start(int mode);
bool fh_progress_enabled(void);
void fh_progress_tick(void *ctx, const struct fh_progress *p);
void fh_progress_clear(void);

/* The algorithm's tag (MD5, SHA256...) when the program runs under a GNU
 * name, md5sum or sha1sum..sha512sum, and so takes that program's options
 * only; NULL under any other name. */
extern const char *fh_gnu_as;
/* Under a GNU name, the form of that program's lines (algo.h):
 * FH_FORM_CKSUM as cksum, FH_FORM_BSD as sum, FH_FORM_DIGEST as md5sum
 * and the other digest programs (and under fhsum's own name). */
extern enum fh_line_form fh_gnu_form;

/* The table of algorithms as the command reads it (algorithms.c).
 * set_algorithm: -a NAME, or a usage error listing the names.
 * length_bits: -l's number, or GNU's message for one that is none.
 * apply_length: -l ARG once the algorithm is known, or a usage error in
 * GNU cksum's words.  check_group: false, having said so, when -a named a
 * group that no -l sized.  algorithm_of_program: sets C's algorithm from
 * the program's name (md5sum, sha3-256sum...) and returns whether that
 * name is a GNU program's (fh_gnu_as set).  list_algorithms:
 * --list-algorithms. */
void fh_cli_set_algorithm(struct cli *c, const char *name);
/* The first algorithm of the table whose lines are of FORM (sum's -r, -s). */
void fh_cli_set_form(struct cli *c, enum fh_line_form form);
unsigned long long fh_cli_length_bits(const char *arg, bool *too_big);
void fh_cli_apply_length(struct cli *c, const char *arg);
bool fh_cli_check_group(const struct cli *c);
bool fh_cli_algorithm_of_program(struct cli *c);
void fh_list_algorithms(void);

/* --help (or, for a STATUS other than success, the line that points to
 * it), then exit with STATUS; the options it lists are those of the
 * program's name. */
void fh_usage(int status) __attribute__((noreturn));
void fh_version(void);

/* Whether ARGV[0] names another project's program of the table (b3sum),
 * which fhsum then is (fh_prog set); fh_b3sum runs it and returns the
 * exit status (b3sum.c). */
bool fh_b3sum_program(int argc, char **argv);
int fh_b3sum(int argc, char **argv);

#endif
