#!/usr/bin/env bash
# Benchmarks the settling of an untagged list (a benchmark, not a test):
# `fhsum -c SHA256SUMS`, untagged, whose first entry is one large file,
# against `fhsum -c -a sha256 SHA256SUMS`, which needs no settling.  The
# two commands take turns every round, so noise falls on both alike;
# prints the median wall times and the median of the per-round ratios
# (target: untagged <= 1.15x).
#
#   tests/bench/settle.sh [-r ROUNDS] [-s BIGBYTES] [-n SMALLFILES] [-d DIR]
#
# Defaults: 11 rounds, a 1 GiB first entry, then 64 files of 128 KiB; the
# files live in DIR (default: a temporary directory, removed at the end)
# and are cached (one untimed run of each command first).  FHSUM names the
# binary (default: build/cmd/fhsum of this tree).
set -euo pipefail
rounds=11 big=$((1 << 30)) small=64 dir=
while getopts r:s:n:d: o; do
	case $o in
	r) rounds=$OPTARG ;; s) big=$OPTARG ;; n) small=$OPTARG ;; d) dir=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-s BIGBYTES] [-n SMALLFILES] [-d DIR]" >&2; exit 2 ;;
	esac
done
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
[ -f SUMS ] || sha256sum big $(seq -f 's%g' 1 "$small") >SUMS

now() { date +%s.%N; }
timeit() { local t0; t0=$(now); "$@" >/dev/null; echo "$(now) - $t0" | bc -l; }
"$fhsum" -c SUMS >/dev/null; "$fhsum" -c -a sha256 SUMS >/dev/null
u=() a=() q=()
for r in $(seq 1 "$rounds"); do
	tu=$(timeit "$fhsum" -c SUMS)
	ta=$(timeit "$fhsum" -c -a sha256 SUMS)
	u+=("$tu") a+=("$ta") q+=("$(echo "$tu / $ta" | bc -l)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
printf '| %s, %s rounds | -c (untagged) | -c -a sha256 | ratio (median of rounds) | target |\n' "$cpu" "$rounds"
printf '|---|---:|---:|---:|---|\n'
printf '| %s B + %s x 128 KiB, cached | %.3f s | %.3f s | %.3fx | <= 1.15x |\n' "$big" "$small" \
	"$(median "${u[@]}")" "$(median "${a[@]}")" "$(median "${q[@]}")"
