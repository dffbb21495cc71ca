#!/usr/bin/env bash
# Benchmarks the checksums (CRCs, xxHash, S3's parts) against the programs
# they replace, on cached data, in alternating rounds: every round runs
# each command once, in turn, so machine noise falls on all of them
# alike.  Prints the median wall time of each, its ratio to the
# reference named in the row, and the CPU (fhsum --debug's first line).
#
#   tests/bench/checksums.sh [-r ROUNDS] [-d DATADIR] [SET...]
#
# SETs: big (one 1 GiB file, -j1: crc32b, crc32c, crc64nvme against the
# read ceiling of tests/bench/readceil.c; crc against GNU cksum; xxh3,
# xxh128, xxh64 against xxhsum -H3, -H2, -H1; --part-size=8M md5 against
# md5sum of the whole file), medium (4096 files of 128 KiB, all threads:
# xxh3 against xxhsum -H3, crc against GNU cksum).  Default: both.
#
# -F small or -F huge puts the big file, before every run of every
# command, in that state of the page cache, as tests/bench/bench.sh -F
# does (huge: 2 MiB folios, needs root; small: 4 KiB folios).  A mapped
# file costs a page at a time, so the big set's figures differ between
# the two; without -F the file stays in whatever state it is.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fhsum=${FHSUM:-$root/build/cmd/fhsum}
rounds=5 folio= prep=
data=${TMPDIR:-/tmp}/fhsum-bench-checksums
while getopts r:d:F: o; do
	case $o in
	r) rounds=$OPTARG ;;
	d) data=$OPTARG ;;
	F) [[ $OPTARG == small || $OPTARG == huge ]] ||
		{ echo "checksums: -F small or -F huge" >&2; exit 2; }
	   folio=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sets=${*:-big medium}
mkdir -p "$data"
cc -O2 -pthread -o "$data/readceil" "$here/readceil.c"
cc -O2 -pthread -o "$data/smallfolios" "$here/smallfolios.c"
if [ "$folio" = huge ] && { [ "$(id -u)" != 0 ] ||
	! { sync && echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; }; then
	echo "checksums: -F huge skipped: dropping the page cache needs root"
	exit 0
fi

# set_folio STATE FILE and median.
smallfolios=$data/smallfolios
. "$here/common.sh"

now() { date +%s.%N; }

# Runs each "LABEL|COMMAND" of the arguments ROUNDS times, alternating,
# and prints LABEL and its median seconds.
race() {
	local -a labels cmds
	local r i t0 t1
	for a in "$@"; do
		labels+=("${a%%|*}")
		cmds+=("${a#*|}")
	done
	for ((i = 0; i < ${#cmds[@]}; i++)); do : >"$data/t.$i"; done
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < ${#cmds[@]}; i++)); do
			[ -z "$prep" ] || $prep
			t0=$(now)
			bash -c "${cmds[$i]}" >/dev/null 2>&1
			t1=$(now)
			echo "$t1 - $t0" | bc >>"$data/t.$i"
		done
	done
	for ((i = 0; i < ${#cmds[@]}; i++)); do
		printf '%s %s\n' "${labels[$i]}" "$(median <"$data/t.$i")"
	done
}

# Prints "| A | tA | B | tB | tB/tA |" for label pairs of RESULTS.
row() { # RESULTS A B
	awk -v a="$2" -v b="$3" '$1 == a { ta = $2 } $1 == b { tb = $2 }
		END { printf "| %s | %.3f s | %s | %.3f s | %.2fx |\n", a, ta, b, tb, tb / ta }' "$1"
}

"$fhsum" --debug /dev/null 2>&1 | sed -n 1p
echo "rounds: $rounds, medians of wall time; ratio: the reference's time / fhsum's"
echo
echo "| fhsum | time | reference | time | ratio |"
echo "|---|---|---|---|---|"

if [[ " $sets " == *" big "* ]]; then
	f=$data/big
	[ -s "$f" ] || head -c $((1 << 30)) /dev/urandom >"$f"
	cat "$f" >/dev/null
	echo "$f" >"$data/big.list"
	[ -z "$folio" ] || prep="set_folio $folio $f"
	race "readceil|$data/readceil 1 $data/big.list" \
		"crc32b|$fhsum -j1 -a crc32b $f" "crc32c|$fhsum -j1 -a crc32c $f" \
		"crc64nvme|$fhsum -j1 -a crc64nvme $f" \
		"crc|$fhsum -j1 -a crc $f" "cksum|cksum $f" \
		"crc-all-threads|$fhsum -a crc $f" \
		"xxh3|$fhsum -j1 -a xxh3 $f" "xxhsum-H3|xxhsum -H3 $f" \
		"xxh128|$fhsum -j1 -a xxh128 $f" "xxhsum-H2|xxhsum -H2 $f" \
		"xxh64|$fhsum -j1 -a xxh64 $f" "xxhsum-H1|xxhsum -H1 $f" \
		"parts-md5|$fhsum --part-size=8M $f" "md5sum|md5sum $f" >"$data/big.res"
	for a in crc32b crc32c crc64nvme; do row "$data/big.res" $a readceil; done
	row "$data/big.res" crc cksum
	row "$data/big.res" crc-all-threads cksum
	row "$data/big.res" xxh3 xxhsum-H3
	row "$data/big.res" xxh128 xxhsum-H2
	row "$data/big.res" xxh64 xxhsum-H1
	row "$data/big.res" parts-md5 md5sum
	echo "| (page cache: ${folio:-as found} folios, FileHugePages" \
		"$(awk '/^FileHugePages/ { print $2, $3 }' /proc/meminfo) after the last run) |"
	prep=
fi

if [[ " $sets " == *" medium "* ]]; then
	d=$data/medium
	if [ ! -d "$d" ]; then
		mkdir -p "$d"
		for i in $(seq 0 4095); do head -c 131072 /dev/urandom >"$d/$i"; done
	fi
	cat "$d"/* >/dev/null
	race "m-xxh3|$fhsum -a xxh3 $d/*" "m-xxhsum-H3|xxhsum -H3 $d/*" \
		"m-crc|$fhsum -a crc $d/*" "m-cksum|cksum $d/*" >"$data/medium.res"
	row "$data/medium.res" m-xxh3 m-xxhsum-H3
	row "$data/medium.res" m-crc m-cksum
fi
