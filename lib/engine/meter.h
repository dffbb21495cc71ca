/* meter.h: bytes hashed, counted by each thread for the progress line.
 * Internal to the engine. */
#ifndef FH_METER_H
#define FH_METER_H

#include <stdatomic.h>
#include <stdint.h>

/* Bytes hashed by one thread: added to by that thread and by the helpers
 * it starts for one input (the slices of a CRC file), read by the
 * caller's; a cache line of its own. */
struct fh_meter {
	_Atomic uint64_t bytes;
	char pad[64 - sizeof(uint64_t)];
};

static inline void fh_meter_add(struct fh_meter *m, uint64_t n)
{
	if (m)
		atomic_fetch_add_explicit(&m->bytes, n, memory_order_relaxed);
}

#endif
