/* bytes.h: little- and big-endian loads and stores and rotations, shared
 * by the portable kernels and the hash modes.  Only static inline helpers. */
#ifndef FH_BYTES_H
#define FH_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint32_t fh_load32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t fh_load64le(const uint8_t *p)
{
	return (uint64_t)fh_load32le(p) | (uint64_t)fh_load32le(p + 4) << 32;
}

static inline void fh_store32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void fh_store64le(uint8_t *p, uint64_t v)
{
	fh_store32le(p, (uint32_t)v);
	fh_store32le(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t fh_load32be(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
	       (uint32_t)p[3];
}

static inline uint64_t fh_load64be(const uint8_t *p)
{
	return (uint64_t)fh_load32be(p) << 32 | (uint64_t)fh_load32be(p + 4);
}

static inline void fh_store32be(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void fh_store64be(uint8_t *p, uint64_t v)
{
	fh_store32be(p, (uint32_t)(v >> 32));
	fh_store32be(p + 4, (uint32_t)v);
}

static inline uint32_t fh_ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << ((32 - n) & 31));
}

static inline uint64_t fh_ror64(uint64_t x, unsigned n)
{
	return (x >> n) | (x << ((64 - n) & 63));
}

static inline uint32_t fh_rol32(uint32_t x, unsigned n)
{
	return (x << n) | (x >> ((32 - n) & 31));
}

static inline uint64_t fh_rol64(uint64_t x, unsigned n)
{
	return (x << n) | (x >> ((64 - n) & 63));
}

/* How far ahead of its loads a fast streaming kernel (several GB/s: the
 * CRCs, xxHash, System V sum) prefetches.  On Intel (family 6 model 207)
 * the hardware prefetcher fell behind a stream from memory, a cached
 * mapping or an anonymous buffer alike: XXH64 took its bytes from memory
 * at 0.60x its speed on them in L1, 0.98x with a prefetch 4 KiB ahead
 * (2 KiB: 0.94x, 1 KiB: 0.80x), and XXH3 and CRC-32C, faster than
 * memory, went from 11.5 to 14.3 and from 14.2 to 16.1 GB/s
 * (docs/performance.md). */
#define FH_PREFETCH_AHEAD 4096u

/* A prefetch of the line FH_PREFETCH_AHEAD bytes past P: a hint, which
 * never faults, so it may point past the end of the input (computed as
 * an integer, not as a pointer out of its object). */
static inline void fh_prefetch_ahead(const uint8_t *p)
{
	__builtin_prefetch((const void *)((uintptr_t)p + FH_PREFETCH_AHEAD));
}

/* The kernels faster than memory (the vector CRCs and XXH3) prefetch
 * into L2 instead (PREFETCHT2 on x86), twice as far: a prefetch into L1
 * holds one of its few line-fill buffers until the line comes, and these
 * kernels need more lines in flight than those give.  From a cached
 * file in 4 KiB folios read in a shuffled order, mapped whole, Intel
 * family 6 model 207: XXH3 9.0-9.2 -> 10.9-12.2 GB/s, CRC-32C 11.2-11.9
 * -> 13.8-14.4; in 2 MiB folios both ran as before.  XXH64 and the
 * System V sum, no faster than memory, lost 3% to it in 2 MiB folios and
 * keep the prefetch above. */
#define FH_PREFETCH_FAR 8192u

static inline void fh_prefetch_far(const uint8_t *p)
{
	__builtin_prefetch((const void *)((uintptr_t)p + FH_PREFETCH_FAR), 0, 1);
}

#endif
