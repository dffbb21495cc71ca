/* input.h: hashing one input (a named file or standard input), mapped in
 * windows or read through a buffer.  Internal to the engine. */
#ifndef FH_INPUT_H
#define FH_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhsum.h"

/* Bytes per read(2): large enough to amortise the call, small enough to
 * stay in L2. */
#define FH_READ_SIZE (256u << 10)

/* Regular files of at least this size are mapped in windows, smaller ones
 * read (measured: see the README's performance section). */
#define FH_MAP_MIN (1u << 20)

struct fh_reader {
	uint8_t *buf;          /* read buffer, FH_READ_SIZE bytes */
	bool no_mmap;
};

/* Installs the SIGBUS handler that turns a fault in a mapped window of a
 * shrinking file into FH_ESHRANK.  Call before any thread hashes. */
void fh_input_init(void);

/* Hashes PATH ("-": standard input) with ALGO on KERNEL into OUT (OUTLEN
 * bytes).  Returns 0, an errno value or FH_ESHRANK; stores the bytes hashed
 * in *SIZE.  Thread-safe with one reader per thread. */
int fh_hash_input(struct fh_reader *r, const char *path,
		  const struct fh_algo *algo, const struct fh_kernel *kernel,
		  uint8_t *out, size_t outlen, uint64_t *size);

#endif
