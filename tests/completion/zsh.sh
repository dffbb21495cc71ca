#!/usr/bin/env bash
# zsh.sh FHSUM ZSH_FILE: the zsh completion (cmd/completion/_fhsum) where
# zsh is installed: it parses (zsh -n), compinit registers it for fhsum and
# the sha3-*sum links, and completed in an interactive zsh (complete.zsh,
# through zsh/zpty) it offers what FHSUM itself says: the algorithm names
# after -a, its own kernels after --kernel (with FHSUM's directory first in
# PATH; the stand-in's when the line names it; fhsum's for a command that
# is not there), the options and the file names.  Exit 0 pass, 1 fail, 77 skip (no zsh, no zsh/zpty).
fhsum=$1 zsh_file=$2
command -v zsh >/dev/null || { echo "SKIP: zsh not found"; exit 77; }
# shellcheck source=tests/completion/common.sh
source "$(dirname "$0")/common.sh"
driver=$(cd "$(dirname "$0")" && pwd)/complete.zsh

zsh -n "$zsh_file" || { echo "FAIL: zsh -n $zsh_file"; exit 1; }
mkdir "$tmp/fpath"
cp "$zsh_file" "$tmp/fpath/_fhsum"

first=${kernels[0]} others=("${kernels[@]:1}")
cases=('fhsum -a ' 'fhsum -a sha3-' 'fhsum --algorithm=md' 'fhsum --algorithm md'
	'fhsum --ker' 'fhsum --kernel=' "fhsum --kernel=$first," "fhsum --kernel $first,"
	"$tmp/bin/fhsum --kernel=" "$tmp/nothere/fhsum --kernel=" 'sha3-256sum --kernel='
	'fhsum --no-' 'fhsum -c ' 'fhsum -l ' 'fhsum --')
# An FHSUM_KERNEL that names no kernel must not keep --kernel from
# completing.
out=$(cd "$tmp/files" && PATH=$(dirname "$fhsum"):$PATH FHSUM_KERNEL=bogus \
	zsh -f "$driver" "$tmp/fpath" "${cases[@]}")
status=$?
[ $status = 77 ] && { echo "$out"; exit 77; }
[ $status = 0 ] || { echo "$out"; echo "FAIL: complete.zsh exited $status"; exit 1; }
read_blocks <<<"$out"

grep -qx 'comps _fhsum _fhsum _fhsum _fhsum _fhsum' <<<"$out" ||
	fail "compinit did not give _fhsum to fhsum and each sha3-*sum: $(grep '^comps' <<<"$out")"
grep -qx loaded <<<"$out" || fail "_fhsum did not load"

expect 'fhsum -a ' "${algorithms[@]}"
expect 'fhsum -a sha3-' sha3-224 sha3-256 sha3-384 sha3-512
expect 'fhsum --algorithm=md' md5
expect 'fhsum --algorithm md' md5
[[ ${offered['fhsum --ker']} == $'--kernel\n' || ${offered['fhsum --ker']} == $'--kernel=\n' ]] ||
	fail "'fhsum --ker' offered '${offered['fhsum --ker']}', not --kernel"
expect 'fhsum --kernel=' "${kernels[@]}"
expect "fhsum --kernel=$first," "${others[@]}"
expect "fhsum --kernel $first," "${others[@]}"
expect "$tmp/bin/fhsum --kernel=" stub-one stub-two
# A command that is not there, or a link not installed: fhsum's.
expect "$tmp/nothere/fhsum --kernel=" "${kernels[@]}"
expect 'sha3-256sum --kernel=' "${kernels[@]}"
expect 'fhsum --no-' --no-mmap --no-names --no-progress --no-wait
# As _files hands them to compadd: quoted, a directory's / a suffix.
expect 'fhsum -c ' -x a.sums 'b\ file' sub
expect 'fhsum -l ' 224 256 384 512
for o in "${help_options[@]}"; do
	[[ $'\n'${offered['fhsum --']} == *$'\n'$o$'\n'* ]] ||
		fail "--help's $o is not offered after --"
done

((failures == 0)) && echo "zsh: all good"
((failures == 0))
