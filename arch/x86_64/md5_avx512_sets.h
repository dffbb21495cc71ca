/* md5_avx512_sets.h: the body of the AVX-512VL multi-buffer MD5 kernels,
 * md5-avx512x16 (md5_avx512x16.c) and md5-avx512x32 (md5_avx512x32.c):
 * FH_SETS interleaved sets of eight lanes, one lane per 32-bit element of
 * a YMM register, set n being lanes 8n .. 8n + 7.  Only static inline
 * functions and macros; the including file defines FH_SETS (2 or 4),
 * includes avx512_ops.h and md5_steps.h first, and builds with -mavx512f
 * -mavx512vl.  Its fh_md5_sets_blocks() is a whole fh_md5_blocks_xn_fn
 * for 8 * FH_SETS lanes.
 *
 * Why sets of eight in YMM rather than sixteen in ZMM.  A step is
 *     a = b + ((a + X[k] + T[i] + FN(b, c, d)) <<< s)
 * and b reaches the new b through VPTERNLOGD, VPADDD, VPROLD and VPADDD,
 * which take 1, 1, 2 and 1 cycles on Zen 4: 5 cycles a step, whatever the
 * width.  A set of lanes can therefore do no better than 64 * 5 cycles a
 * block, so more independent sets in flight mean more lanes per cycle,
 * up to what the pipes issue.  Zen 4 issues four YMM operations a cycle
 * but only two ZMM ones (it splits each into two 256-bit halves), so YMM
 * gives twice the sets for the same work: measured on step code alone,
 * four YMM sets (32 lanes) ran 0.245 cycles/byte where two ZMM sets ran
 * 0.29, and one ZMM set (16 lanes) 0.36-0.39.  With 16 registers of state
 * and the message read as memory operands, four sets still fit the 32
 * vector registers.
 *
 * The message is transposed a block ahead.  Each step reads its word
 * X[k] of its set from a transposed copy on the stack; the copy of the
 * next block is built in FH_SETS pieces (one set each) spread through the
 * current block's steps, so the loads and shuffles of the transpose run
 * beside the chains instead of stalling them at every block's start, and
 * the loads have a whole block to arrive.  Each piece reads its eight
 * lanes' 64-byte blocks 16 bytes at a time, the four reads of one block
 * close together: the lanes' buffers often lie at the same offset in
 * their pages (fhsum --benchmark's 16 KiB buffers; page-aligned mappings),
 * so all 8 * FH_SETS blocks fall in one set of the 8-way L1 cache and
 * evict each other; reading each block again a quarter of a block later
 * (as a word-major order would) ran about a third slower here.  The last
 * block transposes itself a second time rather than read past the input.
 */
#ifndef FH_MD5_AVX512_SETS_H
#define FH_MD5_AVX512_SETS_H

#include <stddef.h>
#include <stdint.h>

#if FH_SETS == 2
#define FH_EACH_SET(m, ...) m(0, __VA_ARGS__) m(1, __VA_ARGS__)
#elif FH_SETS == 4
#define FH_EACH_SET(m, ...)                                                \
	m(0, __VA_ARGS__) m(1, __VA_ARGS__) m(2, __VA_ARGS__) m(3, __VA_ARGS__)
#else
#error "FH_SETS must be 2 or 4"
#endif

/* T[i] is tab[i - 1], tab being this table seen through an empty asm on
 * every block: then the compiler neither builds each constant in a
 * register from an immediate nor hoists 64 broadcast vectors out of the
 * loop into stack slots; one VPBROADCASTD load a step serves all sets. */
static const uint32_t fh_md5_sets_t[64] = { FH_MD5_T };

/* Transposes the 4x4 matrices of 32-bit words in each 128-bit half: word j
 * of R[i] becomes word i of R[j].  Its own inverse. */
static inline void fh_md5_sets_transpose4(fh_ymm r[4])
{
	fh_ymm t0 = FH_Y_UNPACKLO32(r[0], r[1]);
	fh_ymm t1 = FH_Y_UNPACKHI32(r[0], r[1]);
	fh_ymm t2 = FH_Y_UNPACKLO32(r[2], r[3]);
	fh_ymm t3 = FH_Y_UNPACKHI32(r[2], r[3]);

	r[0] = FH_Y_UNPACKLO64(t0, t2);
	r[1] = FH_Y_UNPACKHI64(t0, t2);
	r[2] = FH_Y_UNPACKLO64(t1, t3);
	r[3] = FH_Y_UNPACKHI64(t1, t3);
}

/* Words 0..3 of the 16 bytes at P[i] + OFF of eight lanes P[0..7]: element
 * i of OUT[j] is lane i's word j.  Lanes i and i + 4 share a row, so the
 * only shuffles are inside 128-bit halves. */
static inline void fh_md5_sets_load4(fh_ymm out[4], const uint8_t *const *p,
				     size_t off)
{
	for (int i = 0; i < 4; i++)
		out[i] = FH_Y_LOAD2X128(p[i] + off, p[i + 4] + off);
	fh_md5_sets_transpose4(out);
}

/* The transposed message of a block: [k][n] is word k of set n's lanes. */
typedef fh_ymm fh_md5_sets_msg[16][FH_SETS];

/* Set N's share of transposing the block at offset OFF of DATA into X. */
static inline void fh_md5_sets_msg_set(fh_md5_sets_msg x,
				       const uint8_t *const *data, size_t off,
				       int n)
{
	for (int j = 0; j < 4; j++) {
		fh_ymm r[4];

		fh_md5_sets_load4(r, data + 8 * n, off + 16 * (size_t)j);
		for (int m = 0; m < 4; m++)
			FH_Y_STORE(&x[4 * j + m][n], r[m]);
	}
}

/* One set's step, RFC 1321 §3.4.  a + X[k] + T[i] comes first, as it does
 * not wait for b; compilers reassociate integer adds and might otherwise
 * add it after the round function, a cycle more on the chain, which
 * FH_Y_KEEP prevents (without it, 9-16% slower here).  VPTERNLOGD
 * overwrites its first input and all three live on, so the inputs go in
 * as (d, c, b): the copy the compiler makes is then of d, ready early, not
 * of b.  The truth tables are F, G, H and I for that order (bit
 * 4d + 2c + b). */
#define FH_SETS_STEP1(n, fn, a, b, c, d, k, s)                             \
	a##n = FH_Y_ADD32(a##n, FH_Y_ADD32(FH_Y_LOAD(&cur[k][n]), t_));    \
	FH_Y_KEEP(a##n);                                                   \
	a##n = FH_Y_ADD32(a##n, FH_Y_TERNLOG32(d##n, c##n, b##n, fn));     \
	a##n = FH_Y_ADD32(FH_Y_ROL32(a##n, s), b##n);

/* Step I of every set; on steps 1, 1 + 64 / FH_SETS, ... one set's share
 * of the next block's transpose. */
#define FH_SETS_STEP(fn, a, b, c, d, k, s, i)                              \
	do {                                                               \
		fh_ymm t_ = FH_Y_SET1_32(tab[(i) - 1]);                    \
		FH_EACH_SET(FH_SETS_STEP1, fn, a, b, c, d, k, s)           \
		if ((i) % (64 / FH_SETS) == 1)                             \
			fh_md5_sets_msg_set(nxt, data, noff,               \
					    (i) / (64 / FH_SETS));         \
	} while (0)

#define FH_TL_F_DCB 0xd8 /* (b & c) | (~b & d) */
#define FH_TL_G_DCB 0xac /* (b & d) | (c & ~d) */
#define FH_TL_H_DCB 0x96 /* b ^ c ^ d */
#define FH_TL_I_DCB 0x63 /* c ^ (b | ~d) */

#define FH_MD5_F(a, b, c, d, k, s, i)                                      \
	FH_SETS_STEP(FH_TL_F_DCB, a, b, c, d, k, s, i)
#define FH_MD5_G(a, b, c, d, k, s, i)                                      \
	FH_SETS_STEP(FH_TL_G_DCB, a, b, c, d, k, s, i)
#define FH_MD5_H(a, b, c, d, k, s, i)                                      \
	FH_SETS_STEP(FH_TL_H_DCB, a, b, c, d, k, s, i)
#define FH_MD5_I(a, b, c, d, k, s, i)                                      \
	FH_SETS_STEP(FH_TL_I_DCB, a, b, c, d, k, s, i)

#define FH_SETS_DECL(n, _)                                                 \
	fh_ymm a##n = sv[n][0], b##n = sv[n][1], c##n = sv[n][2],          \
	       d##n = sv[n][3];
#define FH_SETS_SAVE(n, _)                                                 \
	sv[n][0] = a##n;                                                   \
	sv[n][1] = b##n;                                                   \
	sv[n][2] = c##n;                                                   \
	sv[n][3] = d##n;
#define FH_SETS_FEED(n, _)                                                 \
	a##n = FH_Y_ADD32(a##n, sv[n][0]);                                 \
	b##n = FH_Y_ADD32(b##n, sv[n][1]);                                 \
	c##n = FH_Y_ADD32(c##n, sv[n][2]);                                 \
	d##n = FH_Y_ADD32(d##n, sv[n][3]);

static inline void fh_md5_sets_blocks(uint32_t (*states)[4],
				      const uint8_t *const *data,
				      size_t nblocks)
{
	_Alignas(32) fh_md5_sets_msg xbuf[2];
	uint8_t *st[8 * FH_SETS];
	fh_ymm sv[FH_SETS][4];

	if (!nblocks)
		return;
	/* The chaining values: the states are 16 bytes a lane, so they
	 * load and store as a message's words 0..3 do. */
	for (int i = 0; i < 8 * FH_SETS; i++)
		st[i] = (uint8_t *)states[i];
	for (int n = 0; n < FH_SETS; n++)
		fh_md5_sets_load4(sv[n], (const uint8_t *const *)st + 8 * n, 0);
	FH_EACH_SET(FH_SETS_DECL, _)

	for (int n = 0; n < FH_SETS; n++)
		fh_md5_sets_msg_set(xbuf[0], data, 0, n);
	for (size_t off = 0, w = 0; nblocks; nblocks--, off += 64, w ^= 1) {
		fh_ymm(*cur)[FH_SETS] = xbuf[w];
		fh_ymm(*nxt)[FH_SETS] = xbuf[w ^ 1];
		size_t noff = nblocks > 1 ? off + 64 : off;
		const uint32_t *tab = fh_md5_sets_t;

		__asm__("" : "+r"(tab));
		FH_EACH_SET(FH_SETS_SAVE, _)
		FH_MD5_STEPS(a, b, c, d);
		FH_EACH_SET(FH_SETS_FEED, _)
	}
	FH_EACH_SET(FH_SETS_SAVE, _)
	for (int n = 0; n < FH_SETS; n++) {
		fh_md5_sets_transpose4(sv[n]);
		for (int i = 0; i < 4; i++)
			FH_Y_STORE2X128(sv[n][i], st[8 * n + i],
					st[8 * n + i + 4]);
	}
}

#endif
