# fhsum.bash: bash completion for fhsum and its sha3-*sum links.
#
# Installed as bash-completion/completions/fhsum, with links named after
# the sha3-*sum commands beside it so that bash-completion's on-demand
# loading finds it for them too; it also works sourced on its own, without
# bash-completion.  It completes options, the names -a takes and the
# kernels --kernel takes (from the completed command's own
# --list-algorithms and --list-kernels, so a build tree's fhsum offers its
# own, and a new algorithm needs no line here) and file names.  An option's argument
# is completed in each form getopt_long takes: "-a md5", "-amd5",
# "--algorithm md5", "--algorithm=md5".

# The options, one a line: short form (- for none), long form, and what
# its argument completes to: - (takes none), algorithm, bits, kernels
# (a comma-separated list), file, or value (anything: nothing offered).
_fhsum_options='
-a --algorithm      algorithm
-b --binary         -
-c --check          -
-  --only           file
-  --expect         value
-l --length         bits
-  --tag            -
-  --untagged       -
-t --text           -
-z --zero           -
-  --base64         -
-  --raw            -
-  --no-names       -
-  --sfv            -
-  --part-size      value
-  --ignore-missing -
-  --quiet          -
-  --status         -
-  --strict         -
-w --warn           -
-  --meta           -
-  --audit          file
-  --update         file
-  --prune          -
-  --no-wait        -
-  --against        file
-  --scrub          file
-  --max-time       value
-  --max-bytes      value
-  --json           -
-r --recursive      -
-  --files-from     file
-  --files0-from    file
-  --exclude        value
-  --exclude-from   file
-j --threads        value
-  --no-mmap        -
-  --io-depth       value
-  --progress       -
-  --no-progress    -
-  --kernel         kernels
-  --list-kernels   -
-  --list-algorithms -
-  --debug          -
-  --benchmark      -
-  --help           -
-  --version        -
'

# Sets the caller's _fhsum_kind to what the option $1 (-a, --algorithm)
# takes as its argument, "" when $1 is no option of fhsum's.
_fhsum_kind_of()
{
	local short long kind
	_fhsum_kind=
	while read -r short long kind; do
		[[ -n $long ]] || continue
		if [[ $1 == "$long" || ($short != - && $1 == "$short") ]]; then
			_fhsum_kind=$kind
			return
		fi
	done <<<"$_fhsum_options"
}

# Sets the caller's _fhsum_at to the offset in the word $1, a cluster of
# short options (-bwa), at which the argument of its first option that
# takes one begins: the length of $1 when that argument is the next word,
# 0 when none of them takes one.
_fhsum_cluster()
{
	local i _fhsum_kind
	_fhsum_at=0
	for ((i = 1; i < ${#1}; i++)); do
		_fhsum_kind_of "-${1:i:1}"
		if [[ -n $_fhsum_kind && $_fhsum_kind != - ]]; then
			_fhsum_at=$((i + 1))
			return
		fi
	done
}

# Sets the caller's _fhsum_names to the names that the command being
# completed lists with the option $1 (--list-kernels, --list-algorithms):
# the first column, less the header that begins with $2 and the # lines;
# fhsum's when that command cannot be run or is not named as fhsum is.  A
# FHSUM_KERNEL in the environment that names no kernel would make
# --list-kernels fail: it is left out.
_fhsum_list() # OPTION HEADER
{
	local cmd=${COMP_WORDS[0]} line lines=()
	_fhsum_names=()
	[[ $cmd == \~/* ]] && cmd=$HOME/${cmd#\~/}
	case ${cmd##*/} in
	fhsum | sha3-*sum) type -P -- "$cmd" >/dev/null 2>&1 || cmd=fhsum ;;
	*) cmd=fhsum ;;
	esac
	type -P -- "$cmd" >/dev/null 2>&1 || return
	mapfile -t lines < <(
		unset FHSUM_KERNEL # in this subshell only
		exec "$cmd" "$1" 2>/dev/null
	)
	for line in "${lines[@]}"; do
		line=${line%%[[:space:]]*}
		case $line in
		'' | "$2" | '#'*) ;;
		*) _fhsum_names+=("$line") ;;
		esac
	done
}

# Sets COMPREPLY to each WORD that begins with $2, after the prefix $1.
_fhsum_reply() # PREFIX CUR WORD...
{
	local prefix=$1 cur=$2 word
	shift 2
	COMPREPLY=()
	for word; do
		[[ $word == "$cur"* ]] && COMPREPLY+=("$prefix$word")
	done
}

# Completes the file name $2, the reply prefixed with $1 (--files-from=
# where the word was not split at its =).
_fhsum_files()
{
	local cur=$2
	if [[ -z $1 ]] && declare -F _filedir >/dev/null; then
		_filedir # bash-completion's: quoting, ~, directories
		return
	fi
	# Readline would quote the = of a prefix taken for part of a name.
	[[ -z $1 ]] && compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -P "$1" -- "$cur")
}

# Completes the argument $3 of an option whose argument is of kind $1,
# each reply prefixed with $2.
_fhsum_argument()
{
	local head='' name names=() _fhsum_names
	case $1 in
	algorithm)
		_fhsum_list --list-algorithms ALGORITHM
		_fhsum_reply "$2" "$3" "${_fhsum_names[@]}"
		;;
	bits) _fhsum_reply "$2" "$3" 224 256 384 512 ;;
	kernels)
		# Only the name after the last comma is completed, and only
		# with a kernel not named before it.
		[[ $3 == *,* ]] && head=${3%,*},
		_fhsum_list --list-kernels KERNEL
		for name in "${_fhsum_names[@]}"; do
			[[ ,$head == *,"$name",* ]] || names+=("$name")
		done
		_fhsum_reply "$2$head" "${3##*,}" "${names[@]}"
		;;
	file) _fhsum_files "$2" "$3" ;;
	esac
}

_fhsum()
{
	local cur=${COMP_WORDS[COMP_CWORD]} word opt='' i IFS=$' \t\n'
	local _fhsum_kind _fhsum_at
	COMPREPLY=()

	# Walk the words before the cursor: opt is the option whose argument
	# is still to come; after a "--" of its own every word is a file.
	# Bash splits --opt=value into "--opt" "=" "value" (= is in
	# COMP_WORDBREAKS).
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		if [[ -n $opt ]]; then
			[[ $word == = && ${COMP_WORDS[i - 1]} == --* ]] || opt=
			continue
		fi
		case $word in
		--)
			_fhsum_files '' "$cur"
			return
			;;
		--*=*) ;;
		--*)
			_fhsum_kind_of "$word"
			[[ -n $_fhsum_kind && $_fhsum_kind != - ]] && opt=$word
			;;
		-?*)
			_fhsum_cluster "$word"
			((_fhsum_at == ${#word})) && opt=-${word:_fhsum_at-1:1}
			;;
		esac
	done

	if [[ -n $opt ]]; then # the argument of opt, = split off or not
		[[ $cur == = && ${COMP_WORDS[COMP_CWORD - 1]} == --* ]] && cur=
		_fhsum_kind_of "$opt"
		_fhsum_argument "$_fhsum_kind" '' "$cur"
		return
	fi

	case $cur in
	--*=*) # --opt=value in one word: COMP_WORDBREAKS lacks =
		_fhsum_kind_of "${cur%%=*}"
		_fhsum_argument "$_fhsum_kind" "${cur%%=*}=" "${cur#*=}"
		return
		;;
	--*) ;;
	-*)
		_fhsum_cluster "$cur"
		if ((_fhsum_at > 0 && _fhsum_at < ${#cur})); then # -amd5
			_fhsum_kind_of "-${cur:_fhsum_at-1:1}"
			_fhsum_argument "$_fhsum_kind" "${cur:0:_fhsum_at}" "${cur:_fhsum_at}"
			return
		fi
		;;
	*)
		_fhsum_files '' "$cur"
		return
		;;
	esac

	# An option: long ones after --, short ones too after a lone -.  One
	# that takes an argument is offered as --opt=, with no space after.
	local short long kind words=()
	while read -r short long kind; do
		[[ -n $long ]] || continue
		[[ $cur != --* && $short != - ]] && words+=("$short")
		[[ $kind == - ]] && words+=("$long") || words+=("$long=")
	done <<<"$_fhsum_options"
	_fhsum_reply '' "$cur" "${words[@]}"
	[[ ${COMPREPLY[*]} == *=* ]] && compopt -o nospace 2>/dev/null
	return 0
}

complete -F _fhsum fhsum sha3-224sum sha3-256sum sha3-384sum sha3-512sum
