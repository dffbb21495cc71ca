#!/usr/bin/env bash
# Benchmarks fhsum against GNU md5sum (sha1sum..sha512sum with -a sha*),
# `xargs -P md5sum`, openssl dgst, rhash and b3sum (b3sum hashes BLAKE3: a
# speed reference only) on data
# sets it makes itself and on the installed system, side by side: every
# round runs each command once, in turn, so machine noise falls on all of
# them alike.  Prints Markdown tables of median wall time, ratio to fhsum,
# ratio to the read ceiling and peak RSS.
#
#   tests/bench/bench.sh [-c] [-F small|huge] [-r ROUNDS] [-d DATADIR]
#                        [-a ALGO] [-B LABEL=FHSUM]... [SET...]
#
# SETs: big (one 1 GiB file), medium (4096 x 128 KiB), small (100,000 x
# 1 KiB), sparse (a 16 GiB sparse file), names (1,000,000 names through
# --files0-from), startup (/dev/null), dpkg (every /var/lib/dpkg/info/
# *.md5sums checked from /, as `md5sum -c` would: the installed system,
# MD5 whatever -a says), pipe (the big file through a pipe, `cat big |`,
# as a download or an archive's output arrives; beside the programs,
# `cat big | cat`, bytes through a pipe of the default size and
# nothing hashed), device (the big file as a block device: a loop device
# over it, held open by the script so that its page cache stays, as a
# mounted or otherwise opened device's does; needs root and losetup;
# beside the programs, `cat DEVICE`).  Default: all but dpkg, pipe and
# device.
#
# -B adds, beside each fhsum row of the default options, the same command
# run by another fhsum binary, labelled LABEL: another build of this tree
# (-Dos_layer=posix, a static musl binary), measured in the same rounds.
#
# Warm (the default): files are read once before timing, so the data is
# in the page cache.  Cold (-c): the page cache is dropped (sync; echo 3 >
# /proc/sys/vm/drop_caches) before every run of every command; this needs
# root, and the script says it skipped when it cannot.
#
# -F puts the big file, before every run of every command, in one state
# of the page cache: huge (in 2 MiB folios: the cache dropped, memory
# compacted, the file read in order; needs root) or small (in 4 KiB
# folios: the file dropped, then read in 4 KiB pieces in random order by
# tests/bench/smallfolios.c).
# A mapped file costs the hashing thread per page, so every figure of one
# large file is given in both states; each run finds pages never mapped
# yet, as a file just written or downloaded has them.
#
# Each row gives the median wall time and the median CPU time (user +
# system, of every thread).
#
# The read ceiling: readceil (tests/bench/readceil.c) reads every file of
# the set whole with 32 and with 128 threads and hashes nothing; the
# "ceiling" column is each command's time over the faster of the two.
set -euo pipefail

rounds=5 data=${TMPDIR:-/tmp}/fhsum-bench algo=md5 cold=0 folio= prep=
alts=()
while getopts cF:r:d:a:B: opt; do
	case $opt in
	c) cold=1 ;;
	F) [[ $OPTARG == small || $OPTARG == huge ]] ||
		{ echo "bench: -F small or -F huge" >&2; exit 2; }
	   folio=$OPTARG ;;
	r) rounds=$OPTARG ;;
	d) data=$OPTARG ;;
	a) algo=$OPTARG ;;
	B) [[ $OPTARG == ?*=?* ]] || { echo "bench: -B LABEL=FHSUM" >&2; exit 2; }
	   alts+=("$OPTARG") ;;
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

if ((cold)); then
	if [ "$(id -u)" != 0 ] || ! { sync && echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
		echo "bench: cold mode skipped: dropping the page cache needs root" \
			"and a writable /proc/sys/vm/drop_caches"
		exit 0
	fi
fi

if [ "$folio" = huge ]; then
	if [ "$(id -u)" != 0 ] || ! { sync && echo 3 >/proc/sys/vm/drop_caches &&
		echo 1 >/proc/sys/vm/compact_memory; } 2>/dev/null; then
		echo "bench: -F huge skipped: dropping the page cache and compacting" \
			"memory need root"
		exit 0
	fi
fi
[ -n "$folio" ] && ((cold)) && { echo "bench: -F and -c exclude each other" >&2; exit 2; }

# set_folio STATE FILE: puts FILE in the page cache in STATE (see -F).
. "$here/tests/bench/common.sh"

readceil=$data/readceil smallfolios=$data/smallfolios
for tool in readceil smallfolios; do
	if [ ! -x "$data/$tool" ] || [ "$here/tests/bench/$tool.c" -nt "$data/$tool" ]; then
		cc -O2 -pthread "$here/tests/bench/$tool.c" -o "$data/$tool"
	fi
done

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
	big | pipe | device) [ -f "$data/big" ] || head -c $((1 << 30)) /dev/urandom >"$data/big" ;;
	medium) make_files "$data/medium" 4096 131072 ;;
	small | names) make_files "$data/small" 100000 1024 ;;
	sparse) [ -f "$data/sparse" ] || truncate -s 16G "$data/sparse" ;;
	dpkg)
		# The lists as dpkg wrote them (names relative to /), and the
		# files they name, for the ceiling.
		cat /var/lib/dpkg/info/*.md5sums >"$data/dpkg.sums"
		sed 's|^[0-9a-f]*  |/|' "$data/dpkg.sums" >"$data/dpkg.list"
		;;
	esac
	if [ "$1" = names ] && [ ! -f "$data/names0" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$data/small/list0"; done >"$data/names0"
	fi
}

# run NAME COMMAND...: one timed run; appends "NAME seconds kib" to $log.
# Exit status 1 is allowed (md5sum -c over an installed system finds
# changed configuration files); anything else stops the benchmark.
# Wall time from the shell's clock in microseconds (GNU time's %e has only
# hundredths), CPU time (user + system) and peak RSS from GNU time.
run() {
	local name=$1 rc=0 t0 t1
	shift
	((cold)) && sync && echo 3 >/proc/sys/vm/drop_caches
	[ -n "$prep" ] && $prep
	t0=${EPOCHREALTIME/[.,]/}
	/usr/bin/time -f '%U %S %M' -o "$data/time.out" bash -c "$*" >/dev/null 2>"$data/err.out" || rc=$?
	t1=${EPOCHREALTIME/[.,]/}
	if ((rc > 1)); then
		echo "bench: '$*' failed (exit $rc):" >&2
		head -5 "$data/err.out" >&2
		exit 1
	fi
	printf '%s %d.%06d %s\n' "$name" $(((t1 - t0) / 1000000)) $(((t1 - t0) % 1000000)) \
		"$(tail -1 "$data/time.out")" >>"$log"
}

# kt_family: whether ALGO is KT or TurboSHAKE, which openssl and rhash
# do not know.
kt_family() { case $algo in kt* | turboshake*) return 0 ;; esac; return 1; }
# Whether openssl or rhash, where installed, knows ALGO (openssl 3 has no
# BLAKE3, rhash before 1.4.6 neither): a row that fails stops the run.
ossl_knows() { have openssl && openssl dgst -"$algo" </dev/null >/dev/null 2>&1; }
rhash_knows() { have rhash && rhash --"$algo" /dev/null >/dev/null 2>&1; }
# The GNU program of the algorithm, where coreutils has one.
gnu=
case $algo in md5 | sha1 | sha224 | sha256 | sha384 | sha512) gnu=${algo}sum ;; esac

# warm_up: reads the set's files once, so that a warm run finds them cached.
warm_up() { ((cold)) || "$@" >/dev/null 2>&1 || true; }

# bench SET: runs the set's commands ROUNDS times, alternating.
bench() {
	local set=$1 dir n
	local -a names=() cmds=()
	prep=
	add() { names+=("$1"); cmds+=("$2"); }
	# add_fh NAME COMMAND: a row of this fhsum, and one per -B binary.
	add_fh() {
		local alt
		add "$1" "$2"
		for alt in "${alts[@]}"; do
			add "${1/fhsum/fhsum (${alt%%=*})}" "${2//"$fhsum"/${alt#*=}}"
		done
	}
	ceiling() { # LIST DIR: the two readceil rows
		add "read ceiling, 32 threads" "cd '$2' && '$readceil' 32 '$1'"
		add "read ceiling, 128 threads" "cd '$2' && '$readceil' 128 '$1'"
	}
	case $set in
	big)
		add_fh "fhsum -a $algo" "$fhsum -a $algo '$data/big'"
		add "fhsum -a $algo --no-mmap" "$fhsum -a $algo --no-mmap '$data/big'"
		[ -n "$gnu" ] && add "$gnu" "$gnu '$data/big'"
		if kt_family; then
			# One file on every core: the scaling, and the SHA-3
			# it stands in for.
			add "fhsum -a $algo -j1" "$fhsum -a $algo -j1 '$data/big'"
			add "fhsum -a $algo --no-mmap -j1" "$fhsum -a $algo --no-mmap -j1 '$data/big'"
			have taskset && add "fhsum -a $algo -j1, one core" \
				"taskset -c 0 $fhsum -a $algo -j1 '$data/big'"
			add "fhsum -a sha3-256" "$fhsum -a sha3-256 '$data/big'"
		else
			add "fhsum -a $algo -j1" "$fhsum -a $algo -j1 '$data/big'"
			ossl_knows && add "openssl dgst -$algo" "openssl dgst -$algo '$data/big'"
			rhash_knows && add "rhash --$algo" "rhash --$algo '$data/big'"
		fi
		have b3sum && add "b3sum (BLAKE3)" "b3sum '$data/big'"
		echo "$data/big" >"$data/big.list"
		ceiling "$data/big.list" /
		warm_up cat "$data/big"
		[ -n "$folio" ] && prep="set_folio $folio $data/big"
		;;
	medium | small)
		dir=$data/$set
		add_fh "fhsum -a $algo" "cd '$dir' && $fhsum -a $algo --files-from=list"
		add "fhsum -a $algo -j1" "cd '$dir' && $fhsum -a $algo -j1 --files-from=list"
		if [ -n "$gnu" ]; then
			add "$gnu" "cd '$dir' && xargs -a list $gnu"
			add "xargs -P$ncpu $gnu" "cd '$dir' && xargs -a list -P$ncpu -n 512 $gnu"
			((cold)) && add "xargs -P16 -n64 $gnu" "cd '$dir' && xargs -a list -P16 -n64 $gnu"
		fi
		if ! kt_family; then
			ossl_knows && add "openssl dgst -$algo" "cd '$dir' && xargs -a list openssl dgst -$algo"
			rhash_knows && add "rhash --$algo" "cd '$dir' && xargs -a list rhash --$algo"
		fi
		have b3sum && add "b3sum (BLAKE3)" "cd '$dir' && xargs -a list b3sum"
		ceiling list "$dir"
		warm_up bash -c "cd '$dir' && xargs -a list cat"
		;;
	dpkg)
		[ -d /var/lib/dpkg/info ] || { echo "bench: dpkg skipped: no /var/lib/dpkg/info"; return; }
		add_fh "fhsum -c --quiet" "cd / && $fhsum -a md5 -c --quiet '$data/dpkg.sums'"
		add "md5sum -c --quiet" "cd / && md5sum -c --quiet '$data/dpkg.sums'"
		ceiling "$data/dpkg.list" /
		warm_up "$readceil" 32 "$data/dpkg.list"
		;;
	pipe)
		add_fh "cat big | fhsum -a $algo" "cat '$data/big' | $fhsum -a $algo"
		[ -n "$gnu" ] && add "cat big | $gnu" "cat '$data/big' | $gnu"
		have b3sum && add "cat big | b3sum (BLAKE3)" "cat '$data/big' | b3sum"
		add "cat big | cat" "cat '$data/big' | cat"
		warm_up cat "$data/big"
		;;
	device)
		if [ "$(id -u)" != 0 ] || ! have losetup ||
			! dev=$(losetup -f --show "$data/big" 2>/dev/null); then
			echo "bench: device skipped: a loop device needs root and losetup"
			return
		fi
		# Detached when the script ends; the holder keeps its cache
		# (a device's page cache is dropped at its last close).
		trap 'losetup -d "$dev"' EXIT
		exec {holder}<"$dev"
		add_fh "fhsum -a $algo" "$fhsum -a $algo $dev"
		add "fhsum -a $algo -j1" "$fhsum -a $algo -j1 $dev"
		[ -n "$gnu" ] && add "$gnu" "$gnu $dev"
		if [ "$algo" = blake3 ] && have b3sum; then
			add "b3sum" "b3sum $dev"
			add "b3sum --num-threads 1" "b3sum --num-threads 1 $dev"
		fi
		[ "$algo" = crc ] && add "cksum" "cksum $dev"
		add "cat DEVICE" "cat $dev"
		warm_up cat "$dev"
		;;
	sparse)
		add_fh "fhsum -a $algo" "$fhsum -a $algo '$data/sparse'"
		[ -n "$gnu" ] && add "$gnu" "$gnu '$data/sparse'"
		;;
	names)
		add_fh "fhsum -a $algo --files0-from" "cd '$data/small' && $fhsum -a $algo --files0-from='$data/names0'"
		;;
	startup)
		add_fh "fhsum -a $algo /dev/null" "$fhsum -a $algo /dev/null"
		[ -n "$gnu" ] && add "$gnu /dev/null" "$gnu /dev/null"
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
	printf '\n### %s (%s%s, %s rounds%s)\n\n' "$set" "$( ((cold)) && echo cold || echo warm)" \
		"${prep:+, $folio folios: FileHugePages $(awk '/^FileHugePages/ { print $2, $3 }' /proc/meminfo) after the last run}" \
		"$rounds" "$( ((reps > 1)) && echo ", $reps runs per timing")"
	echo "| command | median s | ratio to fhsum | to the read ceiling | CPU s | peak RSS MiB |"
	echo "|---|---:|---:|---:|---:|---:|"
	python3 - "$log" "${names[0]}" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    *name, secs, user, system, kib = line.split()
    rows.setdefault(" ".join(name), []).append(
        (float(secs), int(kib), float(user) + float(system)))
med = {name: statistics.median(r[0] for r in runs) for name, runs in rows.items()}
ref = med[sys.argv[2]]
ceils = [m for name, m in med.items() if name.startswith("read ceiling")]
ceil = min(ceils) if ceils else None
for name, runs in rows.items():
    rss = max(r[1] for r in runs) / 1024
    cpu = statistics.median(r[2] for r in runs)
    ratio = med[name] / ref if ref > 0 else float("nan")
    to_ceil = "%.2fx" % (med[name] / ceil) if ceil else ""
    print(f"| {name} | {med[name]:.4f} | {ratio:.2f}x | {to_ceil} | {cpu:.2f} | {rss:.1f} |")
PY
}

echo "fhsum benchmark: $(date -u +%Y-%m-%d), $ncpu CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), algorithm $algo, $( ((cold)) && echo 'cold cache' || echo 'warm cache')"
echo "fhsum kernels: $("$fhsum" --debug -a "$algo" /dev/null 2>&1 >/dev/null | sed -n 's/.*kernel //p' | tr '\n' ' ')"
echo "fhsum CPU: $("$fhsum" --debug -a "$algo" /dev/null 2>&1 >/dev/null | sed -n 's/.*: CPU //p')"
for set in "${sets[@]}"; do
	prepare "$set"
	bench "$set"
done
