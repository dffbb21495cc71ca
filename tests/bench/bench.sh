#!/usr/bin/env bash
# Benchmarks fhsum against GNU md5sum, `xargs -P md5sum`, openssl dgst,
# rhash and b3sum (b3sum hashes BLAKE3: a speed reference only) on data
# sets it makes itself, side by side: every round runs each command once,
# in turn, so machine noise falls on all of them alike.  Prints Markdown
# tables of median wall time, ratio to fhsum and peak RSS.
#
#   tests/bench/bench.sh [-r ROUNDS] [-d DATADIR] [-a ALGO] [SET...]
#
# SETs: big (one 1 GiB file), medium (4096 x 128 KiB), small (100,000 x
# 1 KiB), sparse (a 16 GiB sparse file), names (1,000,000 names through
# --files0-from), startup (/dev/null).  Default: all.  Files are read once
# before timing, so these are cached-data figures.
set -euo pipefail

rounds=5 data=${TMPDIR:-/tmp}/fhsum-bench algo=md5
while getopts r:d:a: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	d) data=$OPTARG ;;
	a) algo=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sets=("$@")
((${#sets[@]})) || sets=(big medium small sparse names startup)

here=$(cd "$(dirname "$0")/../.." && pwd)
fhsum=${FHSUM:-$here/build/cmd/fhsum}
ncpu=$(nproc)
[ -x "$fhsum" ] || { echo "bench: build fhsum first ($fhsum)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
mkdir -p "$data"

# Data sets, made once and kept in DATADIR.
make_files() { # DIR COUNT SIZE
	[ -f "$1/.done" ] && return
	mkdir -p "$1"
	python3 - "$1" "$2" "$3" <<'PY'
import os, sys
d, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seed = os.urandom(size + n)
for i in range(n):
    with open(os.path.join(d, "f%06d" % i), "wb") as f:
        f.write(seed[i:i + size])
PY
	(cd "$1" && find . -type f -name 'f*' | sort >list && tr '\n' '\0' <list >list0)
	touch "$1/.done"
}

prepare() {
	case $1 in
	big) [ -f "$data/big" ] || head -c $((1 << 30)) /dev/urandom >"$data/big" ;;
	medium) make_files "$data/medium" 4096 131072 ;;
	small | names) make_files "$data/small" 100000 1024 ;;
	sparse) [ -f "$data/sparse" ] || truncate -s 16G "$data/sparse" ;;
	esac
	if [ "$1" = names ] && [ ! -f "$data/names0" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$data/small/list0"; done >"$data/names0"
	fi
}

# run NAME COMMAND...: one timed run; appends "NAME seconds kib" to $log.
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$data/time.out" bash -c "$*" >/dev/null 2>"$data/err.out" || {
		echo "bench: '$*' failed:" >&2
		cat "$data/err.out" >&2
		exit 1
	}
	echo "$name $(cat "$data/time.out")" >>"$log"
}

# bench SET: runs the set's commands ROUNDS times, alternating.
bench() {
	local set=$1 dir n
	local -a names=() cmds=()
	add() { names+=("$1"); cmds+=("$2"); }
	case $set in
	big)
		add "fhsum -a $algo" "$fhsum -a $algo '$data/big'"
		add "fhsum -a $algo --no-mmap" "$fhsum -a $algo --no-mmap '$data/big'"
		[ "$algo" = md5 ] && add "md5sum" "md5sum '$data/big'"
		have openssl && add "openssl dgst -$algo" "openssl dgst -$algo '$data/big'"
		have rhash && add "rhash --$algo" "rhash --$algo '$data/big'"
		have b3sum && add "b3sum (BLAKE3)" "b3sum '$data/big'"
		cat "$data/big" >/dev/null
		;;
	medium | small)
		dir=$data/$set
		add "fhsum -a $algo" "cd '$dir' && $fhsum -a $algo --files-from=list"
		add "fhsum -a $algo -j1" "cd '$dir' && $fhsum -a $algo -j1 --files-from=list"
		if [ "$algo" = md5 ]; then
			add "md5sum" "cd '$dir' && xargs -a list md5sum"
			add "xargs -P$ncpu md5sum" "cd '$dir' && xargs -a list -P$ncpu -n 512 md5sum"
		fi
		have openssl && add "openssl dgst -$algo" "cd '$dir' && xargs -a list openssl dgst -$algo"
		have rhash && add "rhash --$algo" "cd '$dir' && xargs -a list rhash --$algo"
		have b3sum && add "b3sum (BLAKE3)" "cd '$dir' && xargs -a list b3sum"
		(cd "$dir" && xargs -a list cat >/dev/null)
		;;
	sparse)
		add "fhsum -a $algo" "$fhsum -a $algo '$data/sparse'"
		[ "$algo" = md5 ] && add "md5sum" "md5sum '$data/sparse'"
		;;
	names)
		add "fhsum -a $algo --files0-from" "cd '$data/small' && $fhsum -a $algo --files0-from='$data/names0'"
		;;
	startup)
		add "fhsum -a $algo /dev/null" "$fhsum -a $algo /dev/null"
		[ "$algo" = md5 ] && add "md5sum /dev/null" "md5sum /dev/null"
		;;
	esac
	log=$data/$set.log
	: >"$log"
	local r i reps=1
	[ "$set" = startup ] && reps=200
	for ((r = 0; r < rounds; r++)); do
		for i in "${!cmds[@]}"; do
			if ((reps > 1)); then
				# Start-up: many runs per timing, to rise above the clock.
				run "${names[$i]}" "for _ in \$(seq $reps); do ${cmds[$i]}; done"
			else
				run "${names[$i]}" "${cmds[$i]}"
			fi
		done
	done
	printf '\n### %s (%s rounds%s)\n\n' "$set" "$rounds" \
		"$( ((reps > 1)) && echo ", $reps runs per timing")"
	echo "| command | median s | ratio to fhsum | peak RSS MiB |"
	echo "|---|---:|---:|---:|"
	python3 - "$log" "${names[0]}" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    *name, secs, kib = line.split()
    rows.setdefault(" ".join(name), []).append((float(secs), int(kib)))
ref = statistics.median(s for s, _ in rows[sys.argv[2]])
for name, runs in rows.items():
    med = statistics.median(s for s, _ in runs)
    rss = max(k for _, k in runs) / 1024
    ratio = med / ref if ref > 0 else float("nan")
    print(f"| {name} | {med:.3f} | {ratio:.2f}x | {rss:.1f} |")
PY
}

echo "fhsum benchmark: $(date -u +%Y-%m-%d), $ncpu CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), algorithm $algo"
echo "fhsum kernels: $("$fhsum" --debug -a "$algo" /dev/null 2>&1 >/dev/null | sed 's/.*kernel //' | tr '\n' ' ')"
for set in "${sets[@]}"; do
	prepare "$set"
	bench "$set"
done
