# Common setup for the fhsum CLI suites (bats-core).  Loaded by every *.bats
# file with `load helper`.
#
# Environment:
#   FHSUM          absolute path of the binary under test (set by meson);
#                  default: build/cmd/fhsum of this source tree.
#   FHSUM_WRAPPER  optional command prefix, word-split, e.g.
#                  "qemu-aarch64 -L /usr/aarch64-linux-gnu".
#   FHSUM_VECTORS  directory of the <algo>.len / <algo>.xof vector files;
#                  default: tests/vectors of this source tree.
#   FHSUM_QUICK    when 1, the check-list tables run fewer option variants
#                  and the engine tests smaller inputs (for emulated runs
#                  and CI's runs per kernel).
#
# Expected outputs never come from fhsum itself: they come from GNU md5sum
# (the oracle), from tests/vectors (Python hashlib), or are written in the tests.

: "${FHSUM:=$BATS_TEST_DIRNAME/../../build/cmd/fhsum}"
case $FHSUM in /*) ;; *) FHSUM=$PWD/$FHSUM ;; esac
: "${FHSUM_VECTORS:=$BATS_TEST_DIRNAME/../vectors}"
case $FHSUM_VECTORS in /*) ;; *) FHSUM_VECTORS=$PWD/$FHSUM_VECTORS ;; esac
CASES=$BATS_TEST_DIRNAME/lists/check
CASETOOL=$BATS_TEST_DIRNAME/casetool.awk
read -r -a FHSUM_WRAP <<<"${FHSUM_WRAPPER:-}"
export FHSUM FHSUM_VECTORS

# The program under test, as the user would run it.
fhsum() { "${FHSUM_WRAP[@]}" "$FHSUM" "$@"; }

# fhsum through a symlink named NAME (md5sum, sha3-256sum, ...): the program
# picks its default algorithm from its name.
link_path() { # NAME -> prints the link's absolute path
	local dir=$BATS_FILE_TMPDIR/links
	mkdir -p "$dir"
	[ -L "$dir/$1" ] || ln -sf "$FHSUM" "$dir/$1"
	printf '%s\n' "$dir/$1"
}
fhsum_as() { # NAME ARGS...
	local l
	l=$(link_path "$1") || return 1
	shift
	"${FHSUM_WRAP[@]}" "$l" "$@"
}

fail() { printf '%s\n' "$@" >&2; return 1; }

# can_trace: whether strace can follow fhsum here (the native binary: not
# under FHSUM_WRAPPER).
can_trace() {
	[ -z "${FHSUM_WRAPPER-}" ] && command -v strace >/dev/null &&
		strace -f -qq -o /dev/null true 2>/dev/null
}
# trace_fhsum CALLS ARGS...: fhsum ARGS (its stdin the caller's, its output
# and status thrown away) under strace -f, the system calls CALLS written
# to ./trace; LeakSanitizer, which cannot run under ptrace, off.
trace_fhsum() {
	local calls=$1
	shift
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace="$calls" -e signal=none -o trace \
		"$FHSUM" "$@" >/dev/null 2>&1 || :
}

common_setup() {
	# bats runs a DEBUG trap on every command of the test shell, which makes
	# the table loops here about 100 times slower; drop it.  A failing test
	# is then reported "from function setup", but every helper prints what
	# differed.
	trap - DEBUG
	export LC_ALL=C
	# FHSUM_KERNEL passes through: CI runs the whole suite once per kernel.
	unset POSIXLY_CORRECT
	[ -x "$FHSUM" ] || fail "binary under test not found or not executable: $FHSUM"
	command -v md5sum >/dev/null || fail "GNU md5sum (the oracle) is not installed"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---------------------------------------------------------------------------
# Capturing and comparing runs.

# capture PREFIX CMD...: runs CMD with the caller's stdin; writes PREFIX.out,
# PREFIX.err (program name normalised to PROG) and PREFIX.rc.
capture() {
	local p=$1
	shift
	local rc=0
	"$@" >"$p.out" 2>"$p.err.raw" || rc=$?
	printf '%s\n' "$rc" >"$p.rc"
	if [ -s "$p.err.raw" ]; then normalise_err <"$p.err.raw" >"$p.err"; else : >"$p.err"; fi
}

# Program names that may start a diagnostic: fhsum's own path, md5sum, the
# links made by link_path, and the bare names.  Pure bash (no process): the
# table suites call this thousands of times.
PROG_NAMES=()
normalise_err() {
	local line p nl
	if [ ${#PROG_NAMES[@]} = 0 ]; then
		PROG_NAMES=("$FHSUM" fhsum md5sum)
		for p in md5sum sha3-224sum sha3-256sum sha3-384sum sha3-512sum; do
			PROG_NAMES+=("$BATS_FILE_TMPDIR/links/$p" "$p")
		done
	fi
	while :; do
		nl=1
		IFS= read -r line || { [ -n "$line" ] || break; nl=0; }
		for p in "${PROG_NAMES[@]}"; do
			if [[ $line == "$p: "* ]]; then line="PROG: ${line#"$p: "}"; break; fi
		done
		for p in "${PROG_NAMES[@]}"; do
			if [[ $line == "Try '$p --help'"* ]]; then
				line="Try 'PROG --help'${line#"Try '$p --help'"}"
				break
			fi
		done
		if [ $nl = 1 ]; then printf '%s\n' "$line"; else printf '%s' "$line"; break; fi
	done
}

# same_file A B: byte-equal.  Compared in bash when neither holds a NUL
# (no process), else with cmp.
same_file() {
	local a='' b='' ra=0 rb=0
	IFS= read -r -d '' a <"$1" || ra=1
	IFS= read -r -d '' b <"$2" || rb=1
	if [ $ra = 0 ] || [ $rb = 0 ]; then cmp -s -- "$1" "$2"; return; fi
	[ "$a" == "$b" ]
}

# show FILE: visible bytes (tabs, CRs, NULs, no final newline).
show() { cat -A -- "$1"; }

# compare_runs LABEL EXP GOT: both are capture prefixes.  Prints a readable
# diff of each differing stream and returns 1 if any differ.
compare_runs() {
	local label=$1 e=$2 g=$3 s bad=0
	[ -z "${FHSUM_TEST_COUNT:-}" ] || echo "$label" >>"$FHSUM_TEST_COUNT"
	for s in out err rc; do
		same_file "$e.$s" "$g.$s" && continue
		bad=1
		printf '\n--- %s: %s differs (- expected, + fhsum)\n' "$label" \
			"$(case $s in out) echo stdout;; err) echo stderr;; rc) echo 'exit status';; esac)" >&2
		diff -u --label expected --label fhsum <(show "$e.$s") <(show "$g.$s") | tail -n +3 >&2
	done
	return $bad
}

# expect LABEL RC [STDOUT [STDERR]]: compare the last capture "got" with
# literal expectations (printf %b is NOT applied; pass real bytes).
# STDOUT/STDERR are given without their final newline, which is added when
# non-empty.
expect() {
	local label=$1
	printf '%s\n' "$2" >want.rc
	if [ -n "${3-}" ]; then printf '%s\n' "$3" >want.out; else : >want.out; fi
	if [ -n "${4-}" ]; then printf '%s\n' "$4" >want.err; else : >want.err; fi
	compare_runs "$label" want got
}

# same_as_md5sum ARGS...: `fhsum -a md5 ARGS` and `md5sum ARGS` give the same
# stdout, stderr (program name aside) and exit status.  Standard input for both
# comes from the file named by $SUM_STDIN (default /dev/null).
same_as_md5sum() {
	local in=${SUM_STDIN:-/dev/null}
	capture ref md5sum "$@" <"$in"
	capture got fhsum -a md5 "$@" <"$in"
	compare_runs "md5sum $*" ref got
}

# same_as_md5sum_link ARGS...: the same with fhsum run through a link named
# md5sum and no -a, so even option errors and usage lines are comparable.
same_as_md5sum_link() {
	local in=${SUM_STDIN:-/dev/null}
	capture ref md5sum "$@" <"$in"
	capture got fhsum_as md5sum "$@" <"$in"
	compare_runs "md5sum (link) $*" ref got
}

# own_name_hint: GNU's stderr as fhsum says it under its own name, where a
# directory operand without -r gets what to do.
own_name_hint() {
	sed 's/: Is a directory$/: Is a directory (use -r to hash the files under it)/'
}

# on_tty OUT CMDLINE: runs the shell command line CMDLINE with a pseudo-
# terminal as its standard input, output and error (script(1)), writes what
# the terminal showed to OUT and returns CMDLINE's exit status.  Where no
# terminal can be had (no script(1); a chroot without /dev/pts, some build
# daemons) the test is skipped, never failed: every run checks that its
# command really ran on a terminal, since one that script(1) could start may
# be followed by one that it cannot.
on_tty() {
	local out=$1 cmd=$2
	command -v script >/dev/null || skip "script(1) not installed"
	rm -f tty.ran tty.rc
	script -qec "[ -t 0 ] && [ -t 1 ] && [ -t 2 ] && : >tty.ran && { ($cmd); echo \$? >tty.rc; }" \
		/dev/null >"$out" 2>tty.err </dev/null || :
	local why
	why=$(head -n 1 tty.err)
	[ -e tty.ran ] || skip "no pseudo-terminal here${why:+: $why}"
	[ -s tty.rc ] || { fail "no exit status from the terminal: $(head -c 300 "$out" | cat -A)"; return; }
	return "$(cat tty.rc)"
}

# ---------------------------------------------------------------------------
# Pattern files and vectors.

# pattern N > FILE: N bytes, byte i = i % 251 (the tests/vectors pattern).
pattern() {
	if [ ! -f "$BATS_FILE_TMPDIR/pattern" ]; then
		local s
		s=$(printf '\\%03o' $(seq 0 250))
		# $s holds octal escapes: it is the format.
		{ for _ in 1 2 3 4 5; do printf "$s"; done; } >"$BATS_FILE_TMPDIR/pattern.$$"
		mv "$BATS_FILE_TMPDIR/pattern.$$" "$BATS_FILE_TMPDIR/pattern"
	fi
	head -c "$1" "$BATS_FILE_TMPDIR/pattern"
}

# vec ALGO LENGTH: the expected hex digest from tests/vectors/ALGO.len.
vec() {
	local f=$FHSUM_VECTORS/$1.len h
	[ -r "$f" ] || fail "vector file missing: $f" || return 1
	h=$(awk -v n="$2" '$1 == n && !/^#/ { print $2; exit }' "$f")
	[ -n "$h" ] || fail "no vector for $1 length $2 in $f" || return 1
	printf '%s\n' "$h"
}

# tree ALGO MSGLEN: expected hex from tests/vectors/ALGO.tree (KT's
# chunk-count edges).
tree() {
	local f=$FHSUM_VECTORS/$1.tree h
	[ -r "$f" ] || fail "vector file missing: $f" || return 1
	h=$(awk -v n="$2" '$1 == n && !/^#/ { print $3; exit }' "$f")
	[ -n "$h" ] || fail "no tree vector for $1 length $2 in $f" || return 1
	printf '%s\n' "$h"
}

# tree_lens ALGO: the message lengths of tests/vectors/ALGO.tree.
tree_lens() {
	awk '!/^#/ { print $1 }' "$FHSUM_VECTORS/$1.tree"
}

# big_pattern N > FILE: pattern for any N (doubling a whole number of
# 251-byte periods until it is long enough).
big_pattern() {
	local f=$BATS_FILE_TMPDIR/bigpattern
	if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" -lt "$1" ]; then
		pattern 1255 >"$f.$$"
		while [ "$(stat -c %s "$f.$$")" -lt "$1" ]; do
			cat "$f.$$" "$f.$$" >"$f.$$.2" && mv "$f.$$.2" "$f.$$"
		done
		mv "$f.$$" "$f"
	fi
	head -c "$1" "$f"
}

# xof ALGO MSGLEN OUTBITS: expected hex from tests/vectors/ALGO.xof.
xof() {
	local f=$FHSUM_VECTORS/$1.xof h
	[ -r "$f" ] || fail "vector file missing: $f" || return 1
	h=$(awk -v n="$2" -v b="$3" '$1 == n && $2 == b && !/^#/ { print $3; exit }' "$f")
	[ -n "$h" ] || fail "no xof vector for $1 $2 $3 in $f" || return 1
	printf '%s\n' "$h"
}

# Generation tables (gen_*.bats): the suite sets LENS and makes a pattern
# file pN for each N in it.
# want_lines ALGO FORMAT: want.out for every pattern file, FORMAT one of
# plain, binary, tag, zero.
want_lines() {
	local algo=$1 fmt=$2 n h tag
	tag=$(tag_of "$algo")
	: >want.out
	for n in $LENS; do
		h=$(vec "$algo" "$n") || return 1
		case $fmt in
		plain) printf '%s  p%s\n' "$h" "$n" ;;
		binary) printf '%s *p%s\n' "$h" "$n" ;;
		tag) printf '%s (p%s) = %s\n' "$tag" "$n" "$h" ;;
		zero) printf '%s  p%s\0' "$h" "$n" ;;
		esac >>want.out
	done
	echo 0 >want.rc
	: >want.err
}
pfiles() { local n; for n in $LENS; do printf 'p%s\n' "$n"; done; }

gen_ok() { # ALGO FORMAT FHSUM-ARGS...
	local algo=$1 fmt=$2 files
	shift 2
	want_lines "$algo" "$fmt" || return 1
	mapfile -t files < <(pfiles)
	capture got fhsum "$@" "${files[@]}"
	compare_runs "fhsum $*" want got
}

# gen_xof_lengths ALGO...: for each XOF, fhsum -a ALGO -l BITS prints the
# .xof vectors of every message length at every output length.
gen_xof_lengths() {
	local algo m b h bad=0
	for m in 0 1 3 167 168 169 200 1000; do pattern "$m" >"m$m"; done
	for algo in "$@"; do
		for b in 8 256 512 1344 4096; do
			: >want.out
			for m in 0 1 3 167 168 169 200 1000; do
				h=$(xof "$algo" "$m" "$b") || return 1
				printf '%s  m%s\n' "$h" "$m" >>want.out
			done
			echo 0 >want.rc; : >want.err
			capture got fhsum -a "$algo" -l "$b" m0 m1 m3 m167 m168 m169 m200 m1000
			compare_runs "fhsum -a $algo -l $b" want got || bad=1
		done
	done
	return $bad
}

# check_xof_lengths ALGO...: for each XOF, one untagged list holding its
# .xof vectors at several output lengths checks OK under -a ALGO (each
# line's hex length is its output length).
check_xof_lengths() {
	local algo m b bad=0
	for m in 0 1 167 168 169 1000; do pattern "$m" >"m$m"; done
	for algo in "$@"; do
		: >list
		: >want.out
		for b in 8 256 512 1344 4096; do
			for m in 0 1 167 168 169 1000; do
				printf '%s  m%s\n' "$(xof "$algo" "$m" "$b")" "$m" >>list
				printf 'm%s: OK\n' "$m" >>want.out
			done
		done
		capture got fhsum -a "$algo" -c list
		echo 0 >want.rc; : >want.err
		compare_runs "fhsum -a $algo -c (several lengths)" want got || bad=1
	done
	return $bad
}

# BSD tag of an algorithm name as -a spells it.
tag_of() {
	case $1 in
	md5) echo MD5 ;; sha3-*) echo "SHA3-${1#sha3-}" ;; shake*) echo "SHAKE${1#shake}" ;;
	turboshake*) echo "TurboSHAKE${1#turboshake}" ;; kt*) echo "KT${1#kt}" ;;
	*) return 1 ;;
	esac
}

# ---------------------------------------------------------------------------
# Check-list table (tests/cli/lists/check/*.case, see lists/README.md).

# Fixture files of the check table: key, length of pattern content, name.
# Names are printf %b strings.
FIXTURES='a 3 a
b 200 b
empty 0 empty
big 1100 big
sp 10 with space
tab 11 tab\there
bs 12 back\\slash
nl 13 new\nline
cr 14 cr\rx
utf 15 \303\274ber-\342\202\254
lead 16  lead
trail 17 trail 
paren 18 x) = y'
BAD_LEN=999

make_fixtures() {
	local key len name
	while IFS=' ' read -r key len name; do
		name=$(printf '%b_' "$name")
		pattern "$len" >"${name%_}"
	done <<<"$FIXTURES"
	# " lead" and "trail " lose their blanks to read; make them explicitly.
	rm -f lead trail
	pattern 16 >' lead'
	pattern 17 >'trail '
	mkdir d
	[ ! -e nosuch ] && [ ! -e lead ]
}

# write_map ALGO IMPROPER-ALGO-NAME > mapfile: placeholder values.
write_map() {
	local algo=$1 msgname=$2 f=$FHSUM_VECTORS/$1.len tag
	[ -r "$f" ] || fail "vector file missing: $f" || return 1
	tag=$(tag_of "$algo")
	FIXTURES_ENV=$FIXTURES awk -v badlen="$BAD_LEN" '
	BEGIN {
		n = split(ENVIRON["FIXTURES_ENV"], L, "\n")
		for (i = 1; i <= n; i++) { split(L[i], w, " "); want[w[2]] = want[w[2]] " " w[1] }
		want[badlen] = want[badlen] " bad"
	}
	!/^#/ && ($1 in want) {
		k = split(want[$1], keys, " ")
		for (j = 1; j <= k; j++) { printf "%s\t%s\n", keys[j], $2; printf "UP:%s\t%s\n", keys[j], toupper($2); if (keys[j] == "a") h = $2 }
	}
	END {
		if (h == "") exit 1
		printf "short\t%s\n", substr(h, 1, length(h) - 1)
		printf "long\t%s0\n", h
		printf "nonhex\t%%%s\n", substr(h, 2)
	}' "$f" || fail "cannot read vectors from $f" || return 1
	printf 'LONG\t%s\n' "$(printf 'x%.0s' $(seq 300))"
	printf 'TAG\t%s\n' "$tag"
	printf 'tag\t%s\n' "$(printf '%s' "$tag" | tr '[:upper:]' '[:lower:]')"
	if [ -n "$msgname" ]; then
		printf 'IMPROPER\timproperly formatted %s checksum line\n' "$msgname"
	else
		printf 'IMPROPER\timproperly formatted checksum line\n'
	fi
}

# instantiate CASE ALGO MSGNAME: writes list, list2 (cwd) and .case/{args,stdin,
# expN.opts,expN.out,expN.err,expN.rc}; sets CASE_ARGS, CASE_STDIN, CASE_GROUPS
# (the group numbers) and GROUP_OPTS[N].
instantiate() {
	local map=$BATS_FILE_TMPDIR/maps/$2.${3:-none} g
	if [ ! -s "$map" ]; then
		mkdir -p "$BATS_FILE_TMPDIR/maps"
		write_map "$2" "$3" >"$map.$$" && mv "$map.$$" "$map" || return 1
	fi
	# Every instantiation of one case writes the same set of files.
	[ -d .case ] || mkdir .case
	awk -v outdir=.case -v mapfile="$map" -f "$CASETOOL" "$CASES/$1.case" ||
		fail "cannot instantiate case $1" || return 1
	CASE_ARGS=(list)
	[ -f .case/args ] && read -r -a CASE_ARGS <.case/args
	CASE_STDIN=/dev/null
	if [ -f .case/stdin ]; then
		local s
		read -r s <.case/stdin
		case $s in
		none) ;;
		list) CASE_STDIN=list ;;
		"file "*) CASE_STDIN=${s#file } ;;
		*) fail "bad stdin spec: $s"; return 1 ;;
		esac
	fi
	CASE_GROUPS=()
	GROUP_OPTS=()
	for g in .case/exp*.rc; do
		[ -e "$g" ] || { fail "case $1 has no expectation group"; return 1; }
		g=${g#.case/exp}
		g=${g%.rc}
		CASE_GROUPS+=("$g")
		GROUP_OPTS[$g]=
		[ -s ".case/exp$g.opts" ] && read -r "GROUP_OPTS[$g]" <".case/exp$g.opts"
	done
	return 0
}

# run_case_cmd PREFIX OPTS CMD...: runs CMD -c OPTS with the case's operands
# and standard input, captured under PREFIX.
run_case_cmd() {
	local p=$1 o
	read -r -a o <<<"$2"
	shift 2
	capture "$p" "$@" -c "${o[@]}" "${CASE_ARGS[@]}" <"$CASE_STDIN"
}

# GNU 9.1 escapes a name in a status line only when it holds LF; fhsum, as
# GNU 9.4 to 9.10, also when it holds a backslash or CR.  Turn md5sum 9.1's
# check-mode stdout into fhsum's.
gnu94_escape() {
	awk '
	{
		if (substr($0, 1, 1) != "\\" && match($0, /: (OK|FAILED|FAILED open or read)$/)) {
			name = substr($0, 1, RSTART - 1); rest = substr($0, RSTART)
			if (index(name, "\\") || index(name, "\r")) {
				e = ""
				for (i = 1; i <= length(name); i++) {
					ch = substr(name, i, 1)
					if (ch == "\\") e = e "\\\\"
					else if (ch == "\r") e = e "\\r"
					else e = e ch
				}
				$0 = "\\" e rest
			}
		}
		print
	}'
}

# md5sum run of the instantiated case, turned into what fhsum prints.
run_case_md5sum() { # PREFIX OPTS
	local x=''
	run_case_cmd "$1" "$2" md5sum
	IFS= read -r -d '' x <"$1.out" || :
	if [[ $x == *\\* || $x == *$'\r'* ]]; then
		gnu94_escape <"$1.out" >"$1.out.t" && mv "$1.out.t" "$1.out"
	fi
}

VARIANTS=("" "--quiet" "--status" "--strict" "-w" "--ignore-missing" "--quiet --strict -w --ignore-missing")
variants() {
	if [ "${FHSUM_QUICK:-0}" = 1 ]; then VARIANTS=("" "-w"); fi
}

# fhsum_case_run MODEOPTS OPTS: runs fhsum -c MODEOPTS OPTS on the case once
# per distinct option string (within one instantiation); sets P to the
# capture prefix.
declare -gA RUN_CACHE
fhsum_case_run() {
	local key="$1|$2"
	P=${RUN_CACHE[$key]-}
	if [ -z "$P" ]; then
		P=run${#RUN_CACHE[@]}
		run_case_cmd "$P" "$1${1:+ }$2" fhsum
		RUN_CACHE[$key]=$P
	fi
}
new_instance() { RUN_CACHE=(); }

# ref_for_msg SRC DST MSG: copy of capture SRC (md5sum on the MD5 table) with
# the algorithm of "improperly formatted X checksum line" set to MSG (none if
# empty).  No NULs in check-mode output, so bash strings do.
ref_for_msg() {
	local x='' s
	for s in out rc err; do
		IFS= read -r -d '' x <"$1.$s" || :
		[ $s = err ] &&
			x=${x//"improperly formatted MD5 checksum line"/"improperly formatted ${3}${3:+ }checksum line"}
		printf '%s' "$x" >"$2.$s"
	done
}

# check_case_md5 CASE: the case's written expectations hold for md5sum (table
# sanity) and fhsum -a md5; every option variant matches md5sum; and the
# md5sum-named link matches md5sum.
check_case_md5() {
	local c=$1 v bad=0 g P
	variants
	instantiate "$c" md5 MD5 || return 1
	new_instance
	for g in "${CASE_GROUPS[@]}"; do
		# The table itself must agree with the oracle.
		run_case_md5sum ref "${GROUP_OPTS[$g]}"
		compare_runs "TABLE ERROR (md5sum disagrees with $c.case) -c ${GROUP_OPTS[$g]}" ".case/exp$g" ref || bad=1
		fhsum_case_run "-a md5" "${GROUP_OPTS[$g]}"
		compare_runs "$c: fhsum -a md5 -c ${GROUP_OPTS[$g]} ${CASE_ARGS[*]} (written expectation)" ".case/exp$g" "$P" || bad=1
	done
	for v in "${VARIANTS[@]}"; do
		run_case_md5sum ref "$v"
		fhsum_case_run "-a md5" "$v"
		compare_runs "$c: md5sum -c $v ${CASE_ARGS[*]}" ref "$P" || bad=1
	done
	run_case_md5sum ref ""
	run_case_cmd got "" fhsum_as md5sum
	compare_runs "$c: fhsum as md5sum -c ${CASE_ARGS[*]}" ref got || bad=1
	return $bad
}

# check_case_md5_oracle CASE: every option variant matches md5sum (no written
# expectations: for runs in another locale, where diagnostics quote names
# differently).
check_case_md5_oracle() {
	local c=$1 v bad=0
	variants
	instantiate "$c" md5 MD5 || return 1
	new_instance
	for v in "${VARIANTS[@]}"; do
		run_case_md5sum ref "$v"
		fhsum_case_run "-a md5" "$v"
		compare_runs "$c (LC_ALL=$LC_ALL): md5sum -c $v ${CASE_ARGS[*]}" ref "$P" || bad=1
	done
	return $bad
}

# check_case_sha3 CASE: the same table with SHA-3 / SHAKE digests from
# tests/vectors.  The expected output of each option variant is md5sum's
# output for the same table with MD5 digests (the line structure is the
# same), with the algorithm in the `improperly formatted' message replaced.
# Run modes (option sweep: all = every variant, some = '' and -w):
#   sha3-256: -a sha3-256 (all), no -a (some), -a sha3 (some)
#   sha3-224, sha3-384, sha3-512: -a sha3-N (some), no -a (some)
#   shake128: -a shake128 (all); shake256: -a shake256 (some)
#   turboshake128, turboshake256, kt256: -a NAME (some); kt128 -a kt128 (all)
# FHSUM_QUICK=1: variants '' and -w only, and SHA3_MODES_QUICK.
SHA3_MODES=(
	"sha3-256|-a sha3-256|SHA3-256|all"
	"sha3-256||-|some"
	"sha3-256|-a sha3|SHA3|some"
	"sha3-224|-a sha3-224|SHA3-224|some"
	"sha3-224||-|some"
	"sha3-384|-a sha3-384|SHA3-384|some"
	"sha3-384||-|some"
	"sha3-512|-a sha3-512|SHA3-512|some"
	"sha3-512||-|some"
	"shake128|-a shake128|SHAKE128|all"
	"shake256|-a shake256|SHAKE256|some"
	"turboshake128|-a turboshake128|TurboSHAKE128|some"
	"turboshake256|-a turboshake256|TurboSHAKE256|some"
	"kt128|-a kt128|KT128|all"
	"kt256|-a kt256|KT256|some"
)
SHA3_MODES_QUICK=(
	"sha3-256|-a sha3-256|SHA3-256|all"
	"sha3-256||-|some"
	"sha3-256|-a sha3|SHA3|some"
	"sha3-512|-a sha3-512|SHA3-512|some"
	"shake128|-a shake128|SHAKE128|all"
	"shake256|-a shake256|SHAKE256|some"
	"kt128|-a kt128|KT128|some"
)
check_case_sha3() {
	local c=$1 v bad=0 i algo mode msg opts sweep e g P
	local modes=("${SHA3_MODES[@]}")
	variants
	[ "${FHSUM_QUICK:-0}" = 1 ] && modes=("${SHA3_MODES_QUICK[@]}")
	# References from the oracle, once per variant.
	rm -f ref*
	instantiate "$c" md5 MD5 || return 1
	for i in "${!VARIANTS[@]}"; do
		run_case_md5sum "ref$i" "${VARIANTS[$i]}"
	done
	for mode in "${modes[@]}"; do
		IFS='|' read -r algo opts msg sweep <<<"$mode"
		[ "$msg" = - ] && msg=
		instantiate "$c" "$algo" "$msg" || return 1
		new_instance
		for g in "${CASE_GROUPS[@]}"; do
			fhsum_case_run "$opts" "${GROUP_OPTS[$g]}"
			compare_runs "$c $algo: fhsum -c $opts ${GROUP_OPTS[$g]} ${CASE_ARGS[*]} (written expectation)" ".case/exp$g" "$P" ||
				bad=1
		done
		for i in "${!VARIANTS[@]}"; do
			v=${VARIANTS[$i]}
			if [ "$sweep" = some ] && [ -n "$v" ] && [ "$v" != -w ]; then continue; fi
			e=ref$i-${msg:-none}
			[ -e "$e.rc" ] || ref_for_msg "ref$i" "$e" "$msg"
			fhsum_case_run "$opts" "$v"
			compare_runs "$c $algo: fhsum -c $opts $v ${CASE_ARGS[*]} (vs md5sum on the MD5 table)" "$e" "$P" ||
				bad=1
		done
	done
	return $bad
}

# ---------------------------------------------------------------------------
# Inputs for the engine suites.

# A tree of 3,000 inputs of mixed sizes (empty to 3 MiB, so both the read
# and the mapped path run), some missing and some unreadable (directories:
# the tests run as root, for whom mode bits do not stop a read).
make_mixed() {
	mkdir -p mixed
	python3 - <<'PY'
import os, random
rnd = random.Random(7)
names = []
for i in range(3000):
    name = "mixed/f%04d" % i
    r = rnd.random()
    if r < 0.02:
        names.append("mixed/missing%04d" % i)
        continue
    if r < 0.03:
        os.mkdir("mixed/dir%04d" % i)
        names.append("mixed/dir%04d" % i)
        continue
    size = rnd.choice([0, 1, 55, 64, 1000, 4096, 70000, 300000]) if r < 0.995 else 3 << 20
    with open(name, "wb") as f:
        f.write(bytes(rnd.getrandbits(8) for _ in range(min(size, 4096))) * (size // 4096 + 1))
        f.truncate(size)
    names.append(name)
with open("names", "w") as f:
    f.write("\n".join(names) + "\n")
PY
}

# oracle ARGS...: tests/cli/audit_oracle.py, the model of --audit, --update
# and --json that audit.bats and json.bats compare fhsum with.
ORACLE=$BATS_TEST_DIRNAME/audit_oracle.py
oracle() { python3 "$ORACLE" "$@"; }

# timed_test: the first line of a test that races the clock, whose name
# ends in "(timed)": skipped in quick mode, and in the full suite's pass
# of files side by side (FHSUM_TIMED=later), which run.sh follows with a
# pass of these tests alone.
timed_test() {
	[ "${FHSUM_QUICK:-0}" = 1 ] && skip "timing-based: full suite only"
	[ "${FHSUM_TIMED:-}" = later ] && skip "timing-based: run alone after the others"
	return 0
}

# as_nobody CMD...: CMD as an unprivileged user (root reads any directory).
as_nobody() {
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || return 77
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		"$@"
	fi
}
