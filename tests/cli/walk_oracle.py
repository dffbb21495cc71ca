#!/usr/bin/env python3
"""walk_oracle.py: what `fhsum -z -a md5 -r DIR...` must print, made without
fhsum: a depth-first walk, each directory's entries sorted by their bytes
(not the full paths: a name with a byte below '/' sorts apart), symbolic
links not followed, regular files only, each as "MD5  PATH\\0".  The types
come from the directory (d_type) as fhsum takes them.  Directories that
cannot be listed and files that cannot be read go, one a line and in walk
order, to the file given by --errors.

    walk_oracle.py [--errors FILE] DIR...
"""
import hashlib
import os
import sys


def walk(path, out, errors):
    try:
        with os.scandir(path) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        errors.append(path)
        return
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            walk(e.path, out, errors)
        elif e.is_file(follow_symlinks=False):
            try:
                with open(e.path, "rb") as f:
                    digest = hashlib.md5(f.read()).hexdigest().encode()
            except OSError:
                errors.append(e.path)
                continue
            out.write(digest + b"  " + e.path + b"\0")


def main(argv):
    errors_file = None
    if argv[:1] == ["--errors"]:
        errors_file, argv = argv[1], argv[2:]
    errors = []
    out = sys.stdout.buffer
    for d in argv:
        walk(os.fsencode(d).rstrip(b"/") or b"/", out, errors)
    if errors_file:
        with open(errors_file, "wb") as f:
            for e in errors:
                f.write(e + b"\n")


main(sys.argv[1:])
