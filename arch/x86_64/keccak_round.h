/* keccak_round.h: one round of Keccak-f[1600] as a macro over lane
 * operations, for kernels that hold each lane in its own register: a
 * lane is a uint64_t in keccak-bmi2, a vector register in keccak-avx2 and
 * keccak-avx512 (one state) and in keccak-avx512x8 (one lane of 8 states
 * side by side); keccak-avx2x4 keeps its four states in memory and has
 * its own round.  Only macros, no code.
 *
 * The including file defines, for its lane type FH_LANE:
 *   FH_XOR(a, b)            a ^ b
 *   FH_XOR5(a, b, c, d, e)  a ^ b ^ c ^ d ^ e   (theta's column parity)
 *   FH_ROL(x, n)            x rotated left by n, 0 <= n < 64 (n = 0 occurs)
 *   FH_THETA_D(c0, c2)      c0 ^ rol(c2, 1)     (theta's D)
 *   FH_CHI(a, b, c)         a ^ (~b & c)
 *   FH_IOTA(x, i)           x ^ RC[i]
 * and names the 25 lanes of a state with one prefix, laneXY holding
 * A[x,y] = state[x + 5*y] (FIPS 202 §3.1.2).
 *
 * The round reads state A and writes state E (a different prefix); a
 * kernel alternates two sets of variables, and the compiler turns the
 * alternation into register renaming.  Theta's D is applied to each lane
 * just before its rho rotation, and pi is only the choice of which lanes
 * meet in each output plane, so a round is 5 parities, 5 D values and then
 * five independent planes of XOR, rotate, chi.
 */
#ifndef FH_KECCAK_ROUND_H
#define FH_KECCAK_ROUND_H

/* The 25 lane names of state P, in state[] order (x fastest). */
#define FH_KECCAK_LANES(P)                                         \
	P##00, P##10, P##20, P##30, P##40, P##01, P##11, P##21,    \
	P##31, P##41, P##02, P##12, P##22, P##32, P##42, P##03,    \
	P##13, P##23, P##33, P##43, P##04, P##14, P##24, P##34,    \
	P##44

/* One output plane y' of rho, pi and chi: its five lanes B[x', y'] come
 * from A[x' + 3y', x'] (pi, FIPS 202 §3.2.3), each with its theta D and
 * rho offset (§3.2.2 Table 2) given by the caller. */
#define FH_CHI_PLANE(e0, e1, e2, e3, e4, a0, d0, r0, a1, d1, r1, a2, d2, \
		     r2, a3, d3, r3, a4, d4, r4)                          \
	do {                                                              \
		FH_LANE b0_ = FH_ROL(FH_XOR(a0, d0), r0);                 \
		FH_LANE b1_ = FH_ROL(FH_XOR(a1, d1), r1);                 \
		FH_LANE b2_ = FH_ROL(FH_XOR(a2, d2), r2);                 \
		FH_LANE b3_ = FH_ROL(FH_XOR(a3, d3), r3);                 \
		FH_LANE b4_ = FH_ROL(FH_XOR(a4, d4), r4);                 \
		e0 = FH_CHI(b0_, b1_, b2_);                               \
		e1 = FH_CHI(b1_, b2_, b3_);                               \
		e2 = FH_CHI(b2_, b3_, b4_);                               \
		e3 = FH_CHI(b3_, b4_, b0_);                               \
		e4 = FH_CHI(b4_, b0_, b1_);                               \
	} while (0)

/* Output plane y' (0..4) of a round from state A into state E, with the
 * D values d0_..d4_ of FH_KECCAK_THETA in scope. */
#define FH_KECCAK_PLANE_0(A, E)                                           \
	FH_CHI_PLANE(E##00, E##10, E##20, E##30, E##40,                   \
		     A##00, d0_, 0, A##11, d1_, 44,                       \
		     A##22, d2_, 43, A##33, d3_, 21,                      \
		     A##44, d4_, 14)
#define FH_KECCAK_PLANE_1(A, E)                                           \
	FH_CHI_PLANE(E##01, E##11, E##21, E##31, E##41,                   \
		     A##30, d3_, 28, A##41, d4_, 20,                      \
		     A##02, d0_, 3, A##13, d1_, 45,                       \
		     A##24, d2_, 61)
#define FH_KECCAK_PLANE_2(A, E)                                           \
	FH_CHI_PLANE(E##02, E##12, E##22, E##32, E##42,                   \
		     A##10, d1_, 1, A##21, d2_, 6,                        \
		     A##32, d3_, 25, A##43, d4_, 8,                       \
		     A##04, d0_, 18)
#define FH_KECCAK_PLANE_3(A, E)                                           \
	FH_CHI_PLANE(E##03, E##13, E##23, E##33, E##43,                   \
		     A##40, d4_, 27, A##01, d0_, 36,                      \
		     A##12, d1_, 10, A##23, d2_, 15,                      \
		     A##34, d3_, 56)
#define FH_KECCAK_PLANE_4(A, E)                                           \
	FH_CHI_PLANE(E##04, E##14, E##24, E##34, E##44,                   \
		     A##20, d2_, 62, A##31, d3_, 55,                      \
		     A##42, d4_, 39, A##03, d0_, 41,                      \
		     A##14, d1_, 2)

/* Theta's column parities of state A and its D values d0_..d4_. */
#define FH_KECCAK_THETA(A)                                                \
	FH_LANE c0_ = FH_XOR5(A##00, A##01, A##02, A##03, A##04);         \
	FH_LANE c1_ = FH_XOR5(A##10, A##11, A##12, A##13, A##14);         \
	FH_LANE c2_ = FH_XOR5(A##20, A##21, A##22, A##23, A##24);         \
	FH_LANE c3_ = FH_XOR5(A##30, A##31, A##32, A##33, A##34);         \
	FH_LANE c4_ = FH_XOR5(A##40, A##41, A##42, A##43, A##44);         \
	/* D[x] = C[x-1] ^ rot(C[x+1], 1), FIPS 202 §3.2.1 */             \
	FH_LANE d0_ = FH_THETA_D(c4_, c1_);                               \
	FH_LANE d1_ = FH_THETA_D(c0_, c2_);                               \
	FH_LANE d2_ = FH_THETA_D(c1_, c3_);                               \
	FH_LANE d3_ = FH_THETA_D(c2_, c4_);                               \
	FH_LANE d4_ = FH_THETA_D(c3_, c0_)

/* Round I (0..23) from state A into E, its five output planes written in
 * the order P0..P4 (a permutation of 0..4).  Once theta's D values are
 * known the planes are independent, so the order changes no result, only
 * the order in which the compiler emits the instructions; with GCC's
 * post-register-allocation scheduling off, some kernels measure that to
 * matter (their header comments say by how much). */
#define FH_KECCAK_ROUND_ORDERED(A, E, i, P0, P1, P2, P3, P4)              \
	do {                                                              \
		FH_KECCAK_THETA(A);                                       \
		FH_KECCAK_PLANE_##P0(A, E);                               \
		FH_KECCAK_PLANE_##P1(A, E);                               \
		FH_KECCAK_PLANE_##P2(A, E);                               \
		FH_KECCAK_PLANE_##P3(A, E);                               \
		FH_KECCAK_PLANE_##P4(A, E);                               \
		E##00 = FH_IOTA(E##00, i);                                \
	} while (0)

/* Round I (0..23) from state A into E, planes in index order. */
#define FH_KECCAK_ROUND(A, E, i) FH_KECCAK_ROUND_ORDERED(A, E, i, 0, 1, 2, 3, 4)

/* OP(lane, i) for each of the 25 lanes, i being the lane's index x + 5*y
 * in a uint64_t[25] state: for loading and storing the lane variables. */
#define FH_KECCAK_EACH_LANE(OP)                                        \
	OP(a00, 0)  OP(a10, 1)  OP(a20, 2)  OP(a30, 3)  OP(a40, 4)      \
	OP(a01, 5)  OP(a11, 6)  OP(a21, 7)  OP(a31, 8)  OP(a41, 9)      \
	OP(a02, 10) OP(a12, 11) OP(a22, 12) OP(a32, 13) OP(a42, 14)     \
	OP(a03, 15) OP(a13, 16) OP(a23, 17) OP(a33, 18) OP(a43, 19)     \
	OP(a04, 20) OP(a14, 21) OP(a24, 22) OP(a34, 23) OP(a44, 24)

/* IN(lane, i) for the first N lanes of the state (N = rate / 8, at most
 * 21): XORs a block into the rate part.  The cases fall through from the
 * last lane down, so a rate's lanes cost one jump. */
#define FH_KECCAK_EACH_RATE_LANE(N, IN)                                \
	switch (N) {                                                   \
	case 21: IN(a04, 20); /* fall through */                       \
	case 20: IN(a43, 19); /* fall through */                       \
	case 19: IN(a33, 18); /* fall through */                       \
	case 18: IN(a23, 17); /* fall through */                       \
	case 17: IN(a13, 16); /* fall through */                       \
	case 16: IN(a03, 15); /* fall through */                       \
	case 15: IN(a42, 14); /* fall through */                       \
	case 14: IN(a32, 13); /* fall through */                       \
	case 13: IN(a22, 12); /* fall through */                       \
	case 12: IN(a12, 11); /* fall through */                       \
	case 11: IN(a02, 10); /* fall through */                       \
	case 10: IN(a41, 9);  /* fall through */                       \
	case 9:  IN(a31, 8);  /* fall through */                       \
	case 8:  IN(a21, 7);  /* fall through */                       \
	case 7:  IN(a11, 6);  /* fall through */                       \
	case 6:  IN(a01, 5);  /* fall through */                       \
	case 5:  IN(a40, 4);  /* fall through */                       \
	case 4:  IN(a30, 3);  /* fall through */                       \
	case 3:  IN(a20, 2);  /* fall through */                       \
	case 2:  IN(a10, 1);  /* fall through */                       \
	case 1:  IN(a00, 0);  /* fall through */                       \
	default: break;                                                \
	}

#endif
