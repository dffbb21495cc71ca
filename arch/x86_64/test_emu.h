/* test_emu.h: what the tests of the emulated AVX-512 kernels share (see
 * test_avx512_emu.c): a splitmix64 stream of test data, seeded with
 * FH_EMU_SEED (each test defines its own before it includes this), and a
 * comparison that counts the checks and prints the first failures.
 * Static: each test program has its own copy. */
#ifndef FH_TEST_EMU_H
#define FH_TEST_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned long checks, failed;

static uint64_t rng = FH_EMU_SEED;

/* splitmix64 */
static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void check(const char *what, size_t n, const void *want,
		  const void *got, size_t len)
{
	checks++;
	if (memcmp(want, got, len) == 0)
		return;
	if (failed++ < 10)
		printf("FAIL %s (%zu)\n", what, n);
}

#endif
