/* sha256_ce.S: SHA-256's compression function (FIPS 180-4 §6.2.2; SHA-224
 * uses it too) with the Armv8 SHA2 instructions: SHA256H and SHA256H2 do
 * four rounds, SHA256SU0 and SHA256SU1 four words of the message
 * schedule.
 *
 * ISA: Armv8.0-A + FEAT_SHA256 (HWCAP_SHA2).  Flags: none: the .arch below
 * enables the instructions for this file alone.  Little-endian only.
 *
 *   void fh_sha256_blocks_ce(uint32_t state[8], const uint8_t *data,
 *                            size_t nblocks, const uint32_t k[64]);
 *
 * K is FIPS 180-4's constants (lib/sha256_k.h); the descriptor in
 * kernels_arm.c passes them, so that they are written down once.
 *
 * How the instructions map onto FIPS 180-4 (the Arm ARM's pseudocode):
 *  - the working variables live in two vectors, a b c d and e f g h (a and
 *    e in the lowest words), which is also how H0-H7 lie in memory;
 *  - SHA256H Qabcd, Qefgh, Vwk runs four rounds on both and keeps the new
 *    a b c d; SHA256H2 Qefgh, Qold_abcd, Vwk runs the same four rounds from
 *    the same inputs and keeps the new e f g h, so it needs a b c d as they
 *    were before SHA256H: a copy;
 *  - W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for t >= 16:
 *    SHA256SU0 w0, w1 adds σ0 of the words one place on (W[t-15]) to w0
 *    (W[t-16]), and SHA256SU1 w0, w2, w3 adds W[t-7] and σ1(W[t-2]),
 *    feeding the first two new words into the last two.
 *
 * Registers: v0 a-d, v1 e-h, v2 and v3 their values at the block's start,
 * v4-v7 the schedule, v8 W + K, v9 the copy of a-d, v16-v31 all 64
 * constants.  d8 and d9 are saved.
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 99 per block, 1.55 per byte (sha256-portable, gcc 12 -O2: 3,392).
 */
#if defined(__AARCH64EB__)
#error "sha256_ce.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8-a+sha2

/* Four rounds on W[t..t+3] in register W, with K[t..t+3] in register K. */
.macro rounds4 w, k
	add	v8.4s, v\w\().4s, v\k\().4s
	mov	v9.16b, v0.16b
	sha256h	q0, q1, v8.4s
	sha256h2 q1, q9, v8.4s
.endm

/* W0 (W[t-16..t-13]) becomes W[t..t+3]; W1, W2 and W3 hold the twelve
 * words after W0's. */
.macro sched w0, w1, w2, w3
	sha256su0 v\w0\().4s, v\w1\().4s
	sha256su1 v\w0\().4s, v\w2\().4s, v\w3\().4s
.endm

FH_FUNC(fh_sha256_blocks_ce, 4)
	cbz	x2, L(sha256_done)
	stp	d8, d9, [sp, #-16]!
	ld1	{v16.4s-v19.4s}, [x3], #64
	ld1	{v20.4s-v23.4s}, [x3], #64
	ld1	{v24.4s-v27.4s}, [x3], #64
	ld1	{v28.4s-v31.4s}, [x3]
	ld1	{v0.4s, v1.4s}, [x0]
L(sha256_block):
	/* The block as sixteen big-endian words. */
	ld1	{v4.16b-v7.16b}, [x1], #64
	rev32	v4.16b, v4.16b
	rev32	v5.16b, v5.16b
	rev32	v6.16b, v6.16b
	rev32	v7.16b, v7.16b
	mov	v2.16b, v0.16b
	mov	v3.16b, v1.16b

	rounds4	4, 16			/* rounds 0-3 */
	rounds4	5, 17
	rounds4	6, 18
	rounds4	7, 19
	sched	4, 5, 6, 7
	rounds4	4, 20			/* rounds 16-19 */
	sched	5, 6, 7, 4
	rounds4	5, 21
	sched	6, 7, 4, 5
	rounds4	6, 22
	sched	7, 4, 5, 6
	rounds4	7, 23
	sched	4, 5, 6, 7
	rounds4	4, 24			/* rounds 32-35 */
	sched	5, 6, 7, 4
	rounds4	5, 25
	sched	6, 7, 4, 5
	rounds4	6, 26
	sched	7, 4, 5, 6
	rounds4	7, 27
	sched	4, 5, 6, 7
	rounds4	4, 28			/* rounds 48-51 */
	sched	5, 6, 7, 4
	rounds4	5, 29
	sched	6, 7, 4, 5
	rounds4	6, 30
	sched	7, 4, 5, 6
	rounds4	7, 31			/* rounds 60-63 */

	/* H += a..h (FIPS 180-4 §6.2.2 step 4). */
	add	v0.4s, v0.4s, v2.4s
	add	v1.4s, v1.4s, v3.4s
	subs	x2, x2, #1
	b.ne	L(sha256_block)
	st1	{v0.4s, v1.4s}, [x0]
	ldp	d8, d9, [sp], #16
L(sha256_done):
	ret
FH_ENDFUNC(fh_sha256_blocks_ce)
