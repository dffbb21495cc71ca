/* testutil.h: helpers shared by the unit tests in tests/unit.
 *
 * Test-only code: a seeded PRNG so every run sees the same inputs, the byte
 * pattern of tests/vectors, hex conversion, readers for the vector files,
 * and kernel iteration that tells a kernel this CPU cannot run (skip) from
 * one that is broken (fail).  Nothing here is part of libfhsum.
 */
#ifndef FH_TESTUTIL_H
#define FH_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fhsum.h"
#include "kernel.h"

/* Meson's convention for a test that could not run its subject. */
#define TU_EXIT_SKIP 77

/* The modulus of the vector pattern: byte i is i % 251 (tests/vectors/gen.py). */
#define TU_PATTERN_MOD 251

/* splitmix64: tiny, full-period, and good enough to pick split points. */
struct tu_rng {
	uint64_t s;
};
uint64_t tu_rand(struct tu_rng *r);
/* Uniform-enough value in [0, n); n must be > 0. */
size_t tu_rand_below(struct tu_rng *r, size_t n);
void tu_rand_bytes(struct tu_rng *r, uint8_t *out, size_t len);

/* Fills BUF with the vector pattern, starting at pattern index 0. */
void tu_fill_pattern(uint8_t *buf, size_t len);

/* Decodes HEXLEN hex digits (either case) into HEXLEN/2 bytes.  Returns 0,
 * or -1 when HEXLEN is odd or a character is not a hex digit. */
int tu_unhex(uint8_t *out, const char *hex, size_t hexlen);
/* Prints LEN bytes as hex to F. */
void tu_print_hex(FILE *f, const uint8_t *bytes, size_t len);

/* The portable kernel of FAMILY: the reference for every other kernel. */
const struct fh_kernel *tu_portable(enum fh_family family);

/* Whether K can serve a fh_ctx: it has the single-stream entry points of its
 * family.  A multi-lane kernel may lack them; see tu_kernel_testable. */
int tu_kernel_single_stream(const struct fh_kernel *k);

enum tu_kernel_verdict {
	TU_KERNEL_RUN,   /* usable here and single-stream: test it */
	TU_KERNEL_SKIP,  /* this CPU cannot run it, or no single-stream API */
	TU_KERNEL_BROKEN /* a single-lane kernel without its functions */
};
/* Decides whether K is tested, printing "SKIP kernel NAME (why)" or a FAIL
 * line when it is not. */
enum tu_kernel_verdict tu_kernel_testable(const struct fh_kernel *k);

/* Looks up the kernel named NAME for a test's optional argument.  Returns it
 * when it should be tested; otherwise prints why and returns NULL with
 * *EXIT_CODE set to TU_EXIT_SKIP (not built here, not usable) or 1. */
const struct fh_kernel *tu_kernel_arg(const char *name, int *exit_code);

/* Init, one update, final on kernel K. */
/* fh_init_kernel for a digest of OUTLEN bytes (BLAKE2b's parameter). */
void tu_init_on(fh_ctx *ctx, const struct fh_algo *algo,
		const struct fh_kernel *k, size_t outlen);
void tu_hash_on(const struct fh_algo *algo, const struct fh_kernel *k,
		const void *data, size_t len, uint8_t *out, size_t outlen);

/* A line reader for the vector files that skips comments and blank lines.
 * tu_next_line returns the line without its newline, or NULL at the end. */
struct tu_lines {
	FILE *f;
	char *path;
	char *buf;
	size_t cap;
	unsigned lineno;
};
int tu_lines_open(struct tu_lines *l, const char *dir, const char *name);
char *tu_next_line(struct tu_lines *l);
void tu_lines_close(struct tu_lines *l);

/* An <algo>.len file: the digest of the pattern for every length 0..maxlen. */
struct tu_lenvec {
	size_t count;     /* lengths 0..count-1 are present */
	size_t outlen;    /* bytes per digest */
	uint8_t *digests; /* count * outlen bytes, indexed by length */
};
/* Loads DIR/<ALGO->name>.len.  Returns 0, or -1 after printing why (missing
 * file, malformed line, lengths not consecutive from 0, or a fixed-length
 * algorithm's digest of the wrong size). */
int tu_lenvec_load(struct tu_lenvec *v, const char *dir,
		   const struct fh_algo *algo);
void tu_lenvec_free(struct tu_lenvec *v);

#endif
