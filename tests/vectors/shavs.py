#!/usr/bin/env python3
"""Converts NIST's SHAVS response files for SHA-1 and SHA-2 into this
directory's plain format: <algo>.short and <algo>.long (ShortMsg and
LongMsg: MSGLEN MSGHEX MD) and <algo>.mct (the Monte Carlo test: a seed
and the 100 checkpoints).  See README for the formats.

The response files come from the NIST CAVP SHAVS test vectors as the
python-cryptography project ships them (Debian's python3-cryptography-vectors
package, module cryptography_vectors, hashes/SHA1 and hashes/SHA2).  Every
vector is checked against Python's hashlib before anything is written, so a
parse error cannot slip into the files; the values themselves are NIST's.

    python3 tests/vectors/shavs.py [--from DIR]    rewrite the files
    python3 tests/vectors/shavs.py --check [--from DIR]
        rewrite nothing; exit 1 if a file disagrees with hashlib or, when
        the response files are at hand, with what this script would write

DIR holds SHA1/ and SHA2/ with the .rsp files; by default the
cryptography_vectors module's hashes directory (run the system python3 if
another one lacks the module).  Output is deterministic.
"""

import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The source the files name; change it with the package they come from.
SOURCE = ("# python-cryptography vectors package (Debian "
          "python3-cryptography-vectors\n# 38.0.4-1).")
SOURCE_VERSION = "38.0.4"

# (name in fhsum and hashlib, response file prefix, its directory,
#  FIPS 180-4 name, block bytes)
ALGOS = [
    ("sha1", "SHA1", "SHA1", "SHA-1", 64),
    ("sha224", "SHA224", "SHA2", "SHA-224", 64),
    ("sha256", "SHA256", "SHA2", "SHA-256", 64),
    ("sha384", "SHA384", "SHA2", "SHA-384", 128),
    ("sha512", "SHA512", "SHA2", "SHA-512", 128),
]

# LongMsg messages are 99 bytes apart (792 bits), from 163 bytes (SHA-1,
# SHA-224, SHA-256: 64 messages) or 227 bytes (SHA-384, SHA-512: 128),
# 4.6 MB of hex in all.  Kept: the first LONG_FIRST, the shortest, and the
# last, the longest.  99 is odd, so the kept lengths fall on LONG_FIRST
# different offsets in the 64- or 128-byte block; the .len-style pattern
# tests cover every offset, these cover NIST's own messages.
LONG_FIRST = 32

# SHAVS 6.4: 100 checkpoints of 1000 iterations each.
MCT_CHECKPOINTS = 100
MCT_ITERATIONS = 1000

FORMAT_MSG = ("# MSGLEN MSGHEX MD: MSGLEN in bytes, MSGHEX the message "
              "(- when empty),\n# MD the digest.\n")
FORMAT_MCT = ("# seed SEED, then COUNT MD for the checkpoints 0..99.  "
              "SHAVS 6.4: MD0 = MD1 =\n# MD2 = seed; Mi = MD(i-3) || "
              "MD(i-2) || MD(i-1) and MDi = SHA(Mi) for\n# i = 3..1002; "
              "checkpoint COUNT is MD1002, and the seed of the next.\n")


def die(msg):
    sys.stderr.write("shavs.py: %s\n" % msg)
    sys.exit(1)


def source_dir(argv):
    if "--from" in argv:
        i = argv.index("--from")
        if i + 1 >= len(argv):
            die("--from needs a directory")
        return argv[i + 1]
    try:
        import cryptography_vectors
    except ImportError:
        return None
    try:
        from cryptography_vectors import __about__
        version = __about__.__version__
    except (ImportError, AttributeError):
        version = None
    if version != SOURCE_VERSION:
        die("cryptography_vectors is %s, the files name %s: update SOURCE"
            % (version, SOURCE_VERSION))
    return os.path.join(os.path.dirname(cryptography_vectors.__file__),
                        "hashes")


def read_rsp(path):
    """Returns (header lines, list of {key: value} records) of an .rsp file;
    a record starts at Len, COUNT or Seed."""
    header, records = [], []
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("#"):
                text = line.lstrip("#").strip()
                if text:
                    header.append(text)
                continue
            m = re.match(r"^(\w+)\s*=\s*(\w+)$", line)
            if not m:
                continue
            key, value = m.groups()
            if key in ("Len", "COUNT", "Seed"):
                records.append({})
            if records:
                records[-1][key] = value
    if not any("BYTE oriented" in h for h in header):
        die("%s: not a byte-oriented response file" % path)
    return header, records


def provenance(title, fname, header):
    cavs = next((h for h in header if h.startswith("CAVS")), "CAVS ?")
    when = next((h for h in header if h.startswith("Generated on")), "")
    return ("# %s, from NIST CAVP SHAVS: %s (%s,\n# byte-oriented; %s) "
            "via the\n%s  Written by tests/vectors/shavs.py; every line "
            "checked\n# against Python hashlib.\n"
            % (title, fname, cavs, when, SOURCE))


def msg_lines(name, records, fname):
    out = []
    for r in records:
        bits = int(r["Len"])
        if bits % 8:
            die("%s: Len %d is not whole bytes" % (fname, bits))
        msg = bytes.fromhex(r["Msg"])[:bits // 8]
        md = r["MD"].lower()
        if hashlib.new(name, msg).hexdigest() != md:
            die("%s: Len %d: hashlib disagrees" % (fname, bits))
        out.append("%d %s %s\n" % (len(msg), msg.hex() or "-", md))
    return out


def mct(hname, seed):
    """The SHAVS SHA-1/SHA-2 Monte Carlo test: the 100 checkpoints."""
    out = []
    for _ in range(MCT_CHECKPOINTS):
        md = [seed, seed, seed]
        for _ in range(MCT_ITERATIONS):
            md = [md[1], md[2], hashlib.new(hname, b"".join(md)).digest()]
        seed = md[2]
        out.append(seed)
    return out


def convert(src):
    """Returns {file name: contents} for every file this script writes."""
    files = {}
    for name, prefix, sub, title, block in ALGOS:
        for kind, suffix in (("ShortMsg", "short"), ("LongMsg", "long")):
            fname = "%s%s.rsp" % (prefix, kind)
            header, records = read_rsp(os.path.join(src, sub, fname))
            lines = msg_lines(name, records, fname)
            text = provenance("%s %s" % (title, kind), fname, header)
            if kind == "LongMsg":
                total = len(lines)
                lines = lines[:LONG_FIRST] + lines[-1:]
                text += ("# %d of the file's %d messages: the %d shortest, at "
                         "%d offsets in the\n# %d-byte block, and the "
                         "longest; the whole file is %d KB.\n"
                         % (len(lines), total, LONG_FIRST, LONG_FIRST,
                            block,
                            os.path.getsize(os.path.join(src, sub, fname))
                            // 1000))
            files["%s.%s" % (name, suffix)] = text + FORMAT_MSG + "".join(lines)

        fname = "%sMonte.rsp" % prefix
        header, records = read_rsp(os.path.join(src, sub, fname))
        seed = bytes.fromhex(records[0]["Seed"])
        checks = records[1:]
        if [int(r["COUNT"]) for r in checks] != list(range(MCT_CHECKPOINTS)):
            die("%s: expected COUNT 0..%d" % (fname, MCT_CHECKPOINTS - 1))
        mds = [bytes.fromhex(r["MD"]) for r in checks]
        if mct(name, seed) != mds:
            die("%s: hashlib disagrees" % fname)
        text = provenance("%s Monte Carlo" % title, fname, header)
        text += FORMAT_MCT + "seed %s\n" % seed.hex()
        text += "".join("%d %s\n" % (i, md.hex()) for i, md in enumerate(mds))
        files["%s.mct" % name] = text
    return files


def data_lines(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip()
                and not line.startswith("#")]


def check_tree():
    """Checks the files in this directory against hashlib alone."""
    bad = 0
    for name, _, _, _, _ in ALGOS:
        for suffix in ("short", "long"):
            path = os.path.join(HERE, "%s.%s" % (name, suffix))
            for n, msg, md in data_lines(path):
                msg = b"" if msg == "-" else bytes.fromhex(msg)
                if len(msg) != int(n) or \
                        hashlib.new(name, msg).hexdigest() != md:
                    print("%s: length %s disagrees with hashlib" % (path, n))
                    bad += 1
        path = os.path.join(HERE, "%s.mct" % name)
        lines = data_lines(path)
        seed = bytes.fromhex(lines[0][1])
        want = [bytes.fromhex(md) for _, md in lines[1:]]
        if lines[0][0] != "seed" or mct(name, seed) != want:
            print("%s: the Monte Carlo test disagrees with hashlib" % path)
            bad += 1
    return bad


def main(argv):
    check = "--check" in argv
    src = source_dir(argv)
    if src is None and not check:
        die("no response files: install python3-cryptography-vectors or "
            "give --from DIR")
    files = convert(src) if src else {}
    bad = 0
    for fname, text in sorted(files.items()):
        path = os.path.join(HERE, fname)
        if check:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print("%s differs from its conversion" % path)
                bad += 1
        else:
            with open(path, "w") as f:
                f.write(text)
    if check:
        bad += check_tree()
        if not src:
            print("response files not found: checked against hashlib only")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
