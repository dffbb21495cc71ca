/* lines.h: the lines of a list (a checksum list, or the names of
 * --files-from and --files0-from), read from a descriptor in bounded
 * memory: a line longer than the caller's limit is reported as too long
 * and read past, never held whole. */
#ifndef FH_LINES_H
#define FH_LINES_H

#include <stdbool.h>
#include <stddef.h>

struct fh_lines {
	int fd;
	char *buf;              /* CAP bytes, and one more for a NUL */
	size_t cap;
	size_t start, end;      /* the bytes read but not yet returned */
	size_t max;             /* the longest line returned whole */
	int delim;              /* what ends a line: '\n', or '\0' */
	bool skipping;          /* reading past the rest of a long line */
	bool eof;
	bool regular;           /* FD is a regular file: reads never wait */
	int err;                /* the read error that ended the input, or 0 */
};

enum fh_lines_status {
	FH_LINES_LINE,          /* a line, without its delimiter */
	FH_LINES_TOO_LONG,      /* a line of more than MAX bytes */
	FH_LINES_END,           /* the end of the input, or a read error */
};

/* NULL, or called about every 200 ms while a read waits for input that
 * is not a regular file's (a list from a slow pipe), on the thread that
 * reads: the progress line is drawn from it. */
extern void (*fh_lines_wait_hook)(void);

/* Starts reading FD, with lines of up to MAX bytes, each ended by DELIM
 * (or by the end of the input), returned whole.  R's buffer is kept from
 * one input to the next: zero R before its first use.  Returns false
 * when memory runs out. */
bool fh_lines_start(struct fh_lines *r, int fd, size_t max, int delim);

/* The next line: FH_LINES_LINE sets *LINE and *LEN (the line is
 * followed by a NUL, and the caller may modify it; it stays valid until
 * the next call); FH_LINES_TOO_LONG sets them to the line's first MAX
 * bytes (no NUL after them).  After FH_LINES_TOO_LONG the next call first reads
 * past the rest of that line.  At FH_LINES_END, R->err holds the errno
 * value of a read error, else 0. */
enum fh_lines_status fh_lines_next(struct fh_lines *r, char **line, size_t *len);

/* Frees R's buffer. */
void fh_lines_free(struct fh_lines *r);

#endif
