/* sha_lanes.h: SHA-1, SHA-256 and SHA-512 compression on FH_XN
 * independent messages at once, one per vector element, written once over
 * a kernel file's vector operations (sha_avx2xn.c, sha_avx512xn.c).
 *
 * Element i of every vector belongs to lane i, so each step is FIPS
 * 180-4's scalar step done FH_XN times over, with no shuffles.  The message
 * words of a block are brought into that layout (word t of every lane in
 * one vector) by the file's FH_LOAD_WORDS; the schedule W is kept as a
 * ring of its last 16 vectors on the stack, read as memory operands.
 *
 * Before including it, a file defines FH_XN, the vector type FH_V and:
 *   V_ADD(a, b)             element-wise addition (32- or 64-bit elements,
 *                           for the section included)
 *   V_XOR(a, b), V_XOR3(a, b, c)    a ^ b, a ^ b ^ c
 *   V_CH(x, y, z)           (x & y) ^ (~x & z)
 *   V_MAJ(x, y, z)          (x & y) ^ (x & z) ^ (y & z)
 *   V_ROR(x, n), V_ROL(x, n), V_SHR(x, n)   by a constant
 *   V_SET1(v)               every element v
 *   V_LOADS(p), V_STORES(p, v)   FH_XN elements at P, aligned to 64
 *   FH_LOAD_WORDS(w, data, off)  w[t] for t < 16: big-endian word t of
 *                           each lane's block at data[i] + off
 * and one of FH_SHA1_LANES_FN, FH_SHA256_LANES_FN (32-bit elements) or
 * FH_SHA512_LANES_FN (64-bit elements), the name of the function to
 * define; the header may be included once per section.
 */

#if defined(FH_SHA256_LANES_FN) || defined(FH_SHA1_LANES_FN) || \
	defined(FH_SHA512_LANES_FN)

/* The word type of the section: 32 bits for SHA-1 and SHA-256. */
#ifdef FH_SHA512_LANES_FN
#define FH_LW uint64_t
#else
#define FH_LW uint32_t
#endif

/* The states in and out of vectors: element i of vector j is states[i][j]. */
#define FH_STATE_IN(v, states, nw)                                         \
	do {                                                               \
		_Alignas(64) FH_LW col_[FH_XN];                            \
		for (int j_ = 0; j_ < (nw); j_++) {                        \
			for (int i_ = 0; i_ < FH_XN; i_++)                 \
				col_[i_] = states[i_][j_];                 \
			v[j_] = V_LOADS(col_);                             \
		}                                                          \
	} while (0)
#define FH_STATE_OUT(v, states, nw)                                        \
	do {                                                               \
		_Alignas(64) FH_LW col_[FH_XN];                            \
		for (int j_ = 0; j_ < (nw); j_++) {                        \
			V_STORES(col_, v[j_]);                             \
			for (int i_ = 0; i_ < FH_XN; i_++)                 \
				states[i_][j_] = col_[i_];                 \
		}                                                          \
	} while (0)

#endif

/* ---- SHA-256 (§6.2.2) ---------------------------------------------------- */
#ifdef FH_SHA256_LANES_FN

#define S256_BSIG0(x) V_XOR3(V_ROR(x, 2), V_ROR(x, 13), V_ROR(x, 22))
#define S256_BSIG1(x) V_XOR3(V_ROR(x, 6), V_ROR(x, 11), V_ROR(x, 25))
#define S256_SSIG0(x) V_XOR3(V_ROR(x, 7), V_ROR(x, 18), V_SHR(x, 3))
#define S256_SSIG1(x) V_XOR3(V_ROR(x, 17), V_ROR(x, 19), V_SHR(x, 10))

/* Round T (0..63): the new e is d + T1 (in d), the new a T1 + T2 (in h).
 * From round 16 the word is first made in the ring. */
#define S256_ROUND(a, b, c, d, e, f, g, h, t, sched)                       \
	do {                                                               \
		if (sched)                                                 \
			w[(t) & 15] = V_ADD(                               \
				V_ADD(S256_SSIG1(w[((t) - 2) & 15]),       \
				      w[((t) - 7) & 15]),                  \
				V_ADD(S256_SSIG0(w[((t) - 15) & 15]),      \
				      w[(t) & 15]));                       \
		FH_V t1_ = V_ADD(V_ADD(h, V_SET1(fh_sha256_k[t])),         \
				 w[(t) & 15]);                             \
		t1_ = V_ADD(V_ADD(t1_, V_CH(e, f, g)), S256_BSIG1(e));     \
		d = V_ADD(d, t1_);                                         \
		h = V_ADD(V_ADD(t1_, S256_BSIG0(a)), V_MAJ(a, b, c));      \
	} while (0)

#define S256_ROUNDS8(t, sched)                                                   \
	do {                                                               \
		S256_ROUND(a, b, c, d, e, f, g, h, (t), sched);                   \
		S256_ROUND(h, a, b, c, d, e, f, g, (t) + 1, sched);               \
		S256_ROUND(g, h, a, b, c, d, e, f, (t) + 2, sched);               \
		S256_ROUND(f, g, h, a, b, c, d, e, (t) + 3, sched);               \
		S256_ROUND(e, f, g, h, a, b, c, d, (t) + 4, sched);               \
		S256_ROUND(d, e, f, g, h, a, b, c, (t) + 5, sched);               \
		S256_ROUND(c, d, e, f, g, h, a, b, (t) + 6, sched);               \
		S256_ROUND(b, c, d, e, f, g, h, a, (t) + 7, sched);               \
	} while (0)

static void FH_SHA256_LANES_FN(uint32_t (*states)[8],
			       const uint8_t *const *data, size_t nblocks)
{
	FH_V s[8], w[16];

	FH_STATE_IN(s, states, 8);
	for (size_t off = 0; nblocks; nblocks--, off += 64) {
		FH_V a = s[0], b = s[1], c = s[2], d = s[3];
		FH_V e = s[4], f = s[5], g = s[6], h = s[7];

		FH_LOAD_WORDS(w, data, off);
		for (int t = 0; t < 16; t += 8)
			S256_ROUNDS8(t, 0);
		for (int t = 16; t < 64; t += 8)
			S256_ROUNDS8(t, 1);
		s[0] = V_ADD(s[0], a);
		s[1] = V_ADD(s[1], b);
		s[2] = V_ADD(s[2], c);
		s[3] = V_ADD(s[3], d);
		s[4] = V_ADD(s[4], e);
		s[5] = V_ADD(s[5], f);
		s[6] = V_ADD(s[6], g);
		s[7] = V_ADD(s[7], h);
	}
	FH_STATE_OUT(s, states, 8);
}

#undef S256_BSIG0
#undef S256_BSIG1
#undef S256_SSIG0
#undef S256_SSIG1
#undef S256_ROUND
#undef S256_ROUNDS8
#undef FH_SHA256_LANES_FN
#endif

/* ---- SHA-1 (§6.1.2) ------------------------------------------------------ */
#ifdef FH_SHA1_LANES_FN

/* Round T with f_t = FN and K_t = K: e += ROTL5(a) + f(b, c, d) + K +
 * W[t], b = ROTL30(b); the next round names the variables one place on. */
#define S1_ROUND(a, b, c, d, e, t, fn, k)                                  \
	do {                                                               \
		if ((t) >= 16)                                             \
			w[(t) & 15] = V_ROL(                               \
				V_XOR(V_XOR3(w[((t) - 3) & 15],            \
					     w[((t) - 8) & 15],            \
					     w[((t) - 14) & 15]),          \
				      w[(t) & 15]),                        \
				1);                                        \
		e = V_ADD(V_ADD(e, V_SET1(k)), w[(t) & 15]);               \
		e = V_ADD(V_ADD(e, fn(b, c, d)), V_ROL(a, 5));             \
		b = V_ROL(b, 30);                                          \
	} while (0)

#define S1_PARITY(x, y, z) V_XOR3(x, y, z)

#define S1_ROUNDS5(t, fn, k)                                               \
	do {                                                               \
		S1_ROUND(a, b, c, d, e, (t), fn, k);                       \
		S1_ROUND(e, a, b, c, d, (t) + 1, fn, k);                   \
		S1_ROUND(d, e, a, b, c, (t) + 2, fn, k);                   \
		S1_ROUND(c, d, e, a, b, (t) + 3, fn, k);                   \
		S1_ROUND(b, c, d, e, a, (t) + 4, fn, k);                   \
	} while (0)

static void FH_SHA1_LANES_FN(uint32_t (*states)[5],
			     const uint8_t *const *data, size_t nblocks)
{
	FH_V s[5], w[16];

	FH_STATE_IN(s, states, 5);
	for (size_t off = 0; nblocks; nblocks--, off += 64) {
		FH_V a = s[0], b = s[1], c = s[2], d = s[3], e = s[4];

		FH_LOAD_WORDS(w, data, off);
		for (int t = 0; t < 20; t += 5)
			S1_ROUNDS5(t, V_CH, 0x5a827999u);
		for (int t = 20; t < 40; t += 5)
			S1_ROUNDS5(t, S1_PARITY, 0x6ed9eba1u);
		for (int t = 40; t < 60; t += 5)
			S1_ROUNDS5(t, V_MAJ, 0x8f1bbcdcu);
		for (int t = 60; t < 80; t += 5)
			S1_ROUNDS5(t, S1_PARITY, 0xca62c1d6u);
		s[0] = V_ADD(s[0], a);
		s[1] = V_ADD(s[1], b);
		s[2] = V_ADD(s[2], c);
		s[3] = V_ADD(s[3], d);
		s[4] = V_ADD(s[4], e);
	}
	FH_STATE_OUT(s, states, 5);
}

#undef S1_ROUND
#undef S1_PARITY
#undef S1_ROUNDS5
#undef FH_SHA1_LANES_FN
#endif

/* ---- SHA-512 (§6.4.2) ---------------------------------------------------- */
#ifdef FH_SHA512_LANES_FN

#define S512_BSIG0(x) V_XOR3(V_ROR(x, 28), V_ROR(x, 34), V_ROR(x, 39))
#define S512_BSIG1(x) V_XOR3(V_ROR(x, 14), V_ROR(x, 18), V_ROR(x, 41))
#define S512_SSIG0(x) V_XOR3(V_ROR(x, 1), V_ROR(x, 8), V_SHR(x, 7))
#define S512_SSIG1(x) V_XOR3(V_ROR(x, 19), V_ROR(x, 61), V_SHR(x, 6))

#define S512_ROUND(a, b, c, d, e, f, g, h, t, sched)                       \
	do {                                                               \
		if (sched)                                                 \
			w[(t) & 15] = V_ADD(                               \
				V_ADD(S512_SSIG1(w[((t) - 2) & 15]),       \
				      w[((t) - 7) & 15]),                  \
				V_ADD(S512_SSIG0(w[((t) - 15) & 15]),      \
				      w[(t) & 15]));                       \
		FH_V t1_ = V_ADD(V_ADD(h, V_SET1(fh_sha512_k[t])),         \
				 w[(t) & 15]);                             \
		t1_ = V_ADD(V_ADD(t1_, V_CH(e, f, g)), S512_BSIG1(e));     \
		d = V_ADD(d, t1_);                                         \
		h = V_ADD(V_ADD(t1_, S512_BSIG0(a)), V_MAJ(a, b, c));      \
	} while (0)

#define S512_ROUNDS8(t, sched)                                                   \
	do {                                                               \
		S512_ROUND(a, b, c, d, e, f, g, h, (t), sched);                   \
		S512_ROUND(h, a, b, c, d, e, f, g, (t) + 1, sched);               \
		S512_ROUND(g, h, a, b, c, d, e, f, (t) + 2, sched);               \
		S512_ROUND(f, g, h, a, b, c, d, e, (t) + 3, sched);               \
		S512_ROUND(e, f, g, h, a, b, c, d, (t) + 4, sched);               \
		S512_ROUND(d, e, f, g, h, a, b, c, (t) + 5, sched);               \
		S512_ROUND(c, d, e, f, g, h, a, b, (t) + 6, sched);               \
		S512_ROUND(b, c, d, e, f, g, h, a, (t) + 7, sched);               \
	} while (0)

static void FH_SHA512_LANES_FN(uint64_t (*states)[8],
			       const uint8_t *const *data, size_t nblocks)
{
	FH_V s[8], w[16];

	FH_STATE_IN(s, states, 8);
	for (size_t off = 0; nblocks; nblocks--, off += 128) {
		FH_V a = s[0], b = s[1], c = s[2], d = s[3];
		FH_V e = s[4], f = s[5], g = s[6], h = s[7];

		FH_LOAD_WORDS(w, data, off);
		for (int t = 0; t < 16; t += 8)
			S512_ROUNDS8(t, 0);
		for (int t = 16; t < 80; t += 8)
			S512_ROUNDS8(t, 1);
		s[0] = V_ADD(s[0], a);
		s[1] = V_ADD(s[1], b);
		s[2] = V_ADD(s[2], c);
		s[3] = V_ADD(s[3], d);
		s[4] = V_ADD(s[4], e);
		s[5] = V_ADD(s[5], f);
		s[6] = V_ADD(s[6], g);
		s[7] = V_ADD(s[7], h);
	}
	FH_STATE_OUT(s, states, 8);
}

#undef S512_BSIG0
#undef S512_BSIG1
#undef S512_SSIG0
#undef S512_SSIG1
#undef S512_ROUND
#undef S512_ROUNDS8
#undef FH_SHA512_LANES_FN
#endif

#undef FH_LW
#undef FH_STATE_IN
#undef FH_STATE_OUT
