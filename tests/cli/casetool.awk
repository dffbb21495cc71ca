# Instantiates one check-list case of tests/cli/lists/check/*.case.
#   awk -v outdir=DIR -v mapfile=MAP -f casetool.awk CASE
# MAP: lines KEY<TAB>VALUE; {KEY} in the case is replaced by VALUE.  Built in:
# {TAB} {CR} {XFF} (byte 0xff), and {NOEOL} at the end of a line (the line gets no newline).
# Sections `--- list` and `--- list2` are written to ./list and ./list2;
# `--- args`, `--- stdin` to DIR/args, DIR/stdin; each `=== OPTS` starts an
# expectation group N (1, 2, ...) whose `--- stdout`, `--- stderr`, `--- rc`
# go to DIR/expN.out, .err, .rc and OPTS to DIR/expN.opts.
BEGIN {
	FS = "\n"
	while ((getline line < mapfile) > 0) {
		t = index(line, "\t")
		map[substr(line, 1, t - 1)] = substr(line, t + 1)
	}
	map["TAB"] = "\t"; map["CR"] = "\r"; map["NOEOL"] = "{NOEOL}"; map["XFF"] = "\377"
	sec = ""; grp = 0; err = 0
}
function subst(s,    out, i, j, k) {
	out = ""
	while ((i = index(s, "{")) > 0) {
		j = index(substr(s, i), "}")
		if (j == 0) break
		k = substr(s, i + 1, j - 2)
		if (!(k in map)) {
			printf "%s:%d: unknown placeholder {%s}\n", FILENAME, FNR, k > "/dev/stderr"
			err = 1
			break
		}
		out = out substr(s, 1, i - 1) map[k]
		s = substr(s, i + j)
	}
	return out s
}
function open_file(f) {
	file = f
	printf "" > file
	files[file] = 1
}
/^=== ?/ {
	grp++
	open_file(outdir "/exp" grp ".opts")
	o = substr($0, 5)
	if (o != "") print o > file
	for (s in want) delete want[s]
	open_file(outdir "/exp" grp ".out")
	open_file(outdir "/exp" grp ".err")
	sec = "group"
	next
}
/^--- / {
	sec = substr($0, 5)
	if (sec == "list" || sec == "list2") open_file(sec)
	else if (sec == "args" || sec == "stdin") open_file(outdir "/" sec)
	else if (grp == 0) { printf "%s:%d: %s before ===\n", FILENAME, FNR, sec > "/dev/stderr"; err = 1 }
	else if (sec == "stdout") open_file(outdir "/exp" grp ".out")
	else if (sec == "stderr") open_file(outdir "/exp" grp ".err")
	else if (sec == "rc") open_file(outdir "/exp" grp ".rc")
	else { printf "%s:%d: unknown section %s\n", FILENAME, FNR, sec > "/dev/stderr"; err = 1 }
	next
}
sec == "" || sec == "group" { next }
{
	s = subst($0)
	if (substr(s, length(s) - 6) == "{NOEOL}") printf "%s", substr(s, 1, length(s) - 7) > file
	else print s > file
}
END {
	for (f in files) close(f)
	if (grp == 0) { printf "%s: no === expectation group\n", FILENAME > "/dev/stderr"; err = 1 }
	exit err
}
