/* progress.c: the progress line on a terminal's stderr.  Once a run has
 * lasted a second (at once with --progress), one self-overwriting line
 * shows files and bytes done, the rate and, where the totals are known,
 * those and the time left: "3/10 files, 1.2 GiB/4.0 GiB, 800.0 MiB/s,
 * 0:00:03 left".  While inputs are still being read from a walk or a list,
 * the files' total is what is known so far, marked "+"; while some input's
 * size is unknown (a list's lines give none, a pipe has none), there is no
 * bytes' total and no time left, and the time elapsed is shown instead.
 * Bytes count as they are hashed, so the line moves inside a big file
 * (standard input's too), and the rate is that of the last few seconds,
 * so it follows the data (a cold file after cached ones, a large one
 * after many small).
 *
 * The line never reaches the terminal's last column, so it never wraps:
 * where it would not fit, the program's name goes first, then the word
 * "files", the rate, the time, the files' count and the bytes' total,
 * and what is left is cut.  The width is read at every redraw (five a
 * second), so that a resize (SIGWINCH) is followed without a handler
 * that would interrupt the engine's system calls.  The cursor is left at
 * the line's start: a terminal that rewraps its lines when made narrower
 * (tmux, VTE, kitty...) moves it with the text, so after a resize the
 * rows below the line's start are erased too, which takes the part that
 * the narrower terminal wrapped onto a second row.  They are erased from
 * the row below (the cursor saved and restored around it), never with
 * "erase below" from the line's start: from the screen's first cell
 * some terminals push the whole screen into the scrollback instead
 * (tmux's scroll-on-clear).  The line is erased before any other output,
 * before exit, and on SIGINT or SIGTERM before the signal ends the
 * program (where nothing else catches them).  Never drawn when stderr is
 * not a terminal. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "engine/engine.h"

static bool enabled;
/* Whether a line stands, and the width it was drawn at: read by the
 * signal handler too. */
static volatile sig_atomic_t drawn, drawn_width;
static double start, delay;

/* Seconds of history the rate is taken over, and the samples that hold
 * them at the engine's five ticks a second (a few to spare). */
#define FH_RATE_SECONDS 5.0
#define FH_RATE_SAMPLES 32

static struct {
	double t;
	uint64_t bytes;
} hist[FH_RATE_SAMPLES];
static unsigned nhist, first;

/* Records BYTES done at time T; returns the rate over the last
 * FH_RATE_SECONDS (since the start, until that much has passed). */
static double rate_at(double t, uint64_t bytes)
{
	unsigned last = (first + nhist) % FH_RATE_SAMPLES;

	if (nhist == FH_RATE_SAMPLES) {
		first = (first + 1) % FH_RATE_SAMPLES;
		nhist--;
	}
	hist[last].t = t;
	hist[last].bytes = bytes;
	nhist++;
	while (nhist > 1 && t - hist[(first + 1) % FH_RATE_SAMPLES].t >= FH_RATE_SECONDS) {
		first = (first + 1) % FH_RATE_SAMPLES;
		nhist--;
	}
	double dt = t - hist[first].t;

	if (nhist < 2 || dt <= 0)
		return t > 0 ? bytes / t : 0;
	return (double)(bytes - hist[first].bytes) / dt;
}

bool fh_progress_enabled(void)
{
	return enabled;
}

/* The terminal's columns as stderr's says, 0 if it does not (this much
 * a signal handler may ask). */
static unsigned tty_columns(void)
{
	struct winsize ws;

	return ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

/* What erases the line drawn: its row, and after a resize the rows
 * below it (where nothing was but the line, and at the screen's last
 * row the move down does nothing). */
static const char *erase(void)
{
	return (sig_atomic_t)tty_columns() == drawn_width
		       ? "\r\033[K"
		       : "\r\033[K\0337\033[B\033[J\0338";
}

void fh_progress_clear(void)
{
	if (drawn) {
		fputs(erase(), stderr);
		drawn = false;
	}
}

static void erase_at_exit(void)
{
	fh_progress_clear();
}

/* SIGINT, SIGTERM: the line is erased (write(2) alone, which a handler
 * may call), then the signal, back to its default, ends the program as
 * it would have. */
static void erase_on_signal(int sig)
{
	if (drawn) {
		const char *e = erase();
		ssize_t n = write(STDERR_FILENO, e, strlen(e));

		(void)n;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The terminal's columns: stderr's, else $COLUMNS, else 80. */
static unsigned columns(void)
{
	unsigned cols = tty_columns();
	const char *env = getenv("COLUMNS");

	if (cols > 0)
		return cols;
	if (env && atoi(env) > 0)
		return (unsigned)atoi(env);
	return 80;
}

/* Writes N bytes as "12.3 MiB" into BUF. */
static const char *human(char *buf, size_t size, double n)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (n >= 1024 && u < 4) {
		n /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", n, units[u]);
	return buf;
}

/* The fields of a line, and which of them a line of a given width
 * keeps: the steps of FIT, tried in order until one fits. */
struct fields {
	const char *files, *plus, *done, *known, *rate, *time;
};

enum {
	KEEP_PROG = 1 << 0,
	KEEP_WORD = 1 << 1,     /* "files" after the count */
	KEEP_RATE = 1 << 2,
	KEEP_TIME = 1 << 3,
	KEEP_FILES = 1 << 4,
	KEEP_TOTAL = 1 << 5,    /* the bytes' total after the bytes done */
	KEEP_ALL = (1 << 6) - 1,
};

static const unsigned fit[] = {
	KEEP_ALL,
	KEEP_ALL & ~KEEP_PROG,
	KEEP_ALL & ~(KEEP_PROG | KEEP_WORD),
	KEEP_TIME | KEEP_FILES | KEEP_TOTAL,
	KEEP_FILES | KEEP_TOTAL,
	KEEP_TOTAL,
	0,
};

/* The line F makes with the fields KEEP says, into BUF; its length. */
static size_t compose(char *buf, size_t size, const struct fields *f, unsigned keep)
{
	int n = snprintf(buf, size, "%s%s%s%s%s%s%s%s%s%s%s%s%s%s",
			 keep & KEEP_PROG ? fh_prog : "", keep & KEEP_PROG ? ": " : "",
			 keep & KEEP_FILES ? f->files : "", keep & KEEP_FILES ? f->plus : "",
			 (keep & (KEEP_FILES | KEEP_WORD)) == (KEEP_FILES | KEEP_WORD)
				 ? " files" : "",
			 keep & KEEP_FILES ? ", " : "",
			 f->done, keep & KEEP_TOTAL && *f->known ? "/" : "",
			 keep & KEEP_TOTAL ? f->known : "",
			 keep & KEEP_RATE ? ", " : "", keep & KEEP_RATE ? f->rate : "",
			 keep & KEEP_RATE ? "/s" : "",
			 keep & KEEP_TIME ? ", " : "", keep & KEEP_TIME ? f->time : "");

	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

void fh_progress_tick(void *ctx, const struct fh_progress *p)
{
	double t = fh_seconds(CLOCK_MONOTONIC) - start;
	char files[48], done[32], known[32] = "", rate[32], time[32], line[256];
	unsigned long s;

	(void)ctx;
	double bps = rate_at(t, p->bytes_done);

	bool bytes_whole = p->all_known && p->files_unsized == 0;

	if (t < delay)
		return;
	if (bytes_whole && bps > 0 && p->bytes_known > p->bytes_done) {
		s = (unsigned long)((p->bytes_known - p->bytes_done) / bps);
		snprintf(time, sizeof time, "%lu:%02lu:%02lu left", s / 3600,
			 s / 60 % 60, s % 60);
	} else {
		s = (unsigned long)t; /* no time left to tell: the time spent */
		snprintf(time, sizeof time, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60,
			 s % 60);
	}
	snprintf(files, sizeof files, "%llu/%llu", (unsigned long long)p->files_done,
		 (unsigned long long)p->files_known);
	human(done, sizeof done, (double)p->bytes_done);
	if (bytes_whole)
		human(known, sizeof known, (double)p->bytes_known);
	human(rate, sizeof rate, bps);

	const struct fields f = { files, p->all_known ? "" : "+", done, known, rate, time };
	/* Up to the last column but one: a line that reaches the last
	 * column leaves some terminals' cursor waiting to wrap. */
	unsigned width = columns();
	size_t room = width > 1 ? width - 1 : 1, n = 0;
	const char *wipe = drawn ? erase() : "\r\033[K";

	for (size_t i = 0; i < sizeof fit / sizeof *fit; i++)
		if ((n = compose(line, sizeof line, &f, fit[i])) <= room)
			break;
	if (n > room)
		n = room;
	fh_out_flush();
	fprintf(stderr, "%s%.*s\r", wipe, (int)n, line);
	drawn_width = (sig_atomic_t)tty_columns();
	drawn = true;
}

/* SIGINT and SIGTERM erase the line before they end the program, unless
 * something else handles them (a scrub does, and clears the line
 * itself) or they are ignored (a background job, nohup). */
static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = erase_on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
}

bool fh_progress_start(int mode)
{
	if (mode >= 0 && !enabled && isatty(STDERR_FILENO)) {
		enabled = true;
		start = fh_seconds(CLOCK_MONOTONIC);
		delay = mode > 0 ? 0 : 1.0;
		atexit(erase_at_exit);
		fh_out_on_status(fh_progress_clear);
		catch_signals();
	}
	return enabled;
}
