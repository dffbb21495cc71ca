#!/usr/bin/env bash
# Benchmarks fhsum's --audit, --update and --against (benchmarks, not
# tests): every round runs each command of a set once, in turn, so machine
# noise falls on all of them alike; prints Markdown tables of median wall
# time, the ratios against their targets, and peak RSS.
#
#   tests/bench/audit.sh [-c] [-F small|huge] [-r ROUNDS] [-d DATADIR]
#                        [-n FILES] [-s BYTES] [-m SMALLFILES] [-l LINES]
#                        [SET...]
#
# -c: cold, the page cache dropped (sync; echo 3 > /proc/sys/vm/
# drop_caches) before every run of every command (needs root; the script
# says it skipped when it cannot).  -F: the big file of scrubbig put in one
# state of the page cache before every run, as tests/bench/bench.sh -F
# does (huge: 2 MiB folios, needs root; small: 4 KiB folios).
#
# SETs (default: the first four):
#   audit   FILES (4096) files of BYTES (128 KiB), warm:
#           `fhsum --audit=SUMS -r tree` against `fhsum -c SUMS` (target:
#           audit <= 1.1x the -c time) and against `hashdeep -r -a -k
#           known.txt tree` (its default MD5 and SHA-256), and the same
#           with `-c md5` (target: fhsum >= 8x faster; skipped, and said
#           so, without hashdeep: apt-get install hashdeep).
#   update  SMALLFILES (100,000) files of 1 KiB with a --meta list:
#           `fhsum --update` of the unchanged tree against a full
#           `fhsum --audit` (target: update >= 20x faster), and what the
#           update read: regular files opened and read(2) calls (strace),
#           and /proc/PID/io's rchar against the list's size.
#   biglist a synthetic list of LINES (10,000,000) lines, random MD5 digests
#           and names d/NNNNNNNNN (the files need not exist):
#           `fhsum --audit=LIST -r small-dir` and `fhsum --audit=LIST
#           --against=LIST2` (LIST2: 1% of digests changed, 1% of lines
#           dropped, 1% added) both finish; peak RSS against LIST's size
#           (target: <= 2x).
#   scrub   the audit set's tree with a --meta list: `fhsum --scrub=LIST`
#           without a budget (every round verifies every file and rewrites
#           every stamp) against `fhsum -c LIST` (target: scrub <= 1.1x
#           the -c time), and the SMALLFILES tree of the update set alike.
#   scrubbig  one 1 GiB file with a --meta list: `fhsum --scrub=LIST`
#           against `fhsum -c LIST`, in the -F state given (warm without).
#
# Smaller sizes for a quick smoke run:
#   tests/bench/audit.sh -r 2 -n 64 -m 1000 -l 100000
# Environment: FHSUM (default build/cmd/fhsum of this tree).
set -euo pipefail
export LC_ALL=C

rounds=5 data=${TMPDIR:-/tmp}/fhsum-bench-audit files=4096 bytes=131072 small=100000 lines=10000000
cold=0 folio=
while getopts cF:r:d:n:s:m:l: opt; do
	case $opt in
	c) cold=1 ;;
	F) [[ $OPTARG == small || $OPTARG == huge ]] ||
		{ echo "audit.sh: -F small or -F huge" >&2; exit 2; }
	   folio=$OPTARG ;;
	r) rounds=$OPTARG ;;
	d) data=$OPTARG ;;
	n) files=$OPTARG ;;
	s) bytes=$OPTARG ;;
	m) small=$OPTARG ;;
	l) lines=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sets=("$@")
((${#sets[@]})) || sets=(audit update biglist scrub)

here=$(cd "$(dirname "$0")/../.." && pwd)
fhsum=${FHSUM:-$here/build/cmd/fhsum}
case $fhsum in /*) ;; *) fhsum=$PWD/$fhsum ;; esac
[ -x "$fhsum" ] || { echo "audit.sh: build fhsum first ($fhsum)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "audit.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
"$fhsum" --help | grep -q -- --audit || { echo "audit.sh: $fhsum has no --audit" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
mkdir -p "$data"
if ((cold)) || [ "$folio" = huge ]; then
	if ! { sync && echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
		echo "audit.sh: skipped: cannot drop the page cache (needs root)"
		exit 0
	fi
fi
[ -n "$folio" ] && ((cold)) && { echo "audit.sh: -F and -c exclude each other" >&2; exit 2; }
smallfolios=$data/smallfolios
if [ "$folio" = small ] && { [ ! -x "$smallfolios" ] || [ "$here/tests/bench/smallfolios.c" -nt "$smallfolios" ]; }; then
	cc -O2 "$here/tests/bench/smallfolios.c" -o "$smallfolios"
fi
# FOLIO_FILE: the file -F puts in its state before every run.
folio_file=

# Before every run: the page cache as -c or -F ask.
prepare_cache() {
	if ((cold)); then
		sync && echo 3 >/proc/sys/vm/drop_caches
	elif [ "$folio" = huge ] && [ -n "$folio_file" ]; then
		sync && echo 3 >/proc/sys/vm/drop_caches && echo 1 >/proc/sys/vm/compact_memory
		cat "$folio_file" >/dev/null
	elif [ "$folio" = small ] && [ -n "$folio_file" ]; then
		"$smallfolios" "$folio_file"
	fi
}

# run NAME COMMAND: one timed run, in $data; appends "NAME seconds kib" to
# $log.  The audits exit with their report's bits (1 to 63); 64 and up
# (usage errors, signals) stop the benchmark.
run() {
	local name=$1 rc=0 t0 t1
	prepare_cache
	t0=${EPOCHREALTIME/[.,]/}
	/usr/bin/time -f '%M' -o "$data/time.out" bash -c "cd '$data' && $2" >/dev/null 2>"$data/err.out" || rc=$?
	t1=${EPOCHREALTIME/[.,]/}
	if ((rc > 63)); then
		echo "audit.sh: '$2' failed (exit $rc):" >&2
		head -5 "$data/err.out" >&2
		exit 1
	fi
	printf '%s\t%d.%06d\t%s\n' "$name" $(((t1 - t0) / 1000000)) $(((t1 - t0) % 1000000)) \
		"$(tail -1 "$data/time.out")" >>"$log"
}

# rounds_of SET NAME|COMMAND...: ROUNDS rounds, each command once per round.
rounds_of() {
	local set=$1 r c
	shift
	log=$data/$set.log
	: >"$log"
	for ((r = 0; r < rounds; r++)); do
		for c in "$@"; do run "${c%%|*}" "${c#*|}"; done
	done
}

# table LOG REF [TARGET...]: medians per command; each TARGET is
# "A/B<=X" or "A/B>=X" (A, B command names: the ratio of their medians).
table() {
	python3 - "$@" <<'PY'
import statistics, sys
log, ref, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}
for line in open(log):
    name, secs, kib = line.rstrip("\n").split("\t")
    rows.setdefault(name, []).append((float(secs), int(kib)))
med = {n: statistics.median(s for s, _ in r) for n, r in rows.items()}
print("| command | median s | ratio to %s | peak RSS MiB |" % ref)
print("|---|---:|---:|---:|")
for n, r in rows.items():
    ratio = med[n] / med[ref] if med[ref] > 0 else float("nan")
    print("| %s | %.4f | %.2fx | %.1f |" % (n, med[n], ratio, max(k for _, k in r) / 1024))
print()
for t in targets:
    op = "<=" if "<=" in t else ">="
    pair, limit = t.split(op)
    a, b = pair.split("/")
    x = med[a] / med[b] if med[b] > 0 else float("inf")
    ok = x <= float(limit) if op == "<=" else x >= float(limit)
    print("- %s / %s = %.2fx (target %s %s): %s" % (a, b, x, op, limit, "met" if ok else "NOT MET"))
PY
}

make_files() { # DIR COUNT SIZE: random files f000000..., made once
	[ -f "$1/.done" ] && return
	rm -rf "$1" && mkdir -p "$1"
	python3 - "$1" "$2" "$3" <<'PY'
import os, sys
d, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seed = os.urandom(size + n)
for i in range(n):
    sub = os.path.join(d, "s%03d" % (i // 1000))
    os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, "f%06d" % i), "wb") as f:
        f.write(seed[i:i + size])
PY
	touch "$1/.done"
}

bench_audit() {
	local tree=tree-$files-$bytes
	make_files "$data/$tree" "$files" "$bytes"
	(cd "$data" && "$fhsum" -a md5 -r "$tree" >"$tree.sums")
	local cmds=("fhsum --audit|$fhsum --audit=$tree.sums -r $tree"
		"fhsum -c|$fhsum -c --quiet $tree.sums")
	local targets=("fhsum --audit/fhsum -c<=1.1")
	if have hashdeep; then
		# hashdeep's own audit (its default: MD5 and SHA-256), and
		# hashdeep hashing MD5 alone, as fhsum does here.
		(cd "$data" && hashdeep -r "$tree" >"$tree.known" && hashdeep -c md5 -r "$tree" >"$tree.known-md5")
		cmds+=("hashdeep -r -a -k|hashdeep -r -a -k $tree.known $tree"
			"hashdeep -c md5 -r -a -k|hashdeep -c md5 -r -a -k $tree.known-md5 $tree")
		targets+=("hashdeep -r -a -k/fhsum --audit>=8" "hashdeep -c md5 -r -a -k/fhsum --audit>=8")
	fi
	# Warm: read everything once.
	(cd "$data" && "$fhsum" -a md5 -r "$tree" >/dev/null)
	rounds_of audit "${cmds[@]}"
	printf '\n### audit: %s files of %s bytes, warm, %s rounds\n\n' "$files" "$bytes" "$rounds"
	table "$log" "fhsum --audit" "${targets[@]}"
	have hashdeep || echo "- hashdeep: skipped, not installed (apt-get install hashdeep)"
}

bench_update() {
	local tree=small-$small
	make_files "$data/$tree" "$small" 1024
	(cd "$data" && "$fhsum" --meta -a md5 -r "$tree" >"$tree.sums" && cp "$tree.sums" "$tree.upd")
	(cd "$data" && "$fhsum" -a md5 -r "$tree" >/dev/null)
	# What an update of the unchanged tree reads.
	local listsize rchar opened reads
	listsize=$(stat -c %s "$data/$tree.sums")
	if have strace; then
		(cd "$data" && strace -f -qq -e trace=openat,open,read -e signal=none -o "$data/update.trace" \
			"$fhsum" --update="$tree.upd" -r "$tree" >/dev/null 2>&1) || :
		opened=$(grep -E 'open(at)?\(' "$data/update.trace" | grep -v O_DIRECTORY | grep -c "/f[0-9]\{6\}\"\|\"f[0-9]\{6\}\"" || :)
		reads=$(grep -c ' read(' "$data/update.trace" || :)
		cmp -s "$data/$tree.sums" "$data/$tree.upd" || echo "audit.sh: the update of an unchanged tree changed the list" >&2
	else
		opened="(strace not installed)" reads="(strace not installed)"
	fi
	# rchar: a shell's /proc/PID/io counts the children it has waited for;
	# less the same shell running `true`.
	rchar_of() { bash -c '"$@" >/dev/null 2>&1; awk "/^rchar/ { print \$2 }" /proc/$$/io' _ "$@"; }
	local base
	base=$(rchar_of true)
	rchar=$(($(cd "$data" && rchar_of "$fhsum" --update="$tree.upd" -r "$tree") - base))
	rounds_of update "fhsum --update|$fhsum --update=$tree.upd -r $tree" \
		"fhsum --audit|$fhsum --audit=$tree.sums -r $tree"
	printf '\n### update: %s files of 1 KiB, unchanged, list with metadata, warm, %s rounds\n\n' "$small" "$rounds"
	table "$log" "fhsum --update" "fhsum --audit/fhsum --update>=20"
	echo "- files of the tree opened by the update: $opened; read(2) calls in all: $reads"
	echo "- bytes the update read (rchar): $rchar; the list: $listsize bytes;" \
		"the tree's data: $((small * 1024)) bytes"
}

bench_biglist() {
	local list=big-$lines.sums
	if [ ! -f "$data/$list.done" ]; then
		python3 - "$data/$list" "$data/$list.2" "$lines" <<'PY'
import os, random, sys
path, path2, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rnd = random.Random(1)
with open(path, "w") as f, open(path2, "w") as g:
    for i in range(n):
        h = "%032x" % rnd.getrandbits(128)
        name = "d/%09d" % i
        f.write("%s  %s\n" % (h, name))
        r = rnd.random()
        if r < 0.01:
            continue                     # dropped from LIST2: MISSING
        if r < 0.02:
            h = "%032x" % rnd.getrandbits(128)  # CHANGED
        g.write("%s  %s\n" % (h, name))
        if r > 0.99:
            g.write("%032x  d/new%09d\n" % (rnd.getrandbits(128), i))  # NEW
PY
		touch "$data/$list.done"
	fi
	mkdir -p "$data/few"
	for i in 1 2 3; do [ -f "$data/few/f$i" ] || head -c 1000 /dev/urandom >"$data/few/f$i"; done
	rounds_of biglist "--audit=LIST -r few|$fhsum --audit=$list -r few" \
		"--audit=LIST --against=LIST2|$fhsum --audit=$list --against=$list.2"
	local size
	size=$(stat -c %s "$data/$list")
	printf '\n### biglist: %s lines (%s MiB), %s rounds\n\n' "$lines" $((size >> 20)) "$rounds"
	table "$log" "--audit=LIST -r few"
	python3 - "$log" "$size" <<'PY'
import sys
log, size = sys.argv[1], int(sys.argv[2])
peak = {}
for line in open(log):
    name, _, kib = line.rstrip("\n").split("\t")
    peak[name] = max(peak.get(name, 0), int(kib) * 1024)
for name, b in peak.items():
    x = b / size
    print("- %s: peak RSS %.1f MiB = %.2fx the list (target <= 2x): %s"
          % (name, b / 2**20, x, "met" if x <= 2 else "NOT MET"))
PY
}

bench_scrub() {
	local tree sums
	make_files "$data/tree-$files-$bytes" "$files" "$bytes"
	make_files "$data/small-$small" "$small" 1024
	for tree in "tree-$files-$bytes" "small-$small"; do
		sums=$tree.scrub
		(cd "$data" && "$fhsum" -a md5 --meta -r "$tree" >"$sums")
		rounds_of "scrub-$tree" "fhsum --scrub|$fhsum --scrub=$sums --quiet" \
			"fhsum -c|$fhsum -c --quiet $sums"
		printf '\n### scrub: %s, %s, no budget, %s rounds\n\n' "$tree" "$(state)" "$rounds"
		table "$log" "fhsum -c" "fhsum --scrub/fhsum -c<=1.1"
	done
}

# The page cache's state the runs start from, for the tables' titles.
state() {
	if ((cold)); then echo "cold"; elif [ -n "$folio" ]; then echo "$folio folios"; else echo "warm"; fi
}

bench_scrubbig() {
	local big=$data/big sums=big.scrub
	[ -f "$big" ] || head -c $((1 << 30)) /dev/urandom >"$big"
	(cd "$data" && "$fhsum" -a md5 --meta big >"$sums")
	folio_file=$big
	rounds_of scrubbig "fhsum --scrub|$fhsum --scrub=$sums --quiet" \
		"fhsum -c|$fhsum -c --quiet $sums"
	folio_file=
	printf '\n### scrub: one 1 GiB file, %s, no budget, %s rounds\n\n' "$(state)" "$rounds"
	table "$log" "fhsum -c" "fhsum --scrub/fhsum -c<=1.1"
	echo "- FileHugePages after the last run: $(awk '/FileHugePages/ { print $2, $3 }' /proc/meminfo)"
}

cpu=$("$fhsum" --debug -a md5 /dev/null 2>&1 >/dev/null | sed -n 's/.*: CPU //p')
echo "fhsum audit benchmark: $(date -u +%Y-%m-%d), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); fhsum: ${cpu:-?}), load $(cut -d' ' -f1-3 /proc/loadavg)"
for set in "${sets[@]}"; do
	case $set in
	audit) bench_audit ;;
	update) bench_update ;;
	biglist) bench_biglist ;;
	scrub) bench_scrub ;;
	scrubbig) bench_scrubbig ;;
	*) echo "audit.sh: unknown set $set" >&2; exit 2 ;;
	esac
done
