/* help.c: --help and --version.  The text agrees with man/fhsum.1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *fh_gnu_as;
enum fh_line_form fh_gnu_form;

/* The -a names, from the table of algorithms (lib/algo.h), wrapped in
 * --help's column. */
static void help_algorithms(void)
{
	const struct fh_algo_row *r;
	size_t col = 0;

	for (size_t i = 0; (r = fh_algo_row_at(i)) != NULL; i++) {
		char word[64];
		bool last = fh_algo_row_at(i + 1) == NULL;
		bool before_last = !last && fh_algo_row_at(i + 2) == NULL;

		snprintf(word, sizeof word, "%s%s%s%s", last ? "or " : "",
			 r->algo.name,
			 r->length == FH_LENGTH_PICK ? " (size from -l)" : "",
			 last ? ";" : before_last ? "" : ",");
		/* The column of "-a, --algorithm=NAME  " and its width. */
		if (col && col + 1 + strlen(word) > 78 - 24) {
			fputs("\n                        ", stdout);
			col = 0;
		} else if (col) {
			fputc(' ', stdout);
			col++;
		}
		fputs(word, stdout);
		col += strlen(word);
	}
	fputc('\n', stdout);
}

/* --help under a GNU name: that program's options, which are all the
 * run takes, in md5sum 9.1's words and columns; only the last paragraph,
 * GNU's addresses there, is fhsum's own. */
static void gnu_usage(void)
{
	const struct fh_algo_row *r = fh_algo_row_by_program(fh_prog);
	bool blake2 = r && r->algo.xof;
	/* The standard each program's --help cites. */
	const char *spec = !r ? "" : blake2 ? "RFC 7693"
			 : strcmp(fh_prog, "md5sum") == 0 ? "RFC 1321"
			 : strcmp(fh_prog, "sha1sum") == 0 ? "FIPS-180-1"
			 : strcmp(fh_prog, "sha224sum") == 0 ? "RFC 3874" : "FIPS-180-2";

	printf("Usage: %s [OPTION]... [FILE]...\n", fh_prog);
	printf("Print or check %s (%d-bit) checksums.\n", fh_gnu_as,
	       r ? 8 * (int)r->algo.digest_bytes : 0);
	fputs("\
\n\
With no FILE, or when FILE is -, read standard input.\n", stdout);
	if (blake2)
		fputs("\
\n\
Mandatory arguments to long options are mandatory for short options too.\n", stdout);
	fputs("\
  -b, --binary          read in binary mode\n\
  -c, --check           read checksums from the FILEs and check them\n", stdout);
	if (blake2)
		fputs("\
  -l, --length=BITS     digest length in bits; must not exceed the max for\n\
                          the blake2 algorithm and must be a multiple of 8\n", stdout);
	fputs("\
      --tag             create a BSD-style checksum\n\
  -t, --text            read in text mode (default)\n\
  -z, --zero            end each output line with NUL, not newline,\n\
                          and disable file name escaping\n\
\n\
The following five options are useful only when verifying checksums:\n\
      --ignore-missing  don't fail or report status for missing files\n\
      --quiet           don't print OK for each successfully verified file\n\
      --status          don't output anything, status code shows success\n\
      --strict          exit non-zero for improperly formatted checksum lines\n\
  -w, --warn            warn about improperly formatted checksum lines\n\
\n\
      --help        display this help and exit\n\
      --version     output version information and exit\n\
\n", stdout);
	printf("The sums are computed as described in %s.\n", spec);
	fputs("\
When checking, the input should be a former output of this program.\n\
The default mode is to print a line with: checksum, a space,\n\
a character indicating input mode ('*' for binary, ' ' for text\n\
or where binary is insignificant), and name for each FILE.\n\
\n\
Note: There is no difference between binary mode and text mode on GNU systems.\n\
\n\
This is fhsum under a GNU name: it takes that program's options only, and\n\
abbreviations of them as GNU does.  Run it as fhsum for its own options\n\
(-a, -r, -j, --audit, --scrub...).\n", stdout);
	exit(EXIT_SUCCESS);
}

/* --help as cksum 9.1 and sum 9.1 print it (their options are all the
 * run takes): GNU's text. */
static void cksum_usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", fh_prog);
	fputs("\
Print or verify checksums.\n\
By default use the 32 bit CRC algorithm.\n\
\n\
With no FILE, or when FILE is -, read standard input.\n\
\n\
Mandatory arguments to long options are mandatory for short options too.\n\
  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.\n\
  -c, --check           read checksums from the FILEs and check them\n\
  -l, --length=BITS     digest length in bits; must not exceed the max for\n\
                          the blake2 algorithm and must be a multiple of 8\n\
      --tag             create a BSD-style checksum (the default)\n\
      --untagged        create a reversed style checksum, without digest type\n\
  -z, --zero            end each output line with NUL, not newline,\n\
                          and disable file name escaping\n\
\n\
The following five options are useful only when verifying checksums:\n\
      --ignore-missing  don't fail or report status for missing files\n\
      --quiet           don't print OK for each successfully verified file\n\
      --status          don't output anything, status code shows success\n\
      --strict          exit non-zero for improperly formatted checksum lines\n\
  -w, --warn            warn about improperly formatted checksum lines\n\
\n\
      --debug           indicate which implementation used\n\
      --help        display this help and exit\n\
      --version     output version information and exit\n\
\n\
DIGEST determines the digest algorithm and default output format:\n\
  sysv      (equivalent to sum -s)\n\
  bsd       (equivalent to sum -r)\n\
  crc       (equivalent to cksum)\n\
  md5       (equivalent to md5sum)\n\
  sha1      (equivalent to sha1sum)\n\
  sha224    (equivalent to sha224sum)\n\
  sha256    (equivalent to sha256sum)\n\
  sha384    (equivalent to sha384sum)\n\
  sha512    (equivalent to sha512sum)\n\
  blake2b   (equivalent to b2sum)\n\
  sm3       (only available through cksum)\n\
\n\
When checking, the input should be a former output of this program,\n\
or equivalent standalone program.\n\
\n\
GNU coreutils online help: <https://www.gnu.org/software/coreutils/>\n\
Report any translation bugs to <https://translationproject.org/team/>\n", stdout);
	printf("Full documentation <https://www.gnu.org/software/coreutils/%s>\n"
	       "or available locally via: info '(coreutils) %s invocation'\n",
	       fh_prog, fh_prog);
	exit(EXIT_SUCCESS);
}

static void sum_usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", fh_prog);
	fputs("\
Print or check BSD (16-bit) checksums.\n\
\n\
With no FILE, or when FILE is -, read standard input.\n\
\n\
  -r              use BSD sum algorithm (the default), use 1K blocks\n\
  -s, --sysv      use System V sum algorithm, use 512 bytes blocks\n\
      --help        display this help and exit\n\
      --version     output version information and exit\n\
\n\
GNU coreutils online help: <https://www.gnu.org/software/coreutils/>\n\
Report any translation bugs to <https://translationproject.org/team/>\n", stdout);
	printf("Full documentation <https://www.gnu.org/software/coreutils/%s>\n"
	       "or available locally via: info '(coreutils) %s invocation'\n",
	       fh_prog, fh_prog);
	exit(EXIT_SUCCESS);
}

void fh_usage(int status)
{
	if (status != EXIT_SUCCESS) {
		fh_out_flush();
		fprintf(stderr, "Try '%s --help' for more information.\n", fh_prog);
		exit(status);
	}
	if (fh_gnu_form == FH_FORM_CKSUM)
		cksum_usage();
	if (fh_gnu_form != FH_FORM_DIGEST)
		sum_usage();
	if (fh_gnu_as)
		gnu_usage();
	printf("Usage: %s [OPTION]... [FILE]...\n", fh_prog);
	fputs("\
Print or check MD5, SHA-1, SHA-2, SHA-3, SHAKE, TurboSHAKE,\n\
KangarooTwelve, BLAKE2b or BLAKE3 checksums.\n\
\n\
With no FILE, or when FILE is -, read standard input.\n\
\n\
  -a, --algorithm=NAME  ", stdout);
	help_algorithms();
	fputs("\
                        the default is sha3-256 (md5 as md5sum, sha256\n\
                        as sha256sum, blake2b as b2sum, ...; under those\n\
                        GNU names only GNU's options exist; as b3sum,\n\
                        fhsum is BLAKE3's b3sum)\n\
  -l, --length=BITS     digest length: for sha2 and sha3, 224, 256, 384\n\
                        or 512; 0 for the default;\n\
                        for shake*, turboshake*, kt* and blake3, a\n\
                        multiple of 8 up to 1048576 (default 256 for the\n\
                        128s and blake3, 512 for the 256s); for blake2b,\n\
                        a multiple of 8 up to 512 (default 512)\n\
  -b, --binary          read in binary mode\n\
  -c, --check           read checksums from the FILEs and check them\n\
      --only=NAME       with -c, check only the entries named NAME (a\n\
                        leading './' aside); say a NAME no list holds\n\
                        (repeatable)\n\
      --expect=DIGEST   check each FILE against DIGEST (hex or base64),\n\
                        as -c checks a list's line: FILE: OK or FAILED\n\
      --tag             create a BSD-style checksum\n\
      --untagged        create a GNU-style checksum (undoes --tag)\n\
  -t, --text            read in text mode (default)\n\
  -z, --zero            end each output line with NUL, not newline,\n\
                        and disable file name escaping\n\
      --base64          emit base64-encoded digests, not hexadecimal\n\
      --raw             emit a raw binary digest, not hexadecimal\n\
                        (one input only)\n\
      --no-names        emit the digests alone, one a line\n\
      --sfv             write an SFV list (RHash's layout): comments, then\n\
                        NAME and its CRC-32 (crc32b) in upper-case hex\n\
      --part-size=SIZE  the value S3 shows of a file uploaded in parts of\n\
                        SIZE (as head -c reads it: 8M): md5's ETag, hex\n\
                        and -N; sha1, sha256, crc32b, crc32c composite,\n\
                        base64 and -N; -c checks them (md5 without -a)\n\
\n\
The following five options are useful only when verifying checksums:\n\
      --ignore-missing  don't fail or report status for missing files\n\
      --quiet           don't print OK for each successfully verified file\n\
      --status          don't output anything, status code shows success\n\
      --strict          exit non-zero for improperly formatted checksum lines\n\
  -w, --warn            warn about improperly formatted checksum lines\n\
\n\
Lists kept over time (the five options above apply to them too):\n\
      --meta            put '#fhsum size=N mtime=S.N' before each line\n\
      --audit=LIST      say what each file is against LIST: OK, CHANGED,\n\
                        DAMAGED (same size and mtime, other content),\n\
                        NEW, MOVED from OLD, MISSING; exit status: the OR\n\
                        of 1 new, 2 missing, 4 changed, 8 moved,\n\
                        16 damaged, 32 unreadable; 64 usage errors\n\
      --update=LIST     rewrite LIST to match the files (only files whose\n\
                        size or mtime changed are read)\n\
      --prune           with --update, drop missing and rename moved lines\n\
      --no-wait         with --update or --scrub, fail if another run is\n\
                        writing LIST\n\
      --against=NEW     with --audit=LIST, compare LIST with the list NEW\n\
      --scrub=LIST      verify LIST's files, the longest unverified first,\n\
                        and stamp those found good (verified=SECONDS)\n\
      --max-time=D      with --scrub, stop starting files after D (90, 15m,\n\
                        2h, 1d, 1e3, inf: as timeout(1) reads it)\n\
      --max-bytes=N     with --scrub, stop starting files after N bytes\n\
                        (500M, 2G, 1T, 3GB: as head -c reads it)\n\
      --json            print JSON Lines, one object per file\n\
\n\
Inputs and speed:\n\
  -r, --recursive       hash the regular files under directory operands\n\
      --files-from=F    read the names from F, one per line (F - is stdin)\n\
      --files0-from=F   read the names from F, separated by NUL bytes\n\
      --exclude=PATTERN\n\
                        with -r, --audit, --update or --scrub, leave out\n\
                        the names PATTERN matches, as rsync's --exclude\n\
                        ('*', '?', [...], '**'): without '/', any last\n\
                        name; a leading '/' anchors it at the directory\n\
                        operand; an inner '/', the path's last names at\n\
                        any depth; a trailing '/' matches directories,\n\
                        which are not entered (repeatable)\n\
      --exclude-from=F  read such patterns from F, one a line, ';' and\n\
                        '#' lines skipped (F - is stdin)\n\
  -j, --threads=N       hash with N threads, 1..1024 (default: one per CPU)\n\
      --no-mmap         read every file, map none\n\
      --io-depth=N      keep N reads in flight ahead of the hashing threads\n\
                        (default 256; 1 on a spinning disk: one file at a\n\
                        time, in order)\n\
      --progress        show progress on a terminal's stderr from the start\n\
      --no-progress     never show progress\n\
\n\
Kernels:\n\
      --kernel=NAME[,NAME]  use these kernels (also FHSUM_KERNEL)\n\
      --list-kernels    list the kernels and which this CPU runs\n\
      --list-algorithms list the algorithms: -a names, tags, digest\n\
                        lengths, families and program names\n\
      --debug           name the CPU, the OS layer and the chosen\n\
                        kernels on standard error\n\
      --benchmark       measure every usable kernel of the algorithm (all\n\
                        algorithms without -a) and print MB/s\n\
\n\
      --help            display this help and exit\n\
      --version         output version information and exit\n\
\n\
The sums are computed as described in RFC 1321 (MD5), FIPS 180-4 (SHA-1,\n\
SHA-2), FIPS 202 (SHA-3, SHAKE), RFC 9861 (TurboSHAKE with domain byte\n\
1F; KT128 and KT256, KangarooTwelve, with an empty customization string),\n\
RFC 7693 (BLAKE2b) and the BLAKE3 paper (BLAKE3).\n\
crc is POSIX cksum's CRC (its length appended), crc32b ITU-T V.42's CRC-32\n\
(gzip, zip), crc32c CRC-32/ISCSI and crc64nvme CRC-64/NVME (S3's); bsd and\n\
sysv are sum -r's and sum -s's.  crc, crc32b, bsd and sysv print GNU\n\
cksum's and sum's lines (value, size, name), or their digest in base64\n\
with --base64 (S3's form, most significant byte first).  xxh32, xxh64,\n\
xxh3 and xxh128 are xxHash (seed 0) in canonical form; as xxhsum, fhsum\n\
takes xxhsum 0.8's options and writes its lines.  sm3 is SM3\n\
(GB/T 32905-2016), as GNU cksum -a sm3 writes it; untagged, only under -a.\n\
When checking, the input should be a former output of this program, of\n\
md5sum, sha1sum..sha512sum, b2sum, b3sum, sha3sum, cksum, sum or xxhsum.\n\
Without -a, an untagged line of a length several algorithms share (SHA-2,\n\
SHA-3, BLAKE2b, BLAKE3, MD5 and XXH128; the CRCs, sums and XXH32, whose\n\
decimal or 8-digit lines share one) takes the one the list's\n\
'#fhsum untagged=' line names, or the one a listed file's content shows;\n\
where no file matches under any of them, a warning says the list may use\n\
another algorithm.  A tagged line whose tag names no algorithm of -a's is\n\
counted as of an unsupported algorithm, not as improperly formatted, and\n\
fails the check.\n\
Lists as projects publish them are read too: a sidecar holding one digest\n\
(x.tar.gz.sha256 checks x.tar.gz), OpenSSL 3 tags, the digests gpg prints,\n\
hashdeep lists, SFV lists, and of a clear-signed list only the signed text\n\
(fhsum(1), CHECKING).\n\
The default mode is to print a line with: checksum, a space, a character\n\
indicating input mode ('*' for binary, ' ' for text or where binary is\n\
insignificant), and name for each FILE.\n\
\n\
There is no difference between binary mode and text mode on GNU systems.\n", stdout);
	exit(status);
}

void fh_version(void)
{
	printf("fhsum %s\n", FHSUM_VERSION);
	fputs("MD5 (RFC 1321), SHA-1 and SHA-2 (FIPS 180-4), SHA-3 and SHAKE\n"
	      "(FIPS 202), TurboSHAKE and KangarooTwelve (RFC 9861), BLAKE2b\n"
	      "(RFC 7693), BLAKE3 and SM3 (GB/T 32905) checksums; POSIX cksum's CRC,\n"
	      "CRC-32, CRC-32C, CRC-64/NVME, BSD and System V sums; xxHash (XXH32,\n"
	      "XXH64, XXH3, XXH128).\n"
	      "License: MIT.  There is NO WARRANTY, to the extent permitted by law.\n",
	      stdout);
}
