#!/usr/bin/env bats
# TurboSHAKE / KangarooTwelve check mode (-c).  The check-list table runs
# them too (check_sha3.bats, SHA3_MODES in helper.bash); these tests cover
# how their lines are recognised: a tag or -a, never a hex length alone.

load helper

setup() {
	common_setup
}

tagged_line() { printf '%s (%s) = %s\n' "$1" "$2" "$3"; }
plain_line() { printf '%s  %s\n' "$1" "$2"; }

@test "tagged TurboSHAKE128/256 and KT128/256 lines check without -a, beside SHA3 and SHAKE" {
	pattern 3 >a
	pattern 1000 >b
	{
		tagged_line TurboSHAKE128 a "$(vec turboshake128 3)"
		tagged_line TurboSHAKE256 b "$(vec turboshake256 1000)"
		tagged_line KT128 a "$(vec kt128 3)"
		printf 'KT256(b)= %s\n' "$(vec kt256 1000)"
		tagged_line SHAKE128 a "$(vec shake128 3)"
		tagged_line SHA3-256 b "$(vec sha3-256 1000)"
	} >list
	capture got fhsum -c list
	expect "fhsum -c (mixed tags)" 0 "a: OK
b: OK
a: OK
b: OK
a: OK
b: OK"
}

@test "tagged KT lines of any output length stated in the tag check; one digit changed FAILS" {
	pattern 169 >m
	local h
	h=$(xof kt128 169 512)
	h=${h:0:127}$( [ "${h:127:1}" = 0 ] && echo 1 || echo 0)
	{
		tagged_line KT128-1344 m "$(xof kt128 169 1344)"
		tagged_line KT128-512 m "$h"
		tagged_line KT256-8 m "$(xof kt256 169 8)"
		tagged_line TurboSHAKE128-4096 m "$(xof turboshake128 169 4096)"
	} >list
	capture got fhsum -c list
	expect "fhsum -c (KT lengths)" 1 "m: OK
m: FAILED
m: OK
m: OK" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "untagged KT and TurboSHAKE lines need -a: without it a 64-hex line is SHA3-256, so it fails, and the warning names -a" {
	pattern 3 >a
	{
		plain_line "$(vec kt128 3)" a
		plain_line "$(vec turboshake128 3)" a
		plain_line "$(vec kt256 3)" a
	} >list
	capture got fhsum -c list
	expect "fhsum -c (KT lines, no -a)" 1 "a: FAILED
a: FAILED
a: FAILED" "PROG: WARNING: 3 computed checksums did NOT match
PROG: WARNING: no file matched under sha3-256, sha256 or blake3: the list may use another algorithm (give it with -a)
PROG: WARNING: no file matched under sha3-512, sha512 or blake2b: the list may use another algorithm (give it with -a)"
}

@test "-a kt128/kt256/turboshake*: the hex length of each line is its output length" {
	check_xof_lengths turboshake128 turboshake256 kt128 kt256
}

@test "-a kt256 -l 256: lines of another length are improperly formatted; -w names KT256" {
	pattern 3 >a
	{
		plain_line "$(xof kt256 3 256)" a
		plain_line "$(vec kt256 3)" a
	} >list
	capture got fhsum -a kt256 -l 256 -c -w list
	expect "fhsum -a kt256 -l 256 -c -w" 0 "a: OK" \
		"PROG: list: 2: improperly formatted KT256 checksum line
PROG: WARNING: 1 line is improperly formatted"
}

@test "a KT tree input checks with -a and with its tag, and a wrong one fails" {
	big_pattern 16385 >t
	{
		plain_line "$(tree kt128 16385)" t
		plain_line "$(tree kt128 16384)" t
	} >list
	capture got fhsum -a kt128 -c list
	expect "fhsum -a kt128 -c (tree)" 1 "t: OK
t: FAILED" "PROG: WARNING: 1 computed checksum did NOT match"
	tagged_line KT256 t "$(tree kt256 16385)" >list2
	capture got fhsum -c list2
	expect "fhsum -c (KT256 tag, tree)" 0 "t: OK"
}

@test "a tagged XOF line cut short is improper: without a length in its tag it carries the default length" {
	pattern 169 >m
	local full
	full=$(xof kt128 169 256)
	{
		tagged_line KT128 m "${full:0:14}"
		tagged_line KT128 m "${full:0:2}"
		tagged_line SHAKE128 m "$(xof shake128 169 512)"
		tagged_line KT128-0 m "${full:0:2}"
		tagged_line KT128-12 m "${full:0:2}"
	} >list
	capture got fhsum -c --strict list
	expect "fhsum -c --strict (cut lines)" 1 "" "PROG: list: no properly formatted checksum lines found" || return 1
	tagged_line KT128 m "$full" >>list
	capture got fhsum -c list
	expect "fhsum -c (cut lines, one whole)" 0 "m: OK" "PROG: WARNING: 5 lines are improperly formatted" || return 1
	# -l gives the length a tag without one must carry.
	tagged_line KT128 m "$(xof kt128 169 512)" >l64
	capture got fhsum -a kt128 -l 512 -c --strict l64
	expect "fhsum -a kt128 -l 512 -c" 0 "m: OK"
}
