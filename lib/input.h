/* input.h: hashing one input (a named file or standard input), mapped in
 * windows or read through a buffer.  Internal to the engine. */
#ifndef FH_INPUT_H
#define FH_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhsum.h"

/* Bytes per read(2).  Small enough that the copy out of the page cache
 * stays in L2: over 4096 cached 128 KiB files (2-core AMD EPYC), 64 KiB
 * reads took 180 ms of system time against 430 ms for 256 KiB reads, and
 * 32 KiB gained nothing more. */
#define FH_READ_SIZE (64u << 10)

/* Regular files of at least this size are mapped in windows, smaller ones
 * read: mapping costs a mmap, page faults and a munmap with its TLB
 * shootdown in a threaded process, which a small file's one copy does
 * not repay.  Measured on a 2-core AMD EPYC with md5-bmi: 4096 cached
 * 128 KiB files took 112 ms of system time read and 246 ms mapped (wall
 * 1.11x in favour of reading); one cached 1 GiB file took 73 ms of system
 * time mapped and 121 ms read, with wall times within 3%. */
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
