#!/usr/bin/env bats
# SHA-3 / SHAKE check mode (-c).
#
# 1. The check-list table of lists/check/*.case, instantiated with digests from
#    tests/vectors for sha3-224/256/384/512 (run with -a sha3-N, without -a,
#    and with -a sha3) and shake128/256 (with -a shakeN).  Each run is compared
#    with the case's written expectations, and each option variant with GNU
#    md5sum's output for the same table instantiated with MD5 digests (same
#    line structure; only the algorithm in "improperly formatted X checksum
#    line" differs).
# 2. Algorithm selection: tags of several algorithms in one list, untagged
#    lines by hex length, SHAKE output lengths, -w message names.

load helper

setup() {
	common_setup
	make_fixtures
}

# A line of a list: tagged_line TAG NAME HEX / plain_line HEX NAME
tagged_line() { printf '%s (%s) = %s\n' "$1" "$2" "$3"; }
plain_line() { printf '%s  %s\n' "$1" "$2"; }


@test "every case file of lists/check is run by this suite" {
	local c missing=()
	for c in "$CASES"/*.case; do
		c=${c##*/}
		c=${c%.case}
		grep -q "^	check_case_sha3 $c\$" "$BATS_TEST_FILENAME" || missing+=("$c")
	done
	[ ${#missing[@]} = 0 ] || fail "cases without a test here: ${missing[*]}"
	[ -n "$c" ] || fail "no case files found in $CASES"
}

@test "sha3/shake -c [all-improper]: No properly formatted line at all: the message is printed even with --status." {
	check_case_sha3 all-improper
}

@test "sha3/shake -c [bad-digest]: One digest does not match: FAILED line, singular WARNING, exit 1." {
	check_case_sha3 bad-digest
}

@test "sha3/shake -c [comments-blank]: '#' in column 1 is a comment, empty and CR-only lines are skipped; a line of blanks is improperly formatted." {
	check_case_sha3 comments-blank
}

@test "sha3/shake -c [crlf]: CRLF line ends are accepted in every line form." {
	check_case_sha3 crlf
}

@test "sha3/shake -c [dash-in-file-list]: A line naming \"-\" in a list file checks standard input." {
	check_case_sha3 dash-in-file-list
}

@test "sha3/shake -c [dash-in-stdin-list]: A line naming \"-\" in a list read from standard input is improperly formatted." {
	check_case_sha3 dash-in-stdin-list
}

@test "sha3/shake -c [dir-entry]: A listed name that is a directory: \"Is a directory\", FAILED open or read, still counted with --ignore-missing (it is not ENOENT)." {
	check_case_sha3 dir-entry
}

@test "sha3/shake -c [edge-forms]: Borderline untagged forms: digest and blanks without a name, no blank, a lone '*', two tabs." {
	check_case_sha3 edge-forms
}

@test "sha3/shake -c [empty-list]: An empty list: no properly formatted checksum lines found, exit 1." {
	check_case_sha3 empty-list
}

@test "sha3/shake -c [escape-bad]: Invalid escapes (\x, \s, a trailing lone backslash) make the line improperly formatted." {
	check_case_sha3 escape-bad
}

@test "sha3/shake -c [escaped]: Escaped names (leading backslash; \\ \n \r) in untagged and tagged lines; status lines escape names holding a backslash, LF or CR (fhsum(1), GNU 9.4+)." {
	check_case_sha3 escaped
}

@test "sha3/shake -c [good]: Good lines, text and binary markers, a file listed twice: all OK, exit 0." {
	check_case_sha3 good
}

@test "sha3/shake -c [improper]: Improperly formatted lines (junk, short/long/non-hex digest, digest without name, indented comment) are counted, named with -w, fatal with --strict." {
	check_case_sha3 improper
}

@test "sha3/shake -c [latch-across-lists]: The reversed-form latch set by the first list holds in the second list." {
	check_case_sha3 latch-across-lists
}

@test "sha3/shake -c [latch-gnu-across-lists]: The GNU-form latch set by the first list makes single-blank lines of the second list improperly formatted." {
	check_case_sha3 latch-gnu-across-lists
}

@test "sha3/shake -c [latch-gnu-first]: A GNU line first: a later single-blank line is improperly formatted and \"HEX  lead\" names \"lead\"." {
	check_case_sha3 latch-gnu-first
}

@test "sha3/shake -c [list-is-dir]: A list operand that is a directory is a read error; the next list is checked." {
	check_case_sha3 list-is-dir
}

@test "sha3/shake -c [long-name]: A listed name longer than NAME_MAX: File name too long, counted even with --ignore-missing." {
	check_case_sha3 long-name
}

@test "sha3/shake -c [missing-file]: A listed file that does not exist: error on stderr, FAILED open or read; --ignore-missing makes it silent and uncounted." {
	check_case_sha3 missing-file
}

@test "sha3/shake -c [missing-list]: A missing list operand is reported; the next list is checked; exit 1." {
	check_case_sha3 missing-list
}

@test "sha3/shake -c [mixed]: Comment, blank, OK, mismatch, junk, missing, CRLF, binary and indented lines in one list: three WARNING lines in order, plural mismatch count." {
	check_case_sha3 mixed
}

@test "sha3/shake -c [no-final-newline]: The last line of a list may lack its newline." {
	check_case_sha3 no-final-newline
}

@test "sha3/shake -c [only-missing]: Every listed file missing: plural WARNING; with --ignore-missing \"no file was verified\" and exit 1." {
	check_case_sha3 only-missing
}

@test "sha3/shake -c [openssl]: OpenSSL's TAG(NAME)= HEX form, good and bad." {
	check_case_sha3 openssl
}

@test "sha3/shake -c [raw-names]: Unescaped names with backslash, raw CR, space, tab, UTF-8, leading and trailing spaces, \") = \": found as written; status lines escape \ and CR." {
	check_case_sha3 raw-names
}

@test "sha3/shake -c [reversed]: The reversed single-blank form (md5 -r) with space or tab; once latched, \"HEX  lead\" names \" lead\"." {
	check_case_sha3 reversed
}

@test "sha3/shake -c [several-lists]: Several lists: each gets its own summary, in order; exit 1 if any fails." {
	check_case_sha3 several-lists
}

@test "sha3/shake -c [special-names-fail]: FAILED and FAILED-open lines for names with specials are escaped the same way; missing names are shell-quoted on stderr." {
	check_case_sha3 special-names-fail
}

@test "sha3/shake -c [stdin-list]: The list read from standard input as \"-\"." {
	check_case_sha3 stdin-list
}

@test "sha3/shake -c [stdin-list-noargs]: With -c and no operand the list is standard input; it is called 'standard input' in messages." {
	check_case_sha3 stdin-list-noargs
}

@test "sha3/shake -c [tagged]: BSD tagged lines: spacing around '=' is free, the name runs to the last ')'." {
	check_case_sha3 tagged
}

@test "sha3/shake -c [tagged-bad]: Malformed tagged lines: two spaces before '(', lower-case tag, trailing blank, a word no tag has the shape of, short digest, missing '='." {
	check_case_sha3 tagged-bad
}

@test "sha3/shake -c [utf8-missing]: Missing names holding UTF-8 or an invalid byte are shell-quoted on stderr (the quoting depends on the locale); status lines copy the bytes raw." {
	check_case_sha3 utf8-missing
}

@test "sha3/shake -c [uppercase]: Digests are compared case-insensitively (upper-case hex is accepted)." {
	check_case_sha3 uppercase
}


@test "one list may mix tags of every algorithm; no -a needed" {
	pattern 3 >a
	pattern 200 >b
	{
		tagged_line MD5 a "$(vec md5 3)"
		tagged_line SHA3-224 a "$(vec sha3-224 3)"
		tagged_line SHA3-256 b "$(vec sha3-256 200)"
		printf 'SHA3-384(a)= %s\n' "$(vec sha3-384 3)"
		tagged_line SHA3-512 b "$(vec sha3-512 200)"
		tagged_line SHAKE128 a "$(vec shake128 3)"
		printf 'SHAKE256(b)= %s\n' "$(vec shake256 200)"
	} >list
	capture got fhsum -c list
	expect "fhsum -c (mixed tags)" 0 "a: OK
a: OK
b: OK
a: OK
b: OK
a: OK
b: OK"
}

@test "mixed tags: a wrong digest under one tag fails only that line" {
	pattern 3 >a
	pattern 200 >b
	{
		tagged_line SHA3-224 a "$(vec sha3-224 3)"
		tagged_line SHA3-512 b "$(vec sha3-512 3)"
		tagged_line SHAKE256 a "$(vec shake256 3)"
		tagged_line MD5 b "$(vec md5 200)"
	} >list
	capture got fhsum -c list
	expect "fhsum -c (mixed tags, one bad)" 1 "a: OK
b: FAILED
a: OK
b: OK" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "under -a, a tag of another algorithm is improper, as cksum -a counts it; without -a tags rule" {
	pattern 3 >a
	{
		tagged_line SHA3-256 a "$(vec sha3-256 3)"
		tagged_line MD5 a "$(vec md5 3)"
		plain_line "$(vec sha3-512 3)" a
	} >list
	capture got fhsum -a sha3-512 -c list
	expect "fhsum -a sha3-512 -c" 0 "a: OK" "PROG: WARNING: 2 lines are improperly formatted" || return 1
	capture got fhsum -a sha3-512 --strict -c list
	[ "$(cat got.rc)" = 1 ] || fail "--strict: exit $(cat got.rc), want 1"
	capture got fhsum -a sha3 -c list
	expect "fhsum -a sha3 -c (any SHA3 tag)" 0 "a: OK
a: OK" "PROG: WARNING: 1 line is improperly formatted" || return 1
	head -2 list >mixed
	capture got fhsum -c mixed
	expect "fhsum -c (tags rule)" 0 "a: OK
a: OK"
}

@test "untagged lines without -a: the hex length picks md5 or the SHA3 variant" {
	pattern 3 >a
	pattern 1000 >b
	{
		plain_line "$(vec md5 3)" a
		plain_line "$(vec sha3-224 1000)" b
		plain_line "$(vec sha3-256 3)" a
		plain_line "$(vec sha3-384 1000)" b
		plain_line "$(vec sha3-512 3)" a
		printf '%s *b\n' "$(vec md5 1000)"
	} >list
	capture got fhsum -c list
	expect "fhsum -c (length detection)" 0 "a: OK
b: OK
a: OK
b: OK
a: OK
b: OK"
}

@test "-a sha3 without -l: each line's variant comes from its hex length" {
	pattern 3 >a
	{
		plain_line "$(vec sha3-224 3)" a
		plain_line "$(vec sha3-512 3)" a
		plain_line "$(vec sha3-384 3)" a
		plain_line "$(vec sha3-256 3)" a
	} >list
	capture got fhsum -a sha3 -c list
	expect "fhsum -a sha3 -c" 0 "a: OK
a: OK
a: OK
a: OK"
}

@test "untagged SHAKE lines need -a: without it a 64-hex line is SHA3-256 or SHA-256 (and the warning names -a), a 36-hex line is improperly formatted" {
	pattern 3 >a
	{
		plain_line "$(vec shake128 3)" a
		plain_line "$(vec shake128 3 | cut -c1-36)" a
	} >list
	capture got fhsum -c -w list
	expect "fhsum -c -w (SHAKE lines, no -a)" 1 "a: FAILED" \
		"PROG: list: 2: improperly formatted checksum line
PROG: WARNING: 1 line is improperly formatted
PROG: WARNING: 1 computed checksum did NOT match
PROG: WARNING: no file matched under sha3-256, sha256 or blake3: the list may use another algorithm (give it with -a)"
}

@test "-a shake128/-a shake256: the hex length of each line is its output length" {
	check_xof_lengths shake128 shake256
}

@test "SHAKE: a line holding a prefix of the right output, with one digit changed, FAILS" {
	pattern 169 >m
	local h
	h=$(xof shake128 169 512)
	h=${h:0:127}$( [ "${h:127:1}" = 0 ] && echo 1 || echo 0)
	{
		plain_line "$(xof shake128 169 512)" m
		plain_line "$h" m
		tagged_line SHAKE128-1344 m "$(xof shake128 169 1344)"
	} >list
	capture got fhsum -a shake128 -c list
	expect "fhsum -a shake128 -c" 1 "m: OK
m: FAILED
m: OK" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "-w names the -a algorithm as cksum spells it (SHA3-384, SHA3, SHAKE256) or none" {
	pattern 3 >a
	{
		plain_line "$(vec sha3-384 3)" a
		echo junk
	} >list
	local bad=0
	capture got fhsum -a sha3-384 -w -c list
	expect "-a sha3-384" 0 "a: OK" "PROG: list: 2: improperly formatted SHA3-384 checksum line
PROG: WARNING: 1 line is improperly formatted" || bad=1
	capture got fhsum -a sha3 -w -c list
	expect "-a sha3" 0 "a: OK" "PROG: list: 2: improperly formatted SHA3 checksum line
PROG: WARNING: 1 line is improperly formatted" || bad=1
	capture got fhsum -w -c list
	expect "no -a" 0 "a: OK" "PROG: list: 2: improperly formatted checksum line
PROG: WARNING: 1 line is improperly formatted" || bad=1
	{
		plain_line "$(vec shake256 3)" a
		echo junk
	} >list
	capture got fhsum -a shake256 -w -c list
	expect "-a shake256" 0 "a: OK" "PROG: list: 2: improperly formatted SHAKE256 checksum line
PROG: WARNING: 1 line is improperly formatted" || bad=1
	return $bad
}

@test "links named sha3-Nsum check untagged lines of their length" {
	pattern 3 >a
	local b bad=0
	for b in 224 256 384 512; do
		plain_line "$(vec "sha3-$b" 3)" a >list
		capture got fhsum_as "sha3-${b}sum" -c list
		expect "sha3-${b}sum -c" 0 "a: OK" || bad=1
	done
	return $bad
}

@test "check: a stdout write error (/dev/full) is reported with exit 1, even for an endless list (as GNU 9.10)" {
	pattern 3 >a
	plain_line "$(vec sha3-256 3)" a >list
	local rc=0
	fhsum -c list >/dev/full 2>err.raw || rc=$?
	[ "$rc" = 1 ] || fail "exit status $rc, want 1"
	[ "$(normalise_err <err.raw)" = "PROG: write error: No space left on device" ] || fail "stderr: $(cat err.raw)"
	rc=0
	yes "$(plain_line "$(vec sha3-256 3)" a)" | timeout 60 "${FHSUM_WRAP[@]}" "$FHSUM" -c - >/dev/full 2>err.raw || rc=$?
	[ "$rc" = 1 ] || fail "endless list: exit status $rc, want 1 (124 = still running after 60 s)"
	normalise_err <err.raw | grep -q '^PROG: write error' || fail "endless list stderr: $(head -c 300 err.raw)"
}
