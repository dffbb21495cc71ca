/* keccak_neonx2.S: Keccak-f[1600] (FIPS 202 §3.2-3.3) on two states at
 * once with plain Advanced SIMD, one lane A[x,y] per vector register and
 * one state per 64-bit half; no SHA3 extension.
 *
 * ISA: ARMv8.0-A with Advanced SIMD (FH_CPU_ARM_ASIMD, HWCAP_ASIMD).
 * Flags: none (.arch armv8-a+simd below).  Lanes: 2 states.
 * Little-endian only (AArch64 Linux).
 *
 *   void fh_keccak_absorb_x2_neon(uint64_t (*states)[25],
 *                                 const uint8_t *const *data,
 *                                 size_t nblocks, size_t rate,
 *                                 unsigned rounds);
 *       for each lane i < 2, the same as fh_keccak_absorb_gpr(states[i],
 *       data[i], nblocks, rate, rounds) (kernel keccak-neonx2).
 *   void fh_keccak_permute_x2_neon(uint64_t s0[25], uint64_t s1[25],
 *                                  unsigned rounds);
 *       the permutation on S0 and S1 (tests and instruction counts).
 *
 * ROUNDS is 24 (Keccak-f[1600]) or 12 (Keccak-p[1600,12], the last 12
 * rounds): the rounds start at constant RC[24 - ROUNDS], two at a time.
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 3,972 per call of the two-state permutation, 1,986 per state; 3,922 per
 * two 136-byte blocks absorbed, 1,961 per block per state.  keccak-gpr
 * takes 3,144 per permutation, so two of its streams take 6,288 against
 * 3,972 here (0.63x), the condition for this kernel to exist.  Counts are
 * not a speed: no AArch64 hardware was at hand.  The vector pipes that run
 * these (two on Neoverse N1, four on V1/V2) against three to six integer
 * ALUs for keccak-gpr put it near keccak-gpr's speed on N1 and ahead on
 * V1/V2 by issue width alone; that is arithmetic, not a measurement.
 *
 * A round is 160 instructions, and no MOV:
 *  - theta: 20 EOR for the column parities C; D[x] = C[x-1] ^ (C[x+1] <<< 1)
 *    as ADD (C + C is the shift by one), SRI #63, EOR, in an order that
 *    leaves D in v30 v28 v31 v25 v26 and frees v27 and v29.
 *  - theta applied, rho and pi: per lane one EOR of D in place, then the
 *    rotate as SHL into the register pi sends it to and SRI, walking pi's
 *    24-cycle so that each destination was read just before; B[0,4] and
 *    B[1,4] go to v27 and v29.  The walk is the one keccak_sha3ce.S takes
 *    with XAR, which this file spells as EOR, SHL, SRI.
 *  - chi: BIC and EOR per lane; per plane lanes 0 and 1 are written to the
 *    registers that held the previous plane's B[0] and B[1], the other
 *    three in place through three scratch registers.  The state ends each
 *    round in the registers it started in.
 *  - iota: LD1R of the round constant, one EOR.
 * Two rounds per loop iteration.  v0-v24 hold the lanes, v25-v31 are
 * scratch; d8-d15 are saved.
 */
#if defined(__AARCH64EB__)
#error "keccak_neonx2.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8-a+simd

/* D (register DST) = C[x-1] (CM) ^ (C[x+1] (CP) <<< 1). */
.macro theta_d dst, cm, cp
	add	v\dst\().2d, v\cp\().2d, v\cp\().2d
	sri	v\dst\().2d, v\cp\().2d, #63
	eor	v\dst\().16b, v\dst\().16b, v\cm\().16b
.endm

/* B (register DST) = (A (register SRC) ^ D) <<< R; SRC is overwritten. */
.macro rho_pi dst, src, d, r
	eor	v\src\().16b, v\src\().16b, v\d\().16b
	shl	v\dst\().2d, v\src\().2d, #\r
	sri	v\dst\().2d, v\src\().2d, #(64 - \r)
.endm

/* chi on one plane: out[x] = B[x] ^ (B[x+2] & ~B[x+1]); outputs 0 and 1 go
 * to O0 and O1, the rest in place.  Register numbers. */
.macro chi_plane o0, o1, b0, b1, b2, b3, b4
	bic	v\o0\().16b, v\b2\().16b, v\b1\().16b
	bic	v\o1\().16b, v\b3\().16b, v\b2\().16b
	bic	v30.16b, v\b4\().16b, v\b3\().16b
	bic	v31.16b, v\b0\().16b, v\b4\().16b
	bic	v25.16b, v\b1\().16b, v\b0\().16b
	eor	v\o0\().16b, v\o0\().16b, v\b0\().16b
	eor	v\o1\().16b, v\o1\().16b, v\b1\().16b
	eor	v\b2\().16b, v\b2\().16b, v30.16b
	eor	v\b3\().16b, v\b3\().16b, v31.16b
	eor	v\b4\().16b, v\b4\().16b, v25.16b
.endm

/* One round on v0-v24; X6 walks the round constants. */
.macro keccak_round
	/* theta: C[x] in v25-v29 ... */
	eor	v25.16b, v0.16b, v5.16b
	eor	v26.16b, v1.16b, v6.16b
	eor	v27.16b, v2.16b, v7.16b
	eor	v28.16b, v3.16b, v8.16b
	eor	v29.16b, v4.16b, v9.16b
	eor	v25.16b, v25.16b, v10.16b
	eor	v26.16b, v26.16b, v11.16b
	eor	v27.16b, v27.16b, v12.16b
	eor	v28.16b, v28.16b, v13.16b
	eor	v29.16b, v29.16b, v14.16b
	eor	v25.16b, v25.16b, v15.16b
	eor	v26.16b, v26.16b, v16.16b
	eor	v27.16b, v27.16b, v17.16b
	eor	v28.16b, v28.16b, v18.16b
	eor	v29.16b, v29.16b, v19.16b
	eor	v25.16b, v25.16b, v20.16b
	eor	v26.16b, v26.16b, v21.16b
	eor	v27.16b, v27.16b, v22.16b
	eor	v28.16b, v28.16b, v23.16b
	eor	v29.16b, v29.16b, v24.16b
	/* ... D: each C is overwritten once its two uses are done. */
	theta_d	30, 29, 26		/* D0 = C4 ^ (C1 <<< 1) */
	theta_d	31, 26, 28		/* D2 = C1 ^ (C3 <<< 1) */
	theta_d	26, 28, 25		/* D4 = C3 ^ (C0 <<< 1) */
	theta_d	28, 25, 27		/* D1 = C0 ^ (C2 <<< 1) */
	theta_d	25, 27, 29		/* D3 = C2 ^ (C4 <<< 1) */

	/* theta applied, rho and pi: B[y, 2x+3y] = (A[x,y] ^ D[x]) <<< r[x,y]
	 * (FIPS 202 Table 2). */
	rho_pi	27, 2, 31, 62		/* B[0,4] = A[2,0] <<< 62 */
	rho_pi	29, 8, 25, 55		/* B[1,4] = A[3,1] <<< 55 */
	rho_pi	2, 12, 31, 43		/* B[2,0] = A[2,2] <<< 43 */
	rho_pi	12, 13, 25, 25		/* B[2,2] = A[3,2] <<< 25 */
	rho_pi	8, 16, 28, 45		/* B[3,1] = A[1,3] <<< 45 */
	rho_pi	13, 19, 26, 8		/* B[3,2] = A[4,3] <<< 8 */
	rho_pi	19, 23, 25, 56		/* B[4,3] = A[3,4] <<< 56 */
	rho_pi	16, 7, 31, 6		/* B[1,2] = A[2,1] <<< 6 */
	rho_pi	7, 10, 30, 3		/* B[2,1] = A[0,2] <<< 3 */
	rho_pi	23, 15, 30, 41		/* B[3,4] = A[0,3] <<< 41 */
	rho_pi	15, 1, 28, 1		/* B[0,2] = A[1,0] <<< 1 */
	rho_pi	10, 3, 25, 28		/* B[0,1] = A[3,0] <<< 28 */
	rho_pi	3, 18, 25, 21		/* B[3,0] = A[3,3] <<< 21 */
	rho_pi	18, 17, 31, 15		/* B[3,3] = A[2,3] <<< 15 */
	rho_pi	17, 11, 28, 10		/* B[2,3] = A[1,2] <<< 10 */
	rho_pi	11, 9, 26, 20		/* B[1,1] = A[4,1] <<< 20 */
	rho_pi	9, 22, 31, 61		/* B[4,1] = A[2,4] <<< 61 */
	rho_pi	22, 14, 26, 39		/* B[2,4] = A[4,2] <<< 39 */
	rho_pi	14, 20, 30, 18		/* B[4,2] = A[0,4] <<< 18 */
	rho_pi	20, 4, 26, 27		/* B[0,3] = A[4,0] <<< 27 */
	rho_pi	4, 24, 26, 14		/* B[4,0] = A[4,4] <<< 14 */
	rho_pi	24, 21, 28, 2		/* B[4,4] = A[1,4] <<< 2 */
	rho_pi	21, 5, 30, 36		/* B[1,3] = A[0,1] <<< 36 */
	rho_pi	5, 6, 28, 44		/* B[1,0] = A[1,1] <<< 44 */
	eor	v6.16b, v0.16b, v30.16b	/* B[0,0] = A[0,0] */

	/* chi, plane by plane. */
	chi_plane 0, 1, 6, 5, 2, 3, 4
	chi_plane 5, 6, 10, 11, 7, 8, 9
	chi_plane 10, 11, 15, 16, 12, 13, 14
	chi_plane 15, 16, 20, 21, 17, 18, 19
	chi_plane 20, 21, 27, 29, 22, 23, 24

	/* iota */
	ld1r	{v31.2d}, [x6], #8
	eor	v0.16b, v0.16b, v31.16b
.endm

/* Loads lanes L..L+3 of the states at x2 (low halves) and x3 into
 * vL..vL+3; x2 and x3 advance by 32. */
.macro load_pair l0, l1, l2, l3
	ld1	{v25.2d, v26.2d}, [x2], #32
	ld1	{v27.2d, v28.2d}, [x3], #32
	zip1	v\l0\().2d, v25.2d, v27.2d
	zip2	v\l1\().2d, v25.2d, v27.2d
	zip1	v\l2\().2d, v26.2d, v28.2d
	zip2	v\l3\().2d, v26.2d, v28.2d
.endm

/* Stores lanes L..L+3 back through x0 (low halves) and x1. */
.macro store_pair l0, l1, l2, l3
	zip1	v25.2d, v\l0\().2d, v\l1\().2d
	zip1	v26.2d, v\l2\().2d, v\l3\().2d
	zip2	v27.2d, v\l0\().2d, v\l1\().2d
	zip2	v28.2d, v\l2\().2d, v\l3\().2d
	st1	{v25.2d, v26.2d}, [x0], #32
	st1	{v27.2d, v28.2d}, [x1], #32
.endm

/* XORs lane I of the two input blocks into the halves of vI, through x8
 * and x9 running down by x10 = -8: exactly three instructions (12 bytes),
 * which the computed branch relies on. */
.macro xor_lane i
	ld1	{v25.d}[0], [x8], x10
	ld1	{v25.d}[1], [x9], x10
	eor	v\i\().16b, v\i\().16b, v25.16b
.endm

/* One permutation is one absorbed block of rate 0 (no input is read). */
FH_FUNC(fh_keccak_permute_x2_neon, 4)
	mov	w12, w2
	mov	x13, #1
	mov	x14, #0
	b	L(start)
FH_ENDFUNC(fh_keccak_permute_x2_neon)

/* Registers: x0, x1 the two states (x2, x3 while loading), x4 the branch
 * target, x5 round constants, x6 their pointer, w7 loop counter, x8, x9
 * the input pointers, x10 -8, x11 2 * rate, w12 rounds, x13 blocks left,
 * x14 rate. */
FH_FUNC(fh_keccak_absorb_x2_neon, 4)
	cbz	x2, 9f
	mov	w12, w4
	ldp	x8, x9, [x1]
	mov	x13, x2
	mov	x14, x3
	add	x1, x0, #200
L(start):
	stp	d8, d9, [sp, #-64]!
	stp	d10, d11, [sp, #16]
	stp	d12, d13, [sp, #32]
	stp	d14, d15, [sp, #48]
	mov	x2, x0
	mov	x3, x1
	load_pair 0, 1, 2, 3
	load_pair 4, 5, 6, 7
	load_pair 8, 9, 10, 11
	load_pair 12, 13, 14, 15
	load_pair 16, 17, 18, 19
	load_pair 20, 21, 22, 23
	ld1	{v24.d}[0], [x2]
	ld1	{v24.d}[1], [x3]
	FH_ADR(x5, L(keccak_rc_x2_end))
	sub	x5, x5, x12, lsl #3	/* &RC[24 - rounds] */
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
L(block):
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
	add	x8, x8, x11
	add	x9, x9, x11
	mov	x6, x5
	lsr	w7, w12, #1
1:
	keccak_round
	keccak_round
	subs	w7, w7, #1
	b.ne	1b
	subs	x13, x13, #1
	b.ne	L(block)

	store_pair 0, 1, 2, 3
	store_pair 4, 5, 6, 7
	store_pair 8, 9, 10, 11
	store_pair 12, 13, 14, 15
	store_pair 16, 17, 18, 19
	store_pair 20, 21, 22, 23
	st1	{v24.d}[0], [x0]
	st1	{v24.d}[1], [x1]
	ldp	d10, d11, [sp, #16]
	ldp	d12, d13, [sp, #32]
	ldp	d14, d15, [sp, #48]
	ldp	d8, d9, [sp], #64
9:
	ret
FH_ENDFUNC(fh_keccak_absorb_x2_neon)

/* Round constants RC[ir] of iota, FIPS 202 §3.2.5 (Algorithm 5 evaluated). */
FH_CONST(keccak_rc_x2, 3)
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
L(keccak_rc_x2_end):
FH_ENDCONST(keccak_rc_x2)
