#!/usr/bin/env bash
# paths.sh: every path of this repository that a comment or a document
# cites exists.  A citation that outlives a moved or deleted file sends
# the reader nowhere; one to a file kept outside the repository (notes
# beside a working copy) sends every other reader nowhere.
#
#   tests/house/paths.sh [SRC-DIR [ALLOWLIST]]
#
# The files read are those git tracks in SRC-DIR (default: the tree this
# script is in), or without git every file under it but build
# directories: sources, scripts, Meson files, documents and the manual
# page; test data (tests/vectors, tests/cli/lists, the fuzz seeds) is
# not read.  What counts as a citation:
#   - a word that starts with one of the repository's top-level folders
#     (lib/, cmd/, tests/, docs/...) and goes on with a slash, such as
#     lib/engine/input.c or tests/cli/: it must name a file or folder
#     from the top of the tree.  Not one that another project's name,
#     a slash or a dot comes right before (zstd's lib/, aws/aws-lc/...,
#     ./lib/...), nor one with a placeholder or pattern in it
#     (arch/<isa>/, tests/cli/*.bats, $dir/lib/x);
#   - a word that climbs out of the tree from where it is cited
#     (../elsewhere/tools/probe.c): always wrong;
#   - a word whose first folder is research/: notes that were never
#     part of the tree;
#   - a document's name alone (SPEC.md, testing.md), not another
#     project's (zstd's TESTING.md): beside the file that cites it, at
#     the top or in docs/;
#   - in a Markdown file, a relative link target ([x](testing.md)),
#     from the document's folder.
# ALLOWLIST (default: paths.allow beside this script) names citations
# accepted as they are, "FILE: PATH" a line; '#' starts a comment.
# Exit status 0: every citation found; 1: one is not (each printed as
# FILE:LINE: PATH); 2: usage trouble.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$(cd "$here/../.." && pwd)}
allow=${2:-$here/paths.allow}
[ -d "$src" ] || { echo "paths.sh: $src is not a directory" >&2; exit 2; }

exec python3 - "$src" "$allow" <<'PY'
import glob, os, re, subprocess, sys

src, allow = sys.argv[1:3]
src = os.path.realpath(src)

# What is read: by name.
EXTS = {".c", ".h", ".S", ".sh", ".bash", ".bats", ".py", ".awk", ".md",
        ".1", ".build", ".txt", ".ini", ".zsh", ".fish", ".map", ".dict"}
NAMES = {"meson.build", "meson_options.txt", "run"}
SKIP_DIRS = ("tests/vectors/", "tests/cli/lists/", "tests/fuzz/checklist_seeds/")


def tracked():
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "-z"],
                             capture_output=True, check=True).stdout
        return [p for p in out.decode("utf-8", "replace").split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for root, dirs, names in os.walk(src):
        # A build directory (Meson's) or a hidden one but .ci.
        dirs[:] = sorted(d for d in dirs
                         if (not d.startswith(".") or d == ".ci") and
                         not os.path.exists(os.path.join(root, d, "meson-private")))
        for n in names:
            files.append(os.path.relpath(os.path.join(root, n), src))
    return sorted(files)


def wanted(rel):
    if rel.startswith(SKIP_DIRS):
        return False
    base = os.path.basename(rel)
    return base in NAMES or os.path.splitext(base)[1] in EXTS


files = [f for f in tracked() if wanted(f)]
tops = sorted({f.split("/")[0] for f in tracked() if "/" in f})
if not tops:
    print("paths.sh: no files under %s" % src, file=sys.stderr)
    sys.exit(2)

allowed = set()
if os.path.exists(allow):
    for line in open(allow, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            f, _, p = line.partition(": ")
            allowed.add((f.strip(), p.strip()))

# A path word: the characters paths here are made of.  What may come
# right before one: not a word character, a slash, a dot, a hyphen or
# '$' (another project's path, a relative ./ path, a variable), and not
# "'s " (another project's folder: "zstd's lib/").
WORD = r"[A-Za-z0-9_.+/-]+"
top_re = re.compile(r"(?<![\w/.$-])((?:%s)/%s)" %
                    ("|".join(re.escape(t) for t in tops), WORD[:-1] + "*"))
climb_re = re.compile(r"(?<![\w/.$-])(\.\./%s)" % WORD)
research_re = re.compile(r"(?<![\w/.$-])(research/%s)" % (WORD[:-1] + "*"))
md_re = re.compile(r"(?<![\w/.$-])([A-Za-z0-9_-]+\.md)\b")
link_re = re.compile(r"\]\(([^)\s]+)\)")
PATTERN = re.compile(r"[<>*?{}\[\]$%]")


def trim(p):
    # Sentence punctuation after a path; a path ends in no dot.
    return p.rstrip(".,:;")


def exists(p):
    return os.path.exists(os.path.join(src, p))


# A build output Meson makes from a folder of the tree (cmd/fhsum,
# tests/fault/mapprobe, lib/libfhsum.so.0): its folder holds a
# meson.build, and its name no source's or document's ending.
SOURCE_EXTS = EXTS | {".in", ".json", ".yml", ".toml", ".allow"}


def build_output(p):
    d, base = os.path.split(p.rstrip("/"))
    return (bool(d) and exists(os.path.join(d, "meson.build")) and
            os.path.splitext(base)[1] not in SOURCE_EXTS and not p.endswith("/"))


# A placeholder in capitals (tests/vectors/ALGO.len, ALGO.KIND): fine
# where the same path with any names in their places names a file.
def placeholder(p):
    pat = re.sub(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9_]{2,}(?![a-z0-9])", "*", p)
    return pat != p and bool(glob.glob(os.path.join(glob.escape(src), pat)))


# The comments of a source file, each on its own line number, with the
# code blanked; documents are read whole.
HASH = {".sh", ".bash", ".bats", ".py", ".awk", ".build", ".txt", ".ini",
        ".zsh", ".fish", ".dict", ""}


def comments(rel, text):
    ext = os.path.splitext(rel)[1]
    if os.path.basename(rel) in ("meson.build", "meson_options.txt", "run"):
        ext = ".build"
    if ext in (".md", ".1"):
        return text.splitlines()
    out = []
    if ext in (".c", ".h", ".S", ".map"):
        inside = False
        for line in text.splitlines():
            keep, i = [], 0
            while i < len(line):
                if inside:
                    j = line.find("*/", i)
                    if j < 0:
                        keep.append(line[i:])
                        break
                    keep.append(line[i:j])
                    inside, i = False, j + 2
                else:
                    j = line.find("/*", i)
                    k = line.find("//", i)
                    if 0 <= k and (j < 0 or k < j) and not line[:k].rstrip().endswith(":"):
                        keep.append(line[k + 2:])
                        break
                    if j < 0:
                        if ext in (".S", ".map"):
                            h = line.find("#", i)
                            if h >= 0 and not re.match(r"\s*#\s*(include|define|if|else|endif|undef|elif)", line):
                                keep.append(line[h + 1:])
                        break
                    inside, i = True, j + 2
            out.append(" ".join(keep))
        return out
    for line in text.splitlines():
        m = re.search(r"(?:^|\s)#(?![!{])(.*)", line)
        out.append(m.group(1) if m else "")
    return out


bad = []
for rel in files:
    try:
        text = open(os.path.join(src, rel), encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    here_dir = os.path.dirname(rel)
    for n, line in enumerate(comments(rel, text), 1):
        found = []
        for m in top_re.finditer(line):
            end = line[m.end():m.end() + 1]
            if PATTERN.search(end) or re.match(r"'s\s*$", line[max(0, m.start() - 3):m.start()]):
                continue
            found.append((trim(m.group(1)), "top"))
        for m in climb_re.finditer(line):
            found.append((trim(m.group(1)), "climb"))
        for m in research_re.finditer(line):
            found.append((trim(m.group(1)), "research"))
        for m in md_re.finditer(line):
            if not re.search(r"'s\s*$", line[:m.start()]):
                found.append((m.group(1), "md"))
        if rel.endswith(".md"):
            for m in link_re.finditer(line):
                t = m.group(1).split("#", 1)[0]
                if not t or re.match(r"[a-z][a-z0-9+.-]*:", t) or t.startswith("/"):
                    continue
                found.append((t, "link"))
        seen = set()
        for p, kind in found:
            if (rel, p) in allowed or p in seen:
                continue
            seen.add(p)
            if kind == "top":
                ok = exists(p) or build_output(p) or placeholder(p)
            elif kind in ("link", "climb"):
                full = os.path.normpath(os.path.join(here_dir, p))
                ok = not full.startswith("..") and exists(full)
            elif kind == "md":
                ok = any(exists(os.path.join(d, p)) for d in (here_dir, "", "docs"))
            else:
                ok = False
            if not ok:
                bad.append("%s:%d: %s" % (rel, n, p))

for b in bad:
    print(b)
if bad:
    print("paths.sh: %d citation(s) of paths not in the repository "
          "(fix them, or accept one in %s)" % (len(bad), allow),
          file=sys.stderr)
    sys.exit(1)
print("paths.sh: %d files read, every cited path found" % len(files))
PY
