# lib.sh: what the fault suites (faults.sh, syscalls.sh) share: TAP
# output, runs of fhsum bounded in time with a watchdog that never lets a
# stuck run hang the suite, and comparisons that print expected against
# got.  Sourced, not run.
#
# Environment, as tests/cli/helper.bash reads it:
#   FHSUM          the binary under test (meson sets it); default
#                  build/cmd/fhsum of this source tree
#   FHSUM_WRAPPER  an optional command prefix, word-split
#   FHSUM_VECTORS  tests/vectors (rfc9861.py is found beside oracle.py)
#   FHSUM_QUICK    1: a representative subset of the cases
#   PYTHON         the interpreter for oracle.py (default python3)
#
# Expected outputs never come from fhsum: MD5 from GNU md5sum, SHA3-256
# and KT128 from oracle.py (hashlib, tests/vectors/rfc9861.py), messages
# and statuses written here after GNU md5sum's (the suites check those
# writings against md5sum where it reads the same bytes).

set -u
export LC_ALL=C
unset POSIXLY_CORRECT
FAULT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${FHSUM:=$FAULT_DIR/../../build/cmd/fhsum}"
case $FHSUM in /*) ;; *) FHSUM=$PWD/$FHSUM ;; esac
read -r -a FHSUM_WRAP <<<"${FHSUM_WRAPPER:-}"
: "${PYTHON:=python3}"
# FHSUM_FAULT_QUICK=1: the quick subsets here alone (CI's default tier
# runs the CLI suite in full and these quick).
QUICK=${FHSUM_FAULT_QUICK:-${FHSUM_QUICK:-0}}
ORACLE=$FAULT_DIR/oracle.py

# ---------------------------------------------------------------------------
# TAP.  The plan comes last, after every case has run.

TAP_N=0 TAP_PASS=0 TAP_FAIL=0 TAP_SKIP=0
TAP_FAILED=()
: "${DIAG:=/dev/null}"

# note TEXT...: a line of diagnostics for the case being run, printed
# only if it fails.
note() { printf '%s\n' "$*" >>"$DIAG"; }

# diag_file LABEL FILE: FILE's visible bytes as diagnostics.
diag_file() {
	[ -s "$2" ] || { note "$1: (empty)"; return; }
	note "$1:"
	cat -A -- "$2" | head -n 40 | sed 's/^/    /' >>"$DIAG"
}

case_start() { : >"$DIAG"; }

pass() { # NAME
	TAP_N=$((TAP_N + 1)) TAP_PASS=$((TAP_PASS + 1))
	printf 'ok %d - %s\n' "$TAP_N" "$1"
}

fail_case() { # NAME
	TAP_N=$((TAP_N + 1)) TAP_FAIL=$((TAP_FAIL + 1))
	TAP_FAILED+=("$1")
	printf 'not ok %d - %s\n' "$TAP_N" "$1"
	[ -s "$DIAG" ] && sed 's/^/# /' "$DIAG"
	return 0
}

skip_case() { # NAME REASON
	TAP_N=$((TAP_N + 1)) TAP_SKIP=$((TAP_SKIP + 1))
	printf 'ok %d - %s # SKIP %s\n' "$TAP_N" "$1" "$2"
}

# skip_all REASON: the whole suite cannot run here.  Under meson's TAP
# protocol an exit status of 77 reads as an error, so the skip is a plan
# of no cases.
skip_all() {
	printf '1..0 # SKIP %s\n' "$1"
	exit 0
}

tap_end() {
	local f
	printf '1..%d\n' "$TAP_N"
	printf '# %d cases: %d passed, %d failed, %d skipped\n' \
		"$TAP_N" "$TAP_PASS" "$TAP_FAIL" "$TAP_SKIP"
	for f in "${TAP_FAILED[@]}"; do printf '#   failed: %s\n' "$f"; done
}

# ---------------------------------------------------------------------------
# Time, in milliseconds, from bash's own clock, into NOW (no process
# per reading: a command substitution would fork).

now_ms() {
	local t=${EPOCHREALTIME/./}
	NOW=$((10#$t / 1000))
}

# ms_text MS: "1.234 s".
ms_text() { printf '%d.%03d s' $(($1 / 1000)) $(($1 % 1000)); }

# ---------------------------------------------------------------------------
# Bounded runs.
#
# WD_FIFO is a FIFO that nobody writes: `read -t` on it is a sleep inside
# bash, so a watchdog is a subshell with no child to leave behind when it
# is ended.

init_watchdog() { # WORKDIR
	WD_FIFO=$1/wd.fifo
	mkfifo "$WD_FIFO"
}

nap() { read -r -t "$1" _ <>"$WD_FIFO" || :; }

# The watchdog of run PID, LIMIT seconds: then the kernel stacks of its
# threads into PREFIX.stack, SIGTERM, 2 s later SIGKILL, 4 s later the
# suite's WD_HOOK (faults.sh kills its file system there, which frees a
# process stuck on it).
watchdog() { # PID LIMIT PREFIX
	local t
	nap "$2"
	echo "$2" >"$3.timeout"
	for t in /proc/"$1"/task/*; do
		[ -r "$t/stack" ] || continue
		printf 'thread %s (%s) wchan=%s\n' "${t##*/}" "$(cat "$t/comm" 2>/dev/null)" \
			"$(cat "$t/wchan" 2>/dev/null)"
		sed 's/^/    /' "$t/stack" 2>/dev/null
	done >"$3.stack" 2>/dev/null
	kill -TERM "$1" 2>/dev/null || return 0
	nap 2
	kill -KILL "$1" 2>/dev/null || return 0
	echo killed >>"$3.timeout"
	nap 4
	kill -0 "$1" 2>/dev/null || return 0
	echo "still there 6 s after SIGTERM" >>"$3.timeout"
	[ -n "${WD_HOOK:-}" ] && "$WD_HOOK"
	return 0
}

# start_fh PREFIX DIR STDIN ARGS...: starts fhsum ARGS in DIR, standard
# input from STDIN, output to PREFIX.out and PREFIX.err; sets FH_PID.
# SIGINT and SIGQUIT are restored to their defaults (bash leaves them
# ignored in a background command).  FH_ENV (an array of NAME=VALUE)
# is added to fhsum's environment alone; FH_NOFILE, if set, is its
# limit of descriptors.
FH_ENV=()
start_fh() {
	local p=$1 dir=$2 in=$3
	shift 3
	rm -f "$p.timeout" "$p.stack"
	(
		cd "$dir" || exit 1
		if [ -n "${FH_NOFILE:-}" ]; then ulimit -n "$FH_NOFILE" || exit 1; fi
		exec env --default-signal=INT,QUIT "${FH_ENV[@]}" "${FHSUM_WRAP[@]}" "$FHSUM" "$@"
	) <"$in" >"$p.out" 2>"$p.err" &
	FH_PID=$!
}

# finish_fh PREFIX LIMIT: waits for FH_PID under a watchdog of LIMIT
# seconds (counted from now); sets RC (124 when the watchdog ended it)
# and MS, the milliseconds it took.
finish_fh() {
	local p=$1 limit=$2 t0 wd
	now_ms
	t0=$NOW
	watchdog "$FH_PID" "$limit" "$p" &
	wd=$!
	RC=0
	wait "$FH_PID" || RC=$?
	now_ms
	MS=$((NOW - t0))
	# SIGKILL: a subshell that bash has just forked still runs the
	# suite's traps for a while, and the EXIT trap would clean up.
	kill -KILL "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
	[ -e "$p.timeout" ] && RC=124
	return 0
}

# kill_jobs: ends every background job of this shell (a run, its
# watchdog, a file system), for the suites' EXIT traps: a run left
# behind by a suite that meson timed out would spin on a dead mount.
kill_jobs() {
	local p
	for p in $(jobs -p); do kill -KILL "$p" 2>/dev/null; done
	for p in $(jobs -p); do wait "$p" 2>/dev/null; done
	return 0
}

# run_fh PREFIX LIMIT DIR STDIN ARGS...: both of the above.
run_fh() {
	local p=$1 limit=$2
	shift 2
	start_fh "$p" "$@"
	finish_fh "$p" "$limit"
}

# ---------------------------------------------------------------------------
# Comparisons.

# same FILE1 FILE2: byte-equal.
same() { cmp -s -- "$1" "$2"; }

# diff_note LABEL WANT GOT: a unified diff as diagnostics.
diff_note() {
	note "$1 differs (- expected, + fhsum):"
	diff -u --label expected --label fhsum <(cat -A -- "$2") <(cat -A -- "$3") |
		tail -n +3 | head -n 40 | sed 's/^/    /' >>"$DIAG"
}

# expect_run WANT GOT: WANT.out, .err, .rc against GOT's; diagnostics for
# each difference.  Returns 1 if any differ.
expect_run() {
	local w=$1 g=$2 s bad=0
	printf '%s\n' "$RC" >"$g.rc"
	for s in out err rc; do
		same "$w.$s" "$g.$s" && continue
		bad=1
		diff_note "$(case $s in out) echo stdout ;; err) echo stderr ;; rc) echo 'exit status' ;; esac)" \
			"$w.$s" "$g.$s"
	done
	return $bad
}

# timed_out_note PREFIX: what the watchdog saw, as diagnostics.
timed_out_note() {
	[ -e "$1.timeout" ] || return 0
	note "timed out: no exit after $(head -n 1 "$1.timeout") s;$(tail -n +2 "$1.timeout" | tr '\n' ' ')"
	[ -s "$1.stack" ] && diag_file "kernel stacks when the time was up" "$1.stack"
	return 0
}

# Digests.  DIGEST[ALGO:FILE:LEN] holds the expected hex of FILE's first
# LEN bytes (LEN "all" for the whole file).
declare -gA DIGEST

# load_digests ALGO DIR SPEC...: SPEC is NAME or NAME:LEN (files in DIR).
# MD5 from GNU md5sum; crc (POSIX cksum's CRC) from GNU cksum, whole files
# only, the digest being cksum's "CRC SIZE"; the rest from oracle.py.
load_digests() {
	local algo=$1 dir=$2 spec name n hex len path
	shift 2
	if [ "$algo" = crc ]; then
		for name in "$@"; do
			DIGEST[crc:$name:all]=$(cksum <"$dir/$name")
		done
		return 0
	fi
	if [ "$algo" = md5 ]; then
		for spec in "$@"; do
			name=${spec%%:*} n=all
			[ "$spec" != "$name" ] && n=${spec#*:}
			if [ "$n" = all ]; then
				hex=$(md5sum <"$dir/$name")
			else
				hex=$(head -c "$n" "$dir/$name" | md5sum)
			fi
			DIGEST[md5:$name:$n]=${hex%% *}
		done
		return 0
	fi
	while read -r path len hex; do
		name=${path##*/}
		name=${name%%:*}
		if [ "$len" = "$(stat -c %s "$dir/$name")" ]; then n=all; else n=$len; fi
		DIGEST[$algo:$name:$n]=$hex
	done < <(cd "$dir" && "$PYTHON" "$ORACLE" digests "$algo" "$@")
	for spec in "$@"; do
		name=${spec%%:*} n=all
		[ "$spec" != "$name" ] && n=${spec#*:}
		[ -n "${DIGEST[$algo:$name:$n]-}" ] || {
			echo "Bail out! no $algo digest for $spec from oracle.py"
			exit 1
		}
	done
}

# digest ALGO NAME [LEN]
digest() { printf '%s\n' "${DIGEST[$1:$2:${3:-all}]}"; }

# digest_line ALGO NAME: NAME's line as fhsum -a ALGO prints it (cksum's
# form for crc: one space before the name).
digest_line() {
	if [ "$1" = crc ]; then
		printf '%s %s\n' "${DIGEST[crc:$2:all]}" "$2"
	else
		printf '%s  %s\n' "${DIGEST[$1:$2:all]}" "$2"
	fi
}
