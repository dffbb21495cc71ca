#!/usr/bin/env python3
"""TurboSHAKE and KangarooTwelve (KT128, KT256) in plain Python, written from
RFC 9861 (sections 2 and 3 and the pseudocode of Appendix A), as an oracle
that owes nothing to libfhsum.  tests/vectors/gen.py imports it to write the
turboshake*/kt* vector files.

    python3 tests/vectors/rfc9861.py          check against the RFC 9861
                                              section 5 vectors in
                                              rfc9861.txt (the 17**6-byte
                                              ones are skipped: minutes here)
    python3 tests/vectors/rfc9861.py --all    the 17**6-byte ones too
"""

import os
import sys

MASK = (1 << 64) - 1

# Round constants of Keccak-f[1600] (FIPS 202 section 3.2.5, computed below
# from the LFSR rather than typed in); Keccak-p[1600, 12] uses the last 12.
def _round_constants():
    out = []
    r = 1
    for _ in range(24):
        rc = 0
        for j in range(7):
            # rc(t) for t = j + 7 * round: the LFSR x^8 + x^6 + x^5 + x^4 + 1
            if r & 1:
                rc |= 1 << ((1 << j) - 1)
            r = ((r << 1) ^ 0x171) if r & 0x80 else (r << 1)
        out.append(rc)
    return out


RC = _round_constants()

# Rotation offsets r[x][y] (FIPS 202 Table 2), for lane x + 5 * y.
ROT = [0] * 25
_x, _y = 1, 0
for _t in range(24):
    ROT[_x + 5 * _y] = ((_t + 1) * (_t + 2) // 2) % 64
    _x, _y = _y, (2 * _x + 3 * _y) % 5


def _rol(v, n):
    return ((v << n) | (v >> (64 - n))) & MASK if n else v


def keccak_p(a, rounds=12):
    """Keccak-p[1600, rounds] on the list of 25 lanes A (lane x + 5y)."""
    for ir in range(24 - rounds, 24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]
             for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                i = x + 5 * y
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rol(a[i] ^ d[x], ROT[i])
        for y in range(0, 25, 5):
            for x in range(5):
                a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y])
        a[0] ^= RC[ir]
    return a


def turboshake(rate, msg, d, outlen):
    """TurboSHAKE with a rate of RATE bytes (168: TurboSHAKE128, 136:
    TurboSHAKE256), domain byte D in 0x01..0x7F, OUTLEN bytes (RFC 9861
    section 2.2: M || D, zeros to the rate, 0x80 into the last byte)."""
    assert 1 <= d <= 0x7F
    padded = bytearray(msg)
    padded.append(d)
    padded += bytes(-len(padded) % rate)
    padded[-1] ^= 0x80
    a = [0] * 25
    for off in range(0, len(padded), rate):
        for i in range(rate // 8):
            a[i] ^= int.from_bytes(padded[off + 8 * i:off + 8 * i + 8],
                                   "little")
        keccak_p(a)
    out = bytearray()
    while True:
        out += b"".join(v.to_bytes(8, "little") for v in a[:rate // 8])
        if len(out) >= outlen:
            return bytes(out[:outlen])
        keccak_p(a)


def turboshake128(msg, d, outlen):
    return turboshake(168, msg, d, outlen)


def turboshake256(msg, d, outlen):
    return turboshake(136, msg, d, outlen)


def length_encode(x):
    """RFC 9861 section 3.3: big-endian bytes of X, then their count."""
    s = b""
    while x > 0:
        s = bytes([x & 0xFF]) + s
        x >>= 8
    return s + bytes([len(s)])


CHUNK = 8192


def _kt(ts, cvlen, msg, custom, outlen):
    s = bytes(msg) + bytes(custom) + length_encode(len(custom))
    if len(s) <= CHUNK:
        return ts(s, 0x07, outlen)
    node = bytearray(s[:CHUNK])
    node += b"\x03" + bytes(7)
    n = 0
    for off in range(CHUNK, len(s), CHUNK):
        node += ts(s[off:off + CHUNK], 0x0B, cvlen)
        n += 1
    node += length_encode(n) + b"\xff\xff"
    return ts(bytes(node), 0x06, outlen)


def kt128(msg, custom, outlen):
    """KT128 (RFC 9861 section 3.2)."""
    return _kt(turboshake128, 32, msg, custom, outlen)


def kt256(msg, custom, outlen):
    """KT256 (RFC 9861 section 3.4): TurboSHAKE256 and 64-byte CVs."""
    return _kt(turboshake256, 64, msg, custom, outlen)


def ptn(n):
    """The RFC's pattern: 00 01 .. FA repeated, cut to N bytes."""
    return bytes(i % 251 for i in range(n))


def message(spec):
    """A message of rfc9861.txt: ptn:N or hex:HEX."""
    kind, _, arg = spec.partition(":")
    if kind == "ptn":
        return ptn(int(arg))
    if kind == "hex":
        return bytes.fromhex(arg)
    raise ValueError("bad message spec " + spec)


FUNCS = {
    "turboshake128": lambda m, c, n: turboshake128(m, 0x1F, n),
    "turboshake256": lambda m, c, n: turboshake256(m, 0x1F, n),
    "kt128": kt128,
    "kt256": kt256,
}


def main():
    full = "--all" in sys.argv[1:]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "rfc9861.txt")
    passed = failed = skipped = 0
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            algo, outlen, msg, custom, hexd = line.split()
            outlen = int(outlen)
            m = message(msg)
            if len(m) > 10 ** 7 and not full:
                skipped += 1
                continue
            got = FUNCS[algo](m, message(custom), outlen)
            want = bytes.fromhex(hexd)
            if got[outlen - len(want):] == want:
                passed += 1
            else:
                failed += 1
                print("FAIL", line.strip())
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
