#!/bin/bash
# faults.sh: fhsum against a file system that fails (TAP).  faultfs
# (faultfs.c) mounts a backing directory of real files; one of them, bad
# (12 MiB and a little: two mapping windows and a tail), misbehaves as
# each case tells it: EIO from an offset in the first or the second
# window, an open refused (EACCES, EIO), short reads, a shrink or a
# growth while it is read, slow answers.  Every way fhsum reads a file
# meets every fault: the lone mapped file (default -j, -j1, -j2, which
# gives KT128 a thread team), its windows read rather than mapped
# (FHSUM_FEED=read, alone and by a team), --io-depth=1, the SIMD lanes
# (bad among good files), --no-mmap (after a good file, and alone with
# -j2, where KT128's team reads), standard input and -c; with MD5,
# SHA3-256 and KT128; then --part-size's parts, and a 40 MiB file hashed
# with -a crc in slices on two threads.  Each case checks stdout, stderr
# and the exit status against what GNU md5sum would print (error lines in
# its form, the good files' lines from independent digests; GNU cksum's
# for the slices) and a time bound; a run that outlives it is killed and
# fails.  Then SIGINT and SIGTERM must end a run that
# waits on a slow or failing file within 2 s, and a scrub's --max-time
# must start no file after its deadline on slow reads.
#
# FHSUM_QUICK=1 runs a representative subset; FHSUM_FAULT_FILTER=REGEX
# only the cases whose name matches (an extended regular expression, as
# bash's =~), e.g. 'kt128 j2|SIGINT'.  FAULTFS names the file system's
# binary (meson sets it).  Needs /dev/fuse and the right to mount;
# without them the suite is skipped.
#
# What the kernel does (Linux 6.18, tests/fault/mapprobe.c): a touch of a
# mapped page that the file system fails raises SIGBUS at once (si_code
# BUS_ADRERR, as past the end of a shrunk file); MADV_POPULATE_READ fails
# at once with EFAULT; mmap with MAP_POPULATE retries the failing read
# without end (10,000 to 30,000 a second) and never returns, and only a
# fatal signal ends it: one the process handles does not.

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
: "${FAULTFS:=$FAULT_DIR/../../build/tests/fault/faultfs}"

[ -c /dev/fuse ] && [ -r /dev/fuse ] && [ -w /dev/fuse ] || skip_all "no usable /dev/fuse"
[ -x "$FAULTFS" ] || skip_all "faultfs not built (libfuse3 missing?)"
[ -x "$FHSUM" ] || { echo "Bail out! binary under test not found: $FHSUM"; exit 1; }
command -v md5sum >/dev/null || skip_all "GNU md5sum (the oracle) missing"
env --default-signal=INT true 2>/dev/null || skip_all "env(1) lacks --default-signal (coreutils < 9.0)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fhsum-faults.XXXXXX") || exit 1
BACK=$WORK/back MNT=$WORK/mnt CONTROL=$WORK/control CASE=$WORK/case
DIAG=$WORK/diag
FS_PID=
mkdir "$BACK" "$MNT" "$CASE"
: >"$CONTROL"
init_watchdog "$WORK"

# The file system: started in the foreground of a background job, so its
# PID is ours to end; ended with SIGKILL (which also fails every request
# still waiting on it) and a lazy unmount.
start_fs() {
	local i
	"$FAULTFS" "$CONTROL" "$BACK" "$MNT" -f -o ro,fsname=faultfs 2>>"$WORK/faultfs.log" &
	FS_PID=$!
	for i in $(seq 100); do
		mountpoint -q "$MNT" && return 0
		kill -0 "$FS_PID" 2>/dev/null || break
		nap 0.05
	done
	return 1
}

stop_fs() {
	if [ -n "$FS_PID" ]; then
		kill -KILL "$FS_PID" 2>/dev/null
		wait "$FS_PID" 2>/dev/null
	fi
	umount -l "$MNT" 2>/dev/null || fusermount3 -u -z "$MNT" 2>/dev/null
	FS_PID=
}

cleanup() {
	kill_jobs
	stop_fs
	if mountpoint -q "$MNT"; then
		echo "# $MNT is still mounted: $WORK left in place"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# The watchdog's last resort: a run still there 6 s after SIGTERM sits on
# the file system; ending faultfs fails its requests.
fs_hook() { kill -KILL "$FS_PID" 2>/dev/null; }
WD_HOOK=fs_hook

# After each case: a file system the watchdog ended comes back, and the
# reads that a killed run left in flight are over (the next open of their
# file would wait for them, in an uninterruptible sleep: faultfs.c).
ensure_fs() {
	local i
	if ! kill -0 "$FS_PID" 2>/dev/null || ! mountpoint -q "$MNT"; then
		note "faultfs had to be ended to free the run; mounted again"
		stop_fs
		start_fs || { echo "Bail out! cannot mount faultfs again"; exit 1; }
	fi
	for i in $(seq 50); do
		timeout 2 grep -q 'inflight=[1-9]' "$MNT/.faultfs" 2>/dev/null || return 0
		nap 0.1
	done
	note "faultfs still answers reads of an ended run after 5 s"
}

if ! start_fs; then
	why=$(tail -n 1 "$WORK/faultfs.log" 2>/dev/null)
	stop_fs
	skip_all "cannot mount a FUSE file system here${why:+: $why}"
fi

set_control() { # LINE...
	printf '%s\n' "$@" >"$CONTROL.new"
	mv "$CONTROL.new" "$CONTROL"
}

# faultfs's counters for bad (or the file named), as diagnostics.
fs_stats() {
	local s
	s=$(timeout 2 grep "^${1:-bad} " "$MNT/.faultfs" 2>/dev/null) || return 0
	note "faultfs: $s"
}

# ---------------------------------------------------------------------------
# Files and their digests.

BAD_SIZE=12583035       # 12 MiB + 123
GROW_FROM=6291533       # what bad shows before it grows: 6 MiB + 77
GOOD=(g1:100000 g2:3000 g3:1572871 g4:0)
"$PYTHON" "$ORACLE" selftest || { echo "Bail out! oracle.py selftest failed"; exit 1; }
"$PYTHON" "$ORACLE" make "$BACK" bad:$BAD_SIZE "${GOOD[@]}" ||
	{ echo "Bail out! cannot write the test files"; exit 1; }
ALGOS=(md5 sha3-256 kt128)
for a in "${ALGOS[@]}"; do
	load_digests "$a" "$BACK" bad "bad:$GROW_FROM" g1 g2 g3 g4
	: >"$WORK/list.$a"
	for f in g1 bad g2 g3; do
		printf '%s  %s\n' "$(digest "$a" "$f")" "$f" >>"$WORK/list.$a"
	done
done

# ---------------------------------------------------------------------------
# The tables.
#
# Faults: NAME|CONTROL|KIND|MESSAGE|SECONDS.  KIND: err (a read error:
# MESSAGE), shrink (the same, with fhsum's shrink message), ok (the right
# digest), grow (the digest of what bad showed at open or of all of it).
# SECONDS bounds the run: 10 s for an error, as the specification asks.
FAULTS=(
	"eio-first|eio=3000000|err|Input/output error|10"
	"eio-later|eio=9442304|err|Input/output error|10"
	"eacces|open=EACCES|err|Permission denied|10"
	"open-eio|open=EIO|err|Input/output error|10"
	"short|short=1000|ok||20"
	"shrink|shrink=1048576:524288|shrink|file shrank while being read|10"
	"grow|grow=2097152:$GROW_FROM|grow||10"
	"slow|slow=20|ok||20"
)
# Paths: NAME|OPTIONS|OPERANDS (OPTIONS: words NAME=VALUE go to fhsum's
# environment), OPERANDS one of lone (bad), lanes (bad
# among good files of every size), pair (a good file, then bad), stdin
# (bad on standard input), check (-c of a list of bad and good files).
PATHS=(
	"one||lone"
	"j1|-j1|lone"
	"j2|-j2|lone"
	"depth1|--io-depth=1|lone"
	"lanes||lanes"
	"nommap|--no-mmap|pair"
	"feedread|FHSUM_FEED=read -j1|lone"
	"feedteam|FHSUM_FEED=read -j2|pair"
	"nommapj2|--no-mmap -j2|lone"
	"stdin||stdin"
	"check||check"
)
QUICK_CASES=" md5/one md5/j2 md5/lanes md5/nommap md5/feedread md5/stdin md5/check kt128/j2 kt128/feedteam kt128/nommapj2 sha3-256/lanes "
QUICK_FAULTS=" eio-first eio-later eacces short shrink grow slow "

# want_case PREFIX ALGO MODE KIND MESSAGE [PREFIXLEN]: PREFIX.out, .err
# and .rc as GNU md5sum would print them for this case (generating, or
# checking with MODE check), bad's digest that of its first PREFIXLEN
# bytes where given.  Sets OPERANDS.
want_case() {
	local p=$1 algo=$2 mode=$3 kind=$4 msg=$5 len f name rc=0
	case $mode in
	lone) OPERANDS=(bad) ;;
	lanes) OPERANDS=(g1 bad g2 g3 g4) ;;
	pair) OPERANDS=(g1 bad) ;;
	stdin) OPERANDS=(-) ;;
	check) OPERANDS=(g1 bad g2 g3) ;;
	esac
	: >"$p.out"
	: >"$p.err"
	for f in "${OPERANDS[@]}"; do
		name=$f
		[ "$f" = - ] && f=bad
		len=all
		[ "$f" = bad ] && len=${6:-all}
		if [ "$f" != bad ] || [ "$kind" = ok ] || [ "$kind" = grow ]; then
			if [ "$mode" != check ]; then
				printf '%s  %s\n' "$(digest "$algo" "$f" "$len")" "$name" >>"$p.out"
			elif [ "$len" = all ]; then
				printf '%s: OK\n' "$name" >>"$p.out"
			else
				printf '%s: FAILED\n' "$name" >>"$p.out"
				rc=2
			fi
			continue
		fi
		rc=1
		[ "$mode" = check ] && printf '%s: FAILED open or read\n' "$name" >>"$p.out"
		printf 'fhsum: %s: %s\n' "$name" "$msg" >>"$p.err"
	done
	if [ "$mode" = check ] && [ $rc = 1 ]; then
		echo "fhsum: WARNING: 1 listed file could not be read" >>"$p.err"
	elif [ $rc = 2 ]; then
		echo "fhsum: WARNING: 1 computed checksum did NOT match" >>"$p.err"
		rc=1
	fi
	echo $rc >"$p.rc"
}

# args_for ALGO MODE OPTIONS: the command line (ARGS) and standard input
# (STDIN) of a case.
args_for() {
	local algo=$1 mode=$2 opts o
	read -r -a opts <<<"$3"
	ARGS=(-a "$algo")
	FH_ENV=()
	for o in "${opts[@]}"; do
		if [[ $o == [A-Z]*=* ]]; then FH_ENV+=("$o"); else ARGS+=("$o"); fi
	done
	STDIN=/dev/null
	case $mode in
	stdin) STDIN=$MNT/bad ;;
	check) ARGS+=(-c "$WORK/list.$algo") ;;
	*) ARGS+=("${OPERANDS[@]}") ;;
	esac
}

fault_case() { # ALGO PATH-ENTRY FAULT-ENTRY
	local algo=$1 pname popts mode fname spec kind msg limit label ok=0 w2=''
	IFS='|' read -r pname popts mode <<<"$2"
	IFS='|' read -r fname spec kind msg limit <<<"$3"
	# A file read whole through slow or short FUSE answers takes its time
	# from the file system, and under a sanitizer faultfs itself is
	# instrumented: those bounds grow there.  An error's stays 10 s.
	[ "$kind" = ok ] && [ "${FHSUM_SANITIZE:-none}" != none ] &&
		limit=$((limit * 4))
	label="$algo $pname $fname"
	wanted "$label" || return 0
	case_start
	set_control "bad $spec"
	want_case "$CASE/want" "$algo" "$mode" "$kind" "$msg"
	if [ "$kind" = grow ]; then
		want_case "$CASE/want2" "$algo" "$mode" "$kind" "$msg" "$GROW_FROM"
		w2=$CASE/want2
	fi
	args_for "$algo" "$mode" "$popts"
	run_fh "$CASE/got" $((limit + 2)) "$MNT" "$STDIN" "${ARGS[@]}"
	note "fhsum ${ARGS[*]}$([ "$mode" = stdin ] && echo ' < bad') (in the mount; bad: $spec)"
	if [ -n "$w2" ] && DIAG=/dev/null expect_run "$w2" "$CASE/got"; then
		ok=1
	elif expect_run "$CASE/want" "$CASE/got"; then
		ok=1
	elif [ -n "$w2" ]; then
		note "(nor the digest of the $GROW_FROM bytes bad had at open)"
	fi
	if [ $ok = 1 ] && [ "$MS" -gt $((limit * 1000)) ]; then
		ok=0
		note "took $(ms_text "$MS"), over the bound of $limit s"
	fi
	label="$label ($(ms_text "$MS"))"
	[ $RC = 124 ] && label="$label: timed out" && ok=0
	if [ $ok = 1 ]; then
		pass "$label"
	else
		timed_out_note "$CASE/got"
		fs_stats
		ensure_fs
		fail_case "$label"
	fi
	ensure_fs
}

# oracle_case PATH-ENTRY FAULT-ENTRY: GNU md5sum, reading through the
# same fault, prints what want_case writes for MD5 (its name aside).
# Faults that md5sum's read(2) sees as fhsum must: not shrink or grow,
# where md5sum hashes whatever it reads.
oracle_case() {
	local pname popts mode fname spec kind msg limit label
	IFS='|' read -r pname popts mode <<<"$1"
	IFS='|' read -r fname spec kind msg limit <<<"$2"
	label="oracle: md5sum agrees with the expectation of $pname $fname"
	wanted "$label" || return 0
	case_start
	set_control "bad $spec"
	want_case "$CASE/want" md5 "$mode" "$kind" "$msg"
	args_for md5 "$mode" "$popts"
	(cd "$MNT" && timeout -k 2 $((limit + 2)) md5sum "${ARGS[@]:2}") <"$STDIN" \
		>"$CASE/ref.out" 2>"$CASE/ref.raw"
	RC=$?
	sed 's/^md5sum: /fhsum: /' "$CASE/ref.raw" >"$CASE/ref.err"
	if expect_run "$CASE/want" "$CASE/ref"; then
		pass "$label"
	else
		fail_case "$label (TABLE ERROR: fix want_case)"
	fi
}

wanted() { [ -z "${FHSUM_FAULT_FILTER:-}" ] || [[ $1 =~ $FHSUM_FAULT_FILTER ]]; }

in_quick() { # ALGO PATH FAULT
	[[ $QUICK_CASES == *" $1/$2 "* && $QUICK_FAULTS == *" $3 "* ]]
}

for a in "${ALGOS[@]}"; do
	for fe in "${FAULTS[@]}"; do
		for pe in "${PATHS[@]}"; do
			fname=${fe%%|*} pname=${pe%%|*}
			# An open refused on standard input is the shell's error.
			[ "$pname" = stdin ] && [[ $fname == eacces || $fname == open-eio ]] && continue
			[ "$QUICK" = 1 ] && ! in_quick "$a" "$pname" "$fname" && continue
			fault_case "$a" "$pe" "$fe"
		done
	done
done

for fe in "${FAULTS[@]}"; do
	fname=${fe%%|*}
	case $fname in shrink | grow) continue ;; esac
	for pe in "lanes||lanes" "check||check" "stdin||stdin"; do
		[ "${pe%%|*}" = stdin ] && [[ $fname == eacces || $fname == open-eio ]] && continue
		if [ "$QUICK" = 1 ] && [[ "${pe%%|*}/$fname" != lanes/eacces && "${pe%%|*}/$fname" != check/eio-first ]]; then
			continue
		fi
		oracle_case "$pe" "$fe"
	done
done

# ---------------------------------------------------------------------------
# Parts (--part-size, S3's values): the batches of parts are mapped, or
# read with --no-mmap.  A fault in either is bad's error (the mapping's
# met under the fault guard, then told by a read), with no line; a file
# read whole through short or slow answers gets S3's ETag, which Python
# computes here from the backing file: MD5 of the parts' MD5s, then -N.

etag() { # FILE PART
	"$PYTHON" -c 'import hashlib, sys
d = open(sys.argv[1], "rb").read(); p = int(sys.argv[2])
parts = [d[i:i + p] for i in range(0, len(d), p)]
print(hashlib.md5(b"".join(hashlib.md5(x).digest() for x in parts)).hexdigest()
      + "-%d" % len(parts))' "$1" "$2"
}

# file_case LABEL FILE SPEC KIND MSG LIMIT LINE ARG...: fhsum ARG... in
# the mount with FILE misbehaving as SPEC says; KIND ok wants LINE alone
# and status 0, any other FILE's error MSG alone and status 1, within
# LIMIT seconds.
file_case() {
	local label=$1 file=$2 spec=$3 kind=$4 msg=$5 limit=$6 line=$7
	shift 7
	wanted "$label" || return 0
	case_start
	set_control "$file $spec"
	: >"$CASE/want.out"
	: >"$CASE/want.err"
	if [ "$kind" = ok ]; then
		printf '%s\n' "$line" >"$CASE/want.out"
		echo 0 >"$CASE/want.rc"
	else
		printf 'fhsum: %s: %s\n' "$file" "$msg" >"$CASE/want.err"
		echo 1 >"$CASE/want.rc"
	fi
	run_fh "$CASE/got" $((limit + 2)) "$MNT" /dev/null "$@"
	note "fhsum $* (in the mount; $file: $spec)"
	label="$label ($(ms_text "$MS"))"
	if expect_run "$CASE/want" "$CASE/got" && [ $RC != 124 ] &&
		[ "$MS" -le $((limit * 1000)) ]; then
		pass "$label"
	else
		timed_out_note "$CASE/got"
		fs_stats "$file"
		ensure_fs
		fail_case "$label"
	fi
	ensure_fs
}

parts_case() { # FAULT-ENTRY [OPTION]
	local fname spec kind msg limit part=4194304 line=
	IFS='|' read -r fname spec kind msg limit <<<"$1"
	[ "$kind" = ok ] && line="$(etag "$BACK/bad" $part)  bad"
	file_case "md5 --part-size=4M${2:+ $2} $fname" bad "$spec" "$kind" \
		"$msg" "$limit" "$line" -a md5 --part-size=$part ${2:+"$2"} bad
}

for fe in "${FAULTS[@]}"; do
	case ${fe%%|*} in eio-first | eio-later | short | shrink) ;; *) continue ;; esac
	parts_case "$fe"
	[ "$QUICK" = 1 ] || parts_case "$fe" --no-mmap
done

# ---------------------------------------------------------------------------
# Slices: a lone CRC file of 32 MiB or more on several threads is hashed
# in slices, each thread its own through mapped windows (read with pread
# under --no-mmap, and where a mapping is refused: short answers mean
# direct_io, which cannot be mapped).  bigbad, 40 MiB, two slices on
# -j2: a fault in either is bigbad's error, with no line; read whole, it
# gets GNU cksum's line.

BIG_SIZE=41943127       # 40 MiB + 87
"$PYTHON" "$ORACLE" make "$BACK" bigbad:$BIG_SIZE ||
	{ echo "Bail out! cannot write the test files"; exit 1; }
BIG_CRC=$(cksum <"$BACK/bigbad")
SLICE_FAULTS=(
	"eio-slice1|eio=3000000|err|Input/output error|10"
	"eio-slice2|eio=30000000|err|Input/output error|10"
	"shrink-slice2|shrink=25165824:23068672|shrink|file shrank while being read|10"
	"short|short=4000|ok||20"
	"slow|slow=2|ok||20"
)

slices_case() { # FAULT-ENTRY [OPTION]
	local fname spec kind msg limit
	IFS='|' read -r fname spec kind msg limit <<<"$1"
	file_case "crc -j2 slices${2:+ $2} $fname" bigbad "$spec" "$kind" \
		"$msg" "$limit" "$BIG_CRC bigbad" -a crc -j2 ${2:+"$2"} bigbad
}

for fe in "${SLICE_FAULTS[@]}"; do
	[ "$QUICK" = 1 ] && [[ ${fe%%|*} != eio-slice2 && ${fe%%|*} != short ]] && continue
	slices_case "$fe"
	[ "$QUICK" = 1 ] || slices_case "$fe" --no-mmap
done

# --progress on a terminal (script(1) gives the run one) while slow
# answers come: every slice's thread counts its bytes, so the line moves
# before the file ends; it once stood at 0 B to the end.
slices_progress_case() { # [OPTION]
	local label="crc -j2 slices${1:+ $1}: --progress moves while the slices are hashed"
	wanted "$label" || return 0
	command -v script >/dev/null || { skip_case "$label" "no script(1)"; return 0; }
	case_start
	set_control "bigbad slow=10"
	(cd "$MNT" && timeout -k 2 30 script -qec \
		"${FHSUM_WRAP[*]} '$FHSUM' --progress -a crc -j2 ${1:-} bigbad" /dev/null) \
		</dev/null >"$CASE/tty" 2>&1
	RC=$?
	tr '\r' '\n' <"$CASE/tty" >"$CASE/lines"
	if [ $RC = 0 ] && grep -aq "$BIG_CRC bigbad$" "$CASE/lines" &&
		grep -aEq 'fhsum: 0/1 files, [1-9][0-9.]* [KM]iB/40\.0 MiB' "$CASE/lines"; then
		pass "$label"
	else
		note "status $RC; what the terminal showed:"
		diag_file tty "$CASE/lines"
		ensure_fs
		fail_case "$label"
	fi
	ensure_fs
}
slices_progress_case
[ "$QUICK" = 1 ] || slices_progress_case --no-mmap

# ---------------------------------------------------------------------------
# Signals.  A run that waits on a slow or failing file must end within 2 s
# of SIGINT (Ctrl-C) or SIGTERM, killed by it.  One that has already ended
# by the time the signal would go (a failing file reported at once) passes
# if it ended as its fault case asks.

signal_case() { # NAME SIGNAL CONTROL KIND ALGO STDIN ARGS...
	local name=$1 sig=$2 spec=$3 kind=$4 algo=$5 in=$6 num label ok=1
	shift 6
	num=$(kill -l "$sig")
	label="$name: SIG$sig ends it within 2 s"
	wanted "$label" || return 0
	case_start
	set_control "bad $spec"
	note "fhsum -a $algo $*${in:+ < bad} (bad: $spec), SIG$sig after 1 s"
	start_fh "$CASE/got" "$MNT" "${in:-/dev/null}" -a "$algo" "$@"
	nap 1
	if ! kill -0 "$FH_PID" 2>/dev/null; then
		finish_fh "$CASE/got" 1
		label="$label (ended before the signal, status $RC)"
		if [ "$kind" != err ] || [ "$RC" != 1 ] || ! grep -q 'Input/output error$' "$CASE/got.err"; then
			ok=0
			note "ended before the signal: status $RC"
			diag_file stderr "$CASE/got.err"
		fi
	else
		kill -"$sig" "$FH_PID" 2>/dev/null
		finish_fh "$CASE/got" 4
		label="$label ($(ms_text "$MS"))"
		if [ "$RC" != $((128 + num)) ]; then
			ok=0
			note "exit status $RC, not $((128 + num)) (killed by SIG$sig)"
			diag_file stderr "$CASE/got.err"
		fi
		if [ "$MS" -gt 2000 ]; then
			ok=0
			note "took $(ms_text "$MS") to end after the signal"
		fi
		timed_out_note "$CASE/got"
	fi
	if [ $ok = 1 ]; then pass "$label"; else fs_stats; fail_case "$label"; fi
	ensure_fs
}

SLOW=slow=3000
signal_case "slow lone file" INT $SLOW ok md5 "" bad
signal_case "failing lone file" INT eio=3000000 err md5 "" bad
if [ "$QUICK" != 1 ]; then
	signal_case "slow lone file" TERM $SLOW ok md5 "" bad
	signal_case "slow file, --no-mmap" INT $SLOW ok md5 "" --no-mmap bad
	signal_case "slow file among good ones" TERM $SLOW ok md5 "" g1 bad g2 g3
	signal_case "slow file, KT128 team" INT $SLOW ok kt128 "" -j2 bad
	signal_case "slow file, -c" INT $SLOW ok md5 "" -c "$WORK/list.md5"
	signal_case "failing lone file" TERM eio=3000000 err md5 "" bad
	signal_case "failing file, KT128 team" TERM eio=3000000 err kt128 "" -j2 bad
	signal_case "failing file on standard input" INT eio=3000000 err sha3-256 "$MNT/bad"
	signal_case "failing file among good ones" TERM eio=3000000 err md5 "" g1 bad g2 g3
fi


# ---------------------------------------------------------------------------
# A scrub's time budget on a slow file system.  --max-time starts no file
# after the deadline, whatever the look-ahead has opened or the SIMD lanes
# have taken: 40 files of 1 MiB, each read answered 50 ms late, and
# --max-time=0.3 -j2 must end within the deadline and the time to finish
# the files being read then, with some files left for the next scrub.

scrub_deadline_case() {
	local label="scrub: --max-time=0.3 starts no file after the deadline (slow=50, -j2, MD5)"
	local i n bound=2000
	wanted "$label" || return 0
	# Before the engine left unread the inputs its lanes had taken, a
	# worker took 16 MD5 inputs at once and read them all: 4 to 6 s,
	# and 32 of the 40 files.  Then 1.1 to 1.4 s; but where the lanes
	# begin every input whose first bytes the read-ahead brought in
	# (the portable OS layer, whose reads cannot decline to wait), a
	# worker still finished 32: 2.5 to 5.4 s.  Since a stop leaves the
	# lanes one begun input, 0.57 s.  Under a sanitizer the hashing is
	# slower, not the file system.
	[ "${FHSUM_SANITIZE:-none}" != none ] && bound=6000
	case_start
	for i in $(seq -w 1 40); do
		[ -e "$BACK/s$i" ] || head -c 1048576 /dev/urandom >"$BACK/s$i"
	done
	set_control ""
	rm -f "$WORK/scrub.md5"
	(cd "$WORK" && timeout -k 2 60 "${FHSUM_WRAP[@]}" "$FHSUM" -a md5 --meta mnt/s*) \
		>"$WORK/scrub.md5" 2>"$CASE/make.err" ||
		{ diag_file "making the list" "$CASE/make.err"; fail_case "$label"; return 0; }
	# The files the run drops (those not reached, and those its lanes had
	# begun) keep their lines: every checksum line stays, byte for byte.
	grep -v '^#' "$WORK/scrub.md5" >"$CASE/lines.want"
	set_control "* slow=50"
	FH_ENV=()
	run_fh "$CASE/got" 30 "$WORK" /dev/null --scrub=scrub.md5 --max-time=0.3 -j2
	n=$(grep -c 'verified=' "$WORK/scrub.md5")
	note "fhsum --scrub=scrub.md5 --max-time=0.3 -j2 (40 files of 1 MiB; * slow=50): status $RC, $n stamped"
	diag_file stderr "$CASE/got.err"
	label="$label ($(ms_text "$MS"), $n of 40 stamped)"
	grep -v '^#' "$WORK/scrub.md5" >"$CASE/lines.got"
	if ! same "$CASE/lines.want" "$CASE/lines.got"; then
		diff_note "the list's checksum lines" "$CASE/lines.want" "$CASE/lines.got"
		fail_case "$label"
	elif [ "$RC" = 0 ] && [ "$n" -gt 0 ] && [ "$n" -lt 40 ] && [ "$MS" -lt "$bound" ]; then
		pass "$label"
	else
		[ "$MS" -lt "$bound" ] || note "took $(ms_text "$MS"), over the bound of $(ms_text $bound)"
		timed_out_note "$CASE/got"
		fail_case "$label"
	fi
	set_control ""
	ensure_fs
}
scrub_deadline_case

tap_end
