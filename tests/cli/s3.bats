#!/usr/bin/env bats
# --part-size: the values S3 shows for an object uploaded in parts, and
# -c of them.  Every expected value is recomputed here by a Python model
# written from S3's definitions (each part an independent message; the
# ETag the MD5 of the parts' binary MD5s in hex, "-N"; a composite
# checksum the algorithm over the parts' binary digests, most significant
# byte first for the CRCs, in base64, "-N"; an object below the part size
# one plain upload, its value alone), with hashlib, zlib and the CRC-32C
# model of tests/vectors/checksums.py; never by fhsum.

load helper

setup() {
	common_setup
	head -c 3000000 /dev/urandom >obj
	head -c 1048576 /dev/urandom >exact
	printf 'small' >small
	: >empty
}

# The model: "VALUE  NAME" for each file, in parts of PART bytes.
model() { # ALGO PART FILE...
	python3 - "$FHSUM_VECTORS" "$@" <<'PY'
import base64, hashlib, sys, zlib
sys.path.insert(0, sys.argv[1])
import checksums
algo, part, files = sys.argv[2], int(sys.argv[3]), sys.argv[4:]
def crc(f, n):
    return lambda d: f(d).to_bytes(n, "big")
h = {"md5": lambda d: hashlib.md5(d).digest(),
     "sha1": lambda d: hashlib.sha1(d).digest(),
     "sha256": lambda d: hashlib.sha256(d).digest(),
     "crc32b": crc(zlib.crc32, 4),
     "crc32c": crc(checksums.CRC32C, 4)}[algo]
text = (lambda b: b.hex()) if algo == "md5" else (lambda b: base64.b64encode(b).decode())
for f in files:
    d = open(f, "rb").read()
    if len(d) < part:
        print("%s  %s" % (text(h(d)), f))
        continue
    parts = [d[i:i + part] for i in range(0, len(d), part)]
    print("%s-%d  %s" % (text(h(b"".join(h(p) for p in parts))), len(parts), f))
PY
}

@test "--part-size gives S3's ETag and composite checksums, as the model recomputes them" {
	local a p
	for a in md5 sha1 sha256 crc32b crc32c; do
		for p in 65536:64K 1000000:1MB 1048576:1M 5242880:5M; do
			model $a ${p%%:*} obj exact small empty >want
			fhsum -a $a --part-size=${p#*:} obj exact small empty >got
			cmp want got || fail "$a in parts of ${p#*:}" "$(diff want got)"
		done
	done
}

@test "--part-size without -a is the ETag; standard input and one thread give the same values" {
	model md5 1048576 obj >want
	[ "$(fhsum --part-size=1M obj)" = "$(cat want)" ] || fail "default"
	[ "$(fhsum --part-size=1M -j1 obj)" = "$(cat want)" ] || fail "-j1"
	[ "$(fhsum --part-size=1M <obj)" = "$(sed 's/ obj$/ -/' want)" ] || fail "stdin"
	[ "$(fhsum --part-size=1M --tag obj)" = "MD5 (obj) = $(cut -d' ' -f1 want)" ] || fail "--tag"
}

@test "-c reads --part-size lines, tagged and untagged, and finds a changed object" {
	model sha256 1048576 obj exact small >list
	run fhsum -a sha256 --part-size=1M -c list
	[ "$status" = 0 ] && [ "${#lines[@]}" = 3 ] || fail "$output"
	fhsum -a crc32c --part-size=1M --tag obj >tagged
	run fhsum -a crc32c --part-size=1M -c tagged
	[ "$status" = 0 ] || fail "$output"
	# Another part size gives another value.
	run fhsum -a sha256 --part-size=2M -c list
	[ "$status" = 1 ] && [[ $output == *"obj: FAILED"* ]] || fail "$output"
	printf x >>small
	run fhsum -a sha256 --part-size=1M -c list
	[ "$status" = 1 ] && [[ $output == *"small: FAILED"* ]] || fail "$output"
}

@test "--part-size refuses what S3 has no value for, and bad sizes" {
	for args in "-a sha3-256" "-a crc64nvme" "--part-size=0" "--part-size=x" "--base64" "--json"; do
		run fhsum --part-size=1M $args obj
		[ "$status" = 1 ] || fail "$args: $output"
	done
	run fhsum --part-size=1 obj
	[ "$status" = 1 ] && [[ $output == *"more than 10000 parts"* ]] || fail "$output"
}

@test "the README's head-object example is true: its big.tar is 20 MiB of zeros, whose ETag hashlib recomputes, and fhsum prints what it shows" {
	local readme=$BATS_TEST_DIRNAME/../../README.md etag crc
	grep -q 'aws s3api head-object' "$readme" || fail "the README shows no head-object output"
	etag=$(sed -n 's/.*"ETag": "\\"\([0-9a-f]*-[0-9]*\)\\"".*/\1/p' "$readme")
	crc=$(sed -n 's/.*"ChecksumCRC64NVME": "\([^"]*\)".*/\1/p' "$readme")
	[ -n "$etag" ] && [ -n "$crc" ] || fail "no ETag or ChecksumCRC64NVME in the README's example"
	grep -qxF "    \$ fhsum --part-size=8M big.tar" "$readme" &&
		grep -qxF "    $etag  big.tar" "$readme" &&
		grep -qxF "    \$ fhsum -a crc64nvme --base64 big.tar" "$readme" &&
		grep -qxF "    $crc  big.tar" "$readme" || fail "the README's commands do not print its ETag and CRC"
	head -c $((20 << 20)) /dev/zero >big.tar
	[ "$(model md5 $((8 << 20)) big.tar)" = "$etag  big.tar" ] || fail "hashlib: $(model md5 $((8 << 20)) big.tar)"
	[ "$(fhsum --part-size=8M big.tar)" = "$etag  big.tar" ] || fail "fhsum's ETag"
	[ "$(fhsum -a crc64nvme --base64 big.tar)" = "$crc  big.tar" ] || fail "fhsum's CRC-64/NVME"
}
