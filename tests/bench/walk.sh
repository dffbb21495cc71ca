#!/usr/bin/env bash
# Benchmarks the tree walk (a benchmark, not a test): `fhsum --update` of
# an unchanged tree, which reads no file and is the walk plus one stat
# per file, against `find DIR -printf '%s %T@\n'`, which stats as much.
# Every round runs each command once, in turn, so that machine noise
# falls on all of them alike; prints Markdown tables of median wall time
# and the ratios against the targets.
#
#   tests/bench/walk.sh [-r ROUNDS] [-d DATADIR] [-n FILES] [-D DIRS]
#                       [-b BEFORE] [SET...]
#
# The tree: FILES (100,000) files of 1 KiB in DIRS (100) directories,
# made once under DATADIR, with a --meta list of it.  SETs (default both):
#   cached  the tree in the page cache: --update (default -j) against
#           find (target <= 0.8x), and -j1 against -j2 (target: -j2
#           >= 1.6x faster);
#   cold    caches dropped (sync; echo 3 > /proc/sys/vm/drop_caches)
#           before each run: --update against find (target <= 0.7x);
#           needs root, else "skipped: cannot drop caches".
# -b BEFORE: another fhsum binary (an older build) timed beside this one.
# Environment: FHSUM (default build/cmd/fhsum of this tree).
set -euo pipefail
export LC_ALL=C

rounds=5 data=${TMPDIR:-/tmp}/fhsum-bench-walk files=100000 dirs=100 before=
while getopts r:d:n:D:b: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	d) data=$OPTARG ;;
	n) files=$OPTARG ;;
	D) dirs=$OPTARG ;;
	b) before=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sets=("$@")
((${#sets[@]})) || sets=(cached cold)

here=$(cd "$(dirname "$0")/../.." && pwd)
fhsum=${FHSUM:-$here/build/cmd/fhsum}
case $fhsum in /*) ;; *) fhsum=$PWD/$fhsum ;; esac
[ -x "$fhsum" ] || { echo "walk.sh: build fhsum first ($fhsum)" >&2; exit 1; }
if [ -n "$before" ]; then
	case $before in /*) ;; *) before=$PWD/$before ;; esac
	[ -x "$before" ] || { echo "walk.sh: no binary $before" >&2; exit 1; }
fi
mkdir -p "$data"
tree=$data/tree

# The tree and its list, made once (.done marks a finished tree).
make_tree() {
	[ -f "$tree.done" ] && [ -f "$data/list" ] && return
	rm -rf "$tree" && mkdir -p "$tree"
	python3 - "$tree" "$files" "$dirs" <<'PY'
import os, sys
root, n, dirs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
block = os.urandom(1024 + n)
for d in range(dirs):
    os.mkdir(os.path.join(root, "d%03d" % d))
for i in range(n):
    with open(os.path.join(root, "d%03d" % (i % dirs), "f%06d" % i), "wb") as f:
        f.write(block[i:i + 1024])
PY
	"$fhsum" --meta -a md5 -r "$tree" >"$data/list"
	touch "$tree.done"
}

# run NAME COMMAND: one timed run; appends "NAME seconds" to $log.  An
# --update exits 0 over the unchanged tree: anything else stops here.
run() {
	local t0 t1
	[ "$cold" = 1 ] && { sync; echo 3 >/proc/sys/vm/drop_caches; }
	t0=${EPOCHREALTIME/[.,]/}
	if ! bash -c "$2" >/dev/null 2>"$data/err.out"; then
		echo "walk.sh: '$2' failed:" >&2
		head -5 "$data/err.out" >&2
		exit 1
	fi
	t1=${EPOCHREALTIME/[.,]/}
	printf '%s\t%d.%06d\n' "$1" $(((t1 - t0) / 1000000)) $(((t1 - t0) % 1000000)) >>"$log"
}

rounds_of() { # SET NAME|COMMAND...
	local set=$1 r c
	shift
	log=$data/$set.log
	: >"$log"
	for ((r = 0; r < rounds; r++)); do
		for c in "$@"; do run "${c%%|*}" "${c#*|}"; done
	done
}

# table LOG REF [TARGET...]: medians; a TARGET is "A/B<=X" or "A/B>=X".
table() {
	python3 - "$@" <<'PY'
import statistics, sys
log, ref, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}
for line in open(log):
    name, secs = line.rstrip("\n").split("\t")
    rows.setdefault(name, []).append(float(secs))
med = {n: statistics.median(r) for n, r in rows.items()}
print("| command | median s | min s | max s | ratio to %s |" % ref)
print("|---|---:|---:|---:|---:|")
for n, r in rows.items():
    print("| %s | %.4f | %.4f | %.4f | %.2fx |" % (n, med[n], min(r), max(r), med[n] / med[ref]))
print()
for t in targets:
    op = "<=" if "<=" in t else ">="
    pair, limit = t.split(op)
    a, b = pair.split("/")
    x = med[a] / med[b]
    ok = x <= float(limit) if op == "<=" else x >= float(limit)
    print("- %s / %s = %.2fx (target %s %s): %s" % (a, b, x, op, limit, "met" if ok else "NOT MET"))
PY
}

make_tree
cpu=$("$fhsum" --debug -a md5 /dev/null 2>&1 >/dev/null | sed -n 's/^fhsum: CPU //p' | head -1)
echo "# walk: $files files of 1 KiB in $dirs directories, $(nproc) CPUs${cpu:+, $cpu}"
echo
cmds=("find|find '$tree' -printf '%s %T@\n'"
      "update|'$fhsum' --update='$data/list' -r '$tree'")
[ -n "$before" ] && cmds+=("before|'$before' --update='$data/list' -r '$tree'")

for set in "${sets[@]}"; do
	cold=0
	case $set in
	cached)
		echo "## cached"
		echo
		find "$tree" -printf '%s %T@\n' >/dev/null # into the cache
		rounds_of cached "${cmds[@]}" \
			"update-j1|'$fhsum' -j1 --update='$data/list' -r '$tree'" \
			"update-j2|'$fhsum' -j2 --update='$data/list' -r '$tree'"
		table "$data/cached.log" find update/find\<=0.8 update-j1/update-j2\>=1.6
		;;
	cold)
		echo "## cold"
		echo
		if [ "$(id -u)" != 0 ] || ! { sync && echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
			echo "skipped: cannot drop caches"
			continue
		fi
		cold=1
		rounds_of cold "${cmds[@]}"
		table "$data/cold.log" find update/find\<=0.7
		;;
	*) echo "walk.sh: no set $set" >&2; exit 2 ;;
	esac
	echo
done
