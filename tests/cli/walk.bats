#!/usr/bin/env bats
# The -r walk on -j threads: the names and their order are those of a
# sequential depth-first walk, each directory's entries sorted by their
# bytes, whatever the number of threads; on deep and wide trees, names of
# every byte, symbolic link loops and unreadable directories; --audit and
# --update say and write the same at every -j; an --update with nothing
# to change leaves its list alone.  The expected names and digests come
# from walk_oracle.py (Python's os.scandir and hashlib), never from fhsum.

load helper

ORACLE=$BATS_TEST_DIRNAME/walk_oracle.py

setup() {
	common_setup
	command -v python3 >/dev/null || skip "python3 (the walk's oracle) is not installed"
}

teardown() {
	[ -z "${OPEN_DIR-}" ] || { chmod -R u+rwX "$OPEN_DIR"; rm -rf "$OPEN_DIR"; }
}

# same_as_oracle DIR...: fhsum -r at -j1, -j2 and -j8 prints exactly what
# the oracle walk does, byte for byte and in its order.
same_as_oracle() {
	python3 "$ORACLE" "$@" >want || fail "oracle failed"
	local j
	for j in 1 2 8; do
		fhsum -z -a md5 -j$j -r "$@" >got.$j 2>err.$j || fail "-j$j: exit $?:" "$(head -c 300 err.$j)"
		cmp -s want got.$j || fail "-j$j: not the oracle's walk:" \
			"$(cmp want got.$j)" "$(tr '\0' '\n' <got.$j | head -c 400)"
	done
}

@test "walk: names of every byte (newline, backslash, space, 0x01-0xff) in per-directory byte order, at -j1, -j2, -j8" {
	python3 - <<-'EOF'
	import os
	os.mkdir(b"t")
	for b in range(1, 256):
	    if b == 0x2f:
	        continue
	    name = b"n" + bytes([b]) + b"x"
	    open(b"t/" + name, "wb").write(bytes([b]))
	# Names that sort apart from full paths: "a" < "a\x01" < "a!" < "a0",
	# while "a/f" sorts after "a!..." as a path.  Directories each.
	for d in (b"a", b"a\x01", b"a!", b"a.", b"a0", b"b \\\n c"):
	    os.mkdir(b"t/" + d)
	    for f in (b"f", b"\x01", b"g\n", b"\\", b" "):
	        open(b"t/" + d + b"/" + f, "wb").write(d + f)
	EOF
	same_as_oracle t
}

@test "walk: a tree 300 levels deep and a directory of 5,000 entries, at -j1, -j2, -j8" {
	python3 - <<-'EOF'
	import os
	os.makedirs("t/wide")
	for i in range(5000):
	    open("t/wide/%d" % (i * 7919 % 5000), "w").write(str(i))
	p = "t/deep"
	for i in range(300):
	    p += "/%d" % (i % 3)
	    os.makedirs(p)
	    open(p + "/f", "w").write(p)
	    if i % 50 == 0:
	        for k in range(20):
	            os.makedirs(p + "-side/%d" % k)
	            open(p + "-side/%d/g" % k, "w").write("%d" % k)
	EOF
	same_as_oracle t
}

@test "walk: symbolic link loops and links to files and directories are not followed" {
	mkdir -p t/a/b t/c
	echo x >t/a/b/x
	echo y >t/c/y
	ln -s .. t/a/b/up
	ln -s ../../a t/a/b/loop
	ln -s self t/a/self
	ln -s ../c t/a/toc
	ln -s ../c/y t/a/toy
	ln -s /nonexistent t/dangling
	same_as_oracle t
	[ "$(tr -cd '\0' <got.8 | wc -c)" = 2 ] || fail "not the two files:" "$(tr '\0' '\n' <got.8)"
}

@test "walk: several directory operands with a file operand between them, each walked in turn" {
	mkdir -p t/x u/y
	echo 1 >t/x/1
	echo 2 >u/y/2
	echo 3 >f
	python3 "$ORACLE" t >want
	md5sum -z f >>want
	python3 "$ORACLE" u >>want
	local j
	for j in 1 2 8; do
		fhsum -z -a md5 -j$j -r t f u >got.$j || fail "-j$j: exit $?"
		cmp -s want got.$j || fail "-j$j:" "$(tr '\0' '\n' <got.$j)"
	done
}

@test "walk: unreadable directories are said once each, in walk order, the rest walked, at -j1, -j2, -j8" {
	OPEN_DIR=$(mktemp -d /tmp/fhsum-walk.XXXXXX) && chmod 777 "$OPEN_DIR" && cd "$OPEN_DIR"
	local d
	for d in a b/c b/d e; do
		mkdir -p "t/$d/in"
		echo "$d" >"t/$d/f"
		echo "$d" >"t/$d/in/g"
	done
	chmod -R a+rX t
	chmod 711 t/b/c t/e/in	# searchable, not listable
	chmod 744 t/b/d		# listable, not searchable: its names cannot be opened
	# A python3 the unprivileged user may run, and the oracle where it
	# may read it.
	local py
	for py in /usr/bin/python3 /usr/local/bin/python3 ""; do
		[ -n "$py" ] && as_nobody "$py" -c '' 2>/dev/null && break
	done
	[ -n "$py" ] || skip "no python3 that an unprivileged user may run"
	cp "$ORACLE" oracle.py && chmod 644 oracle.py
	as_nobody "$py" oracle.py --errors want.err t >want || {
		[ $? = 77 ] && skip "no unprivileged user to run as"
		fail "oracle failed"
	}
	[ -s want.err ] || skip "the unprivileged user reads every directory"
	local j rc
	for j in 1 2 8; do
		rc=0
		as_nobody "${FHSUM_WRAP[@]}" "$FHSUM" -z -a md5 -j$j -r t >got.$j 2>err.$j || rc=$?
		[ $rc = 1 ] || fail "-j$j: exit $rc, not 1:" "$(cat err.$j)"
		cmp -s want got.$j || fail "-j$j: not the oracle's walk:" "$(tr '\0' '\n' <got.$j)"
		normalise_err <err.$j >err.$j.n
		# Each name the oracle could not list or read, once, in order.
		sed 's/^PROG: \(.*\): Permission denied$/\1/' err.$j.n >got.err
		cmp -s want.err got.err || fail "-j$j: unreadable directories:" "$(cat err.$j.n)" "want:" "$(cat want.err)"
	done
}

# A tree, its --meta list L, then changes of every kind.
changed_tree() {
	python3 - <<-'EOF'
	import os
	for d in range(12):
	    os.makedirs("t/d%d/s" % d)
	    for f in range(40):
	        open("t/d%d/%s%d" % (d, "s/" if f % 3 == 0 else "", f), "w").write("%d.%d\n" % (d, f))
	EOF
	fhsum -a md5 -j1 --meta -r t >L
	echo changed >t/d1/1
	touch -d '2001-01-01' t/d1/1
	echo damaged >t/d2/2
	touch -r t/d2/4 t/d2/2
	echo "$(cat t/d2/4)" >/dev/null
	mv t/d3/s/3 t/d4/moved
	rm t/d5/5
	echo new >t/d6/new
	mkdir t/d7/newdir && echo n >t/d7/newdir/n
}

@test "walk: --audit and --update say and write the same at -j1, -j2 and -j8" {
	changed_tree
	local j
	for j in 1 2 8; do
		capture audit.$j fhsum -j$j --audit=L -r t
		cp L L.$j
		capture update.$j fhsum -j$j --update=L.$j --prune -r t
	done
	for j in 2 8; do
		cmp -s audit.1.out audit.$j.out || fail "--audit -j$j differs:" "$(diff audit.1.out audit.$j.out)"
		cmp -s audit.1.err audit.$j.err || fail "--audit -j$j stderr differs"
		[ "$(cat audit.1.rc)" = "$(cat audit.$j.rc)" ] || fail "--audit -j$j exit status differs"
		cmp -s update.1.out update.$j.out || fail "--update -j$j differs:" "$(diff update.1.out update.$j.out)"
		cmp -s L.1 L.$j || fail "--update -j$j wrote another list:" "$(diff L.1 L.$j)"
	done
	# And the list is right: md5sum agrees with every line of it.
	grep -v '^#' L.8 | md5sum -c --quiet - || fail "md5sum -c rejects the updated list"
	[ "$(grep -vc '^#' L.8)" = "$(find t -type f | wc -l)" ] || fail "not one line per file"
}

@test "walk: --update of an unchanged tree rewrites nothing: the list keeps its inode, mtime and ctime" {
	changed_tree
	fhsum --update=L --prune -r t >/dev/null 2>&1 || true
	local before after j
	before=$(stat -c '%i %y %z' L)
	sleep 0.05
	for j in 1 2 8; do
		capture up.$j fhsum -j$j --update=L -r t
		[ "$(cat up.$j.rc)" = 0 ] || fail "-j$j: exit $(cat up.$j.rc):" "$(cat up.$j.err)"
		[ ! -s up.$j.out ] || fail "-j$j: said something:" "$(cat up.$j.out)"
	done
	after=$(stat -c '%i %y %z' L)
	[ "$before" = "$after" ] || fail "the list was touched: $before -> $after"
	[ -z "$(ls -A | grep -v -e '^L$' -e '^t$' -e '^up\.')" ] || fail "left beside it:" "$(ls -A)"
}

@test "walk: --files-from names are taken as given, not walked without -r" {
	mkdir -p t/sub
	echo a >t/a
	echo b >t/sub/b
	printf 't/sub/b\nt/a\n' >names
	md5sum t/sub/b t/a >want
	local j
	for j in 1 2 8; do
		fhsum -a md5 -j$j --files-from=names >got.$j || fail "-j$j: exit $?"
		cmp -s want got.$j || fail "-j$j:" "$(cat got.$j)"
	done
}
