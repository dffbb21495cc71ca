#!/usr/bin/env bats
# xxHash: -a xxh32, xxh64, xxh3, xxh128 against xxhsum (Debian's xxhash
# package, 0.8: the oracle), and fhsum invoked as xxhsum against xxhsum
# itself, stdout and status byte for byte, stderr once xxhsum's progress
# erasing (carriage returns, padding) is set aside.  Expected values come
# from xxhsum, never from fhsum.

load helper

setup() {
	common_setup
	command -v xxhsum >/dev/null || skip "xxhsum (the oracle) is not installed"
	printf 123456789 >nine
	printf hi >hi
	: >empty
	python3 -c 'import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(300000)))' >big
	printf 'x\ny' >'new
line'
}

# xxhsum's stderr without its progress erasing.
clean() { tr -d '\r' <"$1" | sed 's/ *$//' | grep -v '^$' || true; }

same_as_xxhsum() { # CMD
	local dir st=0
	dir=$(dirname "$(link_path xxhsum)")
	bash -c "$1" >x.out 2>x.err || st=$?
	echo "status $st" >>x.out
	st=0
	PATH=$dir:$PATH bash -c "$1" >fh.out 2>fh.err || st=$?
	echo "status $st" >>fh.out
	cmp -s x.out fh.out && [ "$(clean x.err)" = "$(clean fh.err)" ] ||
		fail "differs from xxhsum: $1" "--- xxhsum" "$(cat x.out; clean x.err)" \
			"--- fhsum" "$(cat fh.out; clean fh.err)"
}

@test "-a xxh32, xxh64, xxh128 and xxh3 give xxhsum -H0..-H3's digests, over every length to 2200 and the block edges" {
	python3 -c '
import sys
d = bytes(i % 251 for i in range(5000))
for n in list(range(0, 2200)) + [3071, 3072, 3073, 4095, 4096, 4097, 4999]:
    open("f%05d" % n, "wb").write(d[:n])'
	local h a
	for h in 0:xxh32 1:xxh64 2:xxh128 3:xxh3; do
		a=${h#*:}
		xxhsum -H${h%%:*} f* big 2>/dev/null |
			sed 's/^XXH3 (\(.*\)) = \(.*\)$/\2  \1/; s/^XXH3_//' >want.$a
		fhsum -a $a f* big >got.$a
		cmp want.$a got.$a || fail "$a differs from xxhsum -H${h%%:*}" "$(diff want.$a got.$a | head)"
	done
}

@test "as xxhsum, fhsum prints what xxhsum prints" {
	local cmd
	xxhsum nine hi >x64.l
	xxhsum -H2 nine hi >x128.l
	xxhsum -H3 nine hi >x3.l 2>/dev/null
	xxhsum -H0 nine hi >x32.l 2>/dev/null
	xxhsum --tag --little-endian nine >le.l 2>/dev/null
	printf '0123456789abcdef  nine\n' >bad.l
	printf 'junk\n' >>x64.l
	printf '8cb841db40e6ae83  missing\n' >>x32.l
	while IFS= read -r cmd; do
		same_as_xxhsum "$cmd"
	done <<'EOF2'
xxhsum nine hi empty big
xxhsum -H0 nine big
xxhsum -H32 nine
xxhsum -H1 nine
xxhsum -H2 nine big
xxhsum -H128 nine
xxhsum -H3 nine big empty
xxhsum --tag nine hi
xxhsum -H0 --tag nine
xxhsum -H2 --tag big
xxhsum --little-endian nine
xxhsum --little-endian -H0 --tag nine
xxhsum --little-endian -H2 nine
xxhsum --little-endian -H3 nine
xxhsum < big
xxhsum -H3 - < nine
xxhsum $'new\nline'
xxhsum missing nine
xxhsum nine -H0
xxhsum -c x64.l
xxhsum -c x128.l x3.l x32.l
xxhsum -c --strict x64.l
xxhsum -c --warn x64.l
xxhsum -c -q x64.l
xxhsum -cq x128.l
xxhsum -c --status bad.l
xxhsum -c bad.l
xxhsum -c le.l
xxhsum -c missing
xxhsum -c < x128.l
xxhsum -H5 nine
xxhsum --foo nine
xxhsum -h
EOF2
}

@test "as xxhsum: -H's digits and the options after them, -w, --, a leading -, directories, a list on stdin, names with a backslash or CR, and -c --little-endian's untagged lines" {
	local cmd
	mkdir dir
	printf x >'back\slash'
	printf y >$'c\rr'
	xxhsum nine 'back\slash' $'c\rr' >names.l 2>/dev/null
	xxhsum nine hi >x64.l 2>/dev/null
	printf 'junk\n8cb841db40e6ae83  missing\n' >>x64.l
	printf '%s  dir\n' "$(xxhsum nine 2>/dev/null | cut -d' ' -f1)" >dir.l
	xxhsum hi 2>/dev/null >>dir.l
	{
		xxhsum --little-endian nine big
		xxhsum --little-endian -H0 nine
		xxhsum --little-endian -H2 nine
		xxhsum nine
	} >leun.l 2>/dev/null
	while IFS= read -r cmd; do
		same_as_xxhsum "$cmd"
	done <<'EOF2'
xxhsum -H nine
xxhsum -H0q nine
xxhsum -H3q nine
xxhsum -H064 nine
xxhsum -H32x nine
xxhsum -H99999999999 nine
xxhsum -- nine
xxhsum -- -H3
xxhsum - nine < hi
xxhsum - < hi
xxhsum -c -w x64.l
xxhsum -cw x64.l
xxhsum dir
xxhsum nine dir hi
xxhsum -c dir
xxhsum -c dir x64.l
xxhsum -c < x64.l
xxhsum -c names.l
xxhsum -c --little-endian leun.l
xxhsum --little-endian -c leun.l
xxhsum -c leun.l
EOF2
	# xxhsum 0.8.1 gives up the whole run at a listed directory ("Error: a
	# failure occurred reading the input file."); as fhsum does for any
	# file it cannot read, the link says so and checks the others.
	run fhsum_as xxhsum -c dir.l
	[ "$status" = 1 ] && [[ $output == *"dir.l:1: Could not open or read 'dir': Is a directory"* ]] &&
		[[ $output == *"hi: OK"* ]] || fail "$output"
}

@test "as xxhsum, -c reads lines as xxhsum 0.8.1 does: blank lines, '#', a leading blank or '\\', a tab, '=  ' and a tagged CRLF improper; an untagged CR the name's; one space skipping a byte; a lowercase tag" {
	local cmd h a
	printf x >a
	printf y >$'a\r'
	h=$(xxhsum nine 2>/dev/null | cut -d' ' -f1)
	a=$(xxhsum a 2>/dev/null | cut -d' ' -f1)
	{
		xxhsum nine hi
		printf '\n# comment\n#\n\\%s  nine\n %s  nine\n%s\tnine\n' "$h" "$h" "$h"
		printf 'XXH64 (nine) =  %s\nXXH64 (nine) = %s\r\n%s  a\r\n' "$h" "$h" "$a"
		printf '%s a\n%s xa\nxxh64 (nine) = %s\n' "$a" "$a" "$h"
		xxhsum --tag hi
		xxhsum -H0 nine
		xxhsum -H1 hi
		xxhsum -H2 nine
		xxhsum -H3 hi
		xxhsum --tag -H0 hi
	} >mixed.l 2>/dev/null
	# Good lines but for a blank one and a comment: --strict's status.
	{ xxhsum nine; printf '\n# comment\n'; xxhsum --tag -H2 hi; } >blank.l 2>/dev/null
	printf '\n# only comments\n' >none.l
	while IFS= read -r cmd; do
		same_as_xxhsum "$cmd"
	done <<'EOF2'
xxhsum -c mixed.l
xxhsum -c -q mixed.l
xxhsum -c --quiet mixed.l
xxhsum -c --status mixed.l
xxhsum -c --strict mixed.l
xxhsum -c -w mixed.l
xxhsum -c --warn --strict -q mixed.l
xxhsum -c < mixed.l
xxhsum -c blank.l
xxhsum -c --strict blank.l
xxhsum -c --strict --status blank.l
xxhsum -c -w blank.l
xxhsum -c none.l
xxhsum -c -w none.l
EOF2
}

@test "XXH128's untagged lines are not MD5's, nor XXH32's CRC-32's: settled by content" {
	xxhsum -H2 nine hi big >x128.l
	xxhsum -H0 nine hi big >x32.l
	md5sum nine hi big >md5.l
	for l in x128.l x32.l md5.l; do
		run fhsum -c $l
		[ "$status" = 0 ] && [ "${#lines[@]}" = 3 ] || fail "$l: $output"
	done
	printf x >>hi
	run fhsum -c x128.l
	[ "$status" = 1 ] && [[ $output == *"hi: FAILED"* ]] || fail "$output"
}

@test "an XXH32 line of decimal digits before a name that starts with digits and a space is that name's, not a cksum line" {
	# XXH32("c53") is 82109642: the line has the shape of cksum's
	# "VALUE SIZE NAME" but for its two blanks.
	printf c53 >'2 files'
	xxhsum -H0 '2 files' >l
	grep -qx '[0-9]\{8\}  2 files' l || fail "not the line this test needs: $(cat l)"
	run fhsum -c l
	[ "$status" = 0 ] && [ "$output" = "2 files: OK" ] || fail "$output"
}

@test "-c reads xxhsum's tags, --little-endian's _LE tags and 0.8.2's XXH3_ lines" {
	xxhsum --tag -H0 nine >t.l 2>/dev/null
	xxhsum --tag -H2 big >>t.l 2>/dev/null
	xxhsum --tag --little-endian -H1 hi >>t.l 2>/dev/null
	xxhsum -H3 big 2>/dev/null | sed 's/^XXH3 (\(.*\)) = \(.*\)$/XXH3_\2  \1/' >>t.l
	run fhsum -c t.l
	[ "$status" = 0 ] && [ "${#lines[@]}" = 4 ] || fail "$output" "$(cat t.l)"
	# The prefix names the algorithm as a tag does: -a must admit it.
	tail -1 t.l >x3.l
	for a in md5 sha2 sha3; do
		run fhsum -a $a -c x3.l
		[ "$status" = 1 ] && [[ $output == *"no properly formatted"* ]] ||
			fail "-a $a: $output"
	done
}

@test "--update keeps an xxhsum list xxhsum's: no '#' line that xxhsum --strict -c would call improper" {
	local h
	for h in 0 1 2 3; do
		xxhsum -H$h nine hi >L$h
		printf more >>hi
		run fhsum --update=L$h nine hi big
		[ "$status" = 5 ] || fail "-H$h: exit $status, want 5 (new, changed): $output"
		! grep -q '^#' L$h || fail "-H$h: a '#' line:" "$(cat L$h)"
		run xxhsum --strict -c L$h
		[ "$status" = 0 ] || fail "-H$h: xxhsum --strict -c fails on the updated list:" "$output" "$(cat L$h)"
		printf hi >hi
		# --little-endian's tags: the new and changed lines are xxhsum's.
		xxhsum -H$h --tag --little-endian nine hi >E$h
		printf more >>hi
		run fhsum --update=E$h nine hi big
		[ "$status" = 5 ] || fail "-H$h _LE: exit $status: $output"
		[ "$(sort E$h)" = "$(xxhsum -H$h --tag --little-endian nine hi big | sort)" ] ||
			fail "-H$h: not xxhsum --tag --little-endian's lines:" "$(cat E$h)"
		printf hi >hi
	done
	# xxhsum 0.8.2's untagged XXH3 lines keep their XXH3_ prefix (an
	# unprefixed 16-digit line is XXH64's to xxhsum).
	printf 'XXH3_%s  nine\n' "$(xxhsum -H3 nine | sed 's/.* = //')" >P
	printf more >>hi
	run fhsum --update=P nine hi
	[ "$status" = 1 ] || fail "XXH3_: exit $status: $output"
	[ "$(tail -1 P)" = "XXH3_$(xxhsum -H3 hi | sed 's/.* = //')  hi" ] || fail "XXH3_:" "$(cat P)"
	printf hi >hi
}
