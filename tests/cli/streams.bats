#!/usr/bin/env bats
# Lists and standard streams at their limits: a list line longer than any
# valid line is improperly formatted and is read past in flat memory (an
# endless list too); closed standard input, output and error give GNU
# md5sum's messages and exit status.  Expected output comes from md5sum or
# is written here.

load helper

setup() {
	common_setup
}

# A line of N bytes of 'a' and its newline.
a_line() { head -c "$1" /dev/zero | tr '\0' a; echo; }

# Skips a test that measures fhsum's memory where the figure would be the
# emulator's or a sanitizer's.
plain_process() {
	[ -z "${FHSUM_WRAPPER-}" ] || skip "measures the native process, not an emulator"
	[ "${FHSUM_SANITIZE:-none}" = none ] || skip "measures an uninstrumented process"
}

# Peak resident set of a finished command, in KiB, from GNU time.
peak_kib() { # OUT CMD...
	local out=$1
	shift
	/usr/bin/time -f '%M' -o peak.kib "$@" >"$out.out" 2>"$out.err" || :
	tail -n 1 peak.kib
}

@test "streams: a list line of 1 MB is improperly formatted like any bad line, as md5sum says; the lines after it still check" {
	echo hello >f
	md5sum f >good
	{ cat good; a_line 1000000; echo garbage; cat good; } >list
	# A second list ends in a long line without its newline.
	{ cat good; a_line 1000000 | tr -d '\n'; } >list2
	local v bad=0
	for v in "" -w --strict "--strict -w" --status "--status --strict" --quiet; do
		# shellcheck disable=SC2086
		same_as_md5sum -c $v list list2 || bad=1
	done
	return $bad
}

@test "streams: a valid digest before a name of 300 kB is improperly formatted, with its line number under -w, and counts for --strict" {
	echo hello >f
	local h
	h=$(md5sum <f) && h=${h%% *}
	{ echo "$h  f"; echo "$h  $(head -c 300000 /dev/zero | tr '\0' n)"; echo "nonsense"; echo "$h  f"; } >list
	capture got fhsum -a md5 -c -w list
	expect "-c -w" 0 "f: OK
f: OK" "PROG: list: 2: improperly formatted MD5 checksum line
PROG: list: 3: improperly formatted MD5 checksum line
PROG: WARNING: 2 lines are improperly formatted" || return 1
	capture got fhsum -c --strict list
	expect "-c --strict" 1 "f: OK
f: OK" "PROG: WARNING: 2 lines are improperly formatted"
}

@test "streams: the longest valid line (a 2^20-bit SHAKE128 digest, a tagged name of 4000 escaped bytes, CRLF) still checks" {
	command -v python3 >/dev/null || skip "python3 not available"
	# A path of 20 directories of 200 backslashes and a file: 4,022
	# bytes, each backslash escaped as two in the list.
	local comp d='' i
	comp=$(head -c 200 /dev/zero | tr '\0' '\\')
	for i in $(seq 20); do d=$d$comp/; done
	mkdir -p "$d"
	echo hello >"$d/f"
	python3 - "$d/f" >list <<'PY'
import hashlib, sys
name = sys.argv[1]
digest = hashlib.shake_128(open(name, "rb").read()).hexdigest(1 << 17)
esc = name.replace("\\", "\\\\")
sys.stdout.buffer.write(("\\SHAKE128-1048576 (%s) = %s\r\n" % (esc, digest)).encode())
PY
	[ "$(wc -c <list)" -gt 270000 ] || fail "list line only $(wc -c <list) bytes"
	capture got fhsum -c -w --strict list
	[ "$(cat got.rc)" = 0 ] && [ ! -s got.err ] && grep -q ': OK$' got.out ||
		fail "rc $(cat got.rc), stdout $(head -c 100 got.out), stderr $(cat got.err)"
}

@test "streams: a list of one 100 MB line is improperly formatted in under 32 MiB of memory" {
	plain_process
	[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) not installed"
	a_line 100000000 >list
	local kib
	kib=$(peak_kib run "$FHSUM" -c -w list)
	normalise_err <run.err >run.err.n
	[ "$(cat run.err.n)" = "PROG: list: 1: improperly formatted checksum line
PROG: list: no properly formatted checksum lines found" ] || fail "stderr: $(cat run.err)"
	[ "$kib" -lt 32768 ] || fail "peak resident set $kib KiB"
}

@test "streams: a 100 MB name in --files0-from is too long in under 32 MiB of memory; the names around it still hash" {
	plain_process
	[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) not installed"
	printf 'a' >a; printf 'b' >b
	{ printf 'a\0'; head -c 100000000 /dev/zero | tr '\0' n; printf '\0b\0'; } >list0
	local kib
	kib=$(peak_kib run "$FHSUM" -a md5 --files0-from=list0)
	normalise_err <run.err >run.err.n
	# Where it stands, unquoted, then the name's start quoted as cksum
	# quotes an argument.
	[ "$(cat run.err.n)" = "PROG: list0:2: 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn'...: File name too long" ] ||
		fail "stderr: $(head -c 300 run.err)"
	md5sum a b >want.out
	cmp want.out run.out || fail "stdout: $(cat run.out)"
	[ "$kib" -lt 32768 ] || fail "peak resident set $kib KiB"
	# The longest name open(2) takes still reaches it, and its error.
	{ printf 'a\n'; head -c 4096 /dev/zero | tr '\0' n; printf '\n'; } >list
	capture got fhsum -a md5 --files-from=list
	[ "$(cat got.rc)" = 1 ] && grep -qx 'PROG: n*: File name too long' got.err ||
		fail "4096-byte name: rc $(cat got.rc), stderr $(head -c 200 got.err)"
}

@test "streams: 300 valid lines of 2^20-bit SHAKE128 digests check in under 32 MiB of memory" {
	[ -z "${FHSUM_WRAPPER-}" ] || skip "78 MB of list: too slow under an emulator"
	[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) not installed"
	command -v python3 >/dev/null || skip "python3 not available"
	echo hello >f
	python3 - >list <<'PY'
import hashlib, sys
line = "%s  f\n" % hashlib.shake_128(b"hello\n").hexdigest(1 << 17)
sys.stdout.write(line * 300)
PY
	local kib
	kib=$(peak_kib run "$FHSUM" -a shake128 -c list)
	[ "$(grep -c '^f: OK$' run.out)" = 300 ] && [ ! -s run.err ] ||
		fail "stdout $(sort run.out | uniq -c | head -c 200), stderr $(head -c 200 run.err)"
	# A sanitizer's shadow and quarantine would be measured too.
	[ "${FHSUM_SANITIZE:-none}" != none ] || [ "$kib" -lt 32768 ] ||
		fail "peak resident set $kib KiB"
}

@test "streams: -c /dev/zero (one endless line) warns at once under -w and reads on in flat memory" {
	# Not through the function: $! must be the process itself.
	"${FHSUM_WRAP[@]}" "$FHSUM" -c -w /dev/zero >zero.out 2>zero.err &
	local pid=$! i hwm=''
	for i in $(seq 100); do
		[ -s zero.err ] && break
		sleep 0.1
	done
	sleep 2
	if [ -z "${FHSUM_WRAPPER-}" ] && [ "${FHSUM_SANITIZE:-none}" = none ] &&
	   [ -r "/proc/$pid/status" ]; then
		hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
	fi
	kill -0 "$pid" 2>/dev/null || fail "fhsum -c /dev/zero ended: $(cat zero.err)"
	kill "$pid"
	wait "$pid" || :
	normalise_err <zero.err >zero.err.n
	[ "$(cat zero.err.n)" = "PROG: /dev/zero: 1: improperly formatted checksum line" ] ||
		fail "stderr: $(cat zero.err)"
	[ ! -s zero.out ] || fail "stdout: $(cat zero.out)"
	[ -z "$hwm" ] || [ "$hwm" -lt 32768 ] || fail "peak resident set $hwm KiB after 2 s"
}

# Standard streams closed: each command line runs in bash with its
# redirections, for md5sum and for fhsum -a md5.
same_closed() { # ARGS-AND-REDIRECTIONS
	bash -c "md5sum $1" >ref.out 2>ref.err.raw && echo 0 >ref.rc || echo $? >ref.rc
	normalise_err <ref.err.raw >ref.err
	bash -c "$(printf '%q ' "${FHSUM_WRAP[@]}" "$FHSUM")-a md5 $1" >got.out 2>got.err.raw && echo 0 >got.rc || echo $? >got.rc
	normalise_err <got.err.raw >got.err
	compare_runs "md5sum $1" ref got
}

@test "streams: closed standard input, output and error give md5sum's messages and exit status" {
	echo hello >f
	md5sum f >list
	printf '%s  -\n' "$(md5sum <f | cut -c1-32)" >dashlist
	local c bad=0
	for c in '-c <&-' '-c - <&-' '-c --status <&-' '-c --quiet - - <&-' \
		'<&-' '- <&-' 'f - <&-' '- - <&-' '<&- >&-' 'f <&-' \
		'-c list <&-' '-c dashlist <&-' '-c --status dashlist <&-' \
		'f >&-' 'f f >&-' '- <f >&-' '-c list >&-' '-c - <list >&-' \
		'-c --status list >&-' '-c --quiet list >&-' '-c /dev/null >&-' \
		'f 2>&-' 'nosuch 2>&-' '-c list 2>&-' '-c --status <&- 2>&-' \
		'- 0>/dev/null' '-c - 0>/dev/null'; do
		same_closed "$c" || bad=1
	done
	return $bad
}

# names_error WANT ARGS...: fhsum -a md5 ARGS (standard input as given)
# exits 1 with WANT on stderr.  Only the first lines are kept, so that a
# run which repeats its error without end dies of SIGPIPE instead.
names_error() {
	local want=$1 rc
	shift
	timeout 20 "${FHSUM_WRAP[@]}" "$FHSUM" -a md5 "$@" 2>&1 >/dev/null | head -n 5 >err.raw
	rc=${PIPESTATUS[0]}
	normalise_err <err.raw >err
	[ "$rc" = 1 ] && [ "$(cat err)" = "$want" ] || fail "fhsum $*: exit $rc, stderr: $(cat err)"
}

@test "streams: a names file that cannot be read (a directory, a closed standard input) is reported once, exit 1" {
	mkdir d
	names_error "PROG: d: Is a directory" --files0-from=d || return 1
	names_error "PROG: 'standard input': Bad file descriptor
PROG: standard input: Bad file descriptor" --files-from=- <&-
}
