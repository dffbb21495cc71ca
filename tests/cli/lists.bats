#!/usr/bin/env bats
# Lists fhsum writes and walks: a list is never lost, never thinned by a
# fault, and never vouches for less than it says.  Where the list is (a
# symlink followed, a device refused), its lock, its leftovers, its owner
# and mode; walks that meet unreadable directories, descriptor limits and
# deep trees; the list as an entry of itself; duplicate lines; messages.
# Expected digests come from GNU md5sum.

load helper

setup() {
	common_setup
}

# A small tree t/ and its md5 list with metadata in $1 (default L).
small_tree() {
	mkdir -p t/sub
	echo a >t/a
	echo b >t/sub/b
	fhsum -a md5 --meta -r t >"${1:-L}"
}

# in_open_dir: moves the test into a directory every user may enter, for
# as_nobody (the test's own directory may sit under one only root enters).
in_open_dir() {
	OPEN_DIR=$(mktemp -d /tmp/fhsum-lists.XXXXXX) && chmod 777 "$OPEN_DIR" && cd "$OPEN_DIR"
}

teardown() {
	[ -z "${OPEN_DIR-}" ] || { chmod -R u+rwX "$OPEN_DIR"; rm -rf "$OPEN_DIR"; }
}

@test "--update through a symlink updates the list it points to, in the target's directory" {
	small_tree real.L
	mkdir real && mv real.L real/SUMS
	ln -s real/SUMS link
	echo c >t/c
	capture got fhsum --update=link -r t
	expect "update through a link" 1 "t/c: NEW" "PROG: WARNING: 1 new file" || return 1
	[ -L link ] || fail "the symlink was replaced by a file"
	grep -qx "$(md5sum t/c)" real/SUMS || fail "the target was not updated:" "$(cat real/SUMS)"
	[ -z "$(ls -A real | grep -v '^SUMS$')" ] || fail "left beside the target:" "$(ls -A real)"
	# A link to a list not yet made makes it where the link points.
	ln -s real/NEW link2
	capture got fhsum --update=link2 -a md5 -r t
	[ -L link2 ] && [ -f real/NEW ] || fail "link to a new list: $(ls -l link2 real)"
	md5sum -c --strict real/NEW >/dev/null || fail "md5sum -c rejects the new list"
}

@test "--update of a device, a FIFO or '-' is refused with exit 64 and writes nothing" {
	small_tree
	# Devices of the test's own (the system's would be at stake against
	# a binary that replaces them): a null device where root can make
	# one, and a link to a descriptor, as /dev/stdout is.
	local dev devs=(fd-link)
	ln -s /proc/self/fd/1 fd-link
	[ "$(id -u)" = 0 ] && mknod nulldev c 1 3 2>/dev/null && devs+=(nulldev)
	for dev in "${devs[@]}"; do
		capture got fhsum --update=$dev -r t
		[ "$(cat got.rc)" = 64 ] || fail "$dev: exit $(cat got.rc), want 64"
		grep -q 'not a regular file' got.err || fail "$dev: message:" "$(cat got.err)"
		[ ! -s got.out ] || fail "$dev: printed statuses:" "$(cat got.out)"
	done
	[ -L fd-link ] || fail "the link to a descriptor was replaced"
	[ "$(id -u)" != 0 ] || [ -c nulldev ] || fail "the device was replaced"
	mkfifo fifo
	capture got timeout -k 5 20 "${FHSUM_WRAP[@]}" "$FHSUM" --update=fifo -r t
	[ "$(cat got.rc)" = 64 ] && [ -p fifo ] || fail "FIFO: exit $(cat got.rc), $(ls -l fifo)"
	capture got fhsum --update=- -r t
	[ "$(cat got.rc)" = 64 ] && [ ! -e ./- ] || fail "'-': exit $(cat got.rc); $(ls -A)"
	grep -q 'cannot write standard input or output' got.err || fail "'-' message:" "$(cat got.err)"
}

@test "--update keeps the list's owner, group and mode" {
	[ "$(id -u)" = 0 ] || skip "giving a file to another owner needs root"
	small_tree
	chown 65534:65534 L
	chmod 640 L
	echo c >t/c
	capture got fhsum --update=L -r t
	[ "$(stat -c '%u:%g %a' L)" = "65534:65534 640" ] || fail "now $(stat -c '%u:%g %a' L)"
}

@test "a directory the walk cannot open: its listed files are unreadable (exit 32), never MISSING, and --prune keeps them" {
	in_open_dir
	small_tree
	mkdir -p t/locked
	echo z >t/locked/z
	fhsum -a md5 --meta -r t >L
	chmod 300 t/locked
	chmod -R a+rX t; chmod 300 t/locked; chmod 666 L; chmod 777 .
	# Run by a user the directory's mode stops (root reads any).
	local rc=0
	as_nobody "${FHSUM_WRAP[@]}" "$FHSUM" --update=L --prune -r t >out 2>err || rc=$?
	[ $rc = 77 ] && skip "no unprivileged user to run as"
	chmod 755 t/locked
	normalise_err <err >err.n
	[ $((rc & 2)) = 0 ] || fail "MISSING bit set: exit $rc"
	[ $((rc & 32)) = 32 ] || fail "unreadable bit not set: exit $rc"
	grep -q ' t/locked/z$' L || fail "--prune dropped the line of a file it could not see"
	! grep -q MISSING out || fail "reported MISSING:" "$(cat out)"
	[ "$(grep -c 't/locked' err.n)" = 1 ] || fail "the directory is not named once:" "$(cat err.n)"
	grep -qx "PROG: t/locked: Permission denied" err.n || fail "message:" "$(cat err.n)"
	grep -qx "PROG: WARNING: 1 listed file under an unreadable directory was not checked" err.n ||
		fail "count:" "$(cat err.n)"
}

@test "a deep tree under a low descriptor limit: the walk holds a bounded number of descriptors" {
	# 2,040 levels (a path under PATH_MAX) under ulimit -n 64.
	python3 - <<-'EOF'
	import os
	os.mkdir("t"); os.chdir("t")
	open("top", "w").write("y\n")
	for i in range(2040):
	    os.mkdir("d"); os.chdir("d")
	open("f", "w").write("x\n")
	EOF
	local deep
	deep=$(find t -name f)
	(ulimit -n 64 && "${FHSUM_WRAP[@]}" "$FHSUM" -a md5 -r t) >got.out 2>got.err || fail "exit $?:" "$(head -c 300 got.err)"
	md5sum t/top "$deep" | sort >want
	sort got.out | cmp -s - want || fail "not the two files:" "$(cut -c1-80 got.out)"
	# An audit with --prune of the same tree under the limit loses nothing.
	"${FHSUM_WRAP[@]}" "$FHSUM" -a md5 -r t >L
	(ulimit -n 64 && "${FHSUM_WRAP[@]}" "$FHSUM" --update=L --prune -r t) >u.out 2>u.err || fail "update: exit $?: $(cat u.err)"
	[ "$(wc -l <L)" = 2 ] || fail "lines lost:" "$(cut -c1-80 L)"
}

@test "too few descriptors for a deep walk and its files: whatever fails is said, no line dropped, never MISSING" {
	small_tree
	python3 - <<-'EOF'
	import os
	p = "t/w"
	for i in range(40):
	    p += "/d%d" % i
	os.makedirs(p)
	open(p + "/leaf", "w").write("leaf\n")
	EOF
	fhsum -a md5 --meta -r t >L
	cp L L.before
	# Too few descriptors for the engine's files and the walk: whatever
	# fails must be said, and no line dropped.
	local rc=0
	(ulimit -n 12 && exec "${FHSUM_WRAP[@]}" "$FHSUM" --update=L --prune -j1 -r t) >out 2>err || rc=$?
	[ $rc -lt 126 ] || fail "fhsum did not run: exit $rc:" "$(cat err)"
	[ $rc = 0 ] || [ -s err ] || fail "exit $rc and nothing said"
	[ $((rc & 2)) = 0 ] || fail "MISSING under EMFILE: exit $rc:" "$(cat out err)"
	cmp -s L L.before || { diff L.before L >&2; [ $((rc & 32)) = 32 ] && grep -c . L | grep -qx "$(grep -c . L.before)"; } ||
		fail "lines changed under EMFILE"
}

@test "two --update runs at once never lose a line: the second waits for the lock; --no-wait says busy" {
	local round lost=0 rounds=${FHSUM_LOCK_ROUNDS:-40}
	mkdir a b
	for round in $(seq "$rounds"); do
		rm -f S a/* b/*
		echo "a$round" >a/x
		echo "b$round" >b/y
		"${FHSUM_WRAP[@]}" "$FHSUM" -a md5 --update=S -r a >/dev/null 2>&1 &
		"${FHSUM_WRAP[@]}" "$FHSUM" -a md5 --update=S -r b >/dev/null 2>&1 || :
		wait || :
		grep -q ' a/x$' S && grep -q ' b/y$' S || { lost=$((lost + 1)); cat S >&2; }
	done
	[ "$lost" = 0 ] || fail "$lost of $rounds rounds lost a line"
	# A writer that holds the lock (flock, as fhsum takes it) makes
	# --no-wait say busy, and a plain run wait for it.
	echo c >a/z
	flock S sleep 3 &
	sleep 0.5
	capture got fhsum --update=S --no-wait -r a
	[ "$(cat got.rc)" = 64 ] || fail "--no-wait: exit $(cat got.rc)"
	grep -qx "PROG: S is busy: another run is writing it" got.err || fail "message:" "$(cat got.err)"
	local t0=$SECONDS
	capture got fhsum --update=S -r a
	wait || :
	[ $((SECONDS - t0)) -ge 1 ] || fail "did not wait for the lock"
	grep -q ' a/z$' S || fail "the waiting run did not add its line"
}

@test "the list is never an entry of itself in --update and --audit" {
	mkdir p
	echo a >p/a
	fhsum -a md5 --meta -r p >p/SUMS
	grep -q ' p/SUMS$' p/SUMS || fail "generation did not list p/SUMS: the test needs it"
	capture got fhsum --update=p/SUMS -r p
	expect "update of a tree holding its list" 0 "" "" || return 1
	grep -q 'p/SUMS' p/SUMS && fail "the list records itself:" "$(cat p/SUMS)"
	echo b >p/b
	capture got fhsum --update=p/SUMS -r p
	expect "second update" 1 "p/b: NEW" "PROG: WARNING: 1 new file" || return 1
	capture got fhsum --update=p/SUMS -r p
	expect "third update" 0 "" "" || return 1
	capture got fhsum --audit=p/SUMS -r p
	expect "audit" 0 "p/a: OK
p/b: OK" ""
}

@test "a name listed twice: 'duplicate entry' with its line, the first line counts, whatever the order" {
	echo a >a
	local good bad
	good=$(md5sum a | cut -d' ' -f1)
	bad=00000000000000000000000000000000
	printf '%s  a\n%s  a\n' "$good" "$bad" >L1
	printf '%s  a\n%s  a\n' "$bad" "$good" >L2
	capture got fhsum --audit=L1 a
	expect "good first" 0 "a: OK" "PROG: L1: 2: duplicate entry for a: line 1 counts
PROG: WARNING: 1 duplicate entry (the first line of a name counts)" || return 1
	capture got fhsum --audit=L2 a
	expect "bad first" 4 "a: CHANGED" "PROG: L2: 2: duplicate entry for a: line 1 counts
PROG: WARNING: 1 duplicate entry (the first line of a name counts)
PROG: WARNING: 1 file changed
PROG: WARNING: no file matched under md5 or xxh128: the list may use another algorithm (give it with -a)" || return 1
	capture got fhsum --audit=L1 --strict a
	[ "$(cat got.rc)" = 32 ] || fail "--strict: exit $(cat got.rc), want 32"
	# --update keeps both lines as they are.
	echo b >b
	capture got fhsum --update=L1 a b
	[ "$(grep -c '  a$' L1)" = 2 ] || fail "a duplicate line was lost:" "$(cat L1)"
}

@test "--update of a list none of whose lines fhsum reads: its algorithm unknown, nothing appended, exit 64" {
	echo a >a
	# Text of a form fhsum does not read, whose lines would be followed
	# by another algorithm's.
	printf 'Release 1.0\na: 0x%s\n' "$(md5sum a | cut -c1-32)" >L
	cp L L.before
	run fhsum --update=L a
	[ "$status" = 64 ] || fail "exit $status, want 64: $output"
	[[ $output == *"L: none of its 2 lines is a checksum line fhsum reads, so its algorithm is unknown: give -a; the list was not updated"* ]] ||
		fail "$output"
	cmp -s L L.before || fail "the list changed:" "$(cat L)"
	# -a names the algorithm: the lines are kept, the new one appended.
	run fhsum --update=L -a md5 a
	[ "$status" = 1 ] || fail "-a md5: exit $status: $output"
	grep -qx "$(md5sum a)" L || fail "no md5 line:" "$(cat L)"
	# An empty list is a new one: the default algorithm, as ever.
	: >E
	run fhsum --update=E a
	[ "$status" = 1 ] && [ -s E ] || fail "empty list: exit $status: $output"
}

@test "--update of a list with CR LF line ends writes its new lines, and its declaration, with CR LF too" {
	echo a >a; echo b >b; echo c >c
	sha256sum a b | sed 's/$/\r/' >L
	echo changed >b
	run fhsum --update=L a b c
	[ "$status" = 5 ] || fail "exit $status, want 5: $output"
	[ "$(grep -c $'\r$' L)" = "$(wc -l <L)" ] || fail "a line without CR:" "$(cat -A L)"
	run sha256sum -c L
	[ "$status" = 0 ] || fail "sha256sum -c: $output"
	# Read back, the declaration holds though every file changed.
	echo x >a; echo x >b; echo x >c
	run fhsum -c L
	[ "$status" = 1 ] && [[ $output != *"no file matched"* ]] || fail "$output"
	# An SFV list from Windows, likewise.
	printf 'a 00000000\r\n' >W.sfv
	run fhsum --update=W.sfv a b
	[ "$(grep -c $'\r$' W.sfv)" = 2 ] || fail "SFV:" "$(cat -A W.sfv)"
}

@test "a list of NUL-ended records (md5sum -z) is refused by --update, --audit, --scrub and --against, untouched" {
	echo a >a; echo b >b
	md5sum -z a b >Z
	cp Z Z.before
	md5sum a b >M
	local args
	for args in "--update=Z a b" "--audit=Z a b" "--scrub=Z" "--audit=M --against=Z"; do
		# shellcheck disable=SC2086
		capture got fhsum $args
		[ "$(cat got.rc)" = 64 ] || fail "$args: exit $(cat got.rc), want 64" "$(cat got.out got.err)"
		[ ! -s got.out ] || fail "$args: statuses:" "$(cat got.out)"
		grep -q "Z: a line holds a NUL byte" got.err || fail "$args:" "$(cat got.err)"
	done
	cmp -s Z Z.before || fail "the list changed:" "$(cat -A Z)"
	# -c reads it as GNU md5sum does: its first record.
	capture want md5sum -c Z
	capture got fhsum -c Z
	compare_runs "-c of a -z list" want got
}

@test "--update of a list in BSD's reversed form (md5 -r: one blank) writes that form, which GNU's latch reads" {
	echo a >a; echo b >b; echo c >c; echo s >' s'
	md5sum a b | sed 's/  / /' >R
	echo changed >b
	run fhsum --update=R a b c ' s'
	[ "$status" = 5 ] || fail "exit $status, want 5: $output"
	# GNU reads a list by its first untagged line's form: every line must
	# be of it, or its names gain a leading blank.
	run md5sum -c R
	[ "$status" = 0 ] || fail "md5sum -c:" "$output" "$(cat -A R)"
	[ "$(grep -c '^[0-9a-f]\{32\} [^ ]' R)" = 3 ] || fail "not reversed:" "$(cat -A R)"
	# A tab after the digest stays a tab.
	md5sum a b | sed 's/  /\t/' >T
	run fhsum --update=T a b c
	[ "$status" = 1 ] || fail "tab: exit $status: $output"
	[ "$(grep -c $'^[0-9a-f]\{32\}\t[^ ]' T)" = 3 ] || fail "tab:" "$(cat -A T)"
	run md5sum -c T
	[ "$status" = 0 ] || fail "tab: md5sum -c:" "$output"
}

@test "--update in a directory it cannot write: said first, no statuses, exit 64, list untouched" {
	in_open_dir
	small_tree
	mkdir ro
	mv L ro/L
	echo c >t/c
	chmod -R a+rX t ro; chmod 555 ro; chmod 644 ro/L; chmod 777 .
	local rc=0
	as_nobody "${FHSUM_WRAP[@]}" "$FHSUM" --update=ro/L -r t >out 2>err || rc=$?
	[ $rc = 77 ] && skip "no unprivileged user to run as"
	normalise_err <err >err.n
	[ $rc = 64 ] || fail "exit $rc, want 64:" "$(cat err.n)"
	[ ! -s out ] || fail "statuses printed for a list not written:" "$(cat out)"
	grep -qx "PROG: ro/L: cannot write in ro/: the list is not updated: Permission denied" err.n ||
		fail "message:" "$(cat err.n)"
	[ "$(wc -l <err.n)" = 1 ] || fail "more than the one message:" "$(cat err.n)"
}

@test "a full file system: --update says the list was not updated, prints no statuses, and keeps the old list" {
	[ "$(id -u)" = 0 ] || skip "mounting a small tmpfs needs root"
	mkdir small
	mount -t tmpfs -o size=64k tmpfs small 2>/dev/null || skip "cannot mount a tmpfs here"
	small_tree small/L
	cp small/L L.before
	mkdir -p t/many
	local i
	for i in $(seq 2000); do echo "$i" >"t/many/file-with-a-long-name-$i"; done
	capture got fhsum --update=small/L -r t
	umount small 2>/dev/null || umount -l small
	[ "$(cat got.rc)" = 64 ] || fail "exit $(cat got.rc), want 64:" "$(cat got.err)"
	[ ! -s got.out ] || fail "statuses printed:" "$(head -3 got.out)"
	grep -q "small/L: the list was not updated: No space left on device" got.err ||
		fail "message:" "$(cat got.err)"
}

@test "--update removes the temporary files a killed writer of the same list left, and only those" {
	small_tree
	: >.L.fhsum-a1b2c3
	: >.L.fhsum-zzzzzz
	: >.M.fhsum-a1b2c3
	: >.L.fhsum-toolong1
	mkdir .L.fhsum-dir999
	echo c >t/c
	capture got fhsum --update=L -r t
	[ ! -e .L.fhsum-a1b2c3 ] && [ ! -e .L.fhsum-zzzzzz ] || fail "leftovers kept:" "$(ls -A)"
	[ -e .M.fhsum-a1b2c3 ] && [ -e .L.fhsum-toolong1 ] && [ -d .L.fhsum-dir999 ] ||
		fail "removed what was not its own:" "$(ls -A)"
}

@test "messages: -j out of range names the range; an over-long name of --files0-from is described, not quoted" {
	capture got fhsum -j 1025 x
	[ "$(cat got.rc)" = 1 ] && grep -qx "PROG: invalid number of threads: '1025' (1..1024)" got.err ||
		fail "-j 1025: exit $(cat got.rc):" "$(cat got.err)"
	fhsum --help | grep -q -- '-j, --threads=N .*1\.\.1024' || fail "--help does not give the range"
	{ printf 'a\0'; head -c 5000 /dev/zero | tr '\0' x; printf '\0'; } >names0
	echo a >a
	capture got fhsum -a md5 --files0-from=names0
	grep -qx "PROG: names0:2: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'...: File name too long" got.err ||
		fail "message:" "$(cat got.err)"
}

@test "walk roots are tidied: photos//2024/ and photos/2024 name the same files" {
	mkdir -p photos/2024
	echo a >photos/2024/a
	fhsum -a md5 -r photos/2024 >S
	capture got fhsum --audit=S -r photos//2024/
	expect "audit through photos//2024/" 0 "photos/2024/a: OK" "" || return 1
	capture got fhsum -a md5 -r photos//2024//
	expect "generation" 0 "$(md5sum photos/2024/a)" ""
}

@test "--help, --version, --list-kernels and --benchmark to a full device: 'write error', exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	local opt
	for opt in --help --version --list-kernels "--benchmark -a md5"; do
		# shellcheck disable=SC2086
		capture got fhsum $opt
		"${FHSUM_WRAP[@]}" "$FHSUM" $opt >/dev/full 2>err && fail "$opt: exit 0 on a full device"
		grep -q '^fhsum: write error' err || fail "$opt:" "$(cat err)"
	done
}
