#!/usr/bin/env bash
# install.sh: libfhsum as a user gets it.  Installs the build into a
# temporary DESTDIR (meson install --destdir), checks the installed files,
# then builds tests/install/user.c and the example of man/libfhsum.3
# against that tree through pkg-config alone: with the shared library (run
# with LD_LIBRARY_PATH) and with the static one (pkg-config --static,
# cc -static), as -Ddefault_library built them.  The digests they print
# must be those of tests/vectors.  With -Dlinks=true the sha3-*sum links
# must be installed and hash as their names say; without, absent.  With
# -Dcompletions=true the bash, zsh and fish completion files must be where
# those shells look (bash: bash-completion's completionsdir under this
# prefix when pkg-config knows bash-completion), the same as the source's,
# named after the links too for bash and fish with -Dlinks=true, and the
# installed bash file must pass tests/completion/bash.sh; without, absent.
#
# Run by meson test (tests/install/meson.build), which passes the build's
# layout in the environment: MESON, BUILD, SRC, CC (the C compiler, words
# split), PREFIX, LIBDIR, INCLUDEDIR, MANDIR, BINDIR, DATADIR,
# DEFAULT_LIBRARY, LINKS, COMPLETIONS.  Exit 0 pass, 1 fail, 77 skip (no
# pkg-config, no C compiler).
set -euo pipefail
export LC_ALL=C
unset LD_LIBRARY_PATH

skip() { echo "SKIP: $*"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

command -v pkg-config >/dev/null || skip "pkg-config not found"
read -r -a cc <<<"$CC"
command -v "${cc[0]}" >/dev/null || skip "C compiler ${cc[0]} not found"

abs() { case $1 in /*) echo "$1" ;; *) echo "$PREFIX/$1" ;; esac; }
libdir=$(abs "$LIBDIR") includedir=$(abs "$INCLUDEDIR")
mandir=$(abs "$MANDIR") bindir=$(abs "$BINDIR") datadir=$(abs "$DATADIR")

# Where each shell looks for completions; bash-completion's directory as
# its .pc builds it from a datadir that is this prefix's, as long as that
# stays under the prefix (cmd/completion/meson.build).
bashcompdir=$datadir/bash-completion/completions
if dir=$(pkg-config --define-variable=datadir="$datadir" \
	--variable=completionsdir bash-completion 2>/dev/null) &&
	[ -n "$dir" ] && [[ $dir == "$PREFIX"/* ]]; then
	bashcompdir=$dir
fi
zshcompdir=$datadir/zsh/site-functions
fishcompdir=$datadir/fish/vendor_completions.d

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
if ! "$MESON" install -C "$BUILD" --no-rebuild --destdir "$root" \
	>"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: meson install"
	exit 1
fi

want=("$includedir/fhsum.h" "$libdir/pkgconfig/fhsum.pc"
      "$mandir/man3/libfhsum.3" "$mandir/man1/fhsum.1" "$bindir/fhsum")
[ "$DEFAULT_LIBRARY" != static ] && want+=("$libdir/libfhsum.so.0")
[ "$DEFAULT_LIBRARY" != shared ] && want+=("$libdir/libfhsum.a")
for f in "${want[@]}"; do
	[ -e "$root$f" ] || fail "not installed: $f"
done
((failures == 0)) || { find "$root" | sed "s|^$root||"; exit 1; }

# The completion files, as the shells find them by the command's name.
completions=("$bashcompdir/fhsum=cmd/completion/fhsum.bash"
	"$zshcompdir/_fhsum=cmd/completion/_fhsum"
	"$fishcompdir/fhsum.fish=cmd/completion/fhsum.fish")
for a in sha3-224 sha3-256 sha3-384 sha3-512; do
	completions+=("$bashcompdir/${a}sum=fhsum" "$fishcompdir/${a}sum.fish=fhsum.fish")
done
for c in "${completions[@]}"; do
	f=$root${c%%=*} from=${c#*=}
	if [ "$COMPLETIONS" != true ] || { [[ $from != */* ]] && [ "$LINKS" != true ]; }; then
		[ ! -e "$f" ] && [ ! -L "$f" ] || fail "installed: ${c%%=*}"
	elif [[ $from == */* ]]; then
		cmp -s "$f" "$SRC/$from" || fail "not installed as $from: ${c%%=*}"
	else
		[ -L "$f" ] && [ "$(readlink "$f")" = "$from" ] ||
			fail "not a link to $from: ${c%%=*}"
	fi
done
if [ "$COMPLETIONS" = true ] && ((failures == 0)); then
	LD_LIBRARY_PATH=$root$libdir bash "$SRC/tests/completion/bash.sh" "$root$bindir/fhsum" \
		"$root$bashcompdir/fhsum" "$root$zshcompdir/_fhsum" "$root$fishcompdir/fhsum.fish" ||
		fail "tests/completion/bash.sh on the installed files"
	echo "completions: in $bashcompdir, $zshcompdir, $fishcompdir"
fi
((failures == 0)) || { find "$root" | sed "s|^$root||"; exit 1; }

# pkg-config sees only this tree, with its paths under the DESTDIR.
export PKG_CONFIG_LIBDIR=$root$libdir/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
modversion=$(pkg-config --modversion fhsum)
static_libs=$(pkg-config --static --libs fhsum)
case " $static_libs " in
*" -pthread "* | *" -lpthread "*) ;;
*) fail "pkg-config --static --libs fhsum lacks the threads flag: $static_libs" ;;
esac

# The lengths checked: every block size and Keccak rate, each side.
lengths=(0 1 55 56 63 64 65 71 72 73 103 104 105 127 128 129 135 136 137
	 143 144 145 167 168 169 200 500 1000 1100)
algos=(md5 sha3-224 sha3-256 sha3-384 sha3-512 shake128 shake256)

# Expected "LENGTH HEX" lines of ALGO, from tests/vectors.
expected() {
	awk -v l=" ${lengths[*]} " '!/^#/ && index(l, " " $1 " ") { print }' \
		"$SRC/tests/vectors/$1.len"
}

# The example of man/libfhsum.3, as a user would copy it out of the page.
sed -n '/^\.SH EXAMPLE/,/^\.SH/p' "$SRC/man/libfhsum.3" |
	sed -n '/^\.EX/,/^\.EE/{/^\.E[XE]/d;p;}' | sed '/^\$ /,$d' |
	sed 's/\\-/-/g; s/\\e/\\/g' >"$tmp/example.c"
kat() { # ALGO: the published digest of "abc" in tests/vectors/kat.txt
	awk -v a="$1" '$1 == a && $3 == "str:abc" { print $4; exit }' \
		"$SRC/tests/vectors/kat.txt"
}
example_want=$(printf '%s  abc\n%s  -\n' "$(kat sha3-256)" "$(kat md5)")

# Runs the programs built as KIND (shared, static) with the loader's
# environment in ENV...
check_programs() { # KIND ENV...
	local kind=$1 out
	shift
	local bin=$tmp/user-$kind
	out=$(env "$@" "$bin" --version) ||
		fail "$kind: user --version failed"
	[ "$out" = "$modversion $modversion" ] ||
		fail "$kind: versions: header and library say '$out', pkg-config '$modversion'"
	for a in "${algos[@]}"; do
		if ! env "$@" "$bin" "$a" "${lengths[@]}" >"$tmp/got" 2>"$tmp/err"; then
			cat "$tmp/err"
			fail "$kind: user $a failed"
			continue
		fi
		expected "$a" >"$tmp/want"
		[ -s "$tmp/want" ] || fail "no vectors for $a"
		diff "$tmp/want" "$tmp/got" >"$tmp/diff" ||
			{ cat "$tmp/diff"; fail "$kind: $a digests differ from tests/vectors"; }
	done
	echo "$kind: $(head -1 "$tmp/err")"
	out=$(printf abc | env "$@" "$tmp/example-$kind" abc 2>/dev/null) ||
		fail "$kind: the man page example failed"
	[ "$out" = "$example_want" ] ||
		fail "$kind: the man page example printed '$out', not '$example_want'"
}

needs() { # FILE SONAME: whether FILE's dynamic section needs SONAME
	readelf -d "$1" 2>/dev/null | grep -q "NEEDED.*\[$2\]"
}

if [ "$DEFAULT_LIBRARY" != static ]; then
	read -r -a flags <<<"$(pkg-config --cflags --libs fhsum)"
	for p in user example; do
		src=$SRC/tests/install/user.c
		[ $p = example ] && src=$tmp/example.c
		"${cc[@]}" -std=c11 -Wall -Wextra -Werror -o "$tmp/$p-shared" \
			"$src" "${flags[@]}" || fail "shared: building $p.c"
	done
	if command -v readelf >/dev/null && ! needs "$tmp/user-shared" libfhsum.so.0; then
		fail "shared: user does not need libfhsum.so.0"
	fi
	check_programs shared LD_LIBRARY_PATH="$root$libdir"
fi

if [ "$DEFAULT_LIBRARY" != shared ]; then
	read -r -a flags <<<"$(pkg-config --static --cflags --libs fhsum)"
	echo 'int main(void) { return 0; }' >"$tmp/probe.c"
	if ! "${cc[@]}" -static -o "$tmp/probe" "$tmp/probe.c" 2>/dev/null; then
		echo "SKIP static: this compiler cannot link -static (no libc.a)"
	else
		for p in user example; do
			src=$SRC/tests/install/user.c
			[ $p = example ] && src=$tmp/example.c
			"${cc[@]}" -std=c11 -Wall -Wextra -Werror -static \
				-o "$tmp/$p-static" "$src" "${flags[@]}" ||
				fail "static: building $p.c"
		done
		if command -v readelf >/dev/null && readelf -d "$tmp/user-static" 2>/dev/null |
			grep -q NEEDED; then
			fail "static: user needs shared libraries"
		fi
		check_programs static
	fi
fi

# The sum-name links: each hashes as its name says, with no -a.
for bin in "$tmp/user-shared" "$tmp/user-static"; do
	[ -x "$bin" ] && LD_LIBRARY_PATH="$root$libdir" "$bin" --pattern 1000 >"$tmp/p1000" &&
		break
done
for a in sha3-224 sha3-256 sha3-384 sha3-512; do
	link=$root$bindir/${a}sum
	if [ "$LINKS" != true ]; then
		[ ! -e "$link" ] && [ ! -L "$link" ] || fail "${a}sum installed without -Dlinks=true"
		continue
	fi
	[ -L "$link" ] && [ "$(readlink "$link")" = fhsum ] ||
		{ fail "${a}sum is not a link to fhsum"; continue; }
	got=$(cd "$tmp" && "$link" p1000) || { fail "${a}sum failed"; continue; }
	want="$(awk '$1 == 1000 { print $2 }' "$SRC/tests/vectors/$a.len")  p1000"
	[ "$got" = "$want" ] || fail "${a}sum printed '$got', not '$want'"
done
[ "$LINKS" = true ] && ((failures == 0)) && echo "links: sha3-224sum ... sha3-512sum hash as named"

# The GNU names in libexec/fhsum/gnubin: each is that GNU program's default.
gnubin=$root$PREFIX/${LIBEXECDIR:-libexec}/fhsum/gnubin
case ${LIBEXECDIR:-libexec} in /*) gnubin=$root$LIBEXECDIR/fhsum/gnubin ;; esac
for a in md5 sha1 sha224 sha256 sha384 sha512; do
	link=$gnubin/${a}sum
	if [ "${GNU_LINKS:-false}" != true ]; then
		[ ! -e "$link" ] && [ ! -L "$link" ] || fail "${a}sum in gnubin without -Dgnu_links=true"
		[ ! -e "$root$bindir/${a}sum" ] || [ "$a" != md5 ] || fail "md5sum installed in bin"
		continue
	fi
	[ -L "$link" ] || { fail "gnubin/${a}sum is not a link"; continue; }
	# The link points to where fhsum will be; here it sits under $root.
	target=$root$(readlink "$link")
	[ -x "$target" ] || { fail "gnubin/${a}sum points to $(readlink "$link")"; continue; }
	ln -sf "$target" "$tmp/${a}sum"
	got=$(cd "$tmp" && "./${a}sum" p1000) || { fail "gnubin ${a}sum failed"; continue; }
	want="$(awk '$1 == 1000 { print $2 }' "$SRC/tests/vectors/$a.len")  p1000"
	[ "$got" = "$want" ] || fail "gnubin ${a}sum printed '$got', not '$want'"
done
[ "${GNU_LINKS:-false}" = true ] && ((failures == 0)) && echo "gnubin: md5sum, sha1sum ... sha512sum hash as named"

((failures == 0)) || exit 1
echo "installed tree, pkg-config builds and digests: all good"
