#!/usr/bin/env python3
"""Reference model of `fhsum --audit`, `--update` and `--against`, as
fhsum(1) describes them (AUDITING AND UPDATING, and --json), never taken
from fhsum's output.  Digests come from hashlib.

    audit_oracle.py [OPTION]... LIST [OPERAND]...

    audit_oracle.py --gen [-r] [-a ALGO] [--meta] [--tag] [-b] OPERAND...

prints the list `fhsum -r [--meta]` would print for the operands (an
independent list maker for the tests).

Options as fhsum's: -r, -a ALGO, --files-from=F, --quiet, --status, -w,
--strict, --ignore-missing, --against=NEW, --update, --prune, --meta, --tag,
-b; and --new-list=PATH (with --update: write the expected new LIST there,
or nothing when LIST must stay as it is).  Prints the expected stdout on
stdout and the expected stderr on stderr (program name as PROG, as the
bats helpers normalise it) and exits with the expected status.
"""
import base64, hashlib, os, re, stat, sys

ALGOS = {"md5": ("MD5", 32), "sha3-224": ("SHA3-224", 56), "sha3-256": ("SHA3-256", 64),
         "sha3-384": ("SHA3-384", 96), "sha3-512": ("SHA3-512", 128)}
BY_TAG = {tag: name for name, (tag, _) in ALGOS.items()}
BY_LEN = {n: name for name, (_, n) in ALGOS.items()}
B64_LEN = {24: "md5", 40: "sha3-224", 44: "sha3-256", 64: "sha3-384", 88: "sha3-512"}
META = re.compile(rb"#fhsum size=([0-9]+) mtime=([0-9]+\.[0-9]{9})( algorithm=[a-z0-9-]+)?\Z")
DECLARE = re.compile(rb"#fhsum untagged=([a-z0-9-]+)\Z")
# An untagged line of these is ambiguous: SHA-2 writes the same lengths,
# and XXH128 MD5's.
SHARED = {"md5", "sha3-224", "sha3-256", "sha3-384", "sha3-512"}
TAGGED = re.compile(rb"([A-Za-z0-9-]+) \((.*)\) = ([0-9A-Za-z+/=]+)\Z", re.S)
UNTAGGED = re.compile(rb"([0-9A-Za-z+/=]+) ([ *])(.*)\Z", re.S)
out, err = sys.stdout.buffer, []


def digest(algo, path):
    h = hashlib.new(algo.replace("-", "_"))
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                return h.hexdigest()
            h.update(b)


def meta_of(st):
    return (st.st_size, "%d.%09d" % divmod(st.st_mtime_ns, 10**9))


def escape(name):  # GNU's name escaping for lines and reports
    if not any(c in name for c in b"\\\n\r"):
        return False, name
    return True, name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def unescape(name):
    out, i = bytearray(), 0
    while i < len(name):
        c = name[i:i + 1]
        if c == b"\\":
            nxt = name[i + 1:i + 2]
            if nxt not in (b"\\", b"n", b"r"):
                return None
            out += {b"\\": b"\\", b"n": b"\n", b"r": b"\r"}[nxt]
            i += 2
        else:
            out += c
            i += 1
    return bytes(out)


def key(name):
    return name[2:] if name.startswith(b"./") else name


def parse_digest(algo, text):
    """Hex (any case) or padded base64 of the algorithm's length, as hex."""
    n = ALGOS[algo][1]
    if len(text) == n and re.fullmatch(rb"[0-9a-fA-F]+", text):
        return text.decode().lower(), False
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError:
        return None, False
    return (raw.hex(), True) if len(raw) * 2 == n and base64.b64encode(raw) == text else (None, False)


class Entry:
    pass


def parse_list(data, algo_opt):
    """-> (entries in list order, bad line numbers, raw lines, duplicates
    as (line number, name, the first line's number))."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    entries, bad, seen, pending, dups = [], [], {}, None, []
    declared.clear()
    for no, raw in enumerate(lines, 1):
        line = raw[:-1] if raw.endswith(b"\r") else raw
        if line == b"" or line.startswith(b"#"):
            d = DECLARE.match(line)
            if d and not algo_opt:
                declared.add(d.group(1).decode())
            m = META.match(line)
            pending = (int(m.group(1)), m.group(2).decode(), no, m.group(3)) if m else None
            continue
        e, escaped = Entry(), line.startswith(b"\\")
        body = line[1:] if escaped else line
        m = TAGGED.match(body)
        if m:
            algo = BY_TAG.get(m.group(1).decode())
            if algo is None or (algo_opt and algo != algo_opt):
                algo = None
            name, text, e.tagged, e.star = m.group(2), m.group(3), True, False
        else:
            m = UNTAGGED.match(body)
            algo = name = None
            if m:
                text, name = m.group(1), m.group(3)
                e.tagged, e.star = False, m.group(2) == b"*"
                algo = algo_opt
                if algo is None and re.fullmatch(rb"[0-9a-fA-F]+", text):
                    algo = BY_LEN.get(len(text))  # hex first, as cksum 9.9
                if algo is None:
                    algo = B64_LEN.get(len(text))
        hexd = b64 = None
        if algo:
            hexd, b64 = parse_digest(algo, text)
        if escaped and name is not None:
            name = unescape(name)
        if not algo or hexd is None or not name:
            bad.append(no)
            pending = None
            continue
        if key(name) in seen:  # the first line of a name counts
            dups.append((no, name, seen[key(name)]))
            pending = None
            continue
        seen[key(name)] = no
        e.name, e.algo, e.digest, e.b64, e.no = name, algo, hexd, b64, no
        # Left for the run to settle: untagged, of a shared length, named
        # neither by a declaration nor by its metadata line's word.
        e.open = (not algo_opt and not e.tagged and algo in SHARED and algo not in declared
                  and not (pending and pending[2] == no - 1 and pending[3]))
        e.meta = pending[:2] if pending and pending[2] == no - 1 else None
        e.meta_no = pending[2] if e.meta else None
        pending = None
        entries.append(e)
    return entries, bad, lines, dups


def walk(operands, recursive):
    """-> [(name, path-or-error)] in fhsum -r's order."""
    files = []

    def rec(name):
        for ent in sorted(os.listdir(name)):
            full = name.rstrip(b"/") + b"/" + ent
            st = os.lstat(full)
            if stat.S_ISDIR(st.st_mode):
                rec(full)
            elif stat.S_ISREG(st.st_mode):
                files.append(full)

    for op in operands:
        if recursive and os.path.isdir(op):
            rec(op)
        else:
            files.append(op)
    return files


def quote(name):  # GNU quotef, for the names the tests use
    s = os.fsdecode(name)
    if re.fullmatch(r"[A-Za-z0-9_./+:,@%=-]+", s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


# The algorithms the list declares for its untagged lines ("#fhsum
# untagged="), as read and as the new list will declare them.
declared = set()
GEN = False


def format_line(name, hexd, algo, tagged, star, b64, meta):
    esc, ename = escape(name)
    d = base64.b64encode(bytes.fromhex(hexd)) if b64 else hexd.encode()
    if tagged:
        line = ALGOS[algo][0].encode() + b" (" + ename + b") = " + d
    else:
        line = d + (b" *" if star else b"  ") + ename
    line = (b"\\" if esc else b"") + line + b"\n"
    # An untagged line of a shared length that no declaration covers
    # names its algorithm.
    # Whether it does is known once the new list's declarations are:
    # a mark, resolved by resolve_names().
    shared = not tagged and algo in SHARED
    if meta:
        line = (b"#fhsum size=%d mtime=%s%s\n" % (meta[0], meta[1].encode(),
                b"\0N" + algo.encode() + b"\0" if shared else b"")) + line
    elif shared and not GEN:
        line = b"\0L" + algo.encode() + b"\0" + line
    return line


def resolve_names(text):
    """Resolves format_line's marks against `declared`."""
    def one(m):
        algo = m.group(2).decode()
        if algo in declared:
            return b""
        return (b" algorithm=" if m.group(1) == b"N" else b"#fhsum algorithm=") + m.group(2) + (
            b"" if m.group(1) == b"N" else b"\n")
    return re.sub(rb"\0([NL])([a-z0-9-]+)\0", one, bytes(text))


def main(argv):
    o = {"r": False, "a": None, "files_from": None, "quiet": False, "status": False, "w": False,
         "strict": False, "ignore_missing": False, "against": None, "update": False,
         "prune": False, "meta": False, "json": False, "tag": False, "b": False, "base64": False, "new_list": None}
    args = []
    while argv:
        a = argv.pop(0)
        if a == "-a":
            o["a"] = argv.pop(0).lower()
        elif a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            o[k.replace("-", "_")] = v
        elif a in ("--quiet", "--status", "-w", "--warn"):  # the last wins, as GNU's
            o.update(quiet=a == "--quiet", status=a == "--status", w=a in ("-w", "--warn"))
        elif a.startswith("-") and len(a) > 1:
            o[a.lstrip("-").replace("-", "_")] = True
        else:
            args.append(os.fsencode(a))
    if o.get("gen"):
        global GEN
        GEN = True
        for name in walk(args, o["r"]):
            m = meta_of(os.stat(name)) if o["meta"] else None
            out.write(resolve_names(format_line(name, digest(o["a"] or "sha3-256", name),
                                                o["a"] or "sha3-256", o["tag"], o["b"],
                                                o["base64"], m)))
        return 0
    # A directory operand of --audit or --update is its tree, -r or not.
    o["r"] = True
    lst, operands = args[0], args[1:]
    lname = os.fsdecode(lst)
    data = b""
    if o["update"] and not os.path.lexists(lst):
        pass  # --update creates it
    else:
        try:
            with open(lst, "rb") as f:
                data = f.read()
        except OSError as e:
            return die(lname, e.strerror)
    entries, bad, lines, dups = parse_list(data, o["a"])
    algos = {e.algo for e in entries}
    if o["a"]:
        new_algo = o["a"]
    elif len(algos) > 1:
        err.append("PROG: %s: lines of several algorithms: give -a for new files" % lname)
        return finish(64)
    else:
        new_algo = algos.pop() if algos else "sha3-256"
    if o["files_from"]:
        with open(o["files_from"], "rb") as f:
            operands = [n for n in f.read().split(b"\n") if n]
    byname = {key(e.name): e for e in entries}
    # Improper lines (with -w) and duplicate entries (always), in line order.
    notes = []
    if o["w"]:
        algname = " " + ALGOS[o["a"]][0] if o["a"] else ""
        notes += [(no, "PROG: %s: %d: improperly formatted%s checksum line" % (lname, no, algname))
                  for no in bad]
    if not o["status"]:
        notes += [(no, "PROG: %s: %d: duplicate entry for %s: line %d counts"
                   % (lname, no, quote(name), first)) for no, name, first in dups]
    err.extend(text for _, text in sorted(notes))

    # Present files: (name, entry or None, hex digest or None, (size, mtime)
    # or None, error text or None, algorithm for a new file).
    present = []
    if o["against"]:
        try:
            with open(o["against"], "rb") as f:
                new_entries, _, _, _ = parse_list(f.read(), o["a"])
        except OSError as e:
            return die(o["against"], e.strerror)
        expected = list(entries)
        for n in new_entries:
            present.append((n.name, byname.get(key(n.name)), n.digest, n.meta, None, n.algo))
    else:
        files = walk(operands, o["r"])
        opkeys = [key(op).rstrip(b"/") for op in operands]
        dirkeys = [k for k, op in zip(opkeys, operands) if o["r"] and os.path.isdir(op)]

        def wanted(e):
            k = key(e.name)
            return (o["files_from"] or k in opkeys
                    or any(d in (b"", b".") or k.startswith(d + b"/") for d in dirkeys))
        expected = [e for e in entries if wanted(e)]
        for name in files:
            e = byname.get(key(name))
            try:
                st = os.stat(name)
                if stat.S_ISDIR(st.st_mode):
                    raise IsADirectoryError(21, "Is a directory")
                m = meta_of(st)
                # A file named as an operand is read whatever its metadata.
                unchanged = o["update"] and e and e.meta == m and name not in operands
                d = None if unchanged else digest(e.algo if e else new_algo, name)
                present.append((name, e, d, m, None, new_algo))
            except FileNotFoundError:
                if e is None:  # not listed: an error, as in generation
                    present.append((name, e, None, None, "No such file or directory", new_algo))
                # listed and named by an operand: expected, so MISSING
            except OSError as ex:
                present.append((name, e, None, None, ex.strerror, new_algo))
    present_keys = {key(p[0]) for p in present}
    missing = [e for e in expected if key(e.name) not in present_keys]

    report, new, moved, newdet, counts = [], [], set(), {}, dict.fromkeys(
        ["bad", "dups", "unread", "changed", "damaged", "moved", "new", "missing", "kept"], 0)
    counts["bad"], counts["dups"] = len(bad), len(dups)
    # --update writes metadata where the list keeps some, or --meta asks.
    with_meta = o["meta"] or any(e.meta for e in entries)
    replaced = {}  # entry line number -> new line bytes (or b"" to drop)
    # Algorithms of open entries that a file read showed (a verdict), and
    # open entries rewritten with a digest that matched none.
    verdicts, unsettled = set(), set()
    for name, e, d, m, error, algo in present:
        if e is not None and e.open and d is not None and d == e.digest:
            verdicts.add(e.algo)
        algo = e.algo if e else algo
        det = {"algorithm": algo, "digest": d, "size": m[0] if m else None, "error": error}
        if e is None:
            if error is None:
                new.append((name, d, m, algo))
                newdet[name] = det
            else:
                err.append("PROG: %s: %s" % (quote(name), error))
                report.append((name, "FAILED open or read", None, det))
                counts["unread"] += 1
            continue
        if error is not None:
            err.append("PROG: %s: %s" % (quote(name), error))
            report.append((name, "FAILED open or read", None, det))
            counts["unread"] += 1
        elif d is None or (d == e.digest and (e.meta == m or not o["update"] or not with_meta)):
            report.append((name, "OK", None, det))
        elif d == e.digest:  # --update: metadata refreshed, no report
            report.append((name, "OK", None, det))
            replaced[e.no] = format_line(e.name, d, e.algo, e.tagged, e.star, e.b64, m)
        elif e.meta and e.meta == m and name not in operands:
            det["expected"] = e.digest
            report.append((name, "DAMAGED", None, det))
            counts["damaged"] += 1
        elif e.meta and e.meta == m:  # named: its content is accepted
            det["expected"] = e.digest
            report.append((name, "DAMAGED", None, det))
            counts["damaged"] += 1
            replaced[e.no] = format_line(e.name, d, e.algo, e.tagged, e.star, e.b64, m)
            if e.open:
                unsettled.add(e.algo)
        else:
            if e.open:
                unsettled.add(e.algo)
            det["expected"] = e.digest
            report.append((name, "CHANGED", None, det))
            counts["changed"] += 1
            replaced[e.no] = format_line(e.name, d, e.algo, e.tagged, e.star, e.b64,
                                         m if with_meta else None)
    paired = set()
    for name, d, m, algo in new:
        old = next((e for e in missing if e.no not in paired and e.algo == algo
                    and e.digest == d), None)
        if old is not None:
            # Without --prune, --update keeps the old line and adds the name.
            paired.add(old.no)
            if old.open:
                verdicts.add(old.algo)
            report.append((name, "MOVED", old.name, newdet[name]))
            counts["moved"] += 1
            if not o["update"] or o["prune"]:
                moved.add(name)
                replaced[old.no] = format_line(name, old.digest, old.algo, old.tagged,
                                               old.star, old.b64,
                                               m if old.meta or o["meta"] else None)
        else:
            report.append((name, "NEW", None, newdet[name]))
            counts["new"] += 1
    for e in missing:
        if e.no not in paired:
            counts["kept" if o["update"] and not o["prune"] else "missing"] += 1
            if o["update"] and o["prune"]:
                replaced[e.no] = b""
            if not o["ignore_missing"] and (o["prune"] or not o["update"]):
                report.append((e.name, "MISSING", None, {
                    "algorithm": e.algo, "digest": e.digest, "size": e.meta[0] if e.meta else None}))

    adds = [n for n in new if n[0] not in moved]
    if o["update"]:
        # New files of an open list, and open lines replaced, take the
        # verdict; with none, nothing can be written, nor reported.
        if not o["a"] and any(e.open and e.algo == new_algo for e in entries) and adds:
            unsettled.add(new_algo)
        left = sorted(unsettled - verdicts)
        if left and (replaced or adds):
            err[:] = [x for x in err if "WARNING" in x and False]
            err.append("PROG: %s: untagged lines of %d hex digits may be %s, sha%s, and no file "
                       "read matched one: give -a; the list was not updated"
                       % (lname, ALGOS[left[0]][1], left[0], left[0][5:]))
            return finish(64)
    for r in report:
        if o["status"] or (o["quiet"] and r[1] == "OK") or (o["update"] and r[1] == "OK"):
            continue
        if o["json"]:
            out.write(json_line(r[0], r[1], r[2], r[3]))
            continue
        names = [r[0]] + ([r[2]] if r[2] is not None else [])
        esc = any(escape(n)[0] for n in names)
        en = [escape(n)[1] if esc else n for n in names]
        line = en[0] + b": " + r[1].encode() + (b" from " + en[1] if len(en) > 1 else b"")
        out.write((b"\\" if esc else b"") + line + b"\n")
    if o["ignore_missing"]:
        counts["missing"] = counts["kept"] = 0
    if not o["status"]:
        words = [("bad", "line is improperly formatted", "lines are improperly formatted"),
                 ("dups", "duplicate entry (the first line of a name counts)",
                  "duplicate entries (the first line of a name counts)"),
                 ("unread", "listed file could not be read", "listed files could not be read"),
                 ("changed", "file changed", "files changed"),
                 ("damaged", "file damaged (same size and mtime, other content)",
                  "files damaged (same size and mtime, other content)"),
                 ("moved", "file moved", "files moved"), ("new", "new file", "new files"),
                 ("missing", "listed file missing", "listed files missing"),
                 ("kept", "listed file missing (its line kept: --prune drops it)",
                  "listed files missing (their lines kept: --prune drops them)")]
        for k, one, many in words:
            if counts[k]:
                err.append("PROG: WARNING: %d %s" % (counts[k], one if counts[k] == 1 else many))
    rc = ((counts["new"] and 1) | ((counts["missing"] or counts["kept"]) and 2)
          | (counts["changed"] and 4) | (counts["moved"] and 8) | (counts["damaged"] and 16)
          | ((counts["unread"] or (o["strict"] and (counts["bad"] or counts["dups"]))) and 32))
    if o["update"] and o["new_list"]:
        write_new_list(o, entries, lines, replaced, adds, new_algo, verdicts)
    return finish(rc)


def write_new_list(o, entries, lines, replaced, new, new_algo, verdicts):
    """The expected LIST after --update: untouched lines byte for byte,
    replaced/renamed/dropped entries (with their metadata line), then the
    new files in walk order, in the first line's format."""
    meta_nos = {e.meta_no: e.no for e in entries if e.meta}
    first = entries[0] if entries else None
    with_meta = o["meta"] or any(e.meta for e in entries)
    adds = [format_line(name, d, new_algo, first.tagged if first else o["tag"],
                        first.star if first else o["b"], first.b64 if first else o["base64"],
                        m if with_meta else None) for name, d, m, _ in new]
    if not replaced and not adds:
        return  # LIST is not rewritten
    # Its first lines declare what the run settled, and new files'
    # algorithm where nothing declares theirs.
    res = bytearray()
    old = set(declared)
    for e in entries:
        if e.open and e.algo in verdicts and e.algo not in declared:
            declared.add(e.algo)
            res += b"#fhsum untagged=" + e.algo.encode() + b"\n"
    untagged = not first.tagged if first else not o["tag"]
    if new and untagged and new_algo in SHARED and new_algo not in declared:
        declared.add(new_algo)
        res += b"#fhsum untagged=" + new_algo.encode() + b"\n"
    del old
    for no, raw in enumerate(lines, 1):
        if no in meta_nos and meta_nos[no] in replaced:
            continue  # the entry's new text carries its metadata line
        res += replaced[no] if no in replaced else raw + b"\n"
    for a in adds:
        res += a
    with open(o["new_list"], "wb") as f:
        f.write(resolve_names(res))


def json_line(name, status, old, det):
    """The object --json prints for a report line, keys in fhsum(1)'s order
    (name, algorithm, digest, expected, size, status, from, error); a name
    that is not UTF-8 as name_base64 (from_base64 for OLD)."""
    import json
    obj = {}

    def put(k, v):
        try:
            obj[k] = v.decode("utf-8")
        except UnicodeDecodeError:
            obj[k + "_base64"] = base64.b64encode(v).decode()
    put("name", name)
    obj["algorithm"] = det["algorithm"]
    if det.get("digest"):
        obj["digest"] = det["digest"]
    if det.get("expected"):  # CHANGED, DAMAGED: the digest listed
        obj["expected"] = det["expected"]
    if det.get("size") is not None:
        obj["size"] = det["size"]
    obj["status"] = "MOVED" if status == "MOVED" else status
    if old is not None:
        put("from", old)
    if det.get("error"):
        obj["error"] = det["error"]
    return (json.dumps(obj, ensure_ascii=False) + "\n").encode()


def die(name, msg):
    err.append("PROG: %s: %s" % (quote(os.fsencode(name)), msg))
    return finish(64)


def finish(rc):
    out.flush()
    sys.stderr.write("".join(e + "\n" for e in err))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
