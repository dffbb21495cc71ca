#!/usr/bin/env bats
# The parallel engine: output identical for every thread count, inputs of
# every kind, file lists, recursion, a file that shrinks while hashed, and
# progress only on a terminal.  Expected digests come from GNU md5sum (and
# sha1sum, sha256sum, sha512sum for the SHA families).

load helper

setup() {
	common_setup
}

@test "engine: -j1, -j2 and -j64 print the same lines and errors as md5sum over 3000 mixed inputs" {
	make_mixed
	xargs -a names -d '\n' md5sum >ref.out 2>ref.err.raw && rc=0 || rc=$?
	[ "$rc" = 123 ] || fail "xargs md5sum exit $rc"
	normalise_err <ref.err.raw | own_name_hint >ref.err
	echo 1 >ref.rc
	for j in 1 2 64; do
		capture got fhsum -a md5 -j$j --files-from=names
		compare_runs "-j$j" ref got
	done
}

@test "engine: SHA-1, SHA-256 and SHA-512 print what sha1sum, sha256sum and sha512sum print, -j1 and -j2, over 250 mixed inputs, every length around their padding and a lone big file" {
	# The SHA families' multi-buffer lanes (many inputs, refilled), the
	# single-stream kernel (a lone big file, and a lane left alone), and
	# both paddings of each (a length mod the block of 55/56 or 111/112
	# needs one block or two): the engine suite is what CI runs with
	# each family's kernels forced.
	mkdir mix pad
	python3 -c '
import random
rnd = random.Random(11)
for i in range(250):
    size = rnd.choice([0, 1, 55, 64, 1000, 4096, 70000, 300000])
    open("mix/f%03d" % i, "wb").write(rnd.randbytes(size))
for n in range(300):
    open("pad/p%03d" % n, "wb").write(bytes((i * 7 + n) & 255 for i in range(n)))
'
	{ printf 'mix/f%03d\n' $(seq 0 249); printf 'pad/p%03d\n' $(seq 0 299); } >shanames
	head -c 5000011 /dev/urandom >big
	local a j js="1 2" bad=0
	# Quick (CI's forced kernels, the sanitizers, emulation): -j2 alone.
	[ "${FHSUM_QUICK:-0}" = 1 ] && js=2
	for a in sha1 sha256 sha512; do
		xargs -a shanames -d '\n' "${a}sum" >"$a.want" || fail "${a}sum"
		for j in $js; do
			fhsum -a "$a" -j$j --files-from=shanames >"$a.got" ||
				{ echo "$a -j$j: exit $?" >&2; bad=1; }
			same_file "$a.want" "$a.got" || { echo "$a -j$j differs" >&2; bad=1; }
		done
		[ "$(fhsum -a "$a" big)" = "$("${a}sum" big)" ] || { echo "$a big" >&2; bad=1; }
	done
	return $bad
}

@test "engine: -c gives the same report for -j1, -j2 and -j64, in list order" {
	make_mixed
	xargs -a names -d '\n' md5sum >sums 2>/dev/null || true
	# Damage some lines and add missing and unreadable entries.
	sed -i '5s/^./0/; 700s/^./0/' sums
	printf '%s  %s\n' d41d8cd98f00b204e9800998ecf8427e mixed/nosuch \
		d41d8cd98f00b204e9800998ecf8427e mixed >>sums
	capture ref md5sum -c sums
	for j in 1 2 64; do
		capture got fhsum -a md5 -j$j -c sums
		compare_runs "-c -j$j" ref got
	done
}

@test "engine: a FIFO, /dev/null, a /proc file and stdin from a pipe hash as md5sum does" {
	mkfifo fifo
	(printf 'through a fifo' >fifo &)
	capture got fhsum -a md5 fifo /dev/null
	(printf 'through a fifo' >fifo &)
	capture ref md5sum fifo /dev/null
	compare_runs "fifo /dev/null" ref got
	# A /proc file reports size 0 but has content: it must be read.
	capture got fhsum -a md5 /proc/self/limits
	[ "$(cat got.rc)" = 0 ] || fail "rc $(cat got.rc)"
	[ "$(cut -c1-32 got.out)" != d41d8cd98f00b204e9800998ecf8427e ] ||
		fail "/proc/self/limits hashed as empty"
	printf 'piped' | md5sum >ref.out
	printf 'piped' | fhsum -a md5 >got.out
	cmp ref.out got.out
}

@test "engine: stdin redirected from a big regular file is hashed from its offset" {
	head -c 3000000 /dev/urandom >big
	md5sum <big >ref.out
	fhsum -a md5 <big >got.out
	cmp ref.out got.out
	# From an offset, as when a shell script read part of it first.
	(head -c 1000 >/dev/null; md5sum) <big >ref.out
	(dd bs=1000 count=1 of=/dev/null status=none; fhsum -a md5 -) <big >got.out
	cmp ref.out got.out
}

@test "engine: '-' twice reads stdin once, in order" {
	printf 'once' | md5sum - - >ref.out
	printf 'once' | fhsum -a md5 -j4 - - >got.out
	cmp ref.out got.out
}

@test "engine: --files0-from and --files-from read names from a file and from stdin" {
	printf 'a' >a; printf 'b c' >'b c'; printf 'd' >"new
line"
	md5sum a 'b c' "new
line" >ref.out
	printf 'a\0b c\0new\nline\0' >list0
	fhsum -a md5 --files0-from=list0 >got.out
	cmp ref.out got.out
	printf 'a\0b c\0new\nline\0' | fhsum -a md5 --files0-from=- >got.out
	cmp ref.out got.out
	md5sum a 'b c' >ref.out
	printf 'a\nb c\n' | fhsum -a md5 --files-from=- >got.out
	cmp ref.out got.out
	capture got fhsum -a md5 --files-from=list0 extra
	[ "$(cat got.rc)" = 1 ] && grep -q "extra operand 'extra'" got.err ||
		fail "operand with --files-from: rc $(cat got.rc) $(cat got.err)"
	capture got fhsum -a md5 --files-from=nosuch
	[ "$(cat got.rc)" = 1 ] && grep -q "nosuch" got.err || fail "missing list accepted"
}

@test "engine: -r walks directories in byte-wise order per directory, not following links met in the walk" {
	mkdir -p top/b top/a.d top/B
	printf 1 >top/b/x; printf 2 >top/a.d/y; printf 3 >top/B/z; printf 4 >top/file
	printf 5 >top/' sp'; ln -s file top/zlink; ln -s b top/zdirlink
	mkfifo top/fifo
	(cd top && md5sum ' sp' B/z a.d/y b/x file) | sed 's|  |  top/|' >ref.out
	fhsum -a md5 -r top >got.out
	diff -u ref.out got.out
	# A link named on the command line is followed.
	ln -s top toplink
	fhsum -a md5 -r toplink | sed 's|toplink/|top/|' >got.out
	diff -u ref.out got.out
	# Without -r a directory is an error, as in md5sum.
	capture got fhsum -a md5 top
	grep -q "top: Is a directory" got.err && [ "$(cat got.rc)" = 1 ]
}

# wait_open FILE: waits (60 s at most) until some process has FILE open,
# mapped or as a descriptor (the command under test runs under a shell
# function, perhaps under qemu, so its PID is not at hand).
wait_open() {
	local i path=$PWD/$1
	for ((i = 0; i < 6000; i++)); do
		grep -qsF -- " $path" /proc/[0-9]*/maps && return 0
		find /proc/[0-9]*/fd -lname "$path" 2>/dev/null | grep -q . && return 0
		sleep 0.01
	done
	fail "$1 was never opened"
}

# shrink_run SIZE FHSUM-ARGS...: runs fhsum on a sparse file "shrink" of
# SIZE (long enough to hash to be caught mid-way), truncates it to 1 MiB
# once it is open, and checks exit status 1 and the "file shrank" message.
shrink_run() {
	truncate -s "$1" shrink
	shift
	fhsum "$@" >got.out 2>got.err &
	local pid=$! rc=0
	wait_open shrink
	# An open descriptor may not have been fstat'ed yet: truncated before
	# that, the file is simply 1 MiB.  Its hashing takes seconds.
	sleep 0.2
	truncate -s 1M shrink
	wait $pid || rc=$?
	[ "$rc" = 1 ] || fail "exit status $rc" "$(cat got.err)"
	grep -qx "fhsum: shrink: file shrank while being read" got.err ||
		fail "stderr: $(cat got.err)"
}

@test "engine: a file truncated while it is hashed fails with 'file shrank', the others still print" {
	printf 'x' >before; printf 'y' >after
	shrink_run 3G -a md5 -j1 before shrink after
	md5sum before after >ref.out
	diff -u ref.out got.out
}

@test "engine: a KT128 file truncated while its leaves are hashed on several threads fails with 'file shrank'" {
	# Alone and large, its leaves run on a team of threads (kt_team.c),
	# any of which may meet the SIGBUS.
	shrink_run 40G -a kt128 -j2 shrink
	[ ! -s got.out ] || fail "stdout: $(cat got.out)"
}

@test "engine: a file whose windows are read rather than mapped that shrinks fails with 'file shrank', alone and on a KT128 team" {
	printf 'x' >before; printf 'y' >after
	FHSUM_FEED=read shrink_run 3G -a md5 -j1 before shrink after
	md5sum before after >ref.out
	diff -u ref.out got.out
	FHSUM_FEED=read shrink_run 40G -a kt128 -j2 shrink
	[ ! -s got.out ] || fail "stdout: $(cat got.out)"
}

@test "engine: windows read, mapped or chosen (FHSUM_FEED), and --no-mmap teams, give md5sum's MD5, hashlib's SHA3-256 and one KT128, alone, from an offset and on a team" {
	command -v python3 >/dev/null || skip "python3 not available"
	local feed j ref bad=0 feeds="read map auto"
	# Under emulation (FHSUM_QUICK) only the read windows, alone and on
	# a team: the mapped ones are the other tests'.
	[ "${FHSUM_QUICK:-0}" = 1 ] && feeds=read
	# Three windows and a tail; the KT128 team starts at 4 MiB.
	head -c 20971529 /dev/urandom >big
	md5sum big >md5.want
	(head -c 4097 >/dev/null; md5sum) <big >md5.off
	python3 -c '
import hashlib, sys
print(hashlib.sha3_256(open(sys.argv[1], "rb").read()).hexdigest() + "  big")
' big >sha3.want
	# KT128 read whole (--no-mmap), the path the vector tests cover.
	ref=$(fhsum -a kt128 -j1 --no-mmap big) || return 1
	for feed in $feeds; do
		for j in 1 2; do
			[ "$(FHSUM_FEED=$feed fhsum -a md5 -j$j big)" = "$(cat md5.want)" ] ||
				{ echo "md5 $feed -j$j" >&2; bad=1; }
			[ "$(FHSUM_FEED=$feed fhsum -a sha3-256 -j$j big)" = "$(cat sha3.want)" ] ||
				{ echo "sha3-256 $feed -j$j" >&2; bad=1; }
			[ "$(FHSUM_FEED=$feed fhsum -a kt128 -j$j big)" = "$ref" ] ||
				{ echo "kt128 $feed -j$j" >&2; bad=1; }
		done
		[ "$( (head -c 4097 >/dev/null; FHSUM_FEED=$feed fhsum -a md5 -) <big)" = "$(cat md5.off)" ] ||
			{ echo "md5 $feed from offset 4097" >&2; bad=1; }
	done
	# --no-mmap: a lone KT128 file's team reads the leaves it claims.
	[ "$(fhsum -a kt128 -j2 --no-mmap big)" = "$ref" ] || { echo "kt128 --no-mmap -j2" >&2; bad=1; }
	[ "$( (head -c 4097 >/dev/null; fhsum -a kt128 -j2 --no-mmap -) <big)" = \
		"$( (head -c 4097 >/dev/null; fhsum -a kt128 -j1 --no-mmap -) <big)" ] ||
		{ echo "kt128 --no-mmap -j2 from offset 4097" >&2; bad=1; }
	return $bad
}

@test "engine: a listed file that shrinks while checked is FAILED open or read" {
	truncate -s 3G shrink
	printf '%s  shrink\n' 00000000000000000000000000000000 >sums
	fhsum -a md5 -j1 -c sums >got.out 2>got.err &
	local pid=$!
	wait_open shrink
	truncate -s 0 shrink
	local rc=0
	wait $pid || rc=$?
	[ "$rc" = 1 ] || fail "exit status $rc"
	grep -qx "shrink: FAILED open or read" got.out || fail "stdout: $(cat got.out)"
	grep -q "file shrank while being read" got.err || fail "stderr: $(cat got.err)"
}

@test "engine: progress appears on a terminal and never in a pipe" {
	# Long enough to be drawn a few times (every 200 ms).
	local size=1G
	[ "${FHSUM_QUICK:-0}" = 1 ] && size=256M
	truncate -s $size sparse
	on_tty tty.out "${FHSUM_WRAP[*]} $FHSUM --progress -a md5 sparse" || fail "exit status $?"
	grep -q 'files' tty.out || fail "no progress on a terminal: $(cat -A tty.out)"
	# Erased before exit: the digest line comes after an erase.
	grep -q $'\033\\[K' tty.out || fail "progress line not erased"
	fhsum --progress -a md5 sparse 2>err.out | cat >/dev/null
	[ ! -s err.out ] || fail "progress on a pipe: $(cat -A err.out)"
	on_tty tty.out "${FHSUM_WRAP[*]} $FHSUM --no-progress -a md5 sparse" || fail "exit status $?"
	! grep -q 'files' tty.out || fail "--no-progress drew progress"
}

@test "engine: progress in -c shows what is known: no bytes' total, no time left but the time spent, a partial files' total marked +" {
	# A list gives no sizes: the line must not show "/0 B" nor a time
	# left.  Two big files so that it is drawn a few times (the engine
	# draws every 200 ms: two of 128 MiB side by side in MD5's lanes took
	# about that, and CI once saw no line).
	local size=512M
	[ "${FHSUM_QUICK:-0}" = 1 ] && size=384M
	truncate -s $size big1 big2
	printf '%s  big1\n%s  big2\n' "$(md5sum <big1 | cut -c1-32)" "$(md5sum <big2 | cut -c1-32)" >list
	on_tty tty.out "${FHSUM_WRAP[*]} $FHSUM --progress -a md5 -j1 -c list" || fail "exit status $?"
	python3 - tty.out <<'PY' || fail "bad progress lines: $(tr '\r' '\n' <tty.out | head -20 | cat -A)"
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
lines = [l for l in re.split(r"[\r\n]", text) if "files," in l]
if not lines:
    sys.exit("no progress line")
for l in lines:
    m = re.search(r"(\d+)/(\d+)(\+?) files, ([0-9.]+ (?:B|KiB|MiB|GiB)), ([0-9.]+ (?:B|KiB|MiB|GiB))/s, \d+:\d\d:\d\d$", l)
    if not m:
        sys.exit("line not of the form 'D/N files, BYTES, RATE/s, ELAPSED': %r" % l)
    if "left" in l or "/0 B" in l:
        sys.exit("a total that is not known: %r" % l)
PY
	grep -qx 'big1: OK' <(tr -d '\r' <tty.out | sed 's/.*\x1b\[K//') || fail "no OK line: $(cat -A tty.out | head)"
	# A list longer than what the engine holds ahead (16 Ki inputs), its
	# first file big: while that one is hashed the list is not read to
	# its end, and the files' total says it is partial.
	local i
	{
		printf '%s  big1\n' "$(md5sum <big1 | cut -c1-32)"
		for i in $(seq 1 50000); do printf 'd41d8cd98f00b204e9800998ecf8427e  e\n'; done
	} >long
	: >e
	on_tty tty.out "${FHSUM_WRAP[*]} $FHSUM --progress --quiet -a md5 -j1 -c long" || fail "exit status $?"
	tr '\r' '\n' <tty.out | grep -q '^.*/[0-9]*+ files, ' ||
		fail "no partial total: $(tr '\r' '\n' <tty.out | grep files, | head -3)"
	! tr '\r' '\n' <tty.out | grep -q '/50001 files, .*left' || fail "time left shown"
}

@test "engine: progress on one big file shows more bytes hashed at every redraw" {
	# SHA3-512 runs at a few hundred MB/s: seconds of redraws, each of
	# which must show more bytes hashed than the one before.
	local size=1G
	[ "${FHSUM_QUICK:-0}" = 1 ] && size=256M
	truncate -s $size sparse
	on_tty tty.out "${FHSUM_WRAP[*]} $FHSUM --progress -a sha3-512 sparse" || fail "exit status $?"
	python3 - tty.out <<'PY' || fail "progress did not grow: $(tr '\r' '\n' <tty.out | head -20)"
import re, sys
units = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
done = [float(n) * units[u] for n, u in
        re.findall(r"files, ([0-9.]+) (B|KiB|MiB|GiB|TiB)/", text)]
if len(done) < 3:
    sys.exit("only %d redraws" % len(done))
bad = [(a, b) for a, b in zip(done, done[1:]) if b <= a]
if bad:
    sys.exit("bytes did not grow between redraws: %r" % bad[:3])
PY
}
