#!/usr/bin/python3
"""dll_version.py DLL... -- each Windows DLL's file version, read from its
VS_VERSIONINFO resource (the VS_FIXEDFILEINFO block, found by its signature
0xFEEF04BD), printed as "PATH a.b.c.d".  Exit status 1 when a file has none."""
import struct
import sys


def file_version(path):
    with open(path, "rb") as f:
        data = f.read()
    at = data.find(struct.pack("<I", 0xFEEF04BD))
    while at >= 0:
        sig, struc, ms, ls = struct.unpack_from("<IIII", data, at)
        if struc >> 16 == 1:  # dwStrucVersion 1.0: a real VS_FIXEDFILEINFO
            return "%d.%d.%d.%d" % (ms >> 16, ms & 0xFFFF, ls >> 16, ls & 0xFFFF)
        at = data.find(struct.pack("<I", 0xFEEF04BD), at + 4)
    return None


def main(paths):
    rc = 0
    for p in paths:
        v = file_version(p)
        print("%s %s" % (p, v or "no version resource"))
        rc |= v is None
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
