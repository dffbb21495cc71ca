# shellcheck shell=bash
# common.sh: what the completion tests share, sourced by bash.sh, zsh.sh
# and fish.sh after they set fhsum (the command to ask).  It reads what
# fhsum says, independently of the completion files: algorithms (the names
# it lists after an invalid -a), kernels (the first column of
# --list-kernels) and help_options (the long options its --help names).
# It makes $tmp/bin/fhsum, a stand-in whose --list-kernels lists stub-one
# and stub-two, and $tmp/files, names to complete.
set -uo pipefail
export LC_ALL=C
unset FHSUM_KERNEL

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$fhsum" ] || { echo "FAIL: no fhsum at $fhsum"; exit 1; }
fhsum=$(cd "$(dirname "$fhsum")" && pwd)/${fhsum##*/}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mapfile -t algorithms < <("$fhsum" -a bogus 2>&1 |
	sed -n "/^Valid arguments are:/,\$s/^  - '\(.*\)'\$/\1/p")
mapfile -t kernels < <("$fhsum" --list-kernels |
	awk '!/^KERNEL/ && !/^#/ && NF { print $1 }')
mapfile -t help_options < <("$fhsum" --help | grep -oE -- '--[a-z0-9-]+' | sort -u)
((${#algorithms[@]} >= 12)) || { echo "FAIL: fhsum -a bogus listed ${#algorithms[@]} names"; exit 1; }
((${#kernels[@]} >= 2)) || { echo "FAIL: fhsum --list-kernels listed ${#kernels[@]} kernels"; exit 1; }
((${#help_options[@]} >= 20)) || { echo "FAIL: fhsum --help named ${#help_options[@]} options"; exit 1; }

mkdir "$tmp/bin"
cat >"$tmp/bin/fhsum" <<'STUB'
#!/bin/sh
[ "$1" = --list-kernels ] || exit 1
echo 'KERNEL               FAMILY  LANES  CPU         PICKED WHY NOT'
echo 'stub-one             md5         1  usable      *'
echo 'stub-two             keccak      8  usable      -      slower'
echo '# md5 kernels: md5'
STUB
chmod +x "$tmp/bin/fhsum"

# A name with a space, one that looks like an option, a directory.
mkdir "$tmp/files" "$tmp/files/sub"
touch "$tmp/files/a.sums" "$tmp/files/b file" "$tmp/files/-x"

lines() { [ $# -gt 0 ] && printf '%s\n' "$@" | sort; }

# Reads blocks of "== LINE" then one candidate a line from stdin into
# the associative array offered: offered[LINE] holds LINE's candidates,
# one a line.
declare -A offered=()
read_blocks() {
	local l key=
	while IFS= read -r l; do
		if [[ $l == '== '* ]]; then
			key=${l#== }
			offered[$key]=
		elif [[ -n $key && -n $l ]]; then
			offered[$key]+=$l$'\n'
		fi
	done
}

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect LINE WANT...: the candidates offered for LINE are exactly WANT.
expect() {
	local line=$1 got want
	shift
	if [[ -z ${offered[$line]+set} ]]; then
		fail "'$line' was not completed"
		return
	fi
	got=$(printf '%s' "${offered[$line]}" | sort)
	want=$(lines "$@")
	[ "$got" = "$want" ] && return
	fail "'$line' offered:"
	diff <(echo "$want") <(echo "$got") | sed -n 's/^[<>]/    &/p'
}
