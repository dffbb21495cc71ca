/* kernels_arm.h: the AArch64 kernels' descriptors, for lib/dispatch.c's
 * tables, and their assembly entry points, for the descriptors and the unit
 * tests.  Only declarations. */
#ifndef FH_KERNELS_ARM_H
#define FH_KERNELS_ARM_H

#include <stdint.h>

#include "kernel.h"

/* md5-gpr: MD5 in general registers (md5_gpr.S); every AArch64 CPU. */
extern const struct fh_kernel fh_md5_gpr;
/* keccak-gpr: Keccak with all 25 lanes in general registers
 * (keccak_gpr.S); every AArch64 CPU. */
extern const struct fh_kernel fh_keccak_gpr;
/* keccak-sha3ce: Keccak with the SHA3 extension (keccak_sha3ce.S).  Runs
 * with FH_CPU_ARM_SHA3; chosen by default only with FH_CPU_ARM_SHA3_FAST. */
extern const struct fh_kernel fh_keccak_sha3ce;
/* sha1-ce, sha256-ce, sha512-ce: SHA-1, SHA-256 (and SHA-224) and SHA-512
 * (and SHA-384) with the Arm SHA instructions (sha1_ce.S, sha256_ce.S,
 * sha512_ce.S).  Need FH_CPU_ARM_SHA1, FH_CPU_ARM_SHA2 and
 * FH_CPU_ARM_SHA512 (Armv8.2) respectively. */
extern const struct fh_kernel fh_sha1_ce;
extern const struct fh_kernel fh_sha256_ce;
extern const struct fh_kernel fh_sha512_ce;

/* Multi-buffer kernels (lanes > 1), for lib/dispatch.c's multi tables. */
/* md5-neonx4: four MD5 messages, one per 32-bit lane of Advanced SIMD
 * (md5_neonx4.S); needs FH_CPU_ARM_ASIMD. */
extern const struct fh_kernel fh_md5_neonx4;
/* keccak-sha3cex2: two Keccak sponges, one per 64-bit half, with the SHA3
 * extension (keccak_sha3ce.S).  Runs with FH_CPU_ARM_SHA3; chosen by
 * default only with FH_CPU_ARM_SHA3_FAST, as keccak-sha3ce. */
extern const struct fh_kernel fh_keccak_sha3cex2;
/* keccak-neonx2: two Keccak sponges with plain Advanced SIMD
 * (keccak_neonx2.S); needs FH_CPU_ARM_ASIMD. */
extern const struct fh_kernel fh_keccak_neonx2;

/* The entry points, with the types of kernel.h. */
fh_md5_blocks_fn fh_md5_blocks_gpr;
fh_keccak_absorb_fn fh_keccak_absorb_gpr;
fh_keccak_permute_fn fh_keccak_permute_gpr;
fh_keccak_absorb_fn fh_keccak_absorb_sha3ce;
fh_keccak_permute_fn fh_keccak_permute_sha3ce;
fh_md5_blocks_xn_fn fh_md5_blocks_x4_neon;
fh_keccak_absorb_xn_fn fh_keccak_absorb_x2_sha3ce;
fh_keccak_absorb_xn_fn fh_keccak_absorb_x2_neon;
fh_sha1_blocks_fn fh_sha1_blocks_ce;
/* The SHA-2 kernels take the round constants K as data, from the tables
 * that the portable kernels use (lib/sha256_k.h, lib/sha512_k.h). */
void fh_sha256_blocks_ce(uint32_t state[8], const uint8_t *data,
			 size_t nblocks, const uint32_t k[64]);
void fh_sha512_blocks_ce(uint64_t state[8], const uint8_t *data,
			 size_t nblocks, const uint64_t k[80]);

/* Keccak-f[1600] on two states at once, one in each 64-bit half of the
 * vector registers: the permutations of the two-state kernels, for
 * tests/unit/test_keccak_x2.c and the instruction counts.  The _sha3ce one
 * (keccak_sha3ce.S) needs FH_CPU_ARM_SHA3, the _neon one (keccak_neonx2.S)
 * FH_CPU_ARM_ASIMD. */
void fh_keccak_permute_x2_sha3ce(uint64_t s0[25], uint64_t s1[25],
				 unsigned rounds);
void fh_keccak_permute_x2_neon(uint64_t s0[25], uint64_t s1[25],
			       unsigned rounds);

/* BLAKE3 on Advanced SIMD: whole chunks and parents four at a time
 * (blake3-neon) and the lanes of four inputs' first chunks
 * (blake3-neonx4), both in blake3_neon.c, and blake3-neon's functions. */
extern const struct fh_kernel fh_blake3_neon, fh_blake3_neonx4;
fh_blake3_compress_fn fh_blake3_compress_neon;
fh_blake3_chunks_fn fh_blake3_chunks_neon;
fh_blake3_parents_fn fh_blake3_parents_neon;

/* BLAKE2b on Advanced SIMD (blake2b_neon.c): one stream, each row of
 * the work vector in two registers (blake2b-neon), and two messages, one
 * per 64-bit lane (blake2b-neonx2); both need FH_CPU_ARM_ASIMD. */
extern const struct fh_kernel fh_blake2b_neon, fh_blake2b_neonx2;

/* The checksums.  crc-pmull: every CRC model by folding with PMULL
 * (crc_pmull.c); needs FH_CPU_ARM_PMULL.  crc-armv8: crc32b and crc32c
 * with the CRC32 instructions, the other models by crc-pmull's function
 * where the CPU has PMULL (crc_armv8.c); needs FH_CPU_ARM_CRC32.
 * xxh-neon: XXH3's blocks on Advanced SIMD (xxh3_neon.c). */
extern const struct fh_kernel fh_crc_pmull, fh_crc_armv8, fh_xxh_neon;
/* crc-pmull's function (fh_crc_update_fn), for crc-armv8's other models;
 * call it only where FH_CPU_ARM_PMULL is set. */
struct fh_crc_model;
uint64_t fh_crc_pmull_update(const struct fh_crc_model *m, uint64_t reg,
			     const uint8_t *p, size_t n);

#endif
