/* md5_gpr.S: MD5 compression (RFC 1321 §3.4) in AArch64 general registers.
 *
 * ISA: ARMv8.0-A base A64, no extensions; runs on every AArch64 CPU.
 * Flags: none.  Lanes: 1.  Little-endian only (AArch64 Linux).
 *
 *   void fh_md5_blocks_gpr(uint32_t state[4], const uint8_t *data,
 *                          size_t nblocks);
 *
 * Executed instructions (qemu-insncount, tests/bench/aarch64-insns.sh):
 * 511 per 64-byte block, against 630 for md5-portable built by gcc 12 -O2
 * (625 at -O3, the release build's level).
 * Instruction counts are not a speed; no AArch64 hardware was at hand to
 * time it (published figure for this data path: 6.1 -> 4.9 cycles/byte on
 * Graviton2, floor 4.5).
 *
 * The shape, after the OpenJDK AArch64 MD5 intrinsic (JDK-8299158):
 *  - Only b is on the critical path of a step, a = b + ((a + f + X + T) <<< s),
 *    so X and T are added into a first: a was ready three steps earlier.
 *  - F = (b & c) | (d & ~b): the two halves are disjoint, so each is added
 *    into a separately; AND and BIC run in parallel and no ORR is needed.
 *  - G = (b & d) | (c & ~d): c & ~d (BIC) does not depend on b and is added
 *    early, so b passes through a single AND (4 instead of 5 cycles a step).
 *  - H = b ^ (c ^ d): c ^ d does not depend on b.
 *  - I = c ^ (b | ~d) is ORN then EOR.
 *  - The 16 message words stay in registers for the whole block, two per
 *    X register (ldp of 64 bits); an odd word is added as "x, lsr #32".
 *    The T constants come four per LDP the same way.  Adding 64-bit values
 *    into a leaves garbage above bit 31, which nothing reads: the rotate and
 *    the boolean functions use W registers.
 *
 * Registers: x0 state, x1 data, x2 blocks left, x3 T pointer,
 * w4-w7 a b c d, x8-x15 message words 0-15 (two per register),
 * x16-x17 four T constants, w19-w20 scratch.
 */
#if defined(__AARCH64EB__)
#error "md5_gpr.S assumes little-endian AArch64"
#endif

#include "../asm.h"

	.arch	armv8-a

/* Message word X[j], as the last operand of a 64-bit ADD. */
#define M0	x8
#define M1	x8, lsr #32
#define M2	x9
#define M3	x9, lsr #32
#define M4	x10
#define M5	x10, lsr #32
#define M6	x11
#define M7	x11, lsr #32
#define M8	x12
#define M9	x12, lsr #32
#define M10	x13
#define M11	x13, lsr #32
#define M12	x14
#define M13	x14, lsr #32
#define M14	x15
#define M15	x15, lsr #32
/* The four T constants of the current group of four steps. */
#define K0	x16
#define K1	x16, lsr #32
#define K2	x17
#define K3	x17, lsr #32

/* One step: a = b + ((a + FN(b, c, d) + X[j] + T[i]) <<< s).  A, B, C, D
 * are register numbers (4-7).  Each function adds what does not depend on
 * b first, so b meets as few operations as possible.  The instructions are
 * joined by FH_SEP (asm.h): Apple's assembler reads ';' as a comment. */
#define STEP_F(a, b, c, d, m, k, s)		\
	add	x##a, x##a, k FH_SEP		\
	add	x##a, x##a, m FH_SEP		\
	bic	w20, w##d, w##b FH_SEP		\
	and	w19, w##b, w##c FH_SEP		\
	add	w##a, w##a, w20 FH_SEP		\
	add	w##a, w##a, w19 FH_SEP		\
	ror	w##a, w##a, #(32 - (s)) FH_SEP	\
	add	w##a, w##a, w##b

#define STEP_G(a, b, c, d, m, k, s)		\
	add	x##a, x##a, k FH_SEP		\
	add	x##a, x##a, m FH_SEP		\
	bic	w20, w##c, w##d FH_SEP		\
	add	w##a, w##a, w20 FH_SEP		\
	and	w19, w##b, w##d FH_SEP		\
	add	w##a, w##a, w19 FH_SEP		\
	ror	w##a, w##a, #(32 - (s)) FH_SEP	\
	add	w##a, w##a, w##b

#define STEP_H(a, b, c, d, m, k, s)		\
	add	x##a, x##a, k FH_SEP		\
	add	x##a, x##a, m FH_SEP		\
	eor	w19, w##c, w##d FH_SEP		\
	eor	w19, w19, w##b FH_SEP		\
	add	w##a, w##a, w19 FH_SEP		\
	ror	w##a, w##a, #(32 - (s)) FH_SEP	\
	add	w##a, w##a, w##b

#define STEP_I(a, b, c, d, m, k, s)		\
	add	x##a, x##a, k FH_SEP		\
	add	x##a, x##a, m FH_SEP		\
	orn	w19, w##b, w##d FH_SEP		\
	eor	w19, w19, w##c FH_SEP		\
	add	w##a, w##a, w19 FH_SEP		\
	ror	w##a, w##a, #(32 - (s)) FH_SEP	\
	add	w##a, w##a, w##b

/* Four steps with the roles of a, b, c, d rotating as RFC 1321 writes them
 * ([ABCD], [DABC], [CDAB], [BCDA]), message words J0-J3 and shifts S0-S3.
 * The word numbers are pasted onto M so each becomes one macro argument. */
#define QUAD(FN, j0, j1, j2, j3, s0, s1, s2, s3)	\
	ldp	x16, x17, [x3], #16 FH_SEP		\
	FN(4, 5, 6, 7, M##j0, K0, s0) FH_SEP		\
	FN(7, 4, 5, 6, M##j1, K1, s1) FH_SEP		\
	FN(6, 7, 4, 5, M##j2, K2, s2) FH_SEP		\
	FN(5, 6, 7, 4, M##j3, K3, s3)

FH_FUNC(fh_md5_blocks_gpr, 4)
	cbz	x2, 9f
	stp	x19, x20, [sp, #-16]!
	FH_ADR(x3, md5_t)
	ldp	w4, w5, [x0]
	ldp	w6, w7, [x0, #8]
1:
	ldp	x8, x9, [x1], #64
	ldp	x10, x11, [x1, #-48]
	ldp	x12, x13, [x1, #-32]
	ldp	x14, x15, [x1, #-16]

	/* Round 1: X[i], shifts 7 12 17 22. */
	QUAD(STEP_F, 0, 1, 2, 3, 7, 12, 17, 22)
	QUAD(STEP_F, 4, 5, 6, 7, 7, 12, 17, 22)
	QUAD(STEP_F, 8, 9, 10, 11, 7, 12, 17, 22)
	QUAD(STEP_F, 12, 13, 14, 15, 7, 12, 17, 22)
	/* Round 2: X[(1 + 5i) mod 16], shifts 5 9 14 20. */
	QUAD(STEP_G, 1, 6, 11, 0, 5, 9, 14, 20)
	QUAD(STEP_G, 5, 10, 15, 4, 5, 9, 14, 20)
	QUAD(STEP_G, 9, 14, 3, 8, 5, 9, 14, 20)
	QUAD(STEP_G, 13, 2, 7, 12, 5, 9, 14, 20)
	/* Round 3: X[(5 + 3i) mod 16], shifts 4 11 16 23. */
	QUAD(STEP_H, 5, 8, 11, 14, 4, 11, 16, 23)
	QUAD(STEP_H, 1, 4, 7, 10, 4, 11, 16, 23)
	QUAD(STEP_H, 13, 0, 3, 6, 4, 11, 16, 23)
	QUAD(STEP_H, 9, 12, 15, 2, 4, 11, 16, 23)
	/* Round 4: X[7i mod 16], shifts 6 10 15 21. */
	QUAD(STEP_I, 0, 7, 14, 5, 6, 10, 15, 21)
	QUAD(STEP_I, 12, 3, 10, 1, 6, 10, 15, 21)
	QUAD(STEP_I, 8, 15, 6, 13, 6, 10, 15, 21)
	QUAD(STEP_I, 4, 11, 2, 9, 6, 10, 15, 21)

	/* Add the block's input state back (RFC 1321 §3.4, last step).  It
	 * is reloaded from memory rather than kept in four more registers,
	 * which would cost the same number of instructions and more saves. */
	ldp	w19, w20, [x0]
	add	w4, w4, w19
	add	w5, w5, w20
	ldp	w19, w20, [x0, #8]
	add	w6, w6, w19
	add	w7, w7, w20
	stp	w4, w5, [x0]
	stp	w6, w7, [x0, #8]
	sub	x3, x3, #256
	subs	x2, x2, #1
	b.ne	1b

	ldp	x19, x20, [sp], #16
9:
	ret
FH_ENDFUNC(fh_md5_blocks_gpr)

/* T[i] = floor(2^32 * |sin(i + 1)|), RFC 1321 §3.4, in step order. */
FH_CONST(md5_t, 4)
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
FH_ENDCONST(md5_t)
