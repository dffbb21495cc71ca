/* meter.h: bytes hashed, counted by each thread for the progress line.
 * Internal to the engine. */
#ifndef FH_METER_H
#define FH_METER_H

#include <stdatomic.h>
#include <stdint.h>

/* Bytes hashed by one thread: written by that thread alone, read by the
 * caller's; a cache line of its own. */
struct fh_meter {
	_Atomic uint64_t bytes;
	char pad[64 - sizeof(uint64_t)];
};

static inline void fh_meter_add(struct fh_meter *m, uint64_t n)
{
	if (m)
		atomic_store_explicit(&m->bytes,
				      atomic_load_explicit(&m->bytes, memory_order_relaxed) + n,
				      memory_order_relaxed);
}

#endif
