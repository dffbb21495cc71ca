/* x18.S: uses of x18 and w18 in AArch64 assembly, one per case, each of
 * which asm.h must turn into an assembly error (run by tests/asm/x18.sh).
 * Assembled with -DFH_X18_CASE=N for case N.  With -DFH_X18_STANDIN the
 * same instructions name x17 and w17 instead and must assemble, so that a
 * case fails because of the guard and not because of a mistake here.
 * The cases cover x18 written and read, as a shifted or extended operand,
 * a base register, in capitals, behind a .req alias and through FH_ADR. */
#include "../../arch/asm.h"

#ifdef FH_X18_STANDIN
#define R64 x17
#define R32 w17
#define R64_UPPER X17
#else
#define R64 x18
#define R32 w18
#define R64_UPPER X18
#endif

FH_FUNC(fh_x18_case, 2)
#if FH_X18_CASE == 1
	mov	R64, x0
#elif FH_X18_CASE == 2
	mov	x0, R64
#elif FH_X18_CASE == 3
	add	x0, x1, R64
#elif FH_X18_CASE == 4
	ldr	x0, [R64, #8]
#elif FH_X18_CASE == 5
	stp	R64, x19, [sp, #-16]!
#elif FH_X18_CASE == 6
	eor	x0, x0, R64, ror #3
#elif FH_X18_CASE == 7
	cmp	R32, #1
#elif FH_X18_CASE == 8
	add	x0, x0, R32, uxtw #3
#elif FH_X18_CASE == 9
	mov	R64_UPPER, x0
#elif FH_X18_CASE == 10
	platform .req R64
	mov	platform, x0
	.unreq	platform
#elif FH_X18_CASE == 11
	FH_ADR(R64, L(table))
#else
#error "x18.S: no such case"
#endif
	ret
FH_ENDFUNC(fh_x18_case)

FH_CONST(table, 3)
L(table):
	.quad	0
FH_ENDCONST(table)
