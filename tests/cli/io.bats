#!/usr/bin/env bats
# The engine's reading: the I/O stage's look-ahead and the depth-1 path
# never change what is printed or its order; descriptors stay bounded
# under a low RLIMIT_NOFILE; files that change after the look-ahead opened
# them; depth 1 reads one file at a time, in order.  Expected digests come
# from GNU md5sum.  FHSUM_LOOKAHEAD=always makes the I/O stage open every
# input ahead even though the test files are cached.

load helper

setup() {
	common_setup
}

teardown() {
	[ -z "${LOOPDEV:-}" ] || losetup -d "$LOOPDEV" 2>/dev/null || true
}

@test "io: every -j, --io-depth and look-ahead mode prints what md5sum prints over 3000 mixed inputs" {
	make_mixed
	xargs -a names -d '\n' md5sum >ref.out 2>ref.err.raw && rc=0 || rc=$?
	[ "$rc" = 123 ] || fail "xargs md5sum exit $rc"
	normalise_err <ref.err.raw | own_name_hint >ref.err
	echo 1 >ref.rc
	local js="1 2 7" depths="1 2 32 256" aheads="auto always"
	[ "${FHSUM_QUICK:-0}" = 1 ] && js="1 2" depths="1 32" aheads=always
	for j in $js; do
		for d in $depths; do
			for a in $aheads; do
				FHSUM_LOOKAHEAD=$a capture got fhsum -a md5 -j$j --io-depth=$d --files-from=names
				compare_runs "-j$j --io-depth=$d look-ahead $a" ref got
			done
		done
	done
}

@test "io: -c reports in list order at every --io-depth, with the look-ahead forced" {
	make_mixed
	xargs -a names -d '\n' md5sum >sums 2>/dev/null || true
	sed -i '5s/^./0/; 700s/^./0/' sums
	printf '%s  %s\n' d41d8cd98f00b204e9800998ecf8427e mixed/nosuch \
		d41d8cd98f00b204e9800998ecf8427e mixed >>sums
	capture ref md5sum -c sums
	for d in 1 3 64; do
		FHSUM_LOOKAHEAD=always capture got fhsum -a md5 -j2 --io-depth=$d -c sums
		compare_runs "-c --io-depth=$d" ref got
	done
}

@test "io: 10,000 files under ulimit -n 64 hash as md5sum does, with and without the look-ahead" {
	mkdir many
	local n=10000
	[ "${FHSUM_QUICK:-0}" = 1 ] && n=2000
	python3 - "$n" <<'PY'
import os, random, sys
rnd = random.Random(11)
blob = os.urandom(3 << 20)
with open("list", "w") as lst:
    for i in range(int(sys.argv[1])):
        r = rnd.random()
        size = (3 << 20) - i if r < 0.002 else rnd.randrange(65536) if r < 0.1 else rnd.randrange(4096)
        name = "many/f%05d" % i
        with open(name, "wb") as f:
            f.write(blob[i % 4096:i % 4096 + size])
        lst.write(name + "\n")
PY
	xargs -a list md5sum >ref.out
	local aheads="auto always" js="2 8"
	[ "${FHSUM_QUICK:-0}" = 1 ] && aheads=always js=8
	for a in $aheads; do
		for j in $js; do
			(ulimit -n 64 && FHSUM_LOOKAHEAD=$a fhsum -a md5 -j$j --files-from=list) \
				>got.out 2>got.err || fail "look-ahead $a -j$j: exit $?" "$(head -5 got.err)"
			[ ! -s got.err ] || fail "look-ahead $a -j$j: $(head -5 got.err)"
			cmp -s ref.out got.out || fail "look-ahead $a -j$j: output differs"
		done
	done
}

@test "io: after the look-ahead opened them, a file that shrinks fails, deleted and replaced files hash as opened, a vanished name is not found" {
	[ -z "${FHSUM_WRAPPER-}" ] || skip "watches the process's descriptors natively"
	mkfifo gate
	head -c 300000 /dev/urandom >shrinks
	head -c 5000 /dev/urandom >deleted
	head -c 7000 /dev/urandom >replaced
	printf 'vanishes' >vanished
	local fill=()
	for i in $(seq 14); do printf 'filler %d' "$i" >"f$i"; fill+=("f$i"); done
	printf 'through the gate' | md5sum | sed 's/-$/gate/' >ref.out
	md5sum deleted replaced "${fill[@]}" >>ref.out
	# One worker, held by the FIFO; the stage opens the next few inputs
	# (up to 3 past the worker's claim), not the last.
	FHSUM_LOOKAHEAD=always fhsum -a md5 -j1 --io-depth=3 gate shrinks deleted \
		replaced "${fill[@]}" vanished >got.out 2>got.err &
	local pid=$! i
	for ((i = 0; i < 3000; i++)); do
		local n
		n=$(find /proc/[0-9]*/fd -lname "$PWD/shrinks" -o -lname "$PWD/deleted" \
			-o -lname "$PWD/replaced" 2>/dev/null | wc -l)
		[ "$n" -ge 3 ] && break
		sleep 0.01
	done
	[ "$i" -lt 3000 ] || fail "the look-ahead never opened the files"
	find /proc/[0-9]*/fd -lname "$PWD/vanished" 2>/dev/null | grep -q . &&
		fail "the look-ahead went further than --io-depth"
	truncate -s 1000 shrinks
	rm deleted vanished
	printf 'new' >replaced.new && mv replaced.new replaced
	printf 'through the gate' >gate
	local rc=0
	wait $pid || rc=$?
	[ "$rc" = 1 ] || fail "exit status $rc" "$(cat got.err)"
	diff -u ref.out got.out
	grep -qx "fhsum: shrinks: file shrank while being read" got.err ||
		fail "stderr: $(cat got.err)"
	grep -qx "fhsum: vanished: No such file or directory" got.err ||
		fail "stderr: $(cat got.err)"
	[ "$(wc -l <got.err)" = 2 ] || fail "stderr: $(cat got.err)"
}

# read_order TRACE NAME...: from strace -f output, checks that reads of the
# files NAME... never overlap in time and come in the order given, each
# file's reads together.  Files are opened with openat (glibc) or open
# (musl on x86-64).
read_order() {
	python3 - "$@" <<'PY'
import re, sys
trace, names = sys.argv[1], sys.argv[2:]
rank = {n: i for i, n in enumerate(names)}
fd_file = {}        # descriptor -> file index
pending = {}        # pid -> (call, fd, file index) of an unfinished call
inflight = set()    # file indices with a read in flight
order = []          # file index of each read, in start order
open_re = re.compile(r'open(?:at\(AT_FDCWD,|\() ?"([^"]*)", [^)]*\)\s*= (\d+)')
name_re = re.compile(r'open(?:at\(AT_FDCWD,|\() ?"([^"]*)"')
for line in open(trace):
    pid, rest = line.split(None, 1)
    if rest.startswith("<..."):
        call, fd, f = pending.pop(pid, (None, None, None))
        if call == "read" and f is not None:
            inflight.discard(f)
        elif call == "open":
            m = re.search(r"= (\d+)", rest)
            if m and fd in rank:
                fd_file[int(m.group(1))] = rank[fd]
        continue
    unfinished = "<unfinished" in rest
    if rest.startswith(("openat(", "open(")):
        m = name_re.match(rest)
        name = m.group(1) if m else None
        if unfinished:
            pending[pid] = ("open", name, None)
        else:
            m = open_re.match(rest)
            if m and m.group(1) in rank:
                fd_file[int(m.group(2))] = rank[m.group(1)]
    elif rest.startswith("read("):
        fd = int(re.match(r"read\((\d+)", rest).group(1))
        f = fd_file.get(fd)
        if f is None:
            continue
        if inflight - {f}:
            sys.exit("reads of %s and %s in flight together"
                     % (names[f], [names[g] for g in inflight - {f}]))
        order.append(f)
        if unfinished:
            inflight.add(f)
            pending[pid] = ("read", fd, f)
    elif rest.startswith("close("):
        fd = int(re.match(r"close\((\d+)", rest).group(1))
        fd_file.pop(fd, None)
        if unfinished:
            pending[pid] = ("close", fd, None)
runs = [f for i, f in enumerate(order) if i == 0 or order[i - 1] != f]
if runs != sorted(set(runs)) or len(runs) != len(names):
    sys.exit("files read out of order or interleaved: %r" % [names[f] for f in runs][:20])
PY
}

@test "io: --io-depth=1 reads one file at a time, in order, even with several threads" {
	command -v strace >/dev/null || skip "strace not installed"
	[ -z "${FHSUM_WRAPPER-}" ] || skip "traces the native binary"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	local names=()
	for i in $(seq -w 1 40); do
		head -c $(( (10#$i % 4 == 0 ? 3 << 20 : 1000 * 10#$i) )) /dev/urandom >"in$i"
		names+=("in$i")
	done
	md5sum "${names[@]}" >ref.out
	# LeakSanitizer cannot work under ptrace: no leak check in this run.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=open,openat,read,close -e signal=none -o trace \
		"$FHSUM" -a md5 -j2 --io-depth=1 "${names[@]}" >got.out
	diff -u ref.out got.out
	read_order trace "${names[@]}" || fail "depth 1 read files together"
}

@test "io: a pipe on standard input and a FIFO operand are given a 1 MiB buffer (Linux), their bytes hashed as md5sum hashes them" {
	python3 -c 'import fcntl; fcntl.F_GETPIPE_SZ' 2>/dev/null ||
		skip "no F_GETPIPE_SZ here (Linux, Python 3.10+)"
	[ "$(cat /proc/sys/fs/pipe-max-size)" -ge 1048576 ] ||
		skip "pipe-max-size is under 1 MiB"
	fhsum --debug /dev/null 2>&1 >/dev/null | grep -q ': OS layer linux$' ||
		skip "the portable OS layer leaves pipes as they are"
	mkfifo fifo
	# The writer waits, with its data half written, until the reader has
	# widened the pipe, then reports the size it saw and writes the rest.
	cat >writer.py <<'PY'
import fcntl, os, sys, time
fd = int(sys.argv[1]) if sys.argv[1].isdigit() else os.open(sys.argv[1], os.O_WRONLY)
data = bytes(i % 251 for i in range(3 << 20))
os.write(fd, data[:1000])
size = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
end = time.time() + 10
while size < (1 << 20) and time.time() < end:
    time.sleep(0.01)
    size = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
view = memoryview(data)[1000:]
while view:
    view = view[os.write(fd, view):]
os.close(fd)
open(sys.argv[2], "w").write(str(size))
PY
	python3 -c 'import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(3 << 20)))' >data
	want=$(md5sum <data | cut -c1-32)

	# Standard input: the pipe of a shell pipeline.
	python3 writer.py 1 stdin.size | fhsum -a md5 >got.out
	[ "$(cat got.out)" = "$want  -" ] || fail "stdin digest" "$(cat got.out)"
	[ "$(cat stdin.size)" = 1048576 ] || fail "stdin pipe size $(cat stdin.size)"

	# A FIFO named on the command line.
	python3 writer.py fifo fifo.size &
	fhsum -a md5 fifo >got.out
	wait $!
	[ "$(cat got.out)" = "$want  fifo" ] || fail "fifo digest" "$(cat got.out)"
	[ "$(cat fifo.size)" = 1048576 ] || fail "fifo pipe size $(cat fifo.size)"
}

@test "io: a block device hashes as b3sum, sha256sum and cksum read it; a cached one is mapped" {
	[ "$(id -u)" = 0 ] || skip "losetup needs root"
	command -v losetup >/dev/null || skip "losetup not installed"
	command -v b3sum >/dev/null || skip "b3sum not installed"
	command -v strace >/dev/null || skip "strace not installed"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	# 40 MiB and three sectors: past the CRC slices' and the BLAKE3
	# team's least sizes, and not a whole number of windows.
	head -c $(((40 << 20) + 1536)) /dev/urandom >disk.img
	local dev
	dev=$(losetup -f --show disk.img 2>/dev/null) || skip "no loop device here"
	LOOPDEV=$dev
	local bad=0 held
	# A device's page cache goes at its last close: a holder keeps it.
	exec {held}<"$dev"
	cat "$dev" >/dev/null
	local b3 sha crc
	b3=$(b3sum <disk.img | cut -c1-64)
	sha=$(sha256sum <disk.img | cut -c1-64)
	crc=$(cksum <disk.img)
	for j in 1 2; do
		[ "$(fhsum -j$j -a blake3 "$dev")" = "$b3  $dev" ] || { echo "blake3 -j$j" >&2; bad=1; }
		[ "$(fhsum -j$j -a sha256 "$dev")" = "$sha  $dev" ] || { echo "sha256 -j$j" >&2; bad=1; }
		[ "$(fhsum -j$j -a crc <"$dev")" = "$crc" ] || { echo "crc -j$j" >&2; bad=1; }
		[ "$(fhsum -j$j -a crc "$dev")" = "$crc $dev" ] || { echo "crc named -j$j" >&2; bad=1; }
		[ "$(fhsum -j$j --no-mmap -a blake3 "$dev")" = "$b3  $dev" ] || { echo "blake3 --no-mmap -j$j" >&2; bad=1; }
		[ "$(fhsum -j$j --no-mmap -a crc "$dev")" = "$crc $dev" ] || { echo "crc --no-mmap -j$j" >&2; bad=1; }
	done
	[ "$( (head -c 4097 >/dev/null; fhsum -a blake3) <"$dev")" = \
	  "$( (head -c 4097 >/dev/null; b3sum) <"$dev")" ] || { echo "from offset 4097" >&2; bad=1; }
	# Cached, it is mapped; with only its first MiB cached (as a mounted
	# file system's device keeps its first pages), it is read.
	if can_trace; then
		mapped() { # prints yes if fhsum mapped the device
			trace_fhsum mmap -a blake3 "$dev"
			# Nothing else is mapped shared and that large.
			grep -Eq "mmap\(NULL, [0-9]{7,}, PROT_READ, MAP_SHARED" trace && echo yes
		}
		[ "$(mapped)" = yes ] || { echo "the cached device was not mapped" >&2; bad=1; }
		python3 -c 'import os, sys; os.posix_fadvise(int(sys.argv[1]), 0, 0, os.POSIX_FADV_DONTNEED)' "$held"
		head -c 1048576 "$dev" >/dev/null
		[ "$(mapped)" != yes ] || { echo "a device cached only at its start was mapped" >&2; bad=1; }
		[ "$(fhsum -a blake3 "$dev")" = "$b3  $dev" ] || { echo "blake3 partly cached" >&2; bad=1; }
	fi
	exec {held}<&-
	# Not held, it is read cold, in order, as before.
	[ "$(fhsum -a blake3 "$dev")" = "$b3  $dev" ] || { echo "blake3 cold" >&2; bad=1; }
	[ "$(fhsum -a crc "$dev")" = "$crc $dev" ] || { echo "crc cold" >&2; bad=1; }
	[ "$bad" = 0 ]
}
