#!/usr/bin/env bats
# Checking what a download needs, under fhsum's own name: --only=NAME
# checks some entries of a list alone; --expect=DIGEST checks files
# against one digest without a list; a list in an algorithm fhsum lacks
# (tagged lines of an unknown tag, untagged lines that match under no
# algorithm of their length) is said as such, not taken for damage.
# Under a GNU name (sha256sum, md5sum) none of it exists: GNU's
# behaviour byte for byte.  Expected digests come from GNU sha256sum,
# md5sum, b2sum, b3sum and python3's hashlib, never from fhsum.

load helper

setup() {
	common_setup
	command -v sha256sum >/dev/null || skip "GNU sha256sum not installed"
	printf 'one\n' >a
	printf 'two\n' >b
	printf 'three\n' >c
}

sha3_256() { python3 -c 'import hashlib,sys; print(hashlib.sha3_256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }
sha256_b64() { python3 -c 'import hashlib,sys,base64; print(base64.b64encode(hashlib.sha256(open(sys.argv[1],"rb").read()).digest()).decode())' "$1"; }

# Whether fhsum's table has the algorithm of tag $1 (then a test of a
# list in an algorithm fhsum lacks has nothing to test with it).
fhsum_knows() { fhsum --list-algorithms | awk -v t="$1" 'tolower($2) == tolower(t) { f = 1 } END { exit !f }'; }

# same_as_gnu PROG ARGS...: fhsum through a link named PROG and GNU's PROG
# give the same stdout, stderr and exit status, byte for byte.
same_as_gnu() {
	local p=$1 rg=0 ro=0
	shift
	"$p" "$@" >gnu.out 2>gnu.err || rg=$?
	fhsum_as "$p" "$@" >our.out 2>our.err || ro=$?
	[ "$rg" = "$ro" ] && cmp -s gnu.out our.out && cmp -s gnu.err our.err ||
		fail "$p $*: exit $ro (GNU $rg)" "$(cat our.out our.err)" "GNU:" "$(cat gnu.out gnu.err)"
}

# ---------------------------------------------------------------------------
# --only

@test "--only: only the named entry is checked; the others are not read, reported nor counted" {
	sha256sum a b c >L
	printf 'changed\n' >b
	rm c
	capture got fhsum -c L --only=a
	expect "--only=a" 0 "a: OK" "" || return 1
	# Without --only the same list fails: the other entries are the list's.
	capture got fhsum -c L
	[ "$(cat got.rc)" = 1 ] || fail "without --only: exit $(cat got.rc)"
}

@test "--only: the same report as GNU sha256sum -c of the chosen lines alone" {
	sha256sum a b c >L
	printf 'changed\n' >b
	grep -E '  (a|b)$' L | sha256sum -c >gnu.out 2>gnu.err.raw && echo 0 >gnu.rc || echo $? >gnu.rc
	sed 's/^sha256sum: /PROG: /' gnu.err.raw >gnu.err
	capture got fhsum -c L --only=b --only=a
	compare_runs "--only=b --only=a vs grep | sha256sum -c" gnu got
}

@test "--only: a leading ./ is left out on either side, and the name is shown as listed" {
	sha256sum ./a b >L
	capture got fhsum -c L --only=a --only=./b
	expect "./ either side" 0 "./a: OK
b: OK" ""
}

@test "--only: names are compared unescaped, as the list's names are the files' names" {
	printf 'x\n' >'back\slash'
	sha256sum 'back\slash' a >L
	[ "$(head -c 1 L)" = '\' ] || fail "GNU did not escape the name:" "$(cat L)"
	capture got fhsum -c L --only='back\slash'
	expect "escaped name" 0 '\back\\slash: OK' ""
}

@test "--only: a name no list holds is said, and fails the run; the others are still checked" {
	sha256sum a b >L
	capture got fhsum -c L --only=a --only=nope
	expect "one list" 1 "a: OK" "PROG: nope: not listed in L" || return 1
	capture got fhsum -c L --only=nope
	expect "nothing chosen" 1 "" "PROG: nope: not listed in L"
}

@test "--only: over several lists, a list that holds none of the names says nothing" {
	sha256sum a >L1
	sha256sum b >L2
	capture got fhsum -c L1 L2 --only=b
	expect "b in the second list" 0 "b: OK" "" || return 1
	capture got fhsum -c L1 L2 --only=b --only=zz
	expect "zz in neither" 1 "b: OK" "PROG: zz: not listed in any of the 2 lists" || return 1
	capture got fhsum -c L1 L2 --only=b --ignore-missing
	expect "no 'no file was verified' for L1" 0 "b: OK" ""
}

@test "--only with --quiet, --status, --ignore-missing, --strict and --json" {
	sha256sum a b c >L
	echo junk >>L
	printf 'changed\n' >b
	rm c
	capture got fhsum -c L --only=a --only=b --quiet
	expect "--quiet" 1 "b: FAILED" "PROG: WARNING: 1 line is improperly formatted
PROG: WARNING: 1 computed checksum did NOT match" || return 1
	capture got fhsum -c L --only=a --status
	expect "--status, good" 0 "" "" || return 1
	capture got fhsum -c L --only=b --status
	expect "--status, bad" 1 "" "" || return 1
	capture got fhsum -c L --only=x --status
	expect "--status still names a name no list holds" 1 "" "PROG: x: not listed in L" || return 1
	capture got fhsum -c L --only=c --ignore-missing
	expect "--ignore-missing, all missing" 1 "" "PROG: WARNING: 1 line is improperly formatted
PROG: L: no file was verified" || return 1
	capture got fhsum -c L --only=a --only=c --ignore-missing
	expect "--ignore-missing" 0 "a: OK" "PROG: WARNING: 1 line is improperly formatted" || return 1
	capture got fhsum -c L --only=a --strict
	expect "--strict counts the list's improper lines" 1 "a: OK" "PROG: WARNING: 1 line is improperly formatted" || return 1
	capture got fhsum -c L --only=a --json
	grep -q '"name":"a".*"status":"OK"' got.out && [ "$(wc -l <got.out)" = 1 ] ||
		fail "--json:" "$(cat got.out)"
}

@test "--only: without -c, or with --expect, a usage error" {
	capture got fhsum --only=a a
	expect "no -c" 1 "" "PROG: --only needs --check
Try 'PROG --help' for more information." || return 1
	capture got fhsum --expect="$(sha256sum <a | cut -c1-64)" --only=a a
	expect "--expect" 1 "" "PROG: --only needs --check
Try 'PROG --help' for more information."
}

@test "--only and --expect do not exist under a GNU name (GNU's unrecognized option)" {
	sha256sum a >L
	same_as_gnu sha256sum -c L --only=a || return 1
	same_as_gnu sha256sum --expect="$(sha256sum <a | cut -c1-64)" a || return 1
	md5sum a >M
	same_as_gnu md5sum -c M --only=a
}

# ---------------------------------------------------------------------------
# --expect

@test "--expect: a SHA-256 digest from GNU sha256sum, settled among the 64-digit algorithms" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	capture got fhsum --expect="$h" a
	expect "sha256" 0 "a: OK" ""
}

@test "--expect: a SHA3-256 digest from hashlib, and an MD5 from md5sum" {
	local h
	h=$(sha3_256 a)
	capture got fhsum --expect="$h" a
	expect "sha3-256" 0 "a: OK" "" || return 1
	h=$(md5sum <a | cut -c1-32)
	capture got fhsum --expect="$h" a
	expect "md5" 0 "a: OK" ""
}

@test "--expect: upper-case hex and base64 digests" {
	local h
	h=$(sha256sum <a | cut -c1-64 | tr a-f A-F)
	capture got fhsum --expect="$h" a
	expect "upper case" 0 "a: OK" "" || return 1
	h=$(sha256_b64 a)
	capture got fhsum --expect="$h" a
	expect "base64" 0 "a: OK" ""
}

@test "--expect: the same stdout and exit status as GNU's echo \"HASH  FILE\" | sha256sum -c" {
	local h f rg ro
	h=$(sha256sum <a | cut -c1-64)
	for f in a b; do
		rg=0; ro=0
		printf '%s  %s\n' "$h" "$f" | sha256sum -c >gnu.out 2>/dev/null || rg=$?
		fhsum --expect="$h" "$f" >our.out 2>/dev/null || ro=$?
		[ "$rg" = "$ro" ] && cmp -s gnu.out our.out ||
			fail "$f: exit $ro (GNU $rg)" "$(cat our.out)" "GNU:" "$(cat gnu.out)" || return 1
	done
}

@test "--expect: a file that does not match FAILS; the warning names the candidates and -a" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	capture got fhsum --expect="$h" b
	expect "FAILED" 1 "b: FAILED" "PROG: WARNING: no file matched under sha3-256, sha256 or blake3: the digest may be of another algorithm (give it with -a)" || return 1
	capture got fhsum -a sha256 --expect="$h" b
	expect "FAILED with -a: nothing to settle" 1 "b: FAILED" ""
}

@test "--expect: several FILE operands, each against the one digest; standard input without one" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	cp a a2
	capture got fhsum --expect="$h" a b a2
	expect "three files" 1 "a: OK
b: FAILED
a2: OK" "" || return 1
	capture got fhsum --expect="$h" <a
	expect "standard input" 0 "-: OK" ""
}

@test "--expect: an unreadable file is FAILED open or read, exit 1; names escaped as -c escapes them" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	capture got fhsum --expect="$h" nosuch
	expect "missing" 1 "nosuch: FAILED open or read" "PROG: nosuch: No such file or directory" || return 1
	mkdir d
	capture got fhsum --expect="$h" d
	expect "directory" 1 "d: FAILED open or read" "PROG: d: Is a directory" || return 1
	cp a 'back\slash'
	capture got fhsum --expect="$h" 'back\slash'
	expect "escaped" 0 '\back\\slash: OK' ""
}

@test "--expect with --quiet, --status, --ignore-missing and --json" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	capture got fhsum --expect="$h" --quiet a b
	expect "--quiet" 1 "b: FAILED" "" || return 1
	capture got fhsum -a sha256 --expect="$h" --status a b
	expect "--status" 1 "" "" || return 1
	capture got fhsum --expect="$h" --ignore-missing a nosuch
	expect "--ignore-missing" 0 "a: OK" "" || return 1
	capture got fhsum --expect="$h" --ignore-missing nosuch
	expect "--ignore-missing, none verified" 1 "" "PROG: no file was verified" || return 1
	capture got fhsum --expect="$h" --json a
	grep -q "^{\"name\":\"a\",\"algorithm\":\"sha256\",\"digest\":\"$h\".*\"status\":\"OK\"}\$" got.out ||
		fail "--json:" "$(cat got.out)"
}

@test "--expect: a digest of no algorithm's length, or not of -a's, is a usage error" {
	capture got fhsum --expect=abc a
	expect "no length" 1 "" "PROG: invalid digest 'abc' for --expect: no algorithm has a digest of that length in hex or base64 (give one with -a)
Try 'PROG --help' for more information." || return 1
	capture got fhsum -a sha256 --expect="$(md5sum <a | cut -c1-32)" a
	expect "not -a's" 1 "" "PROG: invalid digest '$(md5sum <a | cut -c1-32)' for --expect: not a SHA256 digest in hex or base64
Try 'PROG --help' for more information." || return 1
	capture got fhsum --expect="$(sha256sum <a | cut -c1-64)" -c a
	expect "with -c" 1 "" "PROG: --expect and --check are mutually exclusive
Try 'PROG --help' for more information."
}

# ---------------------------------------------------------------------------
# Lists in an algorithm fhsum lacks

@test "unsupported: tagged lines of a tag no algorithm has are counted as such, not as improper" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	{ printf 'WHIRLPOOL (b) = %s%s\n' "$h" "$h"; sha256sum --tag a; echo junk; } >L
	capture got fhsum -c L
	expect "closing warning" 1 "a: OK" "PROG: WARNING: 1 line is improperly formatted
PROG: WARNING: 1 line uses an unsupported algorithm (WHIRLPOOL)" || return 1
	capture got fhsum -c -w L
	expect "-w" 1 "a: OK" "PROG: L: 1: checksum line of an unsupported algorithm (WHIRLPOOL)
PROG: L: 3: improperly formatted checksum line
PROG: WARNING: 1 line is improperly formatted
PROG: WARNING: 1 line uses an unsupported algorithm (WHIRLPOOL)" || return 1
	capture got fhsum -c --status L
	expect "--status" 1 "" ""
}

@test "unsupported: a list made only of them says so, not 'no properly formatted checksum lines'" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	printf 'WHIRLPOOL (a) = %s%s\nRIPEMD160 (b) = %s\n' "$h" "$h" "${h:0:40}" >L
	capture got fhsum -c L
	expect "only unsupported" 1 "" "PROG: L: no checksum lines of a supported algorithm found (2 lines use WHIRLPOOL, RIPEMD160)"
}

@test "unsupported: with --only, a chosen unsupported line counts and an unchosen one does not" {
	local h
	h=$(sha256sum <a | cut -c1-64)
	{ printf 'WHIRLPOOL (b) = %s%s\n' "$h" "$h"; sha256sum --tag a; } >L
	capture got fhsum -c L --only=a
	expect "not chosen" 0 "a: OK" "" || return 1
	capture got fhsum -c L --only=b
	expect "chosen" 1 "" "PROG: WARNING: 1 line uses an unsupported algorithm (WHIRLPOOL)"
}

@test "unsupported: a b2sum --tag list (BLAKE2b) is an unsupported algorithm's, not improper" {
	command -v b2sum >/dev/null || skip "b2sum not installed"
	fhsum_knows BLAKE2b && skip "fhsum has BLAKE2b: the list is checked"
	b2sum --tag a b >B2
	capture got fhsum -c B2
	expect "only BLAKE2b" 1 "" "PROG: B2: no checksum lines of a supported algorithm found (2 lines use BLAKE2b)" || return 1
	b2sum -l 256 --tag a >>B2
	sha256sum a >>B2
	capture got fhsum -c B2
	expect "BLAKE2b beside SHA-256" 1 "a: OK" "PROG: WARNING: 3 lines use unsupported algorithms (BLAKE2b, BLAKE2b-256)"
}

@test "unsupported: an untagged b3sum list (64 digits) FAILS under SHA3-256 and SHA-256, and the warning names -a" {
	command -v b3sum >/dev/null || skip "b3sum not installed"
	fhsum_knows BLAKE3 && skip "fhsum has BLAKE3: the list settles"
	b3sum a b >B3
	capture got fhsum -c B3
	expect "b3sum list" 1 "a: FAILED
b: FAILED" "PROG: WARNING: 2 computed checksums did NOT match
PROG: WARNING: no file matched under sha3-256 or sha256: the list may use another algorithm (give it with -a)"
}

@test "unsupported: an untagged b2sum list (128 digits) FAILS under SHA3-512 and SHA-512, and the warning names -a" {
	command -v b2sum >/dev/null || skip "b2sum not installed"
	fhsum_knows BLAKE2b && skip "fhsum has BLAKE2b: the list settles"
	b2sum a >B2
	capture got fhsum -c B2
	expect "b2sum list" 1 "a: FAILED" "PROG: WARNING: 1 computed checksum did NOT match
PROG: WARNING: no file matched under sha3-512 or sha512: the list may use another algorithm (give it with -a)"
}

@test "unsupported: no such warning once a file of the length matched, nor with -a" {
	sha256sum a b >L
	printf 'changed\n' >b
	capture got fhsum -c L
	expect "one matched" 1 "a: OK
b: FAILED" "PROG: WARNING: 1 computed checksum did NOT match" || return 1
	printf 'changed\n' >a
	capture got fhsum -a sha256 -c L
	expect "-a" 1 "a: FAILED
b: FAILED" "PROG: WARNING: 2 computed checksums did NOT match"
}

@test "unsupported: with -a a tag of another algorithm stays improperly formatted, as sha256sum counts it" {
	local h rg=0 ro=0
	h=$(sha256sum <a | cut -c1-64)
	{ printf 'WHIRLPOOL (b) = %s%s\n' "$h" "$h"; sha256sum --tag a; echo junk; } >L
	for o in "" -w --strict; do
		rg=0; ro=0
		# shellcheck disable=SC2086
		sha256sum -c $o L >gnu.out 2>gnu.err || rg=$?
		# shellcheck disable=SC2086
		fhsum -a sha256 -c $o L >our.out 2>our.err || ro=$?
		sed -i 's/^[^:]*sha256sum: //' gnu.err
		sed -i 's/^[^:]*fhsum: //' our.err
		[ "$rg" = "$ro" ] && cmp -s gnu.out our.out && cmp -s gnu.err our.err ||
			fail "-c $o: exit $ro (GNU $rg)" "$(cat our.out our.err)" "GNU:" "$(cat gnu.out gnu.err)" || return 1
	done
}

@test "unsupported: as sha256sum and md5sum, GNU's messages byte for byte on the same lists" {
	local h o l
	h=$(sha256sum <a | cut -c1-64)
	printf 'WHIRLPOOL (b) = %s%s\n' "$h" "$h" >W
	{ cat W; sha256sum --tag a; md5sum --tag a; echo junk; sha256sum b; } >M
	: >lists
	if command -v b2sum >/dev/null; then b2sum --tag a b >B2T; b2sum a >B2; echo B2T B2 >>lists; fi
	if command -v b3sum >/dev/null; then b3sum a b >B3; echo B3 >>lists; fi
	for l in W M $(cat lists); do
		for o in "" -w --strict --status --quiet; do
			# shellcheck disable=SC2086
			same_as_gnu sha256sum -c $o "$l" || return 1
			# shellcheck disable=SC2086
			same_as_gnu md5sum -c $o "$l" || return 1
		done
	done
}
