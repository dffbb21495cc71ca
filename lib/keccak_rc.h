/* keccak_rc.h: the round constants of Keccak-f[1600]'s iota step, held
 * once for every C kernel (keccak_portable.c and the x86-64 kernels; the
 * AArch64 assembly kernels keep theirs beside their code).  Internal to
 * the library. */
#ifndef FH_KECCAK_RC_H
#define FH_KECCAK_RC_H

#include <stdint.h>

/* Round constants RC[ir] of iota, FIPS 202 §3.2.5 (Algorithm 5
 * evaluated).  Static: each kernel's compiler sees the values, so an
 * unrolled round may take its constant as an immediate. */
static const uint64_t fh_keccak_rc[24] = {
	0x0000000000000001, 0x0000000000008082, 0x800000000000808a,
	0x8000000080008000, 0x000000000000808b, 0x0000000080000001,
	0x8000000080008081, 0x8000000000008009, 0x000000000000008a,
	0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
	0x000000008000808b, 0x800000000000008b, 0x8000000000008089,
	0x8000000000008003, 0x8000000000008002, 0x8000000000000080,
	0x000000000000800a, 0x800000008000000a, 0x8000000080008081,
	0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

#endif
