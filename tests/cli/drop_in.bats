#!/usr/bin/env bats
# The options of newer GNU cksum and of b3sum: --base64 (and -c reading
# base64), --raw, --untagged, --no-names, and the messages for their
# conflicts.  Expected digests come from tests/vectors, turned into base64
# and bytes by Python's base64 and bytes.fromhex, never by fhsum; the
# messages are cksum 9.x's words (its src/cksum.c), written out here since
# the md5sum 9.1 installed as the oracle has none of these options.

load helper

ALGOS="md5 sha3-224 sha3-256 sha3-384 sha3-512 shake128 shake256 turboshake128 turboshake256 kt128 kt256"
XOFS="shake128 shake256 turboshake128 turboshake256 kt128 kt256"
# CI runs the CLI suites once per kernel with FHSUM_QUICK=1: the options do
# not depend on the kernel, so those runs take one algorithm of each kind.
if [ "${FHSUM_QUICK:-0}" = 1 ]; then
	ALGOS="md5 sha3-384 shake128 kt256"
	XOFS="shake128 kt256"
fi
LENS="0 1 3 136 168 1000"

# Every expected digest of this file, in hex and base64, from the vector
# files through Python's base64, in one process: "len ALGO N HEX B64" and
# "xof ALGO MSGLEN BITS HEX B64".
setup_file() {
	python3 - "$FHSUM_VECTORS" "$ALGOS" "$XOFS" "$LENS" >"$BATS_FILE_TMPDIR/digests" <<'PY'
import base64, os, sys
vdir, algos, xofs, lens = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4].split()
def b64(h):
    return base64.b64encode(bytes.fromhex(h)).decode()
def rows(path):
    with open(os.path.join(vdir, path)) as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]
for a in algos:
    table = {r[0]: r[1] for r in rows(a + ".len")}
    for n in lens:
        print("len", a, n, table[n], b64(table[n]))
for a in xofs:
    for m, bits, h in rows(a + ".xof"):
        if m in ("0", "1", "1000") and bits in ("8", "256", "512", "1344"):
            print("xof", a, m, bits, h, b64(h))
PY
}

setup() {
	common_setup
	local n kind a m b h e
	for n in $LENS; do pattern "$n" >"p$n"; done
	declare -gA HEX=() B64=()
	while read -r kind a m b h e; do
		if [ "$kind" = len ]; then HEX[$a,$m]=$b; B64[$a,$m]=$h
		else HEX[$a,$m,$b]=$h; B64[$a,$m,$b]=$e; fi
	done <"$BATS_FILE_TMPDIR/digests"
}

# b64 HEX...: each HEX's bytes in base64, a line each (Python's encoder),
# for the few digests outside the table.
b64() {
	python3 -c 'import base64, sys
for h in sys.argv[1:]:
    print(base64.b64encode(bytes.fromhex(h)).decode())' "$@"
}

# hex2bin HEX: the bytes HEX spells (bash's printf, no other tool).
hex2bin() {
	local h=$1 f=
	while [ -n "$h" ]; do f+="\\x${h:0:2}"; h=${h:2}; done
	printf "$f"
}

# want_b64 ALGO FORMAT: want.* for every pattern file, the digests of the
# vectors in base64; FORMAT plain, binary, tag or bare (--no-names).
want_b64() {
	local algo=$1 fmt=$2 n tag enc
	tag=$(tag_of "$algo")
	: >want.out
	for n in $LENS; do
		enc=${B64[$algo,$n]}
		[ -n "$enc" ] || { fail "no digest of $algo $n"; return 1; }
		case $fmt in
		plain) printf '%s  p%s\n' "$enc" "$n" ;;
		binary) printf '%s *p%s\n' "$enc" "$n" ;;
		tag) printf '%s (p%s) = %s\n' "$tag" "$n" "$enc" ;;
		bare) printf '%s\n' "$enc" ;;
		esac >>want.out
	done
	echo 0 >want.rc
	: >want.err
}

@test "--base64: untagged, binary and tagged lines of every algorithm are the vectors in base64" {
	local algo files bad=0
	mapfile -t files < <(pfiles)
	for algo in $ALGOS; do
		want_b64 "$algo" plain
		capture got fhsum -a "$algo" --base64 "${files[@]}"
		compare_runs "-a $algo --base64" want got || bad=1
		want_b64 "$algo" binary
		capture got fhsum -a "$algo" --base64 -b "${files[@]}"
		compare_runs "-a $algo --base64 -b" want got || bad=1
		want_b64 "$algo" tag
		capture got fhsum -a "$algo" --base64 --tag "${files[@]}"
		compare_runs "-a $algo --base64 --tag" want got || bad=1
	done
	return $bad
}

@test "--base64 with -l: SHAKE, TurboSHAKE and KT digests of 1 to 168 bytes" {
	local algo b m bad=0
	for m in 0 1 1000; do pattern "$m" >"m$m"; done
	for algo in $XOFS; do
		for b in 8 256 512 1344; do
			: >want.out
			for m in 0 1 1000; do
				[ -n "${B64[$algo,$m,$b]}" ] || { fail "no xof $algo $m $b"; return 1; }
				printf '%s  m%s\n' "${B64[$algo,$m,$b]}" "$m" >>want.out
			done
			echo 0 >want.rc; : >want.err
			capture got fhsum -a "$algo" -l "$b" --base64 m0 m1 m1000
			compare_runs "-a $algo -l $b --base64" want got || bad=1
		done
	done
	return $bad
}

@test "-c reads base64 lists: tagged and untagged, with and without -a, every algorithm" {
	local algo bad=0 fixed
	for algo in $ALGOS; do
		case $algo in md5|sha3-*) fixed=1 ;; *) fixed=0 ;; esac
		want_b64 "$algo" tag
		mv want.out tagged
		want_b64 "$algo" plain
		mv want.out untagged
		: >want.out
		for n in $LENS; do printf 'p%s: OK\n' "$n" >>want.out; done
		capture got fhsum -c tagged
		compare_runs "-c (tagged base64, $algo, no -a)" want got || bad=1
		capture got fhsum -a "$algo" -c tagged
		compare_runs "-a $algo -c (tagged base64)" want got || bad=1
		capture got fhsum -a "$algo" -c untagged
		compare_runs "-a $algo -c (untagged base64)" want got || bad=1
		if [ $fixed = 1 ]; then
			# The length says the algorithm: 24 characters MD5,
			# 40/44/64/88 SHA3-224/256/384/512.
			capture got fhsum -c untagged
			compare_runs "-c (untagged base64, $algo, no -a)" want got || bad=1
		fi
		case $algo in sha3-*)
			capture got fhsum -a sha3 -c untagged
			compare_runs "-a sha3 -c (untagged base64, $algo)" want got || bad=1
		esac
	done
	return $bad
}

@test "-c of base64 lines: FAILED for a changed file, GNU's warnings for bad lines" {
	local h
	h=${HEX[md5,1000]}
	pattern 1000 >f
	pattern 1000 >g
	printf 'x' >>g
	local enc=${B64[md5,1000]}
	{
		printf '%s  f\n' "$enc"
		printf 'MD5 (g) = %s\n' "$enc"
		# Padding taken away, a character too many, a bad character.
		printf '%s  f\n' "${enc%=}"
		printf '%s  f\n' "A$enc"
		printf 'MD5 (f) = %s\n' "*${enc:1}"
	} >list
	capture got fhsum -w -c list
	expect "-c base64 with bad lines" 1 "f: OK
g: FAILED" "PROG: list: 3: improperly formatted checksum line
PROG: list: 4: improperly formatted checksum line
PROG: list: 5: improperly formatted checksum line
PROG: WARNING: 3 lines are improperly formatted
PROG: WARNING: 1 computed checksum did NOT match"
	capture got fhsum -a md5 --strict --quiet -c list
	expect "-c base64 --strict --quiet" 1 "g: FAILED" "PROG: WARNING: 3 lines are improperly formatted
PROG: WARNING: 1 computed checksum did NOT match"
	# Only the padding's removal left: no proper line at all.
	sed -n 3p list >onlybad
	capture got fhsum -c onlybad
	expect "-c of an unpadded base64 line" 1 "" "PROG: onlybad: no properly formatted checksum lines found"
}

@test "-c base64: the same digest with other bits in the last character's spare ones FAILS, as cksum compares the text" {
	local h enc last alt
	local a=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/ i
	h=$(vec md5 0)
	: >e
	enc=$(b64 "$h")                  # 1B2M2Y8AsgTpgAmY7PhCfg==
	last=${enc:21:1}                 # 'g': its low 4 bits are padding
	i=${a%%"$last"*}
	alt=${a:$(( ${#i} ^ 1 )):1}      # the same 2 high bits, a spare one set
	printf '%s  e\n' "${enc:0:21}$alt==" >list
	capture got fhsum -c list
	expect "-c non-canonical base64" 1 "e: FAILED" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "-c: one list mixing hex and base64 lines of several algorithms" {
	local n bad=0 enc
	: >list; : >want.out
	mapfile -t enc < <(b64 "$(vec sha3-256 0)" "$(vec sha3-384 0)" \
		"$(vec sha3-256 136)" "$(vec sha3-384 136)")
	for n in 0 136; do
		printf '%s  p%s\n' "$(vec md5 "$n")" "$n" >>list
		printf '%s  p%s\n' "${enc[0]}" "$n" >>list
		printf 'SHA3-384 (p%s) = %s\n' "$n" "${enc[1]}" >>list
		printf 'KT128 (p%s) = %s\n' "$n" "$(vec kt128 "$n")" >>list
		printf 'p%s: OK\np%s: OK\np%s: OK\np%s: OK\n' "$n" "$n" "$n" "$n" >>want.out
		enc=("${enc[@]:2}")
	done
	echo 0 >want.rc; : >want.err
	capture got fhsum -c list
	compare_runs "-c mixed list" want got
}

@test "-c: 64 hex digits are SHA3-256 in hex, 64 other base64 characters SHA3-384" {
	local h384 enc
	h384=$(vec sha3-384 3)
	enc=$(b64 "$h384")
	[ ${#enc} = 64 ] || fail "SHA3-384 in base64 is ${#enc} characters"
	printf '%s  p3\n%s  p1\n' "$enc" "$(vec sha3-256 1)" >list
	capture got fhsum -c list
	expect "64-character digests" 0 "p3: OK
p1: OK"
}

@test "generation and -c round trip in base64 for every algorithm and -l" {
	local algo bad=0
	for algo in $ALGOS; do
		fhsum -a "$algo" --base64 p0 p1 p1000 >list || { bad=1; continue; }
		capture got fhsum -a "$algo" -c list
		expect "round trip $algo" 0 "p0: OK
p1: OK
p1000: OK" || bad=1
		fhsum -a "$algo" --base64 --tag p0 p1 p1000 >list || { bad=1; continue; }
		capture got fhsum -c list
		expect "round trip $algo --tag" 0 "p0: OK
p1: OK
p1000: OK" || bad=1
	done
	for algo in shake128 kt256; do
		fhsum -a "$algo" -l 8 --base64 --tag p0 p1 >list
		capture got fhsum -c list
		expect "round trip $algo -l 8 --tag" 0 "p0: OK
p1: OK" || bad=1
		fhsum -a "$algo" -l 1344 --base64 p0 p1 >list
		capture got fhsum -a "$algo" -l 1344 -c list
		expect "round trip $algo -l 1344" 0 "p0: OK
p1: OK" || bad=1
	done
	return $bad
}

@test "--raw: the digest's bytes alone, every algorithm and -l" {
	local algo bad=0
	for algo in $ALGOS; do
		hex2bin "${HEX[$algo,1000]}" >want.bin
		fhsum -a "$algo" --raw p1000 >got.bin || bad=1
		cmp -s want.bin got.bin || { fail "--raw -a $algo: $(od -An -tx1 got.bin | head -2)"; bad=1; }
		# From standard input, and with --tag or -z: still the bytes.
		fhsum -a "$algo" --raw --tag -z <p1000 >got.bin || bad=1
		cmp -s want.bin got.bin || { fail "--raw --tag -z -a $algo from stdin differs"; bad=1; }
	done
	hex2bin "$(xof shake256 1000 1344)" >want.bin
	fhsum -a shake256 -l 1344 --raw p1000 >got.bin
	cmp -s want.bin got.bin || { fail "--raw -l 1344 differs"; bad=1; }
	return $bad
}

@test "--raw refuses a second input, before writing anything, as cksum" {
	capture got fhsum --raw p0 p1
	expect "--raw with two files" 1 "" "PROG: the --raw option is not supported with multiple files"
	capture got fhsum --raw -c p0 p1
	expect "--raw -c with two lists" 1 "" "PROG: the --raw option is not supported with multiple files"
	mkdir d one
	cp p0 p1 d/
	cp p1 one/
	capture got fhsum -a md5 --raw -r d
	expect "--raw -r with two files" 1 "" "PROG: the --raw option is not supported with multiple files"
	printf 'p0\np1\n' >names
	capture got fhsum -a md5 --raw --files-from=names
	expect "--raw --files-from with two names" 1 "" "PROG: the --raw option is not supported with multiple files"
	# One file under -r is one input.
	hex2bin "$(vec md5 1)" >want.bin
	fhsum -a md5 --raw -r one >got.bin
	cmp -s want.bin got.bin || fail "--raw -r of one file differs"
	# An unreadable file: its error, no bytes.
	capture got fhsum --raw missing
	expect "--raw of a missing file" 1 "" "PROG: missing: No such file or directory"
}

@test "conflicting options get cksum's messages" {
	capture got fhsum --base64 --raw p0
	expect "--base64 --raw" 1 "" "PROG: --base64 and --raw are mutually exclusive
Try 'PROG --help' for more information."
	capture got fhsum --raw --base64 -c p0
	expect "--raw --base64 -c" 1 "" "PROG: --base64 and --raw are mutually exclusive
Try 'PROG --help' for more information."
	capture got fhsum --no-names -c p0
	expect "--no-names -c" 1 "" "PROG: the --no-names option is meaningless when verifying checksums
Try 'PROG --help' for more information."
	capture got fhsum --tag --no-names p0
	expect "--tag --no-names" 1 "" "PROG: --tag and --no-names are mutually exclusive
Try 'PROG --help' for more information."
	capture got fhsum --tag -c p0
	expect "--tag -c" 1 "" "PROG: the --tag option is meaningless when verifying checksums
Try 'PROG --help' for more information."
	capture got fhsum -t --tag p0
	expect "-t --tag" 1 "" "PROG: --tag does not support --text mode
Try 'PROG --help' for more information."
}

@test "-c takes --base64 and --raw and ignores them, as cksum does" {
	fhsum -a md5 p0 p1 >list
	capture want fhsum -c list
	capture got fhsum --base64 -c list
	compare_runs "--base64 -c" want got
	capture got fhsum --raw -c list
	compare_runs "--raw -c" want got
}

@test "--untagged undoes an earlier --tag, keeps -b, and is taken by -c" {
	local h
	h=$(vec md5 1)
	capture got fhsum -a md5 --tag --untagged p1
	expect "--tag --untagged" 0 "$h  p1"
	capture got fhsum -a md5 --untagged --tag p1
	expect "--untagged --tag" 0 "MD5 (p1) = $h"
	capture got fhsum -a md5 -b --tag --untagged p1
	expect "-b --tag --untagged" 0 "$h *p1"
	capture got fhsum -a md5 --tag -t --untagged p1
	expect "--tag -t --untagged" 0 "$h  p1"
	printf '%s  p1\n' "$h" >list
	capture got fhsum --tag --untagged -c list
	expect "--tag --untagged -c" 0 "p1: OK"
	capture got fhsum --untagged -c list
	expect "--untagged -c" 0 "p1: OK"
}

@test "--no-names: the digests alone, a line each, in hex or base64, -z too" {
	local algo hexes=() n
	for n in $LENS; do hexes+=("$(vec sha3-256 "$n")"); done
	# kt128 may be outside the quick table: its own base64 here.
	mapfile -t kt < <(b64 $(for n in $LENS; do vec kt128 "$n"; done))
	: >want.kt
	for n in "${kt[@]}"; do printf '%s\n' "$n" >>want.kt; done
	mapfile -t files < <(pfiles)
	capture got fhsum --no-names "${files[@]}"
	printf '%s\n' "${hexes[@]}" >want.out; echo 0 >want.rc; : >want.err
	compare_runs "--no-names" want got
	cp want.kt want.out
	capture got fhsum -a kt128 --no-names --base64 "${files[@]}"
	compare_runs "--no-names --base64" want got
	capture got fhsum --no-names -z p0 p1
	printf '%s\0%s\0' "${hexes[0]}" "${hexes[1]}" >want.out
	compare_runs "--no-names -z" want got
	# A name that would be escaped: no '\' before a digest with no name.
	cp p1 'a\b'
	capture got fhsum --no-names 'a\b'
	expect "--no-names of an escaped name" 0 "${hexes[1]}"
}

@test "-c: a word of base64 characters before a blank is a digest where its length can be one, as cksum reads it" {
	local h
	h=$(vec md5 1)
	# "SHA9" is four base64 characters and no tag: three bytes, a length
	# SHAKE takes under -a, so the line is a reversed line naming "(p1) =
	# HEX" (cksum -a blake2b reads it so); without -a no algorithm has
	# three bytes, and the line reads as one of a tag fhsum lacks.
	printf 'SHA9 (p1) = %s\n' "$h" >list
	capture got fhsum -a shake128 -c list
	expect "-a shake128, a base64 word" 1 "(p1) = $h: FAILED open or read" \
		"PROG: '(p1) = $h': No such file or directory
PROG: WARNING: 1 listed file could not be read"
	capture got fhsum -c list
	expect "no -a, a base64 word" 1 "" "PROG: list: no checksum lines of a supported algorithm found (1 line uses SHA9)"
}

@test "as md5sum, a tagged line of another algorithm is improper, as GNU md5sum -c counts it" {
	printf 'hello\n' >f
	local sha3 run rc_gnu rc_ours
	sha3=$(python3 -c 'import hashlib; print(hashlib.sha3_256(b"hello\n").hexdigest())') ||
		skip "python3 not available"
	{ md5sum f; printf 'SHA3-256 (f) = %s\n' "$sha3"; } >mixed
	printf 'SHA3-256 (f) = %s\n' "$sha3" >only
	for run in "--strict -c mixed" "-c mixed" "-c only" "--strict -c only"; do
		# shellcheck disable=SC2086
		rc_gnu=0; md5sum $run >gnu.out 2>gnu.err || rc_gnu=$?
		# shellcheck disable=SC2086
		rc_ours=0; fhsum_as md5sum $run >our.out 2>our.err || rc_ours=$?
		[ "$rc_gnu" = "$rc_ours" ] || fail "md5sum $run: exit $rc_ours, GNU $rc_gnu"
		cmp -s gnu.out our.out || fail "md5sum $run: stdout" "$(cat our.out)" "GNU:" "$(cat gnu.out)"
		sed 's/^[^:]*: //' gnu.err >gnu.e; sed 's/^[^:]*: //' our.err >our.e
		cmp -s gnu.e our.e || fail "md5sum $run: stderr" "$(cat our.err)" "GNU:" "$(cat gnu.err)"
	done
	# Under fhsum's own name without -a, tags rule: both lines check.
	capture got fhsum -c mixed
	expect "fhsum -c (tags rule)" 0 "f: OK
f: OK"
}

# same_raw LABEL CMD...: CMD and, through a link of the same name, fhsum,
# run with the same arguments, give the same stdout, stderr (program name
# and all) and exit status, byte for byte.  With TO set, both write their
# standard output there instead, and it is not compared.
same_raw() {
	local label=$1 rc_gnu=0 rc_ours=0
	shift
	: >gnu.out; : >our.out
	"$@" >"${TO:-gnu.out}" 2>gnu.err || rc_gnu=$?
	fhsum_as "$@" >"${TO:-our.out}" 2>our.err || rc_ours=$?
	[ "$rc_gnu" = "$rc_ours" ] && cmp -s gnu.out our.out && cmp -s gnu.err our.err && return
	printf '\n--- %s: exit %s, GNU %s\n' "$label" "$rc_ours" "$rc_gnu" >&2
	diff -u --label GNU --label fhsum <(cat -A gnu.out gnu.err) <(cat -A our.out our.err) >&2
	return 1
}

@test "as md5sum, sha1sum and sha256sum only GNU's options exist: --b is --binary, --i --ignore-missing, --s ambiguous, byte for byte" {
	printf 'hi\n' >f
	local name run bad=0
	local runs=("--b f" "--bi f" "--i f" "--ig -c L" "--i -c L" "--s f" "--st -c L"
		"--sta -c L" "--str -c L" "--t f" "--ta f" "--te f" "--q f" "--w f" "--z f"
		"--c L" "--ch L" "--c --s L" "--c --q L" "--c --w L" "--ta --t f" "--b --ta f"
		"--tag=1 f" "--zer=3 f" "--c=x L" "--h=1" "--v=1" "--stat=1 f" "--s=1 f"
		"--r f" "--ra f" "--al f" "--ba f" "--debug f" "--d f" "--u f" "--ex=x f"
		"--recursive f" "--th=2 f" "--l f" "--k f" "--j f" "-a md5 f" "-l 8 f"
		"-r f" "-j1 f" "-bz f" "--binary f" "--x f" "-- --b")
	for name in md5sum sha1sum sha256sum; do
		"$name" f >L
		for run in "${runs[@]}"; do
			# shellcheck disable=SC2086
			same_raw "$name $run" "$name" $run || bad=1
		done
	done
	return $bad
}

@test "as md5sum, -c and generation to a full device: every message before 'write error', and it, as GNU md5sum's" {
	[ -w /dev/full ] || skip "no /dev/full"
	printf 'hi\n' >f
	md5sum f >ok
	sed 's/ f$/ x/' ok >missing
	{ cat ok missing ok; echo junk; } >mixed
	local run bad=0
	for run in "-c missing" "-c mixed" "-c --ignore-missing mixed" "-c --quiet mixed" \
		"-c --status mixed" "-c -w mixed" "-c --strict mixed" "-c ok" "-c ok missing" \
		"f x f" "x" "f" "-z f" "-z f x" "-z x f" "--tag f x"; do
		# shellcheck disable=SC2086
		TO=/dev/full same_raw "md5sum $run >/dev/full" md5sum $run || bad=1
	done
	# Under its own name fhsum says why, as GNU 9.10 does, after the
	# same messages.
	local rc=0
	fhsum -a md5 -c missing >/dev/full 2>got.err.raw || rc=$?
	echo "$rc" >got.rc; : >got.out
	normalise_err <got.err.raw >got.err
	expect "fhsum -a md5 -c missing >/dev/full" 1 "" "PROG: x: No such file or directory
PROG: WARNING: 1 listed file could not be read
PROG: write error: No space left on device" || bad=1
	return $bad
}

@test "--help under GNU names is GNU 9.1's, column for column, but for its last paragraph" {
	local name bad=0
	for name in md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum; do
		command -v "$name" >/dev/null || continue
		"$name" --help | head -n -4 >gnu.out
		fhsum_as "$name" --help | head -n -3 >our.out
		cmp -s gnu.out our.out && continue
		diff -u --label GNU --label fhsum gnu.out our.out >&2
		bad=1
	done
	return $bad
}
