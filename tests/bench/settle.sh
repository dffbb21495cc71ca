#!/usr/bin/env bash
# Benchmarks the settling of an untagged list (a benchmark, not a test):
# `fhsum -c SHA256SUMS`, untagged, whose first entry is one large file,
# against `fhsum -c -a sha256 SHA256SUMS`, which needs no settling.  The
# two commands take turns every round, so noise falls on both alike;
# prints the median wall times and the median of the per-round ratios
# (target: untagged <= 1.15x).
#
#   tests/bench/settle.sh [-r ROUNDS] [-s BIGBYTES] [-n SMALLFILES] [-d DIR]
#                         [-a ALGO]
#
# Defaults: 11 rounds, a 1 GiB first entry, then 64 files of 128 KiB; the
# files live in DIR (default: a temporary directory, removed at the end)
# and are cached (one untimed run of each command first).  -n 0: the large
# file alone, as a download's own list or sidecar has it.  -a: the list
# written by another program of untagged lines (sha512, md5: GNU's;
# blake3: b3sum; blake2b: b2sum; xxh128: xxhsum -H2), the second command's
# -a that one.  FHSUM names the binary (default: build/cmd/fhsum of this
# tree).
set -euo pipefail
rounds=11 big=$((1 << 30)) small=64 dir= algo=sha256
while getopts r:s:n:d:a: o; do
	case $o in
	r) rounds=$OPTARG ;; s) big=$OPTARG ;; n) small=$OPTARG ;; d) dir=$OPTARG ;;
	a) algo=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-s BIGBYTES] [-n SMALLFILES] [-d DIR] [-a ALGO]" >&2; exit 2 ;;
	esac
done
case $algo in
sha256 | sha512 | md5) writer=${algo}sum ;;
blake3) writer=b3sum ;;
blake2b) writer=b2sum ;;
xxh128) writer="xxhsum -H2" ;;
*) echo "settle.sh: -a sha256, sha512, md5, blake3, blake2b or xxh128" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")/../.." && pwd)
fhsum=${FHSUM:-$here/build/cmd/fhsum}
if [ -z "$dir" ]; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/fh-settle.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir" && cd "$dir"
[ -f big ] && [ "$(stat -c %s big)" = "$big" ] || head -c "$big" /dev/urandom >big
for i in $(seq 1 "$small"); do
	[ -f "s$i" ] || head -c $((128 << 10)) /dev/urandom >"s$i"
done
$writer big $( ((small)) && seq -f 's%g' 1 "$small") >SUMS

now() { date +%s.%N; }
timeit() { local t0; t0=$(now); "$@" >/dev/null; echo "$(now) - $t0" | bc -l; }
"$fhsum" -c SUMS >/dev/null; "$fhsum" -c -a "$algo" SUMS >/dev/null
u=() a=() q=()
for r in $(seq 1 "$rounds"); do
	tu=$(timeit "$fhsum" -c SUMS)
	ta=$(timeit "$fhsum" -c -a "$algo" SUMS)
	u+=("$tu") a+=("$ta") q+=("$(echo "$tu / $ta" | bc -l)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
printf '| %s, %s rounds | -c (untagged, %s) | -c -a %s | ratio (median of rounds) | target |\n' "$cpu" "$rounds" "$writer" "$algo"
printf '|---|---:|---:|---:|---|\n'
printf '| %s B + %s x 128 KiB, cached | %.3f s | %.3f s | %.3fx | <= 1.15x |\n' "$big" "$small" \
	"$(median "${u[@]}")" "$(median "${a[@]}")" "$(median "${q[@]}")"
