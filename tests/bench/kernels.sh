#!/usr/bin/env bash
# Single-stream kernel speed against the tools installed here, measured
# side by side and alternating in one run (benchmarks, not tests):
#
#   tests/bench/kernels.sh [BUILD-DIR]        (default: build)
#
#   1. `fhsum --benchmark -a ALG` (the kernel picked by default, and the
#      portable one) against `openssl speed -evp ALG -bytes 16384`, for md5,
#      sha3-256, sha3-512 and shake128: ROUNDS rounds (default 5), each
#      running every command once for SECS seconds (default 1), in turn;
#   2. `fhsum -a md5` against GNU `md5sum` on a 1 GiB file in the page
#      cache (tmpfs), with `hyperfine -N`, which alternates the two.
# Prints Markdown tables of medians and ratios.  Both in-memory tools count
# CPU time, so a busy machine slows the figures less than it adds noise;
# read the ratios, not the absolute figures.  Environment: ROUNDS, SECS,
# BIGFILE_DIR (default /dev/shm), SKIP_FILE=1 to skip part 2.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

build=${1:-build}
fhsum=$build/cmd/fhsum
rounds=${ROUNDS:-5}
secs=${SECS:-1}
case $secs in *[!0-9]* | "" | 0) echo "kernels.sh: SECS must be a whole number of seconds (openssl speed)" >&2; exit 1 ;; esac
[ -x "$fhsum" ] || { echo "kernels.sh: $fhsum not built" >&2; exit 1; }
command -v openssl >/dev/null || { echo "kernels.sh: openssl missing" >&2; exit 1; }

algos=(md5 sha3-256 sha3-512 shake128)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "kernels.sh: $rounds rounds of ${secs}s per command; $(nproc) CPUs," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= rounds; r++)); do
	for a in "${algos[@]}"; do
		# openssl -mr: "+F:N:ALG:BYTES_PER_SECOND".
		openssl speed -mr -evp "$a" -bytes 16384 -seconds "$secs" \
			2>/dev/null | awk -F: '/^\+F:/ { printf "%.1f\n", $4 / 1e6 }' \
			>>"$tmp/openssl.$a"
		# --benchmark rows: ALG KERNEL MB/s RATIO [*]; * = picked.
		FHSUM_BENCH_SECONDS=$secs "$fhsum" --benchmark -a "$a" >"$tmp/out"
		awk '$NF == "*" { print $3 }' "$tmp/out" >>"$tmp/fhsum.$a"
		awk '$NF == "*" { print $2 }' "$tmp/out" >"$tmp/kernel.$a"
		awk '$2 ~ /-portable$/ { print $3 }' "$tmp/out" >>"$tmp/portable.$a"
	done
	echo "round $r of $rounds done" >&2
done

echo
echo "| algorithm | fhsum kernel | fhsum MB/s | portable MB/s | OpenSSL MB/s | fhsum / OpenSSL | kernel / portable |"
echo "|---|---|---:|---:|---:|---:|---:|"
for a in "${algos[@]}"; do
	f=$(median <"$tmp/fhsum.$a")
	p=$(median <"$tmp/portable.$a")
	o=$(median <"$tmp/openssl.$a")
	awk -v a="$a" -v k="$(cat "$tmp/kernel.$a")" -v f="$f" -v p="$p" -v o="$o" \
		'BEGIN { printf "| %s | %s | %.1f | %.1f | %.1f | %.3f | %.2f |\n",
			a, k, f, p, o, f / o, f / p }'
done
echo
echo "MB/s = 10^6 bytes/s, median of $rounds; 16 KiB buffers hashed whole."

[ "${SKIP_FILE:-0}" = 1 ] && exit 0
if ! command -v hyperfine >/dev/null; then
	echo "kernels.sh: hyperfine missing (apt-get install -y hyperfine); file test skipped" >&2
	exit 0
fi
dir=${BIGFILE_DIR:-/dev/shm}
big=$(mktemp "$dir/fhsum-bench.XXXXXX")
trap 'rm -rf "$tmp" "$big"' EXIT
head -c $((1 << 30)) /dev/urandom >"$big"
cat "$big" >/dev/null
hyperfine -N -w 1 -r "${FILE_RUNS:-7}" --export-json "$tmp/h.json" \
	"$fhsum -a md5 $big" "md5sum $big" >&2
python3 - "$tmp/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
med = [x["median"] for x in r]
print()
print("| command (1 GiB file, page cache) | median s | MB/s | md5sum / fhsum |")
print("|---|---:|---:|---:|")
for x, m in zip(r, med):
    name = x["command"].split()[0].rsplit("/", 1)[-1]
    print(f"| {name} -a md5 | {m:.3f} | {2**30 / m / 1e6:.0f} | {med[1] / m:.3f} |"
          if name == "fhsum" else
          f"| {name} | {m:.3f} | {2**30 / m / 1e6:.0f} | {med[1] / m:.3f} |")
PY
