#!/usr/bin/env python3
"""The checksums of fhsum's table in plain Python, from their definitions,
for gen.py: CRC models by their Rocksoft parameters (computed bit by bit,
MSB first, reflecting where the model says), POSIX cksum (CRC-32/CKSUM
with the message's length appended, least significant byte first), and
the BSD and System V sums as coreutils' sum(1) defines them.

main() checks each CRC model against its published check value (the CRC
of b"123456789" in Greg Cook's catalogue of parametrised CRC algorithms)
and CRC-32 against zlib and binascii for lengths 0..1100; gen.py writes
nothing unless that passes.
"""

import binascii
import sys
import zlib


def reflect(v, width):
    r = 0
    for _ in range(width):
        r = (r << 1) | (v & 1)
        v >>= 1
    return r


class Model:
    def __init__(self, name, width, poly, init, refl, xorout, check):
        self.name, self.width, self.poly = name, width, poly
        self.init, self.refl, self.xorout, self.check = init, refl, xorout, check
        top = 1 << (width - 1)
        mask = (1 << width) - 1
        # The register after each byte value alone, from the definition:
        # the byte enters at the top, and each of its bits divides by the
        # polynomial (raw() reflects the bytes where refin says).
        self.table = []
        for b in range(256):
            reg = b << (width - 8)
            for _ in range(8):
                reg = ((reg << 1) ^ poly) & mask if reg & top else (reg << 1) & mask
            self.table.append(reg)

    def raw(self, data, reg=None):
        """The register (normal form) after DATA."""
        w = self.width
        mask = (1 << w) - 1
        reg = self.init if reg is None else reg
        for byte in data:
            if self.refl:
                byte = reflect(byte, 8)
            reg = ((reg << 8) & mask) ^ self.table[((reg >> (w - 8)) ^ byte) & 0xff]
        return reg

    def finish(self, reg):
        if self.refl:
            reg = reflect(reg, self.width)
        return reg ^ self.xorout

    def __call__(self, data):
        return self.finish(self.raw(data))


CKSUM = Model("CRC-32/CKSUM", 32, 0x04C11DB7, 0, False, 0xFFFFFFFF, 0x765E7680)
CRC32 = Model("CRC-32/ISO-HDLC", 32, 0x04C11DB7, 0xFFFFFFFF, True, 0xFFFFFFFF,
              0xCBF43926)
CRC32C = Model("CRC-32/ISCSI", 32, 0x1EDC6F41, 0xFFFFFFFF, True, 0xFFFFFFFF,
               0xE3069283)
CRC64NVME = Model("CRC-64/NVME", 64, 0xAD93D23594C93659, (1 << 64) - 1, True,
                  (1 << 64) - 1, 0xAE8B14860A799888)
MODELS = [CKSUM, CRC32, CRC32C, CRC64NVME]


def posix_cksum(data):
    """POSIX.1-2017 cksum: the length follows the data, in as few bytes as
    hold it, least significant first."""
    n = len(data)
    tail = bytearray()
    while n:
        tail.append(n & 0xff)
        n >>= 8
    return CKSUM.finish(CKSUM.raw(bytes(tail), CKSUM.raw(data)))


def bsd_sum(data):
    s = 0
    for b in data:
        s = (s >> 1) + ((s & 1) << 15)
        s = (s + b) & 0xffff
    return s


def sysv_sum(data):
    s = sum(data) & 0xffffffff
    r = (s & 0xffff) + (s >> 16)
    return (r & 0xffff) + (r >> 16)


# (fhsum's name, function, digest bytes): the digest is the value's bytes,
# most significant first; the sums are held in four bytes.
ALGOS = [
    ("crc", posix_cksum, 4),
    ("crc32b", CRC32, 4),
    ("bsd", bsd_sum, 4),
    ("sysv", sysv_sum, 4),
    ("crc32c", CRC32C, 4),
    ("crc64nvme", CRC64NVME, 8),
]


def main():
    ok = True
    for m in MODELS:
        got = m(b"123456789")
        if got != m.check:
            print("%s: check %x, published %x" % (m.name, got, m.check),
                  file=sys.stderr)
            ok = False
    for n in range(1101):
        data = bytes(i % 251 for i in range(n))
        want = zlib.crc32(data)
        if CRC32(data) != want or binascii.crc32(data) != want:
            print("CRC-32 of %d bytes disagrees with zlib" % n, file=sys.stderr)
            ok = False
            break
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
