#!/usr/bin/env bats
# Lists as projects publish them, read by -c under fhsum's own name
# (fhsum(1), CHECKING): sidecars holding one digest, OpenSSL 3's tags,
# `gpg --print-md` records, clear-signed lists (only the signed text),
# and a one-line list naming a build path.  Under a GNU link name every
# list reads as GNU's sha256sum reads it, byte for byte.  The lists are
# made by the real tools (sha256sum and the other GNU programs, openssl
# dgst, gpg) and digests by them or by Python's hashlib, never by fhsum.

load helper

setup_file() {
	# A throw-away key for the clear-signed lists, once for the file; its
	# home is short, as gpg-agent's socket path must be.
	if command -v gpg >/dev/null; then
		GNUPGHOME=$(mktemp -d /tmp/fhgpg.XXXXXX)
		export GNUPGHOME
		gpg --batch --quiet --passphrase '' \
			--quick-gen-key 'fhsum test <test@example.invalid>' ed25519 sign never \
			>/dev/null 2>&1 || GNUPGHOME=
	fi
}

teardown_file() {
	if [ -n "${GNUPGHOME:-}" ]; then
		gpgconf --kill all >/dev/null 2>&1 || true
		rm -rf "$GNUPGHOME"
	fi
}

setup() {
	common_setup
	printf 'hello world\n' >app.tar.gz
	printf 'second file\n' >b.txt
}

# Runs ARGS under fhsum's sha256sum link and GNU sha256sum, in the same
# directory: standard output, standard error (the program's name aside)
# and the status must be the same.
same_as_gnu() {
	local gout gerr gst fout ferr fst
	gout=$(sha256sum "$@" 2>gnu.err) && gst=0 || gst=$?
	fout=$(fhsum_as sha256sum "$@" 2>fh.err) && fst=0 || fst=$?
	gerr=$(cat gnu.err) ferr=$(cat fh.err)
	[ "$gout" = "$fout" ] || fail "sha256sum $* stdout differs" "GNU: $gout" "link: $fout"
	[ "$gerr" = "$ferr" ] || fail "sha256sum $* stderr differs" "GNU: $gerr" "link: $ferr"
	[ "$gst" = "$fst" ] || fail "sha256sum $*: GNU exits $gst, the link $fst"
}

hex_of() { # ALGO FILE: the digest by Python's hashlib
	python3 -c 'import hashlib,sys; print(hashlib.new(sys.argv[1], open(sys.argv[2],"rb").read()).hexdigest())' "$@"
}

@test "published: a sidecar holding one digest checks the file it is named for" {
	sha256sum app.tar.gz | cut -c1-64 >app.tar.gz.sha256
	run fhsum -c app.tar.gz.sha256
	[ "$status" = 0 ] && [ "$output" = "app.tar.gz: OK" ] || fail "$status: $output"
	same_as_gnu -c app.tar.gz.sha256

	# Upper case, CRLF, no line end at all (goreleaser's split files).
	printf '%s\r\n' "$(hex_of sha512 app.tar.gz | tr a-f A-F)" >app.tar.gz.sha512
	printf '%s' "$(hex_of md5 app.tar.gz)" >app.tar.gz.md5
	printf '%s\n' "$(hex_of sha3_256 app.tar.gz)" >app.tar.gz.sha3-256
	python3 -c 'import base64,hashlib; print(base64.b64encode(hashlib.sha256(open("app.tar.gz","rb").read()).digest()).decode())' >app.tar.gz.sha256sum
	for s in app.tar.gz.sha512 app.tar.gz.md5 app.tar.gz.sha3-256 app.tar.gz.sha256sum; do
		run fhsum -c "$s"
		[ "$status" = 0 ] && [ "$output" = "app.tar.gz: OK" ] || fail "$s: $status: $output"
	done

	# In the sidecar's directory as given.
	mkdir dl
	cp app.tar.gz dl/
	cp app.tar.gz.sha256 dl/
	run fhsum -c dl/app.tar.gz.sha256
	[ "$status" = 0 ] && [ "$output" = "dl/app.tar.gz: OK" ] || fail "dl: $status: $output"
}

@test "published: a sidecar's algorithm: the extension's, -a's, else settled by content" {
	# .txt names no algorithm: 64 hex digits are settled by the file.
	hex_of sha3_256 app.tar.gz >app.tar.gz.txt
	run fhsum -c app.tar.gz.txt
	[ "$status" = 0 ] && [ "$output" = "app.tar.gz: OK" ] || fail "settled: $status: $output"
	# The extension rules: a SHA3-256 digest under .sha256 is no SHA-256.
	cp app.tar.gz.txt app.tar.gz.sha256
	run fhsum -c app.tar.gz.sha256
	[ "$status" = 1 ] && [[ $output == *"app.tar.gz: FAILED"* ]] || fail "extension: $status: $output"
	run fhsum -a sha3-256 -c app.tar.gz.sha256
	[ "$status" = 0 ] && [ "$output" = "app.tar.gz: OK" ] || fail "-a: $status: $output"
	# A digest of a length the extension's algorithm has not.
	hex_of md5 app.tar.gz >app.tar.gz.sha1
	run fhsum -c app.tar.gz.sha1
	[ "$status" = 1 ] && [[ $output == *"no properly formatted checksum lines found"* ]] ||
		fail "length: $status: $output"
}

@test "published: a sidecar's FAILED, missing and tampered cases" {
	sha256sum app.tar.gz | cut -c1-64 >app.tar.gz.sha256
	cp app.tar.gz.sha256 good
	printf 'changed\n' >app.tar.gz
	run fhsum -c app.tar.gz.sha256
	[ "$status" = 1 ] && [[ $output == "app.tar.gz: FAILED"* ]] &&
		[[ $output == *"1 computed checksum did NOT match"* ]] || fail "changed: $status: $output"
	rm app.tar.gz
	run fhsum -c app.tar.gz.sha256
	[ "$status" = 1 ] && [[ $output == *"app.tar.gz: FAILED open or read"* ]] || fail "missing: $status: $output"
	printf 'hello world\n' >app.tar.gz
	sed 's/^a/b/' good >app.tar.gz.sha256
	run fhsum -c app.tar.gz.sha256
	[ "$status" = 1 ] && [[ $output == "app.tar.gz: FAILED"* ]] || fail "tampered: $status: $output"
	# A second line makes it a list like any other: GNU's reading.
	{ cat good; cat good; } >app.tar.gz.sha256
	run fhsum -c app.tar.gz.sha256
	[ "$status" = 1 ] && [[ $output == *"no properly formatted checksum lines found"* ]] ||
		fail "two digests: $status: $output"
	for l in good app.tar.gz.sha256; do same_as_gnu -c "$l"; done
}

@test "published: a one-line list naming a build path checks the file it is named for, and says so" {
	mkdir dl
	cp app.tar.gz dl/rustup-init
	echo "$(sha256sum app.tar.gz | cut -c1-64) *target/x86_64-unknown-linux-gnu/release/rustup-init" \
		>dl/rustup-init.sha256
	run fhsum -c dl/rustup-init.sha256
	[ "$status" = 0 ] || fail "$status: $output"
	[[ $output == *"dl/rustup-init: OK"* ]] || fail "$output"
	[[ $output == *"target/x86_64-unknown-linux-gnu/release/rustup-init is not there: checking dl/rustup-init"* ]] ||
		fail "not said: $output"
	# Never silently: with the stem missing too, the listed file fails.
	rm dl/rustup-init
	run fhsum -c dl/rustup-init.sha256
	[ "$status" = 1 ] && [[ $output == *"release/rustup-init: FAILED open or read"* ]] || fail "$status: $output"
	same_as_gnu -c dl/rustup-init.sha256
	# The stem's content is checked, not trusted.
	printf 'other\n' >dl/rustup-init
	run fhsum -c dl/rustup-init.sha256
	[ "$status" = 1 ] && [[ $output == *"dl/rustup-init: FAILED"* ]] || fail "$status: $output"
}

@test "published: OpenSSL 3 tags as openssl dgst writes them" {
	command -v openssl >/dev/null || skip "openssl not installed"
	openssl version | grep -q '^OpenSSL 3' || skip "not OpenSSL 3"
	for a in sha256 sha512 sha224 sha384 sha3-256 sha3-512 md5 sha1; do
		openssl dgst -"$a" app.tar.gz b.txt
	done >L
	openssl dgst -shake128 b.txt >>L
	openssl dgst -shake256 app.tar.gz >>L
	openssl dgst -blake2b512 app.tar.gz b.txt >>L
	grep -q '^SHA2-256(app.tar.gz)= ' L || fail "openssl wrote no SHA2-256 line:" "$(cat L)"
	grep -q '^BLAKE2B-512(b.txt)= ' L || fail "openssl wrote no BLAKE2B-512 line:" "$(cat L)"
	run fhsum -c L
	[ "$status" = 0 ] || fail "$status: $output"
	[ "$(grep -c ': OK$' <<<"$output")" = 20 ] || fail "$output"
	printf 'changed\n' >b.txt
	rm app.tar.gz
	run fhsum -c L
	[ "$status" = 1 ] && [[ $output == *"b.txt: FAILED"* ]] &&
		[[ $output == *"app.tar.gz: FAILED open or read"* ]] || fail "$status: $output"
	same_as_gnu -c L
}

@test "published: gpg --print-md records, over one line or several" {
	command -v gpg >/dev/null || skip "gpg not installed"
	long=a-name-long-enough-that-gpg-puts-its-digest-on-the-next-lines.tar.gz
	cp app.tar.gz "$long"
	for a in MD5 SHA1 SHA224 SHA256 SHA384 SHA512; do
		gpg --print-md "$a" app.tar.gz b.txt "$long"
	done >L 2>/dev/null
	grep -q '^ ' L || fail "gpg wrote no continuation line:" "$(cat L)"
	run fhsum -c L
	[ "$status" = 0 ] || fail "$status: $output"
	[ "$(grep -c ': OK$' <<<"$output")" = 18 ] || fail "$output"
	# Older Apache releases: one record a sidecar.
	gpg --print-md SHA512 "$long" >"$long.sha512" 2>/dev/null
	run fhsum -c "$long.sha512"
	[ "$status" = 0 ] && [ "$output" = "$long: OK" ] || fail "sidecar: $status: $output"
	printf 'changed\n' >"$long"
	rm b.txt
	run fhsum -c L
	[ "$status" = 1 ] && [[ $output == *"$long: FAILED"* ]] &&
		[[ $output == *"b.txt: FAILED open or read"* ]] || fail "$status: $output"
	# A record with a digit changed fails; its file is still read.
	printf 'hello world\n' >"$long"
	sed '2s/^\(.\)./\1X/' "$long.sha512" >tampered
	run fhsum -c tampered
	[ "$status" = 1 ] || fail "tampered: $status: $output"
	same_as_gnu -c L
	same_as_gnu -c "$long.sha512"
}

# A clear-signed copy of the GNU list LIST into OUT.
clearsign() {
	gpg --batch --quiet --yes --clearsign --output "$2" "$1"
}

@test "published: a clear-signed list: only the signed text is read" {
	[ -n "${GNUPGHOME:-}" ] || skip "gpg or its key is missing"
	sha256sum app.tar.gz b.txt >SUMS
	printf -- '--- a line gpg dash-escapes\n' >>SUMS
	echo "$(sha256sum b.txt | cut -c1-64)  -dash-named" >>SUMS
	cp b.txt ./-dash-named
	clearsign SUMS SUMS.asc
	grep -q '^- -dash-named\|^- [0-9a-f]' SUMS.asc || grep -q '^- ---' SUMS.asc || fail "no dash-escaping:" "$(cat SUMS.asc)"
	run fhsum -c SUMS.asc
	[ "$status" = 0 ] || fail "$status: $output"
	[ "$(grep -c ': OK$' <<<"$output")" = 3 ] || fail "$output"
	# The one improper line is the signed comment, not the armour.
	[[ $output == *"1 line is improperly formatted"* ]] || fail "$output"
	run fhsum -c --strict --quiet SUMS.asc
	[ "$status" = 1 ] || fail "--strict: $status: $output"
	same_as_gnu -c SUMS.asc
}

@test "published: lines added outside a clear-signature are not read, and said" {
	[ -n "${GNUPGHOME:-}" ] || skip "gpg or its key is missing"
	sha256sum app.tar.gz b.txt >SUMS
	clearsign SUMS SUMS.asc
	cp app.tar.gz evil.bin
	sha256sum evil.bin >evil
	{ cat evil; cat SUMS.asc; cat evil; echo; } >tampered.asc
	# gpg vouches for the file all the same: the hazard.
	gpg --verify tampered.asc 2>/dev/null || fail "gpg does not verify the tampered list"
	run fhsum -c tampered.asc
	[ "$status" = 0 ] || fail "$status: $output"
	[[ $output != *evil.bin* ]] || fail "a line outside the signature was read: $output"
	[[ $output == *"WARNING: 2 lines outside the signed part were ignored"* ]] || fail "$output"
	run fhsum -c --strict tampered.asc
	[ "$status" = 1 ] || fail "--strict: $status: $output"
	run fhsum -c --status tampered.asc
	[ "$status" = 0 ] && [ -z "$output" ] || fail "--status: $status: $output"
	# A pipe cannot be looked through first: what came before the
	# signed part was read, and the list fails.
	run sh -c 'cat tampered.asc | "$FHSUM" -c'
	[ "$status" = 1 ] && [[ $output == *"1 line before the signed part was read"* ]] || fail "pipe: $status: $output"
	# What the README shows: gpgv's output, the signed text alone.
	gpg --export >key.gpg
	run sh -c 'gpgv --keyring ./key.gpg --output - tampered.asc 2>/dev/null | "$FHSUM" -c --ignore-missing'
	[ "$status" = 0 ] && [[ $output != *evil.bin* ]] || fail "gpgv: $status: $output"
	same_as_gnu -c tampered.asc
}

@test "published: BSD tags as sha256sum --tag writes them, and GNU's own lines, read as before" {
	sha256sum --tag app.tar.gz b.txt >T
	sha256sum app.tar.gz b.txt >G
	for l in T G; do
		run fhsum -c "$l"
		[ "$status" = 0 ] && [ "${#lines[@]}" = 2 ] || fail "$l: $status: $output"
		same_as_gnu -c "$l"
	done
	# A one-line list whose file is there is read as it always was.
	sha256sum app.tar.gz >app.tar.gz.sha256
	run fhsum -c app.tar.gz.sha256
	[ "$status" = 0 ] && [ "$output" = "app.tar.gz: OK" ] || fail "$status: $output"
}

@test "published: --audit and --update read OpenSSL 3 tags; kept lines stay byte for byte" {
	command -v openssl >/dev/null || skip "openssl not installed"
	openssl version | grep -q '^OpenSSL 3' || skip "not OpenSSL 3"
	mkdir t
	printf 'a\n' >t/a
	printf 'b\n' >t/b
	openssl dgst -sha256 t/a t/b >L
	run fhsum --audit=L t
	[ "$status" = 0 ] || fail "audit: $status: $output"
	printf 'c\n' >t/c
	run fhsum --update=L t
	[ "$status" = 1 ] || fail "update: $status: $output"
	[ "$(head -2 L)" = "$(openssl dgst -sha256 t/a t/b)" ] || fail "kept lines changed:" "$(cat L)"
	# New and changed lines are openssl dgst's too, its tag and its form.
	[ "$(tail -1 L)" = "$(openssl dgst -sha256 t/c)" ] || fail "new line:" "$(cat L)"
	printf 'B\n' >t/b
	run fhsum --update=L t
	[ "$status" = 4 ] || fail "update of a change: $status: $output"
	[ "$(cat L)" = "$(openssl dgst -sha256 t/a t/b t/c)" ] || fail "changed line:" "$(cat L)"
	# OpenSSL 1's tags ("SHA256(...)= ") likewise.
	sed 's/^SHA2-256(/SHA256(/' L >L1
	printf 'd\n' >t/d
	run fhsum --update=L1 t
	[ "$(tail -1 L1)" = "$(openssl dgst -sha256 t/d | sed 's/^SHA2-256(/SHA256(/')" ] ||
		fail "OpenSSL 1 tag:" "$(cat L1)"
}

@test "published: a Fedora-style CHECKSUM, clear-signed BSD tags with size comments" {
	[ -n "${GNUPGHOME:-}" ] || skip "gpg or its key is missing"
	{
		printf '# app.tar.gz: %s bytes\n' "$(stat -c %s app.tar.gz)"
		sha256sum --tag app.tar.gz
		printf '# b.txt: %s bytes\n' "$(stat -c %s b.txt)"
		sha256sum --tag b.txt
	} >CHECKSUM.plain
	clearsign CHECKSUM.plain CHECKSUM
	run fhsum -c CHECKSUM
	[ "$status" = 0 ] && [ "$output" = $'app.tar.gz: OK\nb.txt: OK' ] || fail "$status: $output"
	rm b.txt
	run fhsum -c --ignore-missing CHECKSUM
	[ "$status" = 0 ] && [ "$output" = "app.tar.gz: OK" ] || fail "--ignore-missing: $status: $output"
	# A digit changed inside the signed part: gpg refuses the list, and
	# the file fails all the same.
	sed '/^SHA256 (app/s/= ./= 0/' CHECKSUM >bad
	sed '/^SHA256 (app/s/= 0/= 1/' bad >bad2
	grep -q '^SHA256 (app.tar.gz) = [01]' bad2 || fail "no change made"
	! gpg --verify bad2 2>/dev/null || fail "gpg verifies a changed list"
	run fhsum -c --ignore-missing bad2
	[ "$status" = 1 ] && [[ $output == *"app.tar.gz: FAILED"* ]] || fail "changed: $status: $output"
	same_as_gnu -c --ignore-missing CHECKSUM
}

@test "published: --update and --scrub refuse a clear-signed list (64), which stays byte for byte" {
	[ -n "${GNUPGHOME:-}" ] || skip "gpg or its key is missing"
	mkdir t
	printf 'a\n' >t/a
	sha256sum t/a >SUMS
	clearsign SUMS SUMS.asc
	cp SUMS.asc before
	printf 'b\n' >t/b
	for op in --update=SUMS.asc --scrub=SUMS.asc; do
		run fhsum "$op" t
		[ "$status" = 64 ] && [[ $output == *"SUMS.asc is clear-signed"* ]] || fail "$op: $status: $output"
		cmp -s SUMS.asc before || fail "$op changed the list:" "$(cat SUMS.asc)"
	done
	gpg --verify SUMS.asc 2>/dev/null || fail "the signature no longer holds"
}

@test "published: --audit of a clear-signed list reads its signed text alone" {
	[ -n "${GNUPGHOME:-}" ] || skip "gpg or its key is missing"
	mkdir t
	printf 'a\n' >t/a
	printf 'b\n' >t/b
	cp t/a t/evil
	sha256sum t/a t/b >SUMS
	clearsign SUMS SUMS.asc
	{ cat SUMS.asc; sha256sum t/evil; } >T.asc
	run fhsum --audit=SUMS.asc t/a t/b
	[ "$status" = 0 ] && [[ $output != *improperly* ]] || fail "signed: $status: $output"
	run fhsum --audit=T.asc t/a t/b t/evil
	[ "$status" = 1 ] && [[ $output == *"t/evil: NEW"* ]] &&
		[[ $output == *"1 line outside the signed part was ignored"* ]] || fail "tampered: $status: $output"
}
