#!/bin/bash
# syscalls.sh: fhsum when the system refuses it something other than a
# read (TAP).  Through the inject shim (inject.c, LD_PRELOAD): thread
# creation refused after N threads, file mappings or any mapping refused
# after N, memory refused after N allocations (a sweep of N over the
# whole run, hashing and checking, and --audit, --update and --scrub of a
# list) or above a size; and, without the shim, 16 descriptors for
# 10,000 files.  The inputs mix small files (read, sharing lanes) with
# large ones (mapped in windows; KT128 with -j2 hashes the 5 MiB one on a
# thread team); a 40 MiB file alone with -a crc -j2 is hashed in two
# slices, each through its own mapped windows, read where a mapping is
# refused, and checked against GNU cksum.
#
# What may happen: the right output; or a clear message and a non-zero
# status.  What may not: a crash (death by a signal), a hang, a wrong or
# partial line, or an input that gets neither its line nor a message (a
# message naming no file, such as "memory exhausted", stands for every
# file without a line).  Each run is bounded by 10 s.
#
# FHSUM_QUICK=1 runs fewer values of N.  FH_INJECT_SO names the shim
# (meson sets it); without it only the descriptor cases run.

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SHIM=${FH_INJECT_SO:-}

[ -x "$FHSUM" ] || { echo "Bail out! binary under test not found: $FHSUM"; exit 1; }
command -v md5sum >/dev/null || skip_all "GNU md5sum (the oracle) missing"
env --default-signal=INT true 2>/dev/null || skip_all "env(1) lacks --default-signal (coreutils < 9.0)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fhsum-syscalls.XXXXXX") || exit 1
DIAG=$WORK/diag
CASE=$WORK/case
MIX=$WORK/mix
mkdir "$CASE" "$MIX"
init_watchdog "$WORK"
trap 'kill_jobs; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

MIX_FILES=(s1:3000 s2:100000 s3:0 s4:65536 s5:200000 m1:1572871 s6:1
	L1:12583035 s7:8192 L2:5242887 s8:70000 s9:4095)
NAMES=()
for f in "${MIX_FILES[@]}"; do NAMES+=("${f%%:*}"); done
"$PYTHON" "$ORACLE" selftest || { echo "Bail out! oracle.py selftest failed"; exit 1; }
"$PYTHON" "$ORACLE" make "$MIX" "${MIX_FILES[@]}" ||
	{ echo "Bail out! cannot write the test files"; exit 1; }
for a in md5 sha3-256 kt128; do
	load_digests "$a" "$MIX" "${NAMES[@]}"
done
# Alone only, outside the mix: hashing it in every mixed run would cost.
"$PYTHON" "$ORACLE" make "$MIX" L3:41943127 ||
	{ echo "Bail out! cannot write the test files"; exit 1; }
load_digests crc "$MIX" L3
: >"$WORK/list.md5"
for f in "${NAMES[@]}"; do
	printf '%s  %s\n' "$(digest md5 "$f")" "$f" >>"$WORK/list.md5"
done

# Configurations: LABEL|ALGO|OPTIONS|MODE, MODE gen (the mix as
# operands), check (-c of the mix's list) or lone (one large file alone:
# L1 for MD5, mapped in two windows; L2 for KT128, on a team; L3 for
# crc, in slices).  In a mix the large files share the lanes, read, so
# only lone files are mapped.
CONFIGS=(
	"md5 mix|md5||gen"
	"md5 12 MiB alone|md5||lone"
	"sha3-256 mix -j2|sha3-256|-j2|gen"
	"kt128 mix -j2|kt128|-j2|gen"
	"md5 -c of the mix|md5||check"
	"kt128 5 MiB alone -j2|kt128|-j2|lone"
	"crc 40 MiB alone -j2|crc|-j2|lone"
)

lone_file() {
	case $1 in
	kt128) echo L2 ;;
	crc) echo L3 ;;
	*) echo L1 ;;
	esac
}

# judge ALGO MODE: whether the last run (CASE/got) is acceptable; sets
# OUTCOME to a few words on what it printed.  See the file's head.
judge() {
	local algo=$1 mode=$2 ops=("${NAMES[@]}") i=0 line f ok fail=0 missing=() general=0 named
	[ "$mode" = lone ] && ops=("$(lone_file "$algo")")
	OUTCOME=
	if [ "$RC" = 124 ]; then
		OUTCOME="timed out"
		timed_out_note "$CASE/got"
		return 1
	fi
	if [ "$RC" -ge 128 ]; then
		OUTCOME="killed by signal $((RC - 128))"
		diag_file stderr "$CASE/got.err"
		return 1
	fi
	if [ -s "$CASE/got.out" ] && [ -n "$(tail -c 1 "$CASE/got.out")" ]; then
		OUTCOME="a partial last line"
		fail=1
	fi
	# Each line is the next operands' right line (in order, none twice).
	while IFS= read -r line; do
		ok=0
		while [ $i -lt ${#ops[@]} ]; do
			f=${ops[$i]}
			i=$((i + 1))
			if [ "$mode" = check ]; then
				[ "$line" = "$f: OK" ] && { ok=1; break; }
				[ "$line" = "$f: FAILED open or read" ] && { ok=1; missing+=("$f"); break; }
			else
				[ "$line" = "$(digest_line "$algo" "$f")" ] && { ok=1; break; }
			fi
			missing+=("$f")
		done
		if [ $ok = 0 ]; then
			note "a line that is no operand's right line, or out of order: $line"
			OUTCOME="a wrong line"
			fail=1
			break
		fi
	done <"$CASE/got.out"
	while [ $i -lt ${#ops[@]} ]; do missing+=("${ops[$i]}"); i=$((i + 1)); done
	while IFS= read -r line; do
		[[ $line == "fhsum: "* ]] || { note "stderr line not from fhsum: $line"; fail=1; }
		named=0
		for f in "${ops[@]}"; do [[ $line == "fhsum: $f: "* ]] && named=1; done
		[[ $line == "fhsum: WARNING: "* ]] && named=1
		[ $named = 0 ] && general=1
	done <"$CASE/got.err"
	if [ ${#missing[@]} = 0 ] && [ $fail = 0 ]; then
		if [ "$RC" = 0 ] && [ ! -s "$CASE/got.err" ]; then
			OUTCOME="right output"
			return 0
		fi
		if [ "$RC" = 0 ]; then
			OUTCOME="every line, status 0, but a message"
			diag_file stderr "$CASE/got.err"
			return 1
		fi
		OUTCOME="every line, status $RC: $(head -n 1 "$CASE/got.err")"
		[ -s "$CASE/got.err" ] && return 0
		note "status $RC with no message"
		return 1
	fi
	[ $fail = 1 ] && { diag_file stdout "$CASE/got.out"; diag_file stderr "$CASE/got.err"; return 1; }
	OUTCOME="$(wc -l <"$CASE/got.out") lines of ${#ops[@]}, status $RC: $(head -n 1 "$CASE/got.err")"
	if [ "$RC" = 0 ]; then
		note "status 0 with inputs missing: ${missing[*]}"
		fail=1
	fi
	if [ $general = 0 ]; then
		for f in "${missing[@]}"; do
			grep -q "^fhsum: $f: " "$CASE/got.err" && continue
			note "$f got neither its line nor a message"
			fail=1
		done
	fi
	if [ $fail = 1 ]; then
		diag_file stdout "$CASE/got.out"
		diag_file stderr "$CASE/got.err"
		return 1
	fi
	return 0
}

# run_config CONFIG: fhsum on a configuration, FH_ENV and FH_NOFILE as
# set; judged.  Returns judge's answer.
run_config() {
	local label algo opts mode args=()
	IFS='|' read -r label algo opts mode <<<"$1"
	read -r -a args <<<"-a $algo $opts"
	case $mode in
	gen) args+=("${NAMES[@]}") ;;
	check) args+=(-c "$WORK/list.md5") ;;
	lone) args+=("$(lone_file "$algo")") ;;
	esac
	rm -f "$WORK/report"
	run_fh "$CASE/got" 10 "$MIX" /dev/null "${args[@]}"
	note "fhsum ${args[*]} (${FH_ENV[*]:-}${FH_NOFILE:+ ulimit -n $FH_NOFILE})"
	judge "$algo" "$mode"
}

# refusals: how many calls the shim refused in the last run.
refusals() { grep -c '^refused' "$WORK/report" 2>/dev/null || :; }

# total CALLS-KEY: the shim's count of calls of that kind in the last run.
total() { sed -n "s/^calls.* $1=\([0-9]*\).*/\1/p" "$WORK/report" 2>/dev/null | tail -n 1; }

shim_case() { # LABEL CONFIG NAME=VALUE...
	local label=$1 config=$2 r
	shift 2
	case_start
	FH_ENV=(LD_PRELOAD="$SHIM" FH_INJECT_REPORT="$WORK/report" "$@")
	if run_config "$config"; then r=0; else r=1; fi
	label="$label, ${config%%|*}: $OUTCOME, $(refusals) refused ($(ms_text "$MS"))"
	if [ $r = 0 ]; then pass "$label"; else fail_case "$label"; fi
	FH_ENV=()
}

if [ -z "$SHIM" ] || [ ! -r "$SHIM" ]; then
	skip_case "thread, mapping and memory refusals" "the inject shim is not built (needs glibc, no sanitizer)"
else
	# Threads.
	if [ "$QUICK" = 1 ]; then NS=(0 1); else NS=(0 1 2 3 4 6); fi
	for c in "${CONFIGS[@]}"; do
		[ "$QUICK" = 1 ] && [[ $c != "kt128 mix"* && $c != "md5 mix"* ]] && continue
		for n in "${NS[@]}"; do
			shim_case "threads refused after $n" "$c" FH_INJECT_THREADS=$n
		done
	done

	# Mappings.
	for c in "${CONFIGS[@]}"; do
		[[ $c == *"|check" || $c == "sha3-256"* ]] && continue
		for v in FH_INJECT_MMAP_FILE=0 FH_INJECT_MMAP_FILE=1 FH_INJECT_MMAP_FILE=2 FH_INJECT_MMAP=0 FH_INJECT_MMAP=3; do
			[ "$QUICK" = 1 ] && [[ $v != FH_INJECT_MMAP_FILE=[01] || $c != *alone* ]] && continue
			shim_case "mmap refused: $v" "$c" "$v"
		done
	done

	# Memory above a size.
	for c in "${CONFIGS[0]}" "${CONFIGS[1]}" "${CONFIGS[3]}"; do
		for above in 65535 1048576; do
			[ "$QUICK" = 1 ] && [ $above != 65535 ] && continue
			shim_case "allocations over $above bytes refused" "$c" FH_INJECT_MALLOC_ABOVE=$above
		done
	done

	# Memory after N allocations: N from 0 to past the run's last
	# allocation (counted in an unhindered run first); one case per
	# configuration, each N that goes wrong in its diagnostics.
	for c in "${CONFIGS[@]}"; do
		[ "$QUICK" = 1 ] && [[ $c != "kt128 mix"* ]] && continue
		case_start
		FH_ENV=(LD_PRELOAD="$SHIM" FH_INJECT_REPORT="$WORK/report")
		run_config "$c" >/dev/null || :
		calls=$(total malloc)
		calls=${calls:-300}
		step=5 dense=20
		[ "$QUICK" = 1 ] && step=7 dense=0
		ns=()
		for ((n = 0; n <= dense; n++)); do ns+=("$n"); done
		for ((n = dense + step; n <= calls + 20; n += step)); do ns+=("$n"); done
		now_ms
		bad=0 runs=0 t0=$NOW
		declare -A seen=()
		for n in "${ns[@]}"; do
			FH_ENV=(LD_PRELOAD="$SHIM" FH_INJECT_REPORT="$WORK/report" FH_INJECT_MALLOC="$n")
			runs=$((runs + 1))
			: >"$CASE/one"
			if DIAG=$CASE/one run_config "$c"; then
				seen[$OUTCOME]=1
			else
				bad=$((bad + 1))
				note "N=$n: $OUTCOME"
				sed 's/^/  /' "$CASE/one" >>"$DIAG"
			fi
		done
		now_ms
		label="allocations refused after N = 0..$((calls + 20)) (about $calls in a whole run), ${c%%|*}: $runs runs, $bad wrong ($(ms_text $((NOW - t0))))"
		note "acceptable outcomes seen: ${!seen[*]}"
		unset seen
		if [ $bad = 0 ]; then pass "$label"; else fail_case "$label"; fi
		FH_ENV=()
	done
	# Memory after N allocations in the list modes: --audit, --update and
	# --scrub of a list with metadata, over a tree where one file grew,
	# one is gone and one is new.  Beyond the rules at the top: the list
	# is afterwards the old one byte for byte or the one an unhindered
	# run writes (the scrub's verified= stamps aside), and --audit leaves
	# it as it was.
	LT=$WORK/lt
	mkdir -p "$LT/t/sub"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		head -c $((i * 997)) /dev/urandom >"$LT/t/f$i"
	done
	head -c 300000 /dev/urandom >"$LT/t/sub/big"
	(cd "$LT" && "$FHSUM" --meta -a md5 -r t >list.orig) ||
		{ echo "Bail out! cannot write the list for the list modes"; exit 1; }
	echo grown >>"$LT/t/f3"
	rm "$LT/t/f5"
	head -c 5000 /dev/urandom >"$LT/t/new"
	stampless() { sed 's/ verified=[0-9.]*//' "$1"; }
	for mode in audit update scrub; do
		case $mode in
		scrub) margs=(--scrub=list) ;;
		*) margs=("--$mode=list" -r t) ;;
		esac
		case_start
		# The unhindered run: what every run that says nothing more must
		# give, and the allocations it makes.
		cp "$LT/list.orig" "$LT/list"
		FH_ENV=(LD_PRELOAD="$SHIM" FH_INJECT_REPORT="$WORK/report")
		rm -f "$WORK/report"
		run_fh "$WORK/ref" 20 "$LT" /dev/null "${margs[@]}"
		ref_rc=$RC
		stampless "$LT/list" >"$WORK/ref.list"
		calls=$(total malloc)
		calls=${calls:-300}
		step=3 dense=20
		[ "$QUICK" = 1 ] && step=9 dense=0
		ns=()
		for ((n = 0; n <= dense; n++)); do ns+=("$n"); done
		for ((n = dense + step; n <= calls + 20; n += step)); do ns+=("$n"); done
		bad=0 runs=0 refused_runs=0 left=0
		now_ms
		t0=$NOW
		if [ "$ref_rc" -ge 124 ] || grep -v '^fhsum: ' "$WORK/ref.err" | grep -q .; then
			note "the unhindered run: status $ref_rc"
			diag_file stderr "$WORK/ref.err"
			bad=1
			ns=()
		fi
		for n in "${ns[@]}"; do
			cp "$LT/list.orig" "$LT/list"
			FH_ENV=(LD_PRELOAD="$SHIM" FH_INJECT_REPORT="$WORK/report" FH_INJECT_MALLOC="$n")
			rm -f "$WORK/report"
			run_fh "$CASE/got" 20 "$LT" /dev/null "${margs[@]}"
			runs=$((runs + 1))
			[ "$(refusals)" -gt 0 ] && refused_runs=$((refused_runs + 1))
			why=
			stampless "$LT/list" >"$CASE/got.list"
			# A temporary file left beside the list would be no damage
			# (the next writer removes it under the lock), but where
			# the system makes it anonymous (O_TMPFILE) a refused
			# allocation must not leave one: the file has no name
			# until the rename.
			if [ -n "$(ls -A "$LT" | grep '^\.list\.fhsum-')" ]; then
				left=$((left + 1))
				rm -f "$LT"/.list.fhsum-*
				[ -d /proc/self/fd ] && why="a temporary file left beside the list (status $RC)"
			fi
			if [ "$RC" = 124 ]; then
				why="timed out"
			elif [ "$RC" -ge 128 ]; then
				why="killed by signal $((RC - 128))"
			elif [ -s "$CASE/got.out" ] && [ -n "$(tail -c 1 "$CASE/got.out")" ]; then
				why="a partial last line"
			elif grep -v '^fhsum: ' "$CASE/got.err" | grep -q .; then
				why="a message not from fhsum"
			elif [ -n "$(sort "$CASE/got.out" | comm -23 - <(sort "$WORK/ref.out"))" ]; then
				why="a line the unhindered run does not print"
			elif [ "$mode" = audit ] && ! same "$LT/list" "$LT/list.orig"; then
				why="--audit changed the list"
			elif ! same "$CASE/got.list" "$WORK/ref.list" &&
			     ! stampless "$LT/list.orig" | cmp -s - "$CASE/got.list"; then
				why="a list neither the old one nor the new"
			elif same "$CASE/got.out" "$WORK/ref.out" &&
			     same "$CASE/got.err" "$WORK/ref.err" && [ "$RC" = "$ref_rc" ]; then
				same "$CASE/got.list" "$WORK/ref.list" ||
					why="the unhindered run's output but not its list"
			elif [ "$RC" = 0 ]; then
				why="status 0, but not the unhindered run's output"
			elif [ -z "$(sort "$CASE/got.err" | comm -23 - <(sort "$WORK/ref.err"))" ]; then
				why="status $RC and no message saying what failed"
			fi
			if [ -n "$why" ]; then
				bad=$((bad + 1))
				note "N=$n: $why (status $RC)"
				diag_file stdout "$CASE/got.out"
				diag_file stderr "$CASE/got.err"
			fi
		done
		now_ms
		label="allocations refused after N = 0..$((calls + 20)) (about $calls in a whole run), --$mode: $runs runs ($refused_runs refused one), $bad wrong, $left left a temporary file ($(ms_text $((NOW - t0))))"
		if [ $bad = 0 ]; then pass "$label"; else fail_case "$label"; fi
		FH_ENV=()
	done
fi

# ---------------------------------------------------------------------------
# Descriptors: 10,000 small files under `ulimit -n 16`.  Expected lines
# from md5sum and hashlib over the same files.

MANY=$WORK/many
mkdir "$MANY"
"$PYTHON" - "$MANY" <<'PY'
import os, random, sys
rnd = random.Random(16)
base = sys.argv[1]
for d in range(10):
    os.mkdir(os.path.join(base, "d%d" % d))
    for i in range(1000):
        with open(os.path.join(base, "d%d" % d, "f%04d" % i), "wb") as f:
            f.write(rnd.randbytes(rnd.choice([0, 1, 100, 4096, 20000])))
PY
(cd "$WORK" && find many -type f | sort >"$WORK/many.names")
(cd "$WORK" && xargs -d '\n' md5sum <"$WORK/many.names" >"$WORK/many.md5")
sed 's/^\([0-9a-f]*\)  \(.*\)$/\2: OK/' "$WORK/many.md5" >"$WORK/many.ok"
[ "$QUICK" = 1 ] || (cd "$WORK" && "$PYTHON" -c '
import hashlib, sys
for n in open(sys.argv[1]).read().splitlines():
    print(hashlib.sha3_256(open(n, "rb").read()).hexdigest() + "  " + n)
' "$WORK/many.names" >"$WORK/many.sha3")

nofile_case() { # LABEL WANT-FILE ARGS...
	local label=$1 want=$2
	shift 2
	case_start
	FH_NOFILE=16
	run_fh "$CASE/got" 30 "$WORK" /dev/null "$@"
	FH_NOFILE=
	note "fhsum $* (ulimit -n 16)"
	cp "$want" "$CASE/want.out"
	: >"$CASE/want.err"
	echo 0 >"$CASE/want.rc"
	label="$label ($(ms_text "$MS"))"
	if [ "$RC" != 124 ] && expect_run "$CASE/want" "$CASE/got"; then
		pass "$label"
	else
		timed_out_note "$CASE/got"
		fail_case "$label"
	fi
}

nofile_case "ulimit -n 16: -r over 10,000 files" "$WORK/many.md5" -a md5 -r many
if [ "$QUICK" != 1 ]; then
	nofile_case "ulimit -n 16: --files-from 10,000 names" "$WORK/many.sha3" \
		-a sha3-256 --files-from="$WORK/many.names"
	nofile_case "ulimit -n 16: -c of 10,000 lines" "$WORK/many.ok" -a md5 -c "$WORK/many.md5"
	nofile_case "ulimit -n 16: -r over 10,000 files, -j2" "$WORK/many.md5" -a md5 -j2 -r many
fi

tap_end
