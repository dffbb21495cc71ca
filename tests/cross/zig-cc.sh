#!/usr/bin/env bash
# `zig cc` (zig on PATH, or $ZIG) as the C compiler of the Zig cross files
# beside this script, for Meson 1.0.  Put this directory on PATH with zig.
#
# Meson 1.0 does not know zig's linker: `zig cc -Wl,--version` prints
# "zig ld VERSION" ("Unable to detect linker") and `-Wl,-v` is refused.
# This script answers those two questions with the Meson linker whose
# arguments zig's linker takes:
#   -Wl,--version  "LLD-compatible zig ld VERSION" on stdout: Meson's LLD;
#   -Wl,-v         "ld64.lld ..." on stderr for a macOS target, so Meson
#                  passes ld64-style arguments (-install_name, -force_load,
#                  -headerpad_max_install_names...), as zig's Mach-O linker
#                  wants; "ld.lld ..." otherwise (GNU-style, for ELF).
# and, for a macOS target, mends the three ld64 arguments of Meson's that
# zig 0.11 refuses:
#   -Wl,-force_load ARCHIVE  joined into -Wl,-force_load,ARCHIVE (zig takes
#                  only the joined form: link_whole);
#   -Wl,-no_weak_imports     dropped: Meson adds it to every has_function
#                  check, which zig would then fail for every function;
#   -Wl,-fatal_warnings      dropped: Meson adds it to every link-argument
#                  check (zig still fails on arguments it does not know).
# Everything else goes to `zig cc` unchanged.  Meson from 1.6 knows zig's
# linker by name; the argument mending would still be needed there.
set -u
zig=${ZIG:-zig}

query=
target=
prev=
for a in "$@"; do
	case $a in
	-Wl,--version) query=version ;;
	-Wl,-v) query=v ;;
	-target=* | --target=*) target=${a#*=} ;;
	esac
	case $prev in
	-target | --target) target=$a ;;
	esac
	prev=$a
done

case $query in
version)
	v=$("$zig" cc "$@") || exit
	printf 'LLD-compatible %s\n' "$v"
	exit 0
	;;
v)
	case $target in
	*-macos*) printf 'ld64.lld: zig ld (Mach-O) for %s\n' "$target" >&2 ;;
	*) printf 'ld.lld: zig ld (ELF) for %s\n' "${target:-this machine}" >&2 ;;
	esac
	exit 0
	;;
esac

case $target in
*-macos*) ;;
*) exec "$zig" cc "$@" ;;
esac

args=()
while (($#)); do
	case $1 in
	-Wl,-force_load)
		if (($# > 1)); then
			args+=("$1,$2")
			shift
		else
			args+=("$1")
		fi
		;;
	-Wl,-no_weak_imports | -Wl,-fatal_warnings) ;;
	*) args+=("$1") ;;
	esac
	shift
done
exec "$zig" cc "${args[@]}"
