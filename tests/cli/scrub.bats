#!/usr/bin/env bats
# --scrub: the schedule (never verified first, then the oldest stamp, ties
# in list order, within --max-bytes and --max-time), the stamps and what
# keeps them (--update, DAMAGED, CHANGED, MISSING), signals and SIGKILL,
# the lock, the budget's units (against GNU head -c), exclusions, scope
# and --json.  Lists are made by fhsum --meta and checked by GNU md5sum
# (which skips the "#fhsum" comments); a scrub may change nothing in a
# list but its "#fhsum" lines.

load helper

setup() {
	common_setup
}

teardown() {
	if mountpoint -q "$BATS_TEST_TMPDIR/small" 2>/dev/null; then
		umount "$BATS_TEST_TMPDIR/small" 2>/dev/null || umount -l "$BATS_TEST_TMPDIR/small"
	fi
}

# A tree of N files of SIZE bytes (t/f01...), each its own content, and
# its --meta MD5 list L, checked by GNU md5sum.
make_tree() { # N SIZE
	local i
	mkdir t
	for i in $(seq -w 1 "$1"); do
		head -c "$2" /dev/urandom >"t/f$i"
	done
	fhsum -a md5 --meta -r t >L || fail "cannot make the list"
	md5sum --quiet -c L || fail "the list does not check"
	grep -v '^#fhsum' L >L.sums
}

# The OK names of the last capture "got", in order, space-separated.
oks() { sed -n 's/: OK$//p' got.out | tr '\n' ' '; }

# The stamp of NAME in L ("" when it has none).
stamp_of() {
	awk -v n="$1" '/^#fhsum/ { m = $0; next }
		{ if ($0 ~ ("  " n "$")) { if (sub(/.* verified=/, "", m)) { sub(/ .*/, "", m); print m }; exit } m = "" }' L
}

# rc_is LABEL RC: the last capture "got" exited RC.
rc_is() {
	[ "$(cat got.rc)" = "$2" ] || fail "$1: rc $(cat got.rc), want $2" "$(cat got.out got.err)"
}

# A scrub changed no checksum line, and GNU md5sum still checks the list.
sums_kept() {
	grep -v '^#fhsum' L | cmp -s - L.sums || fail "checksum lines changed:" "$(diff L.sums <(grep -v '^#fhsum' L))"
	md5sum --quiet -c L || fail "GNU md5sum fails the scrubbed list"
}

@test "four scrubs at a quarter of the bytes each verify every file exactly once, in list order" {
	make_tree 8 4096
	local all=""
	for run in 1 2 3 4; do
		capture got fhsum --scrub=L --max-bytes=8K
		rc_is "run $run" 0
		local a=$((2 * run - 1)) b=$((2 * run))
		[ "$(oks)" = "t/f$a t/f$b " ] || fail "run $run verified: $(oks)"
		all+=$(oks)
		grep -q "scrub: 2 of 8 files verified" got.err || fail "summary: $(cat got.err)"
	done
	[ "$(grep -c 'verified=' L)" = 8 ] || fail "stamps: $(cat L)"
	for i in 1 2 3 4 5 6 7 8; do
		[ "$(grep -o "t/f$i " <<<"$all" | wc -l)" = 1 ] || fail "t/f$i verified $(grep -o "t/f$i " <<<"$all" | wc -l) times"
	done
	grep -q "verified once in 4 runs" got.err || fail "plan: $(cat got.err)"
	sums_kept
}

@test "never verified first, then the oldest stamp, ties in list order; the crossing file finishes" {
	make_tree 5 1000
	# Stamps set here: f1 300, f2 none, f3 50, f4 100, f5 50.
	awk 'function stamp(m, v) { if (sub(/ algorithm=/, " verified=" v " algorithm=", m)) return m; return m " verified=" v }
		BEGIN { s["t/f1"] = 300; s["t/f3"] = 50; s["t/f4"] = 100; s["t/f5"] = 50 }
		/^#fhsum/ { m = $0; next }
		{ n = $0; sub(/^[0-9a-f]*  /, "", n); if (n in s) m = stamp(m, s[n]); print m; print }' L >L.new
	mv L.new L
	local want=("t/f2" "t/f3" "t/f5" "t/f4" "t/f1")
	for i in 0 1 2 3 4; do
		capture got fhsum --scrub=L --max-bytes=1
		rc_is "run $i" 0
		[ "$(oks)" = "${want[$i]} " ] || fail "run $i verified '$(oks)', want ${want[$i]}"
	done
	# Every stamp is now this run's: later than any set above.
	for i in 1 2 3 4 5; do
		[ "$(stamp_of "t/f$i")" -gt 1000000000 ] || fail "t/f$i: $(stamp_of "t/f$i")"
	done
	# A budget of 1.5 files' bytes: the second file crosses it and is finished.
	capture got fhsum --scrub=L --max-bytes=1500
	[ "$(oks | wc -w)" = 2 ] || fail "crossing file: $(oks)"
	sums_kept
}

@test "a list without metadata gains it; CRLF lines and every checksum line kept byte for byte" {
	mkdir t
	printf 'one\n' >t/a
	printf 'two\n' >t/b
	md5sum t/a t/b | sed 's/$/\r/' >L
	cp L L.sums
	capture got fhsum --scrub=L
	rc_is "scrub" 0
	[ "$(oks)" = "t/a t/b " ] || fail "$(oks)"
	[ "$(tr -d '\r' <L | grep -c '^#fhsum size=4 mtime=[0-9]*\.[0-9]\{9\} verified=[0-9]*\( algorithm=md5\)\?$')" = 2 ] || fail "$(cat -A L)"
	grep -v '^#fhsum' L | cmp -s - L.sums || fail "lines changed: $(cat -A L)"
	# The lines added end as the list's do.
	[ "$(grep -c $'\r$' L)" = "$(wc -l <L)" ] || fail "a line without CR: $(cat -A L)"
}

@test "stamps survive an --update of unchanged files, and go with a re-read one" {
	make_tree 3 2000
	capture got fhsum --scrub=L
	rc_is "scrub" 0
	cp L L.before
	capture got fhsum --update=L -r t
	rc_is "update" 0
	cmp -s L L.before || fail "an unchanged tree changed the list:" "$(diff L.before L)"
	printf 'new content\n' >t/f2
	touch -d '2001-01-01' t/f2
	capture got fhsum --update=L -r t
	[ "$(cat got.rc)" = 4 ] || fail "rc $(cat got.rc)"
	[ -n "$(stamp_of t/f1)" ] && [ -n "$(stamp_of t/f3)" ] || fail "stamps lost: $(cat L)"
	[ -z "$(stamp_of t/f2)" ] || fail "a re-read file kept its stamp: $(cat L)"
	md5sum --quiet -c L || fail "list"
}

@test "DAMAGED and CHANGED keep their stamps, are reported every time and stay first" {
	make_tree 4 3000
	capture got fhsum --scrub=L
	rc_is "first scrub" 0
	local s2 s3
	s2=$(stamp_of t/f2) s3=$(stamp_of t/f3)
	# f2: another byte under the same size and mtime; f3: edited.
	touch -r t/f2 ref
	printf 'X' | dd of=t/f2 bs=1 seek=100 conv=notrunc 2>/dev/null
	touch -r ref t/f2
	printf 'edited\n' >>t/f3
	sleep 1.1
	# f1 and f4 get newer stamps; f2 and f3 keep theirs and are said.
	capture got fhsum --scrub=L
	[ "$(cat got.rc)" = $((16 | 4)) ] || fail "rc $(cat got.rc): $(cat got.out)"
	grep -qx 't/f2: DAMAGED' got.out || fail "$(cat got.out)"
	grep -qx 't/f3: CHANGED' got.out || fail "$(cat got.out)"
	grep -q "WARNING: 1 file damaged" got.err || fail "$(cat got.err)"
	[ "$(stamp_of t/f2)" = "$s2" ] && [ "$(stamp_of t/f3)" = "$s3" ] || fail "stamps moved: $(cat L)"
	[ "$(stamp_of t/f1)" -gt "$s2" ] || fail "f1 not stamped anew: $(cat L)"
	# Now the oldest stamps: a one-file scrub takes f2 every time, a
	# two-file one f2 and f3.
	for i in 1 2; do
		capture got fhsum --scrub=L --max-bytes=1
		[ "$(cat got.out)" = "t/f2: DAMAGED" ] || fail "$(cat got.out)"
	done
	capture got fhsum --scrub=L --max-bytes=3001
	[ "$(cat got.out)" = $'t/f2: DAMAGED\nt/f3: CHANGED' ] || fail "$(cat got.out)"
	grep -v '^#fhsum' L | cmp -s - L.sums || fail "checksum lines changed"
}

@test "missing and unreadable entries are reported, keep their lines and set their bits" {
	make_tree 4 100
	rm t/f1
	rm t/f2 && mkdir t/f2
	# A FIFO is not read: it would wait for a writer.
	rm t/f3 && mkfifo t/f3
	capture got fhsum --scrub=L
	[ "$(cat got.rc)" = $((2 | 32)) ] || fail "rc $(cat got.rc)"
	grep -qx 't/f1: MISSING' got.out || fail "$(cat got.out)"
	grep -qx 't/f2: FAILED open or read' got.out || fail "$(cat got.out)"
	grep -qx 'PROG: t/f2: Is a directory' got.err || fail "$(cat got.err)"
	grep -qx 't/f3: FAILED open or read' got.out || fail "$(cat got.out)"
	grep -qx 'PROG: t/f3: not a regular file' got.err || fail "$(cat got.err)"
	grep -qx 't/f4: OK' got.out || fail "$(cat got.out)"
	[ -z "$(stamp_of t/f1)$(stamp_of t/f2)$(stamp_of t/f3)" ] && [ -n "$(stamp_of t/f4)" ] ||
		fail "$(cat L)"
	grep -v '^#fhsum' L | cmp -s - L.sums || fail "lines changed"
	capture got fhsum --scrub=L --ignore-missing
	[ "$(cat got.rc)" = 32 ] || fail "--ignore-missing: rc $(cat got.rc)"
	! grep -q MISSING got.out || fail "$(cat got.out)"
}

@test "SIGINT and SIGTERM write the stamps earned and exit 130 and 143; every stamp written is true (timed)" {
	timed_test
	mkdir t
	for i in $(seq -w 1 40); do truncate -s 64M "t/f$i"; done
	# SHA-512 on one thread: some seconds for the 2.5 GiB.
	fhsum -a sha512 --meta -r t >L
	grep -v '^#fhsum' L >L.sums
	local sig want
	for sig in INT TERM; do
		want=$([ $sig = INT ] && echo 130 || echo 143)
		# A background job's SIGINT is ignored unless reset.
		env --default-signal=INT,TERM "${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L -j1 \
			--debug >got.out 2>got.err &
		local pid=$! tries=0
		# Once the list is read (--debug then says the budget).
		until grep -q 'scrub budget' got.err; do
			sleep 0.05
			[ $((tries += 1)) -lt 400 ] || fail "SIG$sig: the scrub did not start"
		done
		sleep 0.3
		kill -$sig $pid
		local rc=0
		wait $pid || rc=$?
		[ "$rc" = "$want" ] || fail "SIG$sig: rc $rc" "$(cat got.err)"
		# As many new stamps as OK lines, and not the whole list.
		local n
		n=$(grep -c ': OK$' got.out || true)
		[ "$n" -lt 40 ] || fail "SIG$sig: the scrub ran to the end"
		grep -q "scrub: $n of 40 files verified" got.err || fail "SIG$sig: $(cat got.err)"
	done
	[ "$(grep -c verified= L)" -gt 0 ] || fail "no stamp written"
	sha512sum --quiet -c L || fail "the list does not check"
	grep -v '^#fhsum' L | cmp -s - L.sums || fail "lines changed"
}

@test "a file that changes while it is read is said and not stamped (timed)" {
	timed_test
	mkdir t
	truncate -s 1G t/big
	echo small >t/small
	fhsum -a sha512 --meta -r t >L
	env "${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L -j1 --debug >got.out 2>got.err &
	local pid=$! tries=0
	until grep -q 'scrub budget' got.err; do
		sleep 0.05
		[ $((tries += 1)) -lt 400 ] || fail "the scrub did not start"
	done
	sleep 0.3
	# Near its end, which the read has yet to reach: the digest cannot
	# match, and the second stat says why.  (A change the read had
	# passed already leaves a digest of the listed bytes: that is OK.)
	printf 'x' | dd of=t/big bs=1 seek=$((1024 * 1024 * 1024 - 4096)) conv=notrunc 2>/dev/null
	local rc=0
	wait $pid || rc=$?
	[ "$rc" = 4 ] || fail "rc $rc" "$(cat got.out got.err)"
	grep -q ': t/big: file changed while being read; not verified$' got.err ||
		fail "$(cat got.err)"
	! grep -q 't/big: OK' got.out || fail "$(cat got.out)"
	[ -z "$(stamp_of t/big)" ] && [ -n "$(stamp_of t/small)" ] || fail "$(cat L)"
}

@test "SIGKILL at random points leaves the old list or the new one; the next run removes the leftovers" {
	make_tree 30 200000
	local round
	for round in $(seq 1 "${FHSUM_KILL_ROUNDS:-15}"); do
		fhsum --scrub=L --max-bytes=1M >/dev/null 2>&1 &
		local pid=$!
		sleep "0.0$((RANDOM % 10))"
		kill -KILL $pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		md5sum --quiet -c L || fail "round $round: the list does not check"
		grep -v '^#fhsum' L | cmp -s - L.sums || fail "round $round: lines changed"
	done
	capture got fhsum --scrub=L --max-bytes=1
	rc_is "after the kills" 0
	[ -z "$(find . -maxdepth 1 -name '.L.fhsum-*')" ] || fail "leftovers: $(ls -a)"
}

@test "the lock: a scrub waits for a writer of its list; with --no-wait it says busy" {
	make_tree 2 100
	flock L sleep 2 &
	sleep 0.3
	capture got fhsum --scrub=L --no-wait
	[ "$(cat got.rc)" = 64 ] || fail "rc $(cat got.rc)"
	grep -qx "PROG: L is busy: another run is writing it" got.err || fail "$(cat got.err)"
	capture got fhsum --scrub=L
	rc_is "waiting" 0
	wait
	[ "$(grep -c verified= L)" = 2 ] || fail "$(cat L)"
}

@test "--max-bytes reads sizes as GNU head -c does; --max-time as timeout" {
	make_tree 1 10
	local s n
	for s in 0 1 7b 1k 1K 1kB 1KB 1KiB 3m 1M 2MB 1MiB 010 +5; do
		n=$(head -c "$s" /dev/zero | wc -c)
		capture got fhsum --debug --scrub=L --max-bytes="$s"
		grep -qx "PROG: scrub budget: $n bytes, 0 s" got.err ||
			fail "$s: head -c says $n" "$(grep budget got.err)"
	done
	for s in 1g 1.5K 1B 1KIB 0x10 1Z ''; do
		! head -c "$s" /dev/null 2>/dev/null || fail "head takes '$s'"
		capture got fhsum --scrub=L --max-bytes="$s"
		[ "$(cat got.rc)" = 64 ] || fail "'$s': rc $(cat got.rc)"
		grep -q "invalid number of bytes" got.err || fail "$(cat got.err)"
	done
	for s in 90:90 1.5:1.5 15m:900 2h:7200 1d:86400; do
		capture got fhsum --debug --scrub=L --max-time="${s%%:*}"
		grep -qx "PROG: scrub budget: 18446744073709551615 bytes, ${s#*:} s" got.err ||
			fail "$s: $(grep budget got.err)"
	done
	capture got fhsum --scrub=L --max-time=1x
	[ "$(cat got.rc)" = 64 ] && grep -q "invalid time interval" got.err || fail "$(cat got.err)"
}

@test "--max-time takes every duration timeout(1) takes (blanks, '+', exponents, hex, inf) and refuses what it refuses, exit 64" {
	make_tree 1 10
	local s want
	# VALUE:SECONDS, as --debug prints them (%g); timeout must take VALUE.
	for s in ' 5:5' '+5:5' '	5:5' '1e3:1000' '1E3:1000' '1.5e1s:15' '1e1m:600' \
		'2.5m:150' '.5:0.5' '5.:5' '0x10:16' '0X10:16' '0x1p4:16' '0x1.8p1h:10800' \
		'inf:inf' 'INF:inf' 'infinity:inf' 'infs:inf' 'infd:inf' '1e400:inf' \
		'1e-400:0' '-0:0' ' -0.0:0' '0:0' '00:0' '1d:86400' '40000d:3.456e+09'; do
		want=${s##*:}
		s=${s%:*}
		timeout -- "$s" true || fail "timeout refuses '$s'"
		capture got fhsum --debug --scrub=L --max-time="$s"
		rc_is "'$s'" 0
		grep -qx "PROG: scrub budget: 18446744073709551615 bytes, $want s" got.err ||
			fail "'$s': want $want s:" "$(grep budget got.err)"
	done
	for s in -1 -inf nan -nan NAN '5 ' '' ' ' 5ss 1ms 0x 1e 1e+ 1.5.2 5S 5M 1,5 abc \
		--5 +-5 1x 'inf x' 0x1p 5e; do
		! timeout -- "$s" true 2>/dev/null || fail "timeout takes '$s'"
		capture got fhsum --scrub=L --max-time="$s"
		rc_is "'$s'" 64
		grep -qxF "PROG: invalid time interval: '$s'" got.err || fail "'$s':" "$(cat got.err)"
	done
	# Infinite is no limit: the whole list, and no plan for later runs.
	capture got fhsum --scrub=L --max-time=inf
	rc_is "inf" 0
	! grep -q 'at this budget' got.err || fail "inf planned runs:" "$(cat got.err)"
}

@test "--max-time reads a number as the locale writes it or as C does, as timeout does (de_DE: 1,5 and 1.5)" {
	[ -e /usr/share/i18n/locales/de_DE ] && command -v localedef >/dev/null ||
		skip "no de_DE locale source to build one from"
	mkdir loc && localedef -i de_DE -f UTF-8 "$PWD/loc/de_DE.UTF-8" >/dev/null 2>&1 || :
	local de=(env LOCPATH="$PWD/loc" LC_ALL=de_DE.UTF-8) s
	[ "$("${de[@]}" locale decimal_point 2>/dev/null)" = , ] || skip "the de_DE locale could not be built"
	make_tree 1 10
	for s in 1,5 1.5 1,5e1 0x1,8p1 0x1.8p1 ' 2,5m'; do
		"${de[@]}" timeout "$s" true || fail "timeout refuses '$s' in de_DE"
		capture got "${de[@]}" "${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L --max-time="$s"
		rc_is "de_DE '$s'" 0
	done
	for s in 1.5, 1,5. 1,,5; do
		! "${de[@]}" timeout -- "$s" true 2>/dev/null || fail "timeout takes '$s' in de_DE"
		capture got "${de[@]}" "${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L --max-time="$s"
		rc_is "de_DE '$s'" 64
	done
}

@test "--max-time stops feeding when time runs out (timed)" {
	timed_test
	mkdir t
	for i in $(seq -w 1 60); do truncate -s 64M "t/f$i"; done
	fhsum --meta -r t >L
	local t0 t1
	t0=$(date +%s.%N)
	capture got fhsum --scrub=L --max-time=1 -j1
	t1=$(date +%s.%N)
	rc_is "scrub" 0
	local n
	n=$(grep -c ': OK$' got.out)
	[ "$n" -gt 0 ] && [ "$n" -lt 60 ] || fail "verified $n of 60"
	# Within the budget and the files being read when it ran out.
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 4) }' || fail "took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s"
	grep -q "never verified" got.err || fail "$(cat got.err)"
}

@test "operands, --exclude and the list itself limit what a scrub verifies" {
	mkdir -p t/sub t/other
	for f in t/sub/a t/sub/b.tmp t/other/c t/d; do echo "$f" >"$f"; done
	fhsum -a md5 --meta -r t >L0 && mv L0 t/L
	# A line for the list itself, as "fhsum -r t > t/L" would write.
	{ printf '#fhsum size=1 mtime=1.000000000\n'; md5sum t/d | sed 's/t\/d$/t\/L/'; } >>t/L
	capture got fhsum --scrub=t/L t/sub --exclude='*.tmp'
	rc_is "scope" 0
	[ "$(oks)" = "t/sub/a " ] || fail "$(oks)"
	capture got fhsum --scrub=t/L
	[ "$(oks)" = "t/d t/other/c t/sub/b.tmp t/sub/a " ] || fail "$(oks)"
	! grep -q 't/L: ' got.out || fail "the list scrubbed itself"
	# Nothing left to verify: a summary of none, the list untouched.
	cp t/L L.before
	capture got timeout -k 5 120 env "${FHSUM_WRAP[@]}" "$FHSUM" --scrub=t/L --exclude='*'
	rc_is "nothing selected" 0
	[ -z "$(oks)" ] || fail "$(oks)"
	grep -q 'scrub: 0 of 0 files verified' got.err || fail "$(cat got.err)"
	cmp -s t/L L.before || fail "the list changed"
}

# stamped_as OLD NEW T0 T1: NEW is what a scrub that began at T0 and
# ended by T1 must make of OLD, by the tree as it is now: every line but
# the "#fhsum" ones kept in order; before each checksum line whose file
# has the listed MD5, the file's size and mtime and a stamp in [T0, T1];
# before every other, OLD's metadata line, or none if it had none.
stamped_as() {
	python3 - "$@" <<'EOF' || fail "the scrubbed list is not what it should be"
import hashlib, os, re, sys
old, new = (open(p, "rb").read().split(b"\n") for p in sys.argv[1:3])
t0, t1 = int(sys.argv[3]), int(sys.argv[4])
META = re.compile(rb"#fhsum size=([0-9]+) mtime=([0-9]+)\.([0-9]{9})( verified=([0-9]+))?( algorithm=md5)?\Z")
def good(line):
    m = re.fullmatch(rb"([0-9a-f]{32})  (.*)", line)
    if not m:
        return None
    try:
        with open(m.group(2), "rb") as f:
            ok = hashlib.md5(f.read()).hexdigest().encode() == m.group(1)
    except OSError:
        return None
    return os.stat(m.group(2)) if ok else None
# MD5's 32 hex digits are XXH128's too: a list that did not say which
# gains a first line that does.
decl = [b"#fhsum untagged=md5"]
if new[:1] == decl:
    new = new[1:]
    old = old[1:] if old[:1] == decl else old
strip = lambda lines: [l for l in lines if not l.startswith(b"#fhsum")]
if strip(old) != strip(new):
    sys.exit("lines other than #fhsum changed")
i = j = 0
while i < len(old):
    meta = old[i] if old[i].startswith(b"#fhsum") else None
    i += meta is not None
    line = old[i]
    got = new[j] if new[j].startswith(b"#fhsum") else None
    j += got is not None
    assert new[j] == line
    st = good(line)
    if st:
        # fhsum stamps time(2), which reads the clock of the last tick, and
        # the window comes from date(1)'s clock_gettime: at a second's
        # edge the two may name neighbouring seconds, so a stamp may fall
        # a second either side of it.
        m = META.fullmatch(got or b"")
        want = (st.st_size, st.st_mtime_ns // 10**9, st.st_mtime_ns % 10**9)
        if not m or tuple(map(int, m.group(1, 2, 3))) != want or not m.group(5) \
                or not t0 - 1 <= int(m.group(5)) <= t1 + 1:
            sys.exit("line %d: %r before %r: want %r, stamped in [%d, %d]" % (j + 1, got, line, want, t0 - 1, t1 + 1))
    elif got != meta:
        sys.exit("line %d: %r before %r, want %r" % (j + 1, got, line, meta))
    i += 1
    j += 1
EOF
}

# 8,000 files of long names (t/f0001_000...) and their --meta list L0 of
# 2.4 MB, long enough that a scrub writes it as it goes and makes a part
# of it durable before the end.  PAD is the names' tail.
long_tree() {
	mkdir t
	local i
	pad=$(printf '%0190d' 0)
	for i in $(seq -w 1 8000); do printf '%s\n' "$i" >"t/f${i}_$pad"; done
	fhsum -a md5 --meta -r t >L0 || fail "cannot make the list"
	[ "$(stat -c %s L0)" -gt $((2 << 20)) ] || fail "a list of $(stat -c %s L0) bytes"
}

@test "a list of thousands of lines is written as its entries settle, out of line order; every line in place" {
	local pad i
	long_tree
	# Stamps that order the scrub out of line order: most 500, f0400 to
	# f0449 100 (first), f6000 to f6009 300; comments, a blank line and
	# an improper line between the entries.
	awk 'function stamp(m, v) { if (sub(/ algorithm=/, " verified=" v " algorithm=", m)) return m; return m " verified=" v }
		/^#fhsum/ { m = $0; next }
		{ s = 500; n = substr($0, 37, 5)
		  if (n >= "f0400" && n <= "f0449") s = 100
		  if (n >= "f6000" && n <= "f6009") s = 300
		  print stamp(m, s); print }
		NR % 997 == 0 { print "# a comment"; print ""; print "not a checksum line" }' L0 >L
	grep -v '^#fhsum' L >L.sums
	# A damaged file among the first and one gone among the last.
	touch -r "t/f0420_$pad" ref
	printf 'X' | dd of="t/f0420_$pad" bs=1 seek=2 conv=notrunc 2>/dev/null
	touch -r ref "t/f0420_$pad"
	rm "t/f7777_$pad"
	local t0 t1
	cp L L.before
	t0=$(date +%s)
	capture got fhsum --scrub=L --quiet
	t1=$(date +%s)
	[ "$(cat got.rc)" = $((16 | 2)) ] || fail "rc $(cat got.rc)" "$(head -5 got.out got.err)"
	grep -q "scrub: 7998 of 8000 files verified" got.err || fail "$(cat got.err)"
	stamped_as L.before L "$t0" "$t1"
	grep -v '^#fhsum' L | cmp -s - L.sums || fail "checksum lines changed"
	# Again, from stamps that now rise in line order but for the two
	# that failed; then with metadata lines gone from a stretch of lines
	# (their changes come first, and the list is written at the end).
	cp L L.before
	t0=$(date +%s)
	capture got fhsum --scrub=L --quiet
	t1=$(date +%s)
	stamped_as L.before L "$t0" "$t1"
	awk '/^#fhsum/ && NR > 6000 && NR < 6400 { next } { print }' L >L.before
	cp L.before L
	t0=$(date +%s)
	capture got fhsum --scrub=L --quiet
	t1=$(date +%s)
	grep -q "scrub: 7998 of 8000 files verified" got.err || fail "$(cat got.err)"
	stamped_as L.before L "$t0" "$t1"
	grep -v '^#fhsum' L | cmp -s - L.sums || fail "checksum lines changed"
	# Killed as it goes: the old list or the new one, and no leftovers
	# once a scrub has run to its end.
	cp L L.before
	t0=$(date +%s)
	for i in 1 2 3; do
		fhsum --scrub=L --quiet >/dev/null 2>&1 &
		local pid=$!
		sleep "0.$((RANDOM % 3))$((RANDOM % 10))"
		kill -KILL $pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		grep -v '^#fhsum' L | cmp -s - L.sums || fail "kill $i: checksum lines changed"
		cmp -s L L.before || stamped_as L.before L "$t0" "$(date +%s)"
		cp L L.before
		t0=$(date +%s)
	done
	fhsum --scrub=L --max-bytes=1 >/dev/null 2>&1 || true
	[ -z "$(find . -maxdepth 1 -name '.L.fhsum-*')" ] || fail "leftovers: $(ls -a)"
}

@test "a list that runs out of room as the scrub writes it stays the old one; said, exit 64" {
	[ "$(id -u)" = 0 ] || skip "a small tmpfs needs root"
	local pad
	long_tree
	mkdir small
	mount -t tmpfs -o size=3m tmpfs small || skip "cannot mount a tmpfs"
	cp L0 small/L && cp L0 L.before
	capture got fhsum --scrub=small/L --quiet
	local rc
	rc=$(cat got.rc)
	[ $((rc & 64)) = 64 ] || fail "rc $rc" "$(cat got.err)"
	grep -qx "PROG: small/L: the list was not updated: No space left on device" got.err ||
		fail "$(cat got.err)"
	cmp -s small/L L.before || fail "the list changed"
	[ -z "$(find small -name '.L.fhsum-*')" ] || fail "leftovers: $(ls -a small)"
}

@test "--json carries the stamp; --audit --json shows the listed one" {
	make_tree 1 100
	capture got fhsum --scrub=L --json
	rc_is "scrub" 0
	local st
	st=$(stamp_of t/f1)
	grep -q "\"verified\":$st," got.out || fail "$(cat got.out)"
	capture got fhsum --audit=L --json t
	grep -q "\"verified\":$st," got.out || fail "$(cat got.out)"
}

@test "--scrub refuses what it cannot do, with exit 64" {
	make_tree 1 10
	local args
	while IFS='|' read -r args msg; do
		eval "capture got fhsum $args"
		[ "$(cat got.rc)" = 64 ] || fail "$args: rc $(cat got.rc)"
		grep -qF -- "$msg" got.err || fail "$args: $(cat got.err)"
	done <<'EOF'
--scrub=missing|missing: No such file or directory
--scrub=- |--scrub cannot write standard input or output
--scrub=L --update=L t|--update and --scrub are mutually exclusive
--scrub=L --audit=L t|--audit and --scrub are mutually exclusive
--max-bytes=1 -r t|--max-bytes needs --scrub
--max-time=1 --audit=L t|--max-time needs --scrub
--scrub=L --files-from=L|--scrub takes FILE and DIR operands, not --files-from
--scrub=L --meta|the --meta option is meaningless with --scrub
--scrub=L -c|--scrub and --check are mutually exclusive
EOF
	[ ! -e missing ] || fail "a missing list was created"
}

@test "a stamp in the future counts as never verified, said once in one line" {
	make_tree 2 1000
	# f1 stamped in 2030, f2 yesterday.
	local future=1893456000 yesterday=$(($(date +%s) - 86400))
	awk -v f="$future" -v y="$yesterday" 'function stamp(m, v) { if (sub(/ algorithm=/, " verified=" v " algorithm=", m)) return m; return m " verified=" v }
		/^#fhsum/ { m = $0; next }
		{ n = $0; sub(/^[0-9a-f]*  /, "", n); print stamp(m, (n == "t/f1" ? f : y)); print }' L >L.new
	mv L.new L
	local want=("t/f1" "t/f2" "t/f1") i
	for i in 0 1 2; do
		capture got fhsum --scrub=L --max-bytes=1000
		rc_is "run $i" 0
		[ "$(oks)" = "${want[$i]} " ] || fail "run $i verified '$(oks)', want ${want[$i]}" "$(cat got.err)"
		grep -q "verified once in 2 runs" got.err || fail "run $i: $(cat got.err)"
		! grep -q '2030-' got.err || fail "run $i: a future stamp shown as the oldest: $(cat got.err)"
		if [ "$i" = 0 ]; then
			[ "$(grep -c 'in the future' got.err)" = 1 ] || fail "run 0: $(cat got.err)"
			grep -qx 'PROG: scrub: 1 entry has a verified= stamp in the future: counted as never verified' got.err ||
				fail "run 0: $(cat got.err)"
		else
			! grep -q 'in the future' got.err || fail "run $i: $(cat got.err)"
		fi
	done
	sums_kept
}

@test "an operand that does not exist is said and sets bit 32, as --audit says it" {
	make_tree 2 100
	cp L L.before
	local ops
	for ops in "-r photso" "photso" "./photso/x"; do
		capture aud fhsum --audit=L $ops
		capture got fhsum --scrub=L $ops
		[ "$(cat got.rc)" = 32 ] || fail "$ops: rc $(cat got.rc)" "$(cat got.err)"
		cmp -s got.out aud.out || fail "$ops: stdout '$(cat got.out)', --audit's '$(cat aud.out)'"
		grep -qx "PROG: ${ops#-r }: No such file or directory" got.err || fail "$ops: $(cat got.err)"
		cmp -s L L.before || fail "$ops: the list changed"
	done
	# Beside one that does: that one is verified and stamped.
	capture got fhsum --scrub=L -r photso t
	[ "$(cat got.rc)" = 32 ] || fail "rc $(cat got.rc)" "$(cat got.err)"
	grep -qx 'photso: FAILED open or read' got.out || fail "$(cat got.out)"
	[ "$(oks)" = "t/f1 t/f2 " ] || fail "$(oks)"
	[ -n "$(stamp_of t/f1)" ] && [ -n "$(stamp_of t/f2)" ] || fail "$(cat L)"
	# A listed name that is gone is MISSING, not unreadable.
	rm t/f1
	capture got fhsum --scrub=L t/f1
	[ "$(cat got.rc)" = 2 ] || fail "gone: rc $(cat got.rc)" "$(cat got.out got.err)"
	grep -qx 't/f1: MISSING' got.out || fail "$(cat got.out)"
}

@test "SIGTERM ends a scrub's wait for the lock at once: exit 64, the list unchanged" {
	make_tree 2 100
	cp L L.before
	# A holder of the lock for 5 s: the subshell becomes the sleep,
	# which keeps descriptor 9 and its lock.
	(flock 9 && : >locked && exec sleep 5) 9<L &
	local holder=$! tries=0
	until [ -e locked ]; do
		sleep 0.05
		[ $((tries += 1)) -lt 100 ] || fail "the lock was not taken"
	done
	env --default-signal=INT,TERM "${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L >got.out 2>got.err &
	local pid=$!
	sleep 0.5
	kill -0 $pid 2>/dev/null || fail "the scrub did not wait: $(cat got.err)"
	local t0 t1 rc=0
	t0=$(date +%s%N)
	kill -TERM $pid
	wait $pid || rc=$?
	t1=$(date +%s%N)
	kill $holder 2>/dev/null || true
	wait $holder 2>/dev/null || true
	[ "$rc" = 64 ] || fail "rc $rc" "$(cat got.err)"
	[ $(((t1 - t0) / 1000000)) -lt 1000 ] || fail "ended $(((t1 - t0) / 1000000)) ms after SIGTERM"
	grep -q 'PROG: cannot lock L: Interrupted system call\|fhsum: cannot lock L: Interrupted system call' got.err ||
		fail "$(cat got.err)"
	cmp -s L L.before || fail "the list changed"
	[ ! -s got.out ] || fail "$(cat got.out)"
}

@test "a signalled scrub whose list cannot be written exits 64, not 130 or 143 (timed)" {
	timed_test
	mkdir t
	local i pad z
	pad=$(printf '%060d' 0)
	for i in $(seq -w 1 300); do printf '%s\n' "$i" >"t/f${i}_$pad"; done
	fhsum -a sha512 --tag --meta -r t >L || fail "cannot make the list"
	# Then files of zeros, long enough to be read when the signal comes.
	z=$(head -c 256M /dev/zero | sha512sum)
	for i in $(seq -w 1 12); do
		truncate -s 256M "t/z$i"
		printf 'SHA512 (t/z%s) = %s\n' "$i" "${z%% *}" >>L
	done
	cp L L.before
	# Its writes limited to 20 KiB (SIGXFSZ ignored: EFBIG), the new
	# list cannot be written.
	bash -c 'trap "" XFSZ; ulimit -f 20 && exec env --default-signal=INT,TERM "$@"' - \
		"${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L -j1 --debug --quiet >got.out 2>got.err &
	local pid=$! tries=0 rc=0
	until grep -q 'scrub budget' got.err; do
		sleep 0.05
		[ $((tries += 1)) -lt 400 ] || fail "the scrub did not start"
	done
	sleep 0.5
	kill -TERM $pid
	wait $pid || rc=$?
	[ "$rc" = 64 ] || fail "rc $rc" "$(cat got.err)"
	grep -q ': L: the list was not updated: File too large$' got.err || fail "$(cat got.err)"
	cmp -s L L.before || fail "the list changed"
}

@test "a list that cannot be written claims none of the stamps of the run" {
	mkdir t
	local i pad
	pad=$(printf '%060d' 0)
	for i in $(seq -w 1 300); do printf '%s\n' "$i" >"t/f${i}_$pad"; done
	# Every entry verified in 2001: the list is over 20 KiB.
	fhsum -a md5 --meta -r t |
		sed '/^#fhsum/{/ algorithm=/!s/$/ verified=1000000000/; s/ algorithm=/ verified=1000000000 algorithm=/}' >L
	[ "$(stat -c %s L)" -gt 30000 ] || fail "a list of $(stat -c %s L) bytes"
	cp L L.before
	# Under a limit of 20 KiB on the files it writes, with SIGXFSZ
	# ignored, the write fails with EFBIG.
	capture got bash -c 'trap "" XFSZ; ulimit -f 20 && exec "$@"' - \
		"${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L --quiet
	[ "$(cat got.rc)" = 64 ] || fail "rc $(cat got.rc)" "$(cat got.err)"
	grep -qx 'PROG: L: the list was not updated: File too large' got.err || fail "$(cat got.err)"
	cmp -s L L.before || fail "the list changed"
	grep -qx 'PROG: scrub: no stamp was written: the list was not updated' got.err ||
		fail "$(cat got.err)"
	grep -q 'oldest stamp left: 2001-09-09T01:46:40Z' got.err || fail "$(cat got.err)"
	! grep -q "oldest stamp left: $(date -u +%Y-%m-%d)" got.err || fail "$(cat got.err)"
	# With a budget: no forecast from stamps that were not kept.
	capture got bash -c 'trap "" XFSZ; ulimit -f 20 && exec "$@"' - \
		"${FHSUM_WRAP[@]}" "$FHSUM" --scrub=L --quiet --max-bytes=200
	[ "$(cat got.rc)" = 64 ] || fail "budget: rc $(cat got.rc)" "$(cat got.err)"
	! grep -q 'verified once in' got.err || fail "a forecast from stamps not kept: $(cat got.err)"
}

@test "the summary tells verified, found bad and not reached apart; a forecast only from a budget reached" {
	make_tree 4 1000
	# f1 damaged: the same size and mtime, other bytes.
	touch -r t/f1 ref
	printf 'X' | dd of=t/f1 bs=1 seek=10 conv=notrunc 2>/dev/null
	touch -r ref t/f1
	# Two files' bytes a run: f1 (never verified, first, bad) and one more.
	local i want
	for i in 2 3 4; do
		capture got fhsum --scrub=L --max-bytes=2000
		[ "$(cat got.rc)" = 16 ] || fail "run $i: rc $(cat got.rc)" "$(cat got.err)"
		[ "$(oks)" = "t/f$i " ] || fail "run $i: $(oks)"
		grep -q 'scrub: 1 of 4 files verified' got.err || fail "run $i: $(cat got.err)"
		# Read: f1 and f$i; not reached: the other two.
		want="scrub: 1 found bad, 2 not reached"
		grep -qx "PROG: $want" got.err || fail "run $i: want '$want'" "$(cat got.err)"
		if [ $i = 4 ]; then
			! grep -q 'never verified' got.err || fail "run $i: $(cat got.err)"
			grep -q 'oldest stamp left' got.err || fail "run $i: $(cat got.err)"
		else
			grep -qx "PROG: scrub: $((4 - i)) never verified" got.err || fail "run $i: $(cat got.err)"
		fi
		# f1 is read every run: the other three take three runs.
		grep -q 'verified once in 3 runs' got.err || fail "run $i: $(cat got.err)"
	done
	# A time budget the run does not reach: no forecast.
	capture got fhsum --scrub=L --max-time=100
	[ "$(cat got.rc)" = 16 ] || fail "rc $(cat got.rc)" "$(cat got.err)"
	grep -q 'scrub: 3 of 4 files verified' got.err || fail "$(cat got.err)"
	! grep -q 'verified once in\|no rate' got.err || fail "a forecast from a budget not reached: $(cat got.err)"
	grep -qx 'PROG: scrub: every entry was read within this budget' got.err || fail "$(cat got.err)"
}
