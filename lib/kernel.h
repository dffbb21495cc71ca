/* kernel.h: kernel descriptors, CPU features and kernel selection.
 *
 * A kernel is a constant descriptor holding the block functions of one
 * algorithm family for one instruction set.  Each family has a table ordered
 * best first that ends with the portable kernel, which every CPU runs and
 * every other kernel is tested against.  Adding a kernel is one file in
 * arch/<isa>/ and one line in the table in lib/dispatch.c.
 */
#ifndef FH_KERNEL_H
#define FH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhsum.h"

/* CPU feature bits, as read by fh_cpu_probe(). */
enum {
	FH_CPU_X86_BMI1 = 1u << 0,
	FH_CPU_X86_BMI2 = 1u << 1,
	FH_CPU_X86_AVX2 = 1u << 2,     /* CPUID and XCR0 agree */
	FH_CPU_X86_AVX512F = 1u << 3,  /* CPUID and XCR0 (opmask, ZMM) agree */
	FH_CPU_X86_AVX512VL = 1u << 4,
	FH_CPU_X86_AVX512BW = 1u << 5,
	FH_CPU_ARM_ASIMD = 1u << 16,
	FH_CPU_ARM_SHA3 = 1u << 17,
	/* Set where the CPU's identity says the SHA3 extension beats the
	 * general-register Keccak (cores that issue it on every vector pipe). */
	FH_CPU_ARM_SHA3_FAST = 1u << 18,
};

/* MD5: compress NBLOCKS consecutive 64-byte blocks into STATE. */
typedef void fh_md5_blocks_fn(uint32_t state[4], const uint8_t *data,
			      size_t nblocks);
/* Keccak: for each of NBLOCKS blocks of RATE bytes (a multiple of 8, at most
 * FH_MAX_BLOCK), XOR it into the state as little-endian lanes and apply
 * Keccak-f[1600]. */
typedef void fh_keccak_absorb_fn(uint64_t state[25], const uint8_t *data,
				 size_t nblocks, size_t rate);
/* Keccak-f[1600] on STATE (FIPS 202 §3.3, 24 rounds). */
typedef void fh_keccak_permute_fn(uint64_t state[25]);

/* Multi-buffer kernels advance LANES independent hashes together, one per
 * SIMD lane: for every lane i < lanes, the same as the single-stream
 * function on STATES[i] and DATA[i] for NBLOCKS blocks.  Every lane is
 * processed: a caller with fewer inputs points the spare lanes at any
 * readable data of NBLOCKS blocks and a scratch state. */
typedef void fh_md5_blocks_xn_fn(uint32_t (*states)[4],
				 const uint8_t *const *data, size_t nblocks);
typedef void fh_keccak_absorb_xn_fn(uint64_t (*states)[25],
				    const uint8_t *const *data, size_t nblocks,
				    size_t rate);

struct fh_kernel {
	const char *name;       /* "md5-portable", "keccak-avx512"... */
	enum fh_family family;
	unsigned lanes;         /* inputs hashed at once; 1 for single stream */
	uint32_t features;      /* FH_CPU_* bits this kernel needs to run */
	/* FH_CPU_* bits it also needs to be chosen by default: a kernel that
	 * runs everywhere with `features` but pays only on some CPUs.  Forcing
	 * it (--kernel, FHSUM_KERNEL) checks `features` alone.  0 for most. */
	uint32_t prefer;
	/* Single stream (lanes == 1). */
	fh_md5_blocks_fn *md5_blocks;
	fh_keccak_absorb_fn *keccak_absorb;
	fh_keccak_permute_fn *keccak_permute;
	/* Multi-buffer (lanes > 1). */
	fh_md5_blocks_xn_fn *md5_blocks_xn;
	fh_keccak_absorb_xn_fn *keccak_absorb_xn;
};

/* The most lanes any multi-buffer kernel has. */
#define FH_MAX_LANES 16

/* The portable kernels: plain C that follows the specifications. */
extern const struct fh_kernel fh_md5_portable;
extern const struct fh_kernel fh_keccak_portable;

/* The CPU's FH_CPU_* bits; probed once, thread-safe. */
uint32_t fh_cpu_features(void);
/* The probe itself, one per architecture (arch/<isa>/cpu.c); call
 * fh_cpu_features() instead. */
uint32_t fh_cpu_probe(void);

/* Whether this CPU can run K: it has K's `features`. */
int fh_kernel_usable(const struct fh_kernel *k);
/* The first single-stream kernel of FAMILY's table that this CPU runs and
 * whose `prefer` bits it also has; never NULL. */
const struct fh_kernel *fh_kernel_best(enum fh_family family);
/* The same among FAMILY's multi-buffer kernels; NULL when none fits. */
const struct fh_kernel *fh_kernel_best_multi(enum fh_family family);
/* The kernel named NAME, usable or not; NULL when there is none. */
const struct fh_kernel *fh_kernel_by_name(const char *name);
/* The I-th kernel of all families (best first within each family), or NULL
 * past the end: for listings and tests. */
const struct fh_kernel *fh_kernel_at(size_t i);

/* The kernels one run uses: per family, a single-stream kernel and
 * perhaps a multi-buffer one.  When a kernel is forced, it alone does its
 * family's work: forcing a single-stream kernel drops the multi-buffer
 * one, and a forced multi-buffer kernel takes every input it can. */
struct fh_kernel_set {
	const struct fh_kernel *by_family[FH_FAMILY_COUNT];
	const struct fh_kernel *multi[FH_FAMILY_COUNT];
	bool forced[FH_FAMILY_COUNT];
};

enum fh_select_status {
	FH_SELECT_OK,
	FH_SELECT_UNKNOWN,     /* no kernel of that name */
	FH_SELECT_UNSUPPORTED, /* this CPU cannot run it */
};

/* Fills SET with the best kernel of each family, then forces the kernels
 * named in FORCED (NULL, or names separated by commas).  On failure stores
 * the offending name's start in *BAD and its length in *BADLEN. */
enum fh_select_status fh_kernel_select(struct fh_kernel_set *set,
				       const char *forced, const char **bad,
				       size_t *badlen);

#endif
