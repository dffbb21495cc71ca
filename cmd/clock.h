/* clock.h: a clock's time in seconds, for the command's timings: the
 * progress line's rate (CLOCK_MONOTONIC) and --benchmark's slices
 * (CLOCK_THREAD_CPUTIME_ID). */
#ifndef FH_CLOCK_H
#define FH_CLOCK_H

#include <time.h>

/* The time of CLOCK in seconds (0 where the system has no such clock). */
static inline double fh_seconds(clockid_t clock)
{
	struct timespec ts = { 0, 0 };

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
