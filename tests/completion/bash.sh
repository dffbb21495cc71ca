#!/usr/bin/env bash
# bash.sh FHSUM BASH_FILE [ZSH_FILE FISH_FILE]: the bash completion
# (cmd/completion/fhsum.bash) driven as bash drives it: COMP_WORDS split as
# readline splits them (at = too), COMP_CWORD, COMP_LINE and COMP_POINT set,
# _fhsum called, COMPREPLY compared with what FHSUM itself says: the
# algorithm names it lists after an invalid -a, the kernels of its
# --list-kernels, and every long option of its --help, which must be
# offered after -- and appear in the zsh and fish files too when given.
# All of it runs twice: on the file alone, and with bash-completion loaded
# first where it is installed (file names then come from its _filedir).
#
# Run by meson test (tests/completion/meson.build) on the source tree's
# files and by tests/install/install.sh on the installed ones.
# Exit 0 pass, 1 fail.
fhsum=$1 bash_file=$2 zsh_file=${3-} fish_file=${4-}
# shellcheck source=tests/completion/common.sh
source "$(dirname "$0")/common.sh"
[ -r "$bash_file" ] || { echo "FAIL: no bash completion at $bash_file"; exit 1; }

suite() { # LABEL: every case, in this shell
	local label=$1 failures=0 got='' compopts='' SPLIT_EQ=1
	# shellcheck source=/dev/null
	source "$bash_file" || { echo "FAIL $label: sourcing $bash_file"; return 1; }
	# shellcheck disable=SC2317 # called by the completion
	compopt() { compopts+=" $*"; } # the builtin works only under complete

	fail() { echo "FAIL $label: $*"; failures=$((failures + 1)); }

	# complete LINE: _fhsum run on LINE, the cursor at its end; got is
	# COMPREPLY, one a line.
	complete_line() {
		local line=$1 w words=()
		read -r -a words <<<"$line"
		[[ $line == *' ' ]] && words+=('')
		COMP_WORDS=()
		for w in "${words[@]}"; do
			if ((SPLIT_EQ)) && [[ $w == --*=* ]]; then
				COMP_WORDS+=("${w%%=*}" '=')
				[[ -n ${w#*=} ]] && COMP_WORDS+=("${w#*=}")
			else
				COMP_WORDS+=("$w")
			fi
		done
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line COMP_POINT=${#line}
		COMPREPLY=() compopts=
		_fhsum
		got=
		((${#COMPREPLY[@]})) && printf -v got '%s\n' "${COMPREPLY[@]}"
	}
	expect() { # LINE WANT...: completing LINE offers exactly WANT, in any order
		local line=$1 w ok=1
		shift
		complete_line "$line"
		local -A offered=()
		for w in "${COMPREPLY[@]}"; do offered[x$w]=1; done
		((${#offered[@]} == $# && ${#COMPREPLY[@]} == $#)) || ok=0
		for w; do [[ -n ${offered[x$w]-} ]] || ok=0; done
		((ok)) && return
		fail "'$line' offered:"
		diff <(lines "$@") <(lines "${COMPREPLY[@]}") | sed -n 's/^[<>]/    &/p'
	}
	# The names -a takes come from the completed command's own
	# --list-algorithms, as the kernels do: the fhsum under test is the
	# one on PATH, as it is where the completion is installed.
	local PATH=${fhsum%/*}:$PATH
	local c
	for c in fhsum sha3-256sum sha3-512sum; do
		complete -p "$c" 2>/dev/null | grep -q -- '-F _fhsum' ||
			fail "not registered for $c"
	done

	expect 'fhsum -a ' "${algorithms[@]}"
	expect 'fhsum -a sha3-' sha3-224 sha3-256 sha3-384 sha3-512
	expect 'fhsum --algorithm=md' md5
	expect 'fhsum --algorithm=' "${algorithms[@]}"
	expect 'fhsum --algorithm md' md5
	expect 'fhsum -amd' -amd5
	expect 'fhsum -bcamd' -bcamd5
	expect 'fhsum -ba ' "${algorithms[@]}"
	SPLIT_EQ=0 expect 'fhsum --algorithm=md' --algorithm=md5
	expect 'fhsum -l ' 224 256 384 512
	expect 'fhsum -j '
	expect 'fhsum --io-depth='
	expect 'fhsum --io-depth '

	complete_line 'fhsum --ker'
	local reply=${COMPREPLY[*]}
	[[ $reply == --kernel= || $reply == --kernel ]] ||
		fail "'fhsum --ker' offered '$reply', not --kernel= or --kernel"
	[[ $reply != *= || $compopts == *nospace* ]] ||
		fail "'fhsum --ker' offered $reply with a space after it"

	# Kernels: the completed command's own (given by its path here).
	expect "$fhsum --kernel=" "${kernels[@]}"
	expect "$fhsum --kernel " "${kernels[@]}"
	local first=${kernels[0]} others=("${kernels[@]:1}") k some=()
	local letter=${others[0]:0:1}
	for k in "${others[@]}"; do [[ $k == "$letter"* ]] && some+=("$first,$k"); done
	expect "$fhsum --kernel=$first," "${others[@]/#/$first,}"
	expect "$fhsum --kernel=$first,$letter" "${some[@]}"
	SPLIT_EQ=0 expect "$fhsum --kernel=$first," "${others[@]/#/--kernel=$first,}"
	# An FHSUM_KERNEL that names no kernel makes --list-kernels fail.
	FHSUM_KERNEL=bogus expect "$fhsum --kernel=" "${kernels[@]}"
	# A command not found, or not named fhsum, is fhsum on the PATH.
	PATH=$tmp/bin:$PATH expect 'fhsum --kernel=' stub-one stub-two
	PATH=$tmp/bin:$PATH expect 'sha3-256sum --kernel=stub-one,' stub-one,stub-two
	PATH=$tmp/bin:$PATH expect "$tmp/bin/nothere/fhsum --kernel=" stub-one stub-two

	expect 'fhsum --no-' --no-mmap --no-names --no-progress --no-wait
	expect 'fhsum --ignore' --ignore-missing
	expect 'fhsum --excl' --exclude= --exclude-from=
	complete_line 'fhsum -'
	[[ $'\n'$got == *$'\n-a\n'* && $'\n'$got == *$'\n--check\n'* ]] ||
		fail "'fhsum -' offered neither -a nor --check"

	# File names: operands, -c's lists, --files-from; after --, all.
	(
		cd "$tmp/files" || exit 1
		expect 'fhsum -c ' -x a.sums 'b file' sub
		expect 'fhsum -c a' a.sums
		expect 'fhsum -a md5 b' 'b file'
		expect 'fhsum -j 4 --io-depth 8 b' 'b file'
		expect 'fhsum --files-from=' -x a.sums 'b file' sub
		expect 'fhsum --files0-from s' sub
		expect 'fhsum --exclude-from=' -x a.sums 'b file' sub
		expect 'fhsum -r --exclude ' # a pattern: nothing offered
		expect 'fhsum -- -' -x
		expect 'fhsum -a -- ' -x a.sums 'b file' sub
		exit $failures
	) || failures=$((failures + $?))

	# Drift: every long option --help names is offered after --.
	complete_line 'fhsum --'
	local offered=$'\n'${got//=/}$'\n' o
	for o in "${help_options[@]}"; do
		[[ $offered == *$'\n'"$o"$'\n'* ]] || fail "--help's $o is not offered after --"
	done

	((failures == 0)) && echo "$label: all good"
	return $((failures > 0))
}

# Drift: every long option --help names is in the zsh and fish files, as
# --opt in zsh's _arguments specs and as -l opt in fish's complete lines.
zsh_text='' fish_text=''
[ -n "$zsh_file" ] && zsh_text=$(<"$zsh_file")
[ -n "$fish_file" ] && fish_text=$(<"$fish_file")
for o in "${help_options[@]}"; do
	zsh_re="[^a-z0-9-]${o}[^a-z0-9-]"
	fish_re=$'(^|\n)complete -c fhsum [^\n]*-l '"${o#--}"$'( |\n|$)'
	[ -z "$zsh_file" ] || [[ $zsh_text =~ $zsh_re ]] ||
		fail "--help's $o is not in $zsh_file"
	[ -z "$fish_file" ] || [[ $fish_text =~ $fish_re ]] ||
		fail "--help's $o is not in $fish_file"
done

(suite 'bash alone') || failures=$((failures + 1))
bash_completion=
for f in /usr/share/bash-completion/bash_completion \
	/usr/local/share/bash-completion/bash_completion; do
	[ -r "$f" ] && { bash_completion=$f; break; }
done
if [ -n "$bash_completion" ]; then
	# shellcheck source=/dev/null
	(source "$bash_completion" && suite 'with bash-completion') ||
		failures=$((failures + 1))
else
	echo "bash-completion not installed: its run left out"
fi
((failures == 0))
