#!/usr/bin/env bash
# Benchmarks fhsum's BLAKE2b (-a blake2b, 512-bit digests) against GNU
# b2sum and `openssl dgst -blake2b512`, on cached data:
#
#   big     one 1 GiB file: fhsum -j1 (one thread, one stream), openssl,
#           b2sum
#   medium  4,096 files of 128 KiB: fhsum on all threads (many files in
#           the multi-buffer lanes) and -j1, against b2sum over them all
#
#   tests/bench/blake2b.sh [-r ROUNDS] [-d DATADIR] [SET...]
#
# Every round runs each command once, in turn, so that machine noise falls
# on all of them alike; a table gives each command's median wall time and
# the median of its per-round ratio to the first row.  The CPU (as
# `fhsum --debug` names it), the kernels fhsum picked, and the page
# cache's huge folios (FileHugePages in /proc/meminfo: about 1 GiB when
# the big file is held in 2 MiB folios, about 0 when in 4 KiB ones; a
# mapped file costs the hashing thread per page) are printed beside the
# figures.  The digests of every command are compared first.
set -euo pipefail

rounds=7 data=${TMPDIR:-/tmp}/fhsum-bench
while getopts r:d: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	d) data=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sets=("$@")
((${#sets[@]})) || sets=(big medium)

here=$(cd "$(dirname "$0")/../.." && pwd)
fhsum=${FHSUM:-$here/build/cmd/fhsum}
[ -x "$fhsum" ] || { echo "blake2b.sh: build fhsum first ($fhsum)" >&2; exit 1; }
have() { command -v "$1" >/dev/null; }
have b2sum || { echo "blake2b.sh: GNU b2sum missing" >&2; exit 1; }

mkdir -p "$data"
make_big() {
	[ -f "$data/big" ] && [ "$(stat -c %s "$data/big")" = 1073741824 ] && return
	head -c 1073741824 /dev/urandom >"$data/big"
}
make_medium() {
	local dir=$data/medium
	[ -f "$dir/list" ] && [ "$(wc -l <"$dir/list")" = 4096 ] && return
	mkdir -p "$dir"
	: >"$dir/list"
	for i in $(seq -w 0 4095); do
		head -c 131072 /dev/urandom >"$dir/f$i"
		echo "f$i" >>"$dir/list"
	done
}

now() { date +%s.%N; }
# run_set NAME CMD...: each round runs every CMD (a shell string) once.
run_set() {
	local name=$1
	shift
	local cmds=("$@") n=$#
	local -a times=()
	for ((r = 0; r < rounds; r++)); do
		for ((c = 0; c < n; c++)); do
			local t0 t1
			t0=$(now)
			bash -c "${cmds[c]}" >/dev/null
			t1=$(now)
			times+=("$r $c $(echo "$t1 - $t0" | bc -l)")
		done
	done
	echo
	echo "### $name ($rounds rounds, alternating)"
	echo
	printf '%s\n' "${times[@]}" | awk -v n="$n" -v cmds="$(printf '%s\n' "${cmds[@]}")" '
	function median(a, k,   i, j, t) {
		for (i = 1; i <= k; i++)
			for (j = i + 1; j <= k; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	BEGIN { split(cmds, name, "\n") }
	{ t[$1, $2] = $3; if ($1 + 1 > rounds) rounds = $1 + 1 }
	END {
		print "| command | median s | median ratio to row 1 |"
		print "|---|---:|---:|"
		for (c = 0; c < n; c++) {
			for (r = 0; r < rounds; r++) { s[r + 1] = t[r, c]; q[r + 1] = t[r, c] / t[r, 0] }
			printf "| `%s` | %.3f | %.2fx |\n", name[c + 1], median(s, rounds), median(q, rounds)
		}
	}'
}

echo "## BLAKE2b: fhsum against b2sum and openssl"
echo
"$fhsum" --debug -a blake2b /dev/null 2>&1 >/dev/null |
	grep -E '^fhsum: (CPU|kernel blake2b|multi-buffer kernel blake2b)' |
	sed 's/^fhsum: /- /'
echo "- $(nproc) CPUs; $("$fhsum" --version | head -1); $(b2sum --version | head -1);" \
	"$(have openssl && openssl version || echo 'no openssl')"

for set in "${sets[@]}"; do
	case $set in
	big)
		make_big
		cat "$data/big" >/dev/null
		want=$(b2sum "$data/big" | cut -d' ' -f1)
		[ "$("$fhsum" -a blake2b -j1 "$data/big" | cut -d' ' -f1)" = "$want" ] ||
			{ echo "blake2b.sh: fhsum's digest of big differs from b2sum's" >&2; exit 1; }
		cmds=("$fhsum -a blake2b -j1 '$data/big'")
		if have openssl; then
			got=$(openssl dgst -blake2b512 -r "$data/big" | cut -d' ' -f1)
			[ "$got" = "$want" ] ||
				{ echo "blake2b.sh: openssl's digest differs" >&2; exit 1; }
			cmds+=("openssl dgst -blake2b512 '$data/big'")
		fi
		cmds+=("b2sum '$data/big'")
		echo "- big: $(grep FileHugePages /proc/meminfo | tr -s ' ') before the runs"
		run_set "one cached 1 GiB file" "${cmds[@]}"
		echo
		echo "- big: $(grep FileHugePages /proc/meminfo | tr -s ' ') after the runs"
		;;
	medium)
		make_medium
		dir=$data/medium
		(cd "$dir" && xargs -a list cat >/dev/null)
		(cd "$dir" && "$fhsum" -a blake2b --files-from=list) >"$data/fh.out"
		(cd "$dir" && xargs -a list b2sum) | cmp -s - "$data/fh.out" ||
			{ echo "blake2b.sh: fhsum's lines for medium differ from b2sum's" >&2; exit 1; }
		run_set "4,096 cached files of 128 KiB" \
			"cd '$dir' && $fhsum -a blake2b --files-from=list" \
			"cd '$dir' && $fhsum -a blake2b -j1 --files-from=list" \
			"cd '$dir' && xargs -a list b2sum"
		;;
	*) echo "blake2b.sh: no set $set" >&2; exit 2 ;;
	esac
done
