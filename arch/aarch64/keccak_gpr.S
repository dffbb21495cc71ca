/* keccak_gpr.S: Keccak-f[1600] (FIPS 202 §3.2-3.3) and the sponge absorb
 * loop with all 25 lanes in AArch64 general registers.
 *
 * ISA: ARMv8.0-A base A64, no extensions; runs on every AArch64 CPU.
 * Flags: none.  Lanes: 1 state.  Little-endian only (AArch64 Linux).
 *
 *   void fh_keccak_absorb_gpr(uint64_t state[25], const uint8_t *data,
 *                             size_t nblocks, size_t rate, unsigned rounds);
 *   void fh_keccak_permute_gpr(uint64_t state[25], unsigned rounds);
 *
 * ROUNDS is 24 (Keccak-f[1600]) or 12 (Keccak-p[1600,12], the last 12
 * rounds): the round loop starts at constant RC[24 - ROUNDS] and ends at
 * the 0 after RC[23], so any even count works.
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 3,144 per permutation (fh_keccak_permute_gpr), 3,131 per 136-byte block
 * absorbed; keccak-portable built by gcc 12 takes 31,208 per permutation at
 * -O2 (its loops stay rolled, the state in memory) and 4,329 at -O3.
 * Counts are not a speed: no AArch64 hardware was at hand to time it.  The
 * same design (JDK-8337666, OpenSSL keccak1600-armv8) is published at
 * about 750 cycles per permutation on Graviton4, where it beats the SHA3
 * extension by 2x.
 *
 * The lanes A[x,y] live in x5-x17 and x19-x30 (x18 is the platform
 * register; x29 serves as a lane, so there is no frame record while the
 * function runs).  x0-x4 are the only scratch registers, so the pointers,
 * block count, rate and round-constant pointer live on the stack.  A round:
 *  - theta: column parities C[x] by EOR; D[x] = C[x-1] ^ (C[x+1] <<< 1) is
 *    one EOR with a rotated operand, and D is applied column by column,
 *    ordered so that five scratch registers suffice (C[4] is summed late).
 *  - rho and pi together: 24 RORs that walk pi's single 24-cycle, each
 *    writing the register its source just vacated.  Lane A[3,0] is theta'd
 *    into scratch x3 to open the cycle, so the walk needs no MOV.
 *  - chi: A[x] ^= A[x+2] & ~A[x+1] is BIC plus EOR; per plane three scratch
 *    registers keep the two terms that need the old A[0] and A[1].
 *  - iota: one load and one EOR.
 * Two rounds per loop iteration halve the loop's loads and stores.
 */
#if defined(__AARCH64EB__)
#error "keccak_gpr.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8-a

/* Lane A[x,y] (FIPS 202 §3.1.2), state[x + 5y] in memory. */
#define A00	x5
#define A10	x6
#define A20	x7
#define A30	x8
#define A40	x9
#define A01	x10
#define A11	x11
#define A21	x12
#define A31	x13
#define A41	x14
#define A02	x15
#define A12	x16
#define A22	x17
#define A32	x19
#define A42	x20
#define A03	x21
#define A13	x22
#define A23	x23
#define A33	x24
#define A43	x25
#define A04	x26
#define A14	x27
#define A24	x28
#define A34	x29
#define A44	x30

/* Stack frame: x19-x30 at 0..95, then the arguments. */
#define FRAME		144
#define F_STATE		96
#define F_BLOCKS	104
#define F_DATA		112	/* F_DATA and F_RATE are loaded as a pair */
#define F_RATE		120
#define F_RC		128
#define F_RC0		136	/* &RC[24 - rounds], where each block starts */

/* chi on one plane: out[x] = B[x] ^ (~B[x+1] & B[x+2]) in place.  The
 * terms for x = 3 and 4 read B[0] and B[1], so they are formed first. */
.macro chi_plane b0, b1, b2, b3, b4
	bic	x0, \b0, \b4
	bic	x1, \b1, \b0
	bic	x2, \b2, \b1
	eor	\b0, \b0, x2
	bic	x2, \b3, \b2
	eor	\b1, \b1, x2
	bic	x2, \b4, \b3
	eor	\b2, \b2, x2
	eor	\b3, \b3, x0
	eor	\b4, \b4, x1
.endm

/* theta, rho, pi and chi of one round (FIPS 202 §3.2.1-3.2.4). */
.macro keccak_round
	/* theta: parities of columns 0-3 (C[4] is summed later, when a
	 * scratch register is free). */
	eor	x0, A00, A01
	eor	x1, A10, A11
	eor	x2, A20, A21
	eor	x3, A30, A31
	eor	x0, x0, A02
	eor	x1, x1, A12
	eor	x2, x2, A22
	eor	x3, x3, A32
	eor	x0, x0, A03
	eor	x1, x1, A13
	eor	x2, x2, A23
	eor	x3, x3, A33
	eor	x0, x0, A04
	eor	x1, x1, A14
	eor	x2, x2, A24
	eor	x3, x3, A34
	/* D[1] = C[0] ^ (C[2] <<< 1) */
	eor	x4, x0, x2, ror #63
	eor	A10, A10, x4
	eor	A11, A11, x4
	eor	A12, A12, x4
	eor	A13, A13, x4
	eor	A14, A14, x4
	/* D[2] = C[1] ^ (C[3] <<< 1) */
	eor	x4, x1, x3, ror #63
	eor	A20, A20, x4
	eor	A21, A21, x4
	eor	A22, A22, x4
	eor	A23, A23, x4
	eor	A24, A24, x4
	/* C[4]: column 4 is still untouched. */
	eor	x4, A40, A41
	eor	x4, x4, A42
	eor	x4, x4, A43
	eor	x4, x4, A44
	/* D[0] = C[4] ^ (C[1] <<< 1); C[1] is not needed again. */
	eor	x1, x4, x1, ror #63
	eor	A00, A00, x1
	eor	A01, A01, x1
	eor	A02, A02, x1
	eor	A03, A03, x1
	eor	A04, A04, x1
	/* D[4] = C[3] ^ (C[0] <<< 1) */
	eor	x0, x3, x0, ror #63
	eor	A40, A40, x0
	eor	A41, A41, x0
	eor	A42, A42, x0
	eor	A43, A43, x0
	eor	A44, A44, x0
	/* D[3] = C[2] ^ (C[4] <<< 1); A[3,0] goes to x3 to open pi's cycle. */
	eor	x2, x2, x4, ror #63
	eor	x3, A30, x2
	eor	A31, A31, x2
	eor	A32, A32, x2
	eor	A33, A33, x2
	eor	A34, A34, x2

	/* rho and pi: B[y, 2x+3y] = A[x,y] <<< r[x,y] (Table 2), walking
	 * pi's cycle backwards from position [3,0]; ROR by 64 - r. */
	ror	A30, A33, #43	/* B[3,0] = A[3,3] <<< 21 */
	ror	A33, A23, #49	/* B[3,3] = A[2,3] <<< 15 */
	ror	A23, A12, #54	/* B[2,3] = A[1,2] <<< 10 */
	ror	A12, A21, #58	/* B[1,2] = A[2,1] <<< 6 */
	ror	A21, A02, #61	/* B[2,1] = A[0,2] <<< 3 */
	ror	A02, A10, #63	/* B[0,2] = A[1,0] <<< 1 */
	ror	A10, A11, #20	/* B[1,0] = A[1,1] <<< 44 */
	ror	A11, A41, #44	/* B[1,1] = A[4,1] <<< 20 */
	ror	A41, A24, #3	/* B[4,1] = A[2,4] <<< 61 */
	ror	A24, A42, #25	/* B[2,4] = A[4,2] <<< 39 */
	ror	A42, A04, #46	/* B[4,2] = A[0,4] <<< 18 */
	ror	A04, A20, #2	/* B[0,4] = A[2,0] <<< 62 */
	ror	A20, A22, #21	/* B[2,0] = A[2,2] <<< 43 */
	ror	A22, A32, #39	/* B[2,2] = A[3,2] <<< 25 */
	ror	A32, A43, #56	/* B[3,2] = A[4,3] <<< 8 */
	ror	A43, A34, #8	/* B[4,3] = A[3,4] <<< 56 */
	ror	A34, A03, #23	/* B[3,4] = A[0,3] <<< 41 */
	ror	A03, A40, #37	/* B[0,3] = A[4,0] <<< 27 */
	ror	A40, A44, #50	/* B[4,0] = A[4,4] <<< 14 */
	ror	A44, A14, #62	/* B[4,4] = A[1,4] <<< 2 */
	ror	A14, A31, #9	/* B[1,4] = A[3,1] <<< 55 */
	ror	A31, A13, #19	/* B[3,1] = A[1,3] <<< 45 */
	ror	A13, A01, #28	/* B[1,3] = A[0,1] <<< 36 */
	ror	A01, x3, #36	/* B[0,1] = A[3,0] <<< 28 */

	chi_plane A00, A10, A20, A30, A40
	chi_plane A01, A11, A21, A31, A41
	chi_plane A02, A12, A22, A32, A42
	chi_plane A03, A13, A23, A33, A43
	chi_plane A04, A14, A24, A34, A44
.endm

/* XORs input lane I (8 bytes at x0 + 8I) into lane register A: exactly two
 * instructions (8 bytes), which the computed branch below relies on. */
.macro xor_lane a, i
	ldr	x2, [x0, #8 * \i]
	eor	\a, \a, x2
.endm

/* One permutation is one absorbed block of rate 0. */
FH_FUNC(fh_keccak_permute_gpr, 4)
	mov	w4, w1
	mov	x1, x0
	mov	x2, #1
	mov	x3, #0
	b	L(absorb)
FH_ENDFUNC(fh_keccak_permute_gpr)

FH_FUNC(fh_keccak_absorb_gpr, 4)
L(absorb):
	cbz	x2, L(return)
	stp	x19, x20, [sp, #-FRAME]!
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	stp	x0, x2, [sp, #F_STATE]
	stp	x1, x3, [sp, #F_DATA]
	FH_ADR(x1, L(keccak_rc_end))
	sub	x1, x1, w4, uxtw #3
	str	x1, [sp, #F_RC0]

	ldp	A00, A10, [x0, #0]
	ldp	A20, A30, [x0, #16]
	ldp	A40, A01, [x0, #32]
	ldp	A11, A21, [x0, #48]
	ldp	A31, A41, [x0, #64]
	ldp	A02, A12, [x0, #80]
	ldp	A22, A32, [x0, #96]
	ldp	A42, A03, [x0, #112]
	ldp	A13, A23, [x0, #128]
	ldp	A33, A43, [x0, #144]
	ldp	A04, A14, [x0, #160]
	ldp	A24, A34, [x0, #176]
	ldr	A44, [x0, #192]

L(block):
	/* XOR rate/8 input lanes into lanes rate/8 - 1 .. 0: branch into
	 * the run of xor_lane below at 8 bytes of code per lane, which works
	 * for every rate that is a multiple of 8 up to 200 (and 0). */
	ldp	x0, x1, [sp, #F_DATA]
	adr	x2, L(xored)
	sub	x2, x2, x1
	add	x1, x0, x1
	str	x1, [sp, #F_DATA]
	br	x2
	xor_lane A44, 24
	xor_lane A34, 23
	xor_lane A24, 22
	xor_lane A14, 21
	xor_lane A04, 20
	xor_lane A43, 19
	xor_lane A33, 18
	xor_lane A23, 17
	xor_lane A13, 16
	xor_lane A03, 15
	xor_lane A42, 14
	xor_lane A32, 13
	xor_lane A22, 12
	xor_lane A12, 11
	xor_lane A02, 10
	xor_lane A41, 9
	xor_lane A31, 8
	xor_lane A21, 7
	xor_lane A11, 6
	xor_lane A01, 5
	xor_lane A40, 4
	xor_lane A30, 3
	xor_lane A20, 2
	xor_lane A10, 1
	xor_lane A00, 0
L(xored):
	ldr	x0, [sp, #F_RC0]
	str	x0, [sp, #F_RC]
L(round):
	keccak_round
	ldr	x0, [sp, #F_RC]
	ldr	x1, [x0], #16
	str	x0, [sp, #F_RC]
	eor	A00, A00, x1		/* iota */
	keccak_round
	ldr	x0, [sp, #F_RC]
	ldr	x1, [x0, #-8]
	eor	A00, A00, x1		/* iota */
	ldr	x1, [x0]		/* 0 after the last constant */
	cbnz	x1, L(round)

	ldr	x0, [sp, #F_BLOCKS]
	subs	x0, x0, #1
	str	x0, [sp, #F_BLOCKS]
	b.ne	L(block)

	ldr	x0, [sp, #F_STATE]
	stp	A00, A10, [x0, #0]
	stp	A20, A30, [x0, #16]
	stp	A40, A01, [x0, #32]
	stp	A11, A21, [x0, #48]
	stp	A31, A41, [x0, #64]
	stp	A02, A12, [x0, #80]
	stp	A22, A32, [x0, #96]
	stp	A42, A03, [x0, #112]
	stp	A13, A23, [x0, #128]
	stp	A33, A43, [x0, #144]
	stp	A04, A14, [x0, #160]
	stp	A24, A34, [x0, #176]
	str	A44, [x0, #192]

	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	x19, x20, [sp], #FRAME
L(return):
	ret
FH_ENDFUNC(fh_keccak_absorb_gpr)

/* Round constants RC[ir] of iota, FIPS 202 §3.2.5 (Algorithm 5 evaluated),
 * then a 0 that ends the round loop (no round constant is 0). */
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
	.quad	0
FH_ENDCONST(keccak_rc)
