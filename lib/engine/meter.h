/* meter.h: what each thread counts for the others to read: the bytes it
 * hashed (the progress line) and the descriptors it holds open (the
 * engine's limit, input.h).  Internal to the engine. */
#ifndef FH_METER_H
#define FH_METER_H

#include <stdatomic.h>
#include <stdint.h>

/* Bytes hashed by one thread: added to by that thread and by the helpers
 * it starts for one input (the slices of a CRC file), read by the
 * caller's.  FDS: the descriptors of the inputs that thread opened and
 * has not closed.  A cache line of its own, which no other thread writes
 * as often as every input. */
struct fh_meter {
	_Atomic uint64_t bytes;
	_Atomic int fds;
	char pad[64 - sizeof(uint64_t) - sizeof(int)];
};

static inline void fh_meter_add(struct fh_meter *m, uint64_t n)
{
	if (m)
		atomic_fetch_add_explicit(&m->bytes, n, memory_order_relaxed);
}

#endif
