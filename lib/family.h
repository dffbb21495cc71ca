/* family.h: what the library knows of an algorithm family, as data: one
 * ops record per family (struct fh_family_ops), found by fh_family_ops.
 * hash.c, hash_many.c, blocks.c and the engine's lanes drive every family
 * through it and never ask which family they drive.  A new family is one
 * such record (beside its portable kernel), a row in blocks.c's table of
 * families and rows in lib/algo.c's table of algorithms.  Internal to
 * the library. */
#ifndef FH_FAMILY_H
#define FH_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

struct fh_family_ops {
	const char *name;       /* as listings print it: "md5", "keccak" */
	/* Bytes of one state of the family's kernels (multi-buffer kernels
	 * take them end to end); at most sizeof(fh_ctx.state). */
	size_t state_bytes;
	/* Whether the family's single-stream kernels have a `permute` (the
	 * sponges squeeze with it). */
	bool permutes;
	/* ALGO's initial state. */
	void (*start)(const struct fh_algo *algo, void *state);
	/* NBLOCKS whole blocks of ALGO into STATE on K's single-stream
	 * function, or into the lanes' STATES on K's multi-buffer function.
	 * One call runs many blocks: the kernel loops, so this indirect call
	 * is paid once a run, never once a block. */
	void (*blocks)(const struct fh_kernel *k, const struct fh_algo *algo,
		       void *state, const uint8_t *data, size_t nblocks);
	void (*blocks_xn)(const struct fh_kernel *k, const struct fh_algo *algo,
			  void *states, const uint8_t *const *data,
			  size_t nblocks);
	/* (start, blocks, blocks_xn, pad and digest serve the modes that
	 * run many inputs in the lanes of a multi-buffer kernel.  BLAKE2b
	 * and BLAKE3, whose streaming modes are their own, leave pad and
	 * digest NULL and finish a lane's input through update and final,
	 * as `holds_last` and `lane_max` below say.) */
	/* Appends ALGO's padding to the TAIL bytes at BLOCKS (TOTAL bytes in
	 * the message) and returns the blocks to absorb (see fh_pad). */
	size_t (*pad)(const struct fh_algo *algo, uint8_t *blocks, size_t tail,
		      uint64_t total);
	/* Writes OUTLEN bytes of digest from a STATE that has absorbed the
	 * padding (K: the kernel that squeezes, where the family does). */
	void (*digest)(const struct fh_algo *algo, const struct fh_kernel *k,
		       void *state, uint8_t *out, size_t outlen);
	/* The streaming modes of fh_ctx, where the family's are not the
	 * block buffer of hash.c (NULL: that buffer, `pad`, `blocks` and
	 * `digest`).  init: after the state starts, MULTI the multi-buffer
	 * kernel offered (may be NULL); a family with `init` may be given a
	 * multi-buffer kernel to fh_init_kernel. */
	void (*init)(fh_ctx *ctx, const struct fh_kernel *multi);
	void (*update)(fh_ctx *ctx, const uint8_t *p, size_t len);
	void (*final)(fh_ctx *ctx, const void *custom, size_t customlen,
		      uint8_t *out, size_t outlen);
	/* After init: what P asks beyond the defaults (a length that is a
	 * parameter, a key).  False when the family takes no such key.
	 * NULL: the family takes none, and its length is only fh_final's. */
	bool (*params)(fh_ctx *ctx, const struct fh_hash_params *p);
	/* Whether the family's last block is compressed differently from
	 * the others (BLAKE2b's f0 flag): then `blocks` and `blocks_xn` run
	 * only blocks that more input follows, and a message's last bytes
	 * (1 to a block; none for an empty one) go through `update` and
	 * `final` from a context holding the state, with `total` the bytes
	 * the blocks absorbed.  Such a family has no `pad` or `digest`. */
	bool holds_last;
	/* The engine's lanes for a family with a mode of its own (BLAKE3),
	 * whose lanes hold only the start of an input: the most bytes of
	 * input a lane takes, and never its last byte (0: any input, all of
	 * its whole blocks); and how a context goes on from a lane's STATE
	 * after ABSORBED bytes (NULL: the state copied, TOTAL set). */
	uint64_t lane_max;
	void (*lane_resume)(fh_ctx *ctx, const void *state, uint64_t absorbed);
	/* Optional: the digests of N inputs that end in lanes of the
	 * multi-buffer kernel MULTI (N at most its lanes), in one call of
	 * its `tree` (fh_lanes_final packs them, and calls this only where
	 * MULTI has a `tree` and OUTLEN is at most LANES_FINAL_MOST):
	 * STATES the states of all MULTI's lanes end to end, each after its
	 * input's blocks; BLOCKS[i] its last LENS[i] bytes (up to a block,
	 * none absorbed), zero-padded to a block; the lanes past N repeat
	 * the first input.  OUTLEN bytes of each of the N digests into
	 * OUT[i].  Other inputs go on through lane_resume, update and
	 * final. */
	void (*lanes_final)(const struct fh_kernel *multi, void *states,
			    const uint8_t *const *blocks, const size_t *lens,
			    size_t n, uint8_t *const *out, size_t outlen);
	size_t lanes_final_most;
	/* Families whose state is linear in the message (the CRCs), so that
	 * slices of one input hash apart (lib/engine/slices.c): a slice
	 * after the first starts from a zeroed state; combine makes STATE,
	 * after a message, the state after it and LEN bytes more whose own
	 * state, from zero, is TAIL.  NULL for the others. */
	void (*combine)(const struct fh_algo *algo, void *state, const void *tail,
			uint64_t len);
};

/* FAMILY's ops record; never NULL for a family below FH_FAMILY_COUNT. */
const struct fh_family_ops *fh_family_ops(enum fh_family family);

#endif
