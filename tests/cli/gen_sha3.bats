#!/usr/bin/env bats
# SHA-3 and SHAKE generation.  Expected digests come from tests/vectors
# (Python hashlib), never from fhsum: <algo>.len holds LENGTH HEX for the
# pattern byte[i] = i % 251 (SHAKE128: 256-bit output, SHAKE256: 512-bit),
# <shake>.xof holds MSGLEN OUTBITS HEX.

load helper

# Lengths around every Keccak rate (72 104 136 144 168) and block ends.
LENS="0 1 3 71 72 73 103 104 105 135 136 137 143 144 145 167 168 169 200 1000 1100"

make_pattern_files() {
	local n
	for n in $LENS; do pattern "$n" >"p$n"; done
}

setup() {
	common_setup
	make_pattern_files
}

@test "sha3-224: 'HEX  NAME' lines match the vectors across block boundaries" {
	gen_ok sha3-224 plain -a sha3-224
}

@test "sha3-256: 'HEX  NAME' lines match the vectors across block boundaries" {
	gen_ok sha3-256 plain -a sha3-256
}

@test "sha3-384: 'HEX  NAME' lines match the vectors across block boundaries" {
	gen_ok sha3-384 plain -a sha3-384
}

@test "sha3-512: 'HEX  NAME' lines match the vectors across block boundaries" {
	gen_ok sha3-512 plain -a sha3-512
}

@test "shake128: default output is 256 bits and matches the vectors" {
	gen_ok shake128 plain -a shake128
}

@test "shake256: default output is 512 bits and matches the vectors" {
	gen_ok shake256 plain -a shake256
}

@test "the default algorithm (no -a) is sha3-256" {
	gen_ok sha3-256 plain
}

@test "-a names are case-insensitive (SHA3-384, Shake128)" {
	gen_ok sha3-384 plain -a SHA3-384
	gen_ok shake128 plain --algorithm=Shake128
}

@test "links named sha3-224sum .. sha3-512sum pick their algorithm" {
	local b bad=0 files
	mapfile -t files < <(pfiles)
	for b in 224 256 384 512; do
		want_lines "sha3-$b" plain
		capture got fhsum_as "sha3-${b}sum" "${files[@]}"
		compare_runs "sha3-${b}sum" want got || bad=1
	done
	return $bad
}

@test "--tag prints 'SHA3-N (NAME) = HEX' for every SHA-3 variant" {
	local a bad=0
	for a in sha3-224 sha3-256 sha3-384 sha3-512; do gen_ok "$a" tag -a "$a" --tag || bad=1; done
	return $bad
}

@test "--tag prints 'SHAKE128 (NAME) = HEX' and 'SHAKE256 (NAME) = HEX'" {
	gen_ok shake128 tag -a shake128 --tag
	gen_ok shake256 tag -a shake256 --tag
}

@test "-b marks lines with '*' for SHA-3 and SHAKE" {
	gen_ok sha3-512 binary -a sha3-512 -b
	gen_ok shake256 binary -a shake256 --binary
}

@test "-z ends SHA-3 lines with NUL" {
	gen_ok sha3-224 zero -a sha3-224 -z
}

@test "standard input is hashed and printed as '-'" {
	capture got fhsum -a sha3-384 <p200
	expect "fhsum -a sha3-384 < p200" 0 "$(vec sha3-384 200)  -"
	capture got fhsum -a shake128 - <p1000
	expect "fhsum -a shake128 - < p1000" 0 "$(vec shake128 1000)  -"
}

@test "SHA-3 lines escape names with backslash, newline, CR; --tag too" {
	cp p3 'back\slash'
	cp p73 "$(printf 'new\nline')"
	cp p136 "$(printf 'cr\rx')"
	capture got fhsum -a sha3-256 'back\slash' "$(printf 'new\nline')" "$(printf 'cr\rx')"
	expect "escaped names" 0 "\\$(vec sha3-256 3)  back\\\\slash
\\$(vec sha3-256 73)  new\\nline
\\$(vec sha3-256 136)  cr\\rx"
	capture got fhsum -a sha3-512 --tag "$(printf 'new\nline')" p0
	expect "escaped --tag" 0 "\\SHA3-512 (new\\nline) = $(vec sha3-512 73)
SHA3-512 (p0) = $(vec sha3-512 0)"
}

@test "-a sha3 -l N selects SHA3-N (224, 256, 384, 512; also --length=N)" {
	local b bad=0
	for b in 224 256 384 512; do gen_ok "sha3-$b" plain -a sha3 -l "$b" || bad=1; done
	gen_ok sha3-384 tag -a sha3 --length=384 --tag || bad=1
	return $bad
}

@test "-a sha3: the last -l wins" {
	gen_ok sha3-512 plain -a sha3 -l 224 -l 512
	gen_ok sha3-224 plain -l 384 -a sha3 -l 224
}

@test "-a sha3 without -l is an error naming the accepted lengths" {
	capture got fhsum -a sha3 p3
	[ "$(cat got.rc)" = 1 ] || fail "exit status $(cat got.rc), want 1"
	[ ! -s got.out ] || fail "stdout not empty: $(cat got.out)"
	[ "$(head -n 1 got.err)" = "PROG: --algorithm=sha3 requires specifying --length 224, 256, 384, or 512" ] ||
		fail "stderr: $(cat got.err)"
}

@test "-a sha3 with a length other than 224/256/384/512: invalid length + digest length message" {
	local l bad=0
	for l in 0 8 100 255 1024; do
		capture got fhsum -a sha3 -l "$l" p3
		expect "fhsum -a sha3 -l $l" 1 "" "PROG: invalid length: '$l'
PROG: digest length for 'SHA3' must be 224, 256, 384, or 512" || bad=1
	done
	return $bad
}

@test "-a sha3 with a non-numeric length is an invalid length" {
	capture got fhsum -a sha3 -l abc p3
	[ "$(cat got.rc)" = 1 ] && [ ! -s got.out ] &&
		[ "$(head -n 1 got.err)" = "PROG: invalid length: 'abc'" ] ||
		fail "rc=$(cat got.rc) stdout=$(cat got.out) stderr=$(cat got.err)"
}

@test "-l past 2^64 is out of range like -l 100: invalid length + the digest length message (cksum 9.8), generating and checking" {
	local l bad=0
	for l in 18446744073709551616 99999999999999999999 340282366920938463463374607431768211456; do
		capture got fhsum -a sha3 -l "$l" p3
		expect "fhsum -a sha3 -l $l" 1 "" "PROG: invalid length: '$l'
PROG: digest length for 'SHA3' must be 224, 256, 384, or 512" || bad=1
		capture got fhsum -c -a sha3 -l "$l" p3
		expect "fhsum -c -a sha3 -l $l" 1 "" "PROG: invalid length: '$l'
PROG: digest length for 'SHA3' must be 224, 256, 384, or 512" || bad=1
		capture got fhsum -a sha3-384 -l "$l" p3
		expect "fhsum -a sha3-384 -l $l" 1 "" "PROG: invalid length: '$l'
PROG: digest length for 'SHA3-384' must be 384" || bad=1
		capture got fhsum -a shake128 -l "$l" p3
		expect "fhsum -a shake128 -l $l" 1 "" "PROG: invalid length: '$l'
PROG: digest length for 'SHAKE128' must be a multiple of 8 from 8 to 1048576" || bad=1
		capture got fhsum -a md5 -l "$l" p3
		expect "fhsum -a md5 -l $l" 1 "" "PROG: --length is not supported with --algorithm=md5
Try 'PROG --help' for more information." || bad=1
	done
	return $bad
}

@test "-l that is no plain decimal number (abc, -1, ' -1', empty, 0x10, 1e3) is only an invalid length, whatever the algorithm" {
	local l a bad=0
	for a in sha3 sha3-256 shake256 md5; do
		for l in abc -1 ' -1' '' 0x10 1e3 8x; do
			capture got fhsum -a "$a" -l "$l" p3
			expect "fhsum -a $a -l '$l'" 1 "" "PROG: invalid length: '$l'" || bad=1
		done
	done
	return $bad
}

@test "-l equal to a fixed SHA3 variant's size is accepted; another size is an error" {
	gen_ok sha3-256 plain -a sha3-256 -l 256
	capture got fhsum -a sha3-256 -l 512 p3
	[ "$(cat got.rc)" = 1 ] && [ ! -s got.out ] && grep -q '^PROG: ' got.err ||
		fail "-a sha3-256 -l 512: rc=$(cat got.rc) stdout=$(cat got.out) stderr=$(cat got.err)"
}

@test "shake128/shake256 -l gives the .xof vectors (8, 256, 512, 1344, 4096 bits)" {
	gen_xof_lengths shake128 shake256
}

@test "shake --tag with -l: 'SHAKE256-1344 (NAME) = HEX' of the asked length, as cksum writes BLAKE2b-256" {
	pattern 169 >m169
	capture got fhsum -a shake256 -l 1344 --tag m169
	expect "shake256 -l 1344 --tag" 0 "SHAKE256-1344 (m169) = $(xof shake256 169 1344)"
}

@test "-l 0 is the default length, as in cksum 9.9" {
	capture got fhsum -a shake128 -l 0 p3
	expect "shake128 -l 0" 0 "$(xof shake128 3 256)  p3"
}

@test "shake -l 1048576 (2^20 bits, the maximum) prints 262144 hex digits, a prefix-extension of 4096 bits" {
	pattern 200 >m200
	capture got fhsum -a shake128 -l 1048576 m200
	[ "$(cat got.rc)" = 0 ] || fail "exit status $(cat got.rc): $(cat got.err)"
	local line hex
	line=$(cat got.out)
	hex=${line%  m200}
	[ "$line" = "$hex  m200" ] || fail "line does not end in '  m200'"
	[ ${#hex} = 262144 ] || fail "got ${#hex} hex digits, want 262144"
	[ "${hex:0:1024}" = "$(xof shake128 200 4096)" ] || fail "first 4096 bits differ from the vector"
}

@test "shake -l: 7, 12, -8, 2^20+8 and 'abc' are invalid lengths (exit 1, nothing on stdout)" {
	local l bad=0
	for l in 7 12 -8 1048584 abc; do
		capture got fhsum -a shake128 -l "$l" p3
		if [ "$(cat got.rc)" != 1 ] || [ -s got.out ] || ! grep -q '^PROG: ' got.err; then
			echo "-l $l: rc=$(cat got.rc) stdout=$(head -c 200 got.out) stderr=$(cat got.err)" >&2
			bad=1
		fi
	done
	return $bad
}

@test "files across the mmap threshold give the same SHA3-256 as Python's hashlib" {
	command -v python3 >/dev/null || skip "python3 not available"
	local n
	for n in 65535 65536 65537 1048577; do yes 0123456789abcdef | head -c $n >"s$n"; done
	python3 -c '
import hashlib, sys
for f in sys.argv[1:]:
    print(hashlib.sha3_256(open(f, "rb").read()).hexdigest() + "  " + f)
' s65535 s65536 s65537 s1048577 >want.out
	echo 0 >want.rc; : >want.err
	capture got fhsum -a sha3-256 s65535 s65536 s65537 s1048577
	compare_runs "large files" want got
}

@test "a missing file and a directory fail with SHA-3 as with md5; others printed, exit 1" {
	mkdir d
	capture got fhsum -a sha3-224 p1 nosuch d p3
	expect "missing and directory" 1 "$(vec sha3-224 1)  p1
$(vec sha3-224 3)  p3" "PROG: nosuch: No such file or directory
PROG: d: Is a directory (use -r to hash the files under it)"
}

@test "every -j thread count keeps operand order with SHA-3" {
	local j bad=0 files
	mapfile -t files < <(pfiles)
	want_lines sha3-512 plain
	for j in 1 2 5; do
		capture got fhsum -a sha3-512 -j "$j" "${files[@]}"
		compare_runs "-j $j" want got || bad=1
	done
	return $bad
}
