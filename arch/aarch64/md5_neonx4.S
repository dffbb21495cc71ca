/* md5_neonx4.S: MD5 compression (RFC 1321 §3.4) of four independent
 * messages at once, one per 32-bit lane of the Advanced SIMD registers.
 *
 * ISA: ARMv8.0-A with Advanced SIMD (FH_CPU_ARM_ASIMD, HWCAP_ASIMD), no
 * other extension.  Flags: none (.arch armv8-a+simd below).  Lanes: 4.
 * Little-endian only (AArch64 Linux).
 *
 *   void fh_md5_blocks_x4_neon(uint32_t (*states)[4],
 *                              const uint8_t *const *data, size_t nblocks);
 *       for each lane i < 4, the same as fh_md5_blocks_gpr(states[i],
 *       data[i], nblocks) (kernel md5-neonx4).
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 518 per call-block of four 64-byte blocks, i.e. 129.5 per block per
 * lane, against 511 per block for md5-gpr (3.9x fewer).  Counts are not a
 * speed: no AArch64 hardware was at hand to time it.  One set of four
 * lanes is a single dependency chain per lane, so a core with 2-3 cycle
 * vector latency runs it latency-bound (about 10 cycles a step); a second
 * set of lanes interleaved in the same loop (x8) would be the next step.
 *
 * The SHA3 extension does not help the rotate: its XAR works on 64-bit
 * elements only.  Its EOR3 (H in one instruction) and BCAX (I as
 * ~(c ^ (d & ~b)), the NOT folded into T as T - 1, added by SUB) would save
 * one instruction in each of the 32 steps of rounds 3 and 4: 486 per
 * call-block, 121.5 per block per lane, 6% fewer.  Not written: a separate
 * kernel for 6%, on SHA3 instructions that Neoverse issues on one pipe.
 *
 * A step a = b + ((a + f(b,c,d) + X[k] + T[i]) <<< s) takes seven
 * instructions (eight in rounds 3 and 4), and no MOV:
 *  - The next step's sum d + T + X is formed one step early, into the one
 *    register that is free.  That frees d's register to take f, computed in
 *    place: F = BIT (insert c where b is set), G = BSL (d selects b or c),
 *    H = two EOR, I = ORN then EOR.  f is added, the rotate is SHL + SRI
 *    (REV32 on halfwords for 16), b is added, and d's register is free
 *    again.  So five registers rotate through the roles a, b, c, d, free;
 *    the rotation is written out in the group lines below.
 *  - The message words are loaded already transposed: LD4 to one lane
 *    reads words 4j..4j+3 of one message into lane i of four registers,
 *    so sixteen loads fill X[0..15] for all four lanes with no shuffles.
 *  - T comes four at a time, each broadcast to a register, with LD4R.
 *
 * Registers: x0 states, x1 data pointers, x2 blocks left, x3 T pointer,
 * x4-x7 the four message pointers, x8 T table; v0-v4 the rotating a, b, c,
 * d and free registers; v5-v8 the block's input state A, B, C, D; v9-v12
 * four T constants; v16-v31 X[0..15].  d8-d12 are saved.
 */
#if defined(__AARCH64EB__)
#error "md5_neonx4.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8-a+simd

/* f on registers B, C, D, written over D (whose value has been used). */
.macro md5_f b, c, d
	bit	v\d\().16b, v\c\().16b, v\b\().16b
.endm
.macro md5_g b, c, d
	bsl	v\d\().16b, v\b\().16b, v\c\().16b
.endm
.macro md5_h b, c, d
	eor	v\d\().16b, v\d\().16b, v\c\().16b
	eor	v\d\().16b, v\d\().16b, v\b\().16b
.endm
.macro md5_i b, c, d
	orn	v\d\().16b, v\b\().16b, v\d\().16b
	eor	v\d\().16b, v\d\().16b, v\c\().16b
.endm

/* One step.  On entry v<A> holds a + X + T; B, C, D are the other three
 * roles and N is free.  Unless LAST, forms the next step's d + T + X in N
 * from T in v<KN> and X in v<XN>.  Leaves the new a in v<A>; D is free. */
.macro step fn, a, b, c, d, n, s, kn, xn, last=0
	.if \last
	/* No next step: d must survive, so f goes into N. */
	orn	v\n\().16b, v\b\().16b, v\d\().16b
	eor	v\n\().16b, v\n\().16b, v\c\().16b
	add	v\a\().4s, v\a\().4s, v\n\().4s
	shl	v\n\().4s, v\a\().4s, #\s
	sri	v\n\().4s, v\a\().4s, #(32 - \s)
	add	v\a\().4s, v\n\().4s, v\b\().4s
	.else
	add	v\n\().4s, v\d\().4s, v\kn\().4s
	md5_\fn	\b, \c, \d
	add	v\n\().4s, v\n\().4s, v\xn\().4s
	add	v\a\().4s, v\a\().4s, v\d\().4s
	.if \s == 16
	rev32	v\d\().8h, v\a\().8h
	.else
	shl	v\d\().4s, v\a\().4s, #\s
	sri	v\d\().4s, v\a\().4s, #(32 - \s)
	.endif
	add	v\a\().4s, v\d\().4s, v\b\().4s
	.endif
.endm

/* Four steps with shifts S0-S3, starting with the roles A, B, C, D and N
 * free.  X1-X4 are the message registers of the next four steps' sums; T
 * for them is in v10-v12 and, for the fourth, the next LD4R's v9.  The
 * roles then move on: the next group starts with B, C, D, N, A. */
.macro group fn, a, b, c, d, n, s0, s1, s2, s3, x1, x2, x3, x4, last=0
	step	\fn, \a, \b, \c, \d, \n, \s0, 10, \x1
	step	\fn, \n, \a, \b, \c, \d, \s1, 11, \x2
	step	\fn, \d, \n, \a, \b, \c, \s2, 12, \x3
	.if \last
	step	\fn, \c, \d, \n, \a, \b, \s3, 0, 0, 1
	.else
	ld4r	{v9.4s, v10.4s, v11.4s, v12.4s}, [x3], #16
	step	\fn, \c, \d, \n, \a, \b, \s3, 9, \x4
	.endif
.endm

/* LD4 of words 4J..4J+3 of message pointer XP into lane L of v<R>.. */
.macro load_words l, xp, r0, r1, r2, r3
	ld4	{v\r0\().s, v\r1\().s, v\r2\().s, v\r3\().s}[\l], [\xp], #16
.endm
.macro load_lane l, xp
	load_words \l, \xp, 16, 17, 18, 19
	load_words \l, \xp, 20, 21, 22, 23
	load_words \l, \xp, 24, 25, 26, 27
	load_words \l, \xp, 28, 29, 30, 31
.endm

FH_FUNC(fh_md5_blocks_x4_neon, 4)
	cbz	x2, 9f
	stp	d8, d9, [sp, #-48]!
	stp	d10, d11, [sp, #16]
	str	d12, [sp, #32]
	ldp	x4, x5, [x1]
	ldp	x6, x7, [x1, #16]
	FH_ADR(x8, md5_t_x4)
	/* states[i] (A, B, C, D) into lane i of v5-v8. */
	mov	x9, x0
	ld4	{v5.s, v6.s, v7.s, v8.s}[0], [x9], #16
	ld4	{v5.s, v6.s, v7.s, v8.s}[1], [x9], #16
	ld4	{v5.s, v6.s, v7.s, v8.s}[2], [x9], #16
	ld4	{v5.s, v6.s, v7.s, v8.s}[3], [x9]
1:
	load_lane 0, x4
	load_lane 1, x5
	load_lane 2, x6
	load_lane 3, x7
	mov	x3, x8
	ld4r	{v9.4s, v10.4s, v11.4s, v12.4s}, [x3], #16
	add	v0.4s, v5.4s, v9.4s
	mov	v1.16b, v6.16b
	mov	v2.16b, v7.16b
	mov	v3.16b, v8.16b
	add	v0.4s, v0.4s, v16.4s

	/* Each group line: the function, the roles a b c d and the free
	 * register (rotated by one each group), the shifts, then X of steps
	 * i+1..i+4 as registers (16 + k). */
	/* Round 1: X[i], shifts 7 12 17 22. */
	group	f, 0, 1, 2, 3, 4, 7, 12, 17, 22, 17, 18, 19, 20
	group	f, 1, 2, 3, 4, 0, 7, 12, 17, 22, 21, 22, 23, 24
	group	f, 2, 3, 4, 0, 1, 7, 12, 17, 22, 25, 26, 27, 28
	group	f, 3, 4, 0, 1, 2, 7, 12, 17, 22, 29, 30, 31, 17
	/* Round 2: X[(1 + 5i) mod 16], shifts 5 9 14 20. */
	group	g, 4, 0, 1, 2, 3, 5, 9, 14, 20, 22, 27, 16, 21
	group	g, 0, 1, 2, 3, 4, 5, 9, 14, 20, 26, 31, 20, 25
	group	g, 1, 2, 3, 4, 0, 5, 9, 14, 20, 30, 19, 24, 29
	group	g, 2, 3, 4, 0, 1, 5, 9, 14, 20, 18, 23, 28, 21
	/* Round 3: X[(5 + 3i) mod 16], shifts 4 11 16 23. */
	group	h, 3, 4, 0, 1, 2, 4, 11, 16, 23, 24, 27, 30, 17
	group	h, 4, 0, 1, 2, 3, 4, 11, 16, 23, 20, 23, 26, 29
	group	h, 0, 1, 2, 3, 4, 4, 11, 16, 23, 16, 19, 22, 25
	group	h, 1, 2, 3, 4, 0, 4, 11, 16, 23, 28, 31, 18, 16
	/* Round 4: X[7i mod 16], shifts 6 10 15 21. */
	group	i, 2, 3, 4, 0, 1, 6, 10, 15, 21, 23, 30, 21, 28
	group	i, 3, 4, 0, 1, 2, 6, 10, 15, 21, 19, 26, 17, 24
	group	i, 4, 0, 1, 2, 3, 6, 10, 15, 21, 31, 22, 29, 20
	group	i, 0, 1, 2, 3, 4, 6, 10, 15, 21, 27, 18, 25, 0, 1

	/* The last step had the roles 2, 3, 4, 0 and wrote B: A is in v0, B
	 * in v2, C in v3, D in v4. */
	add	v5.4s, v5.4s, v0.4s
	add	v6.4s, v6.4s, v2.4s
	add	v7.4s, v7.4s, v3.4s
	add	v8.4s, v8.4s, v4.4s
	subs	x2, x2, #1
	b.ne	1b

	st4	{v5.s, v6.s, v7.s, v8.s}[0], [x0], #16
	st4	{v5.s, v6.s, v7.s, v8.s}[1], [x0], #16
	st4	{v5.s, v6.s, v7.s, v8.s}[2], [x0], #16
	st4	{v5.s, v6.s, v7.s, v8.s}[3], [x0]
	ldr	d12, [sp, #32]
	ldp	d10, d11, [sp, #16]
	ldp	d8, d9, [sp], #48
9:
	ret
FH_ENDFUNC(fh_md5_blocks_x4_neon)

/* T[i] = floor(2^32 * |sin(i + 1)|), RFC 1321 §3.4, in step order; LD4R
 * broadcasts four at a time. */
FH_CONST(md5_t_x4, 4)
	.word	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee
	.word	0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501
	.word	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be
	.word	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821
	.word	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa
	.word	0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8
	.word	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed
	.word	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a
	.word	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c
	.word	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70
	.word	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05
	.word	0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665
	.word	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039
	.word	0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1
	.word	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1
	.word	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391
FH_ENDCONST(md5_t_x4)
