/* sha512_ce.S: SHA-512's compression function (FIPS 180-4 §6.4.2; SHA-384
 * uses it too) with the Armv8.2 SHA512 instructions: SHA512H and SHA512H2
 * do two rounds, SHA512SU0 and SHA512SU1 two words of the message
 * schedule.
 *
 * ISA: Armv8.2-A + FEAT_SHA512 (HWCAP_SHA512).  Flags: none: the .arch
 * below enables the instructions for this file alone (GNU as and LLVM
 * file them under the sha3 extension name, which covers SHA512 too).
 * Little-endian only.
 *
 *   void fh_sha512_blocks_ce(uint64_t state[8], const uint8_t *data,
 *                            size_t nblocks, const uint64_t k[80]);
 *
 * K is FIPS 180-4's constants (lib/sha512_k.h); the descriptor in
 * kernels_arm.c passes them, so that they are written down once.
 *
 * The working variables live in four vectors of two words, (a, b),
 * (c, d), (e, f), (g, h), the first named in the low half, which is also
 * how H0-H7 lie in memory.  Two rounds t and t+1, from the Arm ARM's
 * pseudocode for the two instructions:
 *  - SHA512H Qd, Qn, Vm computes T1 of both rounds (FIPS 180-4 §6.4.2
 *    step 3), e of round t+1 on the way, given Vn = (f, g), Vm = (d, e) and
 *    Qd = (g + K[t+1] + W[t+1], h + K[t] + W[t]); it leaves
 *    (T1[t+1], T1[t]) in Qd;
 *  - the new e and f are (c + T1[t+1], d + T1[t]): one ADD to (c, d);
 *  - SHA512H2 Qd, Qn, Vm, given that Qd, Vn = (c, d) and Vm = (a, b),
 *    adds T2 of both rounds and leaves the new (a, b) in Qd;
 *  - the new (c, d) is the old (a, b) and the new (g, h) the old (e, f).
 * So each pair of rounds writes the registers of (g, h) (the new a, b)
 * and one free register (the new e, f), and frees that of (c, d): the
 * five registers v0-v4 take the four roles in turn and come back to where
 * they started every five pairs, ten rounds; each round2 line below names
 * the registers of (a, b), (c, d), (e, f), (g, h) and the free one.
 *
 * The schedule: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for
 * t >= 16, two words a vector in v16-v23.  SHA512SU0 w0, w1 adds σ0 of
 * the words one place on to W[t-16..t-15]; SHA512SU1 w0, w_last, x adds
 * σ1 of W[t-2..t-1], feeding the first new word into the second, and
 * x = W[t-7..t-6], which straddles two vectors: an EXT.
 *
 * Registers: v0-v4 the working variables, v5 W + K, v6 (f, g) and the
 * schedule's W[t-7..t-6], v7 (d, e), v16-v23 the schedule, v24-v27 the
 * state at the block's start, v28-v31 eight constants.  No callee-saved
 * register is touched.
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 447 per 128-byte block, 3.49 per byte (sha512-portable, gcc 12 -O2:
 * 3,830).
 */
#if defined(__AARCH64EB__)
#error "sha512_ce.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8.2-a+sha3

/* Rounds t and t+1 on the registers AB, CD, EF, GH of (a, b), (c, d),
 * (e, f), (g, h), with NEW free; W holds W[t..t+1], K K[t..t+1].
 * Afterwards (a, b) is in GH, (c, d) in AB, (e, f) in NEW, (g, h) in EF,
 * and CD is free. */
.macro round2 ab, cd, ef, gh, new, w, k
	add	v5.2d, v\w\().2d, v\k\().2d
	ext	v6.16b, v\ef\().16b, v\gh\().16b, #8
	ext	v7.16b, v\cd\().16b, v\ef\().16b, #8
	ext	v5.16b, v5.16b, v5.16b, #8
	add	v\gh\().2d, v\gh\().2d, v5.2d
	sha512h	q\gh, q6, v7.2d
	add	v\new\().2d, v\cd\().2d, v\gh\().2d
	sha512h2 q\gh, q\cd, v\ab\().2d
.endm

/* W0 (W[t-16..t-15]) becomes W[t..t+1]; W1 holds W[t-14..t-13], WM4 and
 * WM3 W[t-8..t-5], WM1 W[t-2..t-1]. */
.macro sched w0, w1, wm4, wm3, wm1
	ext	v6.16b, v\wm4\().16b, v\wm3\().16b, #8
	sha512su0 v\w0\().2d, v\w1\().2d
	sha512su1 v\w0\().2d, v\wm1\().2d, v6.2d
.endm

FH_FUNC(fh_sha512_blocks_ce, 4)
	cbz	x2, L(sha512_done)
	ld1	{v0.2d-v3.2d}, [x0]
L(sha512_block):
	/* The block as sixteen big-endian words. */
	ld1	{v16.16b-v19.16b}, [x1], #64
	ld1	{v20.16b-v23.16b}, [x1], #64
	rev64	v16.16b, v16.16b
	rev64	v17.16b, v17.16b
	rev64	v18.16b, v18.16b
	rev64	v19.16b, v19.16b
	rev64	v20.16b, v20.16b
	rev64	v21.16b, v21.16b
	rev64	v22.16b, v22.16b
	rev64	v23.16b, v23.16b
	mov	v24.16b, v0.16b
	mov	v25.16b, v1.16b
	mov	v26.16b, v2.16b
	mov	v27.16b, v3.16b
	mov	x4, x3

	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[0..7] */
	round2	0, 1, 2, 3, 4, 16, 28	/* rounds 0-1: state in v0-v3 */
	round2	3, 0, 4, 2, 1, 17, 29
	round2	2, 3, 1, 4, 0, 18, 30
	round2	4, 2, 0, 1, 3, 19, 31
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[8..15] */
	round2	1, 4, 3, 0, 2, 20, 28
	round2	0, 1, 2, 3, 4, 21, 29	/* rounds 10-11: state in v0-v3 */
	round2	3, 0, 4, 2, 1, 22, 30
	round2	2, 3, 1, 4, 0, 23, 31
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[16..23] */
	sched	16, 17, 20, 21, 23
	round2	4, 2, 0, 1, 3, 16, 28
	sched	17, 18, 21, 22, 16
	round2	1, 4, 3, 0, 2, 17, 29
	sched	18, 19, 22, 23, 17
	round2	0, 1, 2, 3, 4, 18, 30	/* rounds 20-21: state in v0-v3 */
	sched	19, 20, 23, 16, 18
	round2	3, 0, 4, 2, 1, 19, 31
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[24..31] */
	sched	20, 21, 16, 17, 19
	round2	2, 3, 1, 4, 0, 20, 28
	sched	21, 22, 17, 18, 20
	round2	4, 2, 0, 1, 3, 21, 29
	sched	22, 23, 18, 19, 21
	round2	1, 4, 3, 0, 2, 22, 30
	sched	23, 16, 19, 20, 22
	round2	0, 1, 2, 3, 4, 23, 31	/* rounds 30-31: state in v0-v3 */
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[32..39] */
	sched	16, 17, 20, 21, 23
	round2	3, 0, 4, 2, 1, 16, 28
	sched	17, 18, 21, 22, 16
	round2	2, 3, 1, 4, 0, 17, 29
	sched	18, 19, 22, 23, 17
	round2	4, 2, 0, 1, 3, 18, 30
	sched	19, 20, 23, 16, 18
	round2	1, 4, 3, 0, 2, 19, 31
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[40..47] */
	sched	20, 21, 16, 17, 19
	round2	0, 1, 2, 3, 4, 20, 28	/* rounds 40-41: state in v0-v3 */
	sched	21, 22, 17, 18, 20
	round2	3, 0, 4, 2, 1, 21, 29
	sched	22, 23, 18, 19, 21
	round2	2, 3, 1, 4, 0, 22, 30
	sched	23, 16, 19, 20, 22
	round2	4, 2, 0, 1, 3, 23, 31
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[48..55] */
	sched	16, 17, 20, 21, 23
	round2	1, 4, 3, 0, 2, 16, 28
	sched	17, 18, 21, 22, 16
	round2	0, 1, 2, 3, 4, 17, 29	/* rounds 50-51: state in v0-v3 */
	sched	18, 19, 22, 23, 17
	round2	3, 0, 4, 2, 1, 18, 30
	sched	19, 20, 23, 16, 18
	round2	2, 3, 1, 4, 0, 19, 31
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[56..63] */
	sched	20, 21, 16, 17, 19
	round2	4, 2, 0, 1, 3, 20, 28
	sched	21, 22, 17, 18, 20
	round2	1, 4, 3, 0, 2, 21, 29
	sched	22, 23, 18, 19, 21
	round2	0, 1, 2, 3, 4, 22, 30	/* rounds 60-61: state in v0-v3 */
	sched	23, 16, 19, 20, 22
	round2	3, 0, 4, 2, 1, 23, 31
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[64..71] */
	sched	16, 17, 20, 21, 23
	round2	2, 3, 1, 4, 0, 16, 28
	sched	17, 18, 21, 22, 16
	round2	4, 2, 0, 1, 3, 17, 29
	sched	18, 19, 22, 23, 17
	round2	1, 4, 3, 0, 2, 18, 30
	sched	19, 20, 23, 16, 18
	round2	0, 1, 2, 3, 4, 19, 31	/* rounds 70-71: state in v0-v3 */
	ld1	{v28.2d-v31.2d}, [x4], #64	/* K[72..79] */
	sched	20, 21, 16, 17, 19
	round2	3, 0, 4, 2, 1, 20, 28
	sched	21, 22, 17, 18, 20
	round2	2, 3, 1, 4, 0, 21, 29
	sched	22, 23, 18, 19, 21
	round2	4, 2, 0, 1, 3, 22, 30
	sched	23, 16, 19, 20, 22
	round2	1, 4, 3, 0, 2, 23, 31

	/* H += a..h (FIPS 180-4 §6.4.2 step 4). */
	add	v0.2d, v0.2d, v24.2d
	add	v1.2d, v1.2d, v25.2d
	add	v2.2d, v2.2d, v26.2d
	add	v3.2d, v3.2d, v27.2d
	subs	x2, x2, #1
	b.ne	L(sha512_block)
	st1	{v0.2d-v3.2d}, [x0]
L(sha512_done):
	ret
FH_ENDFUNC(fh_sha512_blocks_ce)
