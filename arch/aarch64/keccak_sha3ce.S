/* keccak_sha3ce.S: Keccak-f[1600] (FIPS 202 §3.2-3.3) with the ARMv8.2-A
 * SHA3 extension (EOR3, RAX1, XAR, BCAX), one lane per vector register.
 *
 * ISA: ARMv8.2-A + FEAT_SHA3 (HWCAP_SHA3).  Flags: none: the .arch below
 * enables the extension for this file alone, in GNU as, clang and zig cc
 * alike (zig cc refuses -march=armv8.2-a+sha3).  Little-endian only.
 *
 *   void fh_keccak_absorb_sha3ce(uint64_t state[25], const uint8_t *data,
 *                                size_t nblocks, size_t rate,
 *                                unsigned rounds);
 *   void fh_keccak_permute_sha3ce(uint64_t state[25], unsigned rounds);
 *       one state, lane i in the low half of v<i> (keccak-sha3ce).
 *   void fh_keccak_absorb_x2_sha3ce(uint64_t (*states)[25],
 *                                   const uint8_t *const *data,
 *                                   size_t nblocks, size_t rate,
 *                                   unsigned rounds);
 *       two sponges at once (keccak-sha3cex2, lanes = 2): lane i of
 *       states[0] and states[1] in the two halves of v<i>, so the rounds
 *       are the same instructions as for one state.
 *   void fh_keccak_permute_x2_sha3ce(uint64_t s0[25], uint64_t s1[25],
 *                                    unsigned rounds);
 *       the two-state permutation alone (tests, instruction counts).
 *
 * ROUNDS is 24 (Keccak-f[1600]) or 12 (Keccak-p[1600,12], the last 12
 * rounds): the rounds start at constant RC[24 - ROUNDS].
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 1,695 per permutation and 1,696 per 136-byte block absorbed (one state);
 * 1,746 per call of the two-state permutation, 873 per state; 1,714 per
 * two 136-byte blocks absorbed by keccak-sha3cex2, 857 per block per state
 * (keccak-gpr: 3,131).
 *
 * Speed: the SHA3 instructions issue on one of four vector pipes on
 * Neoverse V1/V2 (one of two on N2), so a permutation there costs at least
 * 64 x 24 = 1536 cycles, against about 750 for the general-register kernel
 * (Graviton4: https://github.com/DaniPopes/keccak-asm/issues/15).  Apple
 * cores issue them on every pipe and this kernel wins there (OpenSSL:
 * +36% on M1).  Hence keccak-sha3ce and keccak-sha3cex2 are preferred only
 * with FH_CPU_ARM_SHA3_FAST (arch/aarch64/cpu.c).
 *
 * A round is 67 vector instructions and no MOV:
 *  - theta: ten EOR3 for the column parities, five RAX1 for D;
 *  - theta applied with rho and pi in one XAR per lane (EOR for A[0,0]),
 *    written in an order where each destination is already free;
 *  - chi: one BCAX per lane.  Chi on a plane needs two of its five inputs
 *    after their registers are overwritten, so pi leaves B[0,y] and B[1,y]
 *    in the registers of plane y+1's lanes 0 and 1 (plane 4's in v28, v29),
 *    which plane y+1's chi only writes after plane y has read them; B[0,0]
 *    and B[1,0] go to v6 and v5.  The state then ends each round in the
 *    registers it started in, without moves.
 *  - iota: LD1R of the round constant, one EOR.
 * v0-v24 hold the lanes, v25-v31 are scratch; d8-d15 are saved.
 */
#if defined(__AARCH64EB__)
#error "keccak_sha3ce.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8.2-a+sha3

/* chi on one plane (FIPS 202 §3.2.4): out[x] = B[x] ^ (B[x+2] & ~B[x+1]).
 * B[0] and B[1] come from registers other than their own; outputs 0 and 1
 * go to O0 and O1 (lanes 0 and 1 of this plane), the rest in place.
 * Arguments are register numbers. */
.macro chi_plane o0, o1, b0, b1, b2, b3, b4
	bcax	v\o0\().16b, v\b0\().16b, v\b2\().16b, v\b1\().16b
	bcax	v\o1\().16b, v\b1\().16b, v\b3\().16b, v\b2\().16b
	bcax	v\b2\().16b, v\b2\().16b, v\b4\().16b, v\b3\().16b
	bcax	v\b3\().16b, v\b3\().16b, v\b0\().16b, v\b4\().16b
	bcax	v\b4\().16b, v\b4\().16b, v\b1\().16b, v\b0\().16b
.endm

/* W12 rounds on v0-v24 (FIPS 202 §3.3); X6 points at the first round's
 * constant, RC[24 - W12]; W7 is clobbered. */
.macro keccak_f1600
	mov	w7, w12
1:
	/* theta: C[x] in v25-v29 ... */
	eor3	v25.16b, v0.16b, v5.16b, v10.16b
	eor3	v26.16b, v1.16b, v6.16b, v11.16b
	eor3	v27.16b, v2.16b, v7.16b, v12.16b
	eor3	v28.16b, v3.16b, v8.16b, v13.16b
	eor3	v29.16b, v4.16b, v9.16b, v14.16b
	eor3	v25.16b, v25.16b, v15.16b, v20.16b
	eor3	v26.16b, v26.16b, v16.16b, v21.16b
	eor3	v27.16b, v27.16b, v17.16b, v22.16b
	eor3	v28.16b, v28.16b, v18.16b, v23.16b
	eor3	v29.16b, v29.16b, v19.16b, v24.16b
	/* ... D[x] = C[x-1] ^ (C[x+1] <<< 1), ordered so that each C dies as
	 * soon as possible: D0 v25, D1 v30, D2 v26, D3 v27, D4 v31. */
	rax1	v30.2d, v25.2d, v27.2d
	rax1	v31.2d, v28.2d, v25.2d
	rax1	v25.2d, v29.2d, v26.2d
	rax1	v26.2d, v26.2d, v28.2d
	rax1	v27.2d, v27.2d, v29.2d

	/* theta applied, rho and pi: B[y, 2x+3y] = (A[x,y] ^ D[x]) <<< r[x,y]
	 * (Table 2); XAR rotates right, by 64 - r.  Each destination was read
	 * by an earlier line, or is v28/v29. */
	xar	v28.2d, v2.2d, v26.2d, #2	/* B[0,4] = A[2,0] <<< 62 */
	xar	v29.2d, v8.2d, v27.2d, #9	/* B[1,4] = A[3,1] <<< 55 */
	xar	v2.2d, v12.2d, v26.2d, #21	/* B[2,0] = A[2,2] <<< 43 */
	xar	v12.2d, v13.2d, v27.2d, #39	/* B[2,2] = A[3,2] <<< 25 */
	xar	v8.2d, v16.2d, v30.2d, #19	/* B[3,1] = A[1,3] <<< 45 */
	xar	v13.2d, v19.2d, v31.2d, #56	/* B[3,2] = A[4,3] <<< 8 */
	xar	v19.2d, v23.2d, v27.2d, #8	/* B[4,3] = A[3,4] <<< 56 */
	xar	v16.2d, v7.2d, v26.2d, #58	/* B[1,2] = A[2,1] <<< 6 */
	xar	v7.2d, v10.2d, v25.2d, #61	/* B[2,1] = A[0,2] <<< 3 */
	xar	v23.2d, v15.2d, v25.2d, #23	/* B[3,4] = A[0,3] <<< 41 */
	xar	v15.2d, v1.2d, v30.2d, #63	/* B[0,2] = A[1,0] <<< 1 */
	xar	v10.2d, v3.2d, v27.2d, #36	/* B[0,1] = A[3,0] <<< 28 */
	xar	v3.2d, v18.2d, v27.2d, #43	/* B[3,0] = A[3,3] <<< 21 */
	xar	v18.2d, v17.2d, v26.2d, #49	/* B[3,3] = A[2,3] <<< 15 */
	xar	v17.2d, v11.2d, v30.2d, #54	/* B[2,3] = A[1,2] <<< 10 */
	xar	v11.2d, v9.2d, v31.2d, #44	/* B[1,1] = A[4,1] <<< 20 */
	xar	v9.2d, v22.2d, v26.2d, #3	/* B[4,1] = A[2,4] <<< 61 */
	xar	v22.2d, v14.2d, v31.2d, #25	/* B[2,4] = A[4,2] <<< 39 */
	xar	v14.2d, v20.2d, v25.2d, #46	/* B[4,2] = A[0,4] <<< 18 */
	xar	v20.2d, v4.2d, v31.2d, #37	/* B[0,3] = A[4,0] <<< 27 */
	xar	v4.2d, v24.2d, v31.2d, #50	/* B[4,0] = A[4,4] <<< 14 */
	xar	v24.2d, v21.2d, v30.2d, #62	/* B[4,4] = A[1,4] <<< 2 */
	xar	v21.2d, v5.2d, v25.2d, #28	/* B[1,3] = A[0,1] <<< 36 */
	xar	v5.2d, v6.2d, v30.2d, #20	/* B[1,0] = A[1,1] <<< 44 */
	eor	v6.16b, v0.16b, v25.16b		/* B[0,0] = A[0,0] */

	/* chi, plane by plane: plane y writes its lanes 0 and 1 into the
	 * registers that held plane y-1's B[0] and B[1]. */
	chi_plane 0, 1, 6, 5, 2, 3, 4
	chi_plane 5, 6, 10, 11, 7, 8, 9
	chi_plane 10, 11, 15, 16, 12, 13, 14
	chi_plane 15, 16, 20, 21, 17, 18, 19
	chi_plane 20, 21, 28, 29, 22, 23, 24

	/* iota */
	ld1r	{v31.2d}, [x6], #8
	eor	v0.16b, v0.16b, v31.16b
	subs	w7, w7, #1
	b.ne	1b
.endm

/* XORs input lane I (8 bytes at x1 + 8I) into the low half of vI: exactly
 * two instructions (8 bytes), which the computed branch relies on. */
.macro xor_lane i
	ldr	d25, [x1, #8 * \i]
	eor	v\i\().8b, v\i\().8b, v25.8b
.endm

/* REG = &RC[24 - W12], where W12 rounds start. */
.macro rc_start reg
	FH_ADR(\reg, L(keccak_rc_end))
	sub	\reg, \reg, x12, lsl #3
.endm

.macro save_d8_d15
	stp	d8, d9, [sp, #-64]!
	stp	d10, d11, [sp, #16]
	stp	d12, d13, [sp, #32]
	stp	d14, d15, [sp, #48]
.endm

.macro restore_d8_d15
	ldp	d10, d11, [sp, #16]
	ldp	d12, d13, [sp, #32]
	ldp	d14, d15, [sp, #48]
	ldp	d8, d9, [sp], #64
.endm

/* One permutation is one absorbed block of rate 0. */
FH_FUNC(fh_keccak_permute_sha3ce, 4)
	mov	w4, w1
	mov	x1, x0
	mov	x2, #1
	mov	x3, #0
	b	L(absorb)
FH_ENDFUNC(fh_keccak_permute_sha3ce)

FH_FUNC(fh_keccak_absorb_sha3ce, 4)
L(absorb):
	cbz	x2, 9f
	save_d8_d15
	mov	w12, w4
	mov	x4, x0
	ld1	{v0.1d, v1.1d, v2.1d, v3.1d}, [x4], #32
	ld1	{v4.1d, v5.1d, v6.1d, v7.1d}, [x4], #32
	ld1	{v8.1d, v9.1d, v10.1d, v11.1d}, [x4], #32
	ld1	{v12.1d, v13.1d, v14.1d, v15.1d}, [x4], #32
	ld1	{v16.1d, v17.1d, v18.1d, v19.1d}, [x4], #32
	ld1	{v20.1d, v21.1d, v22.1d, v23.1d}, [x4], #32
	ldr	d24, [x4]
	rc_start x5
	adr	x4, 2f
	sub	x4, x4, x3
L(block):
	/* XOR rate/8 input lanes into lanes rate/8 - 1 .. 0: branch into the
	 * run below at 8 bytes of code per lane; any multiple of 8 up to 200
	 * (and 0) works. */
	br	x4
	xor_lane 24
	xor_lane 23
	xor_lane 22
	xor_lane 21
	xor_lane 20
	xor_lane 19
	xor_lane 18
	xor_lane 17
	xor_lane 16
	xor_lane 15
	xor_lane 14
	xor_lane 13
	xor_lane 12
	xor_lane 11
	xor_lane 10
	xor_lane 9
	xor_lane 8
	xor_lane 7
	xor_lane 6
	xor_lane 5
	xor_lane 4
	xor_lane 3
	xor_lane 2
	xor_lane 1
	xor_lane 0
2:
	add	x1, x1, x3
	mov	x6, x5
	keccak_f1600
	subs	x2, x2, #1
	b.ne	L(block)

	st1	{v0.1d, v1.1d, v2.1d, v3.1d}, [x0], #32
	st1	{v4.1d, v5.1d, v6.1d, v7.1d}, [x0], #32
	st1	{v8.1d, v9.1d, v10.1d, v11.1d}, [x0], #32
	st1	{v12.1d, v13.1d, v14.1d, v15.1d}, [x0], #32
	st1	{v16.1d, v17.1d, v18.1d, v19.1d}, [x0], #32
	st1	{v20.1d, v21.1d, v22.1d, v23.1d}, [x0], #32
	str	d24, [x0]
	restore_d8_d15
9:
	ret
FH_ENDFUNC(fh_keccak_absorb_sha3ce)

/* Loads lanes L..L+3 of the states at x2 (s0) and x3 (s1) into vL..vL+3,
 * s0 in the low halves; x2 and x3 advance by 32. */
.macro load_x2 l, l1, l2, l3
	ld1	{v25.2d, v26.2d}, [x2], #32
	ld1	{v27.2d, v28.2d}, [x3], #32
	zip1	v\l\().2d, v25.2d, v27.2d
	zip2	v\l1\().2d, v25.2d, v27.2d
	zip1	v\l2\().2d, v26.2d, v28.2d
	zip2	v\l3\().2d, v26.2d, v28.2d
.endm

/* The inverse of load_x2, through x0 and x1. */
.macro store_x2 l, l1, l2, l3
	zip1	v25.2d, v\l\().2d, v\l1\().2d
	zip1	v26.2d, v\l2\().2d, v\l3\().2d
	zip2	v27.2d, v\l\().2d, v\l1\().2d
	zip2	v28.2d, v\l2\().2d, v\l3\().2d
	st1	{v25.2d, v26.2d}, [x0], #32
	st1	{v27.2d, v28.2d}, [x1], #32
.endm

FH_FUNC(fh_keccak_permute_x2_sha3ce, 4)
	mov	w12, w2
	save_d8_d15
	mov	x2, x0
	mov	x3, x1
	load_x2	0, 1, 2, 3
	load_x2	4, 5, 6, 7
	load_x2	8, 9, 10, 11
	load_x2	12, 13, 14, 15
	load_x2	16, 17, 18, 19
	load_x2	20, 21, 22, 23
	ld1	{v24.d}[0], [x2]
	ld1	{v24.d}[1], [x3]
	rc_start x6
	keccak_f1600
	store_x2 0, 1, 2, 3
	store_x2 4, 5, 6, 7
	store_x2 8, 9, 10, 11
	store_x2 12, 13, 14, 15
	store_x2 16, 17, 18, 19
	store_x2 20, 21, 22, 23
	st1	{v24.d}[0], [x0]
	st1	{v24.d}[1], [x1]
	restore_d8_d15
	ret
FH_ENDFUNC(fh_keccak_permute_x2_sha3ce)

/* XORs lane I of the two input blocks into the two halves of vI, through
 * x8 and x9 running down by x10 = -8: exactly three instructions (12
 * bytes), which the computed branch relies on. */
.macro xor_lane_x2 i
	ld1	{v25.d}[0], [x8], x10
	ld1	{v25.d}[1], [x9], x10
	eor	v\i\().16b, v\i\().16b, v25.16b
.endm

/* Two sponges at once, one per 64-bit half of the registers: states[0]
 * with data[0] and states[1] with data[1], NBLOCKS blocks of RATE bytes
 * (any multiple of 8 up to 200).  The round code is the one-state kernel's.
 * Registers: x0, x1 the two states (x2, x3 while loading), x4 the branch
 * target, x5 round constants, x6 their pointer, w7 round counter, x8, x9
 * the input pointers, x10 -8, x11 2 * rate, w12 rounds, x13 blocks left,
 * x14 rate. */
FH_FUNC(fh_keccak_absorb_x2_sha3ce, 4)
	cbz	x2, 9f
	mov	w12, w4
	save_d8_d15
	ldp	x8, x9, [x1]
	mov	x13, x2
	mov	x14, x3
	add	x1, x0, #200
	mov	x2, x0
	mov	x3, x1
	load_x2	0, 1, 2, 3
	load_x2	4, 5, 6, 7
	load_x2	8, 9, 10, 11
	load_x2	12, 13, 14, 15
	load_x2	16, 17, 18, 19
	load_x2	20, 21, 22, 23
	ld1	{v24.d}[0], [x2]
	ld1	{v24.d}[1], [x3]
	rc_start x5
	/* Enter the run below at lane rate/8 - 1, 12 bytes of code a lane;
	 * the pointers start at that lane and end one lane before the block,
	 * so the next block's last lane is 2 * rate further on. */
	adr	x4, 2f
	add	x10, x14, x14, lsr #1
	sub	x4, x4, x10
	add	x8, x8, x14
	add	x9, x9, x14
	sub	x8, x8, #8
	sub	x9, x9, #8
	mov	x10, #-8
	lsl	x11, x14, #1
L(x2_block):
	br	x4
	xor_lane_x2 24
	xor_lane_x2 23
	xor_lane_x2 22
	xor_lane_x2 21
	xor_lane_x2 20
	xor_lane_x2 19
	xor_lane_x2 18
	xor_lane_x2 17
	xor_lane_x2 16
	xor_lane_x2 15
	xor_lane_x2 14
	xor_lane_x2 13
	xor_lane_x2 12
	xor_lane_x2 11
	xor_lane_x2 10
	xor_lane_x2 9
	xor_lane_x2 8
	xor_lane_x2 7
	xor_lane_x2 6
	xor_lane_x2 5
	xor_lane_x2 4
	xor_lane_x2 3
	xor_lane_x2 2
	xor_lane_x2 1
	xor_lane_x2 0
2:
	add	x8, x8, x11
	add	x9, x9, x11
	mov	x6, x5
	keccak_f1600
	subs	x13, x13, #1
	b.ne	L(x2_block)

	store_x2 0, 1, 2, 3
	store_x2 4, 5, 6, 7
	store_x2 8, 9, 10, 11
	store_x2 12, 13, 14, 15
	store_x2 16, 17, 18, 19
	store_x2 20, 21, 22, 23
	st1	{v24.d}[0], [x0]
	st1	{v24.d}[1], [x1]
	restore_d8_d15
9:
	ret
FH_ENDFUNC(fh_keccak_absorb_x2_sha3ce)

/* Round constants RC[ir] of iota, FIPS 202 §3.2.5 (Algorithm 5 evaluated). */
FH_CONST(keccak_rc, 3)
	.quad	0x0000000000000001, 0x0000000000008082
	.quad	0x800000000000808a, 0x8000000080008000
	.quad	0x000000000000808b, 0x0000000080000001
	.quad	0x8000000080008081, 0x8000000000008009
	.quad	0x000000000000008a, 0x0000000000000088
	.quad	0x0000000080008009, 0x000000008000000a
	.quad	0x000000008000808b, 0x800000000000008b
	.quad	0x8000000000008089, 0x8000000000008003
	.quad	0x8000000000008002, 0x8000000000000080
	.quad	0x000000000000800a, 0x800000008000000a
	.quad	0x8000000080008081, 0x8000000000008080
	.quad	0x0000000080000001, 0x8000000080008008
L(keccak_rc_end):
FH_ENDCONST(keccak_rc)
