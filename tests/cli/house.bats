#!/usr/bin/env bats
# The house's own rules, checked on the built command and the source tree:
# --help, --list-kernels and --benchmark fit an 80-column terminal, the
# man pages format without warnings at 80 columns and break no word, the
# project's files speak of the project alone (no path outside the
# repository, no issue numbers), the link names meson installs are the
# table of algorithms', and fhsum.pc and libfhsum(3) name every family.

load helper

ROOT=$BATS_TEST_DIRNAME/../..

setup() {
	common_setup
}

@test "house: no line of --help passes 80 columns" {
	capture got fhsum --help
	[ "$(cat got.rc)" = 0 ] || fail "--help exit status $(cat got.rc)"
	[ -s got.out ] || fail "--help printed nothing on stdout"
	local long
	long=$(awk 'length > 80 { printf "line %d, %d columns: %s\n", NR, length, $0 }' got.out)
	[ -z "$long" ] || fail "--help lines over 80 columns:" "$long"
}

@test "house: the man pages format at 80 columns without warnings" {
	unset MAN_KEEP_FORMATTING MANPAGER PAGER
	command -v man >/dev/null ||
		skip "man is not installed: the man pages cannot be formatted here"
	local page err long bad=0
	for page in "$ROOT/man/fhsum.1" "$ROOT/man/libfhsum.3"; do
		# Not on a terminal, man strips the overstrikes itself.
		err=$(MANWIDTH=80 man --warnings -E ascii -l "$page" 2>&1 >rendered) ||
			{ echo "man -l $page failed: $err" >&2; bad=1; continue; }
		[ -s rendered ] || { echo "man -l $page printed nothing" >&2; bad=1; }
		[ -z "$err" ] || { echo "${page##*/}: $err" >&2; bad=1; }
		# A table or a no-fill block that man does not warn of may still
		# run past the terminal's edge.
		long=$(awk 'length > 80 { printf "line %d, %d columns: %s\n", NR, length, $0 }' rendered)
		[ -z "$long" ] || { printf '%s over 80 columns:\n%s\n' "${page##*/}" "$long" >&2; bad=1; }
		if command -v groff >/dev/null; then
			err=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
			[ -z "$err" ] || { echo "groff -ww ${page##*/}: $err" >&2; bad=1; }
		fi
	done
	return $bad
}

@test "house: no tracked file names a path outside the repository or an issue number" {
	command -v git >/dev/null || skip "git is not installed"
	git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		skip "not a git checkout: no list of tracked files"
	# The patterns are spelt so that this file does not match them.
	local hits
	hits=$(git -C "$ROOT" grep -n -I -i -E '\.\./shar[e]d|issues? #?[0-9]' || true)
	[ -z "$hits" ] || fail "tracked files point outside the project:" "$hits"
	# In prose, "#12" is an issue number too.
	hits=$(git -C "$ROOT" grep -n -I -E '(^|[[:space:](])#[0-9]+' -- '*.md' || true)
	[ -z "$hits" ] || fail "documents cite issue numbers:" "$hits"
}

@test "house: no build artifact is tracked" {
	command -v git >/dev/null || skip "git is not installed"
	git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		skip "not a git checkout: no list of tracked files"
	local hits
	hits=$(git -C "$ROOT" ls-files | grep -E '(^|/)__pycache__/|\.py[co]$|\.o$' || true)
	[ -z "$hits" ] || fail "build artifacts are tracked:" "$hits"
}

@test "house: the program names meson installs are those of the table of algorithms" {
	# cmd/meson.build and cmd/completion/meson.build name the links
	# that -Dlinks and -Dgnu_links install (meson cannot read lib/algo.c);
	# they must be the PROGRAM column of --list-algorithms, fhsum's own
	# names for -Dlinks and GNU's (and b3sum) for -Dgnu_links.
	capture got fhsum --list-algorithms
	[ "$(cat got.rc)" = 0 ] || fail "--list-algorithms exit status $(cat got.rc)"
	local own gnu links gnu_links completion
	# Another project's program (b3sum, marked "(b3sum)") goes with GNU's.
	own=$(awk '!/^(ALGORITHM|#)/ && $6 != "-" && $7 == "" { print $6 }' got.out | sort | xargs)
	gnu=$(awk '!/^(ALGORITHM|#)/ && $7 ~ /^\(/ { print $6 }' got.out | sort | xargs)
	[ -n "$own" ] && [ -n "$gnu" ] || fail "--list-algorithms names no programs" "$(cat got.out)"
	# The quoted words of the line after "get_option('NAME')" up to "]".
	words() { # FILE OPTION SUFFIX
		sed -n "/get_option('$2')/,/\]/p" "$1" | grep -o "'[a-z0-9-]*'" |
			tr -d "'" | grep -v "^$2\$" | sed "s/\$/$3/" | sort | xargs
	}
	links=$(words "$ROOT/cmd/meson.build" links sum)
	gnu_links=$(words "$ROOT/cmd/meson.build" gnu_links '')
	completion=$(sed -n "/get_option('links')/,/\]/p" "$ROOT/cmd/completion/meson.build" |
		grep -o "'[a-z0-9-]*sum'" | tr -d "'" | sort | xargs)
	[ "$links" = "$own" ] || fail "-Dlinks installs '$links', the table says '$own'"
	[ "$gnu_links" = "$gnu" ] || fail "-Dgnu_links installs '$gnu_links', the table says '$gnu'"
	[ "$completion" = "$own" ] || fail "the completions' links are '$completion', the table says '$own'"
}

@test "house: --list-kernels and --benchmark's lines fit 80 columns" {
	local long
	capture got fhsum --list-kernels
	[ "$(cat got.rc)" = 0 ] || fail "--list-kernels exit status $(cat got.rc)"
	long=$(awk 'length > 80 { printf "line %d, %d columns: %s\n", NR, length, $0 }' got.out)
	[ -z "$long" ] || fail "--list-kernels lines over 80 columns:" "$long"
	# One algorithm is enough for the footer, which every run prints.
	capture got fhsum --benchmark -a md5
	[ "$(cat got.rc)" = 0 ] || fail "--benchmark exit status $(cat got.rc)"
	long=$(awk 'length > 80 { printf "line %d, %d columns: %s\n", NR, length, $0 }' got.out)
	[ -z "$long" ] || fail "--benchmark lines over 80 columns:" "$long"
}

@test "house: the man pages hyphenate no word (a quoted message stays whole)" {
	unset MAN_KEEP_FORMATTING MANPAGER PAGER
	command -v man >/dev/null ||
		skip "man is not installed: the man pages cannot be formatted here"
	local page w hits bad=0
	for page in "$ROOT/man/fhsum.1" "$ROOT/man/libfhsum.3"; do
		for w in 60 80; do
			# A line that ends in a letter and a hyphen is a word that
			# was broken ("fh-" then "sum: ..." on the next line).
			hits=$(MANWIDTH=$w man -E ascii -l "$page" 2>/dev/null | grep -n '[[:alpha:]]-$' || true)
			[ -z "$hits" ] || { printf '%s at %s columns:\n%s\n' "${page##*/}" "$w" "$hits" >&2; bad=1; }
		done
	done
	return $bad
}

@test "house: fhsum.pc's description and libfhsum(3)'s NAME line name every family of algorithms" {
	local fam pc name bad=0
	# The description meson writes into fhsum.pc, and the NAME section.
	pc=$(grep -o "description: '[^']*'" "$ROOT/lib/meson.build")
	name=$(sed -n '/^\.SH NAME/,/^\.SH/p' "$ROOT/man/libfhsum.3" | tr '\n' ' ' | sed 's/\\-/-/g')
	[ -n "$pc" ] || fail "no description in lib/meson.build"
	for fam in MD5 SHA-1 SHA-2 SHA-3 SHAKE TurboSHAKE KangarooTwelve; do
		[[ $pc == *"$fam"[,\ \']* ]] || { echo "fhsum.pc's description lacks $fam: $pc" >&2; bad=1; }
		[[ $name == *"$fam"[,\ ]* ]] || { echo "libfhsum(3)'s NAME lacks $fam: $name" >&2; bad=1; }
	done
	return $bad
}

@test "house: the README stays under 300 lines, keeps its two quick-start commands, and names every -a name and program name of the table" {
	local readme=$ROOT/README.md n missing=
	n=$(wc -l <"$readme")
	[ "$n" -lt 300 ] || fail "README.md has $n lines: 300 or more"
	grep -qE '^    .*meson setup build && ninja -C build && build/cmd/fhsum .*README.md$' "$readme" ||
		fail "README.md lost its command that builds fhsum and hashes a real file"
	grep -qx '    meson test -C build' "$readme" || fail "README.md lost its command that runs the test suite"
	capture got fhsum --list-algorithms
	[ "$(cat got.rc)" = 0 ] || fail "--list-algorithms exit status $(cat got.rc)"
	for n in $(awk '!/^(ALGORITHM|#)/ { print $1; if ($6 != "-") print $6 }' got.out); do
		grep -qF "\`$n\`" "$readme" || missing="$missing $n"
	done
	[ -z "$missing" ] || fail "README.md does not name:$missing"
}
