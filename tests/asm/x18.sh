#!/usr/bin/env bash
# Proves that arch/asm.h fails the build of AArch64 assembly that uses x18
# or w18 (Apple and Windows reserve x18; see asm.h): every case of x18.S
# must fail to assemble with an error that names the guard, and the same
# case with x17 in place of x18 must assemble.
#
#   tests/asm/x18.sh CC [ARG...]
#
# CC is a compiler driver that targets AArch64, with its arguments, e.g.
# aarch64-linux-gnu-gcc or clang --target=arm64-apple-macos11.  Prints an
# ok or FAIL line per case; exit 0 when all passed, 1 when any failed, 77
# (skip) when CC does not target AArch64.
set -euo pipefail
export LC_ALL=C

(($#)) || { echo "usage: x18.sh CC [ARG...]" >&2; exit 2; }
cc=("$@")
src=$(cd "$(dirname "$0")" && pwd)/x18.S

if [ "$(echo __aarch64__ | "${cc[@]}" -E -P -x c - 2>/dev/null | tr -d ' \n')" != 1 ]; then
	echo "x18.sh: ${cc[*]} does not target AArch64"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fh-x18.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

failed=0
cases=$(grep -Ec '^#(el)?if FH_X18_CASE == ' "$src")
((cases > 0)) || { echo "FAIL x18.S has no cases"; exit 1; }
for ((n = 1; n <= cases; n++)); do
	if ! "${cc[@]}" -DFH_X18_CASE=$n -DFH_X18_STANDIN -c "$src" \
		-o "$tmp/standin.o" 2>"$tmp/err"; then
		echo "FAIL case $n: does not assemble even with x17"
		sed 's/^/	/' "$tmp/err"
		failed=1
	elif "${cc[@]}" -DFH_X18_CASE=$n -c "$src" -o "$tmp/x18.o" 2>"$tmp/err"; then
		echo "FAIL case $n: x18 assembled"
		failed=1
	elif ! grep -q 'FH_[XW]18_IS_RESERVED' "$tmp/err"; then
		echo "FAIL case $n: failed, but not on the guard:"
		sed 's/^/	/' "$tmp/err"
		failed=1
	else
		echo "ok   case $n: refused ($(grep -m1 -o 'FH_[XW]18_IS_RESERVED[A-Z_]*' "$tmp/err"))"
	fi
done
exit "$failed"
