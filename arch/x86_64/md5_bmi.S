/* md5_bmi.S: MD5 compression on the general registers, one stream, with
 * BMI1's ANDN.  ISA: x86-64 + BMI1 (FH_CPU_X86_BMI1); no build flags needed,
 * the assembler always knows ANDN.  One lane.
 *
 * Measured here (AMD EPYC Zen 3, 16 KiB buffer, alternating runs, medians):
 * 655 MB/s against 590 for md5-portable (1.11x) and 643 for OpenSSL 3.0's
 * `openssl speed -evp md5 -bytes 16384` (1.02x; 1.09x, quartiles
 * 1.08-1.11, alternating with OpenSSL's EVP MD5 in one process).  That is
 * about 4.7 cycles/byte against a clock read from a dependent ADD chain;
 * steps made all of one kind time 5% over their 5- or 4-cycle chain the
 * same way, so this code runs at the 4.5 floor below.  OpenSSL's code has
 * the standard step shapes (F, G and I 5 cycles, H 4: a 4.75 floor,
 * perf-anchors §3.1), so on one stream no general-register code can beat
 * it by more than 4.75 / 4.5 = 1.056x plus what OpenSSL loses to its
 * floor; the 1.10x aimed at is out of reach on Zen 3.  `fhsum -a md5` on a 1 GiB cached
 * file: 1.10x GNU md5sum 9.1 (hyperfine, alternating).
 *
 * Every step is a = b + ((a + F(b,c,d) + X[k] + T[i]) <<< s), and only b
 * arrives late (it is the previous step's result), so the step is arranged
 * to put as few operations as possible between b and the new b:
 *  - a + T[i] + X[k] are two plain ADDs issued before F is known, instead of
 *    a three-operand LEA (3-cycle latency on Intel cores up to Cascade Lake;
 *    openjdk PR 11054, golang PR 43690).
 *  - F = d ^ (b & (c ^ d)): c ^ d is ready early, b passes AND and XOR.
 *  - G = (b & d) + (c & ~d): the two halves have no bit in common, so OR can
 *    be an ADD and c & ~d (ANDN) is added into a before b arrives; b passes
 *    one AND (animetosho/md5-optimisation, "dependency shortcut in G").
 *  - H = b ^ (c ^ d), where c ^ d is the previous step's H with its d XORed
 *    back out, so b passes one XOR and no MOV is needed.
 *  - I = c ^ (b | ~d) = ~(c ^ (~b & d)); a + ~y = a - 1 - y, so the -1 is
 *    folded into the constant and the step is ANDN, XOR, SUB: one
 *    operation fewer than NOT, OR, XOR, ADD, and no MOV.
 * That is 5, 4, 4, 5 cycles on the chain per F, G, H, I step with 1-cycle
 * ALUs: 4.5 cycles per byte is the floor (perf-anchors §3.1).
 *
 * void fh_md5_blocks_bmi(uint32_t state[4], const uint8_t *data,
 *                        size_t nblocks);          System V: rdi, rsi, rdx
 * The chaining value stays in STATE between blocks: it is re-read and added
 * at the end of each block, which costs four loads and frees four registers.
 */

#include "../asm.h"

#define A %r8d
#define B %r9d
#define C %r10d
#define D %r11d
#define T %eax		/* the round function's value */

/* Round 1: F(b,c,d) = (b & c) | (~b & d), RFC 1321 §3.4. */
.macro step_f a, b, c, d, k, s, t
	add	$\t, \a
	add	4*\k(%rsi), \a
	mov	\c, T
	xor	\d, T
	and	\b, T
	xor	\d, T
	add	T, \a
	rol	$\s, \a
	add	\b, \a
.endm

/* Round 2: G(b,c,d) = (b & d) | (c & ~d). */
.macro step_g a, b, c, d, k, s, t
	add	$\t, \a
	add	4*\k(%rsi), \a
	andn	\c, \d, T		/* T = ~d & c */
	add	T, \a
	mov	\d, T
	and	\b, T
	add	T, \a
	rol	$\s, \a
	add	\b, \a
.endm

/* Round 3: H(b,c,d) = b ^ c ^ d.  On entry T holds c ^ d; on exit it holds
 * b ^ c, which is c ^ d for the next step (its c is this b, its d this c). */
.macro step_h a, b, c, d, k, s, t
	add	$\t, \a
	add	4*\k(%rsi), \a
	xor	\b, T
	add	T, \a
	xor	\d, T
	rol	$\s, \a
	add	\b, \a
.endm

/* Round 4: I(b,c,d) = c ^ (b | ~d), as a - 1 - (c ^ (~b & d)). */
.macro step_i a, b, c, d, k, s, t
	add	$(\t - 1) & 0xffffffff, \a
	add	4*\k(%rsi), \a
	andn	\d, \b, T		/* T = ~b & d */
	xor	\c, T
	sub	T, \a
	rol	$\s, \a
	add	\b, \a
.endm

FH_FUNC(fh_md5_blocks_bmi, 5)
	test	%rdx, %rdx
	jz	L(done)
	shl	$6, %rdx
	add	%rsi, %rdx		/* rdx = end of the data */
	mov	0(%rdi), A
	mov	4(%rdi), B
	mov	8(%rdi), C
	mov	12(%rdi), D
	.p2align 4
L(block):
	/* Steps 1-64 with X[k], s and T[i] from RFC 1321 §3.4; the names
	 * rotate instead of the values. */
	step_f	A, B, C, D,  0,  7, 0xd76aa478
	step_f	D, A, B, C,  1, 12, 0xe8c7b756
	step_f	C, D, A, B,  2, 17, 0x242070db
	step_f	B, C, D, A,  3, 22, 0xc1bdceee
	step_f	A, B, C, D,  4,  7, 0xf57c0faf
	step_f	D, A, B, C,  5, 12, 0x4787c62a
	step_f	C, D, A, B,  6, 17, 0xa8304613
	step_f	B, C, D, A,  7, 22, 0xfd469501
	step_f	A, B, C, D,  8,  7, 0x698098d8
	step_f	D, A, B, C,  9, 12, 0x8b44f7af
	step_f	C, D, A, B, 10, 17, 0xffff5bb1
	step_f	B, C, D, A, 11, 22, 0x895cd7be
	step_f	A, B, C, D, 12,  7, 0x6b901122
	step_f	D, A, B, C, 13, 12, 0xfd987193
	step_f	C, D, A, B, 14, 17, 0xa679438e
	step_f	B, C, D, A, 15, 22, 0x49b40821

	step_g	A, B, C, D,  1,  5, 0xf61e2562
	step_g	D, A, B, C,  6,  9, 0xc040b340
	step_g	C, D, A, B, 11, 14, 0x265e5a51
	step_g	B, C, D, A,  0, 20, 0xe9b6c7aa
	step_g	A, B, C, D,  5,  5, 0xd62f105d
	step_g	D, A, B, C, 10,  9, 0x02441453
	step_g	C, D, A, B, 15, 14, 0xd8a1e681
	step_g	B, C, D, A,  4, 20, 0xe7d3fbc8
	step_g	A, B, C, D,  9,  5, 0x21e1cde6
	step_g	D, A, B, C, 14,  9, 0xc33707d6
	step_g	C, D, A, B,  3, 14, 0xf4d50d87
	step_g	B, C, D, A,  8, 20, 0x455a14ed
	step_g	A, B, C, D, 13,  5, 0xa9e3e905
	step_g	D, A, B, C,  2,  9, 0xfcefa3f8
	step_g	C, D, A, B,  7, 14, 0x676f02d9
	step_g	B, C, D, A, 12, 20, 0x8d2a4c8a

	mov	C, T
	xor	D, T		/* c ^ d for the first H step */
	step_h	A, B, C, D,  5,  4, 0xfffa3942
	step_h	D, A, B, C,  8, 11, 0x8771f681
	step_h	C, D, A, B, 11, 16, 0x6d9d6122
	step_h	B, C, D, A, 14, 23, 0xfde5380c
	step_h	A, B, C, D,  1,  4, 0xa4beea44
	step_h	D, A, B, C,  4, 11, 0x4bdecfa9
	step_h	C, D, A, B,  7, 16, 0xf6bb4b60
	step_h	B, C, D, A, 10, 23, 0xbebfbc70
	step_h	A, B, C, D, 13,  4, 0x289b7ec6
	step_h	D, A, B, C,  0, 11, 0xeaa127fa
	step_h	C, D, A, B,  3, 16, 0xd4ef3085
	step_h	B, C, D, A,  6, 23, 0x04881d05
	step_h	A, B, C, D,  9,  4, 0xd9d4d039
	step_h	D, A, B, C, 12, 11, 0xe6db99e5
	step_h	C, D, A, B, 15, 16, 0x1fa27cf8
	step_h	B, C, D, A,  2, 23, 0xc4ac5665

	step_i	A, B, C, D,  0,  6, 0xf4292244
	step_i	D, A, B, C,  7, 10, 0x432aff97
	step_i	C, D, A, B, 14, 15, 0xab9423a7
	step_i	B, C, D, A,  5, 21, 0xfc93a039
	step_i	A, B, C, D, 12,  6, 0x655b59c3
	step_i	D, A, B, C,  3, 10, 0x8f0ccc92
	step_i	C, D, A, B, 10, 15, 0xffeff47d
	step_i	B, C, D, A,  1, 21, 0x85845dd1
	step_i	A, B, C, D,  8,  6, 0x6fa87e4f
	step_i	D, A, B, C, 15, 10, 0xfe2ce6e0
	step_i	C, D, A, B,  6, 15, 0xa3014314
	step_i	B, C, D, A, 13, 21, 0x4e0811a1
	step_i	A, B, C, D,  4,  6, 0xf7537e82
	step_i	D, A, B, C, 11, 10, 0xbd3af235
	step_i	C, D, A, B,  2, 15, 0x2ad7d2bb
	step_i	B, C, D, A,  9, 21, 0xeb86d391

	add	0(%rdi), A
	add	4(%rdi), B
	add	8(%rdi), C
	add	12(%rdi), D
	mov	A, 0(%rdi)
	mov	B, 4(%rdi)
	mov	C, 8(%rdi)
	mov	D, 12(%rdi)
	add	$64, %rsi
	cmp	%rdx, %rsi
	jne	L(block)
L(done):
	ret
FH_ENDFUNC(fh_md5_blocks_bmi)
