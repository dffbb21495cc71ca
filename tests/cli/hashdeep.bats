#!/usr/bin/env bats
# hashdeep's lists ("%%%% HASHDEEP-1.0"), as hashdeep itself writes them:
# checked with -c (every column fhsum has, and the size), audited,
# updated in their own format (hashdeep's audit mode then accepts them),
# and under a GNU program's name read exactly as GNU reads them.
# Expected digests and verdicts come from hashdeep and GNU sha256sum.

load helper

setup() {
	common_setup
	command -v hashdeep >/dev/null || skip "hashdeep is not installed"
	mkdir -p t/sub
	echo hello >t/a
	printf 'x,y' >'t/sub/b,c'
	: >t/empty
}

# The names of hashdeep list $1's rows (columns md5,sha256), in its order.
row_names() {
	grep -v -e '^%%%%' -e '^#' "$1" | sed -E 's/^[0-9]+,[0-9a-f]{32},[0-9a-f]{64},//'
}

# "NAME: OK" for every row of list $1.
all_ok() {
	row_names "$1" | sed 's/$/: OK/'
}

# Replaces, in the row of list $1 naming $2, field $3 (1: the size) by $4.
set_field() {
	awk -v name="$2" -v f="$3" -v val="$4" 'BEGIN { FS = OFS = "," }
		/^[0-9]/ && substr($0, length($0) - length(name) + 1) == name &&
		substr($0, length($0) - length(name), 1) == "," { $f = val }
		{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
}

@test "hashdeep: -c of hashdeep's list (absolute names, md5 and sha256): every row OK, exit 0" {
	hashdeep -c md5,sha256 -r t >L
	head -1 L | grep -qx '%%%% HASHDEEP-1.0' || fail "not a hashdeep list:" "$(cat L)"
	capture got fhsum -c L
	expect "absolute rows" 0 "$(all_ok L)" || return 1
	grep -q "^/.*/t/sub/b,c: OK$" got.out || fail "the name with a comma:" "$(cat got.out)"
	# With CRLF line ends, as hashdeep writes them on Windows.
	sed 's/$/\r/' L >L.crlf
	capture got fhsum -c L.crlf
	expect "CRLF" 0 "$(all_ok L)"
}

@test "hashdeep: -c FAILS a changed content of the same size, and a changed size" {
	hashdeep -l -r t >L
	echo hellp >t/a
	capture got fhsum -c L
	want=$(all_ok L | sed 's|^t/a: OK$|t/a: FAILED|')
	expect "same size, other content" 1 "$want" \
		"PROG: WARNING: 1 computed checksum did NOT match" || return 1
	echo hello >t/a
	echo more >>t/empty
	capture got fhsum -c L
	want=$(all_ok L | sed 's|^t/empty: OK$|t/empty: FAILED|')
	expect "size changed" 1 "$want" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "hashdeep: -c checks the size column and each digest column on its own" {
	hashdeep -l -r t >L
	# The digests are right: only the size column is wrong.
	cp L S && set_field S t/a 1 7
	capture got fhsum -c S
	expect "size tampered" 1 "$(all_ok L | sed 's|^t/a: OK$|t/a: FAILED|')" \
		"PROG: WARNING: 1 computed checksum did NOT match" || return 1
	# Only the md5 column, then only the sha256 column, is wrong.
	cp L M && set_field M t/a 2 "$(md5sum <t/empty | cut -c1-32)"
	cp L H && set_field H t/a 3 "$(sha256sum <t/empty | cut -c1-64)"
	for l in M H; do
		capture got fhsum -c $l
		expect "$l tampered" 1 "$(all_ok L | sed 's|^t/a: OK$|t/a: FAILED|')" \
			"PROG: WARNING: 1 computed checksum did NOT match" || return 1
	done
}

@test "hashdeep: -c of a row whose file is missing: FAILED open or read, GNU's warning" {
	hashdeep -l -r t >L
	rm t/a
	capture got fhsum -c L
	expect "missing" 1 "$(all_ok L | sed 's|^t/a: OK$|t/a: FAILED open or read|')" \
		"PROG: t/a: No such file or directory
PROG: WARNING: 1 listed file could not be read" || return 1
	capture got fhsum -c --ignore-missing L
	expect "--ignore-missing" 0 "$(all_ok L | grep -v '^t/a:')"
}

@test "hashdeep: -c leaves a column of an algorithm fhsum lacks unchecked and says so once" {
	hashdeep -c md5,sha1,tiger,whirlpool -l -r t >L
	capture got fhsum -c L
	names=$(grep -v -e '^%%%%' -e '^#' L | sed -E 's/^([^,]*,){5}//')
	expect "tiger and whirlpool" 0 "$(sed 's/$/: OK/' <<<"$names")" \
		"PROG: L: tiger: unsupported algorithm; its column is not checked
PROG: L: whirlpool: unsupported algorithm; its column is not checked" || return 1
	# The columns fhsum has are still checked.
	echo hellp >t/a
	capture got fhsum -c L
	grep -qx 't/a: FAILED' got.out || fail "a changed file passed:" "$(cat got.out)"
	# With no column fhsum has, nothing can be checked.
	hashdeep -c tiger -l -r t >T
	capture got fhsum -c T
	expect "tiger only" 1 "" "PROG: T: tiger: unsupported algorithm; its column is not checked
PROG: T: no properly formatted checksum lines found"
}

@test "hashdeep: -c of a sha1 list, and of a row that does not fit its columns" {
	hashdeep -c sha1 -l -r t >L
	capture got fhsum -c L
	names=$(grep -v -e '^%%%%' -e '^#' L | sed -E 's/^[0-9]+,[0-9a-f]{40},//')
	expect "sha1" 0 "$(sed 's/$/: OK/' <<<"$names")" || return 1
	# A digest one digit short is an improperly formatted line.
	sed -i -E '6s/^([0-9]+,)[0-9a-f]/\1/' L
	capture got fhsum -c -w L
	[ "$(cat got.rc)" = 0 ] && grep -qx 'PROG: L: 6: improperly formatted checksum line' got.err &&
		grep -qx 'PROG: WARNING: 1 line is improperly formatted' got.err ||
		fail "short digest: rc $(cat got.rc)" "$(cat got.err)"
}

@test "hashdeep: --audit of hashdeep's list of an unchanged tree reports nothing" {
	hashdeep -l -r t >L
	capture got fhsum --audit=L --quiet t
	expect "relative" 0 || return 1
	hashdeep -r "$PWD/t" >A
	capture got fhsum --audit=A --quiet "$PWD/t"
	expect "absolute" 0 || return 1
	# A changed size, a new file, a missing one.
	echo more >>t/empty
	echo new >t/new
	rm t/a
	capture got fhsum --audit=L t
	expect "changes" 7 "t/empty: CHANGED
t/sub/b,c: OK
t/new: NEW
t/a: MISSING" "PROG: WARNING: 1 file changed
PROG: WARNING: 1 new file
PROG: WARNING: 1 listed file missing"
}

@test "hashdeep: --update writes hashdeep rows that hashdeep's audit mode accepts" {
	hashdeep -l -r t >L
	cp L L.old
	echo new >t/new
	capture got fhsum --update=L t
	expect "update" 1 "t/new: NEW" "PROG: WARNING: 1 new file" || return 1
	# The old lines as they were, the new row as hashdeep writes it.
	head -n "$(wc -l <L.old)" L | cmp -s - L.old || fail "old lines changed:" "$(cat L)"
	[ "$(tail -1 L)" = "$(hashdeep -l t/new | tail -1)" ] ||
		fail "new row: $(tail -1 L)" "hashdeep's: $(hashdeep -l t/new | tail -1)"
	capture got hashdeep -a -l -k L -r t
	[ "$(cat got.rc)" = 0 ] || fail "hashdeep's audit:" "$(cat got.out got.err)"
	# A changed file's row is replaced in place; absolute names too.
	hashdeep -r "$PWD/t" >A
	echo changed >t/a
	capture got fhsum --update=A "$PWD/t"
	expect "absolute update" 4 "$PWD/t/a: CHANGED" "PROG: WARNING: 1 file changed" || return 1
	grep -qxF "$(hashdeep "$PWD/t/a" | tail -1)" A || fail "row of t/a:" "$(cat A)"
	capture got hashdeep -a -k A -r "$PWD/t"
	[ "$(cat got.rc)" = 0 ] || fail "hashdeep's audit (absolute):" "$(cat got.out got.err)"
	[ -z "$(ls -A | grep -v -x -e L -e L.old -e A -e t -e 'got.*' -e 'want.*')" ] ||
		fail "left beside the lists:" "$(ls -A)"
}

@test "hashdeep: --update killed at any moment leaves the old list or a whole new one" {
	local i n
	for i in $(seq 1 200); do echo "$i" >"t/f$i"; done
	hashdeep -l -r t >L
	for n in 1 2 3 4 5 6; do
		cp L L.old
		for i in $(seq 1 40); do echo "$n $i" >"t/n$n.$i"; done
		"${FHSUM_WRAP[@]}" "$FHSUM" --update=L t >/dev/null 2>&1 &
		sleep "0.0$((RANDOM % 10))"
		kill -9 $! 2>/dev/null || true
		wait $! || true
		# The old list, or a new one hashdeep's audit accepts whole.
		if ! cmp -s L L.old; then
			head -n "$(wc -l <L.old)" L | cmp -s - L.old ||
				fail "round $n: old lines changed" || return 1
			hashdeep -a -l -k L -r t >/dev/null ||
				fail "round $n: hashdeep's audit rejects the list:" "$(cat L)" || return 1
		fi
	done
	capture got fhsum --update=L t
	hashdeep -a -l -k L -r t >/dev/null || fail "after a clean update:" "$(cat L)"
	[ -z "$(ls -A | grep -v -x -e L -e L.old -e t -e 'got.*')" ] ||
		fail "left beside the list:" "$(ls -A)"
}

@test "hashdeep: --update of a list with a column fhsum lacks is refused, exit 64, list untouched" {
	hashdeep -c md5,tiger -l -r t >L
	cp L L.old
	echo new >t/new
	capture got fhsum --update=L t
	expect "tiger" 64 "" "PROG: L: tiger: unsupported algorithm: the list was not updated" || return 1
	cmp -s L L.old || fail "the list changed:" "$(cat L)"
	# Nor is a hashdeep list scrubbed: its rows keep no stamps.
	hashdeep -l -r t >S
	cp S S.old
	capture got fhsum --scrub=S
	[ "$(cat got.rc)" = 64 ] && cmp -s S S.old || fail "scrub: rc $(cat got.rc)" "$(cat got.err)"
}

@test "hashdeep: under the name sha256sum a hashdeep list reads as GNU sha256sum reads it" {
	command -v sha256sum >/dev/null || skip "GNU sha256sum is not installed"
	hashdeep -c md5,sha256 -l -r t >L
	hashdeep -c md5,sha1,sha256,tiger -r t >M
	link=$(link_path sha256sum)
	for l in L M; do
		for opt in "" -w --strict --status --quiet; do
			capture ref sha256sum -c $opt $l
			capture got fhsum_as sha256sum -c $opt $l
			sed -i "s|^$link: |sha256sum: |" got.err
			compare_runs "sha256sum -c $opt $l" ref got || return 1
		done
	done
	capture ref md5sum -c -w L
	capture got fhsum_as md5sum -c -w L
	compare_runs "md5sum -c -w" ref got
}
