#!/usr/bin/env bats
# The progress line as a person sees it: each run goes on a real
# pseudo-terminal (a detached tmux pane of a given width) and the screen,
# its scrollback included, is captured while the run lasts and after it.
# The line must fit the terminal at 40, 80 and 200 columns and follow a
# resize, leave no copy of itself behind, be erased by Ctrl-C and SIGTERM,
# move for standard input, and move while a list comes slowly down a
# pipe.  Expected digests come from Python's hashlib.

load helper

# The file hashed: long enough at SHA3-512 on one thread for a few
# redraws, all zeros (sparse).  Not smaller in quick mode: the tests
# look at the line while it stands, and a quick native run would be gone
# before they look.
BIG_SIZE=512M
BIG_BYTES=536870912

setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	truncate -s "$BIG_SIZE" big
	python3 -c '
import hashlib, sys
h = hashlib.sha3_512()
with open("big", "rb") as f:
    for b in iter(lambda: f.read(1 << 20), b""):
        h.update(b)
print(h.hexdigest())' >big.sha3-512
}

setup() {
	common_setup
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK=
	PANES=0
	ln -s "$BATS_FILE_TMPDIR/big" big
	DIGEST=$(cat "$BATS_FILE_TMPDIR/big.sha3-512")
	FH="${FHSUM_WRAP[*]} $FHSUM"
}

teardown() {
	[ -z "${SOCK:-}" ] || tmux -S "$SOCK" kill-server 2>/dev/null || :
}

# pane WIDTH CMDLINE: runs the shell command line CMDLINE in a new pane of
# WIDTH columns and 30 rows, on a tmux server of its own (the last one's
# is killed: one going away may not take a new session); its exit status
# goes to rc once it ends.  SIGINT is caught (not ignored) by the shell
# around it, so that Ctrl-C reaches the command alone and the status is
# still written.
pane() {
	rm -f rc
	[ -n "${SOCK:-}" ] && tmux -S "$SOCK" kill-server 2>/dev/null
	SOCK=$BATS_TEST_TMPDIR/tmux.$((++PANES)).sock
	tmux -S "$SOCK" -f /dev/null new-session -d -x "$1" -y 30 -s t \
		"cd '$PWD' && trap : INT && { $2; echo \$? >rc; }; exec sleep 600" ||
		skip "tmux cannot start a session here"
}

# shot: the pane's screen and scrollback, without trailing blanks.
shot() {
	tmux -S "$SOCK" capture-pane -p -S - -E - -t t | sed -e 's/ *$//' | sed -e '/./,$!d'
}

# joined: the screen with the lines that the terminal wrapped joined, for
# the lines that are longer than a row (a 128-digit digest).
joined() {
	tmux -S "$SOCK" capture-pane -p -J -S - -E - -t t | sed -e 's/ *$//'
}

# progress_rows: the rows of shot's output that show a progress line (a
# byte count: "12.0 MiB").
progress_rows() {
	shot | grep -E '[0-9.]+ (B|KiB|MiB|GiB)' || :
}

# wait_for WHAT: waits (up to 5 minutes: a sanitizer's build is slow)
# until WHAT is "rows" (a progress row is on the screen) or "rc" (the
# command ended).
wait_for() {
	local i
	for i in $(seq 1 3000); do
		case $1 in
		rows) [ -n "$(progress_rows)" ] && return 0 ;;
		rc) [ -s rc ] && return 0 ;;
		esac
		sleep 0.1
	done
	fail "waited 5 minutes for $1; the screen: $(shot)"
}

# fits WIDTH: every row of the screen is shorter than WIDTH (a row that
# fills the width is a line that wrapped) and one row at most is a
# progress line.
fits() {
	local long n
	long=$(shot | awk -v w="$1" 'length >= w')
	[ -z "$long" ] || fail "rows of $1 columns or more (wrapped):" "$long" "the screen: $(shot)"
	n=$(progress_rows | wc -l)
	[ "$n" -le 1 ] || fail "$n progress rows on the screen at $1 columns:" "$(shot)"
}

@test "progress: at 40, 80 and 200 columns the line fits, is drawn once, and is gone at the end" {
	local w row
	for w in 40 80 200; do
		pane "$w" "$FH --progress -a sha3-512 -j1 big"
		wait_for rows
		fits "$w"
		sleep 1
		fits "$w"
		row=$(progress_rows)
		case $w in
		200)
			# Room for every field: the name, files, bytes of the
			# total, rate, time left.
			[[ $row =~ ^fhsum:\ 0/1\ files,\ [0-9.]+\ [KMG]?i?B/[0-9.]+\ MiB,\ [0-9.]+\ [KMG]?i?B/s,\ [0-9]+:[0-9][0-9]:[0-9][0-9]\ left$ ]] ||
				fail "not every field at 200 columns: '$row'" ;;
		40)
			[[ $row =~ [0-9.]+\ [KMG]?i?B ]] || fail "no bytes at 40 columns: '$row'" ;;
		esac
		wait_for rc
		[ "$(cat rc)" = 0 ] || fail "exit status $(cat rc) at $w columns"
		[ -z "$(progress_rows)" ] || fail "progress left on the screen at $w columns:" "$(shot)"
		joined | grep -qx "$DIGEST  big" || fail "no digest line at $w columns: $(shot)"
	done
}

@test "progress: a resize from 200 to 40 columns (SIGWINCH) is followed and leaves nothing behind" {
	# As typed at a prompt: a line above the one drawn.
	pane 200 "echo '$ fhsum --progress -a sha3-512 -j1 big'; $FH --progress -a sha3-512 -j1 big"
	wait_for rows
	fits 200
	tmux -S "$SOCK" resize-window -t t -x 40 -y 30 || skip "tmux cannot resize here"
	sleep 1
	# The row of the line drawn at 200 columns, rewrapped by the
	# terminal, is erased with it.
	fits 40
	wait_for rc
	[ -z "$(progress_rows)" ] || fail "progress left on the screen:" "$(shot)"
}

@test "progress: standard input shows bytes, rate and time spent from a pipe, and a total from a file" {
	# No --progress: a run that lasts over a second shows it by itself.
	pane 80 "cat big | $FH -a sha3-512 -j1"
	wait_for rows
	local row
	row=$(progress_rows)
	[[ $row =~ files,\ [0-9.]+\ [KMG]?i?B,\ [0-9.]+\ [KMG]?i?B/s,\ [0-9]+:[0-9][0-9]:[0-9][0-9]$ ]] ||
		fail "a pipe's line is not 'N files, BYTES, RATE/s, ELAPSED': '$row'"
	wait_for rc
	[ -z "$(progress_rows)" ] || fail "progress left on the screen:" "$(shot)"
	joined | grep -qx "$DIGEST  -" || fail "no digest line: $(shot)"

	pane 80 "$FH --progress -a sha3-512 -j1 - <big"
	wait_for rows
	row=$(progress_rows)
	local total=$((BIG_BYTES >> 20)).0
	[[ $row =~ 0/1\ files,\ [0-9.]+\ [KMG]?i?B/$total\ MiB,.*\ left$ ]] ||
		fail "a regular file on standard input: no total ($total MiB) or time left: '$row'"
	wait_for rc
	joined | grep -qx "$DIGEST  -" || fail "no digest line: $(shot)"
}

@test "progress: Ctrl-C and SIGTERM erase the line before the program ends" {
	pane 80 "$FH --progress -a sha3-512 -j1 big big"
	wait_for rows
	tmux -S "$SOCK" send-keys -t t C-c
	wait_for rc
	[ "$(cat rc)" = 130 ] || fail "exit status $(cat rc) after Ctrl-C, not 130"
	[ -z "$(progress_rows)" ] || fail "progress left on the screen after Ctrl-C:" "$(shot)"

	rm -f pid
	pane 80 "sh -c 'echo \$\$ >pid; exec $FH --progress -a sha3-512 -j1 big big'"
	wait_for rows
	kill -TERM "$(cat pid)"
	wait_for rc
	[ "$(cat rc)" = 143 ] || fail "exit status $(cat rc) after SIGTERM, not 143"
	[ -z "$(progress_rows)" ] || fail "progress left on the screen after SIGTERM:" "$(shot)"
}

@test "progress: -c of a list that comes slowly down a pipe moves with the first file's bytes, and counts the list as it is read" {
	: >empty
	{
		printf '%s  big\n' "$DIGEST"
		printf '%s  empty\n' "$(python3 -c 'import hashlib; print(hashlib.sha3_512(b"").hexdigest())')"
	} >list
	# The first line, then nothing for 4 s, then the rest.
	pane 80 "{ head -n 1 list; sleep 4; tail -n +2 list; } | $FH --progress -a sha3-512 -j1 -c"
	wait_for rows
	sleep 0.5
	local a b
	a=$(progress_rows)
	sleep 1
	b=$(progress_rows)
	[ -n "$b" ] || fail "no progress while the list waits: $(shot)"
	[ "$a" != "$b" ] || fail "the line did not move while the list waited: '$a'"
	[[ $a =~ /1\+\ files ]] || fail "the count does not say the list is still being read: '$a'"
	wait_for rc
	[ "$(cat rc)" = 0 ] || fail "exit status $(cat rc): $(shot)"
	shot | grep -qx 'big: OK' || fail "no OK line: $(shot)"
	shot | grep -qx 'empty: OK' || fail "no OK line: $(shot)"
}
