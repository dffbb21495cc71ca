/* xxhash.h: what XXH3's kernels share with the family (xxhash.c).
 * Internal to the library. */
#ifndef FH_XXHASH_H
#define FH_XXHASH_H

#include <stdint.h>

/* XXH3's default secret, 192 bytes (its specification, "Seed and
 * Secret"): the kernels' stripes read its first 128 + 64 bytes. */
extern const uint8_t fh_xxh3_secret[192];

#endif
