#!/usr/bin/env bash
# Whether the fast kernels are fed at their speed from a cached file: for
# every algorithm whose kernel picked by default passes 1,500 MB/s in
# `fhsum --benchmark` (16 KiB buffers in L1), hashes a cached 1 GiB file
# with `-j1`, mapped and with --no-mmap, alternating, and prints the
# median user-time speed of each against the benchmark's (one file a run:
# copies of it on one command line would go to the multi-buffer lanes).
# A mapped run well under its benchmark speed is the hashing thread
# stalling on the mapping's pages (the prefetcher stopping at each page,
# TLB misses); the read path pays its copy in system time instead.  Runs
# in each folio state the page cache can hold the file in (4 KiB folios
# via smallfolios.c, 2 MiB folios after a drop, a compaction and a cat),
# since a mapping of each differs (needs root to drop the cache).
# Beside them, the mapping's ceiling: the user time of `readceil -m`
# loading every 64-byte line of the faulted-in mapping and hashing
# nothing.  A kernel faster than that (in L1) is bound by memory on a
# large file, so the last column sets the mapped speed against the
# lower of the two.
#
#   tests/bench/feed.sh [-r ROUNDS] [-d DATADIR] [-f FHSUM] [-F small|huge] [ALG...]
#
# Default: 7 rounds, both folio states, and of md5 sha1 sha256
# blake3 xxh32 xxh64 xxh3 xxh128 crc crc32b crc32c crc64nvme sysv those
# over 1,500 MB/s here.  DATADIR (default /tmp/fhsum-bench-checksums)
# keeps the file between runs; checksums.sh uses the same one.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fhsum=$here/../../build/cmd/fhsum
rounds=7 data=/tmp/fhsum-bench-checksums folios="small huge"
while getopts r:d:f:F: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	d) data=$OPTARG ;;
	f) fhsum=$OPTARG ;;
	F) [[ $OPTARG == small || $OPTARG == huge ]] ||
		{ echo "feed.sh: -F small or -F huge" >&2; exit 2; }
	   folios=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -x "$fhsum" ] || { echo "feed.sh: $fhsum not built" >&2; exit 1; }
if [ "$(id -u)" != 0 ]; then
	echo "feed.sh: skipped: putting the file in a folio state needs root"
	exit 77
fi
export LC_ALL=C

mkdir -p "$data"
big=$data/big
if [ ! -s "$big" ]; then
	head -c $((1 << 30)) /dev/urandom >"$big.tmp"
	mv "$big.tmp" "$big"
fi
cc -O2 -pthread -o "$data/smallfolios" "$here/smallfolios.c"
cc -O2 -pthread -o "$data/readceil" "$here/readceil.c"
printf '%s\n' "$big" >"$data/big.list"

# ALG's picked single-stream kernel and its --benchmark MB/s.
bench() {
	"$fhsum" --benchmark -a "$1" 2>/dev/null |
		awk -v a="$1" '$1 == a && $NF == "*" { print $2, $3; exit }'
}
declare -A kernel speed
algs=("$@")
[ ${#algs[@]} -gt 0 ] || algs=(md5 sha1 sha256 blake3 xxh32 xxh64 xxh3 xxh128
	crc crc32b crc32c crc64nvme sysv)
picked=()
for a in "${algs[@]}"; do
	read -r k s < <(bench "$a") || continue
	if [ $# -gt 0 ] || awk -v s="$s" 'BEGIN { exit !(s > 1500) }'; then
		kernel[$a]=$k speed[$a]=$s
		picked+=("$a")
	fi
done

smallfolios=$data/smallfolios
. "$here/common.sh"

# User seconds of one `fhsum -j1 [--no-mmap] -a ALG` of the file.
user_s() {
	TIMEFORMAT=%3U
	{ time "$fhsum" -j1 "$@" "$big" >/dev/null; } 2>&1
}

# User seconds of the mapping's ceiling (one thread loading every line).
ceiling_s() {
	TIMEFORMAT=%3U
	{ time "$data/readceil" -m 1 "$data/big.list"; } 2>&1
}

mb=1073.741824
echo "# $("$fhsum" --debug 2>&1 | grep -m1 CPU | sed 's/^fhsum: //'), $rounds rounds," \
	"1 GiB a run, -j1; MB/s from user time"
for f in $folios; do
	set_folio "$f" "$big"
	echo
	echo "## $f folios ($(grep FileHugePages /proc/meminfo | tr -s ' '))"
	echo
	c=()
	for ((i = 0; i < rounds; i++)); do
		c+=("$(ceiling_s)")
	done
	cu=$(printf '%s\n' "${c[@]}" | median)
	cs=$(awk -v mb="$mb" -v cu="$cu" 'BEGIN { printf "%.0f", (cu > 0 ? mb / cu : 0) }')
	echo "mapping's ceiling (readceil -m, one thread): $cs MB/s"
	echo
	echo "| algorithm | kernel | --benchmark MB/s | mapped MB/s | mapped / benchmark | mapped / min(benchmark, ceiling) | read MB/s | read / benchmark |"
	echo "|---|---|---|---|---|---|---|---|"
	for a in "${picked[@]}"; do
		m=() r=()
		for ((i = 0; i < rounds; i++)); do
			if ((i % 2)); then
				r+=("$(user_s --no-mmap -a "$a")")
				m+=("$(user_s -a "$a")")
			else
				m+=("$(user_s -a "$a")")
				r+=("$(user_s --no-mmap -a "$a")")
			fi
		done
		mu=$(printf '%s\n' "${m[@]}" | median)
		ru=$(printf '%s\n' "${r[@]}" | median)
		awk -v a="$a" -v k="${kernel[$a]}" -v s="${speed[$a]}" -v mb="$mb" \
		    -v mu="$mu" -v ru="$ru" -v cs="$cs" 'BEGIN {
			ms = mu > 0 ? mb / mu : 0
			rs = ru > 0 ? mb / ru : 0
			lo = cs > 0 && cs < s ? cs : s
			printf "| %s | %s | %.0f | %.0f | %.2fx | %.2fx | %.0f | %.2fx |\n",
				a, k, s, ms, ms / s, ms / lo, rs, rs / s }'
	done
done
