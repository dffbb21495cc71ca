#!/usr/bin/env bats
# The checksums: POSIX cksum's CRC (-a crc), CRC-32 (-a crc32b), the BSD
# and System V sums (-a bsd, -a sysv), and S3's CRC-32C and CRC-64/NVME.
# Expected values come from GNU cksum and sum 9.1 (the oracles, compared
# byte for byte through links named cksum and sum), from Python's zlib
# and binascii, from tests/vectors (tests/vectors/checksums.py, checked
# against the catalogue's check values), and from the models of
# tests/vectors/checksums.py turned into S3's base64 by Python's base64;
# never from fhsum.

load helper

setup() {
	common_setup
	command -v cksum >/dev/null && command -v sum >/dev/null ||
		skip "GNU cksum and sum (the oracles) are not installed"
	printf 123456789 >nine
	printf hi >hi
	: >empty
	python3 -c 'import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(70000)))' >big
	printf 'x\ny' >'new
line'
}

# Runs the shell text CMD twice, with GNU's programs and with fhsum's
# links first on PATH, and fails unless stdout, stderr and the status
# agree byte for byte.
same_as_gnu() { # CMD
	local dir
	dir=$(dirname "$(link_path cksum)")
	link_path sum >/dev/null
	local st=0
	bash -c "$1" >gnu.out 2>gnu.err || st=$?
	echo "status $st" >>gnu.out
	st=0
	PATH=$dir:$PATH bash -c "$1" >fh.out 2>fh.err || st=$?
	echo "status $st" >>fh.out
	cmp -s gnu.out fh.out && cmp -s gnu.err fh.err ||
		fail "differs from GNU: $1" "--- GNU" "$(cat gnu.out gnu.err)" "--- fhsum" "$(cat fh.out fh.err)"
}

@test "as cksum and sum, fhsum prints what GNU cksum and sum 9.1 print, byte for byte" {
	local cmd
	while IFS= read -r cmd; do
		same_as_gnu "$cmd"
	done <<'EOF2'
cksum nine hi empty big
cksum < big
cksum - < nine
cksum nine - hi < big
cksum -z nine hi
cksum $'new\nline' nine
cksum missing nine
cksum -a crc nine
cksum -a bsd nine big empty
cksum -a sysv nine big empty
cksum -a sysv < big
cksum -a md5 nine hi
cksum -a sha256 --untagged nine
cksum -a sha1 -z nine
cksum -a md5 --tag --untagged $'new\nline'
cksum -b nine
cksum -t nine
cksum -r nine
cksum --b nine
cksum -l 8 nine
cksum -l 0 nine
cksum -a md5 -l 0 nine
cksum -a blake2b -l 0 nine
cksum -l 7 nine
cksum -a md5 -l 12 nine
cksum -l 12 -a bogus nine
cksum -l x nine
cksum -l -8 nine
cksum -l 99999999999999999999 nine
cksum -a sm3 nine hi empty big
cksum -a sm3 < big
cksum -a sm3 --untagged -z nine $'new\nline'
cksum -a sm3 -l 256 nine
cksum --debug nine hi
cksum --debug missing nine < big
cksum --debug - < big
cksum --debug missing
cksum -a md5 --debug nine
cksum -a bsd --debug nine
cksum --help
sum nine hi empty big
sum < big
sum -s nine hi empty big
sum -s < big
sum -r -s nine
sum -s -r nine
sum --sysv big
sum --s big
sum - < big
sum $'new\nline'
sum missing big
sum -c nine
sum -x
sum --help
EOF2
}

@test "cksum -c of GNU cksum's tagged lists, and their improper untagged ones, as GNU" {
	cksum -a md5 nine hi >tagged
	cksum -a sha256 --untagged nine >untagged
	same_as_gnu 'cksum -c tagged'
	same_as_gnu 'cksum -c --tag tagged'
	same_as_gnu 'cksum -c --status tagged'
	same_as_gnu 'cksum -c untagged'
	same_as_gnu 'cksum -a sha256 -c untagged'
}

@test "SM3: cksum -a sm3's lists, tagged and untagged, read as GNU cksum 9.1 reads them; untagged ones need -a, as GNU's" {
	cksum -a sm3 nine hi big >sm3.tagged
	cksum -a sm3 --untagged nine hi big >sm3.untagged
	same_as_gnu 'cksum -c sm3.tagged'
	same_as_gnu 'cksum -a sm3 -c sm3.untagged'
	printf 'changed' >hi
	same_as_gnu 'cksum -c sm3.tagged'
	same_as_gnu 'cksum -a sm3 -c sm3.untagged'
	# Without -a, 64 digits are settled among SHA3-256, SHA-256 and
	# BLAKE3 alone (SM3's lines are tagged unless asked otherwise, and its
	# kernel would be the slowest to settle with), and the warning says
	# to give -a, which then reads them.
	capture got "$FHSUM" -c sm3.untagged
	expect "untagged SM3 without -a" 1 "nine: FAILED
hi: FAILED
big: FAILED" "PROG: WARNING: 3 computed checksums did NOT match
PROG: WARNING: no file matched under sha3-256, sha256 or blake3: the list may use another algorithm (give it with -a)"
	capture got "$FHSUM" -a sm3 -c sm3.untagged
	expect "untagged SM3 with -a sm3" 1 "nine: OK
hi: FAILED
big: OK" "PROG: WARNING: 1 computed checksum did NOT match"
}

@test "cksum: the last of --tag and --untagged wins; -c -w without -a names the last tagged line's algorithm, CRC before any, as GNU 9.1" {
	{
		echo garbage
		cksum -a md5 nine
		echo garbage
		cksum -a sha1 hi
		echo garbage
		cksum -a blake2b -l 128 nine
		echo garbage
	} >mixed
	printf 'garbage\n' >bad
	same_as_gnu 'cksum -a md5 --untagged --tag nine'
	same_as_gnu 'cksum --untagged --tag nine'
	same_as_gnu 'cksum -a md5 --tag --untagged nine'
	same_as_gnu 'cksum -c -w mixed'
	same_as_gnu 'cksum -c -w bad mixed bad'
	same_as_gnu 'cksum -a md5 -c -w mixed'
}

@test "-c reads the lists GNU cksum, sum and sum -s write (GNU refuses), settling their algorithm by content" {
	cksum nine hi big >crc.list
	sum nine hi big >bsd.list
	sum -s nine hi big >sysv.list
	for l in crc bsd sysv; do
		run fhsum -c $l.list
		[ "$status" = 0 ] && [ "$output" = "$(printf 'nine: OK\nhi: OK\nbig: OK')" ] ||
			fail "$l: $output"
		run fhsum -a $l -c $l.list
		[ "$status" = 0 ] || fail "-a $l: $output"
		run fhsum_as cksum -a $l -c $l.list
		[ "$status" = 0 ] || fail "cksum -a $l: $output"
	done
	printf x >>hi
	run fhsum -c crc.list
	[ "$status" = 1 ] && [[ $output == *"hi: FAILED"* ]] || fail "tampered: $output"
	# Under -a of another algorithm these lines are improper.
	run fhsum -a crc32c -c crc.list
	[ "$status" = 1 ] && [[ $output == *"no properly formatted"* ]] || fail "$output"
}

@test "--update keeps a list of GNU cksum's, sum's or sum -s's lines in their form: new, changed and moved lines as GNU writes them" {
	local l prog
	for l in crc bsd sysv; do
		case $l in crc) prog=cksum ;; bsd) prog=sum ;; sysv) prog="sum -s" ;; esac
		mkdir $l && cp nine hi big $l/ && cd $l
		$prog nine big >L
		printf more >>nine
		run fhsum --update=L --prune -r .
		[ "$status" = 5 ] || fail "$l: exit $status, want 5 (new, changed): $output"
		# The lines after the list's declaration are GNU's for these files.
		grep -v '^#' L | sed 's#\./##' | sort >../got
		$prog nine big hi | sort >../want
		diff ../want ../got || fail "$l: not $prog's lines" "$(cat L)"
		# A file moved keeps the list's form under its new name.
		mkdir sub && mv big sub/big2
		run fhsum --update=L --prune -r .
		[ "$status" = 8 ] || fail "$l: move: exit $status, want 8: $output"
		grep -v '^#' L | sed 's#\./##' | sort >../got
		$prog nine sub/big2 hi | sort >../want
		diff ../want ../got || fail "$l: moved: not $prog's lines" "$(cat L)"
		run fhsum -c L
		[ "$status" = 0 ] || fail "$l: -c of the updated list: $output"
		cd ..
	done
}

@test "as cksum, -l sizes the algorithms GNU 9.1 lacks that have lengths (sha2 and sha3 as cksum 9.8, blake3, shake), and only those" {
	local dir
	dir=$(dirname "$(link_path cksum)")
	want=$(python3 -c 'import hashlib; d=open("nine","rb").read(); print(hashlib.sha3_256(d).hexdigest(), hashlib.sha384(d).hexdigest(), hashlib.shake_128(d).hexdigest(16))')
	read -r s3 s384 shake <<<"$want"
	capture got env PATH="$dir:$PATH" cksum -a sha3 -l 256 nine
	expect "sha3 -l 256" 0 "SHA3-256 (nine) = $s3" ""
	capture got env PATH="$dir:$PATH" cksum -a sha2 -l 384 nine
	expect "sha2 -l 384" 0 "SHA384 (nine) = $s384" ""
	capture got env PATH="$dir:$PATH" cksum -a shake128 -l 128 nine
	expect "shake128 -l 128" 0 "SHAKE128-128 (nine) = $shake" ""
	capture got env PATH="$dir:$PATH" cksum -a sha3 nine
	expect "sha3 without -l" 1 "" "cksum: --algorithm=sha3 requires specifying --length 224, 256, 384, or 512"
	capture got env PATH="$dir:$PATH" cksum -a sha3 -l 0 nine
	expect "sha3 -l 0" 1 "" "cksum: --algorithm=sha3 requires specifying --length 224, 256, 384, or 512"
	capture got env PATH="$dir:$PATH" cksum -a crc32b -l 32 nine
	expect "crc32b -l 32" 1 "" "cksum: --length is only supported with --algorithm=blake2b"
}

@test "-a crc, bsd and sysv under fhsum's own name print cksum's and sum's lines, and -c reads them back" {
	for a in crc:cksum bsd:"sum -r" sysv:"sum -s"; do
		fhsum -a "${a%%:*}" nine hi big >fh.txt
		${a#*:} nine hi big >gnu.txt
		cmp fh.txt gnu.txt || fail "-a ${a%%:*}" "$(cat fh.txt)" "$(cat gnu.txt)"
		fhsum -a "${a%%:*}" <big >fh.txt
		${a#*:} <big >gnu.txt
		cmp fh.txt gnu.txt || fail "-a ${a%%:*} of standard input"
		run fhsum -c fh.txt
		[ "$status" = 1 ] || fail "a line without a name cannot be checked"
	done
}

@test "-a crc32b is zlib's and binascii's CRC-32, printed as cksum 9.6 prints it (decimal, size, name)" {
	local n
	for n in 0 1 7 8 9 63 64 65 1023 1100 4096 70000; do
		head -c $n big >f$n
		want=$(python3 -c 'import sys, zlib, binascii
d = open(sys.argv[1], "rb").read()
assert zlib.crc32(d) == binascii.crc32(d)
print(zlib.crc32(d), len(d), sys.argv[1])' f$n)
		[ "$(fhsum -a crc32b f$n)" = "$want" ] || fail "length $n: $(fhsum -a crc32b f$n), zlib: $want"
	done
}

@test "every checksum agrees with its vectors and the catalogue's check values" {
	local a n hex want
	for a in crc crc32b bsd sysv crc32c crc64nvme; do
		for n in 0 1 8 9 255 256 1100; do
			hex=$(awk -v n=$n '$1 == n { print $2 }' "$FHSUM_VECTORS/$a.len")
			python3 -c 'import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(int(sys.argv[1]))))' $n >v
			case $a in
			crc|crc32b) want="$((16#$hex)) $n v" ;;
			bsd) want=$(printf '%05d %5d v' $((16#$hex)) $(((n + 1023) / 1024))) ;;
			sysv) want="$((16#$hex)) $(((n + 511) / 512)) v" ;;
			*) want="$hex  v" ;;
			esac
			[ "$(fhsum -a $a v)" = "$want" ] || fail "$a length $n: $(fhsum -a $a v), want $want"
		done
	done
	[ "$(fhsum -a crc32c nine)" = "e3069283  nine" ]
	[ "$(fhsum -a crc64nvme nine)" = "ae8b14860a799888  nine" ]
	[ "$(fhsum -a crc32b nine)" = "$((16#cbf43926)) 9 nine" ]
}

# S3's checksums of whole objects: the CRC's bytes, most significant
# first, in base64 (x-amz-checksum-crc32c, ChecksumCRC64NVME), recomputed
# here by the models of tests/vectors/checksums.py and Python's base64.
@test "--base64 prints CRC-32C, CRC-64/NVME and CRC-32 as S3 shows them; -c reads them tagged and untagged" {
	local a tag
	for a in crc32c:CRC32C:CRC32C:4 crc64nvme:CRC64NVME:CRC64NVME:8 crc32b:CRC32B:CRC32:4; do
		IFS=: read -r name tag model size <<<"$a"
		want=$(python3 - "$FHSUM_VECTORS" $model $size big <<'PY'
import base64, sys
sys.path.insert(0, sys.argv[1])
import checksums
m = getattr(checksums, sys.argv[2])
v = m(open(sys.argv[4], "rb").read())
print(base64.b64encode(v.to_bytes(int(sys.argv[3]), "big")).decode())
PY
)
		[ "$(fhsum -a $name --base64 big)" = "$want  big" ] || fail "$name: $(fhsum -a $name --base64 big), S3: $want"
		[ "$(fhsum -a $name --base64 --tag big)" = "$tag (big) = $want" ] || fail "$name --tag"
		fhsum -a $name --base64 --tag big hi >t.list
		fhsum -a $name hi big >u.list
		run fhsum -c t.list
		[ "$status" = 0 ] || fail "$name tagged base64: $output"
		run fhsum -a $name -c u.list
		[ "$status" = 0 ] || fail "$name untagged: $output"
	done
	[ "$(fhsum -a crc32c --tag nine)" = "CRC32C (nine) = e3069283" ]
	[ "$(fhsum -a crc64nvme --tag nine)" = "CRC64NVME (nine) = ae8b14860a799888" ]
}

@test "an untagged 8-hex line settles among every algorithm of four-byte digests" {
	fhsum -a crc32c nine hi big >c.list
	run fhsum -c c.list
	[ "$status" = 0 ] && [ "${#lines[@]}" = 3 ] || fail "$output"
	python3 -c 'import zlib, sys
for f in sys.argv[1:]: print("%08x  %s" % (zlib.crc32(open(f, "rb").read()), f))' nine hi big >z.list
	run fhsum -c z.list
	[ "$status" = 0 ] || fail "zlib's CRC-32 in hex: $output"
}

@test "one large file hashed in slices on several threads gives cksum's and zlib's values" {
	head -c 40000003 /dev/urandom >large
	local want
	want=$(cksum large)
	for j in 1 2 3 4; do
		[ "$(fhsum -j$j -a crc large)" = "$want" ] || fail "-j$j: $(fhsum -j$j -a crc large), cksum: $want"
	done
	want=$(python3 -c 'import sys, zlib; print("%d 40000003 large" % zlib.crc32(open("large", "rb").read()))')
	[ "$(fhsum -j3 -a crc32b large)" = "$want" ] || fail "crc32b -j3: $(fhsum -j3 -a crc32b large), zlib: $want"
	[ "$(fhsum -j2 -a crc32c large)" = "$(fhsum -j1 -a crc32c large)" ] || fail "crc32c"
	[ "$(fhsum -j2 -a crc64nvme large)" = "$(fhsum -j1 -a crc64nvme large)" ] || fail "crc64nvme"
	# On standard input, from where the caller left it, to the end,
	# where the offset is left.
	want=$( (head -c 4097 >/dev/null; cksum; cat | wc -c) <large)
	for j in 1 3; do
		[ "$( (head -c 4097 >/dev/null; fhsum -j$j -a crc; cat | wc -c) <large)" = "$want" ] ||
			fail "stdin -j$j: $( (head -c 4097 >/dev/null; fhsum -j$j -a crc) <large), cksum: $want"
	done
	# Past its end (an offset lseek allows), standard input is empty.
	want=$(cksum </dev/null)
	[ "$(python3 -c 'import os, sys; os.lseek(0, 50000000, 0); os.execvp(sys.argv[1], sys.argv[1:])' "$FHSUM" -j2 -a crc <large 2>&1)" = "$want" ] ||
		fail "stdin past its end: $(python3 -c 'import os, sys; os.lseek(0, 50000000, 0); os.execvp(sys.argv[1], sys.argv[1:])' "$FHSUM" -j2 -a crc <large 2>&1), cksum: $want"
	# ... in slices: no read(2) of standard input, its slices mapped or
	# read with pread.
	if can_trace; then
		trace_fhsum read,pread64,mmap -j2 -a crc <large
		! grep -Eq ' read\(0, ' trace && grep -Eq 'pread64\(0, |mmap\([^,]*, [0-9]+, PROT_READ, [^,]*, 0, ' trace ||
			fail "standard input not sliced:" "$(grep -E ' (read|pread64)\(0, ' trace | head -3)"
	fi
	# Listed before a small file, a large one starts alone; once the
	# small one is done, the rest of it is sliced: several threads then
	# map or read it.  When depends on the threads' timing: a loaded
	# machine gets three tries.
	head -c $(((96 << 20) + 5)) /dev/urandom >larger
	head -c 1000 /dev/urandom >small
	want=$(cksum larger small)
	[ "$(fhsum -j2 -a crc larger small)" = "$want" ] || fail "larger small: $(fhsum -j2 -a crc larger small), cksum: $want"
	want=$(python3 -c 'import sys, zlib
for f in sys.argv[1:]: print("%d %d %s" % (zlib.crc32(open(f, "rb").read()), len(open(f, "rb").read()), f))' larger small)
	[ "$(fhsum -j2 -a crc32b larger small)" = "$want" ] || fail "crc32b larger small: $(fhsum -j2 -a crc32b larger small), zlib: $want"
	if can_trace; then
		local try readers=0
		for try in 1 2 3; do
			trace_fhsum mmap,pread64 -j2 -a crc larger small
			# Threads that mapped 1 MiB or more shared, or read with
			# pread 8 times or more: only the large file's readers.
			readers=$(awk '/mmap\(NULL, [0-9]+, PROT_READ, MAP_SHARED/ {
					split($0, a, ", "); if (a[2] + 0 >= 1048576) m[$1] = 1 }
				  /pread64\(/ { p[$1]++ }
				  END { for (t in p) if (p[t] >= 8) m[t] = 1; for (t in m) k++; print k + 0 }' trace)
			[ "$readers" -lt 2 ] || break
		done
		[ "$readers" -ge 2 ] || fail "the large file was not sliced once the small one was done (3 tries)"
	fi
}
