#!/usr/bin/env bash
# exports.sh: what the shared library exports is the public API and
# nothing more.  The names `nm -D --defined-only LIB` lists must all start
# with fh_ and be exactly the FH_API functions of lib/fhsum.h and the
# global names of lib/fhsum.map: nothing of the engine, the lists or the
# kernels, and no public function left hidden.
#
#   exports.sh LIB HEADER MAP [NM]
# A Mach-O library (macOS) has no dynamic symbol table: there the names
# are the defined symbols that `nm -m` calls "external" (not private
# external, not weak: Apple's ld exports neither a hidden name nor the
# compiler runtime's), less the leading underscore of C names.  zig's
# linker puts those in the dylib's export trie too; the flags are what a
# Mach-O linker goes by.  llvm-nm and macOS's nm read Mach-O; GNU nm does
# not, which makes a skip.
# Exit 0 pass, 1 fail, 77 skip (no nm, or one that cannot read LIB).
set -euo pipefail
export LC_ALL=C
lib=$1 header=$2 map=$3 nm=${4:-nm}

command -v "$nm" >/dev/null || { echo "SKIP: $nm not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$nm" -D --defined-only "$lib" >"$tmp/nm" 2>"$tmp/err"; then
	awk '{ print $NF }' "$tmp/nm" | sort >"$tmp/exported"
elif "$nm" -m --defined-only "$lib" >"$tmp/nm" 2>>"$tmp/err"; then
	awk '/\) external / { sub(/^_/, "", $NF); print $NF }' "$tmp/nm" |
		sort >"$tmp/exported"
else
	cat "$tmp/err"
	echo "SKIP: $nm cannot read $lib"
	exit 77
fi
sed -n 's/^FH_API[^(]*[ *]\([A-Za-z0-9_]*\)(.*/\1/p' "$header" | sort >"$tmp/declared"
sed -n 's/^[[:space:]]*\(fh_[A-Za-z0-9_]*\);.*/\1/p' "$map" | sort >"$tmp/mapped"

status=0
if grep -v '^fh_' "$tmp/exported"; then
	echo "FAIL: exported names above lack the fh_ prefix"
	status=1
fi
[ -s "$tmp/declared" ] || { echo "FAIL: no FH_API declarations in $header"; status=1; }
if ! diff "$tmp/declared" "$tmp/exported"; then
	echo "FAIL: exported (>) and FH_API in fhsum.h (<) differ"
	status=1
fi
if ! diff "$tmp/declared" "$tmp/mapped"; then
	echo "FAIL: fhsum.map's names (>) and FH_API in fhsum.h (<) differ"
	status=1
fi
echo "$(wc -l <"$tmp/exported") names exported: $(tr '\n' ' ' <"$tmp/exported")"
exit $status
