/* guard.h: hashing from a mapped window without dying of its faults.  A
 * page of a mapped file that cannot be had (the file shrank under it, or
 * its read failed) raises SIGBUS, or SIGSEGV on some systems, on the
 * thread that touches it; under a guard that thread jumps back to the
 * guard instead, and the window counts as failed.  Internal to the
 * engine. */
#ifndef FH_GUARD_H
#define FH_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhsum.h"

/* Installs the handlers for SIGBUS and SIGSEGV that serve the guards.
 * Call before any thread hashes; a fault outside every guard still ends
 * the process as it would have. */
void fh_guard_init(void);

/* Runs FN(ARG) guarding the mapped window MAP of MAPLEN bytes: false when
 * FN touched a page of it that could not be had (FN was cut short, and
 * nothing it changes should be relied on).  Thread-safe: the guard is the
 * calling thread's. */
bool fh_guard_run(const uint8_t *map, size_t maplen, void (*fn)(void *),
		  void *arg);

/* fh_update(CTX, P, LEN) under that guard, P..P+LEN lying in MAP. */
bool fh_guard_update(fh_ctx *ctx, const uint8_t *map, size_t maplen,
		     const uint8_t *p, size_t len);

#endif
