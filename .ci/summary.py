#!/usr/bin/env python3
"""Counts the tests in meson's JSON test logs (given as arguments) (unit tests by
their meson result, bats suites by their TAP lines) and prints one closing
line: 'N passed, N failed, N skipped'."""
import json
import re
import sys

passed = failed = skipped = 0
for log in sys.argv[1:]:
    p = f = s = 0
    for line in open(log):
        test = json.loads(line)
        tap = [l for l in test.get("stdout", "").splitlines()
               if re.match(r"(not )?ok \d+", l)]
        if tap:
            for l in tap:
                if re.search(r"# skip", l, re.I):
                    s += 1
                elif l.startswith("ok"):
                    p += 1
                else:
                    f += 1
            if test["result"] not in ("OK", "SKIP") and not any(
                    l.startswith("not ok") for l in tap):
                f += 1  # the suite failed outside any test
        elif test["result"] == "OK":
            p += 1
        elif test["result"] == "SKIP":
            s += 1
        else:
            f += 1
    print(f"{log}: {p} passed, {f} failed, {s} skipped")
    passed, failed, skipped = passed + p, failed + f, skipped + s
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
