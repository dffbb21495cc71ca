/* kernels_x86.h: the x86-64 kernels' descriptors, for lib/dispatch.c's
 * tables, and the entry points written in assembly.  Only declarations.
 * A descriptor exists only where its meson library was built, so each is
 * guarded by the FH_HAVE_* macro arch/x86_64/meson.build defines for it. */
#ifndef FH_KERNELS_X86_H
#define FH_KERNELS_X86_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/* The Keccak kernels take 24 or 12 rounds (kernel.h).  Each inlines its
 * loop twice, once per round count as a constant: with the count a
 * variable, keccak-avx512x8 measured 4% slower and keccak-bmi2 1.5% on
 * SHA3-256 (`fhsum --benchmark`, three runs alternating, AMD EPYC Zen 4),
 * the round-constant addresses and the loop's end no longer folded. */

/* RUN(A, B, NBLOCKS, RATE, ROUNDS) with ROUNDS a constant, so that the
 * loop RUN inlines once per round count. */
#define FH_KECCAK_BY_ROUNDS(run, a, b, nblocks, rate, rounds)               \
	((rounds) == FH_KECCAK_P12_ROUNDS                                  \
		 ? run(a, b, nblocks, rate, FH_KECCAK_P12_ROUNDS)           \
		 : run(a, b, nblocks, rate, FH_KECCAK_F_ROUNDS))

/* The single-stream entry points fh_keccak_absorb_NAME and
 * fh_keccak_permute_NAME over a kernel file's keccak_run(state, data,
 * nblocks, rate, rounds), which must inline with ROUNDS constant
 * (permute: no data, one pass). */
#define FH_KECCAK_SINGLE_ENTRIES(name)                                      \
	static void fh_keccak_absorb_##name(uint64_t state[25],            \
					    const uint8_t *data,           \
					    size_t nblocks, size_t rate,   \
					    unsigned rounds)               \
	{                                                                  \
		FH_KECCAK_BY_ROUNDS(keccak_run, state, data, nblocks, rate, \
				    rounds);                               \
	}                                                                  \
	static void fh_keccak_permute_##name(uint64_t state[25],           \
					     unsigned rounds)              \
	{                                                                  \
		fh_keccak_absorb_##name(state, NULL, 1, 0, rounds);        \
	}

/* The multi-buffer entry point fh_keccak_absorb_NAME over RUN(states,
 * data, nblocks, rate, rounds), inlined with ROUNDS constant. */
#define FH_KECCAK_MULTI_ENTRY(name, run)                                    \
	static void fh_keccak_absorb_##name(uint64_t (*states)[25],        \
					    const uint8_t *const *data,    \
					    size_t nblocks, size_t rate,   \
					    unsigned rounds)               \
	{                                                                  \
		FH_KECCAK_BY_ROUNDS(run, states, data, nblocks, rate,      \
				    rounds);                               \
	}

/* MD5 on the general registers with BMI1 (md5_bmi.S). */
extern const struct fh_kernel fh_md5_bmi;
/* MD5 in one lane of the AVX-512VL vector registers (md5_avx512.c). */
extern const struct fh_kernel fh_md5_avx512;
/* Keccak on the general registers with BMI1 and BMI2 (keccak_bmi2.c). */
extern const struct fh_kernel fh_keccak_bmi2;
/* Keccak in AVX2 vector registers, one state (keccak_avx2.c). */
extern const struct fh_kernel fh_keccak_avx2;
/* Keccak, one lane per AVX-512VL XMM register (keccak_avx512.c). */
extern const struct fh_kernel fh_keccak_avx512;

/* Multi-buffer: MD5 on 8 and 16 lanes of AVX2 (md5_avx2x8.c,
 * md5_avx2x16.c) and on 16 and 32 of AVX-512VL (md5_avx512x16.c,
 * md5_avx512x32.c); Keccak on 4 states in AVX2 (keccak_avx2x4.c) and 8 in
 * AVX-512 (keccak_avx512x8.c). */
extern const struct fh_kernel fh_md5_avx2x8;
extern const struct fh_kernel fh_md5_avx2x16;
extern const struct fh_kernel fh_md5_avx512x16;
extern const struct fh_kernel fh_md5_avx512x32;
extern const struct fh_kernel fh_keccak_avx2x4;
extern const struct fh_kernel fh_keccak_avx512x8;

/* SHA-1 and SHA-256 on the SHA extensions, one stream and two
 * interleaved (sha_ni.c). */
extern const struct fh_kernel fh_sha1_shani;
extern const struct fh_kernel fh_sha256_shani;
extern const struct fh_kernel fh_sha1_shanix2;
extern const struct fh_kernel fh_sha256_shanix2;

/* SHA-512: the schedule in AVX2, the rounds with BMI2 (sha512_avx2.c). */
extern const struct fh_kernel fh_sha512_avx2;

/* Multi-buffer SHA: 8 lanes of SHA-1 and SHA-256 and 4 of SHA-512 in AVX2
 * (sha_avx2xn.c); 16 and 8 in AVX-512 (sha_avx512xn.c).  Both over
 * sha_lanes.h. */
extern const struct fh_kernel fh_sha1_avx2x8;
extern const struct fh_kernel fh_sha256_avx2x8;
extern const struct fh_kernel fh_sha512_avx2x4;
extern const struct fh_kernel fh_sha1_avx512x16;
extern const struct fh_kernel fh_sha256_avx512x16;
extern const struct fh_kernel fh_sha512_avx512x8;

/* BLAKE2b, one stream, the work vector's rows in YMM registers: AVX2
 * (blake2b_avx2.c) and AVX-512VL's rotates (blake2b_avx512.c); in lanes,
 * 4 messages in AVX2 (blake2b_avx2x4.c) and 8 in AVX-512
 * (blake2b_avx512x8.c). */
extern const struct fh_kernel fh_blake2b_avx2;
extern const struct fh_kernel fh_blake2b_avx512;
extern const struct fh_kernel fh_blake2b_avx2x4;
extern const struct fh_kernel fh_blake2b_avx512x8;
/* CRC (crc_pclmul.c): every model by carry-less multiply folding. */
extern const struct fh_kernel fh_crc_pclmul;
/* The same on YMM registers (crc_vpclmul.c), VPCLMULQDQ with AVX2. */
extern const struct fh_kernel fh_crc_vpclmul;
/* CRC-32C by SSE4.2's crc32, three chains (crc_sse42.c); the other
 * models by the folding kernels. */
extern const struct fh_kernel fh_crc_sse42;
/* The same on ZMM registers (crc_avx512.c), VPCLMULQDQ with AVX-512F
 * and BW. */
extern const struct fh_kernel fh_crc_avx512;
/* XXH3's blocks on AVX2 (xxh3_avx2.c) and AVX-512F (xxh3_avx512.c). */
extern const struct fh_kernel fh_xxh_avx2;
extern const struct fh_kernel fh_xxh_avx512;

/* The assembly entry point of md5-bmi: fh_md5_blocks_fn. */
void fh_md5_blocks_bmi(uint32_t state[4], const uint8_t *data, size_t nblocks);

/* BLAKE3: whole chunks and parents 4, 8 and 16 at a time, one per lane
 * (blake3_sse41.c, blake3_avx2.c, blake3_avx512.c: blake3-sse41,
 * blake3-avx2, blake3-avx512), and the lanes of many inputs' first chunks
 * (blake3-sse41x4, blake3-avx2x8, blake3-avx512x16).  The wider kernels
 * hand what is left over to the narrower ones and compress single blocks
 * with the SSE4.1 code; test_avx512_emu calls the AVX-512 functions. */
#if defined(FH_HAVE_X86_BLAKE3_SSE41)
extern const struct fh_kernel fh_blake3_sse41, fh_blake3_sse41x4;
fh_blake3_compress_fn fh_blake3_compress_sse41;
fh_blake3_chunks_fn fh_blake3_chunks_sse41;
fh_blake3_parents_fn fh_blake3_parents_sse41;
#endif
#if defined(FH_HAVE_X86_BLAKE3_AVX2)
extern const struct fh_kernel fh_blake3_avx2, fh_blake3_avx2x8;
fh_blake3_chunks_fn fh_blake3_chunks_avx2;
fh_blake3_parents_fn fh_blake3_parents_avx2;
#endif
#if defined(FH_HAVE_X86_BLAKE3_AVX512) || defined(FH_AVX512_EMULATE)
extern const struct fh_kernel fh_blake3_avx512, fh_blake3_avx512x16;
fh_blake3_chunks_fn fh_blake3_chunks_avx512;
fh_blake3_parents_fn fh_blake3_parents_avx512;
fh_blake3_lanes_fn fh_blake3_lanes_avx512x16;
fh_blake3_roots_fn fh_blake3_roots_avx512x16;
#endif

#endif
