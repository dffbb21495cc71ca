/* test_budget.c: cmd/budget.c, the budgets of --max-time and --max-bytes.
 * The sizes' expected values are what GNU head -c 9.1 read each string
 * as (tests/cli/scrub.bats also asks head itself); the durations' are
 * what timeout(1) 9.1 takes (scrub.bats asks timeout itself). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "budget.h"

static int failures;

static void size_row(const char *s, int ok, uint64_t want)
{
	uint64_t got = 0;
	bool r = fh_parse_size(s, &got);

	if (r != (ok != 0) || (r && got != want)) {
		printf("FAIL size '%s': %d %llu, want %d %llu\n", s, r,
		       (unsigned long long)got, ok, (unsigned long long)want);
		failures++;
	}
}

static void duration_row(const char *s, int ok, double want)
{
	double got = -1;
	bool r = fh_parse_duration(s, &got);

	if (r != (ok != 0) || (r && (got < want - 1e-9 || got > want + 1e-9))) {
		printf("FAIL duration '%s': %d %g, want %d %g\n", s, r, got, ok, want);
		failures++;
	}
}

int main(void)
{
	size_row("0", 1, 0);
	size_row("1", 1, 1);
	size_row("010", 1, 10);
	size_row("1b", 1, 512);
	size_row("1k", 1, 1024);
	size_row("1K", 1, 1024);
	size_row("1kB", 1, 1000);
	size_row("1KB", 1, 1000);
	size_row("1KiB", 1, 1024);
	size_row("1kiB", 1, 1024);
	size_row("1m", 1, 1048576);
	size_row("500M", 1, 500ull << 20);
	size_row("1MB", 1, 1000000);
	size_row("2G", 1, 2ull << 30);
	size_row("2GB", 1, 2000000000ull);
	size_row("1T", 1, 1ull << 40);
	size_row("1TB", 1, 1000000000000ull);
	size_row("1P", 1, 1ull << 50);
	size_row("15E", 1, 15ull << 60);
	size_row("18446744073709551615", 1, UINT64_MAX);
	size_row(" 5", 1, 5);
	size_row("+5", 1, 5);
	static const char *const bad_sizes[] = {
		"", "B", "1B", "1g", "1t", "1e", "1KIB", "1Kb", "1bB", "1.5K",
		"0x10", "-1", "1 K", "1KiBx", "16E", "1Z", "1Y",
		"18446744073709551616",
	};
	for (size_t i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; i++)
		size_row(bad_sizes[i], 0, 0);

	duration_row("0", 1, 0);
	duration_row("90", 1, 90);
	duration_row("90s", 1, 90);
	duration_row("1.5", 1, 1.5);
	duration_row(".5", 1, 0.5);
	duration_row("2.", 1, 2);
	duration_row("15m", 1, 900);
	duration_row("2h", 1, 7200);
	duration_row("1d", 1, 86400);
	duration_row("0.25h", 1, 900);
	/* What strtod takes, as timeout(1) reads it. */
	duration_row(" 5", 1, 5);
	duration_row("\t5", 1, 5);
	duration_row("+5", 1, 5);
	duration_row("1e3", 1, 1000);
	duration_row("1.5e1s", 1, 15);
	duration_row("1e1m", 1, 600);
	duration_row("0x10", 1, 16);
	duration_row("0x1.8p1h", 1, 10800);
	duration_row("inf", 1, HUGE_VAL);
	duration_row("infinity", 1, HUGE_VAL);
	duration_row("1e400", 1, HUGE_VAL);
	duration_row("1e-400", 1, 0);
	duration_row("-0", 1, 0);
	duration_row("40000d", 1, 40000.0 * 86400);
	static const char *const bad_durations[] = {
		"", "s", ".", "-1", "1x", "1 m", "1ms", "1..2", "5 ", " ",
		"nan", "-inf", "0x", "1e", "1e+", "5S", "5M", "+-5", "5ss",
	};
	for (size_t i = 0; i < sizeof bad_durations / sizeof *bad_durations; i++)
		duration_row(bad_durations[i], 0, 0);
	if (failures)
		printf("%d failures\n", failures);
	else
		printf("budget: all passed\n");
	return failures ? 1 : 0;
}
