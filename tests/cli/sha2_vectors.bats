#!/usr/bin/env bats
# SHA-1 and SHA-2 on the command line.  Expected digests come from NIST's
# SHAVS answers (tests/vectors/<algo>.short and .long) and from Python
# hashlib; GNU sha1sum .. sha512sum 9.1 are the oracle for every line
# format and message.  None comes from fhsum.

load helper

SHA_ALGOS="sha1 sha224 sha256 sha384 sha512"

# Random file lengths: every length 0..300 (SHA-1/SHA-256's 64-byte block
# ends 55/56 (the last that fits the length field), 63/64, and SHA-384/
# SHA-512's 111/112, 127/128, several times over), then larger block edges.
RAND_LENS="$(seq 0 300) 447 448 1023 1024 1025 4095 4096 4097 65537"

# Written once per file: random files rN in $BATS_FILE_TMPDIR/rand and,
# from hashlib, the lines fhsum must print for them: ALGO.plain ('HEX  rN')
# and ALGO.tag ('SHA256 (rN) = HEX').
setup_file() {
	mkdir -p "$BATS_FILE_TMPDIR/rand"
	RAND_LENS=$RAND_LENS python3 - "$BATS_FILE_TMPDIR/rand" <<'EOF'
import hashlib, os, random, sys
d = sys.argv[1]
rng = random.Random(20250511)
lens = [int(n) for n in os.environ["RAND_LENS"].split()]
data = {n: bytes(rng.getrandbits(8) for _ in range(n)) for n in lens}
for n in lens:
    with open(os.path.join(d, "r%d" % n), "wb") as f:
        f.write(data[n])
for algo in ("sha1", "sha224", "sha256", "sha384", "sha512"):
    with open(os.path.join(d, algo + ".plain"), "w") as plain, \
            open(os.path.join(d, algo + ".tag"), "w") as tag:
        for n in lens:
            h = hashlib.new(algo, data[n]).hexdigest()
            plain.write("%s  r%d\n" % (h, n))
            tag.write("%s (r%d) = %s\n" % (algo.upper(), n, h))
EOF
}

setup() {
	common_setup
	local a
	for a in $SHA_ALGOS; do
		command -v "${a}sum" >/dev/null || fail "GNU ${a}sum (the oracle) is not installed"
	done
	# GNU's sha*sum name themselves in their messages, as do fhsum's links
	# of those names: all become PROG (helper.bash's normalise_err).
	PROG_NAMES=("$FHSUM" fhsum md5sum)
	for a in $SHA_ALGOS; do
		PROG_NAMES+=("$BATS_FILE_TMPDIR/links/${a}sum" "${a}sum")
	done
}

# shavs ALGO KIND LEN: "MSGHEX MD" of the SHAVS message of LEN bytes in
# tests/vectors/ALGO.KIND (short, long); LEN "last" for the file's last.
shavs() {
	local f=$FHSUM_VECTORS/$1.$2 v
	[ -r "$f" ] || fail "vector file missing: $f" || return 1
	v=$(awk -v n="$3" '!/^#/ && (n == "last" || $1 == n) { v = $2 " " $3; if (n != "last") { print v; exit } }
		END { if (n == "last") print v }' "$f")
	[ -n "$v" ] || fail "no SHAVS vector for $1 $2 length $3" || return 1
	printf '%s\n' "$v"
}

# unhex HEX > FILE: the bytes HEX spells ("-": none).
unhex() {
	[ "$1" = - ] && return 0
	printf '%b' "$(sed 's/../\\x&/g' <<<"$1")"
}

# shavs_ok ALGO KIND LENS...: each message written to a file sN, hashed by
# fhsum -a ALGO untagged and with --tag, gives NIST's digest; GNU's
# ALGOsum agrees (a check of the files written here).
shavs_ok() {
	local algo=$1 kind=$2 n v msg md tag names=() bad=0
	shift 2
	tag=$(printf '%s' "$algo" | tr '[:lower:]' '[:upper:]')
	: >want.out
	: >want.tag
	for n in "$@"; do
		v=$(shavs "$algo" "$kind" "$n") || return 1
		msg=${v% *} md=${v#* }
		unhex "$msg" >"s$n"
		names+=("s$n")
		printf '%s  s%s\n' "$md" "$n" >>want.out
		printf '%s (s%s) = %s\n' "$tag" "$n" "$md" >>want.tag
	done
	echo 0 >want.rc
	: >want.err
	capture got "${algo}sum" "${names[@]}"
	compare_runs "GNU ${algo}sum on the $kind messages" want got || bad=1
	capture got fhsum -a "$algo" "${names[@]}"
	compare_runs "fhsum -a $algo ($kind)" want got || bad=1
	mv want.tag want.out
	capture got fhsum -a "$algo" --tag "${names[@]}"
	compare_runs "fhsum -a $algo --tag ($kind)" want got || bad=1
	return $bad
}

# The ShortMsg lengths at the block edges of each algorithm (ShortMsg has
# every length up to one block).
edges() {
	case $1 in
	sha384 | sha512) echo 0 1 3 55 56 63 64 111 112 113 127 128 ;;
	*) echo 0 1 3 55 56 57 63 64 ;;
	esac
}

@test "SHAVS ShortMsg: -a sha1 .. sha512, untagged and --tag, give NIST's digests at the block edges" {
	local a bad=0
	for a in $SHA_ALGOS; do
		# shellcheck disable=SC2046 # edges prints a word list
		shavs_ok "$a" short $(edges "$a") || bad=1
	done
	return $bad
}

@test "SHAVS LongMsg: -a sha1 .. sha512 give NIST's digests for the shortest and the longest message" {
	local a first bad=0
	for a in $SHA_ALGOS; do
		first=$(awk '!/^#/ { print $1; exit }' "$FHSUM_VECTORS/$a.long")
		shavs_ok "$a" long "$first" last || bad=1
	done
	return $bad
}

# rand_ok ALGO: the random files, untagged and --tag, against hashlib's
# lines; GNU's ALGOsum prints those same lines (the format oracle).
rand_ok() {
	local algo=$1 fmt n names=() bad=0
	for n in $RAND_LENS; do names+=("r$n"); done
	cd "$BATS_FILE_TMPDIR/rand" || return 1
	echo 0 >"$BATS_TEST_TMPDIR/want.rc"
	: >"$BATS_TEST_TMPDIR/want.err"
	for fmt in plain tag; do
		cp "$algo.$fmt" "$BATS_TEST_TMPDIR/want.out"
		local opt=()
		[ $fmt = tag ] && opt=(--tag)
		capture "$BATS_TEST_TMPDIR/ref" "${algo}sum" "${opt[@]}" "${names[@]}"
		compare_runs "GNU ${algo}sum ${opt[*]} on the random files" \
			"$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/ref" || bad=1
		capture "$BATS_TEST_TMPDIR/got" fhsum -a "$algo" "${opt[@]}" "${names[@]}"
		compare_runs "fhsum -a $algo ${opt[*]} on the random files" \
			"$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got" || bad=1
	done
	cd "$BATS_TEST_TMPDIR" || return 1
	return $bad
}

@test "hashlib: sha1 on random files of 0..300 bytes and past block edges, untagged and --tag" {
	rand_ok sha1
}

@test "hashlib: sha224 on random files of 0..300 bytes and past block edges, untagged and --tag" {
	rand_ok sha224
}

@test "hashlib: sha256 on random files of 0..300 bytes and past block edges, untagged and --tag" {
	rand_ok sha256
}

@test "hashlib: sha384 on random files of 0..300 bytes and past block edges, untagged and --tag" {
	rand_ok sha384
}

@test "hashlib: sha512 on random files of 0..300 bytes and past block edges, untagged and --tag" {
	rand_ok sha512
}

# same_as_gnu ALGO ARGS...: `fhsum -a ALGO ARGS` and, through a link
# named ALGOsum, `ALGOsum ARGS` give what GNU ALGOsum does: stdout, stderr
# (program name aside) and exit status.  Standard input from $SUM_STDIN
# (default /dev/null).
same_as_gnu() {
	local algo=$1 in=${SUM_STDIN:-/dev/null} bad=0
	shift
	capture ref "${algo}sum" "$@" <"$in"
	capture got fhsum -a "$algo" "$@" <"$in"
	compare_runs "fhsum -a $algo $*" ref got || bad=1
	capture got fhsum_as "${algo}sum" "$@" <"$in"
	compare_runs "${algo}sum (link) $*" ref got || bad=1
	return $bad
}

# Files for the format tests: plain, empty, and names GNU escapes.
make_named_files() {
	printf 'abc' >a
	: >empty
	cp "$BATS_FILE_TMPDIR/rand/r1024" big
	printf 1 >'back\slash'
	printf 2 >"$(printf 'new\nline')"
	printf 3 >"$(printf 'cr\rx')"
	printf 4 >'with space'
}
NAMED=(a empty big 'back\slash' $'new\nline' $'cr\rx' 'with space')

@test "generation lines as GNU sha*sum: untagged, --tag, -b, -t, -z, escaped names" {
	local a bad=0
	make_named_files
	for a in $SHA_ALGOS; do
		same_as_gnu "$a" "${NAMED[@]}" || bad=1
		same_as_gnu "$a" --tag "${NAMED[@]}" || bad=1
		same_as_gnu "$a" -b a 'back\slash' || bad=1
		same_as_gnu "$a" -t a empty || bad=1
		same_as_gnu "$a" -z "${NAMED[@]}" || bad=1
		same_as_gnu "$a" -z --tag "${NAMED[@]}" || bad=1
	done
	return $bad
}

@test "standard input and missing files as GNU sha*sum: '-', no operand, a missing file among others" {
	local a bad=0
	make_named_files
	for a in $SHA_ALGOS; do
		SUM_STDIN=big same_as_gnu "$a" || bad=1
		SUM_STDIN=big same_as_gnu "$a" a - empty || bad=1
		SUM_STDIN=big same_as_gnu "$a" --tag - || bad=1
		same_as_gnu "$a" a nosuch empty || bad=1
	done
	return $bad
}

# A list for ALGO from GNU ALGOsum itself, in FORM (untagged or --tag),
# with every kind of line -c meets: good, wrong digest, missing file,
# improperly formatted.  No name with a backslash or CR: fhsum's status
# lines escape those as GNU 9.4+ does, not as 9.1 (a test of its own below).
write_check_list() {
	local algo=$1 form=$2 opt=() h hw
	[ "$form" = tag ] && opt=(--tag)
	"${algo}sum" "${opt[@]}" a empty big $'new\nline' >list || return 1
	h=$("${algo}sum" a | cut -d' ' -f1)
	hw=$("${algo}sum" 'with space' | cut -d' ' -f1)
	# a wrong digest: that of another file
	"${algo}sum" "${opt[@]}" 'with space' | sed "s/$hw/$h/" >>list
	printf '%s  nosuch\n' "$h" >>list
	printf 'not a checksum line\n' >>list
	printf '%s  a\n' "${h%?}" >>list
}

@test "-c as GNU sha*sum: OK, FAILED, missing and improper lines, untagged and tagged lists" {
	local a form bad=0
	make_named_files
	for a in $SHA_ALGOS; do
		for form in plain tag; do
			write_check_list "$a" "$form" || return 1
			same_as_gnu "$a" -c list || bad=1
		done
	done
	return $bad
}

@test "-c options as GNU sha*sum: --quiet, --status, -w, --strict, --ignore-missing, -z lists" {
	local a opt bad=0
	make_named_files
	for a in $SHA_ALGOS; do
		write_check_list "$a" tag || return 1
		for opt in --quiet --status -w --strict --ignore-missing; do
			same_as_gnu "$a" -c "$opt" list || bad=1
		done
		"${a}sum" a big >good
		same_as_gnu "$a" -c good || bad=1
		same_as_gnu "$a" -c --quiet good || bad=1
		"${a}sum" -z a 'with space' $'new\nline' >zlist
		same_as_gnu "$a" -c -z zlist || bad=1
		SUM_STDIN=good same_as_gnu "$a" -c - || bad=1
	done
	return $bad
}

@test "-c status lines escape a name holding a backslash or CR, as GNU 9.4+ (fhsum(1))" {
	local a bad=0 want
	make_named_files
	want='\back\\slash: OK
\cr\rx: OK
\back\\slash: OK
\cr\rx: OK'
	for a in $SHA_ALGOS; do
		"${a}sum" 'back\slash' $'cr\rx' >list
		"${a}sum" --tag 'back\slash' $'cr\rx' >>list
		capture got fhsum -a "$a" -c list
		expect "fhsum -a $a -c list" 0 "$want" || bad=1
		capture got fhsum_as "${a}sum" -c list
		expect "${a}sum (link) -c list" 0 "$want" || bad=1
	done
	return $bad
}

@test "-c of a list of another SHA size is improperly formatted, as GNU sha*sum" {
	local a b bad=0
	make_named_files
	for a in $SHA_ALGOS; do
		for b in sha1 sha256 sha512; do
			[ "$a" = "$b" ] && continue
			# 64 hex digits are also base64 of 48 bytes, which fhsum
			# reads as a SHA-384 digest (cksum 9.2+), GNU 9.1 does not.
			[ "$a$b" = sha384sha256 ] && continue
			"${b}sum" a >list
			"${b}sum" --tag empty >>list
			same_as_gnu "$a" -c list || bad=1
		done
	done
	return $bad
}

@test "-a sha2 -l 224/256/384/512 is -a sha224 .. sha512" {
	local l bad=0 names=(r0 r55 r56 r64 r112 r128 r300)
	cd "$BATS_FILE_TMPDIR/rand" || return 1
	for l in 224 256 384 512; do
		grep -E ' (r0|r55|r56|r64|r112|r128|r300)$' "sha$l.plain" >"$BATS_TEST_TMPDIR/want.out"
		echo 0 >"$BATS_TEST_TMPDIR/want.rc"
		: >"$BATS_TEST_TMPDIR/want.err"
		capture "$BATS_TEST_TMPDIR/got" fhsum -a sha2 -l "$l" "${names[@]}"
		compare_runs "fhsum -a sha2 -l $l" "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got" || bad=1
	done
	cd "$BATS_TEST_TMPDIR" || return 1
	return $bad
}
