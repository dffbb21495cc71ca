/* lines.c: reading list lines in bounded memory.  Reads go straight to
 * the descriptor in large blocks, and each line is found with memchr in
 * the block; only the unfinished tail of a block moves to the front
 * before the next read.  The buffer starts small and doubles up to the
 * longest line returned whole, so a list of short lines needs little
 * memory and an endless line (/dev/zero) needs no more than a long one. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lines.h"

void (*fh_lines_wait_hook)(void);

/* The first buffer: a read of this size takes hundreds of typical lines. */
#define FH_LINES_FIRST (64u << 10)

bool fh_lines_start(struct fh_lines *r, int fd, size_t max, int delim)
{
	size_t cap = max < FH_LINES_FIRST ? max + 1 : FH_LINES_FIRST;

	if (!r->buf || r->cap > max + 1) {
		free(r->buf);
		r->buf = malloc(cap + 1);
		if (!r->buf)
			return false;
		r->cap = cap;
	}
	struct stat st;

	r->fd = fd;
	r->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	r->start = r->end = 0;
	r->max = max;
	r->delim = delim;
	r->skipping = r->eof = false;
	r->err = 0;
	return true;
}

/* Reads more after the bytes kept; false at the end or on an error. */
static bool fill(struct fh_lines *r)
{
	ssize_t n;

	if (r->eof)
		return false;
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == r->cap) {
		/* Only while a line may still be returned whole: fh_lines_next
		 * stops a line longer than MAX before the buffer passes
		 * MAX + 1. */
		size_t cap = r->cap * 2 < r->max + 1 ? r->cap * 2 : r->max + 1;
		char *b = realloc(r->buf, cap + 1);

		if (!b) {
			r->err = ENOMEM;
			r->eof = true;
			return false;
		}
		r->buf = b;
		r->cap = cap;
	}
	/* A list from a pipe may keep us waiting: meanwhile the hook is
	 * called, five times a second. */
	for (struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	     fh_lines_wait_hook && !r->regular && poll(&pfd, 1, 200) == 0;)
		fh_lines_wait_hook();
	do
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		r->err = n < 0 ? errno : 0;
		r->eof = true;
		return false;
	}
	r->end += (size_t)n;
	return true;
}

enum fh_lines_status fh_lines_next(struct fh_lines *r, char **line, size_t *len)
{
	char *nl;

	while (r->skipping) {
		nl = memchr(r->buf + r->start, r->delim, r->end - r->start);
		if (nl) {
			r->start = (size_t)(nl + 1 - r->buf);
			r->skipping = false;
			break;
		}
		r->start = r->end = 0;
		if (!fill(r))
			return FH_LINES_END;
	}
	for (;;) {
		char *s = r->buf + r->start;
		size_t have = r->end - r->start;

		nl = memchr(s, r->delim, have);
		*len = nl ? (size_t)(nl - s) : have;
		if (*len > r->max) {
			/* What is left of it, if anything, is read past on
			 * the next call.  Its start stays in the buffer, for
			 * the caller's message, until then. */
			*line = s;
			*len = r->max;
			r->skipping = !nl;
			r->start = nl ? r->start + *len + 1 : r->end;
			return FH_LINES_TOO_LONG;
		}
		if (nl || (r->eof && have)) {
			s[*len] = '\0';
			r->start += nl ? *len + 1 : have;
			*line = s;
			return FH_LINES_LINE;
		}
		if (!fill(r) && r->end == r->start)
			return FH_LINES_END;
	}
}

void fh_lines_free(struct fh_lines *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
}
