#!/usr/bin/env bash
# Assembles every kernel .S under arch/ for the object formats fhsum does
# not build natively here, with clang and no SDK, and checks what came out
# (arch/asm.h is what makes one source serve them all):
#
#   .ci/asm-targets.sh
#
#   1. each .S assembles for arm64-apple-macos11 and aarch64-unknown-freebsd14
#      (arch/aarch64/) or x86_64-apple-macos11 and x86_64-unknown-freebsd14
#      (arch/x86_64/), Mach-O with FH_ASM_PREFIX_UNDERSCORE=1 as Meson
#      would pass it; also with GNU as (through gcc or aarch64-linux-gnu-gcc)
#      and with zig cc (ZIG, or zig on PATH) where those are installed;
#   2. the symbols: Mach-O objects define exactly the FH_FUNC names of the
#      source, with an underscore, as private externs; ELF objects define
#      them as hidden global functions with a size; nothing else is global
#      and nothing is undefined;
#   3. the Mach-O and ELF objects of one file have the same amount of code,
#      so no instruction was dropped on one side (Apple's AArch64 assembler
#      takes ';' for a comment, which would pass step 1 silently);
#   4. no AArch64 object's code names x18 or w18 (reserved on Apple and
#      Windows), and tests/asm/x18.sh shows that a use of either fails to
#      assemble, with clang for both formats and with GNU as.
# Prints an ok or FAIL line per check; exit status 1 if anything failed.
# Needs clang and LLVM's binary tools (Debian: clang, llvm).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

clang=${CLANG:-clang}
command -v "$clang" >/dev/null || { echo "FAIL $clang not found"; exit 1; }
# LLVM's tools, unversioned or with clang's major version as Debian names them.
major=$("$clang" -dumpversion | cut -d. -f1)
llvm_tool() { # NAME
	local t
	for t in "$1" "$1-$major"; do
		command -v "$t" >/dev/null && { echo "$t"; return; }
	done
	echo "asm-targets: $1 not found (Debian: apt-get install llvm)" >&2
	exit 1
}
nm=$(llvm_tool llvm-nm)
readelf=$(llvm_tool llvm-readelf)
objdump=$(llvm_tool llvm-objdump)
zig=${ZIG:-$(command -v zig || true)}

failed=0
fail() { printf 'FAIL %s\n' "$*"; failed=1; }
ok() { printf 'ok   %s\n' "$*"; }
step() { printf '\n=== %s\n' "$*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fh-asm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ZIG_GLOBAL_CACHE_DIR=$tmp/zig ZIG_LOCAL_CACHE_DIR=$tmp/zig

declare -A macho_target=([aarch64]=arm64-apple-macos11 [x86_64]=x86_64-apple-macos11)
declare -A elf_target=([aarch64]=aarch64-unknown-freebsd14 [x86_64]=x86_64-unknown-freebsd14)
declare -A gnu_cc=([aarch64]=aarch64-linux-gnu-gcc [x86_64]=gcc)
declare -A zig_targets=([aarch64]="aarch64-macos.13.0 aarch64-linux-gnu"
	[x86_64]="x86_64-macos.13.0 x86_64-linux-gnu")

mapfile -t sources < <(find arch -name '*.S' | sort)
((${#sources[@]})) || { echo "FAIL no .S files under arch/"; exit 1; }

# The size of an object's code section, whatever its format, in bytes.
text_size() { # OBJECT
	local hex
	hex=$("$objdump" -h "$1" | awk '$2 == ".text" || $2 == "__text" { print $3 }')
	[ -n "$hex" ] && echo $((16#$hex))
}

# assemble LABEL OBJECT COMMAND...: runs COMMAND, an ok or FAIL line.
assemble() {
	local label=$1 obj=$2
	shift 2
	if "$@" -o "$obj" 2>"$tmp/err"; then
		ok "$label"
		return 0
	fi
	fail "$label"
	sed 's/^/	/' "$tmp/err"
	return 1
}

for src in "${sources[@]}"; do
	arch=$(basename "$(dirname "$src")")
	name=$(basename "$src" .S)
	if [ -z "${macho_target[$arch]-}" ]; then
		fail "$src: no targets known for $arch"
		continue
	fi
	step "$src"
	# The functions the source defines, in the order written.
	mapfile -t funcs < <(sed -n 's/^FH_FUNC(\([A-Za-z0-9_]*\),.*/\1/p' "$src")
	want=$(printf '%s\n' "${funcs[@]}" | sort | tr '\n' ' ')

	macho=$tmp/$name.macho.o
	elf=$tmp/$name.elf.o
	mt=${macho_target[$arch]}
	et=${elf_target[$arch]}
	have_macho=0 have_elf=0 objs=()
	assemble "$mt: assembles" "$macho" "$clang" --target="$mt" \
		-DFH_ASM_PREFIX_UNDERSCORE=1 -c "$src" && have_macho=1 objs+=("$macho")
	assemble "$et: assembles" "$elf" "$clang" --target="$et" \
		-DFH_ASM_PREFIX_UNDERSCORE=0 -c "$src" && have_elf=1 objs+=("$elf")

	if ((have_macho)); then
		# llvm-nm -m: ADDRESS (SEGMENT,SECTION) [private ]external|non-external NAME
		got=$("$nm" -m "$macho" | awk '$3 == "private" && $4 == "external" { print $5 }' |
			sort | tr '\n' ' ')
		want_macho=$(printf '_%s\n' "${funcs[@]}" | sort | tr '\n' ' ')
		if [ "$got" = "$want_macho" ]; then
			ok "$mt: private externs $got"
		else
			fail "$mt: private externs '$got', expected '$want_macho'"
		fi
		exported=$("$nm" -m "$macho" | awk '$3 == "external" { print $4 }' | tr '\n' ' ')
		[ -z "$exported" ] && ok "$mt: nothing exported" ||
			fail "$mt: exported symbols: $exported"
	fi
	if ((have_elf)); then
		# llvm-readelf -s: Num: Value Size Type Bind Vis Ndx Name
		syms=$("$readelf" -s --wide "$elf")
		got=$(awk '$5 == "GLOBAL" && $4 == "FUNC" && $6 == "HIDDEN" && $3 > 0 { print $8 }' \
			<<<"$syms" | sort | tr '\n' ' ')
		if [ "$got" = "$want" ]; then
			ok "$et: hidden sized functions $got"
		else
			fail "$et: hidden sized functions '$got', expected '$want'"
		fi
		other=$(awk '($5 == "GLOBAL" || $5 == "WEAK") && !($4 == "FUNC" && $6 == "HIDDEN" && $3 > 0) { print $8 }' \
			<<<"$syms" | tr '\n' ' ')
		[ -z "$other" ] && ok "$et: no other global symbol" ||
			fail "$et: other global symbols: $other"
		# Captured first: grep -q would stop reading at its match, and the
		# writer's SIGPIPE would fail the pipeline.
		sections=$("$readelf" -S --wide "$elf")
		if grep -q '\.note\.GNU-stack' <<<"$sections"; then
			ok "$et: has .note.GNU-stack"
		else
			fail "$et: no .note.GNU-stack (the linker would make the stack executable)"
		fi
	fi
	for obj in "${objs[@]}"; do
		undef=$("$nm" -u "$obj" | tr '\n' ' ')
		[ -z "$undef" ] || fail "$(basename "$obj"): undefined symbols: $undef"
	done

	if ((have_macho && have_elf)); then
		ms=$(text_size "$macho")
		es=$(text_size "$elf")
		if [ -n "$ms" ] && [ "$ms" = "$es" ]; then
			ok "same code size in Mach-O and ELF: $ms bytes"
		else
			fail "code size differs: Mach-O '$ms', ELF '$es' bytes"
		fi
	fi

	if [ "$arch" = aarch64 ]; then
		for obj in "${objs[@]}"; do
			uses=$("$objdump" -d --no-show-raw-insn "$obj" | grep -Ew '[xw]18' || true)
			if [ -z "$uses" ]; then
				ok "$(basename "$obj"): no x18 in the code"
			else
				fail "$(basename "$obj") uses x18:"
				sed 's/^/	/' <<<"$uses"
			fi
		done
	fi

	gcc_cmd=${gnu_cc[$arch]}
	if command -v "$gcc_cmd" >/dev/null; then
		assemble "GNU as ($gcc_cmd): assembles" "$tmp/$name.gnu.o" \
			"$gcc_cmd" -c "$src" || true
	else
		echo "skip GNU as: $gcc_cmd not installed"
	fi
	if [ -n "$zig" ]; then
		for zt in ${zig_targets[$arch]}; do
			assemble "zig cc -target $zt: assembles" "$tmp/$name.zig.o" \
				"$zig" cc -target "$zt" -c "$src" || true
		done
	fi
done
[ -n "$zig" ] || echo "skip zig cc: set ZIG or put zig on PATH"

step "x18 refused (tests/asm/x18.sh)"
x18_with() { # CC [ARG...]
	if bash tests/asm/x18.sh "$@" >"$tmp/x18.log" 2>&1; then
		ok "$*: every use of x18 refused ($(grep -c '^ok' "$tmp/x18.log") cases)"
	else
		fail "$*: tests/asm/x18.sh"
		sed 's/^/	/' "$tmp/x18.log"
	fi
}
x18_with "$clang" --target="${macho_target[aarch64]}"
x18_with "$clang" --target="${elf_target[aarch64]}"
if command -v "${gnu_cc[aarch64]}" >/dev/null; then
	x18_with "${gnu_cc[aarch64]}"
else
	echo "skip x18 with GNU as: ${gnu_cc[aarch64]} not installed"
fi

step "assembly targets: $([ "$failed" = 0 ] && echo 'all passed' || echo FAILED)"
exit "$failed"
