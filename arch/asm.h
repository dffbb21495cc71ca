/* asm.h: the macros that let one GNU-syntax .S file assemble to an ELF
 * object (Linux, FreeBSD) or a Mach-O one (macOS), on AArch64 and x86-64,
 * with GNU as, clang's integrated assembler or zig cc.  Every kernel .S
 * includes it ("../asm.h") before any code; the rest of the file then
 * writes no directive that only one object format knows.
 *
 *   FH_FUNC(name, p2) ... FH_ENDFUNC(name)
 *       a function that C calls by NAME, entry aligned to 2^P2 bytes, global
 *       but hidden: it is never exported from libfhsum (lib/fhsum.map keeps
 *       it local on ELF as well; Mach-O has no version script).
 *   FH_CONST(name, p2) ... FH_ENDCONST(name)
 *       read-only data, local to the file, aligned to 2^P2 bytes.
 *   FH_ADR(reg, sym)  (AArch64) REG = address of SYM, within +-4 GiB.
 *   L(name)           a label that stays out of the symbol table.
 *   FH_SYM(name)      the assembler's name for the C identifier NAME.
 *   FH_SEP            the statement separator, for cpp macros that expand
 *                     to several instructions on one line.
 *
 * AArch64 code may not use x18: Apple and Windows reserve it for the
 * platform, and a kernel that clobbers it breaks there at run time, not at
 * build time.  Below, x18 and w18 are defined to a syntax error, so that
 * writing either fails the build on every platform.  tests/asm/x18.sh
 * checks that it does; .ci/asm-targets.sh also looks for x18 in the
 * disassembly, which catches a register name built by a .macro argument.
 *
 * Alignment is always .p2align (a power of two): .align counts bytes on
 * x86 ELF and powers of two on AArch64 and Mach-O.
 */
#ifndef FH_ASM_H
#define FH_ASM_H

/* Whether C names carry a leading underscore (Mach-O) is a property of
 * the target that Meson asks the compiler about
 * (cc.symbols_have_underscore_prefix()) and passes as 0 or 1; a file
 * assembled by hand without it gets the usual answer for its platform. */
#ifndef FH_ASM_PREFIX_UNDERSCORE
#if defined(__APPLE__)
#define FH_ASM_PREFIX_UNDERSCORE 1
#else
#define FH_ASM_PREFIX_UNDERSCORE 0
#endif
#endif

#if FH_ASM_PREFIX_UNDERSCORE
#define FH_SYM(name) _##name
#else
#define FH_SYM(name) name
#endif

#if !defined(__ELF__) && !defined(__APPLE__)
#error "asm.h knows ELF and Mach-O objects only"
#endif

/* Labels that start with .L (ELF) or L (Mach-O) are the assembler's own:
 * they never reach the object's symbol table, and on Mach-O a reference to
 * one becomes a reference to the symbol before it plus an offset, so even
 * a label at the very end of a section is safe to address. */
#if defined(__APPLE__)
#define L(name) L##name
#else
#define L(name) .L##name
#endif

/* Apple's AArch64 assembler reads ';' as the start of a comment, so an
 * instruction after it would vanish without an error; '%%' separates
 * statements there instead. */
#if defined(__APPLE__) && defined(__aarch64__)
#define FH_SEP %%
#else
#define FH_SEP ;
#endif

/* The .type argument's prefix: '@' opens a comment in AArch64 GNU as. */
#if defined(__aarch64__)
#define FH_TYPE(kind) %kind
#else
#define FH_TYPE(kind) @kind
#endif

#define FH_FUNC(name, p2)	fh_func FH_SYM(name), p2
#define FH_ENDFUNC(name)	fh_endfunc FH_SYM(name)
#define FH_CONST(name, p2)	fh_const name, p2
#define FH_ENDCONST(name)	fh_endconst name

.macro fh_func name, p2
	.text
	.globl	\name
#if defined(__ELF__)
	.hidden	\name
	.type	\name, FH_TYPE(function)
#else
	.private_extern \name
#endif
	.p2align \p2
\name:
.endm

.macro fh_endfunc name
#if defined(__ELF__)
	.size	\name, . - \name
#endif
.endm

.macro fh_const name, p2
#if defined(__ELF__)
	.section .rodata
	.type	\name, FH_TYPE(object)
#else
	.section __TEXT,__const
#endif
	.p2align \p2
\name:
.endm

.macro fh_endconst name
#if defined(__ELF__)
	.size	\name, . - \name
#endif
.endm

#if defined(__aarch64__)
#define FH_ADR(reg, sym)	fh_adr reg, sym

/* ADRP gives SYM's 4 KiB page, the ADD its offset in that page; the two
 * formats spell the relocations differently. */
.macro fh_adr reg, sym
#if defined(__APPLE__)
	adrp	\reg, \sym@PAGE
	add	\reg, \reg, \sym@PAGEOFF
#else
	adrp	\reg, \sym
	add	\reg, \reg, :lo12:\sym
#endif
.endm

/* The parentheses make each use a syntax error where it stands.  A bare
 * name would be read as a symbol in some operands (mov x0, NAME) and be
 * refused only later, for want of a relocation that fits. */
#define x18 FH_X18_IS_RESERVED_ON_APPLE_AND_WINDOWS()
#define w18 FH_W18_IS_RESERVED_ON_APPLE_AND_WINDOWS()
#define X18 FH_X18_IS_RESERVED_ON_APPLE_AND_WINDOWS()
#define W18 FH_W18_IS_RESERVED_ON_APPLE_AND_WINDOWS()
#endif

/* ELF linkers take a missing note for a request for an executable stack;
 * other formats have no such note. */
#if defined(__ELF__)
	.section .note.GNU-stack, "", FH_TYPE(progbits)
	.text
#endif

#endif /* FH_ASM_H */
