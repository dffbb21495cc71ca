#!/usr/bin/env bats
# TurboSHAKE and KangarooTwelve (KT128, KT256) generation.  Expected digests
# come from tests/vectors (tests/vectors/rfc9861.py, an implementation of
# RFC 9861 checked against the RFC's vectors), never from fhsum:
# <algo>.len holds LENGTH HEX for the pattern byte[i] = i % 251 (256-bit
# output for the 128s, 512-bit for the 256s), <algo>.xof MSGLEN OUTBITS
# HEX, kt*.tree the same at KT's chunk-count edges.

load helper

ALGOS="turboshake128 turboshake256 kt128 kt256"
# Lengths around the rates (136, 168) and block ends.
LENS="0 1 3 135 136 137 167 168 169 200 1000 1100"

setup() {
	common_setup
	local n
	for n in $LENS; do pattern "$n" >"p$n"; done
}

@test "turboshake128/256, kt128/256: default outputs (256, 512 bits) match the vectors" {
	local a bad=0
	for a in $ALGOS; do gen_ok "$a" plain -a "$a" || bad=1; done
	return $bad
}

@test "--tag prints 'TurboSHAKE128 (NAME) = HEX', TurboSHAKE256, KT128, KT256" {
	local a bad=0
	for a in $ALGOS; do gen_ok "$a" tag -a "$a" --tag || bad=1; done
	return $bad
}

@test "-b marks TurboSHAKE and KT lines with '*'; -z ends them with NUL" {
	gen_ok turboshake256 binary -a turboshake256 -b
	gen_ok kt128 binary -a kt128 --binary
	gen_ok kt256 zero -a kt256 -z
	gen_ok turboshake128 zero -a turboshake128 -z
}

@test "-a names are case-insensitive (KT128, TurboSHAKE256)" {
	gen_ok kt128 plain -a KT128
	gen_ok turboshake256 plain --algorithm=TurboSHAKE256
}

@test "-l gives the .xof vectors of all four (8, 256, 512, 1344, 4096 bits)" {
	gen_xof_lengths $ALGOS
}

@test "kt --tag with -l: 'KT256-1344 (NAME) = HEX', the length in the tag; the default length keeps 'KT256'" {
	pattern 169 >m169
	capture got fhsum -a kt256 -l 1344 --tag m169
	expect "kt256 -l 1344 --tag" 0 "KT256-1344 (m169) = $(xof kt256 169 1344)" || return 1
	capture got fhsum -a kt256 -l 512 --tag m169
	expect "kt256 -l 512 --tag" 0 "KT256 (m169) = $(xof kt256 169 512)"
}

@test "kt -l 1048576 (2^20 bits, the maximum) extends the 4096-bit vector; 7, 2^20+8 are invalid" {
	pattern 200 >m200
	capture got fhsum -a kt128 -l 1048576 m200
	[ "$(cat got.rc)" = 0 ] || fail "exit status $(cat got.rc): $(cat got.err)"
	local line hex l bad=0
	line=$(cat got.out)
	hex=${line%  m200}
	[ ${#hex} = 262144 ] || fail "got ${#hex} hex digits, want 262144"
	[ "${hex:0:1024}" = "$(xof kt128 200 4096)" ] || fail "first 4096 bits differ from the vector"
	for l in 7 1048584; do
		capture got fhsum -a kt256 -l "$l" m200
		if [ "$(cat got.rc)" != 1 ] || [ -s got.out ] || ! grep -q '^PROG: ' got.err; then
			echo "-l $l: rc=$(cat got.rc) stderr=$(cat got.err)" >&2
			bad=1
		fi
	done
	return $bad
}

@test "KT chunk-count edges (0 to 257 chunks, +-1 byte) match the vectors, mapped, read and piped, -j1 and -j2" {
	local algo n bad=0 files=() j
	for n in $(tree_lens kt128); do big_pattern "$n" >"t$n"; files+=("t$n"); done
	for algo in kt128 kt256; do
		: >want.out
		for n in $(tree_lens "$algo"); do
			printf '%s  t%s\n' "$(tree "$algo" "$n")" "$n" >>want.out
		done
		echo 0 >want.rc; : >want.err
		for j in 1 2; do
			capture got fhsum -a "$algo" -j "$j" "${files[@]}"
			compare_runs "fhsum -a $algo -j $j (tree files)" want got || bad=1
		done
		capture got fhsum -a "$algo" --no-mmap "${files[@]}"
		compare_runs "fhsum -a $algo --no-mmap (tree files)" want got || bad=1
		n=$(tree_lens "$algo" | tail -n 1)
		capture got fhsum -a "$algo" <"t$n"
		expect "fhsum -a $algo < t$n" 0 "$(tree "$algo" "$n")  -" || bad=1
	done
	return $bad
}

@test "a KT128 digest of a large file does not depend on threads, kernel or mapping" {
	[ "${FHSUM_QUICK:-0}" = 1 ] && skip "FHSUM_QUICK: no 40 MiB file under emulation"
	local k j ref got1 bad=0
	big_pattern 41943041 >large
	ref=$(fhsum -a kt128 -j 1 --no-mmap large) || return 1
	for j in 1 2 3 8; do
		for k in "" keccak-portable keccak-avx2x4 keccak-neonx2; do
			got1=$(FHSUM_KERNEL=$k fhsum -a kt128 -j "$j" large 2>/dev/null) || continue
			[ "$got1" = "$ref" ] || { echo "-j $j kernel '${k:-default}': $got1, want $ref" >&2; bad=1; }
		done
	done
	got1=$(cat large | fhsum -a kt128)
	[ "$got1" = "${ref%  large}  -" ] || { echo "pipe: $got1" >&2; bad=1; }
	# Standard input mapped from an offset that is not a page's: the
	# windows' leaves start off the mapping's pages.
	ref=$(tail -c +4 large | fhsum -a kt128 -j 1) || return 1
	for j in 1 2 3; do
		got1=$({ head -c 3 >/dev/null; fhsum -a kt128 -j "$j"; } <large)
		[ "$got1" = "$ref" ] || { echo "offset 3, -j $j: $got1, want $ref" >&2; bad=1; }
	done
	return $bad
}
