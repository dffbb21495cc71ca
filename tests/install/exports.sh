#!/usr/bin/env bash
# exports.sh: what the shared library exports is the public API and
# nothing more.  The names `nm -D --defined-only LIB` lists must all start
# with fh_ and be exactly the FH_API functions of lib/fhsum.h and the
# global names of lib/fhsum.map: nothing of the engine, the lists or the
# kernels, and no public function left hidden.
#
#   exports.sh LIB HEADER MAP [NM]
# A Mach-O library (macOS) has no dynamic symbol table: there the names
# are those of `nm -g --defined-only LIB` less the leading underscore of
# C names (llvm-nm reads Mach-O; GNU nm does not, which makes a skip).
# With AT_LEAST=1 in the environment, only that every public name is
# exported; more is reported, not failed: Zig 0.11's Mach-O linker, which
# the macOS cross builds use, puts hidden (private extern) symbols and its
# compiler runtime in the export trie, which Apple's ld does not.
# Exit 0 pass, 1 fail, 77 skip (no nm, or one that cannot read LIB).
set -euo pipefail
export LC_ALL=C
lib=$1 header=$2 map=$3 nm=${4:-nm}

command -v "$nm" >/dev/null || { echo "SKIP: $nm not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$nm" -D --defined-only "$lib" >"$tmp/nm" 2>"$tmp/err"; then
	awk '{ print $NF }' "$tmp/nm" | sort >"$tmp/exported"
elif "$nm" -g --defined-only "$lib" >"$tmp/nm" 2>>"$tmp/err"; then
	awk '{ sub(/^_/, "", $NF); print $NF }' "$tmp/nm" | sort >"$tmp/exported"
else
	cat "$tmp/err"
	echo "SKIP: $nm cannot read $lib"
	exit 77
fi
sed -n 's/^FH_API[^(]*[ *]\([A-Za-z0-9_]*\)(.*/\1/p' "$header" | sort >"$tmp/declared"
sed -n 's/^[[:space:]]*\(fh_[A-Za-z0-9_]*\);.*/\1/p' "$map" | sort >"$tmp/mapped"

status=0
if [ "${AT_LEAST:-0}" = 1 ]; then
	missing=$(comm -23 "$tmp/declared" "$tmp/exported")
	[ -z "$missing" ] || { echo "FAIL: public names not exported: $missing"; status=1; }
	[ -s "$tmp/declared" ] || { echo "FAIL: no FH_API declarations in $header"; status=1; }
	echo "every public name exported ($(wc -l <"$tmp/declared")); $(comm -13 "$tmp/declared" "$tmp/exported" | wc -l) more names exported by this linker"
	exit $status
fi
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
