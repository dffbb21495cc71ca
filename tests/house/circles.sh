#!/usr/bin/env bash
# circles.sh: no circle of calls between source files.  From the built
# objects of lib/ and cmd/ (nm: the symbols each object defines and those
# it needs), a file calls another where it needs a symbol the other
# defines; a strongly connected set of two or more files is a circle, and
# fails the check unless ALLOWLIST names exactly that set (one set a line,
# its files separated by blanks; '#' starts a comment).
#
#   tests/house/circles.sh BUILD-DIR [ALLOWLIST]
#
# Which source an object was built from is read from Meson's
# compile_commands.json, relative to the source tree BUILD-DIR was
# configured from.  Exit status 0: no circle, or only allowed ones;
# 1: a circle (each printed with the symbols that close it); 2: usage or
# build trouble.
set -euo pipefail

build=${1:?usage: circles.sh BUILD-DIR [ALLOWLIST]}
allow=${2:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
db=$build/compile_commands.json
[ -f "$db" ] || { echo "circles.sh: $db missing" >&2; exit 2; }
nm=${NM:-nm}

exec python3 - "$build" "$src" "$db" "$nm" "$allow" <<'PY'
import json, os, subprocess, sys

build, src, db, nm, allow = sys.argv[1:6]


def die(msg):
    print("circles.sh: " + msg, file=sys.stderr)
    sys.exit(2)


try:
    # The tree BUILD was configured from, which may not hold this script.
    info = os.path.join(build, "meson-info", "meson-info.json")
    src = json.load(open(info))["directories"]["source"]
except (OSError, KeyError, ValueError):
    pass
dirs = ("lib/", "cmd/")

# Object -> source file, relative to the source tree.
objects = {}
for e in json.load(open(db)):
    f = os.path.relpath(os.path.join(e["directory"], e["file"]), src)
    if not f.startswith(dirs):
        continue
    out = os.path.join(e["directory"], e["output"])
    if os.path.exists(out):
        objects[out] = f
if not objects:
    die("no objects of lib/ or cmd/ built in " + build)

defines, needs = {}, {}
for obj, f in sorted(objects.items()):
    r = subprocess.run([nm, "-P", obj], capture_output=True, text=True)
    if r.returncode:
        die("%s -P %s: %s" % (nm, obj, r.stderr.strip()))
    for line in r.stdout.splitlines():
        w = line.split()
        if len(w) < 2:
            continue
        name, kind = w[0], w[1]
        if kind in ("U", "w", "v"):
            needs.setdefault(f, set()).add(name)
        elif kind.isupper():
            defines.setdefault(name, set()).add(f)

# File -> the files it calls, with the symbols each edge stands for.
edges = {f: {} for f in set(objects.values())}
for f, names in needs.items():
    for name in names:
        for g in defines.get(name, ()):
            if g != f:
                edges[f].setdefault(g, set()).add(name)

if not any(edges.values()):
    die("no calls between files found: nm read nothing useful")

# Tarjan's strongly connected components, iteratively.
index, low, on, stack, sccs, n = {}, {}, set(), [], [], 0
for root in sorted(edges):
    if root in index:
        continue
    work = [(root, iter(sorted(edges[root])))]
    index[root] = low[root] = n; n += 1
    stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = n; n += 1
                stack.append(w); on.add(w)
                work.append((w, iter(sorted(edges[w]))))
                break
            if w in on:
                low[v] = min(low[v], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                scc = set()
                while True:
                    w = stack.pop(); on.discard(w); scc.add(w)
                    if w == v:
                        break
                if len(scc) > 1:
                    sccs.append(scc)

allowed = []
if allow:
    for line in open(allow):
        line = line.split("#", 1)[0].split()
        if line:
            allowed.append(set(line))

bad = 0
for scc in sorted(sccs, key=sorted):
    ok = scc in allowed
    print("%s circle: %s" % ("allowed" if ok else "FAIL", " ".join(sorted(scc))))
    for f in sorted(scc):
        for g in sorted(edges[f]):
            if g in scc:
                print("  %s -> %s: %s" % (f, g, " ".join(sorted(edges[f][g]))))
    bad += not ok
for a in allowed:
    if a not in sccs:
        print("note: allowed circle no longer there: " + " ".join(sorted(a)))
print("%d files, %d circles, %d not allowed" % (len(edges), len(sccs), bad))
sys.exit(1 if bad else 0)
PY
