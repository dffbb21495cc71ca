#!/usr/bin/env bats
# MD5 check mode (-c): every case of the table in lists/check/*.case, run
#  - against its written expectations (which must also hold for md5sum),
#  - with each option variant ('', --quiet, --status, --strict, -w,
#    --ignore-missing, all four), compared with GNU md5sum 9.1,
#  - through a link named md5sum (no -a), compared with md5sum.
# md5sum's status lines are adjusted to fhsum(1)'s escaping (names holding a
# backslash or CR get a leading backslash, as GNU 9.4 to 9.10).

load helper

setup() {
	common_setup
	make_fixtures
}


@test "every case file of lists/check is run by this suite" {
	local c missing=()
	for c in "$CASES"/*.case; do
		c=${c##*/}
		c=${c%.case}
		grep -q "^	check_case_md5 $c\$" "$BATS_TEST_FILENAME" || missing+=("$c")
	done
	[ ${#missing[@]} = 0 ] || fail "cases without a test here: ${missing[*]}"
	[ -n "$c" ] || fail "no case files found in $CASES"
}

@test "md5 -c [all-improper]: No properly formatted line at all: the message is printed even with --status." {
	check_case_md5 all-improper
}

@test "md5 -c [bad-digest]: One digest does not match: FAILED line, singular WARNING, exit 1." {
	check_case_md5 bad-digest
}

@test "md5 -c [comments-blank]: '#' in column 1 is a comment, empty and CR-only lines are skipped; a line of blanks is improperly formatted." {
	check_case_md5 comments-blank
}

@test "md5 -c [crlf]: CRLF line ends are accepted in every line form." {
	check_case_md5 crlf
}

@test "md5 -c [dash-in-file-list]: A line naming \"-\" in a list file checks standard input." {
	check_case_md5 dash-in-file-list
}

@test "md5 -c [dash-in-stdin-list]: A line naming \"-\" in a list read from standard input is improperly formatted." {
	check_case_md5 dash-in-stdin-list
}

@test "md5 -c [dir-entry]: A listed name that is a directory: \"Is a directory\", FAILED open or read, still counted with --ignore-missing (it is not ENOENT)." {
	check_case_md5 dir-entry
}

@test "md5 -c [edge-forms]: Borderline untagged forms: digest and blanks without a name, no blank, a lone '*', two tabs." {
	check_case_md5 edge-forms
}

@test "md5 -c [empty-list]: An empty list: no properly formatted checksum lines found, exit 1." {
	check_case_md5 empty-list
}

@test "md5 -c [escape-bad]: Invalid escapes (\x, \s, a trailing lone backslash) make the line improperly formatted." {
	check_case_md5 escape-bad
}

@test "md5 -c [escaped]: Escaped names (leading backslash; \\ \n \r) in untagged and tagged lines; status lines escape names holding a backslash, LF or CR (fhsum(1), GNU 9.4+)." {
	check_case_md5 escaped
}

@test "md5 -c [good]: Good lines, text and binary markers, a file listed twice: all OK, exit 0." {
	check_case_md5 good
}

@test "md5 -c [improper]: Improperly formatted lines (junk, short/long/non-hex digest, digest without name, indented comment) are counted, named with -w, fatal with --strict." {
	check_case_md5 improper
}

@test "md5 -c [latch-across-lists]: The reversed-form latch set by the first list holds in the second list." {
	check_case_md5 latch-across-lists
}

@test "md5 -c [latch-gnu-across-lists]: The GNU-form latch set by the first list makes single-blank lines of the second list improperly formatted." {
	check_case_md5 latch-gnu-across-lists
}

@test "md5 -c [latch-gnu-first]: A GNU line first: a later single-blank line is improperly formatted and \"HEX  lead\" names \"lead\"." {
	check_case_md5 latch-gnu-first
}

@test "md5 -c [list-is-dir]: A list operand that is a directory is a read error; the next list is checked." {
	check_case_md5 list-is-dir
}

@test "md5 -c [long-name]: A listed name longer than NAME_MAX: File name too long, counted even with --ignore-missing." {
	check_case_md5 long-name
}

@test "md5 -c [missing-file]: A listed file that does not exist: error on stderr, FAILED open or read; --ignore-missing makes it silent and uncounted." {
	check_case_md5 missing-file
}

@test "md5 -c [missing-list]: A missing list operand is reported; the next list is checked; exit 1." {
	check_case_md5 missing-list
}

@test "md5 -c [mixed]: Comment, blank, OK, mismatch, junk, missing, CRLF, binary and indented lines in one list: three WARNING lines in order, plural mismatch count." {
	check_case_md5 mixed
}

@test "md5 -c [no-final-newline]: The last line of a list may lack its newline." {
	check_case_md5 no-final-newline
}

@test "md5 -c [only-missing]: Every listed file missing: plural WARNING; with --ignore-missing \"no file was verified\" and exit 1." {
	check_case_md5 only-missing
}

@test "md5 -c [openssl]: OpenSSL's TAG(NAME)= HEX form, good and bad." {
	check_case_md5 openssl
}

@test "md5 -c [raw-names]: Unescaped names with backslash, raw CR, space, tab, UTF-8, leading and trailing spaces, \") = \": found as written; status lines escape \ and CR." {
	check_case_md5 raw-names
}

@test "md5 -c [reversed]: The reversed single-blank form (md5 -r) with space or tab; once latched, \"HEX  lead\" names \" lead\"." {
	check_case_md5 reversed
}

@test "md5 -c [several-lists]: Several lists: each gets its own summary, in order; exit 1 if any fails." {
	check_case_md5 several-lists
}

@test "md5 -c [special-names-fail]: FAILED and FAILED-open lines for names with specials are escaped the same way; missing names are shell-quoted on stderr." {
	check_case_md5 special-names-fail
}

@test "md5 -c [stdin-list]: The list read from standard input as \"-\"." {
	check_case_md5 stdin-list
}

@test "md5 -c [stdin-list-noargs]: With -c and no operand the list is standard input; it is called 'standard input' in messages." {
	check_case_md5 stdin-list-noargs
}

@test "md5 -c [tagged]: BSD tagged lines: spacing around '=' is free, the name runs to the last ')'." {
	check_case_md5 tagged
}

@test "md5 -c [tagged-bad]: Malformed tagged lines: two spaces before '(', lower-case tag, trailing blank, a word no tag has the shape of, short digest, missing '='." {
	check_case_md5 tagged-bad
}

@test "md5 -c [utf8-missing]: Missing names holding UTF-8 or an invalid byte are shell-quoted on stderr (the quoting depends on the locale); status lines copy the bytes raw." {
	check_case_md5 utf8-missing
}

@test "md5 -c in the C.UTF-8 locale: UTF-8, invalid and special names as md5sum, every option variant" {
	locale -a 2>/dev/null | grep -qix 'c.utf-\?8' || skip "no C.UTF-8 locale"
	export LC_ALL=C.UTF-8
	local c bad=0
	for c in utf8-missing raw-names special-names-fail escaped; do
		check_case_md5_oracle "$c" || bad=1
	done
	return $bad
}

@test "md5 -c [uppercase]: Digests are compared case-insensitively (upper-case hex is accepted)." {
	check_case_md5 uppercase
}

# random_list SEED > list: 60 lines mixing every line form, good and broken,
# from the fixture digests (the MD5 map) and names.
random_list() {
	awk -v seed="$1" -v mapfile="$BATS_FILE_TMPDIR/maps/md5.MD5" '
	BEGIN {
		srand(seed)
		while ((getline l < mapfile) > 0) {
			t = index(l, "\t"); k = substr(l, 1, t - 1); v = substr(l, t + 1)
			map[k] = v
		}
		nk = split("a b empty big sp tab bs nl cr utf lead trail paren", keys, " ")
		names["a"] = "a"; names["b"] = "b"; names["empty"] = "empty"; names["big"] = "big"
		names["sp"] = "with space"; names["tab"] = "tab\there"; names["bs"] = "back\\slash"
		names["nl"] = "new\\nline"; names["cr"] = "cr\\rx"; names["utf"] = "\303\274ber-\342\202\254"
		names["lead"] = " lead"; names["trail"] = "trail "; names["paren"] = "x) = y"
		esc["bs"] = 1; esc["nl"] = 1; esc["cr"] = 1
		for (i = 0; i < 60; i++) {
			k = keys[int(rand() * nk) + 1]
			h = map[k]; n = names[k]
			r = rand()
			if (r < 0.1) h = map["bad"]
			else if (r < 0.15) h = toupper(h)
			else if (r < 0.2) h = substr(h, 2)
			else if (r < 0.23) n = "nosuch"
			else if (r < 0.26) n = "d"
			pre = (k in esc) ? "\\" : ""
			if (rand() < 0.05) pre = (pre == "" ? "\\" : "")
			if (rand() < 0.1) pre = " " pre
			f = rand()
			if (f < 0.35) line = pre h "  " n
			else if (f < 0.5) line = pre h " *" n
			else if (f < 0.62) line = pre h " " n
			else if (f < 0.68) line = pre h "\t" n
			else if (f < 0.85) line = pre "MD5 (" n ") = " h
			else if (f < 0.92) line = pre "MD5(" n ")= " h
			else if (f < 0.94) line = "#" h "  " n
			else if (f < 0.96) line = ""
			else line = pre "md5 (" n ") = " h
			if (rand() < 0.1) line = line "\r"
			print line
		}
	}'
}

@test "md5 -c: 12 seeded random mixtures of line forms (good, broken, escaped, tagged, reversed, CRLF) as md5sum" {
	local seed v bad=0
	instantiate good md5 MD5 # builds the MD5 placeholder map
	for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
		random_list "$seed" >list
		for v in "" "-w --strict" "--ignore-missing --quiet"; do
			run_case_md5sum ref "$v"
			run_case_cmd got "-a md5${v:+ }$v" fhsum
			compare_runs "random list seed $seed: -c $v" ref got || bad=1
		done
	done
	return $bad
}
