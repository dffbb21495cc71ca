#!/bin/bash
# writers.sh: the list writers under ordinary faults, at random (TAP).
# Each round edits a tree at random (files appended, rewritten, removed,
# moved, added), then runs `fhsum --update` of its list with one fault
# picked at random:
#   kill     SIGKILL after a random delay;
#   race     two writers of the one list at once, on two subtrees;
#   enospc   the list on a small tmpfs left nearly full (root only);
#   eacces   a subdirectory the writer may not open (run as nobody);
#   emfile   a descriptor limit of 12 to 40 on a tree 30 levels deep;
#   prune    no fault, --prune.
# eacces and emfile run with --prune too: what the walk could not see must
# not count as gone.
# After every round the list must parse as a GNU md5 list with metadata,
# hold every name it held (unless --prune ran and the file is gone: a file
# that is there keeps its line whatever failed), and be true: every line whose metadata the file still has
# carries the file's digest (md5sum's).  After the round a clean update
# must leave no temporary file beside the list.
#
# Beside L, two lists get a --update killed at a random moment every
# round: S, made by GNU sha256sum (untagged, no metadata), and X, whose
# first half sha256sum wrote and whose second half fhsum --meta wrote as
# SHA3-256 lines that name their algorithm: a list mixing both, which no
# writer may turn into the other.  Neither may lose a line nor hold a
# digest of the wrong algorithm; after a clean --update --prune, sha256sum
# -c reads every line of S and finds it true.  (X, of several algorithms,
# is refused by --update without -a: it must come out of that unchanged.)
#
# FHSUM_WRITER_ROUNDS sets the number of rounds (default 60; FHSUM_QUICK=1
# 20); FHSUM_WRITER_SEED the random seed (default: the time, printed).

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ -x "$FHSUM" ] || { echo "Bail out! binary under test not found: $FHSUM"; exit 1; }
command -v md5sum >/dev/null || skip_all "GNU md5sum (the oracle) missing"
command -v python3 >/dev/null || skip_all "python3 missing"

rounds=${FHSUM_WRITER_ROUNDS:-60}
[ "$QUICK" = 1 ] && rounds=${FHSUM_WRITER_ROUNDS:-20}
seed=${FHSUM_WRITER_SEED:-$(date +%s)}
RANDOM=$seed

WORK=$(mktemp -d /tmp/fhsum-writers.XXXXXX) || exit 1
chmod 755 "$WORK"
SMALL=$WORK/small
cleanup() {
	mountpoint -q "$SMALL" 2>/dev/null && umount -l "$SMALL"
	chmod -R u+rwX "$WORK" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK" || exit 1

# Faults this machine can inject.
faults=(kill race emfile prune)
nobody=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null && nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	mkdir "$SMALL" && mount -t tmpfs -o size=256k tmpfs "$SMALL" 2>/dev/null && faults+=(enospc)
else
	faults+=(eacces)
fi
[ ${#nobody[@]} -gt 0 ] && faults+=(eacces)

# The checker: the list parses, holds the names it must, and is true.
cat >check.py <<'EOF'
import hashlib, os, re, sys
lst, before, pruned = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
# 32 hex digits are MD5's or XXH128's: the list names MD5, never another.
META = re.compile(rb"#fhsum size=(\d+) mtime=(\d+)\.(\d{9})( algorithm=md5)?$")
LINE = re.compile(rb"([0-9a-f]{32}) ([ *])(.+)$")
def parse(path):
    if not os.path.exists(path):
        return {}
    out, meta = {}, None
    for no, raw in enumerate(open(path, "rb").read().split(b"\n")[:-1], 1):
        if raw == b"#fhsum untagged=md5":
            continue
        m = META.match(raw)
        if m:
            meta = (int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)))
            continue
        m = LINE.match(raw)
        if not m:
            sys.exit("line %d does not parse: %r" % (no, raw[:80]))
        out.setdefault(m.group(3), (m.group(1).decode(), meta))
        meta = None
    return out
now, old = parse(lst), parse(before)
for name in old:
    if name in now:
        continue
    if pruned and not os.path.lexists(name):
        continue
    sys.exit("line lost: %r" % name)
for name, (digest, meta) in now.items():
    try:
        st = os.stat(name)
    except OSError:
        continue
    if meta and (st.st_size, st.st_mtime_ns) == meta:
        with open(name, "rb") as f:
            if hashlib.md5(f.read()).hexdigest() != digest:
                sys.exit("untrue line: %r says %s" % (name, digest))
EOF

# The checker of S: no line lost, none a SHA3-256 digest where a SHA-256
# one belongs, lines named sha3-256 by their metadata line SHA3-256's.
cat >check256.py <<'EOF2'
import hashlib, os, re, sys
lst, before = sys.argv[1], sys.argv[2]
LINE = re.compile(rb"([0-9a-f]{64}) ([ *])(.+)$")
def parse(path):
    out, named = {}, None
    for no, raw in enumerate(open(path, "rb").read().split(b"\n")[:-1], 1):
        if raw.startswith(b"#"):
            named = b"sha3-256" if raw.endswith(b" algorithm=sha3-256") else None
            continue
        m = LINE.match(raw)
        if not m:
            sys.exit("line %d does not parse: %r" % (no, raw[:80]))
        out.setdefault(m.group(3), (m.group(1).decode(), named))
        named = None
    return out
now, old = parse(lst), parse(before)
for name in old:
    if name not in now and os.path.lexists(name):
        sys.exit("line lost: %r" % name)
for name, (digest, named) in now.items():
    try:
        data = open(name, "rb").read()
    except OSError:
        continue
    other = hashlib.sha256 if named else hashlib.sha3_256
    if other(data).hexdigest() == digest:
        sys.exit("%r: a digest of the wrong algorithm: %s" % (name, digest))
EOF2

mkfile() { head -c $((RANDOM % 3000)) /dev/urandom >"$1"; }

# The tree: t/a and t/b, a few files each, one directory 30 deep.
mkdir -p t/a/x t/b/y
for i in $(seq 12); do mkfile "t/a/f$i"; mkfile "t/b/g$i"; done
deep=t/b/y
for i in $(seq 30); do deep=$deep/d; done
mkdir -p "$deep" && mkfile "$deep/leaf"
"$FHSUM" -a md5 --meta -r t >L
find t -type f | sort | xargs sha256sum >S
find t/a -type f | sort | xargs sha256sum >X
find t/b -type f | sort | xargs "$FHSUM" -a sha3-256 --meta >>X
chmod -R a+rwX "$WORK"

# Random edits of the tree between rounds.
edit_tree() {
	local f k
	mapfile -t files < <(find t -type f | sort)
	for k in 1 2 3 4; do
		f=${files[RANDOM % ${#files[@]}]}
		case $((RANDOM % 5)) in
		0) head -c 100 /dev/urandom >>"$f" ;;
		1) mkfile "$f" ;;
		2) rm -f "$f" ;;
		3) mv -f "$f" "$(dirname "$f")/m$RANDOM" ;;
		4) mkfile "$(dirname "$f")/n$RANDOM" ;;
		esac
	done
}

n=0
echo "1..$rounds"
echo "# seed $seed; faults: ${faults[*]}"
for round in $(seq "$rounds"); do
	edit_tree
	chmod -R a+rwX t
	cp L L.before
	fault=${faults[RANDOM % ${#faults[@]}]}
	list=L pruned=0 rc=0
	case $fault in
	kill)
		timeout -s KILL "0.0$((RANDOM % 10))$((RANDOM % 10))" "$FHSUM" --update=L -r t >/dev/null 2>&1 || rc=$?
		;;
	race)
		"$FHSUM" --update=L -r t/a >/dev/null 2>&1 &
		"$FHSUM" --update=L -r t/b >/dev/null 2>&1 || :
		wait || :
		;;
	enospc)
		# The list on the tmpfs, with a random amount of room left.
		rm -f "$SMALL"/*
		cp L "$SMALL/L"
		head -c $((200000 + RANDOM % 60000)) /dev/zero >"$SMALL/fill" 2>/dev/null || :
		"$FHSUM" --update="$SMALL/L" -r t >/dev/null 2>&1 || rc=$?
		rm -f "$SMALL/fill"
		cp "$SMALL/L" L
		;;
	eacces)
		chmod 000 t/a/x
		mkfile t/a/x/hidden 2>/dev/null || :
		pruned=1
		"${nobody[@]}" "$FHSUM" --update=L --prune -r t >/dev/null 2>&1 || rc=$?
		chmod 755 t/a/x
		;;
	emfile)
		pruned=1
		(ulimit -n $((12 + RANDOM % 29)) && exec "$FHSUM" --update=L --prune -j1 -r t) >/dev/null 2>&1 || rc=$?
		;;
	prune)
		pruned=1
		"$FHSUM" --update=L --prune -r t >/dev/null 2>&1 || rc=$?
		;;
	esac
	n=$((n + 1))
	why=$(python3 check.py L L.before "$pruned" 2>&1)
	if [ -n "$why" ]; then
		echo "not ok $n round $round: $fault (exit $rc): $why"
		continue
	fi
	# The sha256sum list and the mixed one: killed at random, then checked.
	for list in S X; do
		cp "$list" "$list.before"
		timeout -s KILL "0.0$((RANDOM % 10))$((RANDOM % 10))" "$FHSUM" --update="$list" -r t \
			>/dev/null 2>&1 || :
		why=$(python3 check256.py "$list" "$list.before" 2>&1)
		[ -n "$why" ] && break
		cp "$list" "$list.killed"
		crc=0
		"$FHSUM" --update="$list" --prune -r t >/dev/null 2>&1 || crc=$?
		why=$(python3 check256.py "$list" "$list.before" 2>&1)
		[ -n "$why" ] && break
		if [ "$list" = X ]; then
			[ "$crc" = 64 ] && ! cmp -s X X.killed && why="refused (64), yet X changed"
		elif ! sha256sum -c --quiet S >sha.out 2>&1; then
			why="sha256sum -c after a clean update: $(head -3 sha.out)"
		fi
		[ -n "$why" ] && break
	done
	if [ -n "$why" ]; then
		echo "not ok $n round $round: $fault, the list $list: $why"
		continue
	fi
	# A clean run afterwards leaves nothing beside the list.
	"$FHSUM" --update=L -r t >/dev/null 2>&1 || :
	stray=$(find . -maxdepth 1 -name '.L.fhsum-*' | head -1)
	if [ -n "$stray" ]; then
		echo "not ok $n round $round: $fault: $stray left after a clean update"
		continue
	fi
	why=$(python3 check.py L L.before "$pruned" 2>&1)
	[ -z "$why" ] && echo "ok $n round $round: $fault (exit $rc)" ||
		echo "not ok $n round $round: $fault, then a clean update: $why"
done
