#!/usr/bin/env bash
# fish.sh FHSUM FISH_FILE: the fish completion (cmd/completion/fhsum.fish)
# where fish is installed: sourced in fish --no-config, complete -C offers
# what FHSUM itself says: the algorithm names after -a, its own kernels
# after --kernel (with FHSUM's directory first in PATH; the stand-in's when
# the line names it; fhsum's for a command that is not there), the
# options (every long one --help names, after --) and the file names.
# Exit 0 pass, 1 fail, 77 skip (no fish).
fhsum=$1 fish_file=$2
command -v fish >/dev/null || { echo "SKIP: fish not found"; exit 77; }
# shellcheck source=tests/completion/common.sh
source "$(dirname "$0")/common.sh"
fish_file=$(cd "$(dirname "$fish_file")" && pwd)/${fish_file##*/}
fish -n "$fish_file" || { echo "FAIL: fish -n $fish_file"; exit 1; }

first=${kernels[0]} others=("${kernels[@]:1}")
cases=('fhsum -a ' 'fhsum -a sha3-' 'fhsum --algorithm=md' 'fhsum --algorithm md'
	'fhsum -amd' 'fhsum --ker' 'fhsum --kernel=' "fhsum --kernel=$first,"
	"fhsum --kernel $first," "$tmp/bin/fhsum --kernel=" "$tmp/nothere/fhsum --kernel="
	'fhsum --no-' 'fhsum -c '
	'fhsum --files-from=a' 'fhsum -l ' 'fhsum --')
# Candidates less their descriptions (after a tab).
# An FHSUM_KERNEL that names no kernel must not keep --kernel from
# completing.
# shellcheck disable=SC2016 # fish's own $argv
out=$(cd "$tmp/files" && PATH=$(dirname "$fhsum"):$PATH FHSUM_KERNEL=bogus fish --no-config -c '
	source $argv[1]
	for line in $argv[2..-1]
		echo "== $line"
		complete -C $line | string replace -r "\t.*" ""
	end' -- "$fish_file" "${cases[@]}")
status=$?
[ $status = 0 ] || { echo "$out"; echo "FAIL: fish exited $status"; exit 1; }
read_blocks <<<"$out"

expect 'fhsum -a ' "${algorithms[@]}"
expect 'fhsum -a sha3-' sha3-224 sha3-256 sha3-384 sha3-512
expect 'fhsum --algorithm=md' --algorithm=md5
expect 'fhsum --algorithm md' md5
expect 'fhsum -amd' -amd5
expect 'fhsum --ker' --kernel
expect 'fhsum --kernel=' "${kernels[@]/#/--kernel=}"
expect "fhsum --kernel=$first," "${others[@]/#/--kernel=$first,}"
expect "fhsum --kernel $first," "${others[@]/#/$first,}"
expect "$tmp/bin/fhsum --kernel=" --kernel=stub-one --kernel=stub-two
expect "$tmp/nothere/fhsum --kernel=" "${kernels[@]/#/--kernel=}"
expect 'fhsum --no-' --no-mmap --no-names --no-progress --no-wait
expect 'fhsum -c ' -x a.sums 'b file' sub/
expect 'fhsum --files-from=a' --files-from=a.sums
expect 'fhsum -l ' 224 256 384 512
for o in "${help_options[@]}"; do
	[[ $'\n'${offered['fhsum --']} == *$'\n'$o$'\n'* ]] ||
		fail "--help's $o is not offered after --"
done

((failures == 0)) && echo "fish: all good"
((failures == 0))
