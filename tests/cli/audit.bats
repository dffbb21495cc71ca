#!/usr/bin/env bats
# --audit, --update, --prune, --against and --meta (fhsum(1), "Auditing and
# updating a list").  Every expected report, warning, exit status and
# rewritten list comes from audit_oracle.py, a hashlib model of the manual's
# words, or from GNU md5sum, stat(1) and Python; never from
# fhsum.  Trees are built in each test, then edited, appended, truncated,
# deleted, renamed and damaged (same size, mtime put back).

load helper

setup() {
	common_setup
	command -v python3 >/dev/null || skip "python3 not available"
}


# in_dir CMD...: CMD run in directory $AT (default: here), so that a test
# can audit "." while its captures stay outside the tree.
in_dir() { (cd "${AT:-.}" && "$@"); }

# mkf NAME SIZE: a file whose content is unique to its name (the name, a
# colon, SIZE pattern bytes), so that no two test files share a digest by
# chance and MOVED pairs only what the test moved.
mkf() { { printf '%s:' "$1"; big_pattern "$2"; } >"$1"; }

# mtime_of FILE: seconds.nanoseconds, as --meta writes them.
mtime_of() { stat -c %.9Y -- "$1"; }

# damage FILE: overwrite one byte with another (same size) and put the
# mtime back, checking that it is back.
damage() {
	local m
	m=$(mtime_of "$1")
	python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    b = f.read(1); f.seek(0); f.write(bytes([b[0] ^ 0x55]))' "$1"
	touch -d "@$m" -- "$1"
	[ "$(mtime_of "$1")" = "$m" ] || fail "touch could not put the mtime of $1 back ($m)"
}

# audit_same LABEL LIST ARGS...: fhsum --audit=LIST ARGS prints, warns and
# exits as the oracle says.
audit_same() {
	local label=$1 list=$2
	shift 2
	capture exp in_dir oracle "$list" "$@"
	capture got in_dir fhsum --audit="$list" "$@"
	compare_runs "$label: --audit=$list $*" exp got
}

# rc_of_words FILE: the exit bits of the report words in FILE.
rc_of_words() {
	awk '/: NEW$/ { b[1] = 1 } /: MISSING$/ { b[2] = 1 } /: CHANGED$/ { b[4] = 1 }
	     /: MOVED from / { b[8] = 1 } /: DAMAGED$/ { b[16] = 1 }
	     /: FAILED open or read$/ { b[32] = 1 } END { for (k in b) r += k; print r + 0 }' "$1"
}

# update_same LABEL LIST ARGS...: fhsum --update=LIST ARGS prints the
# oracle's report lines and leaves LIST as the oracle's expected list (or
# untouched, same inode and mtime, when the oracle says nothing changes).
# Exit status: the bits of the words printed, and the missing bit allowed
# beside them.
# stderr holds only WARNING lines.
update_same() {
	local label=$1 list=$2 before='' rc want allowed
	shift 2
	rm -f exp.list
	[ -e "$list" ] && cp -p -- "$list" list.before && before=$(stat -c '%i %.9Y' -- "$list")
	capture exp oracle --update --new-list=exp.list "$list" "$@"
	capture got fhsum --update="$list" "$@"
	local bad=0
	same_file exp.out got.out || {
		bad=1
		printf '\n--- %s: stdout differs (- expected, + fhsum)\n' "$label" >&2
		diff -u --label expected --label fhsum <(show exp.out) <(show got.out) | tail -n +3 >&2
	}
	if [ -e exp.list ]; then
		[ -e "$list" ] || { fail "$label: $list is gone"; return 1; }
		same_file exp.list "$list" || {
			bad=1
			printf '\n--- %s: the rewritten list differs (- expected, + fhsum)\n' "$label" >&2
			diff -u --label expected --label fhsum <(show exp.list) <(show "$list") | tail -n +3 >&2
		}
	elif [ -n "$before" ]; then
		same_file list.before "$list" || { bad=1; fail "$label: $list changed though nothing changed"; }
		[ "$(stat -c '%i %.9Y' -- "$list")" = "$before" ] ||
			{ bad=1; fail "$label: $list was rewritten (inode or mtime) though nothing changed"; }
	fi
	rc=$(cat got.rc)
	want=$(rc_of_words exp.out)
	allowed=$((want | 2))
	if [ $((rc & want)) != "$want" ] || [ $((rc & ~allowed)) != 0 ]; then
		bad=1
		fail "$label: exit status $rc; the report wants bits $want (and 2 allowed)"
	fi
	if grep -qv '^PROG: WARNING: ' got.err; then
		bad=1
		fail "$label: unexpected stderr:" "$(cat got.err)"
	fi
	return $bad
}

# A tree for the classic changes, and its md5 list (with metadata when $1
# is --meta).
basic_tree() {
	mkdir -p t/sub t/deep/er
	local f
	for f in t/edit:1000 t/append:500 t/trunc:3000 t/gone:100 t/old:200 t/same:300 \
		t/sub/x:70000 t/deep/er/y:10 t/empty:0; do
		mkf "${f%:*}" "${f#*:}"
	done
	: >t/empty
	oracle --gen -r -a md5 ${1-} t >L
}
basic_changes() {
	printf 'X' | dd of=t/edit conv=notrunc status=none # same size, new mtime
	echo more >>t/append
	truncate -s 10 t/trunc
	rm t/gone
	mv t/old t/sub/renamed
	mkf t/new 50
	mkf t/sub/new2 60
}

# ---------------------------------------------------------------------------
# Audits of a tree.

@test "audit: an unchanged tree is all OK, exit 0, with ./dir and dir on either side" {
	basic_tree
	fhsum -r t >SUMS
	# The oracle recomputes every digest with hashlib: all OK only if fhsum's
	# own list was right.
	audit_same "unchanged" SUMS -r t
	[ "$(cat got.rc)" = 0 ] && [ ! -s got.err ] || fail "unchanged tree: exit $(cat got.rc)"
	[ "$(grep -vc ': OK$' got.out)" = 0 ] && [ "$(wc -l <got.out)" = 9 ] ||
		fail "not nine OK lines:" "$(cat got.out)"
	audit_same "list without ./, operand ./t" SUMS -r ./t
	grep -qx './t/edit: OK' got.out || fail "the walk's name ./t/edit is not the one reported"
	fhsum -r ./t >SUMS2
	audit_same "list with ./, operand t" SUMS2 -r t
	[ "$(cat got.rc)" = 0 ] || fail "./t list against t: exit $(cat got.rc)"
	(cd t && fhsum -r . >../SUMS3)
	AT=t audit_same "list of ., operand ." ../SUMS3 -r .
	[ "$(cat got.rc)" = 0 ] || fail "list of . against .: exit $(cat got.rc)"
}

@test "audit: edit, append, truncate, delete, new and rename give CHANGED, MISSING, NEW, MOVED from (exit 1|2|4|8)" {
	basic_tree
	basic_changes
	audit_same "classic changes" L -r t
	[ "$(cat got.rc)" = 15 ] || fail "exit $(cat got.rc), want 15"
	grep -qx 't/sub/renamed: MOVED from t/old' got.out || fail "no MOVED line"
	audit_same "classic changes, -a md5" L -a md5 -r t
	audit_same "classic changes, -j1" L -j1 -r t
}

@test "audit: the same changes against a list with metadata: the same words (no DAMAGED: mtimes moved)" {
	basic_tree --meta
	grep -q '^#fhsum size=' L || fail "the oracle wrote no metadata"
	basic_changes
	audit_same "classic changes, metadata" L -r t
	[ "$(cat got.rc)" = 15 ] || fail "exit $(cat got.rc), want 15"
}

@test "audit: same size and mtime, other content is DAMAGED (16); CHANGED when mtime moved or no metadata" {
	basic_tree --meta
	damage t/same
	audit_same "damaged" L -r t
	[ "$(cat got.rc)" = 16 ] || fail "exit $(cat got.rc), want 16"
	grep -qx 't/same: DAMAGED' got.out || fail "no DAMAGED line"
	grep -qx 'PROG: WARNING: 1 file damaged (same size and mtime, other content)' got.err ||
		fail "no damaged warning"
	# touch -r puts the mtime back as well.
	cp -p t/edit ref.edit
	printf 'Y' | dd of=t/edit conv=notrunc status=none
	touch -r ref.edit t/edit
	audit_same "two damaged" L -r t
	[ "$(cat got.rc)" = 16 ] || fail "exit $(cat got.rc), want 16"
	# The mtime moved: CHANGED.
	touch -d '@1234567890.5' t/edit
	audit_same "damaged and changed" L -r t
	[ "$(cat got.rc)" = 20 ] || fail "exit $(cat got.rc), want 20"
	# The same tree against a list without metadata: CHANGED only.
	grep -v '^#' L >L.plain
	audit_same "no metadata" L.plain -r t
	[ "$(cat got.rc)" = 4 ] || fail "exit $(cat got.rc), want 4"
	# Metadata applies to the next checksum line only: a comment between
	# cancels it.
	sed '/^#fhsum/a # a comment' L >L.cancel
	audit_same "metadata cancelled by a comment" L.cancel -r t
	[ "$(cat got.rc)" = 4 ] || fail "exit $(cat got.rc), want 4"
	sed '/^#fhsum/G' L >L.blank
	audit_same "metadata cancelled by a blank line" L.blank -r t
	[ "$(cat got.rc)" = 4 ] || fail "exit $(cat got.rc), want 4"
}

@test "audit: a rename onto a new name while another file takes the old name, swaps and duplicate contents" {
	mkdir t
	mkf t/a 100; mkf t/b 200; mkf t/c 300; mkf t/d 400
	cp t/d t/d2; cp t/d t/d3
	oracle --gen -r -a md5 t >L
	# a -> a2, and a new file at a: a CHANGED, a2 NEW (a is not missing).
	mv t/a t/a2
	mkf t/a 150
	# b and c swap: both CHANGED, nothing moved.
	mv t/b t/tmp && mv t/c t/b && mv t/tmp t/c
	# Three listed copies of d's content; d and d2 removed, and three new
	# names hold that content: two pair (first missing in list order with
	# the first new in walk order), the third is NEW.
	mv t/d t/x1; mv t/d2 t/x2; cp t/x1 t/x3
	audit_same "rename and reuse" L -r t
	grep -qx 't/a2: NEW' got.out || fail "t/a2 is not NEW"
	grep -qx 't/x1: MOVED from t/d' got.out && grep -qx 't/x2: MOVED from t/d2' got.out &&
		grep -qx 't/x3: NEW' got.out || fail "pairing of duplicates"
	[ "$(cat got.rc)" = 13 ] || fail "exit $(cat got.rc), want 13"
	# The old name's content comes back: OK, and the copy is NEW.
	cp -p t/a2 t/a
	audit_same "old name gets its content back" L -r t
}

@test "audit: names with LF, CR, backslash and non-UTF-8 bytes are escaped as in -c, NEW and OLD both" {
	mkdir t
	mkf $'t/a\nb' 10
	mkf 't/back\slash' 20
	mkf $'t/cr\rx' 30
	mkf $'t/\xff\xfe' 40
	mkf t/plain2 50
	mkf 't/x\y' 60
	mkf 't/sp ace' 70
	oracle --gen -r -a md5 t >L
	grep -q '^\\' L || fail "no escaped line in the list"
	echo more >>'t/back\slash'
	rm $'t/cr\rx'
	mv $'t/\xff\xfe' t/plain
	mv t/plain2 $'t/new\nname'
	mv 't/x\y' t/z
	mkf 't/n\ew' 5
	audit_same "escaped names" L -r t
	grep -qxF '\t/z: MOVED from t/x\\y' got.out || fail "MOVED line not escaped for OLD"
	grep -qxF '\t/cr\rx: MISSING' got.out || fail "MISSING line not escaped"
	audit_same "escaped names, --quiet" L --quiet -r t
	# Tagged and binary lists with escaped names.
	oracle --gen -r -a md5 --tag t >L.tag
	oracle --gen -r -a md5 -b t >L.bin
	mv t/z t/zz
	audit_same "escaped names, tagged list" L.tag -r t
	audit_same "escaped names, binary list" L.bin -r t
}

@test "audit: a directory operand is its tree without -r; a listed file now a directory is MISSING (2)" {
	mkdir t
	mkf t/a 10
	mkf t/d 20
	oracle --gen -a md5 t/a t/d >L
	rm t/d && mkdir t/d
	# The directory is walked (it holds no file), so the file is missing.
	audit_same "a directory where a file was" L t/a t/d
	[ "$(cat got.rc)" = 2 ] || fail "exit $(cat got.rc), want 2"
	audit_same "a directory where a file was, --status" L --status t/a t/d
	audit_same "a directory where a file was, --quiet" L --quiet t/a t/d
}

@test "audit: a file whose read fails with EIO (a link to /proc/self/mem) is FAILED open or read" {
	md5sum /proc/self/mem >/dev/null 2>err && skip "/proc/self/mem reads here"
	grep -q 'Input/output error' err || skip "/proc/self/mem does not fail with EIO here"
	mkdir t
	mkf t/a 10
	ln -s /proc/self/mem t/mem
	printf '%s  t/a\n%s  t/mem\n' "$(md5sum <t/a | cut -c1-32)" d41d8cd98f00b204e9800998ecf8427e >L
	audit_same "EIO" L -a md5 t/a t/mem
	[ "$(cat got.rc)" = 32 ] || fail "exit $(cat got.rc), want 32"
}

@test "audit: a listed file named by an operand that no longer exists is MISSING (2), not FAILED" {
	# The manual: the entries a run expects are "those named by an operand, or
	# under a directory operand"; "only those can be MISSING".
	mkdir t
	mkf t/a 10; mkf t/b 20
	oracle --gen -a md5 t/a t/b >L
	rm t/b
	audit_same "named, gone" L t/a t/b
	[ "$(cat got.rc)" = 2 ] || fail "exit $(cat got.rc), want 2"
}

@test "--update: the new list is written to a temporary file in LIST's directory, fsync'd, then renamed over LIST" {
	command -v strace >/dev/null || skip "strace not installed"
	[ -z "${FHSUM_WRAPPER-}" ] || skip "traces the native binary"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	mkdir t sub
	mkf t/a 10
	oracle --gen -a md5 t/a >sub/L
	mkf t/b 20
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=open,openat,write,fsync,fdatasync,linkat,rename,renameat,renameat2 \
		-e signal=none -o trace "$FHSUM" --update=sub/L -r t >/dev/null 2>&1 || :
	python3 - <<'PY' || fail "trace:" "$(grep -v -e /lib -e /etc -e /proc -e /sys trace)"
import re, sys
fds, synced, ok = {}, set(), False
for line in open("trace"):
    m = re.search(r'open(?:at)?\((?:AT_FDCWD, )?"([^"]*)".* = (\d+)$', line)
    if m:
        fds[m.group(2)] = m.group(1)
    m = re.search(r'f(?:data)?sync\((\d+)\) += 0', line)
    if m and m.group(1) in fds:
        synced.add(fds[m.group(1)])
        synced.add("fd " + m.group(1))
    # An anonymous file (O_TMPFILE) given a name: synced if its fd was.
    m = re.search(r'linkat\((?:AT_FDCWD, "/proc/self/fd/(\d+)"|(\d+), ""), [^,]*, "([^"]*)"', line)
    if m and "fd " + (m.group(1) or m.group(2)) in synced:
        synced.add(m.group(3))
    m = re.search(r'rename(?:at2?)?\((?:[^,]*, )?"([^"]*)", (?:[^,]*, )?"([^"]*)"', line)
    if m:
        src, dst = m.group(1), m.group(2)
        assert dst in ("sub/L",) or dst.endswith("/L"), "renamed onto %s" % dst
        assert src.startswith("sub/") or "/" not in src, "temporary file %s not beside LIST" % src
        assert src in synced, "%s renamed over LIST before an fsync" % src
        ok = True
assert ok, "no rename over LIST"
PY
	grep -q t/b sub/L || fail "LIST not updated"
}

@test "audit: --quiet, --status, -w, --strict, --ignore-missing, and lines listed twice" {
	basic_tree
	basic_changes
	# No new file and no rename: what --ignore-missing does to MOVED pairs
	# is left open by the manual.
	rm t/sub/new2 t/new
	mv t/sub/renamed t/old
	# A bad line, a name listed twice (the first line counts: the second
	# is an improperly formatted line) and a first line that is wrong.
	{
		echo garbage
		grep ' t/same$' L
		printf '%s  t/deep/er/y\n' 00000000000000000000000000000000
		cat L
	} >L2
	local o bad=0
	for o in "" --quiet --status -w --strict --ignore-missing "--quiet --strict -w --ignore-missing" "-w -a md5"; do
		# shellcheck disable=SC2086
		audit_same "options '$o'" L2 $o -r t || bad=1
	done
	capture got fhsum --audit=L2 --ignore-missing -r t
	grep -q 'MISSING' got.out && fail "--ignore-missing printed MISSING"
	[ $(($(cat got.rc) & 2)) = 0 ] || fail "--ignore-missing: exit $(cat got.rc) has the missing bit"
	capture got fhsum --audit=L2 --strict -r t/same
	[ $(($(cat got.rc) & 32)) = 32 ] || fail "--strict with bad lines: exit $(cat got.rc), no bit 32"
	capture got fhsum --audit=L2 -r t/same
	[ "$(cat got.rc)" = 0 ] || fail "bad lines without --strict: exit $(cat got.rc), want 0"
	return $bad
}

@test "audit: a list of over 1 MiB, parsed on a thread of its own, is read as a short one" {
	basic_tree
	basic_changes
	# 40,000 lines for names outside the operand, with improper lines and
	# a name listed twice among them, far apart, so that they fall in
	# different batches of the parse; a line of t/ listed twice at the end.
	python3 -c 'import hashlib, sys
out = sys.stdout
for i in range(40000):
    if i in (3, 9000, 25000, 39990):
        out.write("not a checksum line %d\n" % i)
    name = "u/%06d" % (i if i != 30000 else 17)
    out.write("%s  %s\n" % (hashlib.md5(name.encode()).hexdigest(), name))
' >L2
	cat L >>L2
	grep ' t/same$' L >>L2
	[ "$(stat -c %s L2)" -gt $((1024 * 1024)) ] || fail "L2 is too short"
	local o bad=0
	for o in "" -w "-w --strict"; do
		# shellcheck disable=SC2086
		audit_same "options '$o'" L2 $o -r t || bad=1
	done
	return $bad
}

@test "audit: only entries under the operands are expected; with --files-from every entry" {
	mkdir -p t/in u
	mkf t/in/a 10; mkf t/b 20; mkf u/c 30; mkf t/in2 40
	oracle --gen -r -a md5 t u >L
	rm u/c t/in2
	audit_same "one directory" L -r t/in
	[ "$(cat got.rc)" = 0 ] || fail "entries outside t/in were expected: exit $(cat got.rc)"
	audit_same "a file operand" L t/b
	audit_same "t/in does not take t/in2" L -r t/in t/b
	printf '%s\n' t/in/a t/b >names
	audit_same "--files-from" L --files-from=names
	[ $(($(cat got.rc) & 2)) = 2 ] || fail "--files-from: the other entries are not MISSING"
}

@test "audit: new files take the list's one algorithm, -a, or SHA3-256; a mixed list without -a is 64" {
	mkdir t
	mkf t/a 10; mkf t/b 20
	oracle --gen -a sha3-512 t/a t/b >L
	mv t/b t/c
	audit_same "sha3-512 list, moved" L -r t
	grep -qx 't/c: MOVED from t/b' got.out || fail "new file not hashed with the list's algorithm"
	{ oracle --gen -a md5 t/a; oracle --gen -a sha3-256 --tag t/c; } >M
	capture got fhsum --audit=M -r t
	[ "$(cat got.rc)" = 64 ] || fail "mixed list: exit $(cat got.rc), want 64"
	grep -qx 'PROG: M: lines of several algorithms: give -a for new files' got.err ||
		fail "mixed list message:" "$(cat got.err)"
	[ ! -s got.out ] || fail "mixed list: stdout not empty"
	# Base64 digests are read, tagged or not.
	oracle --gen -a sha3-256 --base64 t/a >B
	audit_same "base64 list" B t/a
	[ "$(cat got.rc)" = 0 ] || fail "base64 list: exit $(cat got.rc)"
}

@test "audit: usage errors and unreadable lists exit 64" {
	mkdir t d
	mkf t/a 10
	oracle --gen -a md5 t/a >L
	local args bad=0
	while IFS= read -r args; do
		# shellcheck disable=SC2086
		capture got fhsum $args
		[ "$(cat got.rc)" = 64 ] && [ ! -s got.out ] && head -1 got.err | grep -q '^PROG: ' &&
			[ "$(tail -1 got.err)" = "Try 'PROG --help' for more information." ] ||
			{ fail "fhsum $args: exit $(cat got.rc), stderr:" "$(cat got.err)" || bad=1; }
	done <<'EOF'
--audit=L -c t/a
-c --audit=L t/a
--audit=L --update=L t/a
--audit=L -z t/a
--update=L -z t/a
--audit=L --raw t/a
--audit=L --no-names t/a
--update=L --no-names t/a
--update=L --raw t/a
--update=L -c t/a
--update=L --audit=L t/a
--update=L --against=L
--against=L t/a
--against=L
--audit=L --against=L t/a
--audit=L --prune t/a
--prune t/a
--audit=L
--update=L
--audit=L --tag t/a
--audit=L --untagged t/a
--audit=L --meta t/a
--audit=L --json --raw t/a
--audit=L -b t/a
--audit=L -t t/a
EOF
	capture got fhsum --audit=nosuch t/a
	expect "missing list" 64 "" "PROG: nosuch: No such file or directory"
	capture got fhsum --audit=d t/a
	expect "list is a directory" 64 "" "PROG: d: Is a directory"
	capture got fhsum --audit=L --against=nosuch
	expect "missing NEW" 64 "" "PROG: nosuch: No such file or directory"
	capture got fhsum --update=d t/a
	expect "--update of a directory" 64 "" "PROG: d: Is a directory"
	# --tag and -b shape the lines --update adds: no usage error there.
	capture got fhsum --update=new.sums --tag -a md5 t/a
	[ "$(cat got.rc)" = 1 ] || fail "--update --tag: exit $(cat got.rc):" "$(cat got.err)"
	return $bad
}

# ---------------------------------------------------------------------------
# Generation with --meta.

@test "--meta: a #fhsum line with stat's size and mtime before each line; md5sum -c --strict accepts the list" {
	mkdir -p t/s
	mkf t/a 0; mkf t/b 70000; mkf t/s/c 5; mkf 't/n\x' 3; mkf $'t/l\nf' 4
	touch -d '@1000000000.000000001' t/a
	touch -d '@1999999999.999999999' t/b
	capture got fhsum --meta -a md5 -r t
	[ "$(cat got.rc)" = 0 ] && [ ! -s got.err ] || fail "exit $(cat got.rc):" "$(cat got.err)"
	# Exact lines, from stat(1) and GNU md5sum.  MD5's 32 hex digits are
	# XXH128's too: the metadata line names the algorithm.
	: >want.out
	local f
	while IFS= read -r -d '' f; do
		printf '#fhsum size=%s mtime=%s algorithm=md5\n' $(stat -c '%s %.9Y' -- "$f") >>want.out
		md5sum -- "$f" >>want.out
	done < <(printf '%s\0' 't/a' 't/b' $'t/l\nf' 't/n\x' 't/s/c')
	same_file want.out got.out || { diff <(show want.out) <(show got.out) >&2; fail "--meta lines"; }
	grep -qx '#fhsum size=4 mtime=1000000000.000000001 algorithm=md5' got.out || fail "nanoseconds not zero-padded"
	grep -qx '#fhsum size=70004 mtime=1999999999.999999999 algorithm=md5' got.out || fail "t/b"
	cp got.out sums
	md5sum -c --strict sums >/dev/null || fail "md5sum -c --strict rejects the --meta list"
	# Tagged lines too, and the default algorithm.
	capture got fhsum --meta --tag -r t
	oracle --gen --meta --tag -r t >want.out
	same_file want.out got.out || fail "--meta --tag"
	if have_sha3sum; then
		cp got.out sums3 && sha3sum -c sums3 >/dev/null || fail "sha3sum -c rejects the --meta list"
	fi
}

# have_sha3sum: whether sha3sum (Debian's libdigest-sha3-perl) is here.
# In CI (.ci/run, which installs it) its absence ends the test as failed
# rather than skipping what the suite claims to prove.
have_sha3sum() {
	command -v sha3sum >/dev/null && return 0
	if [ -n "${FHSUM_CI_FULL:-}" ]; then
		echo "sha3sum missing in CI: .ci/run installs libdigest-sha3-perl" >&2
		exit 1
	fi
	return 1
}

@test "--meta: sha3sum -c accepts a --meta list" {
	have_sha3sum || skip "sha3sum not installed"
	mkf a 100
	fhsum --meta -a sha3-256 a >sums
	sha3sum -a 256 -c sums
}

# ---------------------------------------------------------------------------
# --update.

@test "--update --prune with metadata: CHANGED replaced, NEW appended, MOVED renamed, MISSING dropped; then all OK" {
	basic_tree --meta
	basic_changes
	update_same "prune, metadata" L --prune -r t
	grep -qx 't/sub/renamed: MOVED from t/old' got.out || fail "no MOVED line"
	md5sum -c --strict L >/dev/null || fail "md5sum -c --strict rejects the updated list"
	capture got fhsum --audit=L -r t
	[ "$(cat got.rc)" = 0 ] && [ -z "$(grep -v ': OK$' got.out)" ] ||
		fail "audit after a full update: exit $(cat got.rc)" "$(cat got.out)"
	update_same "second update: nothing to do" L --prune -r t
	[ ! -s got.out ] && [ "$(cat got.rc)" = 0 ] || fail "second update: exit $(cat got.rc)"
}

@test "--update without --prune: missing lines kept and counted, the moved name said MOVED and added" {
	basic_tree --meta
	basic_changes
	update_same "no prune, metadata" L -r t
	grep -qx 't/sub/renamed: MOVED from t/old' got.out || fail "the move is not said:" "$(cat got.out)"
	grep -qx 'PROG: WARNING: 1 listed file missing (its line kept: --prune drops it)' got.err ||
		fail "the missing line is not counted:" "$(cat got.err)"
	grep -q ' t/old$' L && grep -q ' t/gone$' L || fail "a line was dropped without --prune"
	md5sum -c --strict --ignore-missing L >/dev/null || fail "md5sum -c rejects the updated list"
}

@test "--update without metadata: listed files are read again, changed lines replaced, new ones appended" {
	basic_tree
	basic_changes
	update_same "no metadata, prune" L --prune -r t
	# (A "#fhsum untagged=md5" line may name the algorithm: MD5's 32 hex
	# digits are XXH128's too.)
	grep -q '^#fhsum size=' L && fail "metadata added to a list that had none"
	rm -rf t L
	basic_tree
	basic_changes
	update_same "no metadata, no prune" L -r t
	# --meta adds metadata to the lines it adds.
	mkf t/newer 70
	update_same "no metadata, --meta" L --meta -r t
	grep -q '^#fhsum' L || fail "--meta added no metadata"
}

@test "--update: a size or mtime change with the same digest refreshes the metadata silently" {
	basic_tree --meta
	touch -d '@1500000000.25' t/same
	update_same "mtime only" L -r t
	[ ! -s got.out ] || fail "printed:" "$(cat got.out)"
	grep -qx '#fhsum size=.* mtime=1500000000.250000000\( algorithm=md5\)\?' L ||
		fail "metadata not refreshed"
}

@test "--update: kept lines byte for byte, added lines in the first line's format, LIST's mode kept" {
	mkdir t
	mkf t/a 10; mkf 't/b\x' 20
	# Comments, a blank line, a CRLF line, uppercase hex, a bad line and a
	# binary-mode first line: all kept as they are.
	{
		echo '# my list'
		printf '%s *t/a\r\n' "$(md5sum <t/a | cut -c1-32 | tr a-f A-F)"
		echo
		echo 'not a line'
		md5sum 't/b\x'
	} >L
	chmod 640 L
	mkf t/c 30; mkf $'t/d\ne' 40
	update_same "format of a binary list" L -r t
	[ "$(stat -c %a L)" = 640 ] || fail "mode not kept: $(stat -c %a L)"
	grep -q ' \*t/c$' L || fail "added line is not in binary form"
	# Tagged, base64.
	rm -rf t L && mkdir t && mkf t/a 10
	oracle --gen -a sha3-256 --tag --base64 t/a >L
	mkf t/b 20
	update_same "format of a tagged base64 list" L -r t
	grep -q '^SHA3-256 (t/b) = .*=$' L || fail "added line not tagged base64:" "$(cat L)"
	# Replaced and renamed lines keep their format too: tagged, binary,
	# escaped, with metadata.
	rm -rf t L && mkdir t
	mkf t/a 10; mkf t/b 20; mkf 't/c\d' 30; mkf t/e 40
	{ oracle --gen -a md5 --meta --tag t/a 't/c\d'; oracle --gen -a md5 --meta -b t/b t/e; } >L
	echo more >>t/a
	mv 't/c\d' $'t/c\nd'
	echo more >>t/b
	mv t/e t/f
	update_same "replaced and renamed lines keep their format" L --prune -r t
	grep -q '^MD5 (t/a) = ' L && grep -q '^\\MD5 (t/c\\nd) = ' L && grep -q ' \*t/b$' L &&
		grep -q ' \*t/f$' L || fail "formats not kept:" "$(cat L)"
}

@test "--update of a LIST that does not exist creates it (SHA3-256, or -a, --tag, --meta)" {
	mkdir t
	mkf t/a 10; mkf t/b 20
	update_same "create" new.sums -r t
	[ -f new.sums ] || fail "not created"
	[ "$(grep -v '^#' new.sums | cut -d' ' -f1 | awk '{ print length }' | sort -u)" = 64 ] ||
		fail "not SHA3-256"
	# Its untagged lines are SHA-256's length too: the list says which.
	[ "$(head -n 1 new.sums)" = "#fhsum untagged=sha3-256" ] || fail "no declaration:" "$(cat new.sums)"
	update_same "create md5 --meta" new2.sums -a md5 --meta -r t
	md5sum -c --strict new2.sums >/dev/null || fail "md5sum -c rejects the created list"
	update_same "create --tag" new3.sums --tag -a md5 -r t
	grep -q '^MD5 (t/a) = ' new3.sums || fail "not tagged"
}

@test "--update of an unchanged tree reads no file: no open of a listed file" {
	command -v strace >/dev/null || skip "strace not installed"
	[ -z "${FHSUM_WRAPPER-}" ] || skip "traces the native binary"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	basic_tree --meta
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=open,openat -e signal=none -o trace "$FHSUM" --update=L -r t
	# Directories are opened to be walked; no regular file of the tree, by
	# its path or by its name under a directory's descriptor.
	find t -type f -printf '%f\n' >names
	local opened
	opened=$(grep open trace | grep -v O_DIRECTORY | grep -oE '"[^"]*"' | tr -d '"' |
		sed 's|.*/||' | grep -xF -f names || :)
	[ -z "$opened" ] || fail "files of the tree opened:" "$opened"
	grep -q O_DIRECTORY trace || fail "strace saw no walk at all"
}

@test "--update re-reads every line without metadata: a file changed since is CHANGED and its line replaced" {
	basic_tree
	echo more >>t/edit
	capture got fhsum --update=L -r t
	expect "update of a list without metadata" 4 "t/edit: CHANGED" "PROG: WARNING: 1 file changed" || return 1
	md5sum -c --strict L >/dev/null || fail "md5sum -c rejects the updated list"
	grep -q '^#fhsum size=' L && fail "metadata added without --meta"
	# With --meta, every line gains its metadata, and audit agrees.
	capture got fhsum --update=L --meta -r t
	[ "$(cat got.rc)" = 0 ] || fail "--meta update: exit $(cat got.rc): $(cat got.err)"
	[ "$(grep -c '^#fhsum size=' L)" = "$(grep -vc '^#' L)" ] || fail "not every line has metadata:" "$(cat L)"
	capture got fhsum --audit=L -r t
	[ "$(cat got.rc)" = 0 ] || fail "audit after the update: exit $(cat got.rc): $(cat got.out)"
}

@test "--update killed by SIGKILL at random moments: LIST is the old or the new list, at most a whole new one beside it (timed)" {
	# Timing races, the same whatever the kernel: the full run has them;
	# the quick runs (one per kernel, emulated CPUs) leave them out.
	timed_test
	[ -z "${FHSUM_WRAPPER-}" ] || skip "kills the native process"
	mkdir t lst
	local i n=${FHSUM_AUDIT_KILLS:-10} size=64M t0 t1 dur kills=0 delay pid strays=0 newer=0
	[ "${FHSUM_QUICK:-0}" = 1 ] && size=8M
	for i in $(seq 1 16); do truncate -s "$size" "t/s$i"; printf '%s' "$i" | dd of="t/s$i" conv=notrunc status=none; done
	mkf t/a 10; mkf t/b 20
	oracle --gen -a md5 --meta t/a t/b >lst/old
	# The new list, from an uninterrupted run on a copy; timed on a second
	# run (the first pays for the sparse files' first read).
	cp lst/old new
	fhsum --update=new -j1 -r t >/dev/null 2>&1 || :
	cp lst/old new2
	t0=${EPOCHREALTIME/[.,]/}
	fhsum --update=new2 -j1 -r t >/dev/null 2>&1 || :
	t1=${EPOCHREALTIME/[.,]/}
	dur=$(((t1 - t0) / 1000)) # ms
	cmp -s new new2 || fail "two uninterrupted updates differ"
	cmp -s lst/old new && fail "the uninterrupted update changed nothing"
	for i in $(seq 1 "$n"); do
		cp -p lst/old lst/L
		# The delay is drawn before the start (python3 may start slowly).
		# Every other run near the end, where the list is written.
		if ((i % 2)); then
			delay=$(((RANDOM * 32768 + RANDOM) % (dur * 11 / 10 + 1)))
		else
			delay=$((dur * 85 / 100 + (RANDOM * 32768 + RANDOM) % (dur / 4 + 1)))
		fi
		"$FHSUM" --update=lst/L -j1 -r t >/dev/null 2>&1 &
		pid=$!
		sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
		kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
		wait "$pid" 2>/dev/null || :
		if cmp -s lst/L new; then
			newer=$((newer + 1))
		elif ! cmp -s lst/L lst/old; then
			fail "kill $i after ${delay} ms: LIST is neither the old nor the new list" "$(diff lst/old lst/L | head)"
			return 1
		fi
		# Anything else in LIST's directory was left by the killed run: at
		# most its temporary file, named (O_TMPFILE) only once it is the
		# whole new list on the disk, in the moment before the rename;
		# the next writer of LIST removes it.
		local left
		left=$(ls -A lst | grep -vx -e old -e L || :)
		if [ -n "$left" ]; then
			[[ $left == .L.fhsum-?????? ]] ||
				fail "kill $i after ${delay} ms: left beside LIST:" "$left"
			cmp -s "lst/$left" new || fail "kill $i: $left is not the whole new list"
			"$FHSUM" --update=lst/L -j1 -r t >/dev/null 2>&1 || :
			[ ! -e "lst/$left" ] || fail "kill $i: the next --update left $left"
			strays=$((strays + 1))
		fi
	done
	echo "# $kills of $n runs killed, $newer left the new list, $strays its temporary file" \
	     "(uninterrupted run: ${dur} ms)" >&3
	[ "$kills" -gt 0 ] || skip "no run was killed before it ended (uninterrupted run: ${dur} ms)"
}

# ---------------------------------------------------------------------------
# --against.

@test "--against: the same report as the tree audit, from the two lists only" {
	basic_tree
	cp L OLD
	basic_changes
	oracle --gen -r -a md5 t >NEW
	capture tree fhsum --audit=OLD -r t
	audit_same "--against" OLD --against=NEW
	compare_runs "--against vs the tree audit" tree got
	# With metadata on both sides, DAMAGED too.
	rm -rf t
	basic_tree --meta
	cp L OLD
	basic_changes
	damage t/same
	oracle --gen -r -a md5 --meta t >NEW
	capture tree fhsum --audit=OLD -r t
	audit_same "--against, metadata" OLD --against=NEW
	compare_runs "--against vs the tree audit, metadata" tree got
}

@test "--against: files the two lists name in other algorithms are not compared, never CHANGED" {
	mkdir t
	printf one >t/a; printf two >t/b; printf three >t/c
	md5sum t/a t/b >OLD
	sha256sum --tag t/a t/b t/c >NEW
	capture got fhsum --audit=OLD --against=NEW
	[ "$(cat got.rc)" = 33 ] || fail "exit $(cat got.rc), want 33 (new, not compared)" "$(cat got.out got.err)"
	[ "$(cat got.out)" = "t/c: NEW" ] || fail "statuses:" "$(cat got.out)"
	grep -qx "PROG: WARNING: 2 files are listed in other algorithms (32 hex digits in OLD, sha256 in NEW): not compared" got.err ||
		fail "$(cat got.err)"
	# One algorithm on both sides: compared as ever.
	sha256sum --tag t/a t/b >OLD2
	capture got fhsum --audit=OLD2 --against=NEW
	[ "$(cat got.rc)" = 1 ] && [ "$(cat got.out)" = "t/a: OK
t/b: OK
t/c: NEW" ] || fail "same algorithm: exit $(cat got.rc):" "$(cat got.out got.err)"
}

@test "--against opens no file but the two lists" {
	command -v strace >/dev/null || skip "strace not installed"
	[ -z "${FHSUM_WRAPPER-}" ] || skip "traces the native binary"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	basic_tree
	cp L OLD
	basic_changes
	oracle --gen -r -a md5 t >NEW
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=open,openat,openat2,stat,newfstatat,statx -e signal=none -o trace \
		"$FHSUM" --audit=OLD --against=NEW >got.out 2>got.err || :
	grep -q '"OLD"' trace && grep -q '"NEW"' trace || fail "the lists were not opened:" "$(cat trace)"
	local other
	other=$(grep -E 'open|stat' trace | grep -v -e '"OLD"' -e '"NEW"' -e '"/etc/' -e '"/lib' \
		-e '"/usr/' -e '"/proc/' -e '"/sys/' -e 'AT_EMPTY_PATH' | grep '"' || :)
	[ -z "$other" ] || fail "other files opened or looked at:" "$(head -20 <<<"$other")"
	grep -q 't/' trace && fail "the tree was touched:" "$(grep 't/' trace | head)"
	[ -s got.out ] || fail "no report"
}

# ---------------------------------------------------------------------------
# A file rewritten while it is read.

# race_run LIST ARGS...: runs fhsum ARGS in the background on t/big while a
# writer, once fhsum holds the file open or mapped, rewrites a byte of it
# every 20 ms until fhsum exits.  Sets RACED=1 when a write landed while
# fhsum had the file.
race_run() {
	rm -f race.w
	"$FHSUM" "$@" >got.out 2>got.err.raw &
	local pid=$! held=0 k=0
	while kill -0 "$pid" 2>/dev/null; do
		if ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 't/big$' ||
			grep -q 't/big$' "/proc/$pid/maps" 2>/dev/null; then
			held=1
			printf '%s' $((k % 10)) | dd of=t/big bs=1 seek=$((k * 4096 + 100)) conv=notrunc status=none
			echo w >>race.w
			k=$((k + 1))
		fi
		sleep 0.02
	done
	wait "$pid" && echo 0 >got.rc || echo $? >got.rc
	normalise_err <got.err.raw >got.err
	RACED=$held
}

@test "audit: a file rewritten while it is read is CHANGED, never DAMAGED; --meta generation and --update record no torn digest (timed)" {
	# Timing races, the same whatever the kernel: the full run has them;
	# the quick runs (one per kernel, emulated CPUs) leave them out.
	timed_test
	[ -z "${FHSUM_WRAPPER-}" ] || skip "times the native process"
	mkdir t
	truncate -s 512M t/big
	printf 'x' | dd of=t/big conv=notrunc status=none
	touch -d '@1600000000.5' t/big
	cp --sparse=always t/big big.keep
	# The list: the digest and metadata of t/big as it is before each try.
	oracle --gen -a md5 --meta t/big >L
	local try raced=0 changed=0 word
	for try in 1 2 3; do
		cp --sparse=always big.keep t/big
		touch -d '@1600000000.5' t/big
		race_run --audit=L -j1 t/big
		[ "$RACED" = 1 ] || continue
		raced=1
		# A write after fhsum's second stat may leave it OK; DAMAGED never.
		word=$(cat got.out)
		case $word in
		't/big: CHANGED') changed=$((changed + 1)) ;;
		't/big: OK') ;;
		*) fail "try $try: $word (exit $(cat got.rc))"; return 1 ;;
		esac
	done
	[ "$raced" = 1 ] || skip "no write landed while fhsum read (machine too fast?)"
	echo "# $changed of 3 tries CHANGED; $(wc -l <race.w) writes in the last" >&3
	[ "$changed" -gt 0 ] || fail "never CHANGED though written while read"
	# Generation: no line at all for a digest of no state of the file, and
	# the message; or, if the only writes came after fhsum's second stat,
	# the metadata and digest of the file as it was.
	cp --sparse=always big.keep t/big
	touch -d '@1600000000.5' t/big
	race_run --meta -a md5 -j1 t/big
	[ "$RACED" = 1 ] || skip "no write landed during --meta generation"
	if grep -q '^#fhsum' got.out; then
		same_file L got.out || fail "--meta printed metadata for a file changed while read:" "$(cat got.out)"
	else
		[ ! -s got.out ] || fail "a line for a torn digest:" "$(cat got.out)"
		grep -qx 'PROG: t/big: file changed while being read; not listed' got.err ||
			fail "no message:" "$(cat got.err)"
		[ "$(cat got.rc)" = 1 ] || fail "exit $(cat got.rc), want 1"
	fi
	# --update of a line without metadata reads the file: written while
	# read, its line stays as it was (the next update reads it again).
	grep -v '^#' L >L.plain
	cp L.plain L.before
	cp --sparse=always big.keep t/big
	race_run --update=L.plain -j1 t/big
	[ "$RACED" = 1 ] || skip "no write landed during --update"
	if grep -q 'changed while being read' got.err; then
		grep -qx 'PROG: t/big: file changed while being read; its line is kept' got.err ||
			fail "update message:" "$(cat got.err)"
		same_file L.before L.plain || fail "the torn digest was recorded:" "$(cat L.plain)"
		[ $(( $(cat got.rc) & 4 )) = 4 ] || fail "update exit $(cat got.rc), want bit 4"
	fi
}

@test "--audit from another directory, or with absolute names for a list of relative ones: the prefix is said once, with what to run" {
	mkdir -p photos/2024
	echo a >photos/a
	echo b >photos/b
	echo c >photos/2024/c
	# A list made inside photos (names relative to it), audited from
	# above: every name found is a listed one under photos/.
	(cd photos && md5sum 2024/c a b) >in.md5
	capture got fhsum --audit=in.md5 -r photos
	expect "from above" 1 "photos/2024/c: NEW
photos/a: NEW
photos/b: NEW" "PROG: WARNING: 3 new files
PROG: note: 3 of 3 names found are the list's names with 'photos/' before them
PROG: note: if nothing moved, run it from 'photos/', with names relative to it" || return 1
	# The same list and absolute names: the prefix is the directory.
	capture got fhsum --audit=in.md5 -r "$PWD/photos"
	grep -qxF "PROG: note: 3 of 3 names found are the list's names with '$PWD/photos/' before them" got.err ||
		fail "absolute names:" "$(cat got.err)"
	# A list of names under photos/, audited from inside photos: the
	# list's names are the names found under photos/.
	md5sum photos/2024/c photos/a photos/b >top.md5
	capture got in_dir_photos fhsum --audit=../top.md5 -r .
	expect "from below" 8 "./2024/c: MOVED from photos/2024/c
./a: MOVED from photos/a
./b: MOVED from photos/b" "PROG: WARNING: 3 files moved
PROG: note: 3 of 3 names found are the list's names without 'photos/' before them
PROG: note: if nothing moved, run it where the list's names start, naming the files as the list does ('photos/' before them)" || return 1
	# Files that did move, one new: nothing to say.
	mkdir photos/old
	mv photos/a photos/old/a
	echo new >photos/new
	capture got fhsum --audit=top.md5 -r photos
	! grep -q note got.err || fail "a note for a tree that changed:" "$(cat got.err)"
}

in_dir_photos() { (cd photos && "$@"); }
