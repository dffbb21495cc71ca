#!/usr/bin/env bats
# MD5 generation: fhsum -a md5 (and fhsum run as "md5sum") against GNU md5sum
# 9.1 byte for byte (stdout, stderr with the program name normalised, exit
# status).

load helper

setup() {
	common_setup
	printf 'abc' >a
	printf 'hello\n' >b
	: >empty
}

@test "md5 gen: one file prints 'HEX  NAME' as md5sum does" {
	same_as_md5sum a
}

@test "md5 gen: a link named md5sum hashes with MD5 without -a" {
	same_as_md5sum_link a b
}

@test "md5 gen: several operands keep operand order, repeats included" {
	same_as_md5sum b a empty a b
}

@test "md5 gen: 300 operands of mixed sizes come out in operand order" {
	local i args=()
	for i in $(seq 1 300); do
		head -c $((i * 37 % 5000)) /dev/zero | tr '\0' "$(printf "\\$(printf '%03o' $((i % 26 + 97)))")" >"f$i"
		args+=("f$((301 - i))")
	done
	same_as_md5sum "${args[@]}"
}

@test "md5 gen: the empty file" {
	same_as_md5sum empty
}

@test "md5 gen: no operand reads standard input, printed as '-'" {
	SUM_STDIN=b same_as_md5sum
}

@test "md5 gen: operand '-' reads standard input; a second '-' reads the exhausted stdin" {
	SUM_STDIN=b same_as_md5sum - a -
}

@test "md5 gen: standard input that is a pipe" {
	capture ref bash -c 'yes abcdefgh | head -c 300000 | md5sum - a'
	local l
	l=$(link_path md5sum)
	capture got bash -c 'yes abcdefgh | head -c 300000 | "$@"' _ "${FHSUM_WRAP[@]}" "$l" - a
	compare_runs "pipe into md5sum - a" ref got
	capture got2 bash -c 'yes abcdefgh | head -c 300000 | "${@}"' _ "${FHSUM_WRAP[@]}" "$FHSUM" -a md5 - a
	compare_runs "pipe into fhsum -a md5 - a" ref got2
}

@test "md5 gen: a file named '-' given as ./-, and a file named -b after --" {
	printf 'dash' >./-
	printf 'minus b' >./-b
	same_as_md5sum ./- -- -b
}

@test "md5 gen: options after operands still apply (GNU argument permutation)" {
	same_as_md5sum a b -b
	same_as_md5sum a --tag b
}

@test "md5 gen: names with space, tab, leading and trailing spaces are printed raw" {
	printf 1 >'with space'
	printf 2 >"$(printf 'tab\there')"
	printf 3 >'  lead'
	printf 4 >'trail  '
	same_as_md5sum 'with space' "$(printf 'tab\there')" '  lead' 'trail  '
}

@test "md5 gen: a name with a backslash is escaped (leading backslash, \\\\)" {
	printf 1 >'back\slash'
	printf 2 >'\'
	printf 3 >'\\lead'
	same_as_md5sum 'back\slash' '\' '\\lead'
}

@test "md5 gen: a name with a newline is escaped as \\n" {
	printf 1 >"$(printf 'new\nline')"
	printf 2 >"$(printf 'two\n\nnl')"
	same_as_md5sum "$(printf 'new\nline')" "$(printf 'two\n\nnl')"
}

@test "md5 gen: a name with a CR is escaped as \\r" {
	printf 1 >"$(printf 'cr\rx')"
	printf 2 >"$(printf 'all\\\r\nof them_')"
	same_as_md5sum "$(printf 'cr\rx')" "$(printf 'all\\\r\nof them_')"
}

@test "md5 gen: UTF-8 and invalid UTF-8 names are copied raw (C locale)" {
	printf 1 >"$(printf '\303\274ber')"
	printf 2 >"$(printf 'bad\377byte')"
	same_as_md5sum "$(printf '\303\274ber')" "$(printf 'bad\377byte')"
}

@test "md5 gen: UTF-8 names and their diagnostics in the C.UTF-8 locale" {
	locale -a 2>/dev/null | grep -qix 'c.utf-\?8' || skip "no C.UTF-8 locale"
	export LC_ALL=C.UTF-8
	printf 1 >"$(printf '\303\274ber \342\202\254')"
	same_as_md5sum "$(printf '\303\274ber \342\202\254')" "$(printf 'missing-\303\274')" \
		"$(printf 'bad\377byte')" "$(printf 'new\nline-\303\274')"
}

@test "md5 gen: -b and --binary print '*' before the name" {
	same_as_md5sum -b a b
	same_as_md5sum --binary a
}

@test "md5 gen: -t and --text print ' ' before the name" {
	same_as_md5sum -t a b
	same_as_md5sum --text a
}

@test "md5 gen: the last of -b and -t wins" {
	same_as_md5sum -b -t a
	same_as_md5sum -t -b a
}

@test "md5 gen: -b with an escaped name" {
	printf 1 >"$(printf 'new\nline')"
	same_as_md5sum -b "$(printf 'new\nline')" a
}

@test "md5 gen: --tag prints 'MD5 (NAME) = HEX'" {
	same_as_md5sum --tag a b empty
}

@test "md5 gen: --tag with stdin, -b, and '--tag --binary'" {
	SUM_STDIN=b same_as_md5sum --tag - a
	same_as_md5sum -b --tag a
	same_as_md5sum --tag --binary a
}

@test "md5 gen: --tag escapes names with backslash, newline, CR" {
	printf 1 >"$(printf 'new\nline')"
	printf 2 >'back\slash'
	printf 3 >"$(printf 'cr\rx')"
	printf 4 >'x) = y'
	same_as_md5sum --tag "$(printf 'new\nline')" 'back\slash' "$(printf 'cr\rx')" 'x) = y'
}

@test "md5 gen: -z ends lines with NUL and does not escape names" {
	printf 1 >"$(printf 'new\nline')"
	printf 2 >'back\slash'
	printf 3 >"$(printf 'cr\rx')"
	same_as_md5sum -z a "$(printf 'new\nline')" 'back\slash' "$(printf 'cr\rx')"
	same_as_md5sum --zero b
}

@test "md5 gen: -z with --tag and with -b" {
	printf 1 >"$(printf 'new\nline')"
	same_as_md5sum -z --tag a "$(printf 'new\nline')"
	same_as_md5sum -z -b a "$(printf 'new\nline')"
}

@test "md5 gen: a missing file is reported, the others are printed, exit 1" {
	same_as_md5sum a nosuch b
}

@test "md5 gen: missing names are shell-quoted in diagnostics" {
	same_as_md5sum ' lead' 'a b' "it's" "$(printf 'new\nline')" 'back\slash' "$(printf 'tab\tx')"
}

@test "md5 gen: a directory operand is 'Is a directory', the others are printed, exit 1; under fhsum's own name with what to do" {
	mkdir d
	# As md5sum, byte for byte, under its name.
	same_as_md5sum_link a d b || return 1
	# Under fhsum's own name the same, and the hint.
	capture got fhsum -a md5 a d b
	expect "own name" 1 "$(md5sum a b)" "PROG: d: Is a directory (use -r to hash the files under it)"
}

@test "md5 gen: an unreadable file is reported and the others are printed" {
	# Tests run as root here: chmod 000 does not stop root from reading, so
	# the case cannot be made; EISDIR (the directory test) covers read errors.
	[ "$(id -u)" != 0 ] || skip "running as root: mode 000 files stay readable"
	printf secret >locked
	chmod 000 locked
	same_as_md5sum a locked b
}

@test "md5 gen: a dangling symlink fails; a symlink to a file is hashed under its own name" {
	ln -s nowhere dangling
	ln -s a link
	same_as_md5sum dangling link
}

@test "md5 gen: /dev/null and a FIFO are read like files" {
	mkfifo fifo1 fifo2
	# Writers that give up after 20 s if nobody opens the FIFO, detached from
	# bats' output so that they cannot hold the test open.
	(exec >/dev/null 2>&1; timeout 20 sh -c 'printf "through a fifo" >fifo1') &
	(exec >/dev/null 2>&1; timeout 20 sh -c 'printf "through a fifo" >fifo2') &
	capture ref timeout 30 md5sum /dev/null fifo1 </dev/null
	capture got timeout 30 "${FHSUM_WRAP[@]}" "$FHSUM" -a md5 /dev/null fifo2 </dev/null
	sed -i 's/fifo2$/fifo1/' got.out
	compare_runs "md5sum /dev/null fifo" ref got
}

@test "md5 gen: files across the mmap threshold and several MiB give md5sum's digests" {
	local n
	for n in 65535 65536 65537 1048577; do
		yes 0123456789abcdef | head -c $n >"s$n"
	done
	truncate -s 5M sparse
	same_as_md5sum s65535 s65536 s65537 s1048577 sparse
}

@test "md5 gen: every -j thread count prints the same as md5sum, in operand order" {
	local i args=()
	for i in $(seq 1 40); do head -c $((i * 3001)) /dev/zero >"z$i"; args+=("z$i"); done
	capture ref md5sum "${args[@]}" </dev/null
	for j in 1 2 3 8; do
		capture got fhsum -a md5 -j "$j" "${args[@]}" </dev/null
		compare_runs "fhsum -a md5 -j $j" ref got
	done
}

@test "md5 gen: a write error on stdout (/dev/full): 'write error: No space left on device', exit 1" {
	# GNU 9.1 prints "md5sum: write error" without the reason; fhsum names
	# it: "fhsum: write error: <strerror>".
	local rc=0
	fhsum -a md5 a b >/dev/full 2>got.err.raw || rc=$?
	echo $rc >got.rc
	normalise_err <got.err.raw >got.err
	: >got.out
	expect "fhsum -a md5 a b > /dev/full" 1 "" "PROG: write error: No space left on device"
}
