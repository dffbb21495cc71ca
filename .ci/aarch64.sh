#!/usr/bin/env bash
# AArch64 checks under qemu-user, on an already built cross build directory
# (meson setup --cross-file tests/cross/aarch64-linux-gnu.ini DIR; ninja -C DIR):
#
#   .ci/aarch64.sh [--full] DIR      (--full: also FHSUM_CI_FULL=1)
#
# Once per emulated CPU, QEMU_CPU=max (has the SHA3 and SHA512 extensions)
# and QEMU_CPU=cortex-a53 (has neither; both have SHA1, SHA2, PMULL and
# CRC32):
#   1. meson test (log meson-logs/qemu-CPU.json): under max every suite,
#      the CLI suites that hash or thread in their quick mode; under
#      cortex-a53 the kernels' unit tests (--suite kernels), the rest
#      giving the same results on any CPU; with --full every suite, every
#      CLI suite, under both;
#   2. the kernels fhsum picks by default (--debug: the "kernel NAME" lines
#      and the "multi-buffer kernel NAME" lines, and the PICKED column of
#      --list-kernels), against what that CPU should get: qemu's MIDR_EL1 is
#      not Apple's, so never keccak-sha3ce or keccak-sha3cex2;
#   3. every kernel forced: `test_kernels NAME` passes where the CPU runs the
#      kernel and exits 77 where it does not (read from step 1's log, where
#      meson ran it as the test "kernel NAME"); fhsum with FHSUM_KERNEL=NAME
#      prints the portable kernel's digests, or, where the CPU lacks the
#      kernel, fails with exit 1 and a message (not SIGILL); a forced
#      multi-buffer kernel is the one --debug names and hashes every input,
#      also with -j 2 (lanes refilled from several workers' inputs);
# Exit status 1 if anything failed; every failure is printed as FAIL.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

full=${FHSUM_CI_FULL:-0}
if [ "${1-}" = --full ]; then full=1; shift; fi
build=${1:?usage: .ci/aarch64.sh [--full] BUILD-DIR}
case $build in /*) ;; *) build=$PWD/$build ;; esac
sysroot=/usr/aarch64-linux-gnu
wrap=(qemu-aarch64 -L "$sysroot")
fhsum=$build/cmd/fhsum
test_kernels=$build/tests/unit/test_kernels
for f in "$fhsum" "$test_kernels"; do
	[ -x "$f" ] || { echo "aarch64.sh: $f not built" >&2; exit 1; }
done

cpus=(max cortex-a53)
# What meson test runs on each CPU (arguments; none: every suite).
declare -A suites=([max]="" [cortex-a53]="--suite kernels")
[ "$full" = 1 ] && suites[cortex-a53]=""
# The CLI suites that hash or thread (the others test options and lists,
# the same on any CPU; the full tier runs them all).
declare -A cli_only=([max]="engine gen_md5 gen_sha3 gen_k12 sha2_vectors"
	[cortex-a53]="")
[ "$full" = 1 ] && cli_only[max]=""
# What each CPU must pick by default, and which kernels it must and must
# not run: pinned so that a probe that loses a feature fails here instead
# of quietly turning tests into skips.
declare -A pick_md5=([max]=md5-gpr [cortex-a53]=md5-gpr)
declare -A pick_keccak=([max]=keccak-gpr [cortex-a53]=keccak-gpr)
declare -A pick_sha1=([max]=sha1-ce [cortex-a53]=sha1-ce)
declare -A pick_sha256=([max]=sha256-ce [cortex-a53]=sha256-ce)
declare -A pick_sha512=([max]=sha512-ce [cortex-a53]=sha512-portable)
# BLAKE2b's one stream stays scalar (blake2b-neon only when forced);
# its lanes and BLAKE3 have NEON on both.
declare -A pick_blake2b=([max]=blake2b-portable [cortex-a53]=blake2b-portable)
declare -A pick_blake2b_multi=([max]=blake2b-neonx2 [cortex-a53]=blake2b-neonx2)
declare -A pick_blake3=([max]=blake3-neon [cortex-a53]=blake3-neon)
declare -A pick_blake3_multi=([max]=blake3-neonx4 [cortex-a53]=blake3-neonx4)
# The checksums: both CPUs have PMULL and CRC32, so crc-armv8 (crc32b and
# crc32c by CRC32X, the other CRCs by PMULL's folding); XXH3 on NEON; the
# sums stay portable.
declare -A pick_crc=([max]=crc-armv8 [cortex-a53]=crc-armv8)
declare -A pick_sum=([max]=sum-portable [cortex-a53]=sum-portable)
declare -A pick_xxh=([max]=xxh-neon [cortex-a53]=xxh-neon)
# SM3 has its portable kernel alone.
declare -A pick_sm3=([max]=sm3-portable [cortex-a53]=sm3-portable)
declare -A pick_md5_multi=([max]=md5-neonx4 [cortex-a53]=md5-neonx4)
declare -A pick_keccak_multi=([max]=keccak-neonx2 [cortex-a53]=keccak-neonx2)
# Both have the SHA1 and SHA2 instructions, PMULL and CRC32; only max has
# SHA512.
declare -A must_run=(
	[max]="md5-gpr keccak-gpr keccak-sha3ce md5-neonx4 keccak-neonx2 keccak-sha3cex2
		sha1-ce sha256-ce sha512-ce blake3-neon blake3-neonx4
		blake2b-neon blake2b-neonx2 crc-pmull crc-armv8 xxh-neon"
	[cortex-a53]="md5-gpr keccak-gpr md5-neonx4 keccak-neonx2 sha1-ce sha256-ce
		blake3-neon blake3-neonx4 blake2b-neon blake2b-neonx2 crc-pmull
		crc-armv8 xxh-neon")
declare -A must_not_run=([max]=""
	[cortex-a53]="keccak-sha3ce keccak-sha3cex2 sha512-ce")

failed=0
fail() { printf 'FAIL %s\n' "$*"; failed=1; }
ok() { printf 'ok   %s\n' "$*"; }
step() { printf '\n=== %s (%ss)\n' "$*" "$SECONDS"; }
in_words() { [[ " $2 " == *" $1 "* ]]; }

# Inputs around the block sizes: MD5's 64 and every sponge rate (72 to 168).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fh-aarch64.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
inputs=()
for n in 0 1 55 56 63 64 65 71 72 73 103 104 105 135 136 137 143 144 145 \
	167 168 169 1000 4096 100003; do
	yes 'fhsum aarch64 ci' | head -c "$n" >"$tmp/in$n" || true
	inputs+=("$tmp/in$n")
done

fh() { "${wrap[@]}" "$fhsum" "$@"; }
# The algorithms of each kernel family, and GNU's program for those it has,
# from fhsum's own table (--list-algorithms; the groups -l sizes left out),
# so that a new algorithm needs no line here.
declare -A family_algos=() gnu_prog=()
while read -r name fam prog gnu; do
	family_algos[$fam]=${family_algos[$fam]:+${family_algos[$fam]} }$name
	[ "$gnu" = "(GNU)" ] && gnu_prog[$name]=$prog
done < <(QEMU_CPU=max fh --list-algorithms |
	awk '!/^(ALGORITHM|#)/ && $3 != "-l" { print $1, $5, $6, $7 }')
((${#family_algos[@]})) || { echo "FAIL: fhsum --list-algorithms listed nothing"; exit 1; }
# The result meson's JSON log $log gives the test NAME (OK, SKIP, FAIL...),
# or nothing if it has no such test.
test_result() { # NAME
	[ -f "$log" ] || return 0
	python3 - "$log" "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t["name"] == sys.argv[2]:
        print(t["result"])
PY
}

for cpu in "${cpus[@]}"; do
	export QEMU_CPU=$cpu
	unset FHSUM_KERNEL

	step "QEMU_CPU=$cpu: meson test ${suites[$cpu]:-(every suite)}"
	# The CLI suites run the binary through the cross file's cli_wrapper;
	# FHSUM_QUICK trims their option tables for emulation's sake.  Each
	# CPU's results go to their own log, meson-logs/qemu-CPU.json.
	log=$build/meson-logs/qemu-$cpu.json
	rm -f "$log"
	# shellcheck disable=SC2086
	if FHSUM_QUICK=1 FHSUM_CLI_ONLY="${cli_only[$cpu]}" \
		meson test -C "$build" --print-errorlogs --no-rebuild \
		--timeout-multiplier 4 --logbase "qemu-$cpu" ${suites[$cpu]}; then
		ok "meson test ${suites[$cpu]}"
	else
		fail "meson test ${suites[$cpu]} on $cpu"
	fi

	step "QEMU_CPU=$cpu: default kernels"
	debug=$(fh --debug -a md5 /dev/null 2>&1 >/dev/null)
	picked=$(sed -n 's/^[^:]*: kernel //p' <<<"$debug" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "${pick_md5[$cpu]}" "${pick_keccak[$cpu]}" \
		"${pick_sha1[$cpu]}" "${pick_sha256[$cpu]}" "${pick_sha512[$cpu]}" \
		"${pick_blake2b[$cpu]}" "${pick_blake3[$cpu]}" \
		"${pick_crc[$cpu]}" "${pick_sum[$cpu]}" "${pick_xxh[$cpu]}" \
		"${pick_sm3[$cpu]}" |
		sort | tr '\n' ' ')
	if [ "$picked" = "$want" ]; then
		ok "picked: $picked"
	else
		fail "$cpu picked '$picked', expected '$want'"
	fi
	picked_multi=$(sed -n 's/^[^:]*: multi-buffer kernel //p' <<<"$debug" |
		sort | tr '\n' ' ')
	want_multi=$(printf '%s\n' "${pick_md5_multi[$cpu]}" \
		"${pick_keccak_multi[$cpu]}" "${pick_blake3_multi[$cpu]}" \
		"${pick_blake2b_multi[$cpu]}" |
		sort | tr '\n' ' ')
	if [ "$picked_multi" = "$want_multi" ]; then
		ok "picked multi-buffer: $picked_multi"
	else
		fail "$cpu picked multi-buffer '$picked_multi', expected '$want_multi'"
	fi
	# --list-kernels marks the same kernels in its PICKED column.
	starred=$(fh --list-kernels | awk 'NR > 1 && $5 == "*" { print $1 }' |
		sort | tr '\n' ' ')
	want_all=$(printf '%s\n' $want $want_multi | sort | tr '\n' ' ')
	if [ "$starred" = "$want_all" ]; then
		ok "--list-kernels PICKED: $starred"
	else
		fail "$cpu: --list-kernels PICKED '$starred', expected '$want_all'"
	fi

	step "QEMU_CPU=$cpu: every kernel forced"
	# NAME FAMILY LANES usable|unsupported, from the command's own listing.
	listing=$(fh --list-kernels | awk 'NR > 1 && $1 !~ /^#/ { print $1, $2, $3, $4 }')
	[ -n "$listing" ] || fail "$cpu: --list-kernels listed nothing"
	for k in ${must_run[$cpu]} ${must_not_run[$cpu]}; do
		grep -q "^$k " <<<"$listing" || fail "$cpu: kernel $k not built"
	done
	declare -A ref=()
	for fam in "${!family_algos[@]}"; do
		for algo in ${family_algos[$fam]}; do
			ref[$algo]=$(FHSUM_KERNEL=$fam-portable fh -a "$algo" "${inputs[@]}")
		done
	done
	for algo in "${!gnu_prog[@]}"; do
		if command -v "${gnu_prog[$algo]}" >/dev/null &&
			[ "${ref[$algo]}" != "$("${gnu_prog[$algo]}" "${inputs[@]}")" ]; then
			fail "$cpu: -a $algo on the portable kernel under qemu disagrees with GNU ${gnu_prog[$algo]}"
		fi
	done
	while read -r name fam lanes usable; do
		if in_words "$name" "${must_run[$cpu]}" && [ "$usable" != usable ]; then
			fail "$cpu: $name should be usable, --list-kernels says $usable"
		fi
		if in_words "$name" "${must_not_run[$cpu]}" && [ "$usable" = usable ]; then
			fail "$cpu: $name should not be usable, --list-kernels says usable"
		fi

		# meson ran test_kernels NAME above as "kernel NAME" (OK or
		# SKIP, exit 77); run it here only where it did not.
		case $(test_result "kernel $name") in
		OK) rc=0 ;;
		SKIP) rc=77 ;;
		'')
			rc=0
			"${wrap[@]}" "$test_kernels" "$name" >"$tmp/tk.log" 2>&1 || rc=$?
			;;
		*) rc=1; echo "meson test: kernel $name failed" >"$tmp/tk.log" ;;
		esac
		want_rc=0
		[ "$usable" = usable ] || want_rc=77
		if [ "$rc" = "$want_rc" ]; then
			ok "test_kernels $name: exit $rc"
		else
			fail "$cpu: test_kernels $name exited $rc, expected $want_rc"
			tail -n 20 "$tmp/tk.log"
		fi

		if [ "$usable" = usable ] && [ "$lanes" -gt 1 ]; then
			# The forced multi-buffer kernel is the one that runs.
			# Captured first: grep -q would stop reading at its match, and
			# the lines fhsum writes after it would fail the pipeline.
			debug=$(FHSUM_KERNEL=$name fh --debug -a "${family_algos[$fam]%% *}" \
				/dev/null 2>&1 >/dev/null) || true
			if grep -qx "[^:]*: multi-buffer kernel $name" <<<"$debug"; then
				ok "FHSUM_KERNEL=$name: --debug names it the multi-buffer kernel"
			else
				fail "$cpu: FHSUM_KERNEL=$name: --debug does not name it the multi-buffer kernel"
			fi
		fi
		for algo in ${family_algos[$fam]}; do
			rc=0
			FHSUM_KERNEL=$name fh -a "$algo" "${inputs[@]}" \
				>"$tmp/out" 2>"$tmp/err" || rc=$?
			if [ "$usable" = usable ]; then
				if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "${ref[$algo]}" ]; then
					ok "FHSUM_KERNEL=$name -a $algo: same digests as $fam-portable"
				else
					fail "$cpu: FHSUM_KERNEL=$name -a $algo: exit $rc or digests differ from $fam-portable"
				fi
				if [ "$lanes" -gt 1 ]; then
					rc=0
					FHSUM_KERNEL=$name fh -j 2 -a "$algo" "${inputs[@]}" \
						>"$tmp/out" 2>"$tmp/err" || rc=$?
					if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "${ref[$algo]}" ]; then
						ok "FHSUM_KERNEL=$name -j 2 -a $algo: same digests as $fam-portable"
					else
						fail "$cpu: FHSUM_KERNEL=$name -j 2 -a $algo: exit $rc or digests differ from $fam-portable"
					fi
				fi
			elif [ "$rc" = 1 ] && grep -q "cannot run on this CPU" "$tmp/err" &&
				[ ! -s "$tmp/out" ]; then
				ok "FHSUM_KERNEL=$name -a $algo: refused: $(cat "$tmp/err")"
			else
				fail "$cpu: FHSUM_KERNEL=$name -a $algo on a CPU without it: exit $rc (want 1 and a message): $(cat "$tmp/err")"
			fi
		done
	done <<<"$listing"
	unset ref

done

step "AArch64: $([ "$failed" = 0 ] && echo 'all passed' || echo FAILED)"
exit "$failed"
