/* progress.c: the progress line on a terminal's stderr.  Once a run has
 * lasted a second (at once with --progress), one self-overwriting line
 * shows files and bytes done, the rate and, where the totals are known,
 * those and the time left: "3/10 files, 1.2 GiB/4.0 GiB, 800.0 MiB/s,
 * 0:00:03 left".  While inputs are still being read from a walk or a list,
 * the files' total is what is known so far, marked "+"; while some input's
 * size is unknown (a list's lines give none, standard input has none),
 * there is no bytes' total and no time left; it is erased before any other output and before exit.  Never drawn
 * when stderr is not a terminal.  Bytes count as they are hashed, so the
 * line moves inside a big file, and the rate is that of the last few
 * seconds, so it follows the data (a cold file after cached ones, a
 * large one after many small). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "engine/engine.h"

static bool enabled, drawn;
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

void fh_progress_clear(void)
{
	if (drawn) {
		fputs("\r\033[K", stderr);
		drawn = false;
	}
}

static void erase_at_exit(void)
{
	fh_progress_clear();
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

void fh_progress_tick(void *ctx, const struct fh_progress *p)
{
	double t = fh_seconds(CLOCK_MONOTONIC) - start;
	char done[64], known[32], rate[32], eta[32] = "";

	(void)ctx;
	double bps = rate_at(t, p->bytes_done);

	bool bytes_whole = p->all_known && p->files_unsized == 0;

	if (t < delay)
		return;
	if (bytes_whole && bps > 0 && p->bytes_known > p->bytes_done) {
		unsigned long s = (unsigned long)((p->bytes_known - p->bytes_done) / bps);

		snprintf(eta, sizeof eta, ", %lu:%02lu:%02lu left", s / 3600,
			 s / 60 % 60, s % 60);
	}
	fh_out_flush();
	if (bytes_whole) {
		size_t n = strlen(human(done, sizeof done, (double)p->bytes_done));

		snprintf(done + n, sizeof done - n, "/%s",
			 human(known, sizeof known, (double)p->bytes_known));
	} else {
		human(done, sizeof done, (double)p->bytes_done);
	}
	fprintf(stderr, "\r\033[K%s: %llu/%llu%s files, %s, %s/s%s", fh_prog,
		(unsigned long long)p->files_done, (unsigned long long)p->files_known,
		p->all_known ? "" : "+", done, human(rate, sizeof rate, bps), eta);
	drawn = true;
}

bool fh_progress_start(int mode)
{
	if (mode >= 0 && !enabled && isatty(STDERR_FILENO)) {
		enabled = true;
		start = fh_seconds(CLOCK_MONOTONIC);
		delay = mode > 0 ? 0 : 1.0;
		atexit(erase_at_exit);
		fh_out_on_status(fh_progress_clear);
	}
	return enabled;
}
