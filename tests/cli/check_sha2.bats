#!/usr/bin/env bats
# -c of SHA-1 and SHA-2 lists: untagged lines of a length SHA-2 and SHA-3
# share, settled by content (both orders, neither matching, base64); the
# GNU names sha1sum..sha512sum as links; -a sha2 -l.  Expected digests and
# messages come from GNU sha1sum..sha512sum 9.1 and python3's hashlib.

load helper

setup() {
	common_setup
	printf 'one\n' >a
	printf 'two\n' >b
	head -c 3000 /dev/zero | tr '\0' x >c
}

@test "a SHA256SUMS made by GNU sha256sum checks without -a, and a changed file FAILS" {
	sha256sum a b c >SHA256SUMS
	capture got fhsum -c SHA256SUMS
	expect "fhsum -c SHA256SUMS" 0 "a: OK
b: OK
c: OK" "" || return 1
	echo more >>b
	capture got fhsum -c SHA256SUMS
	expect "changed b" 1 "a: OK
b: FAILED
c: OK" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "every SHA-2 size and SHA-1 check without -a; fhsum's own SHA3 lists still do" {
	local a
	for a in sha1 sha224 sha256 sha384 sha512; do
		${a}sum a b >L
		capture got fhsum -c L
		expect "${a}sum list" 0 "a: OK
b: OK" "" || return 1
		${a}sum --tag a b >T
		capture got fhsum -c T
		expect "${a}sum --tag list" 0 "a: OK
b: OK" "" || return 1
	done
	for a in sha3-224 sha3-256 sha3-384 sha3-512; do
		python3 -c "
import hashlib, sys
for f in sys.argv[1:]:
    print(hashlib.new('${a/-/_}', open(f, 'rb').read()).hexdigest() + '  ' + f)" a b >L3
		capture got fhsum -c L3
		expect "$a list" 0 "a: OK
b: OK" "" || return 1
	done
}

@test "settled by the first line, in either order: a later line of the other family gets a second look, OK" {
	python3 -c "
import hashlib
for f in ('a', 'b'):
    print(hashlib.sha3_256(open(f, 'rb').read()).hexdigest() + '  ' + f)" >sha3.l
	sha256sum a b >sha2.l
	{ head -1 sha2.l; tail -1 sha3.l; } >two-first
	capture got fhsum -c two-first
	expect "SHA-256 first" 0 "a: OK
b: OK" "" || return 1
	{ head -1 sha3.l; tail -1 sha2.l; } >three-first
	capture got fhsum -c three-first
	expect "SHA3-256 first" 0 "a: OK
b: OK" "" || return 1
	# A line of neither still FAILS.
	{ head -1 sha2.l; printf '%064d  b\n' 0; } >neither
	capture got fhsum -c neither
	expect "neither" 1 "a: OK
b: FAILED" "PROG: WARNING: 1 computed checksum did NOT match" || return 1
	# Another length settles on its own.
	{ head -1 sha3.l; sha512sum b; sha1sum c; } >lengths
	capture got fhsum -c lengths
	expect "lengths settle apart" 0 "a: OK
b: OK
c: OK" ""
}

@test "a first line matching neither FAILS and settles nothing; the next one does" {
	sha256sum a b c >L
	sed -i '1s/^./0/;1s/^0\(.\)/0\1/' L
	# Make sure the first digest really changed.
	[ "$(head -c 64 L)" != "$(sha256sum a | head -c 64)" ] || sed -i '1s/^./1/' L
	capture got fhsum -c L
	expect "neither, then settled" 1 "a: FAILED
b: OK
c: OK" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "base64 lines settle by content too" {
	python3 -c "
import base64, hashlib
for f in ('a', 'b'):
    d = open(f, 'rb').read()
    print(base64.b64encode(hashlib.sha256(d).digest()).decode() + '  ' + f)
print(base64.b64encode(hashlib.sha3_256(open('c', 'rb').read()).digest()).decode() + '  c')" >B
	capture got fhsum -c B
	expect "base64 SHA-256, then a SHA3-256 line" 0 "a: OK
b: OK
c: OK" ""
}

@test "the file settling a list is read once: standard input as its first line" {
	sha256sum - <a | sed 's/-$/-/' >L
	capture got fhsum -c L <a
	expect "stdin settles" 0 "-: OK" ""
}

@test "as sha1sum..sha512sum, fhsum is that program: output, --tag, -c and its messages, byte for byte" {
	local a run rc_gnu rc_ours
	for a in sha1 sha224 sha256 sha384 sha512; do
		for run in "a b" "--tag a b" "-z a" "-b a"; do
			# shellcheck disable=SC2086
			${a}sum $run >gnu.out 2>gnu.err || :
			# shellcheck disable=SC2086
			fhsum_as ${a}sum $run >our.out 2>our.err || :
			cmp -s gnu.out our.out || fail "${a}sum $run: stdout differs" "$(cat our.out)" || return 1
		done
		{ ${a}sum a; echo junk; md5sum b; } >L
		for run in "-c L" "-c -w L" "-c --strict L" "-c --status L" "-c --quiet L"; do
			rc_gnu=0; rc_ours=0
			# shellcheck disable=SC2086
			${a}sum $run >gnu.out 2>gnu.err || rc_gnu=$?
			# shellcheck disable=SC2086
			fhsum_as ${a}sum $run >our.out 2>our.err || rc_ours=$?
			sed "s/^${a}sum: //" gnu.err >gnu.e; sed "s/^${a}sum: //" our.err >our.e
			[ "$rc_gnu" = "$rc_ours" ] && cmp -s gnu.out our.out && cmp -s gnu.e our.e ||
				fail "${a}sum $run: exit $rc_ours (GNU $rc_gnu)" "$(cat our.out our.err)" "GNU:" "$(cat gnu.out gnu.err)" || return 1
		done
	done
}

@test "-a sha2 -l: 224..512 are SHA-224..512; another length or none gets cksum's message" {
	capture got fhsum -a sha2 -l 256 a
	expect "-a sha2 -l 256" 0 "$(sha256sum a)" "" || return 1
	capture got fhsum -a sha2 -l 512 --tag a
	expect "-a sha2 -l 512 --tag" 0 "$(sha512sum --tag a)" "" || return 1
	capture got fhsum -a sha2 a
	expect "-a sha2 alone" 1 "" "PROG: --algorithm=sha2 requires specifying --length 224, 256, 384, or 512" || return 1
	capture got fhsum -a sha2 -l 160 a
	expect "-a sha2 -l 160" 1 "" "PROG: invalid length: '160'
PROG: digest length for 'SHA2' must be 224, 256, 384, or 512" || return 1
	# -a sha2 -c admits every SHA-2 size, and no other tag.
	{ sha224sum a; sha512sum --tag b; md5sum --tag c; } >L
	capture got fhsum -a sha2 -c L
	expect "-a sha2 -c" 0 "a: OK
b: OK" "PROG: WARNING: 1 line is improperly formatted"
}

@test "--audit and --update of a SHA-256 list without -a: settled by content, new lines in SHA-256" {
	sha256sum a b >S
	capture got fhsum --audit=S a b
	expect "audit of sha256sum's list" 0 "a: OK
b: OK" "" || return 1
	printf 'three\n' >n
	capture got fhsum --update=S a b n
	expect "update adds n" 1 "n: NEW" "PROG: WARNING: 1 new file" || return 1
	sha256sum -c --strict S >/dev/null || fail "sha256sum -c rejects the updated list:" "$(cat S)"
	# fhsum's own SHA3-256 list stays SHA3-256.
	python3 -c "
import hashlib
for f in ('a', 'b'):
    print(hashlib.sha3_256(open(f, 'rb').read()).hexdigest() + '  ' + f)" >S3
	capture got fhsum --audit=S3 a b
	expect "audit of a SHA3-256 list" 0 "a: OK
b: OK" ""
}
