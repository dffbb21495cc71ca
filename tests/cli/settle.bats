#!/usr/bin/env bats
# An untagged list's algorithm (fhsum(1), "Untagged lists"): a digest
# length that several algorithms share is settled by the content of a file
# the run reads anyway, never guessed; a writer never writes a digest in an
# algorithm the list was not shown to use; no slip of the command line
# costs a line.  Expected digests come from GNU sha256sum and md5sum, and
# Python's hashlib; every case failed before the settling moved to the
# engine's threads.

load helper

setup() {
	common_setup
	command -v sha256sum >/dev/null || skip "GNU sha256sum not installed"
}

sha3_256() { python3 -c 'import hashlib,sys; print(hashlib.sha3_256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }

@test "settle: a directory operand of --update/--audit without -r is its tree; no line dropped" {
	mkdir -p photos/2024
	printf 'a\n' >photos/a.jpg; printf 'b\n' >photos/2024/b.jpg
	md5sum photos/2024/b.jpg photos/a.jpg >L
	cp L L.orig
	for op in photos photos/ ./photos; do
		run fhsum --update=L --prune "$op"
		[ "$status" = 0 ] || fail "--update=L --prune $op: exit $status: $output"
		cmp -s L L.orig || fail "--update=L --prune $op changed the list:" "$(cat L)"
		run fhsum --audit=L "$op"
		[ "$status" = 0 ] || fail "--audit=L $op: exit $status: $output"
		[[ $output != *MISSING* ]] || fail "--audit=L $op: $output"
	done
	md5sum -c --quiet L || fail "md5sum -c fails on the list"
}

@test "settle: a sha256sum list whose file changed is never rewritten as SHA3 (64, untouched)" {
	printf 'v1\n' >f
	sha256sum f >f.sha256
	cp f.sha256 before
	printf 'v2\n' >f
	run fhsum --update=f.sha256 f
	[ "$status" = 64 ] || fail "exit $status, want 64: $output"
	[[ $output == *"give -a"* ]] || fail "no word of -a: $output"
	cmp -s before f.sha256 || fail "the list changed:" "$(cat f.sha256)"
	# With -a, the user says which: the line is sha256sum's again.
	run fhsum --update=f.sha256 -a sha256 f
	sha256sum -c --quiet f.sha256 || fail "sha256sum -c fails after -a sha256:" "$(cat f.sha256)"
}

@test "settle: --audit of an untagged list no file matches says to give -a, as -c does" {
	printf '1\n' >x; printf '2\n' >y
	b2sum -l 256 x y >L     # 64 digits: BLAKE2b-256, not a candidate
	run fhsum --audit=L x y
	[ "$status" = 4 ] || fail "exit $status, want 4 (CHANGED): $output"
	[[ $output == *"WARNING: no file matched under sha3-256, sha256 or blake3: the list may use another algorithm (give it with -a)"* ]] ||
		fail "no word of -a: $output"
	run fhsum --scrub=L
	[ "$status" = 4 ] || fail "--scrub: exit $status, want 4: $output"
	[[ $output == *"WARNING: no file matched under sha3-256, sha256 or blake3"* ]] ||
		fail "--scrub: no word of -a: $output"
	run fhsum --audit=L -a blake2b -l 256 x y
	[ "$status" = 0 ] || fail "-a blake2b -l 256: exit $status: $output"
	[[ $output != *"no file matched"* ]] || fail "-a given, still warned: $output"
	# From another directory no listed file is read: MISSING, no hint.
	mkdir sub
	run sh -c 'cd sub && "$0" --audit=../L -r .' "$FHSUM"
	[ "$status" = 2 ] || fail "from sub/: exit $status, want 2 (MISSING): $output"
	[[ $output != *"no file matched"* ]] || fail "no file read, still warned: $output"
	# A list that settles warns of nothing, though a file changed.
	sha256sum x y >S
	printf '3\n' >y
	run fhsum --audit=S x y
	[ "$status" = 4 ] || fail "exit $status, want 4 (CHANGED): $output"
	[[ $output != *"no file matched"* ]] || fail "settled, still warned: $output"
}

@test "settle: a file unchanged settles a sha256sum list; changed and new lines are SHA-256, declared" {
	printf 'same\n' >s; printf 'v1\n' >f
	sha256sum s f >SUMS
	printf 'v2\n' >f; printf 'new\n' >n
	run fhsum --update=SUMS s f n
	[ "$status" = 5 ] || fail "exit $status, want 5 (new, changed): $output"
	sha256sum -c SUMS || fail "sha256sum -c fails:" "$(cat SUMS)"
	[ "$(grep -c '^#fhsum untagged=sha256$' SUMS)" = 1 ] || fail "not declared:" "$(cat SUMS)"
	[ "$(grep -vc '^#' SUMS)" = 3 ] || fail "lines lost:" "$(cat SUMS)"
	# Declared, the list needs no settling: SHA-256 even with nothing to
	# read that matches.
	printf 'v3\n' >f
	run fhsum --update=SUMS f
	[ "$status" = 4 ] || fail "exit $status, want 4: $output"
	sha256sum -c --quiet SUMS || fail "sha256sum -c fails after the second update"
}

@test "settle: files moved out of a sha256sum list's names are MOVED, and --update --prune keeps SHA-256" {
	mkdir old
	printf 'a\n' >old/a; printf 'b\n' >old/b
	sha256sum old/a old/b >SUMS
	mv old new
	run fhsum --audit=SUMS -r .
	[ "$status" = 8 ] || fail "exit $status, want 8 (moved): $output"
	[ "$(grep -c ': MOVED from old/' <<<"$output")" = 2 ] || fail "$output"
	run fhsum --update=SUMS --prune -r .
	[ "$status" = 8 ] || fail "update: exit $status, want 8: $output"
	sha256sum -c SUMS || fail "sha256sum -c fails:" "$(cat SUMS)"
}

@test "settle: --against compares a tagged SHA-256 list with an untagged one as equal" {
	printf 'f\n' >f; printf 'g\n' >g
	sha256sum --tag f g >OLD
	sha256sum f g >NEW
	run fhsum --audit=OLD --against=NEW
	[ "$status" = 0 ] || fail "exit $status, want 0: $output"
	[[ $output != *CHANGED* ]] || fail "$output"
	run fhsum --audit=NEW --against=OLD
	[ "$status" = 0 ] || fail "reversed: exit $status, want 0: $output"
}

@test "settle: a list mixing SHA-256 and SHA3-256 --meta lines scrubs clean, with or without their names" {
	printf 'a\n' >a; printf 'b\n' >b
	fhsum -a sha256 --meta a >L
	fhsum -a sha3-256 --meta b >>L
	grep -q ' algorithm=sha256$' L || fail "--meta does not name SHA-256:" "$(cat L)"
	grep -q ' algorithm=sha3-256$' L || fail "--meta does not name SHA3-256:" "$(cat L)"
	for i in 1 2 3; do
		run fhsum --scrub=L
		[ "$status" = 0 ] || fail "scrub $i: exit $status: $output"
		[[ $output != *DAMAGED* ]] || fail "scrub $i: $output"
	done
	# An older list without the names: a second look, and no false alarm.
	fhsum -a sha256 --meta a | sed 's/ algorithm=.*//' >M
	fhsum -a sha3-256 --meta b | sed 's/ algorithm=.*//' >>M
	for i in 1 2; do
		run fhsum --scrub=M
		[ "$status" = 0 ] || fail "unnamed scrub $i: exit $status: $output"
		[[ $output != *DAMAGED* ]] || fail "unnamed scrub $i: $output"
	done
	grep -q 'algorithm=' M || fail "the scrub did not name the odd one out:" "$(cat M)"
	[ "$(grep -c '^#fhsum size=' M)" = 2 ] || fail "metadata lost:" "$(cat M)"
	sha256sum -c --ignore-missing M 2>/dev/null | grep -qx 'a: OK' || fail "sha256sum lost a"
}

@test "settle: a listed '-' is never read from standard input to settle" {
	printf 'a\n' >a
	# "-" first: the first entry of a length was the one read to settle.
	{ printf '%s  -\n' "$(printf x | sha256sum | cut -c1-64)"; sha256sum a; } >L
	cp L M
	local t0=$SECONDS
	run bash -c 'timeout -k 1 10 "$0" --scrub=M < <(exec sleep 15 2>/dev/null 3>&-)' "$FHSUM"
	[ $((SECONDS - t0)) -lt 8 ] || fail "--scrub waited on standard input ($((SECONDS - t0)) s): $output"
	[[ $output != *"-: CHANGED"* ]] || fail "$output"
	run bash -c '"$0" --audit=L a </dev/null' "$FHSUM"
	[ "$status" = 0 ] || fail "--audit=L a: exit $status: $output"
}

@test "settle: a listed FIFO that no operand names is never opened, by --audit or --scrub" {
	printf 'a\n' >a; printf 'b\n' >b
	mkfifo p
	{ printf '%s  p\n' "$(printf y | sha256sum | cut -c1-64)"; sha256sum a b; } >L
	run timeout -k 1 10 "$FHSUM" --audit=L a b
	[ "$status" = 0 ] || fail "--audit=L a b: exit $status (124: hung): $output"
	run timeout -k 1 10 "$FHSUM" --scrub=L
	[ "$status" != 124 ] && [ "$status" != 137 ] || fail "--scrub=L hung: $output"
	[[ $output == *"a: OK"* || $status == 32 ]] || fail "--scrub=L: exit $status: $output"
}

@test "settle: files out of scope, excluded or not read by --update are never read to settle" {
	command -v strace >/dev/null || skip "strace not installed"
	[ -z "${FHSUM_WRAPPER-}" ] || skip "traces the native binary"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	mkdir skip small
	head -c 300000 /dev/zero >skip/big
	printf 'a\n' >small/a
	sha256sum skip/big small/a >L
	opened() { grep -E 'open(at)?\(.*"[^"]*big"' trace | grep -v ENOENT || :; }
	strace -f -qq -e trace=open,openat -e signal=none -o trace "$FHSUM" --audit=L --exclude=skip/ -r . >/dev/null 2>&1 || :
	[ -z "$(opened)" ] || fail "--audit --exclude=skip/ read skip/big:" "$(opened)"
	strace -f -qq -e trace=open,openat -e signal=none -o trace "$FHSUM" --audit=L small >/dev/null 2>&1 || :
	[ -z "$(opened)" ] || fail "--audit=L small read skip/big:" "$(opened)"
	fhsum -a sha256 --meta skip/big small/a | sed 's/ algorithm=.*//' >M
	strace -f -qq -e trace=open,openat -e signal=none -o trace "$FHSUM" --scrub=M --max-bytes=1K small >/dev/null 2>&1 || :
	[ -z "$(opened)" ] || fail "--scrub --max-bytes=1K small read skip/big:" "$(opened)"
	strace -f -qq -e trace=open,openat -e signal=none -o trace "$FHSUM" --update=M small >/dev/null 2>&1 || :
	[ -z "$(opened)" ] || fail "--update=M small (metadata unchanged) read skip/big:" "$(opened)"
}

@test "settle: -c of an untagged list settles on a small file, N ways, and keeps every verdict right" {
	head -c 3000000 /dev/urandom >big
	printf 'a\n' >a; printf 'b\n' >b
	sha256sum big a b >S2
	python3 - big a b >S3 <<'PY'
import hashlib, sys
for n in sys.argv[1:]:
    print(hashlib.sha3_256(open(n, "rb").read()).hexdigest() + "  " + n)
PY
	run fhsum -c S2
	[ "$status" = 0 ] && [ "$output" = $'big: OK\na: OK\nb: OK' ] || fail "sha256sum list: $status: $output"
	run fhsum -c S3
	[ "$status" = 0 ] || fail "SHA3-256 list: $status: $output"
	cat S2 S3 >mixed
	run fhsum -c mixed
	[ "$status" = 0 ] || fail "a list mixing both: $status: $output"
	printf 'A\n' >a
	run fhsum -c S2
	[ "$status" = 1 ] && [[ $output == *"a: FAILED"* && $output == *"big: OK"* ]] ||
		fail "one changed: $status: $output"
	for j in 1 2 4; do
		run fhsum -j "$j" -c S2
		[ "$status" = 1 ] || fail "-j $j: $status: $output"
	done
}

@test "settle: a large file of an untagged list is hashed with one candidate at a time, the cheap and the common first, until one matches" {
	command -v b3sum >/dev/null && command -v b2sum >/dev/null || skip "b3sum and b2sum (oracles) not installed"
	# 5 MiB: past the size from which the common algorithm goes first.
	head -c 5242880 /dev/urandom >big
	sha256sum big >S; sha512sum big >S512; md5sum big >M; b3sum big >B; b2sum big >B2
	python3 - big >T <<'PY'
import hashlib, sys
print(hashlib.sha3_256(open(sys.argv[1], "rb").read()).hexdigest() + "  " + sys.argv[1])
PY
	for l in S S512 M B B2 T; do
		run fhsum -c "$l"
		[ "$status" = 0 ] && [ "$output" = "big: OK" ] || fail "$l: $status: $output"
	done
	# The verdict a large file shows holds for the small files after it.
	printf 'a\n' >a
	b3sum big a >B3
	run fhsum -c B3
	[ "$status" = 0 ] && [ "$output" = $'big: OK\na: OK' ] || fail "B3: $status: $output"
	cp big saved
	printf 'X' | dd of=big bs=1 seek=4000000 conv=notrunc 2>/dev/null
	for l in S B T; do
		run fhsum -c "$l"
		[ "$status" = 1 ] && [[ $output == "big: FAILED"* ]] || fail "$l, changed: $status: $output"
	done
	cp saved big
	# Reads: one candidate a pass, cheap and common first (BLAKE3, then
	# SHA-256, then SHA3-256), each pass read whole where windows are
	# read, and nothing read where they are mapped.
	command -v strace >/dev/null || skip "strace not installed"
	[ -z "${FHSUM_WRAPPER-}" ] || skip "traces the native binary"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	passes() { # FEED LIST: the file's bytes read, in passes over it
		FHSUM_FEED=$1 strace -f -qq -e trace=read,pread64,readv,preadv,preadv2 -e signal=none -o trace "$FHSUM" -c "$2" >/dev/null 2>&1 || :
		awk '/(read|readv|pread64|preadv|preadv2)(\(| resumed)/ && $(NF - 1) == "=" { n = $NF; if (n ~ /^[0-9]+$/) t += n } END { print int(t / 5242880) }' trace
	}
	[ "$(passes read B)" = 1 ] || fail "BLAKE3 list: $(passes read B) passes, want 1"
	[ "$(passes read S)" = 2 ] || fail "SHA-256 list: $(passes read S) passes, want 2"
	[ "$(passes read T)" = 3 ] || fail "SHA3-256 list: $(passes read T) passes, want 3"
	[ "$(passes map T)" = 0 ] || fail "SHA3-256 list, mapped: $(passes map T) passes read, want 0"
}

@test "settle: --update of a file named as an operand accepts its content, DAMAGED or not" {
	printf 'good\n' >x
	fhsum -a md5 --meta x >L
	cp -p x keep
	printf 'baad\n' >x
	touch -r keep x
	run fhsum --audit=L x
	[ "$status" = 16 ] || fail "not DAMAGED: $status: $output"
	run fhsum --update=L x
	run fhsum --audit=L x
	[ "$status" = 0 ] || fail "still $status after --update=L x: $output"
	[ "$(grep -v '^#' L | cut -c1-32)" = "$(md5sum <x | cut -c1-32)" ] || fail "$(cat L)"
}

@test "settle: --update -a of another algorithm than the list's lines: refused when a file shows it, tags kept as theirs" {
	printf '1\n' >x; printf '2\n' >y; printf '3\n' >z
	sha256sum x y >L
	cp L L.before
	run fhsum --update=L -a blake3 x y z
	[ "$status" = 64 ] || fail "exit $status, want 64: $output"
	[[ $output == *"L: the line of x is sha256's by its content, not blake3's (-a): the list was not updated"* ]] ||
		fail "$output"
	cmp -s L L.before || fail "the list changed:" "$(cat L)"
	# An audit says it beside its CHANGED lines.
	run fhsum --audit=L -a blake3 x y
	[ "$status" = 4 ] && [[ $output == *"WARNING: the line of x is sha256's by its content, not blake3's (-a)"* ]] ||
		fail "--audit: exit $status: $output"
	# The list's own algorithm named: updated.
	run fhsum --update=L -a sha256 x y z
	[ "$status" = 1 ] || fail "-a sha256: exit $status: $output"
	sha256sum -c L >/dev/null || fail "sha256sum -c:" "$(cat L)"
	# A tagged line of another algorithm is that file's entry under -a,
	# never an improper line whose file is then NEW and listed twice.
	sha256sum --tag x y >T
	run fhsum --update=T -a blake3 x y z
	[ "$status" = 1 ] && [ "$output" = "z: NEW
fhsum: WARNING: 1 new file" ] || fail "tagged: exit $status: $output"
	[ "$(grep -c '(x)' T)" = 1 ] || fail "x listed twice:" "$(cat T)"
	run fhsum -c T
	[ "$status" = 0 ] || fail "-c T: $output"
}
