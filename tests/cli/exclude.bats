#!/usr/bin/env bats
# --exclude and --exclude-from: which names a -r walk leaves out (the
# file set rsync copies for the same pattern, over one tree of deep and
# wide directories, dotfiles and names with spaces, newlines and bytes
# that are not UTF-8), pattern files (comments, CRLF, standard input, one
# that cannot be read), directories that are not entered, and --audit
# and --update, which neither report nor drop what a pattern hides.
# Expected digests come from GNU md5sum, expected file sets from rsync or
# from the tests themselves.

load helper

setup() {
	common_setup
}

# in_open_dir: as in lists.bats, a directory every user may write, to run
# fhsum as a user whom a directory's mode stops (as_nobody, helper.bash).
in_open_dir() {
	OPEN_DIR=$(mktemp -d /tmp/fhsum-exclude.XXXXXX) && chmod 777 "$OPEN_DIR" && cd "$OPEN_DIR"
}

teardown() {
	[ -z "${OPEN_DIR-}" ] || { chmod -R u+rwX "$OPEN_DIR"; rm -rf "$OPEN_DIR"; }
}


# The tree src/: deep and wide directories, dotfiles, names with spaces,
# a newline, a backslash, a star and bytes that are not UTF-8.
make_tree() {
	local d f i
	mkdir src && cd src || return 1
	for d in .git/objects/ab node_modules lib/node_modules lib/sub lib/.cache \
		a/b/c/node_modules foo/x/y/bar build doc tmp x \
		deep/d1/d2/d3/d4/d5/d6/d7 'sp ace dir' $'nl\ndir'; do
		mkdir -p "$d"
	done
	for f in a.txt b.o .hidden .env 'with space.txt' $'new\nline.txt' \
		$'\351t\351.txt' 'back\slash.c' 'star*' .git/config .git/objects/ab/cdef \
		node_modules/x.js lib/a.c lib/a.o lib/node_modules/y.js lib/sub/b.c \
		lib/sub/c.o lib/.cache/k a/b/c/node_modules/z.js a/b/c/d.txt a/b/e.o \
		foo/bar foo/x/bar foo/x/y/bar/f foo/bar.txt build/out.bin doc/build \
		doc/readme tmp/t1 x/tmp deep/d1/d2/d3/d4/d5/d6/d7/leaf.txt \
		deep/d1/top.txt 'sp ace dir/inner file' $'nl\ndir/f'; do
		printf '%s\n' "$f" >"$f"
	done
	mkdir wide
	for i in $(seq -w 1 60); do echo "$i" >"wide/f0$i"; done
	for i in 1 2 3 4 5; do mkdir "wide/sub$i" && echo "$i" >"wide/sub$i/g"; done
	cd ..
}

# GNU md5sum's lines for every file under DIR, named ./PATH, sorted.
md5_of_tree() {
	(cd "$1" && find . -type f -print0 | xargs -0 -r md5sum) | sort
}

@test "--exclude over one tree leaves out the files rsync leaves out, for every pattern of the table" {
	command -v rsync >/dev/null || skip "rsync is not installed: it gives the expected file sets"
	make_tree
	# rsync gets each pattern as it is: fhsum's rules are rsync's.
	local p bad=0 n=0 total
	local patterns=('*.o' '*.txt' '.*' '*' 'build' 'build/' '/build' 'bar' 'bar/'
		'foo/*/bar' 'foo/x' 'node_modules' 'node_modules/' '**/node_modules'
		'**/node_modules/' 'lib/**' 'lib/***' '**.c' 'a/b' '/a/b/c' 'deep/d1/d2'
		'* *' '*[[:space:]]*' '[!a-z]*' '[a-c]*' '[^.a-z]*' '?' '??' '.git/' '/.git'
		'wide/f0[0-4]?' 'wide/*' 'wide/*/' '*.[co]' 'lib/sub/' 'd?' 'f0??'
		'star\*' 'back\\slash.?' 'new?line.txt' '*line*' $'\351t*' $'nl\ndir/'
		'sp ace dir' 'tmp' 'tmp/' '/tmp' '**/tmp' 'x/tmp' '*/*/' '**/d7/**'
		'lib/sub/*.o' 'nothing-matches')
	total=$(md5_of_tree src | wc -l)
	[ "$total" -gt 80 ] || fail "the tree has $total files only"
	for p in "${patterns[@]}"; do
		rm -rf dst && mkdir dst
		rsync -r --exclude="$p" src/ dst/ || { fail "rsync failed on $p"; return 1; }
		md5_of_tree dst >want
		(cd src && fhsum -a md5 -r --exclude="$p" .) >got.raw || { fail "fhsum failed on $p"; bad=1; }
		sort got.raw >got
		if ! cmp -s want got; then
			bad=1
			printf '\n--- pattern %q: - rsync, + fhsum\n' "$p" >&2
			diff want got | grep '^[<>]' | head -20 >&2
		fi
		n=$((n + 1))
	done
	[ "$bad" = 0 ] || fail "some patterns differ from rsync (above)"
	[ "$n" -ge 50 ] || fail "only $n patterns ran"
}

@test "--exclude without rsync at hand: '**/' is one directory or more, an inner '/' matches the path's end at any depth" {
	make_tree
	# Written out here, as rsync(1) words them, from the root ".":
	# /foo/**/bar is bar two levels below foo or more (not foo/bar);
	# foo/*/bar is bar two below a foo at any depth (z/foo/x/bar too).
	mkdir -p src/z/foo/x && echo deep >src/z/foo/x/bar
	(cd src && find . -type f ! -path './foo/x/bar' ! -path './foo/x/y/bar/*' -print0 |
		xargs -0 md5sum) | sort >want.3
	(cd src && fhsum -a md5 -r --exclude='/foo/**/bar' .) | sort >got.3
	cmp -s want.3 got.3 || { diff want.3 got.3 >&2; fail "/foo/**/bar from ."; }
	(cd src && find . -type f ! -path './foo/x/bar' ! -path './z/foo/x/bar' -print0 |
		xargs -0 md5sum) | sort >want.4
	(cd src && fhsum -a md5 -r --exclude='foo/*/bar' .) | sort >got.4
	cmp -s want.4 got.4 || { diff want.4 got.4 >&2; fail "foo/*/bar from ."; }
}

# The tree rules/: a name for each of rsync's matching rules, at several
# depths (sub/*.c, foo/**/bar), names with a backslash (back\slash, a
# directory e\), a star, brackets, a semicolon and a hash.
make_rules_tree() {
	local d f
	mkdir rules && cd rules || return 1
	for d in sub a/sub a/b/sub foo/bar foo/x/bar foo/x/y/bar x/foo/bar z/foo/x \
		deep/d1/d2/d3 'e\' a/e; do
		mkdir -p "$d"
	done
	for f in top.c sub/a.c sub/b.h a/sub/c.c a/b/sub/d.c a/b/sub/e.h foo/bar/f \
		foo/x/bar/g foo/x/y/bar/h x/foo/bar/i foo/bar.c z/foo/x/bar 'back\slash' \
		backslash 'a/back\slash' 'star*' star '[' 'brk[x' 'a/brk[x' brkx 'tr\' tr \
		'e\/f' a/e/f 7up q ']x' ';x' '#x' .dot a/.dot deep/d1/d2/d3/leaf \
		deep/d1/leaf 'sp ace' $'nl\nx'; do
		printf '%s\n' "$f" >"$f"
	done
	cd ..
}

# rsync_vs_fhsum OPTION...: the files rsync -r OPTION... copies from
# rules/ (the transfer root) against those fhsum -r OPTION... hashes under
# the operand rules, as NUL-ended names from that directory; prints both
# sets' difference and returns 1 where they differ.
rsync_vs_fhsum() {
	rm -rf dst && mkdir dst
	rsync -r "$@" rules/ dst/ 2>rsync.err || { fail "rsync $*:" "$(cat rsync.err)"; return 1; }
	(cd dst && find . -type f -printf '%P\0') | sort -z >want
	fhsum -a md5 -r -z "$@" rules 2>fhsum.err | sed -z 's|^[0-9a-f]*  rules/||' | sort -z >got
	[ -s fhsum.err ] && { fail "fhsum $*:" "$(cat fhsum.err)"; return 1; }
	cmp -s want got && return
	printf '\n--- %s: - rsync, + fhsum\n' "$*" >&2
	diff <(tr '\0' '\n' <want) <(tr '\0' '\n' <got) | grep '^[<>]' >&2
	return 1
}

@test "--exclude follows rsync's rules: an inner '/' matches the path's end at any depth, '/' first anchors, '**/' is one directory or more, '\\' escapes only with wildcards, an unclosed '[' matches nothing" {
	command -v rsync >/dev/null || skip "rsync is not installed: it gives the expected file sets"
	make_rules_tree
	local p bad=0 n=0
	local patterns=(
		# No '/': the last name, at any depth.
		'*.c' 'sub' 'bar' '*.[ch]' '?' '.*' 'd?' 'leaf'
		# A trailing '/': directories only.
		'sub/' 'bar/' '*/' 'e\/' 'e\\/'
		# An inner '/': the last names of the path, at any depth.
		'sub/*.c' 'a/sub' 'b/sub/*.c' 'a/b/sub/*.c' 'x/a/b/sub/*.c' 'foo/*/bar'
		'*/sub' '*/sub/' 'foo/bar' 'd1/leaf' 'x/foo' 'foo/x/' 'a/e/f' 'e\/f'
		# A leading '/': anchored at the transfer root.
		'/sub' '/sub/*.c' '/a/sub' '/top.c' '/*.c' '/foo/*/bar' '/foo/x'
		# "**": any run of names; "**/" one directory or more.
		'foo/**/bar' '/foo/**/bar' '**/bar' '/**/bar' '**/sub/*.c' 'foo/**'
		'foo/***' '/foo/***' '**.c' 'o**c' 'a**' '**' '***' 'deep/**/leaf'
		'**/d3/leaf' 'x**i' 'b/**'
		# '\': an escape where the pattern has wildcards, else a byte.
		'back\slash' 'back\\slash' 'back\slash*' 'back\\slash*' '*\\slash'
		'star\*' 'star*' 'tr\' 'tr\*' 'tr*\' 'tr\\*' '*\' 'e\' '\q' 'b\ack*'
		'brk\[x' 'brk\[*'
		# Classes, and a '[' that nothing closes, which matches nothing.
		'[' 'brk[x' 'brk[*' '*[' '[]' '[!' '[a' 'brk[[]x' ']x' '[]]x'
		'[[:digit:]]*' '[![:alpha:]]*' '[[:foo:]]*' '[[:foo:]q]' '[[:alpha]*'
		'[[:x]y:]]*' '[]a]*' '[!a-z]*' '[^.a-z]*' '[a-c]*' '[\]]x' '[;#]x'
		# Empty names: a doubled '/' matches nothing.
		'a//sub' '/a//sub' 'sub//' '//sub' 'foo//bar/'
		'nothing-matches' 'sp ace' $'nl\nx' $'nl?x'
		# More of each kind together.
		'*/*/' '/*/' 'sub/**/' '/deep/**' '*/**/leaf' '**/*' 'e\/**' '\*'
		'a\/sub' 'a\/s*' '[!.]*' 'deep/*/' 'a/*/sub/'
	)
	for p in "${patterns[@]}"; do
		rsync_vs_fhsum --exclude="$p" || bad=1
		n=$((n + 1))
	done
	[ "$bad" = 0 ] || fail "some patterns differ from rsync (above)"
	[ "$n" -ge 100 ] || fail "only $n patterns ran"
}

@test "--exclude-from as rsync reads it: ';' and '#' lines are comments, CR ends a line, patterns add up" {
	command -v rsync >/dev/null || skip "rsync is not installed: it gives the expected file sets"
	make_rules_tree
	printf ';x\n#x\n; *.c\n# *.h\n*.h\r\n ;x\nq\rtr\r\r\n\n[\n' >pats
	rsync_vs_fhsum --exclude-from=pats || return 1
	rsync_vs_fhsum --exclude-from=pats --exclude='/sub/' || return 1
	printf 'brk[x\n\\q\n;\n#\n*\\\n' >pats2
	rsync_vs_fhsum --exclude-from=pats2 --exclude-from=pats
}

@test "--exclude matches the path from the directory operand; the operands themselves are never matched" {
	mkdir -p photos/2024 photos/2023/2024 d.o
	echo a >photos/2024/a
	echo b >photos/2023/2024/b
	echo c >photos/top
	echo x >x.o
	echo y >d.o/y
	capture got fhsum -a md5 -r --exclude=/2024 photos
	expect "/2024" 0 "$(md5sum photos/2023/2024/b photos/top)" || return 1
	capture got fhsum -a md5 -r --exclude=2024 photos
	expect "2024" 0 "$(md5sum photos/top)" || return 1
	# photos/2024 is 2024 from photos: /photos/2024 matches nothing.
	capture got fhsum -a md5 -r --exclude=/photos/2024 --exclude=photos photos
	expect "/photos/2024" 0 "$(md5sum photos/2023/2024/b photos/2024/a photos/top)" || return 1
	capture got fhsum -a md5 -r --exclude='*.o' x.o d.o
	expect "operands x.o and d.o" 0 "$(md5sum x.o d.o/y)" || return 1
	# A trailing slash on the operand changes nothing.
	capture got fhsum -a md5 -r --exclude=2023/ photos/ photos//
	expect "photos/" 0 "$(md5sum photos/2024/a photos/top photos/2024/a photos/top)" || return 1
}

@test "--exclude-from: comments, blank lines and CRLF skipped, '-' is standard input, patterns add up" {
	command -v rsync >/dev/null || skip "rsync is not installed: it gives the expected file sets"
	make_tree
	printf '# build output\r\n\r\n*.o\r\nbuild/\n#*.txt\n\n.git/\r\n' >pats
	printf '**/node_modules\n' >more
	rm -rf dst && mkdir dst
	rsync -r --exclude='*.o' --exclude=build/ --exclude=.git/ --exclude=node_modules \
		--exclude=wide src/ dst/
	md5_of_tree dst >want
	grep -q '\.txt$' want || fail "the txt files are gone: '#*.txt' is no comment to rsync"
	(cd src && fhsum -a md5 -r --exclude-from=../pats --exclude-from=../more --exclude=wide .) |
		sort >got
	cmp -s want got || { diff want got >&2; fail "--exclude-from=FILE"; }
	(cd src && fhsum -a md5 -r --exclude-from=- --exclude-from=../more --exclude=wide . <../pats) |
		sort >got.in
	cmp -s want got.in || { diff want got.in >&2; fail "--exclude-from=-"; }
	# A file of comments alone excludes nothing.
	printf '#\n# *\n' >none
	(cd src && fhsum -a md5 -r --exclude-from=../none .) | sort >got.none
	md5_of_tree src | cmp -s - got.none || fail "comments excluded something"
}

@test "an --exclude-from file that cannot be read: said with its name before any hashing, exit 1 (64 under --audit)" {
	mkdir t d
	echo a >t/a
	capture got fhsum -r --exclude-from=nosuch t
	expect "missing file" 1 "" "PROG: cannot open 'nosuch' for reading: No such file or directory" || return 1
	capture got fhsum -r --exclude-from=d t
	expect "a directory" 1 "" "PROG: d: Is a directory" || return 1
	capture got fhsum -r --exclude=x --exclude-from=nosuch t
	expect "after a good pattern" 1 "" "PROG: cannot open 'nosuch' for reading: No such file or directory" || return 1
	md5sum t/a >L
	capture got fhsum --audit=L --exclude-from=nosuch -r t
	expect "--audit" 64 "" "PROG: cannot open 'nosuch' for reading: No such file or directory" || return 1
	capture got fhsum --update=L --exclude-from=d -r t
	expect "--update" 64 "" "PROG: d: Is a directory" || return 1
	md5sum t/a | cmp -s - L || fail "L changed"
	# A line longer than any pattern.
	{ printf '*.o\n'; head -c 70000 /dev/zero | tr '\0' x; printf '\n'; } >long
	capture got fhsum -r --exclude-from=long t
	expect "a long line" 1 "" "PROG: long:2: pattern longer than 65536 bytes" || return 1
}

@test "--exclude without -r, --audit or --update is a usage error; --exclude-from=- and --files-from=- clash" {
	echo a >a
	capture got fhsum --exclude='*.o' a
	expect "--exclude alone" 1 "" "PROG: --exclude needs -r, --audit, --update or --scrub
Try 'PROG --help' for more information." || return 1
	capture got fhsum --exclude-from=/dev/null -c a
	expect "--exclude-from with -c" 1 "" "PROG: --exclude-from needs -r, --audit, --update or --scrub
Try 'PROG --help' for more information." || return 1
	capture got fhsum -r --exclude-from=- --files-from=- </dev/null
	expect "both on stdin" 1 "" "PROG: --exclude-from and --files-from cannot both read standard input
Try 'PROG --help' for more information." || return 1
	# With -r, --audit or --update it is taken.
	capture got fhsum -a md5 -r --exclude='*.o' a
	expect "with -r" 0 "$(md5sum a)" || return 1
}

# t/ and its md5sum list L: a, b.tmp, keep/k, skip/c, skip/deep/d.
audit_tree() {
	mkdir -p t/keep t/skip/deep
	echo a >t/a
	echo b >t/b.tmp
	echo k >t/keep/k
	echo c >t/skip/c
	echo d >t/skip/deep/d
	md5sum t/a t/b.tmp t/keep/k t/skip/c t/skip/deep/d >L
	cp L L.orig
	# Gone: a listed file of each kind; new: an unlisted one of each.
	rm t/b.tmp t/skip/c
	echo n >t/new.tmp
	echo m >t/skip/m
}

@test "--audit: files a pattern hides are neither NEW nor MISSING, and counted nowhere" {
	audit_tree
	capture got fhsum --audit=L --exclude='*.tmp' --exclude=skip/ -r t
	expect "audit with patterns" 0 "t/a: OK
t/keep/k: OK" "" || return 1
	# Without them the same tree has all four to say.
	capture got fhsum --audit=L -r t
	[ "$(cat got.rc)" = 3 ] || fail "without patterns: exit $(cat got.rc), want 3"
	grep -qx 't/b.tmp: MISSING' got.out && grep -qx 't/skip/m: NEW' got.out ||
		fail "without patterns:" "$(cat got.out)"
	# Anchored at the directory operand t, a directory above a listed
	# name hides it; with --files-from (no directory operand) the name
	# as listed is matched.
	capture got fhsum --audit=L --exclude=/skip --exclude='b.*' -r t
	expect "/skip" 1 "t/a: OK
t/keep/k: OK
t/new.tmp: NEW" "PROG: WARNING: 1 new file" || return 1
	capture got fhsum --audit=L --exclude='t/skip' --exclude='*.tmp' --files-from=<(printf 't/a\nt/keep/k\n')
	expect "--files-from" 0 "t/a: OK
t/keep/k: OK" "" || return 1
	capture got fhsum --audit=L --exclude='/skip' --exclude='*.tmp' --files-from=<(printf 't/a\nt/keep/k\n')
	[ "$(cat got.rc)" = 2 ] && grep -qx 't/skip/c: MISSING' got.out ||
		fail "/skip matched t/skip/c as listed: exit $(cat got.rc):" "$(cat got.out)"
	# --json says the same.
	capture got fhsum --audit=L --json --exclude='*.tmp' --exclude=skip/ -r t
	[ "$(cat got.rc)" = 0 ] && ! grep -q 'MISSING\|NEW' got.out || fail "--json:" "$(cat got.out)"
}

@test "--update keeps the lines a pattern hides, with and without --prune, and lists no excluded new file" {
	audit_tree
	capture got fhsum --update=L --exclude='*.tmp' --exclude=skip/ -r t
	expect "update" 0 "" "" || return 1
	cmp -s L L.orig || { diff L.orig L >&2; fail "L changed"; }
	capture got fhsum --update=L --prune --exclude='*.tmp' --exclude=skip/ -r t
	expect "update --prune" 0 "" "" || return 1
	cmp -s L L.orig || { diff L.orig L >&2; fail "--prune changed L"; }
	# A new file no pattern hides is added; the hidden lines stay.
	echo n2 >t/n2
	capture got fhsum --update=L --prune --exclude='*.tmp' --exclude='skip' -r t
	expect "update --prune, one new file" 1 "t/n2: NEW" "PROG: WARNING: 1 new file" || return 1
	# (Adding a line, the list names its algorithm first: MD5's 32 hex
	# digits are XXH128's too.)
	{ echo '#fhsum untagged=md5'; cat L.orig; md5sum t/n2; } | cmp -s - L ||
		{ cat L >&2; fail "L is not the old list and t/n2"; }
	# Without the patterns --prune drops the missing lines and lists
	# the new files: the same run with them kept them for a reason.
	capture got fhsum --update=L --prune -r t
	[ "$(cat got.rc)" = 3 ] || fail "without patterns: exit $(cat got.rc)"
	! grep -q 't/skip/c$' L && grep -q 't/skip/m$' L || fail "without patterns:" "$(cat L)"
}

@test "a directory a pattern matches is never opened: no error for an unreadable directory under it" {
	in_open_dir
	mkdir -p t/cache/locked t/locked2 t/keep
	echo a >t/keep/a
	echo z >t/cache/locked/z
	echo y >t/locked2/y
	chmod -R a+rX t; chmod 000 t/cache/locked t/locked2; chmod 777 .
	local rc=0
	as_nobody "${FHSUM_WRAP[@]}" "$FHSUM" -a md5 -r t >out 2>err || rc=$?
	[ $rc = 77 ] && skip "no unprivileged user to run as"
	[ $rc = 1 ] && [ -s err ] || {
		chmod -R u+rwX t
		skip "the unprivileged user reads a directory of mode 000 here"
	}
	rc=0
	as_nobody "${FHSUM_WRAP[@]}" "$FHSUM" -a md5 -r --exclude=cache/ --exclude=locked2 t >out 2>err || rc=$?
	chmod -R u+rwX t
	[ $rc = 0 ] || fail "exit $rc:" "$(cat err)"
	[ ! -s err ] || fail "said:" "$(cat err)"
	md5sum t/keep/a | cmp -s - out || fail "output:" "$(cat out)"
	# --update of a list that names the hidden files keeps them.
	md5sum t/keep/a t/cache/locked/z t/locked2/y >L
	cp L L.orig
	chmod 000 t/cache/locked t/locked2; chmod 666 L
	rc=0
	as_nobody "${FHSUM_WRAP[@]}" "$FHSUM" --update=L --prune --exclude='/cache/' --exclude=locked2/ -r t >out 2>err || rc=$?
	chmod -R u+rwX t
	[ $rc = 0 ] && [ ! -s out ] && [ ! -s err ] || fail "update: exit $rc:" "$(cat out err)"
	cmp -s L L.orig || fail "L changed:" "$(cat L)"
}
