#!/usr/bin/env bash
# x86-64 kernel dispatch under qemu-user, on an already built native build
# directory (meson setup DIR; ninja -C DIR):
#
#   .ci/x86-dispatch.sh DIR          the checks and the unit tests below
#   .ci/x86-dispatch.sh --quick DIR  the checks alone
#   .ci/x86-dispatch.sh --full DIR   the checks and the whole unit suite on
#                                    every CPU (also FHSUM_CI_FULL=1)
#
# For each emulated CPU, qemu 7.2's `-cpu max` (AVX2, BMI1/2, no AVX-512),
# `-cpu max,-bmi1,-bmi2` (AVX2 alone) and `-cpu qemu64` (none of them):
#   1. the kernels --list-kernels calls usable, against what that CPU has
#      (pinned, so a probe that loses a feature fails here instead of
#      quietly turning kernel tests into skips);
#   2. the kernels fhsum picks by default: --debug's "fhsum: kernel NAME"
#      lines, one per family, and its "fhsum: multi-buffer kernel NAME"
#      lines, one per family that has a multi-buffer kernel this CPU runs;
#   3. every kernel forced with FHSUM_KERNEL: the portable kernel's digests
#      where the CPU runs it, else exit 1 with a message (never SIGILL); on
#      one long input and a dozen short ones, so that a multi-buffer kernel
#      runs with lanes of unequal lengths and refills;
#   4. unit tests with qemu as the wrapper: the kernels' own (meson test
#      --suite kernels) under `-cpu max`, where a host without AVX2 or BMI
#      runs those kernels at all, and the rest of the unit suite, which
#      does not depend on the CPU, under `-cpu qemu64`; with --full the
#      whole unit suite under every CPU.  Logs: DIR/meson-logs/
#      x86-qemu-CPU.json (commas in CPU as underscores).
# Exit status 1 if anything failed; every failure is printed as FAIL.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

quick=0
full=${FHSUM_CI_FULL:-0}
case ${1-} in
--quick) quick=1; shift ;;
--full) full=1; shift ;;
esac
build=${1:?usage: .ci/x86-dispatch.sh [--quick|--full] BUILD-DIR}
case $build in /*) ;; *) build=$PWD/$build ;; esac
fhsum=$build/cmd/fhsum
[ -x "$fhsum" ] || { echo "x86-dispatch.sh: $fhsum not built" >&2; exit 1; }
command -v qemu-x86_64 >/dev/null ||
	{ echo "x86-dispatch.sh: qemu-x86_64 missing (apt-get install qemu-user)" >&2; exit 1; }

cpus=(max max,-bmi1,-bmi2 qemu64)
# The unit tests each CPU runs (meson test arguments), without --full.
declare -A unit_tests=(
	[max]="--suite kernels"
	[max,-bmi1,-bmi2]=""
	[qemu64]="--suite unit --no-suite kernels")
# Per family (md5, keccak, sha1, sha256, sha512, blake2b, blake3, crc,
# sum, xxh).  qemu 7.2 has PCLMULQDQ and SSE4.2 but not VPCLMULQDQ, so
# crc-sse42 comes before crc-pclmul there; qemu64 has neither.  qemu
# 7.2 has neither AVX-512 nor the SHA extensions: the SHA-NI kernels are a
# CPU without them here, and sha512-avx2 needs BMI2 beside AVX2; qemu64
# has no SSE4.1, which every BLAKE3 SIMD kernel needs.
declare -A pick=(
	[max]="md5-bmi keccak-bmi2 sha1-portable sha256-portable sha512-avx2 blake2b-avx2 blake3-avx2 crc-sse42 sum-portable xxh-avx2 sm3-portable"
	[max,-bmi1,-bmi2]="md5-portable keccak-avx2 sha1-portable sha256-portable sha512-portable blake2b-avx2 blake3-avx2 crc-sse42 sum-portable xxh-avx2 sm3-portable"
	[qemu64]="md5-portable keccak-portable sha1-portable sha256-portable sha512-portable blake2b-portable blake3-portable crc-portable sum-portable xxh-portable sm3-portable")
# The multi-buffer kernels picked; none without AVX2 but BLAKE3's
# SSE4.1 one, and qemu64 has no SSE4.1.
declare -A pick_multi=(
	[max]="md5-avx2x16 keccak-avx2x4 sha1-avx2x8 sha256-avx2x8 sha512-avx2x4 blake2b-avx2x4 blake3-avx2x8"
	[max,-bmi1,-bmi2]="md5-avx2x16 keccak-avx2x4 sha1-avx2x8 sha256-avx2x8 sha512-avx2x4 blake2b-avx2x4 blake3-avx2x8"
	[qemu64]="")
# The x86 kernels each CPU must and must not run.
declare -A usable=(
	[max]="md5-bmi keccak-bmi2 keccak-avx2 md5-avx2x8 md5-avx2x16 keccak-avx2x4 sha512-avx2 sha1-avx2x8 sha256-avx2x8 sha512-avx2x4 blake2b-avx2 blake2b-avx2x4 blake3-sse41 blake3-avx2 blake3-sse41x4 blake3-avx2x8 crc-pclmul crc-sse42 xxh-avx2"
	[max,-bmi1,-bmi2]="keccak-avx2 md5-avx2x8 md5-avx2x16 keccak-avx2x4 sha1-avx2x8 sha256-avx2x8 sha512-avx2x4 blake2b-avx2 blake2b-avx2x4 blake3-sse41 blake3-avx2 blake3-sse41x4 blake3-avx2x8 crc-pclmul crc-sse42 xxh-avx2"
	[qemu64]="")
x86_kernels="md5-bmi md5-avx512 keccak-bmi2 keccak-avx2 keccak-avx512
	md5-avx2x8 md5-avx2x16 md5-avx512x16 md5-avx512x32 keccak-avx2x4
	keccak-avx512x8 sha1-shani sha256-shani sha512-avx2 sha1-shanix2
	sha256-shanix2 sha1-avx2x8 sha256-avx2x8 sha512-avx2x4 sha1-avx512x16
	sha256-avx512x16 sha512-avx512x8 blake2b-avx2 blake2b-avx512
	blake2b-avx2x4 blake2b-avx512x8 blake3-sse41 blake3-avx2 blake3-avx512
	blake3-sse41x4 blake3-avx2x8 blake3-avx512x16 crc-pclmul crc-vpclmul
	crc-sse42 crc-avx512 xxh-avx2 xxh-avx512"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# 100003 bytes: many blocks at every rate plus a partial one; then inputs
# around the block sizes, for the multi-buffer kernels' lanes.
head -c 100003 /dev/urandom >"$tmp/in"
ins=("$tmp/in")
for n in 0 1 63 64 65 71 72 135 136 137 168 1000 5000 20001; do
	head -c $n "$tmp/in" >"$tmp/in.$n"
	ins+=("$tmp/in.$n")
done
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# The algorithms and the portable kernels come from fhsum's own tables
# (--list-algorithms, --list-kernels), so that a new one needs no line
# here: every algorithm but the groups that -l sizes, GNU's program for
# those it has, and per family one algorithm of each block size (each
# rate of the sponge) and digest length for the forced kernels below.
algos=()
declare -A gnu_prog=() fam_algos=() fam_shapes=()
while read -r name bits block fam prog gnu; do
	algos+=("$name")
	[ "$gnu" = "(GNU)" ] && gnu_prog[$name]=$prog
	case " ${fam_shapes[$fam]-} " in
	*" $block/$bits "*) ;;
	*) fam_shapes[$fam]+=" $block/$bits" fam_algos[$fam]+=" $name" ;;
	esac
done < <("$fhsum" --list-algorithms |
	awk '!/^(ALGORITHM|#)/ && $3 != "-l" { print $1, $3, $4, $5, $6, $7 }')
portable=$("$fhsum" --list-kernels |
	awk '$1 ~ /-portable$/ { printf "%s%s", sep, $1; sep = "," }')
for a in "${algos[@]}"; do
	FHSUM_KERNEL=$portable "$fhsum" -a "$a" "${ins[@]}" >"$tmp/want.$a"
done
# The portable kernels against GNU's programs, as an oracle beside them.
for a in "${!gnu_prog[@]}"; do
	"${gnu_prog[$a]}" "${ins[@]}" | cmp -s - "$tmp/want.$a" ||
		fail "portable $a differs from ${gnu_prog[$a]}"
done

for cpu in "${cpus[@]}"; do
	q=(qemu-x86_64 -cpu "$cpu")
	echo "== qemu-x86_64 -cpu $cpu"

	list=$("${q[@]}" "$fhsum" --list-kernels)
	for k in $x86_kernels; do
		want=unsupported
		case " ${usable[$cpu]} " in *" $k "*) want=usable ;; esac
		got=$(awk -v k="$k" '$1 == k { print $4 }' <<<"$list")
		[ "$got" = "$want" ] ||
			fail "-cpu $cpu: --list-kernels says $k is '${got:-absent}', want $want"
	done

	"${q[@]}" "$fhsum" --debug -a md5 "$tmp/in" 2>"$tmp/debug" >/dev/null
	picked=$(sed -n 's/^fhsum: kernel //p' "$tmp/debug" | tr '\n' ' ')
	[ "$picked" = "${pick[$cpu]} " ] ||
		fail "-cpu $cpu: picked '$picked', want '${pick[$cpu]} '"
	picked_multi=$(sed -n 's/^fhsum: multi-buffer kernel //p' "$tmp/debug" |
		tr '\n' ' ')
	want_multi=${pick_multi[$cpu]}${pick_multi[$cpu]:+ }
	[ "$picked_multi" = "$want_multi" ] ||
		fail "-cpu $cpu: picked multi-buffer '$picked_multi', want '$want_multi'"
	picked_multi=${picked_multi% }
	echo "picked: ${picked% }; multi-buffer: ${picked_multi:-none}"

	for k in $x86_kernels; do
		fam=$(awk -v k="$k" '$1 == k { print $2 }' <<<"$list")
		read -r -a as <<<"${fam_algos[$fam]-}"
		((${#as[@]})) || fail "-cpu $cpu: kernel $k has no algorithm"
		for a in "${as[@]}"; do
			rc=0
			FHSUM_KERNEL=$k "${q[@]}" "$fhsum" -a "$a" "${ins[@]}" \
				>"$tmp/got" 2>"$tmp/err" || rc=$?
			case " ${usable[$cpu]} " in
			*" $k "*)
				[ $rc -eq 0 ] && cmp -s "$tmp/got" "$tmp/want.$a" ||
					fail "-cpu $cpu: $k $a: exit $rc or wrong digest"
				;;
			*)
				[ $rc -eq 1 ] && [ -s "$tmp/err" ] ||
					fail "-cpu $cpu: forced $k it cannot run: exit $rc, want 1 and a message"
				;;
			esac
		done
	done

	tests=${unit_tests[$cpu]}
	[ "$full" = 1 ] && tests="--suite unit"
	if [ $quick -eq 0 ] && [ -n "$tests" ]; then
		# shellcheck disable=SC2086
		meson test -C "$build" $tests --no-rebuild \
			--wrapper "qemu-x86_64 -cpu $cpu" --timeout-multiplier 4 \
			--logbase "x86-qemu-${cpu//,/_}" >"$tmp/log" 2>&1 || {
			tail -n 30 "$tmp/log"
			fail "-cpu $cpu: unit tests ($tests) under qemu"
		}
		printf '%s: ' "$tests"
		grep -E '^(Ok|Fail|Skipped):' "$tmp/log" | tr '\n' ' '
		echo
	fi
done

if [ $fails -ne 0 ]; then
	echo "x86-dispatch: $fails failed"
	exit 1
fi
echo "x86-dispatch: all passed"
