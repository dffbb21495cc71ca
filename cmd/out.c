/* out.c: standard output in whole lines, and diagnostics.
 *
 * GNU md5sum line-buffers stdout so each line is one write(2).  fhsum keeps
 * lines whole too but batches them where that stays safe: on a pipe, whole
 * lines are gathered up to PIPE_BUF bytes (writes that small are atomic, so
 * another writer on the same pipe cannot split them); on a terminal each
 * line goes out at once; elsewhere (files, /dev/null) up to 64 KiB. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "list/checklist.h"
#include "cli.h"
#include "engine/engine.h"

const char *fh_prog = "fhsum";
/* 1 as GNU has it, 64 in the list modes (fhsum.c sets it). */
int fh_usage_status = EXIT_FAILURE;
bool fh_stdin_read;
static bool stdin_closed; /* descriptor 0 was closed at start */
static bool stdout_closed; /* and descriptor 1 */

/* The text of errno value ERR as GNU's tools print it (glibc's wording):
 * the same on every C library, so that a message is md5sum's byte for
 * byte under musl ("I/O error") and elsewhere too.  Others: strerror. */
static const char *err_text(int err)
{
	static const struct {
		int err;
		const char *text;
	} gnu[] = {
		{ EPERM, "Operation not permitted" },
		{ ENOENT, "No such file or directory" },
		{ EINTR, "Interrupted system call" },
		{ EIO, "Input/output error" },
		{ ENXIO, "No such device or address" },
		{ EBADF, "Bad file descriptor" },
		{ EAGAIN, "Resource temporarily unavailable" },
		{ ENOMEM, "Cannot allocate memory" },
		{ EACCES, "Permission denied" },
		{ EFAULT, "Bad address" },
		{ EBUSY, "Device or resource busy" },
		{ ENODEV, "No such device" },
		{ ENOTDIR, "Not a directory" },
		{ EISDIR, "Is a directory" },
		{ EINVAL, "Invalid argument" },
		{ ENFILE, "Too many open files in system" },
		{ EMFILE, "Too many open files" },
		{ EFBIG, "File too large" },
		{ ENOSPC, "No space left on device" },
		{ ESPIPE, "Illegal seek" },
		{ EROFS, "Read-only file system" },
		{ EPIPE, "Broken pipe" },
		{ ENAMETOOLONG, "File name too long" },
		{ ENOSYS, "Function not implemented" },
		{ ELOOP, "Too many levels of symbolic links" },
		{ EOVERFLOW, "Value too large for defined data type" },
		{ EOPNOTSUPP, "Operation not supported" },
		{ ENOTCONN, "Transport endpoint is not connected" },
		{ ETIMEDOUT, "Connection timed out" },
		{ ESTALE, "Stale file handle" },
	};

	for (size_t i = 0; i < sizeof gnu / sizeof gnu[0]; i++)
		if (gnu[i].err == err)
			return gnu[i].text;
	return strerror(err);
}

void fh_std_fds_open(bool usable)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* The lowest free descriptor is FD itself. */
		int got = open("/dev/null", usable ? O_RDWR
					    : fd == 0 ? O_WRONLY : O_RDONLY);

		if (got != fd) {
			if (got >= 0)
				close(got);
			continue;
		}
		if (usable)
			continue;
		if (fd == 0)
			stdin_closed = true;
		if (fd == 1)
			stdout_closed = true;
	}
}

bool fh_close_stdin(void)
{
	if (!fh_stdin_read)
		return true;
	errno = EBADF;
	if (!stdin_closed && fclose(stdin) == 0)
		return true;
	fh_error(errno, "%s", "standard input");
	return false;
}

/* Erases a line drawn on stderr before a status line (fh_out_on_status). */
static void (*status_hook)(void);

static char *buf;
static size_t cap = 1 << 16; /* allocated size */
static size_t limit;         /* flush once whole lines reach this */
static size_t used;          /* bytes of whole lines */
static size_t line_start;    /* where the current, unfinished line began */
static bool held;            /* fh_out_hold: nothing leaves */

/* A write to standard output that failed is remembered, as a stdio
 * stream's error flag is, and the run goes on: md5sum 9.1 still says what
 * it finds in the files and its WARNING lines, and ends with "write
 * error".  Lines are not written again after that; once those lost pass
 * LOST_MAX bytes the run stops, so that a list without end stops too (GNU
 * 9.10 stops at the first failed line). */
static int lost_err;
static size_t lost;
static bool lost_said;  /* write_error said so: not again at exit */
#define LOST_MAX ((size_t)1 << 16)
/* Bytes came out after the last newline and the last message: those that
 * md5sum's line-buffered stdout would still hold at its exit. */
static bool open_tail;

static void write_error(int err)
{
	fprintf(stderr, "%s: write error: %s\n", fh_prog, err_text(err));
	lost_said = true;
	exit(EXIT_FAILURE);
}

bool fh_out_failed(bool as_gnu, int *err)
{
	*err = lost_err;
	/* md5sum 9.1 writes each line at its newline, and each message
	 * first sends what came before it: a write that failed then leaves
	 * nothing behind, and its close at exit, which alone gives the
	 * errno, fails only on bytes left after those or on a closed
	 * standard output. */
	if (as_gnu && !open_tail && !stdout_closed)
		*err = 0;
	return lost_err && !lost_said;
}

void fh_out_init(void)
{
	struct stat st;

	buf = malloc(cap);
	if (!buf)
		fh_out_of_memory();
	limit = 0;
	if (fstat(STDOUT_FILENO, &st) == 0) {
		if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
			limit = PIPE_BUF;
		else
			limit = cap;
	}
	if (isatty(STDOUT_FILENO))
		limit = 0;
}

static void write_out(const char *p, size_t n)
{
	while (n && !lost_err) {
		ssize_t w = write(STDOUT_FILENO, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			lost_err = errno;
			break;
		}
		p += w;
		n -= (size_t)w;
	}
	if (!lost_err)
		return;
	lost += n;
	if (lost >= LOST_MAX)
		write_error(lost_err);
}

void fh_out_bytes(const void *p, size_t n)
{
	if (n)
		open_tail = ((const char *)p)[n - 1] != '\n';
	while (held && used + n > cap) {
		char *nb = realloc(buf, cap * 2);

		if (!nb)
			fh_out_of_memory();
		buf = nb;
		cap *= 2;
	}
	if (used + n > cap) {
		/* Send the whole lines ahead of the current one first. */
		write_out(buf, line_start);
		memmove(buf, buf + line_start, used - line_start);
		used -= line_start;
		line_start = 0;
		while (used + n > cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				/* Cannot keep the line whole: send what we have. */
				write_out(buf, used);
				used = 0;
				if (n > cap) {
					write_out(p, n);
					return;
				}
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	memcpy(buf + used, p, n);
	used += n;
}

void fh_out_str(const char *s)
{
	fh_out_bytes(s, strlen(s));
}

void fh_out_hold(bool hold)
{
	held = hold;
}

void fh_out_discard(void)
{
	memmove(buf, buf + line_start, used - line_start);
	used -= line_start;
	line_start = 0;
}

void fh_out_end_line(void)
{
	/* Keep every write within the batch limit: send the lines before
	 * this one if this one would carry the batch past it. */
	if (used > limit && line_start > 0)
		fh_out_flush();
	line_start = used;
	if (used >= limit)
		fh_out_flush();
}

void fh_out_flush(void)
{
	if (held)
		return;
	write_out(buf, line_start);
	memmove(buf, buf + line_start, used - line_start);
	used -= line_start;
	line_start = 0;
}

void fh_error(int errnum, const char *fmt, ...)
{
	va_list ap;

	fh_out_flush();
	if (!held)
		open_tail = false;
	fprintf(stderr, "%s: ", fh_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", err_text(errnum));
	fputc('\n', stderr);
}

bool fh_out_status_raw;

void fh_out_on_status(void (*hook)(void))
{
	status_hook = hook;
}

void fh_out_status(const char *name, size_t len, const char *what,
		   const char *from, size_t fromlen)
{
	bool esc = fh_name_needs_escape(name, len) ||
		   (from && fh_name_needs_escape(from, fromlen));
	char *esc_buf = NULL;

	if (fh_out_status_raw)
		esc = false;

	if (status_hook)
		status_hook();
	if (esc) {
		size_t need = 2 * (len > fromlen ? len : fromlen);

		esc_buf = fh_xmalloc(need);
		fh_out_bytes("\\", 1);
	}
	if (esc)
		fh_out_bytes(esc_buf, fh_escape_name(esc_buf, name, len, true));
	else
		fh_out_bytes(name, len);
	fh_out_str(": ");
	fh_out_str(what);
	if (from) {
		fh_out_str(" from ");
		if (esc)
			fh_out_bytes(esc_buf, fh_escape_name(esc_buf, from, fromlen, true));
		else
			fh_out_bytes(from, fromlen);
	}
	fh_out_bytes("\n", 1);
	fh_out_end_line();
	free(esc_buf);
}

const char *fh_strerror(int err)
{
	if (err == FH_ENAMEFROM)
		return err_text(ENAMETOOLONG);
	if (err == FH_ESHRANK)
		return "file shrank while being read";
	if (err == FH_ECHANGED)
		return "file changed while being read";
	if (err == FH_ENOTREG)
		return "not a regular file";
	return err_text(err);
}

/* Nothing held is flushed: a held --update report must not be said
 * when its list is not written, and the words name no file, so they
 * stand for every line that will not come. */
void fh_out_of_memory(void)
{
	fprintf(stderr, "%s: memory exhausted\n", fh_prog);
	exit(fh_usage_status);
}

void *fh_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		fh_out_of_memory();
	return p;
}

void *fh_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fh_out_of_memory();
	return p;
}

void *fh_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		fh_out_of_memory();
	return q;
}

char *fh_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		fh_out_of_memory();
	return p;
}
