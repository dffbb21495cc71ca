#!/usr/bin/env bats
# --json (fhsum(1), the --json option): JSON Lines in
# generation, -c, --audit and --update; every line parses with Python's
# json; names round-trip (name, or name_base64 for a name that is not
# UTF-8); keys come in fhsum(1)'s order; stderr is what the text mode
# writes.  Expected digests from hashlib and GNU md5sum; the expected audit
# objects from audit_oracle.py --json.

load helper

setup() {
	common_setup
	command -v python3 >/dev/null || skip "python3 not available"
}

mkf() { { printf '%s:' "$1"; big_pattern "$2"; } >"$1"; }

# The names of the round trip: plain, blank, LF, CR, tab, backslash,
# quotes, a control byte, DEL, UTF-8, and two that are not UTF-8.
make_names() {
	mkdir -p n
	local name
	while IFS= read -r -d '' name; do
		mkf "n/$name" ${#name}
	done < <(printf '%s\0' plain 'sp ace' $'l\nf' $'c\rr' $'t\tb' 'b\s' 'q"uo'"'"'te' \
		$'ctl\001x' $'del\177' $'\303\274ber' $'bad\377' $'half\303')
}

# check_json MODE FILE [EXPECTED]: every line of FILE is one JSON object
# with fhsum(1)'s keys in order.  MODE gen (check: -c's, status OK and
# size optional): each object is a file of the
# tree: its name decodes to an existing file, digest (md5) and size are
# hashlib's and stat's.  MODE same: the objects equal EXPECTED's (the
# oracle's) key by key; size may be absent where EXPECTED has none.
check_json() {
	python3 - "$@" <<'PY'
import base64, hashlib, json, os, sys
ORDER = ["name", "name_base64", "algorithm", "digest", "expected", "size", "status", "from",
         "from_base64", "error"]
mode, path = sys.argv[1], sys.argv[2]
bad = []


def objects(p):
    res = []
    with open(p, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        bad.append("%s: no newline at the end" % p)
    for i, line in enumerate(data.splitlines(), 1):
        try:
            pairs = json.loads(line.decode("utf-8"), object_pairs_hook=lambda kv: kv)
        except (ValueError, UnicodeDecodeError) as e:
            bad.append("%s line %d does not parse (%s): %r" % (p, i, e, line))
            continue
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys) or any(k not in ORDER for k in keys) or \
                keys != sorted(keys, key=ORDER.index):
            bad.append("%s line %d: keys %s, not in the order %s" % (p, i, keys, ORDER))
        res.append(dict(pairs))
    return res


def name_of(o, k="name"):
    if k in o and k + "_base64" in o:
        bad.append("both %s and %s_base64: %r" % (k, k, o))
    if k in o:
        return o[k].encode("utf-8", "surrogateescape")
    if k + "_base64" in o:
        raw = base64.b64decode(o[k + "_base64"], validate=True)
        try:
            raw.decode("utf-8")
            bad.append("%s_base64 for a UTF-8 name: %r" % (k, raw))
        except UnicodeDecodeError:
            pass
        return raw
    return None


got = objects(path)
if mode in ("gen", "check"):
    for o in got:
        n = name_of(o)
        if n is None or not os.path.isfile(n):
            bad.append("name does not round-trip to a file: %r" % o)
            continue
        data = open(n, "rb").read()
        want = {"algorithm": "md5", "digest": hashlib.md5(data).hexdigest(), "size": len(data)}
        if mode == "check":  # -c: size only when known
            want.pop("size") if "size" not in o else None
            want["status"] = "OK"
        for k, v in want.items():
            if o.get(k) != v:
                bad.append("%r: %s is %r, want %r" % (n, k, o.get(k), v))
    names = sorted(name_of(o) or b"" for o in got)
    if names != sorted(os.path.join(b"n", f) for f in os.listdir(b"n")):
        bad.append("names: %r, want %r" % (names, sorted(os.listdir(b"n"))))
else:
    want = objects(sys.argv[3])
    if len(want) != len(got):
        bad.append("%d objects, want %d" % (len(got), len(want)))
    for w, g in zip(want, got):
        if name_of(w) != name_of(g) or name_of(w, "from") != name_of(g, "from"):
            bad.append("names differ: got %r, want %r" % (g, w))
        for k in ("algorithm", "digest", "size", "status", "error"):
            if k == "size" and k not in w:
                continue
            if w.get(k) != g.get(k):
                bad.append("%s: got %r, want %r (object %r)" % (k, g.get(k), w.get(k), g))
if bad:
    sys.exit("\n".join(bad[:30]))
PY
}

@test "--json generation: every line parses; names (LF, quotes, control bytes, non-UTF-8) round-trip; digest and size" {
	make_names
	capture got fhsum --json -a md5 -r n
	[ "$(cat got.rc)" = 0 ] && [ ! -s got.err ] || fail "exit $(cat got.rc):" "$(cat got.err)"
	[ "$(wc -l <got.out)" = 12 ] || fail "$(wc -l <got.out) lines for 12 files"
	check_json gen got.out
	# The keys of generation: name, algorithm, digest, size; no status.
	python3 -c 'import json, sys
for l in open(sys.argv[1], "rb"):
    k = list(json.loads(l))
    assert k in (["name", "algorithm", "digest", "size"], ["name_base64", "algorithm", "digest", "size"]), k' got.out ||
		fail "generation keys"
	grep -q '"name_base64"' got.out || fail "no name_base64 for the non-UTF-8 names"
	# -j1 and file operands: the same objects.
	capture got1 fhsum --json -a md5 -j1 -r n
	same_file got.out got1.out || fail "-j1 differs"
}

@test "--json generation: algorithm is the -a name; --base64 digests; an unreadable file gets status and error" {
	mkf a 100
	mkdir d
	capture got fhsum --json -a sha3-256 a d
	[ "$(cat got.rc)" = 1 ] || fail "exit $(cat got.rc), want 1"
	printf 'PROG: d: Is a directory (use -r to hash the files under it)\n' >want.err
	same_file want.err got.err || fail "stderr changed by --json:" "$(cat got.err)"
	python3 - <<'PY' || fail "objects:" "$(cat got.out)"
import hashlib, json, os
objs = [json.loads(l) for l in open("got.out")]
a = {"name": "a", "algorithm": "sha3-256",
     "digest": hashlib.sha3_256(open("a", "rb").read()).hexdigest(), "size": os.path.getsize("a")}
assert objs[0] == a and list(objs[0]) == list(a), objs[0]
assert objs[1]["name"] == "d" and objs[1]["status"] == "FAILED open or read", objs[1]
assert objs[1]["error"] == "Is a directory" and "digest" not in objs[1], objs[1]
assert list(objs[1])[0] == "name" and list(objs[1])[-1] == "error", objs[1]
assert len(objs) == 2
PY
	capture got fhsum --json --base64 -a md5 a
	python3 -c 'import base64, hashlib, json
o = json.loads(open("got.out").read())
assert o["digest"] == base64.b64encode(hashlib.md5(open("a", "rb").read()).digest()).decode(), o' ||
		fail "--base64 digest:" "$(cat got.out)"
}

@test "--json -c: OK, FAILED and FAILED open or read objects with status, computed digest, the digest expected and error; --quiet, --status" {
	make_names
	mkf good 10; mkf wrong 20
	{
		md5sum good
		printf '%s  wrong\n' 00112233445566778899aabbccddeeff
		printf '%s  nosuch\n' 00112233445566778899aabbccddeeff
	} >list
	capture txt fhsum -a md5 -c list
	capture got fhsum --json -a md5 -c list
	same_file txt.err got.err && same_file txt.rc got.rc || fail "stderr or status changed by --json"
	python3 - <<'PY' || fail "objects:" "$(cat got.out)"
import hashlib, json, os
objs = [json.loads(l, object_pairs_hook=lambda kv: kv) for l in open("got.out")]
d = [dict(o) for o in objs]
md5 = lambda n: hashlib.md5(open(n, "rb").read()).hexdigest()
assert [o["name"] for o in d] == ["good", "wrong", "nosuch"], d
assert [o["status"] for o in d] == ["OK", "FAILED", "FAILED open or read"], d
assert d[0]["digest"] == md5("good") and d[1]["digest"] == md5("wrong"), d
assert d[2]["error"] == "No such file or directory" and "digest" not in d[2], d
# FAILED says what the list expected; the others have nothing to add.
assert d[1]["expected"] == "00112233445566778899aabbccddeeff", d
assert "expected" not in d[0] and "expected" not in d[2], d
assert all(o["algorithm"] == "md5" for o in d), d
order = ["name", "algorithm", "digest", "expected", "size", "status", "error"]
for o in objs:
    k = [x for x, _ in o]
    assert k == sorted(k, key=order.index), k
PY
	capture got fhsum --json --quiet -a md5 -c list
	[ "$(grep -c '"OK"' got.out)" = 0 ] && [ "$(wc -l <got.out)" = 2 ] || fail "--quiet:" "$(cat got.out)"
	capture got fhsum --json --status -a md5 -c list
	[ ! -s got.out ] || fail "--status printed objects:" "$(cat got.out)"
	# Names round-trip through -c too.
	fhsum -a md5 -r n >nlist
	capture got fhsum --json -c nlist
	[ "$(cat got.rc)" = 0 ] || fail "-c of the names: exit $(cat got.rc)"
	check_json check got.out
}

@test "--json --audit: the oracle's objects (name or name_base64, algorithm, digest, size, status, from); stderr as in text" {
	make_names
	mkf n/gone 5
	oracle --gen -a md5 -r n >L
	echo more >>n/plain
	mv $'n/bad\377' n/renamed
	mv 'n/b\s' $'n/new\377'
	rm n/gone
	mkf n/fresh 7
	capture exp oracle --json L -r n
	capture got fhsum --json --audit=L -r n
	check_json same got.out exp.out
	capture txt fhsum --audit=L -r n
	same_file txt.err got.err && same_file txt.rc got.rc || fail "stderr or status changed by --json"
	same_file exp.err got.err || fail "stderr:" "$(cat got.err)"
	grep -q '"from_base64"' got.out || fail "no from_base64 for a non-UTF-8 old name"
	capture exp oracle --json --quiet L -r n
	capture got fhsum --json --quiet --audit=L -r n
	check_json same got.out exp.out
	capture got fhsum --json --status --audit=L -r n
	[ ! -s got.out ] || fail "--status printed objects"
}

@test "--json --update: one object per change" {
	make_names
	oracle --gen -a md5 --meta -r n >L
	echo more >>n/plain
	mkf n/fresh 7
	capture exp oracle --json --update L -r n
	capture got fhsum --json --update=L -r n
	check_json same got.out exp.out
}

@test "--json: FAILED, CHANGED and DAMAGED objects carry the digest listed as expected, written as the digest is (hex, or base64)" {
	mkdir t
	printf one >t/d
	printf two >t/c
	fhsum -a md5 --meta -r t >L
	# t/d: other content under the same size and mtime (DAMAGED); t/c:
	# another size (CHANGED).  What the list expects comes from md5sum.
	md5sum t/c t/d >want.md5
	touch -r t/d ref
	printf ONE >t/d
	touch -r ref t/d
	printf three >t/c
	capture audit fhsum --json --audit=L -r t
	capture scrub fhsum --json --scrub=L
	capture check fhsum --json --base64 -c L
	python3 - <<'PY' || fail "objects:" "$(cat audit.out scrub.out check.out)"
import base64, hashlib, json
listed = {l.split()[1]: l.split()[0] for l in open("want.md5")}
md5 = lambda n: hashlib.md5(open(n, "rb").read()).hexdigest()
b64 = lambda h: base64.b64encode(bytes.fromhex(h)).decode()
for f, want in (("audit.out", {"t/c": "CHANGED", "t/d": "DAMAGED"}),
                ("scrub.out", {"t/c": "CHANGED", "t/d": "DAMAGED"}),
                ("check.out", {"t/c": "FAILED", "t/d": "FAILED"})):
    objs = {o["name"]: o for o in map(json.loads, open(f))}
    for name, status in want.items():
        o = objs[name]
        enc = b64 if f == "check.out" else (lambda h: h)
        assert o["status"] == status, (f, o)
        assert o["digest"] == enc(md5(name)), (f, o)
        assert o["expected"] == enc(listed[name]), (f, o)
PY
}
