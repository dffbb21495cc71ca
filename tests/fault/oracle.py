#!/usr/bin/python3
"""oracle.py: the fault suites' input files and their expected digests,
from implementations that owe nothing to fhsum: Python's hashlib for
SHA3-256 and tests/vectors/rfc9861.py (plain Python, from RFC 9861) for
KT128.  MD5 expectations come from GNU md5sum, in the shell.

    oracle.py make DIR NAME:SIZE...   write each NAME of SIZE bytes in DIR
    oracle.py digests ALGO FILE[:LEN]...
                                      print "FILE LEN HEX" for each FILE
                                      (its first LEN bytes, or all of it)
    oracle.py selftest                the KT128 shortcut below against
                                      tests/vectors and rfc9861.py itself

Plain-Python KT128 runs at about 0.7 MiB/s, too slow for the suites'
12 MiB files.  So every file is built of 8 KiB blocks drawn at random from
a pool of 64 random blocks (then cut to its size), and KT128 is computed
with rfc9861.py's own tree code, its leaf function remembered by leaf
content: a 12 MiB file then costs 64 leaves and one final node.  The
pool's blocks are all different and their order random, so a reader that
loses, repeats or reorders data still gets a different digest; MD5 and
SHA3-256 see the same bytes and are computed on all of them.
"""

import hashlib
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "vectors"))
import rfc9861  # noqa: E402

BLOCK = 8192
POOL = 64


def make(directory, specs):
    for i, spec in enumerate(specs):
        name, _, size = spec.rpartition(":")
        size = int(size)
        rnd = random.Random("%s:%d" % (name, size))
        pool = [rnd.randbytes(BLOCK) for _ in range(POOL)]
        with open(os.path.join(directory, name), "wb") as f:
            left = size
            while left > 0:
                b = pool[rnd.randrange(POOL)]
                f.write(b[:left])
                left -= len(b)


def kt128(msg):
    """KT128 of MSG (empty customization, 256 bits) by rfc9861.py's tree
    code, each distinct leaf computed once."""
    leaves = {}

    def ts(m, d, outlen):
        if d != 0x0B:
            return rfc9861.turboshake128(m, d, outlen)
        key = bytes(m)
        if key not in leaves:
            leaves[key] = rfc9861.turboshake128(m, d, outlen)
        return leaves[key]

    return rfc9861._kt(ts, 32, msg, b"", 32)


def digest(algo, data):
    if algo == "sha3-256":
        return hashlib.sha3_256(data).hexdigest()
    if algo == "md5":
        return hashlib.md5(data).hexdigest()
    if algo == "kt128":
        return kt128(data).hex()
    raise SystemExit("oracle.py: unknown algorithm " + algo)


def selftest():
    here = os.path.dirname(os.path.abspath(__file__))
    bad = 0
    with open(os.path.join(here, "..", "vectors", "kt128.tree")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            n, bits, hexd = line.split()
            if int(n) > 140000 or bits != "256":
                continue
            got = kt128(rfc9861.ptn(int(n))).hex()
            if got != hexd:
                print("kt128 shortcut: length %s: %s, vector %s" % (n, got, hexd))
                bad = 1
    rnd = random.Random(1)
    pool = [rnd.randbytes(BLOCK) for _ in range(3)]
    msg = b"".join(pool[rnd.randrange(3)] for _ in range(12))[:95000]
    if kt128(msg) != rfc9861.kt128(msg, b"", 32):
        print("kt128 shortcut differs from rfc9861.kt128 on repeated leaves")
        bad = 1
    return bad


def main(argv):
    if len(argv) >= 2 and argv[1] == "make":
        make(argv[2], argv[3:])
        return 0
    if len(argv) >= 3 and argv[1] == "digests":
        for spec in argv[3:]:
            path, sep, n = spec.rpartition(":")
            if not sep or not n.isdigit():
                path, n = spec, None
            with open(path, "rb") as f:
                data = f.read() if n is None else f.read(int(n))
            print(path, len(data), digest(argv[2], data))
        return 0
    if len(argv) == 2 and argv[1] == "selftest":
        return selftest()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
