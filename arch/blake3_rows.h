/* blake3_rows.h: what the kernels of four 32-bit lanes (SSE4.1, NEON)
 * add to blake3_lanes.h, which they include first: whole chunks and
 * parents any number at a time, four in the lanes at once and those left
 * over in some of them, and the compression function of one block (the
 * BLAKE3 paper, §2.2) with the state's four rows in four registers, for
 * the blocks compressed one at a time.  The including file defines,
 * besides blake3_lanes.h's macros:
 *   B3_ROW4(a, b, c, d)   the vector of the four words a, b, c, d
 *   B3_TURN(x, k)         word i of x becomes word (i + k) mod 4, k 1..3
 *   B3_EXPORT(name)       the name of this set's function NAME here,
 *                         fh_blake3_NAME_SET, declared as the
 *                         fh_blake3_NAME_fn it is by the set's header. */

/* G on the four columns (or diagonals) at once, message words X and Y. */
#define B3_G4(x, y)                                                          \
	do {                                                                 \
		r0 = B3_ADD(B3_ADD(r0, r1), x);                              \
		r3 = B3_ROR16(B3_XOR(r3, r0));                               \
		r2 = B3_ADD(r2, r3);                                         \
		r1 = B3_ROR12(B3_XOR(r1, r2));                               \
		r0 = B3_ADD(B3_ADD(r0, r1), y);                              \
		r3 = B3_ROR8(B3_XOR(r3, r0));                                \
		r2 = B3_ADD(r2, r3);                                         \
		r1 = B3_ROR7(B3_XOR(r1, r2));                                \
	} while (0)

#define B3_MSG4(s, a, b, c, d) B3_ROW4(w[s[a]], w[s[b]], w[s[c]], w[s[d]])

/* One round: the columns, then the diagonals as the columns of rows 1..3
 * turned by 1, 2 and 3 words. */
#define B3_ROUND4(r)                                                         \
	do {                                                                 \
		const uint8_t *s = b3_sched[r];                              \
		B3_G4(B3_MSG4(s, 0, 2, 4, 6), B3_MSG4(s, 1, 3, 5, 7));       \
		r1 = B3_TURN(r1, 1);                                         \
		r2 = B3_TURN(r2, 2);                                         \
		r3 = B3_TURN(r3, 3);                                         \
		B3_G4(B3_MSG4(s, 8, 10, 12, 14), B3_MSG4(s, 9, 11, 13, 15)); \
		r1 = B3_TURN(r1, 3);                                         \
		r2 = B3_TURN(r2, 2);                                         \
		r3 = B3_TURN(r3, 1);                                         \
	} while (0)

/* fh_blake3_compress_fn. */
void B3_EXPORT(compress)(const uint32_t cv[8], const uint8_t *block,
			 uint32_t block_len, uint64_t counter, uint32_t flags,
			 uint32_t out[16])
{
	uint32_t w[16];

	memcpy(w, block, 64);
	B3V c0 = B3_LOADU(cv), c1 = B3_LOADU(cv + 4);
	B3V r0 = c0, r1 = c1, r2 = B3_LOADU(b3_iv);
	B3V r3 = B3_ROW4((uint32_t)counter, (uint32_t)(counter >> 32),
			 block_len, flags);

	B3_ROUND4(0);
	B3_ROUND4(1);
	B3_ROUND4(2);
	B3_ROUND4(3);
	B3_ROUND4(4);
	B3_ROUND4(5);
	B3_ROUND4(6);
	B3_STOREU(out, B3_XOR(r0, r2));
	B3_STOREU(out + 4, B3_XOR(r1, r3));
	B3_STOREU(out + 8, B3_XOR(r2, c0));
	B3_STOREU(out + 12, B3_XOR(r3, c1));
}

/* fh_blake3_chunks_fn. */
void B3_EXPORT(chunks)(const uint32_t key[8], const uint8_t *data, size_t n,
		       uint64_t counter, uint32_t flags, uint32_t (*cvs)[8])
{
	for (; n >= B3N; n -= B3N, data += B3N * 1024, counter += B3N,
	     cvs += B3N)
		B3_FN(chunks_n)(key, data, counter, flags, cvs);
	if (n) {
		const uint8_t *p[B3N] = { NULL };

		for (size_t i = 0; i < n; i++)
			p[i] = data + i * 1024;
		B3_FN(hash_some)(p, n, 16, key, counter, 1, flags,
				 B3_CHUNK_START, B3_CHUNK_END, cvs);
	}
}

/* fh_blake3_parents_fn. */
void B3_EXPORT(parents)(const uint32_t key[8], const uint32_t (*children)[8],
			size_t n, uint32_t flags, uint32_t (*cvs)[8])
{
	for (; n >= B3N; n -= B3N, children += 2 * B3N, cvs += B3N)
		B3_FN(parents_n)(key, children, flags, cvs);
	if (n) {
		const uint8_t *p[B3N] = { NULL };

		for (size_t i = 0; i < n; i++)
			p[i] = (const uint8_t *)children[2 * i];
		B3_FN(hash_some)(p, n, 1, key, 0, 0, flags | B3_PARENT, 0, 0,
				 cvs);
	}
}
