#!/usr/bin/env bash
# Benchmarks `fhsum -a blake3` against b3sum on cached data it makes
# itself: one 1 GiB file (all threads, and one thread against `b3sum
# --num-threads 1`), 4,096 files of 128 KiB and 100,000 of 1 KiB (all
# threads; b3sum hashes files one after another, each on all threads).
# Every round runs the commands of a set once each, alternating which goes
# first, so machine noise falls on both alike.  Prints, per set, the median
# wall time of each command, the median of the per-round ratios
# (b3sum / fhsum: above 1, fhsum is faster), the CPU (fhsum --debug) and
# how the page cache holds the large file (FileHugePages in /proc/meminfo:
# about 1 GiB when it is in 2 MiB folios, 0 when in 4 KiB ones).
#
#   tests/bench/blake3.sh [-r ROUNDS] [-d DATADIR] [-f FHSUM] [-F small|huge] [SET...]
#
# SETs: big, floor, big1 (one thread each), pair, medium, small.  Default:
# all.  pair: the 1 GiB file and, after it, one of 256 MiB (a large file
# listed before a smaller one: each starts on a thread of its own).
# floor: the 1 GiB file through blake3_floor (build/tests/bench) in
# fhsum's column: the chunk kernel alone on every thread, no tree and no
# engine, so b3sum / floor is the most that fhsum, or any program with
# its kernel, can reach on that file.
# DATADIR (default /tmp/fhsum-bench-blake3) keeps the data between runs.
# -F small or -F huge puts the 1 GiB file in that state of the page
# cache once, before the first set (as tests/bench/common.sh's set_folio
# does; huge needs root, and drops the whole cache, so the sets of small
# files start cold and are warmed by their first, untimed, runs).  A
# mapped file costs a page at a time, so the 1 GiB figures differ between
# the two; without -F the file stays in whatever state it is.
set -euo pipefail

rounds=7
dir=/tmp/fhsum-bench-blake3
fhsum=$(cd "$(dirname "$0")/../.." && pwd)/build/cmd/fhsum
folio=
while getopts r:d:f:F: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	d) dir=$OPTARG ;;
	f) fhsum=$OPTARG ;;
	F) [[ $OPTARG == small || $OPTARG == huge ]] ||
		{ echo "blake3.sh: -F small or -F huge" >&2; exit 2; }
	   folio=$OPTARG ;;
	*) exit 2 ;;
	esac
done
if [ "$folio" = huge ] && [ "$(id -u)" != 0 ]; then
	echo "blake3.sh: -F huge needs root (it drops the page cache)" >&2
	exit 77
fi
shift $((OPTIND - 1))
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(big floor big1 pair medium small)
command -v b3sum >/dev/null || { echo "blake3.sh: no b3sum" >&2; exit 77; }

mkdir -p "$dir"
make_data() {
	if [ ! -s "$dir/big" ]; then
		head -c $((1 << 30)) /dev/urandom >"$dir/big.tmp"
		mv "$dir/big.tmp" "$dir/big"
	fi
	if [ ! -s "$dir/quarter" ]; then
		head -c $((1 << 28)) /dev/urandom >"$dir/quarter.tmp"
		mv "$dir/quarter.tmp" "$dir/quarter"
	fi
	if [ ! -e "$dir/medium/done" ]; then
		mkdir -p "$dir/medium"
		for i in $(seq 1 4096); do
			head -c 131072 /dev/urandom >"$dir/medium/$i"
		done
		touch "$dir/medium/done"
	fi
	if [ ! -e "$dir/small/done" ]; then
		mkdir -p "$dir/small"
		# One random 1 KiB block per file, cut from a larger random
		# file: quicker than 100,000 reads of /dev/urandom.
		head -c $((100000 * 1024)) /dev/urandom >"$dir/small.all"
		(cd "$dir/small" && split -a 5 -d -b 1024 ../small.all f)
		rm -f "$dir/small.all"
		touch "$dir/small/done"
	fi
}
make_data

# Seconds of wall time of one command line, run in this shell (eval) so
# that no second shell's start and no glob is timed with it; its output
# is thrown away.
timed() {
	local t0 t1
	t0=$(date +%s.%N)
	eval "$1" >/dev/null
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

. "$(dirname "$0")/common.sh"
smallfolios=$dir/smallfolios
if [ -n "$folio" ]; then
	cc -O2 -pthread -o "$smallfolios" "$(dirname "$0")/smallfolios.c"
	set_folio "$folio" "$dir/big"
fi

# The two sets of small files are named to each program by xargs from a
# list made once here, in one call (checked): a shell expanding and
# sorting 100,000 names, then building their argument vector, takes
# 0.1-0.2 s, as long as fhsum takes to hash them, and is no part of
# either program's time (xargs starting `true` on them: 0.03 s).
names() {
	local n
	(cd "$dir/$1" && printf '%s\0' $2*) >"$dir/$1.names"
	n=$(cd "$dir/$1" && xargs -0 -s 2000000 sh -c 'echo $#' sh <"../$1.names")
	[ "$n" = "$3" ] || { echo "blake3.sh: $1: xargs split the names" >&2; exit 1; }
}
names medium '[0-9]' 4096
names small f 100000

# run NAME 'FHSUM COMMAND' 'B3SUM COMMAND' (command lines for eval, in $dir)
run() {
	local name=$1 a=$2 b=$3 ta tb
	local fa=() fb=() ratios=()

	(cd "$dir" && eval "$a" >/dev/null)  # warm
	(cd "$dir" && eval "$b" >/dev/null)
	for r in $(seq 1 "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then
			ta=$(cd "$dir" && timed "$a")
			tb=$(cd "$dir" && timed "$b")
		else
			tb=$(cd "$dir" && timed "$b")
			ta=$(cd "$dir" && timed "$a")
		fi
		fa+=("$ta")
		fb+=("$tb")
		ratios+=("$(echo "$tb / $ta" | bc -l)")
	done
	printf '| %s | %.3f | %.3f | %.2fx |\n' "$name" \
		"$(printf '%s\n' "${fa[@]}" | median)" \
		"$(printf '%s\n' "${fb[@]}" | median)" \
		"$(printf '%s\n' "${ratios[@]}" | median)"
}

echo "# $("$fhsum" --debug 2>&1 | grep -m1 'CPU' | sed 's/^fhsum: //'),"\
     "$(nproc) CPUs, $(b3sum --version), $rounds rounds"
echo "# $("$fhsum" --debug 2>&1 | grep -m1 'kernel blake3' | sed 's/^fhsum: //')"
echo
echo "| set | fhsum s | b3sum s | b3sum/fhsum (median of rounds) |"
echo "|---|---|---|---|"
for set in "${sets[@]}"; do
	case $set in
	big)
		cat "$dir/big" >/dev/null
		echo "# big: $(grep FileHugePages /proc/meminfo | tr -s ' ')" >&2
		run "1 GiB, all threads" "'$fhsum' -a blake3 big" "b3sum big" ;;
	floor)
		cat "$dir/big" >/dev/null
		run "1 GiB, all threads, the chunk kernel alone" \
			"'$(dirname "$fhsum")/../tests/bench/blake3_floor' big" \
			"b3sum big" ;;
	big1)
		cat "$dir/big" >/dev/null
		run "1 GiB, -j1 / --num-threads 1" "'$fhsum' -a blake3 -j1 big" \
			"b3sum --num-threads 1 big" ;;
	pair)
		cat "$dir/big" "$dir/quarter" >/dev/null
		run "1 GiB, then 256 MiB, all threads" \
			"'$fhsum' -a blake3 big quarter" "b3sum big quarter" ;;
	medium)
		run "4096 x 128 KiB" \
			"cd medium && xargs -0 -s 2000000 '$fhsum' -a blake3 <../medium.names" \
			"cd medium && xargs -0 -s 2000000 b3sum <../medium.names" ;;
	small)
		# From inside the folder: 100,000 names with a folder before
		# each pass the kernel's limit on arguments.
		run "100000 x 1 KiB" \
			"cd small && xargs -0 -s 2000000 '$fhsum' -a blake3 <../small.names" \
			"cd small && xargs -0 -s 2000000 b3sum <../small.names" ;;
	*)
		echo "blake3.sh: unknown set $set" >&2
		exit 2 ;;
	esac
done
echo
echo "# after: $(grep FileHugePages /proc/meminfo | tr -s ' ')"
