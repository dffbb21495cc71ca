/* kernel.h: kernel descriptors, CPU features and kernel selection.
 *
 * A kernel is a constant descriptor holding the block functions of one
 * algorithm family for one instruction set.  Each family has a table ordered
 * best first that ends with the portable kernel, which every CPU runs and
 * every other kernel is tested against.  Adding a kernel takes its source
 * in arch/<isa>/ (on AArch64 a .S, its descriptor in kernels_arm.c), the
 * descriptor's declaration in arch/x86_64/kernels_x86.h or
 * arch/aarch64/kernels_arm.h, its source in arch/<isa>/meson.build (on
 * x86-64 in its instruction set's row, with its name), and its row in its
 * family's table in lib/dispatch.c; one that needs a CPU feature not yet
 * probed adds an FH_CPU_* bit below and its rule in lib/cpu_rules.c.  The
 * unit tests find every kernel through fh_kernel_at.
 */
#ifndef FH_KERNEL_H
#define FH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhsum.h"

/* CPU feature bits.  The first group says what a CPU can run, from its
 * feature registers; the second says where a kernel that runs pays, from
 * the CPU's identity (fh_cpu_traits). */
enum {
	FH_CPU_X86_BMI1 = 1u << 0,
	FH_CPU_X86_BMI2 = 1u << 1,
	FH_CPU_X86_AVX2 = 1u << 2,     /* CPUID and XCR0 agree */
	FH_CPU_X86_AVX512F = 1u << 3,  /* CPUID and XCR0 (opmask, ZMM) agree */
	FH_CPU_X86_AVX512VL = 1u << 4,
	FH_CPU_X86_AVX512BW = 1u << 5,
	FH_CPU_X86_SHA = 1u << 6,      /* the SHA extensions (SHA-NI) */
	FH_CPU_X86_AVX512DQ = 1u << 7,
	FH_CPU_X86_PCLMUL = 1u << 11,  /* PCLMULQDQ, SSSE3, SSE4.1 */
	FH_CPU_X86_VPCLMUL = 1u << 12, /* VPCLMULQDQ on YMM, with AVX2 */
	FH_CPU_ARM_ASIMD = 1u << 16,
	FH_CPU_ARM_SHA3 = 1u << 17,
	FH_CPU_ARM_SHA1 = 1u << 19,    /* SHA1C..SHA1SU1 */
	FH_CPU_ARM_SHA2 = 1u << 20,    /* SHA256H..SHA256SU1 */
	FH_CPU_ARM_SHA512 = 1u << 21,  /* SHA512H..SHA512SU1 (ARMv8.2) */
	FH_CPU_ARM_PMULL = 1u << 22,   /* PMULL, PMULL2 on 64-bit elements */
	FH_CPU_ARM_CRC32 = 1u << 23,   /* CRC32X, CRC32CX and the narrower */
	/* Identity traits.  Set where vector rotates take one cycle and the
	 * one-stream AVX-512VL MD5 beats the general registers (Intel's
	 * AVX-512 cores; on AMD Zen 4 VPROLD's two cycles lose to md5-bmi). */
	FH_CPU_X86_VPROL_FAST = 1u << 8,
	/* Set where up to 8 busy MD5 lanes run faster on md5-avx2x8 than on
	 * the 16 lanes of md5-avx512x16: every x86 core with AVX2 but AMD's
	 * Zen 5 (family 26), whose 512-bit datapath gives each of 16 lanes
	 * 354 MB/s against 299 for each of avx2x8's 8 (fhsum --benchmark -a
	 * md5 on an EPYC of family 26 model 2), so 8 busy lanes hash 18% more
	 * on md5-avx512x16.  On Zen 4 avx2x8 is the faster (6.1x md5-bmi). */
	FH_CPU_X86_AVX2_NARROW = 1u << 9,
	/* Set where the CPU's identity says the SHA3 extension beats the
	 * general-register Keccak (cores that issue it on every vector pipe). */
	FH_CPU_ARM_SHA3_FAST = 1u << 18,
	/* Set where one BLAKE2b stream runs faster on NEON than on the
	 * general registers: for no core yet, since G's chain goes through
	 * NEON operations of two or three cycles' latency against one
	 * (lib/dispatch.c).  So blake2b-neon runs when forced and in
	 * --benchmark, where an Arm core can time it. */
	FH_CPU_ARM_B2_NEON_FAST = 1u << 15,
	/* Set where the CPU lacks the SHA extensions: eight AVX2 lanes of
	 * SHA-256 only match one SHA-NI stream (1534 against 1381 MB/s on
	 * Zen 3, while two interleaved streams give 2210), so
	 * sha256-avx2x8 pays only without them. */
	FH_CPU_X86_NO_SHA = 1u << 10,
	FH_CPU_X86_SSE41 = 1u << 14,   /* SSE4.1 (CPUID leaf 1 ECX) */
	FH_CPU_X86_SSE42 = 1u << 13,   /* SSE4.2: its crc32 (CRC-32C) */
	FH_CPU_X86_AVX = 1u << 24,     /* AVX: CPUID and XCR0 agree */
};

/* Who made a CPU, as far as kernel choice cares. */
enum fh_cpu_vendor {
	FH_VENDOR_UNKNOWN,
	FH_VENDOR_INTEL,        /* CPUID vendor "GenuineIntel" */
	FH_VENDOR_AMD,          /* "AuthenticAMD" (and Hygon's "HygonGenuine") */
	FH_VENDOR_ARM_IMPL,     /* AArch64: the implementer is in MIDR */
	FH_VENDOR_APPLE,        /* AArch64 macOS: Apple's, named by hw.cpufamily */
};

/* What the probe reads of a CPU: its features and its identity. */
struct fh_cpu_id {
	uint32_t features;      /* FH_CPU_* bits of the first group */
	enum fh_cpu_vendor vendor;
	unsigned family, model; /* x86-64: CPUID's display family and model */
	uint32_t midr;          /* AArch64: MIDR_EL1, 0 when unreadable */
	/* FH_VENDOR_APPLE: the sysctl hw.cpufamily (one value per core
	 * design), 0 when unreadable.  macOS lets no process read MIDR_EL1,
	 * and every arm64 CPU it runs on is Apple's. */
	uint32_t apple_cpufamily;
};

/* MD5: compress NBLOCKS consecutive 64-byte blocks into STATE. */
typedef void fh_md5_blocks_fn(uint32_t state[4], const uint8_t *data,
			      size_t nblocks);
/* SHA-1 (FIPS 180-4 §6.1.2), SHA-256 (§6.2.2, SHA-224's too) and SHA-512
 * (§6.4.2, SHA-384's too): compress NBLOCKS consecutive blocks (64 bytes;
 * 128 for SHA-512) into STATE, the hash value H as host-order words. */
typedef void fh_sha1_blocks_fn(uint32_t state[5], const uint8_t *data,
			       size_t nblocks);
typedef void fh_sha256_blocks_fn(uint32_t state[8], const uint8_t *data,
				 size_t nblocks);
typedef void fh_sha512_blocks_fn(uint64_t state[8], const uint8_t *data,
				 size_t nblocks);
/* SM3 (GB/T 32905-2016 §5.3): compress NBLOCKS consecutive 64-byte blocks
 * into STATE, the eight words V as host-order words. */
typedef void fh_sm3_blocks_fn(uint32_t state[8], const uint8_t *data,
			      size_t nblocks);
/* Keccak: for each of NBLOCKS blocks of RATE bytes (a multiple of 8, at most
 * FH_MAX_BLOCK), XOR it into the state as little-endian lanes and apply
 * the permutation of ROUNDS rounds: FH_KECCAK_F_ROUNDS for Keccak-f[1600]
 * (FIPS 202 §3.3, SHA-3 and SHAKE) or FH_KECCAK_P12_ROUNDS for
 * Keccak-p[1600,12] (TurboSHAKE and KangarooTwelve, RFC 9861 §2.2), which
 * is the last 12 of the 24 rounds, round constants RC[12..23].  Every
 * kernel takes both; no other count is asked of them. */
typedef void fh_keccak_absorb_fn(uint64_t state[25], const uint8_t *data,
				 size_t nblocks, size_t rate, unsigned rounds);
/* The permutation of ROUNDS rounds (24 or 12, as above) on STATE. */
typedef void fh_keccak_permute_fn(uint64_t state[25], unsigned rounds);

/* BLAKE2b (RFC 7693 §3.2): compress NBLOCKS consecutive 128-byte blocks
 * into H.  The offset counter t is T plus 128 for each block, added before
 * the block is compressed (the caller of a short last block passes T so
 * that the sum is the message's length, modulo 2^64: the counter's high
 * word stays 0, as for any message under 2^64 bytes).  The last block is
 * compressed as the final one (f0 all ones) when LAST. */
typedef void fh_blake2b_blocks_fn(uint64_t h[8], const uint8_t *data,
				  size_t nblocks, uint64_t t, bool last);
/* BLAKE3 (the BLAKE3 paper, §2.2): compress the 64-byte BLOCK, of which
 * BLOCK_LEN bytes are the message's and the rest zeros, under the
 * chaining value CV with COUNTER and FLAGS; OUT gets the 16 words of
 * output (the first 8 are the next chaining value). */
typedef void fh_blake3_compress_fn(const uint32_t cv[8], const uint8_t *block,
				   uint32_t block_len, uint64_t counter,
				   uint32_t flags, uint32_t out[16]);
/* BLAKE3: hash N whole chunks (1024 bytes each) at DATA, under KEY, with
 * the chunk counters COUNTER, COUNTER + 1, ... and FLAGS (the mode's),
 * into their N chaining values at CVS.  The unit a SIMD kernel runs in
 * its lanes (BLAKE3's hash_many). */
typedef void fh_blake3_chunks_fn(const uint32_t key[8], const uint8_t *data,
				 size_t n, uint64_t counter, uint32_t flags,
				 uint32_t (*cvs)[8]);

#define FH_KECCAK_F_ROUNDS 24
#define FH_KECCAK_P12_ROUNDS 12

/* Multi-buffer kernels advance LANES independent hashes together, one per
 * SIMD lane: for every lane i < lanes, the same as the single-stream
 * function on STATES[i] and DATA[i] for NBLOCKS blocks.  Every lane is
 * processed: a caller with fewer inputs points the spare lanes at any
 * readable data of NBLOCKS blocks and a scratch state. */
typedef void fh_md5_blocks_xn_fn(uint32_t (*states)[4],
				 const uint8_t *const *data, size_t nblocks);
typedef void fh_keccak_absorb_xn_fn(uint64_t (*states)[25],
				    const uint8_t *const *data, size_t nblocks,
				    size_t rate, unsigned rounds);
typedef void fh_sha1_blocks_xn_fn(uint32_t (*states)[5],
				  const uint8_t *const *data, size_t nblocks);
typedef void fh_sha256_blocks_xn_fn(uint32_t (*states)[8],
				    const uint8_t *const *data, size_t nblocks);
typedef void fh_sha512_blocks_xn_fn(uint64_t (*states)[8],
				    const uint8_t *const *data, size_t nblocks);

/* A kernel's entry points, type-erased: each is one of the typed
 * functions above (or a new family's own), stored as a generic function
 * pointer and converted back to its real type by the family's accessors
 * below (C11 6.3.2.3p8: a round trip through another function pointer
 * type is defined).  So struct fh_kernel names no family, and a new
 * family adds no field here.  FH_KERNEL_FN(TYPE, F) stores F, checking at
 * compile time that F is a TYPE (a conditional between pointers to
 * incompatible function types is diagnosed). */
typedef void fh_kernel_fn(void);
#define FH_KERNEL_FN(type, f) ((fh_kernel_fn *)(1 ? (f) : (type *)0))

struct fh_kernel {
	const char *name;       /* "md5-portable", "keccak-avx512"... */
	enum fh_family family;
	unsigned lanes;         /* inputs hashed at once; 1 for single stream */
	uint32_t features;      /* FH_CPU_* bits this kernel needs to run */
	/* FH_CPU_* bits it also needs to be chosen by default: a kernel that
	 * runs everywhere with `features` but pays only on some CPUs.  Forcing
	 * it (--kernel, FHSUM_KERNEL) checks `features` alone.  0 for most. */
	uint32_t prefer;
	/* Single stream (lanes == 1): whole blocks into one state (md5_blocks,
	 * keccak_absorb...), and the permutation of the families that squeeze
	 * (keccak_permute; NULL for the others). */
	fh_kernel_fn *blocks;
	fh_kernel_fn *permute;
	/* Multi-buffer (lanes > 1): the *_xn function. */
	fh_kernel_fn *blocks_xn;
	/* Single stream, for a tree mode whose inner nodes a kernel also
	 * runs in its lanes (BLAKE3's parents); multi-buffer, the last
	 * blocks of the lanes' inputs where the family compresses them
	 * apart (BLAKE3's roots, BLAKE2b's final blocks); NULL for the
	 * others. */
	fh_kernel_fn *tree;
};

/* The typed entry points of the families above, for the family's own
 * code and its tests.  The hot loops call these directly: one call runs
 * many blocks. */
#define FH_KERNEL_ACCESSOR(fn, field)                                        \
	static inline fn##_fn *fn##_of(const struct fh_kernel *k)            \
	{                                                                    \
		return (fn##_fn *)k->field;                                  \
	}
FH_KERNEL_ACCESSOR(fh_md5_blocks, blocks)
FH_KERNEL_ACCESSOR(fh_md5_blocks_xn, blocks_xn)
FH_KERNEL_ACCESSOR(fh_sha1_blocks, blocks)
FH_KERNEL_ACCESSOR(fh_sha1_blocks_xn, blocks_xn)
FH_KERNEL_ACCESSOR(fh_sha256_blocks, blocks)
FH_KERNEL_ACCESSOR(fh_sha256_blocks_xn, blocks_xn)
FH_KERNEL_ACCESSOR(fh_sha512_blocks, blocks)
FH_KERNEL_ACCESSOR(fh_sha512_blocks_xn, blocks_xn)
FH_KERNEL_ACCESSOR(fh_sm3_blocks, blocks)
FH_KERNEL_ACCESSOR(fh_keccak_absorb, blocks)
FH_KERNEL_ACCESSOR(fh_keccak_absorb_xn, blocks_xn)
FH_KERNEL_ACCESSOR(fh_keccak_permute, permute)
FH_KERNEL_ACCESSOR(fh_blake2b_blocks, blocks)
/* BLAKE3's kernels: the chunks in `blocks`, the compression function in
 * `permute` (which squeezes its output, as Keccak's permutation does). */
FH_KERNEL_ACCESSOR(fh_blake3_chunks, blocks)
FH_KERNEL_ACCESSOR(fh_blake3_compress, permute)

/* BLAKE2b in the lanes of a multi-buffer kernel: each lane's state is h
 * and then the offset counter t (the bytes compressed so far), and
 * NBLOCKS whole blocks of every lane are compressed, none of them the
 * last one (f0 stays 0): each adds 128 to the lane's t before it is
 * compressed, as fh_blake2b_blocks_fn does.  The last block of a
 * message never runs in the lanes (fh_family_ops.holds_last). */
#define FH_BLAKE2B_LANE_WORDS 9
typedef void fh_blake2b_blocks_xn_fn(uint64_t (*states)[FH_BLAKE2B_LANE_WORDS],
				     const uint8_t *const *data,
				     size_t nblocks);
FH_KERNEL_ACCESSOR(fh_blake2b_blocks_xn, blocks_xn)
/* And the `tree` of a multi-buffer BLAKE2b kernel: the last block of
 * every lane's message, compressed as the final one (f0 all ones): LENS[i]
 * bytes (0 to 128) at BLOCKS[i], 128 readable bytes whose rest is zeros,
 * LENS[i] added to the lane's t first. */
typedef void fh_blake2b_last_xn_fn(uint64_t (*states)[FH_BLAKE2B_LANE_WORDS],
				   const uint8_t *const *blocks,
				   const uint64_t *lens);
FH_KERNEL_ACCESSOR(fh_blake2b_last_xn, tree)
/* BLAKE3's SIMD additions.  Parents (§2.4): hash the N parent nodes
 * whose children are the chaining values CHILDREN[2i] and [2i + 1], under
 * KEY with FLAGS | PARENT (the mode's flags; counter 0, 64 bytes), into
 * CVS[i]; CVS may be CHILDREN.  A single-stream kernel's `tree`, so that
 * the tree above the chunks runs in the lanes too (BLAKE3's hash_many on
 * parents). */
typedef void fh_blake3_parents_fn(const uint32_t key[8],
				  const uint32_t (*children)[8], size_t n,
				  uint32_t flags, uint32_t (*cvs)[8]);
FH_KERNEL_ACCESSOR(fh_blake3_parents, tree)
/* Multi-buffer BLAKE3 (the engine's lanes: one small input a lane): for
 * each lane, NBLOCKS 64-byte blocks of the first chunk of an input, none
 * its last block, into the lane's state (struct fh_blake3_lane), whose
 * blocks done say which block starts the chunk.  Unkeyed, counter 0. */
struct fh_blake3_lane {
	uint32_t cv[8];
	uint32_t blocks;        /* blocks of the chunk compressed */
	uint32_t pad[3];
};
typedef void fh_blake3_lanes_fn(struct fh_blake3_lane *states,
				const uint8_t *const *data, size_t nblocks);
FH_KERNEL_ACCESSOR(fh_blake3_lanes, blocks_xn)
/* And the `tree` of a multi-buffer BLAKE3 kernel: every lane's last
 * block, the root of an input of one chunk at most (§2.6): LENS[i]
 * bytes (0 to 64) at BLOCKS[i], 64 readable bytes whose rest is zeros,
 * compressed with CHUNK_END and ROOT (and CHUNK_START where the lane's
 * blocks are 0).  The output's first eight words, the digest's first 32
 * bytes, become the lane's cv. */
typedef void fh_blake3_roots_fn(struct fh_blake3_lane *states,
				const uint8_t *const *blocks,
				const uint32_t *lens);
FH_KERNEL_ACCESSOR(fh_blake3_roots, tree)

/* The checksum families.  CRC: the register REG (crc.h) after the N
 * bytes at P, for model M; a kernel may serve some models only and hand
 * the others to the portable one.  SUM: the running sum S after the N
 * bytes at P, for the BSD sum (BSD true: rotate right by one, add the
 * byte, 16 bits) or the System V one (the bytes added, 32 bits). */
struct fh_crc_model;
typedef uint64_t fh_crc_update_fn(const struct fh_crc_model *m, uint64_t reg,
				  const uint8_t *p, size_t n);
typedef uint32_t fh_sum_update_fn(bool bsd, uint32_t s, const uint8_t *p,
				  size_t n);
/* XXH3 (and XXH128): NBLOCKS 1024-byte blocks of the large-input hash
 * into its eight accumulators, with the default secret: each block's 16
 * stripes, then the scramble. */
typedef void fh_xxh3_blocks_fn(uint64_t acc[8], const uint8_t *data,
			       size_t nblocks);
FH_KERNEL_ACCESSOR(fh_xxh3_blocks, blocks)
FH_KERNEL_ACCESSOR(fh_crc_update, blocks)
FH_KERNEL_ACCESSOR(fh_sum_update, blocks)

/* The most lanes any multi-buffer kernel has. */
#define FH_MAX_LANES 32

/* The portable kernels: plain C that follows the specifications. */
extern const struct fh_kernel fh_md5_portable;
extern const struct fh_kernel fh_keccak_portable;
extern const struct fh_kernel fh_sha1_portable;
extern const struct fh_kernel fh_sha256_portable;
extern const struct fh_kernel fh_sha512_portable;
extern const struct fh_kernel fh_sm3_portable;
extern const struct fh_kernel fh_blake2b_portable;
extern const struct fh_kernel fh_blake3_portable;
extern const struct fh_kernel fh_crc_portable;
extern const struct fh_kernel fh_sum_portable;
extern const struct fh_kernel fh_xxh_portable;

/* This CPU's FH_CPU_* bits, traits included; probed once, thread-safe. */
uint32_t fh_cpu_features(void);
/* This CPU's identity as probed; thread-safe. */
const struct fh_cpu_id *fh_cpu_identity(void);
/* The probe itself, one per architecture (arch/<isa>/cpu.c, with the file
 * for its OS): fills ID from the CPU, through the pure rules of
 * lib/cpu_rules.h.  Call fh_cpu_identity() instead. */
void fh_cpu_probe(struct fh_cpu_id *id);
/* ID's features with the identity traits added (FH_CPU_X86_VPROL_FAST,
 * FH_CPU_ARM_SHA3_FAST): a pure function, so the choice of kernels can be
 * tested for any CPU on any CPU (lib/cpu_traits.c). */
uint32_t fh_cpu_traits(const struct fh_cpu_id *id);

/* Whether this CPU can run K: it has K's `features`. */
int fh_kernel_usable(const struct fh_kernel *k);
/* The kernel a CPU with the FH_CPU_* bits CPU gets by default: the first
 * of FAMILY's single-stream table (MULTI false; never NULL) or of its
 * multi-buffer table (MULTI true; NULL when none fits) that CPU runs and
 * whose `prefer` bits it has.  A pure function of its arguments. */
const struct fh_kernel *fh_kernel_pick(enum fh_family family, bool multi,
				       uint32_t cpu);
/* The multi-buffer kernel to run BUSY lanes with when WIDEST was picked:
 * of the kernels in WIDEST's family's multi-buffer table that CPU runs by
 * default and that have no more lanes than WIDEST, the one with the fewest
 * lanes that still hold BUSY (ties: table order), so that few inputs do
 * not pay for idle lanes.  WIDEST itself when it is not in the table.  A
 * pure function of its arguments. */
const struct fh_kernel *fh_kernel_narrowest(const struct fh_kernel *widest,
					    unsigned busy, uint32_t cpu);
/* FAMILY's name as listings print it ("md5", "keccak", "sha256"), and its
 * portable kernel (the last of its table). */
const char *fh_family_name(enum fh_family family);
const struct fh_kernel *fh_kernel_portable(enum fh_family family);
/* fh_kernel_pick for this CPU. */
const struct fh_kernel *fh_kernel_best(enum fh_family family);
const struct fh_kernel *fh_kernel_best_multi(enum fh_family family);
/* The kernel named NAME, usable or not; NULL when there is none. */
const struct fh_kernel *fh_kernel_by_name(const char *name);
/* The I-th kernel of all families (best first within each family), or NULL
 * past the end: for listings and tests. */
const struct fh_kernel *fh_kernel_at(size_t i);

/* Starts a hash of ALGO in CTX on KERNEL, which must be of ALGO's family
 * and usable on this CPU (see fh_kernel_usable).  fh_init with a kernel of
 * the caller's choice; internal, as kernels are.  KERNEL is single-stream,
 * except for KT128/KT256, where a multi-buffer kernel may be given: whole
 * leaves then run in its lanes and the rest on the best single-stream
 * kernel, and a single-stream one hashes the leaves one at a time. */
void fh_init_kernel(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel);

/* What starts a hash beyond its algorithm: the digest's length (BLAKE2b's
 * parameter), and a key: BLAKE2b's (1..64 bytes), BLAKE3's keyed_hash key
 * (32 bytes) or derive_key context (any length). */
enum fh_keying { FH_KEY_NONE, FH_KEY_KEYED, FH_KEY_DERIVE };
struct fh_hash_params {
	size_t outlen;          /* 0: the algorithm's default */
	enum fh_keying keying;
	const uint8_t *key;     /* KEYLEN bytes; FH_KEY_DERIVE: the context */
	size_t keylen;
};
/* fh_init_kernel with P (NULL: the defaults).  Returns false, CTX
 * unusable, when ALGO takes no such key. */
bool fh_init_params(fh_ctx *ctx, const struct fh_algo *algo,
		    const struct fh_kernel *kernel,
		    const struct fh_hash_params *p);

/* Every family through one door (blocks.c, over the families' ops
 * records of family.h), for the modes that do not care which family they
 * drive.  A state is the family's kernel array (fh_state_bytes of it;
 * multi-buffer kernels take them end to end): fh_state_start gives ALGO's
 * initial value, fh_blocks and fh_blocks_xn run NBLOCKS blocks on K's
 * single-stream or multi-buffer function (at ALGO's rate and rounds for
 * Keccak), fh_digest writes OUTLEN bytes of digest from a state that has
 * absorbed the padding (K squeezes, for the sponges). */
size_t fh_state_bytes(enum fh_family family);
/* The bytes of a message that must stay out of fh_blocks and
 * fh_blocks_xn: 1 where the family compresses its last block its own way
 * (BLAKE2b; the message's last 1..block bytes then go through fh_update
 * and fh_final), else 0. */
size_t fh_held_bytes(enum fh_family family);
void fh_state_start(const struct fh_algo *algo, void *state);
void fh_blocks(const struct fh_kernel *k, const struct fh_algo *algo,
	       void *state, const uint8_t *data, size_t nblocks);
void fh_blocks_xn(const struct fh_kernel *k, const struct fh_algo *algo,
		  void *states, const uint8_t *const *data, size_t nblocks);
void fh_digest(const struct fh_algo *algo, const struct fh_kernel *k,
	       void *state, uint8_t *out, size_t outlen);

/* The engine's lanes, for every family (blocks.c): the most bytes of an
 * input ALGO's lanes take (0: any), the whole blocks a lane may absorb
 * with HAVE bytes read past ABSORBED ones (BLAKE3's keep the last byte of
 * its one chunk, BLAKE2b's the last byte of the input: fh_held_bytes),
 * and CTX started on KERNEL for a digest of OUTLEN bytes (BLAKE2b's
 * length is a parameter) and going on from a lane's STATE after ABSORBED
 * bytes. */
uint64_t fh_lane_max(const struct fh_algo *algo);
size_t fh_lane_blocks(const struct fh_algo *algo, size_t have,
		      uint64_t absorbed);
void fh_lane_ctx(fh_ctx *ctx, const struct fh_algo *algo,
		 const struct fh_kernel *kernel, size_t outlen,
		 const void *state, uint64_t absorbed);
/* The largest block of a family with a lanes_final (BLAKE2b's). */
#define FH_LANES_FINAL_BLOCK 128
/* The family's lanes_final (fh_family_ops) where it has one, for the
 * states of N lanes (not end to end) and their last LENS[i] bytes at
 * TAILS[i]: false where it has none or declines. */
bool fh_lanes_final(const struct fh_kernel *multi, const struct fh_algo *algo,
		    const void *const *states, const uint8_t *const *tails,
		    const size_t *lens, size_t n, uint8_t *const *out,
		    size_t outlen);

/* The most bytes fh_pad writes: two of SHA-512's 128-byte blocks. */
#define FH_PAD_MAX 256

/* The last steps of a hash, for callers that absorb blocks themselves (the
 * engine's lanes, fh_hash_many).  fh_pad: BLOCKS starts with the TAIL
 * bytes (less than a block) that follow a message's whole blocks, TOTAL
 * bytes in all; it appends ALGO's padding in place and returns the
 * blocks to absorb, 1 or 2 (MD5 and SHA may need two; BLOCKS holds
 * FH_PAD_MAX bytes).  fh_squeeze: writes OUTLEN bytes of digest from
 * CTX, whose state has absorbed all of it, padding included. */
size_t fh_pad(const struct fh_algo *algo, uint8_t *blocks, size_t tail,
	      uint64_t total);
void fh_squeeze(fh_ctx *ctx, uint8_t *out, size_t outlen);

/* fh_hash_many on kernels of the caller's choice: the blocks on MULTI (of
 * ALGO's family, usable here), or on the narrowest kernel of its table
 * that holds the busy lanes unless FIXED, the rest on SINGLE.  MULTI NULL
 * hashes the messages one by one on SINGLE. */
void fh_hash_many_on(const struct fh_algo *algo, const struct fh_kernel *multi,
		     const struct fh_kernel *single, bool fixed, size_t n,
		     const void *const *data, const size_t *len, uint8_t *out,
		     size_t outlen);

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
/* Why a kernel is or is not in SET, for listings. */
enum fh_kernel_why {
	FH_WHY_PICKED,          /* the best this CPU runs */
	FH_WHY_FORCED,          /* named by --kernel or FHSUM_KERNEL */
	FH_WHY_UNSUPPORTED,     /* this CPU cannot run it */
	FH_WHY_SLOWER_HERE,     /* runs, but this CPU lacks its `prefer` bits */
	FH_WHY_OUTRANKED,       /* runs, but a kernel before it was picked */
	FH_WHY_NARROW,          /* runs the picked one's lanes when few are busy */
	FH_WHY_NOT_FORCED,      /* runs, but another of its family was forced */
};
enum fh_kernel_why fh_kernel_why(const struct fh_kernel *k,
				 const struct fh_kernel_set *set);

enum fh_select_status fh_kernel_select(struct fh_kernel_set *set,
				       const char *forced, const char **bad,
				       size_t *badlen);

#endif
