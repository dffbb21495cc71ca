/* sha1_ce.S: SHA-1's compression function (FIPS 180-4 §6.1.2) with the
 * Armv8 SHA1 instructions: SHA1C, SHA1P and SHA1M do four rounds each,
 * SHA1H gives the next four rounds' e, SHA1SU0 and SHA1SU1 four words of
 * the message schedule.
 *
 * ISA: Armv8.0-A + FEAT_SHA1 (HWCAP_SHA1).  Flags: none: the .arch below
 * enables the instructions for this file alone.  Little-endian only.
 *
 *   void fh_sha1_blocks_ce(uint32_t state[5], const uint8_t *data,
 *                          size_t nblocks);
 *
 * How the instructions map onto FIPS 180-4 (the Arm ARM's pseudocode):
 *  - SHA1C Qd, Sn, Vm.4S takes a, b, c, d in the four words of Qd (a in
 *    the lowest), e in Sn and W[t] + K in the words of Vm, and leaves a, b,
 *    c, d of four rounds later in Qd.  SHA1P and SHA1M are the same with
 *    Parity and Maj for Ch: rounds 0-19 use SHA1C, 20-39 and 60-79 SHA1P,
 *    40-59 SHA1M.
 *  - e four rounds later is ROTL30 of the a those rounds started from
 *    (it moves through b, c and d, rotated once on the way), which SHA1H
 *    computes before the four rounds overwrite a.
 *  - W[t] for t >= 16 is ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]).  With
 *    W in four vectors of four words, SHA1SU0 w0, w1, w2 makes W[t-16] ^
 *    W[t-14] ^ W[t-8] and SHA1SU1 w0, w3 adds W[t-3] and rotates, taking
 *    the last word's W[t-3] (that is W[t], just computed) from its own
 *    first lane.
 *
 * Registers: v0 a-d, s1 e, v2 and v3 their values at the block's start,
 * v4-v7 the schedule, v16-v19 the four constants, v20 W + K, s22 and s23 e
 * in turn.  No callee-saved register is touched.
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 103 per block, 1.61 per byte (sha1-portable, gcc 12 -O2: 2,746).
 */
#if defined(__AARCH64EB__)
#error "sha1_ce.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8-a+sha2

/* Four rounds: OP is c, p or m; W the register of W[t..t+3], K that of
 * their constant; EIN the register of this group's e, EOUT that of the
 * next group's. */
.macro rounds4 op, w, k, ein, eout
	add	v20.4s, v\w\().4s, v\k\().4s
	sha1h	s\eout, s0
	sha1\op	q0, s\ein, v20.4s
.endm

/* W0 (W[t-16..t-13]) becomes W[t..t+3]; W1, W2 and W3 hold the twelve
 * words after W0's. */
.macro sched w0, w1, w2, w3
	sha1su0	v\w0\().4s, v\w1\().4s, v\w2\().4s
	sha1su1	v\w0\().4s, v\w3\().4s
.endm

/* REG = the 32-bit constant HI:LO in every lane, through w3. */
.macro const4 reg, hi, lo
	movz	w3, #\lo
	movk	w3, #\hi, lsl #16
	dup	v\reg\().4s, w3
.endm

FH_FUNC(fh_sha1_blocks_ce, 4)
	cbz	x2, L(sha1_done)
	/* K (FIPS 180-4 §4.2.1) for rounds 0-19, 20-39, 40-59, 60-79. */
	const4	16, 0x5a82, 0x7999
	const4	17, 0x6ed9, 0xeba1
	const4	18, 0x8f1b, 0xbcdc
	const4	19, 0xca62, 0xc1d6
	ld1	{v0.4s}, [x0]
	ldr	s1, [x0, #16]
L(sha1_block):
	/* The block as sixteen big-endian words. */
	ld1	{v4.16b-v7.16b}, [x1], #64
	rev32	v4.16b, v4.16b
	rev32	v5.16b, v5.16b
	rev32	v6.16b, v6.16b
	rev32	v7.16b, v7.16b
	mov	v2.16b, v0.16b
	mov	v3.16b, v1.16b

	rounds4	c, 4, 16, 1, 22		/* rounds 0-3 */
	rounds4	c, 5, 16, 22, 23
	rounds4	c, 6, 16, 23, 22
	rounds4	c, 7, 16, 22, 23
	sched	4, 5, 6, 7
	rounds4	c, 4, 16, 23, 22	/* rounds 16-19 */
	sched	5, 6, 7, 4
	rounds4	p, 5, 17, 22, 23	/* rounds 20-23 */
	sched	6, 7, 4, 5
	rounds4	p, 6, 17, 23, 22
	sched	7, 4, 5, 6
	rounds4	p, 7, 17, 22, 23
	sched	4, 5, 6, 7
	rounds4	p, 4, 17, 23, 22
	sched	5, 6, 7, 4
	rounds4	p, 5, 17, 22, 23	/* rounds 36-39 */
	sched	6, 7, 4, 5
	rounds4	m, 6, 18, 23, 22	/* rounds 40-43 */
	sched	7, 4, 5, 6
	rounds4	m, 7, 18, 22, 23
	sched	4, 5, 6, 7
	rounds4	m, 4, 18, 23, 22
	sched	5, 6, 7, 4
	rounds4	m, 5, 18, 22, 23
	sched	6, 7, 4, 5
	rounds4	m, 6, 18, 23, 22	/* rounds 56-59 */
	sched	7, 4, 5, 6
	rounds4	p, 7, 19, 22, 23	/* rounds 60-63 */
	sched	4, 5, 6, 7
	rounds4	p, 4, 19, 23, 22
	sched	5, 6, 7, 4
	rounds4	p, 5, 19, 22, 23
	sched	6, 7, 4, 5
	rounds4	p, 6, 19, 23, 22
	sched	7, 4, 5, 6
	rounds4	p, 7, 19, 22, 23	/* rounds 76-79 */

	/* H += a..e (FIPS 180-4 §6.1.2 step 4). */
	add	v0.4s, v0.4s, v2.4s
	add	v1.4s, v23.4s, v3.4s
	subs	x2, x2, #1
	b.ne	L(sha1_block)
	st1	{v0.4s}, [x0]
	str	s1, [x0, #16]
L(sha1_done):
	ret
FH_ENDFUNC(fh_sha1_blocks_ce)
