#!/usr/bin/env bats
# BLAKE2b and BLAKE3: fhsum -a blake2b/blake3 against GNU b2sum and b3sum,
# the b2sum link against GNU b2sum 9.1 and the b3sum link against b3sum
# 1.2.0, byte for byte (stdout, stderr, exit status), and untagged lists of
# b2sum, b3sum, sha256sum and sha512sum settled by content.  Each test
# skips where its oracle is not installed.

load helper

setup() {
	common_setup
	printf 'hello\n' >f
	: >empty
	printf 'a\nb' >'we\ird'
	python3 -c 'import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(200000)))' >big
	python3 -c 'import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(1025)))' >chunk1
}

need() { command -v "$1" >/dev/null || skip "$1 is not installed"; }

# same_as ORACLE ARGS...: ORACLE ARGS and fhsum under ORACLE's name, the same
# bytes on stdout and stderr, the same exit status; stdin is $IN or empty.
same_as() {
	local tool=$1
	shift
	capture want "$tool" "$@" <"${IN:-/dev/null}"
	capture got fhsum_as "$tool" "$@" <"${IN:-/dev/null}"
	compare_runs "$tool $*" want got
}

# gen_same ORACLE-CMD -- FHSUM-ARGS: generation, the same bytes.
gen_same() {
	local -a oracle=()
	while [ "$1" != -- ]; do oracle+=("$1"); shift; done
	shift
	capture want "${oracle[@]}"
	capture got fhsum "$@"
	compare_runs "${oracle[*]} / fhsum $*" want got
}

@test "blake: fhsum -a blake2b writes what b2sum writes, at every -l, tagged or not" {
	need b2sum
	gen_same b2sum f empty big chunk1 'we\ird' -- -a blake2b f empty big chunk1 'we\ird'
	for l in 8 128 256 384 504 512; do
		gen_same b2sum -l $l f big -- -a blake2b -l $l f big
		gen_same b2sum --tag -l $l f big 'we\ird' -- -a blake2b --tag -l $l f big 'we\ird'
		gen_same b2sum -z -l $l f 'we\ird' -- -a blake2b -z -l $l f 'we\ird'
	done
}

@test "blake: fhsum -a blake2b refuses a bad -l in b2sum's words" {
	need b2sum
	for l in 7 513 520 1024 abc -8 99999999999999999999999; do
		capture want b2sum -l "$l" f
		capture got fhsum -a blake2b -l "$l" f
		sed -i 's/^PROG: /b2sum: /' got.err
		sed -i 's/^PROG: /b2sum: /' want.err
		compare_runs "-l $l" want got
	done
}

@test "blake: fhsum -a blake3 writes what b3sum writes, at every -l" {
	need b3sum
	gen_same b3sum f empty big chunk1 -- -a blake3 f empty big chunk1
	for bytes in 1 16 32 33 64 100 131 1000; do
		gen_same b3sum --length $bytes f big -- -a blake3 -l $((8 * bytes)) f big
	done
}

@test "blake: untagged b2sum, b3sum, sha256sum and sha512sum lists settle by content" {
	need b2sum
	need b3sum
	b2sum f big chunk1 >L.b2
	b3sum f big chunk1 >L.b3
	sha256sum f big chunk1 >L.s256
	sha512sum f big chunk1 >L.s512
	for l in L.b2 L.b3 L.s256 L.s512; do
		run fhsum -c "$l"
		[ "$status" = 0 ] || fail "fhsum -c $l: exit $status" "$output"
		[ "$output" = "$(printf 'f: OK\nbig: OK\nchunk1: OK')" ] || fail "fhsum -c $l:" "$output"
	done
	# A list settled as BLAKE3 fails a file changed since, and says so.
	printf 'changed\n' >f
	run fhsum -c L.b3
	[ "$status" = 1 ] && [[ $output == *"f: FAILED"* ]] || fail "changed file: $status $output"
	# Tagged lines name their algorithm, lengths in the tag included.
	b2sum --tag -l 256 big >T
	b3sum big | awk '{ print "BLAKE3 (" $2 ") = " $1 }' >>T
	run fhsum -c T
	[ "$status" = 0 ] || fail "tagged BLAKE2b-256 and BLAKE3 lines: $output"
}

@test "blake: the b2sum link is GNU b2sum: generation, --tag, -z, -l, escapes" {
	need b2sum
	same_as b2sum f empty big 'we\ird'
	same_as b2sum --tag f 'we\ird'
	same_as b2sum -z f 'we\ird'
	same_as b2sum -l 256 --tag f
	same_as b2sum --length=16 f
	same_as b2sum --le=8 -b f
	for l in 7 513 520 1024 0 abc -8 ' 16' +16 99999999999999999999999; do
		same_as b2sum -l "$l" f
	done
	same_as b2sum nonexistent f
	same_as b2sum -a md5 f
	same_as b2sum -l
	same_as b2sum --tag --text f
}

@test "blake: the b2sum link is GNU b2sum under -c and its options" {
	need b2sum
	need sha256sum
	b2sum f big >l512
	b2sum -l 256 f big >l256
	b2sum --tag -l 256 f >t256
	# (Not 'we\ird': its status line is escaped, as GNU 9.4 and later
	# and every GNU name of fhsum escape it; b2sum 9.1 does not.)
	b2sum --tag f >t512
	sha256sum f >s256
	{ cat l512; echo garbage; echo "BLAKE2b-1024 (f) = 00"; echo "SHA256 (f) = 00"; } >bad
	same_as b2sum -c l512 l256 t256 t512
	same_as b2sum -l 128 -c l256
	same_as b2sum -c s256
	for o in --quiet --status -w --strict --ignore-missing; do
		same_as b2sum -c $o bad
	done
	echo "$(b2sum f | cut -c1-128)  missing" >miss
	same_as b2sum -c --ignore-missing miss
	same_as b2sum -c miss
	same_as b2sum -c --tag l512
	same_as b2sum -c -z l512
	IN=l512 same_as b2sum -c
}

@test "blake: under GNU names -c reads hex digests alone: a base64 one is improper, as in 9.1" {
	need b2sum
	need sha256sum
	local b64='import base64, sys; print(base64.b64encode(bytes.fromhex(sys.stdin.read().split()[0])).decode())'
	local d
	d=$(b2sum f | python3 -c "$b64") || skip "python3 not available"
	printf '%s  f\n' "$d" >u512
	printf 'BLAKE2b (f) = %s\n' "$d" >t512
	d=$(b2sum -l 24 f | python3 -c "$b64")
	printf '%s  f\n' "$d" >u24
	printf 'more junk\n' >junk
	d=$(sha256sum f | python3 -c "$b64")
	printf '%s  f\n' "$d" >s256
	same_as b2sum -c u512
	same_as b2sum -c t512
	same_as b2sum -c -w u24 junk
	same_as sha256sum -c s256
	# fhsum's own name reads base64 (fhsum(1)).
	run fhsum -c u512 t512 s256
	[ "$status" = 0 ] || fail "fhsum -c: $status: $output"
}

@test "blake: the b3sum link is b3sum: generation, --length, --no-names, --raw, threads, mmap" {
	need b3sum
	same_as b3sum f empty big chunk1 'we\ird'
	same_as b3sum --no-names f big
	same_as b3sum --raw big
	same_as b3sum -l 8 f
	same_as b3sum --length 0 f
	same_as b3sum --length=131 big
	same_as b3sum --length x f nonexistent
	same_as b3sum nonexistent f /tmp
	same_as b3sum --raw f big
	same_as b3sum --num-threads 1 big
	same_as b3sum --num-threads=2 --no-mmap -- big chunk1
	same_as b3sum --num-threads x f
	same_as b3sum --bogus
	same_as b3sum --quiet f
	IN=big same_as b3sum
	IN=big same_as b3sum --raw -l 100
}

@test "blake: a large file on a team of threads is b3sum's: windows mapped or read, --no-mmap, from an offset, keyed, derive-key, long output" {
	need b3sum
	local feed bad=0 feeds="map read"
	[ "${FHSUM_QUICK:-0}" = 1 ] && feeds=read
	# Two 8 MiB windows and a tail past a leaf's end; teams start at
	# 4 MiB.  Its leaves (32 KiB) run on both threads and its chaining
	# values are merged in order: a leaf hashed wrong, or merged out of
	# order, changes every digest below.
	head -c $((17 * 1048576 + 12345)) /dev/urandom >large
	head -c 32 large >key
	b3sum large >want
	b3sum --length 200 large >want.long
	b3sum --keyed large <key >want.keyed
	b3sum --derive-key ctx large >want.derive
	(head -c 4097 >/dev/null; b3sum) <large >want.off
	for feed in $feeds; do
		[ "$(FHSUM_FEED=$feed fhsum -a blake3 -j2 large)" = "$(cat want)" ] ||
			{ echo "$feed -j2" >&2; bad=1; }
		[ "$(FHSUM_FEED=$feed fhsum_as b3sum --num-threads 2 -l 200 large)" = "$(cat want.long)" ] ||
			{ echo "$feed -l 200" >&2; bad=1; }
		[ "$(FHSUM_FEED=$feed fhsum_as b3sum --num-threads 2 --keyed large <key)" = "$(cat want.keyed)" ] ||
			{ echo "$feed --keyed" >&2; bad=1; }
		[ "$(FHSUM_FEED=$feed fhsum_as b3sum --num-threads 2 --derive-key ctx large)" = "$(cat want.derive)" ] ||
			{ echo "$feed --derive-key" >&2; bad=1; }
		[ "$( (head -c 4097 >/dev/null; FHSUM_FEED=$feed fhsum_as b3sum --num-threads 2) <large)" = "$(cat want.off)" ] ||
			{ echo "$feed from offset 4097" >&2; bad=1; }
	done
	[ "$(fhsum -a blake3 -j2 --no-mmap large)" = "$(cat want)" ] || { echo "--no-mmap -j2" >&2; bad=1; }
	[ "$(fhsum -a blake3 -j1 large)" = "$(cat want)" ] || { echo "-j1" >&2; bad=1; }
	return $bad
}

@test "blake: a large file listed before a smaller one gets a team once the smaller is done, and stays b3sum's" {
	need b3sum
	# Alone on its thread while the small file waits, the large one is
	# joined at a window's end when the other thread is free: the rest
	# of it, from that offset on, is hashed by a team, in its larger
	# windows (32 MiB after the first 8), or read by its threads.
	head -c $((64 * 1048576 + 12345)) /dev/urandom >large
	head -c 100000 /dev/urandom >small
	local want bad=0 feed feeds="map read"
	want=$(b3sum large small)
	[ "${FHSUM_QUICK:-0}" = 1 ] && feeds=map
	for feed in $feeds; do
		[ "$(FHSUM_FEED=$feed fhsum -a blake3 -j2 large small)" = "$want" ] ||
			{ echo "$feed -j2" >&2; bad=1; }
	done
	[ "$(fhsum -a blake3 -j2 --no-mmap large small)" = "$want" ] || { echo "--no-mmap -j2" >&2; bad=1; }
	[ "$(fhsum -a kt128 -j2 large small)" = "$(fhsum -a kt128 -j1 large small)" ] ||
		{ echo "kt128 -j2 against -j1" >&2; bad=1; }
	if can_trace; then
		# When the team comes depends on the threads' timing: a loaded
		# machine gets three tries.
		local try ok=0
		for try in 1 2 3; do
			trace_fhsum mmap -a blake3 -j2 large small
			# Only the large file's team windows are mapped that
			# large (a thread's call may be split by another's in the
			# trace: no fd).
			awk '/mmap\(NULL, [0-9]+, PROT_READ, MAP_SHARED/ {
				split($0, a, ", "); if (a[2] + 0 >= 32 * 1048576) big = 1 }
			     END { exit !big }' trace && { ok=1; break; }
		done
		[ "$ok" = 1 ] ||
			{ echo "no team's window of the large file (3 tries)" >&2; grep mmap trace | tail -8 >&2; bad=1; }
		# Read (--no-mmap), the team's threads read their own parts:
		# two threads read with pread, the large file's only reader.
		ok=0
		for try in 1 2 3; do
			trace_fhsum pread64 -a blake3 -j2 --no-mmap large small
			[ "$(awk '/pread64\(/ { n[$1]++ } END { for (t in n) k += n[t] >= 8; print k + 0 }' trace)" -ge 2 ] &&
				{ ok=1; break; }
		done
		[ "$ok" = 1 ] || { echo "--no-mmap: no team read the large file (3 tries)" >&2; bad=1; }
	fi
	return $bad
}

@test "blake: the b3sum link is b3sum under --keyed and --derive-key" {
	need b3sum
	head -c 32 big >key
	IN=key same_as b3sum --keyed f big chunk1
	IN=key same_as b3sum --keyed f -
	IN=f same_as b3sum --keyed f
	IN=big same_as b3sum --keyed f
	same_as b3sum --keyed
	same_as b3sum --keyed --derive-key ctx f
	same_as b3sum --derive-key 'BLAKE3 2019-12-27 16:29:52 test vectors context' f big chunk1
}

@test "blake: the b3sum link is b3sum under -c and --quiet" {
	need b3sum
	b3sum f big chunk1 'we\ird' >list
	{ echo garbage; cat list; echo; echo "0000000000000000000000000000000000000000000000000000000000000000  f"; } >bad
	sed 's/  / */' list >star
	tr a-f A-F <list >upper
	printf '\\%s  f\\x\n' "$(b3sum --no-names f)" >badesc
	echo "$(b3sum --no-names f)  missing" >miss
	same_as b3sum -c list
	same_as b3sum -c bad star upper badesc miss
	same_as b3sum -c --quiet bad
	same_as b3sum --check list /tmp
	same_as b3sum -c nolist
	same_as b3sum -c --no-names list
	same_as b3sum -c --length 8 list
	IN=list same_as b3sum -c
	# A line that is not UTF-8 ends the run there: the lines before it
	# are checked, from a file or from stdin, and no list after it is.
	{ cat list; printf 'x\377\n'; cat list; } >notutf8
	printf '%s  \355\240\200\n' "$(b3sum --no-names f)" >surrogate
	same_as b3sum -c notutf8 list
	same_as b3sum -c list surrogate list
	IN=notutf8 same_as b3sum -c
	IN=notutf8 same_as b3sum -c - list
}

@test "blake: the b3sum link reads its arguments as b3sum's parser does" {
	need b3sum
	local args bad=0
	# Each line draws one answer from b3sum (where two errors apply it
	# picks one at random, so none of these has two).
	while IFS= read -r args; do
		# shellcheck disable=SC2086
		capture want b3sum $args </dev/null
		# shellcheck disable=SC2086
		capture got fhsum_as b3sum $args </dev/null
		compare_runs "b3sum $args" want got || bad=1
	done <<-'EOF'
		-l
		-l --raw f
		-l --raw --no-mmap f
		--length -- f
		-l -- f
		-l -5 f
		-l= f
		-l=3 f
		-l3 f
		-cl 3 f
		-c=x f
		-c --bogus --raw
		-l --raw --bogus
		--keyed --bogus
		--derive-key x --keyed --bogus
		--keyed --derive-key x -l
		--keyed -c f
		--no-names --raw -c --keyed f
		-c -l 3 --raw f
		--derive-key -c f
		-l -c
		--quiet --raw -l
		--num-threads -1 f
		-c -c f
		-l 3 -l 4 f
		--quiet --quiet -c f
		--raw=x f
		--no-names=x f
		-xh
		-Vc
	EOF
	return $bad
}

@test "blake: the b3sum link, as b3sum, reads a closed stdin as empty and writes to a closed stdout" {
	need b3sum
	local run bad=0
	b3sum f >list
	for run in "" "-" "f -" "-c" "-c list"; do
		# shellcheck disable=SC2086
		capture want b3sum $run <&-
		# shellcheck disable=SC2086
		capture got fhsum_as b3sum $run <&-
		compare_runs "b3sum $run <&-" want got || bad=1
	done
	# (Not through capture, which gives the command a standard output.)
	local rc_want rc_got
	for run in "f" "-c list" "f nonexistent"; do
		rc_want=0 rc_got=0
		# shellcheck disable=SC2086
		b3sum $run >&- 2>want.err || rc_want=$?
		# shellcheck disable=SC2086
		fhsum_as b3sum $run >&- 2>got.err || rc_got=$?
		[ "$rc_want" = "$rc_got" ] && cmp -s want.err got.err && continue
		fail "b3sum $run >&-: exit $rc_got, b3sum $rc_want" "$(cat got.err)" "b3sum:" "$(cat want.err)"
		bad=1
	done
	return $bad
}

@test "blake: --update keeps a b3sum list b3sum's: no '#' line, which b3sum -c calls an error" {
	need b3sum
	b3sum f chunk1 >L
	printf more >>f
	run fhsum --update=L f chunk1 big
	[ "$status" = 5 ] || fail "exit $status, want 5 (new, changed): $output"
	! grep -q '^#' L || fail "a '#' line:" "$(cat L)"
	run b3sum -c L
	[ "$status" = 0 ] || fail "b3sum -c fails on the updated list:" "$output" "$(cat L)"
	# Read again, the list settles as BLAKE3 by the content of a file
	# the run reads; when the one named changed, none shows it, and the
	# list is left as it is until -a names the algorithm.
	printf more >>f
	cp L L.before
	run fhsum --update=L f
	[ "$status" = 64 ] && [[ $output == *"give -a; the list was not updated"* ]] ||
		fail "f alone, changed: exit $status, want 64: $output"
	cmp -s L L.before || fail "the list changed:" "$(cat L)"
	run fhsum --update=L f chunk1
	[ "$status" = 4 ] || fail "f and chunk1: exit $status, want 4: $output"
	printf more >>f
	run fhsum --update=L -a blake3 f
	[ "$status" = 4 ] || fail "-a blake3 f: exit $status, want 4: $output"
	run b3sum -c L
	[ "$status" = 0 ] || fail "again: b3sum -c:" "$output" "$(cat L)"
}

@test "blake: the b3sum link's --tag writes BSD lines, and -c reads them back, as b3sum 1.7 does" {
	need b3sum
	local h w
	h=$(b3sum --no-names f)
	w=$(b3sum --no-names 'we\ird')
	capture got fhsum_as b3sum --tag f 'we\ird'
	[ "$(cat got.rc)" = 0 ] || fail "status $(cat got.rc): $(cat got.err)"
	[ "$(cat got.out)" = "BLAKE3 (f) = $h"$'\n'"\\BLAKE3 (we\\\\ird) = $w" ] ||
		fail "--tag:" "$(cat got.out)"
	fhsum_as b3sum --tag f 'we\ird' >T
	run fhsum_as b3sum -c T
	[ "$status" = 0 ] && [ "$output" = $'f: OK\n\\we\\\\ird: OK' ] || fail "-c: $status: $output"
	run fhsum -c T
	[ "$status" = 0 ] || fail "fhsum -c: $status: $output"
	printf 'changed\n' >f
	run fhsum_as b3sum -c T
	[ "$status" = 1 ] && [[ $output == "f: FAILED"* ]] || fail "changed: $status: $output"
	run fhsum_as b3sum --tag -c T
	[ "$status" = 1 ] && [[ $output == *"'--tag' cannot be used with '--check'"* ]] || fail "$status: $output"
}
