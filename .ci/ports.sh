#!/usr/bin/env bash
# fhsum on other systems and another libc, built on this Debian x86-64
# machine; called from .ci/run, or alone:
#
#   .ci/ports.sh [STEP...]        (default: every step, in this order)
#
#   zig       Zig 0.11.0 (.ci/zig.sh, pinned and checked); the steps that
#             need it put it and tests/cross/zig-cc.sh on PATH themselves;
#   mac-arm   macOS on Apple silicon (tests/cross/aarch64-macos.ini) and
#   mac-x86   macOS on Intel (tests/cross/x86_64-macos.ini): cross builds
#             with -Dwerror=true; `file` must call cmd/fhsum and
#             libfhsum.0.dylib Mach-O arm64 (x86_64); the dylib exports
#             every name of the public API (tests/install/exports.sh, with
#             llvm-nm; Zig's linker exports hidden names too, Apple's does
#             not).  Nothing runs: there is no macOS here;
#   musl      static x86-64 build with musl-gcc (musl 1.2.3): statically
#             linked, and every meson test, the CLI suites where the C
#             library shows with FHSUM_QUICK=1 (every one with
#             FHSUM_CI_FULL=1) (log build-musl/meson-logs/musl.json);
#   arm-musl  static AArch64 build with zig cc (tests/cross/
#             aarch64-linux-musl.ini), its unit suite under qemu-aarch64
#             with QEMU_CPU=max (the glibc AArch64 build runs the CLI
#             suites too); with FHSUM_CI_FULL=1 every meson test under
#             max and the unit suite with QEMU_CPU=cortex-a53, with
#             PORTS_FULL=1 every meson test under both (about 6 minutes
#             more) (logs build-arm-musl/meson-logs/qemu-musl-CPU.json).
#
# Each step's wall-clock and CPU seconds are printed ("--- STEP: ...") and
# a table of them at the end; the JSON logs for .ci/summary.py are listed
# on the last line ("logs: ...").  A failing step does not stop the others;
# the exit status is 1 if any failed.  Build directories: build-mac-arm,
# build-mac-x86, build-musl, build-arm-musl (removed first).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

all_steps=(zig mac-arm mac-x86 musl arm-musl)
steps=("$@")
((${#steps[@]})) || steps=("${all_steps[@]}")

results=()   # "STEP WALL CPU ok|FAILED" for the closing table
failed=0
# Each step runs in a subshell: the meson JSON logs it writes (for
# .ci/summary.py) are listed in this file.
logs_list=$(mktemp "${TMPDIR:-/tmp}/fh-ports.XXXXXX")
times_out=$(mktemp "${TMPDIR:-/tmp}/fh-ports.XXXXXX")
trap 'rm -f "$logs_list" "$times_out"' EXIT

say() { printf '%s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; return 1; }

# cpu_now: seconds of CPU used so far by this shell's finished children
# (times must run in this shell, not in a command substitution's).
child_cpu() {
	times >"$times_out"
	cpu_now=$(awk 'NR == 2 {
		n = split($0, t, /[ms ]+/); s = 0
		for (i = 1; i + 1 <= n; i += 2) if (t[i] != "") s += t[i] * 60 + t[i + 1]
		printf "%.0f", s }' "$times_out")
}

# Apt packages the steps need, installed where missing (as .ci/run does).
install_packages() {
	local pkgs=(meson ninja-build bats python3 file musl-tools qemu-user
		llvm-14 pkg-config strace) missing=() p
	for p in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	# npm may come with a nodejs from elsewhere; Debian's npm only if none.
	command -v npm >/dev/null || missing+=(npm)
	if ((${#missing[@]})); then
		apt-get update
		DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
	fi
}

llvm_nm() {
	local n
	for n in llvm-nm llvm-nm-14; do
		command -v "$n" && return 0
	done
	return 1
}

step_zig() {
	local dir
	dir=$(.ci/zig.sh)
	export PATH="$dir:$PWD/tests/cross:$PATH"
	say "zig $(zig version) in $dir"
}

# Cheap once installed: .ci/zig.sh only checks the version then.
need_zig() {
	step_zig >/dev/null
}

# Every target but the AVX-512 emulation's: that test library only runs
# where the tests do, and zig's clang 16 takes about 15 minutes of CPU
# over it (md5_avx512x32.c, md5_avx512x16.c: -O3, FH_AVX512_EMULATE).
mac_targets() { # BUILD-DIR
	meson introspect --targets "$1" | python3 -c '
import json, os, sys
build = sys.argv[1]
for t in json.load(sys.stdin):
    if "avx512_emu" in t["name"]:
        continue
    for f in t["filename"]:
        print(os.path.relpath(f, build))
' "$1"
}

step_mac() { # aarch64|x86_64
	local arch=$1 build want nm rc=0 f targets
	case $arch in
	aarch64) build=build-mac-arm want=arm64 ;;
	x86_64) build=build-mac-x86 want=x86_64 ;;
	esac
	need_zig
	rm -rf "$build"
	meson setup --cross-file "tests/cross/$arch-macos.ini" "$build" \
		-Dwerror=true
	# -k 0: every file that fails, not only the first.
	mapfile -t targets < <(mac_targets "$build")
	((${#targets[@]})) || fail "$build: meson introspect listed no targets"
	ninja -C "$build" -k 0 "${targets[@]}" || fail "$build: build"
	f=$(file -b "$build/cmd/fhsum")
	say "cmd/fhsum: $f"
	[[ $f == "Mach-O 64-bit $want executable"* ]] ||
		fail "$build/cmd/fhsum is not a Mach-O $want executable"
	f=$(file -b "$build/lib/libfhsum.0.dylib")
	say "lib/libfhsum.0.dylib: $f"
	[[ $f == "Mach-O 64-bit $want dynamically linked shared library"* ]] ||
		fail "$build/lib/libfhsum.0.dylib is not a Mach-O $want dylib"
	if nm=$(llvm_nm); then
		# At least the public API: zig's linker exports hidden names
		# too (tests/install/exports.sh says why).
		AT_LEAST=1 bash tests/install/exports.sh "$build/lib/libfhsum.0.dylib" \
			lib/fhsum.h lib/fhsum.map "$nm" || rc=$?
		((rc == 0)) || fail "$build: the dylib's exports (exports.sh exit $rc)"
	else
		say "no llvm-nm: the dylib's exports are not checked"
	fi
}

step_musl() {
	local f rc=0
	rm -rf build-musl
	CC=musl-gcc meson setup build-musl -Dwerror=true -Davx512_emu=false \
		-Ddefault_library=static -Dc_link_args=-static
	ninja -C build-musl
	f=$(file -b build-musl/cmd/fhsum)
	say "cmd/fhsum: $f"
	[[ $f == *"statically linked"* ]] || fail "build-musl/cmd/fhsum is not static"
	echo build-musl/meson-logs/musl.json >>"$logs_list"
	# The CLI suites where the C library shows (options, output, lists,
	# files, threads); with FHSUM_CI_FULL=1 all of them.
	local only="options gen_md5 check_md5 engine io walk"
	[ "${FHSUM_CI_FULL:-0}" = 1 ] && only=
	FHSUM_QUICK=1 FHSUM_CLI_ONLY="$only" \
		meson test -C build-musl --print-errorlogs --logbase musl ||
		fail "musl: meson test"
}

step_arm_musl() {
	local f cpu rc=0 suites
	need_zig
	rm -rf build-arm-musl
	meson setup --cross-file tests/cross/aarch64-linux-musl.ini \
		build-arm-musl -Dwerror=true
	ninja -C build-arm-musl
	f=$(file -b build-arm-musl/cmd/fhsum)
	say "cmd/fhsum: $f"
	[[ $f == *"ARM aarch64"*"statically linked"* ]] ||
		fail "build-arm-musl/cmd/fhsum is not a static AArch64 executable"
	# The CLI suites run with FHSUM_QUICK=1 in a cross build (tests/cli).
	local cpus=(max) full=${FHSUM_CI_FULL:-0}
	[ "${PORTS_FULL:-0}" = 1 ] && full=2
	((full == 0)) || cpus+=(cortex-a53)
	for cpu in "${cpus[@]}"; do
		# Default: the unit suite; full: every test under max;
		# PORTS_FULL: every test under both.
		suites=(--suite unit)
		if ((full == 2)) || { ((full == 1)) && [ "$cpu" = max ]; }; then
			suites=()
		fi
		echo "build-arm-musl/meson-logs/qemu-musl-$cpu.json" >>"$logs_list"
		if ! QEMU_CPU=$cpu meson test -C build-arm-musl --print-errorlogs \
			--timeout-multiplier 4 --logbase "qemu-musl-$cpu" "${suites[@]}"; then
			say "FAIL arm-musl: meson test, QEMU_CPU=$cpu"
			rc=1
		fi
	done
	return $rc
}

run_step() { # NAME
	local name=$1 t0=$SECONDS c0 rc=0 wall cpu
	child_cpu
	c0=$cpu_now
	printf '\n=== ports: %s (%ss)\n' "$name" "$SECONDS"
	# Each step in a subshell with set -e, its status taken after it:
	# `(...) || rc=$?` would turn set -e off inside the step.
	set +e
	case $name in
	zig) (set -e; step_zig) ;;
	mac-arm) (set -e; step_mac aarch64) ;;
	mac-x86) (set -e; step_mac x86_64) ;;
	musl) (set -e; step_musl) ;;
	arm-musl) (set -e; step_arm_musl) ;;
	*) say "ports.sh: no step $name (steps: ${all_steps[*]})"; false ;;
	esac
	rc=$?
	set -e
	wall=$((SECONDS - t0))
	child_cpu
	cpu=$((cpu_now - c0))
	printf -- '--- %s: %ss wall, %ss CPU, %s\n' "$name" "$wall" "$cpu" \
		"$( ((rc == 0)) && echo ok || echo FAILED)"
	results+=("$name $wall $cpu $( ((rc == 0)) && echo ok || echo FAILED)")
	((rc == 0)) || failed=1
}

install_packages
for s in "${steps[@]}"; do
	run_step "$s"
done

printf '\n=== ports: done (%ss)\n' "$SECONDS"
printf '%-10s %6s %6s  %s\n' step wall cpu result
for r in "${results[@]}"; do
	# shellcheck disable=SC2086
	printf '%-10s %6s %6s  %s\n' $r
done
# Only the logs that meson wrote (a step that failed to build has none).
present=()
while read -r l; do [ -f "$l" ] && present+=("$l"); done <"$logs_list"
printf 'logs: %s\n' "${present[*]}"
exit "$failed"
