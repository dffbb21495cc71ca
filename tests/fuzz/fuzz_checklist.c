/* fuzz_checklist.c: libFuzzer target for lib/list/checklist.c.
 *
 * The input is a checksum list: it is split into lines at '\n', as GNU's
 * getline loop splits it, and every line is parsed under several option
 * sets (no -a, -a md5, -a sha3-256, -a sha3, SHAKE with and without -l, the
 * list on standard input) and from each state of the reversed-form latch.
 * Each line lives in a buffer of exactly its length, so that
 * AddressSanitizer sees any read past it.  For every line the target
 * checks what the header promises: a skipped line is a comment or blank,
 * the latch only ever leaves -1, the name and digest of an OK line lie
 * inside the line, the digest is hex (or padded base64) and as long as its
 * algorithm allows, the algorithm is one the options accept, the name holds no NUL
 * and is not "-" from standard input; and that formatting the line again
 * (tagged, and untagged when the name is not empty) and parsing the result
 * gives back the same name, digest, mode and algorithm, and so does the
 * line in its own shape (OpenSSL's form, a prefix, BSD's reversed form,
 * a tab after the digest),
 * as the store writes it back, read back in that shape.  Without -a the
 * lines are parsed once more asking for unsupported tags: such a line's
 * tag lies inside it and is no algorithm's, its digest is hex or base64.
 *
 * Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE
 *        -Ilib -Ilib/list lib/list/checklist.c lib/algo.c tests/fuzz/fuzz_checklist.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "checklist.h"

/* Not assert(): the checks must hold in any build of the target. */
#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
			abort();                                           \
		}                                                          \
	} while (0)

enum { NOALGO = -1 };

static const struct {
	int algo;
	const char *group;      /* -a sha2 or sha3 without -l, or NULL */
	size_t outlen;
	bool is_stdin;
} configs[] = {
	{ NOALGO, NULL, 0, false },
	{ NOALGO, NULL, 0, true },
	{ FH_MD5, NULL, 0, false },
	{ FH_MD5, NULL, 0, true },
	{ FH_SHA3_256, NULL, 0, false },
	{ NOALGO, "sha3", 0, false },
	{ NOALGO, "sha2", 0, false },
	{ FH_SHAKE128, NULL, 0, false },
	{ FH_SHAKE256, NULL, 32, false },
};

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static bool is_base64(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '+' || c == '/';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether an untagged line may be of algorithm A under P's options (a
 * tagged line names its own algorithm, whatever -a says). */
static bool accepted(const struct fh_list_parser *p, const struct fh_algo *a)
{
	if (p->group)
		return fh_algo_in_group(a, p->group);
	return !p->algo || a == p->algo;
}

/* Formats L with FLAGS and parses it back with a fresh parser that takes
 * the algorithm from the line (SHAKE, which needs -a, from its length). */
static void round_trip(const struct fh_list_line *l, int flags)
{
	size_t cap = fh_format_size(l->digestlen, l->namelen);
	char *buf = malloc(cap);
	struct fh_list_parser p;
	struct fh_list_line back;
	size_t n;

	bool all_hex = true;

	CHECK(buf);
	for (size_t i = 0; i < l->digestlen; i++)
		all_hex &= is_hex(l->digest[i]);
	n = fh_format_line(buf, l->algo, l->digest, l->digestlen, l->name,
			   l->namelen, flags | (l->base64 ? FH_FMT_BASE64 : 0));
	CHECK(n <= cap && n > 0 && buf[n - 1] == '\n');
	CHECK((buf[0] == '\\') ==
	      fh_name_needs_escape(l->name, l->namelen));
	/* A base64 digest written in hex digits alone reads as hex by its
	 * length when no -a says otherwise (SHA3-384 as SHA3-256): the one
	 * ambiguity, documented; give the algorithm there. */
	bool give = l->algo->xof || (l->base64 && all_hex && !(flags & FH_FMT_TAG));

	/* An untagged line of a length several algorithms share reads back
	 * as the first of them unless the algorithm is given (-a sha2). */
	give |= !(flags & FH_FMT_TAG) && fh_algo_by_hexlen(2 * l->outlen) != l->algo;

	fh_list_parser_init(&p, give ? l->algo : NULL, false,
			    l->algo->xof ? l->outlen : 0);
	CHECK(fh_list_parse(&p, buf, n - 1, &back) == FH_LINE_OK);
	CHECK(back.algo == l->algo);
	CHECK(back.namelen == l->namelen);
	CHECK(memcmp(back.name, l->name, l->namelen) == 0);
	CHECK(back.digestlen == l->digestlen);
	CHECK(back.outlen == l->outlen);
	CHECK(back.base64 == l->base64);
	for (size_t i = 0; i < l->digestlen; i++)
		CHECK(back.digest[i] == (l->base64 ? l->digest[i] : lower(l->digest[i])));
	CHECK(back.binary == ((flags & FH_FMT_BINARY) != 0));
	free(buf);
}

/* Formats L in its own shape, as the store writes a list's lines back
 * (OpenSSL's TAG(NAME)= and its OpenSSL 3 name, a prefix, BSD's reversed
 * form), and parses it back: the same line, in the same shape. */
static void round_trip_own(const struct fh_list_line *l)
{
	size_t cap = fh_format_size(l->digestlen, l->namelen);
	char *buf = malloc(cap);
	struct fh_list_parser p;
	struct fh_list_line back;
	int flags;
	size_t n;

	CHECK(buf);
	/* (A base64 digest keeps GNU's shapes: round_trip has it.) */
	if (l->base64) {
		free(buf);
		return;
	}
	if (l->openssl) {
		flags = FH_FMT_TAG | FH_FMT_OPENSSL | (l->openssl3 ? FH_FMT_OPENSSL3 : 0);
	} else if ((l->prefixed || l->reversed || l->tab) && l->namelen > 0) {
		/* (An empty untagged name reads back as " ", round_trip says.) */
		flags = (l->prefixed ? FH_FMT_PREFIX : 0) | (l->reversed ? FH_FMT_REVERSED : 0) |
			(l->tab ? FH_FMT_TAB : 0) | (l->binary ? FH_FMT_BINARY : 0);
		/* A fresh latch reads a reversed name that starts with a blank
		 * or '*' as GNU's form: the store's latch is the list's. */
		if (l->reversed && (l->name[0] == ' ' || l->name[0] == '*'))
			flags &= ~FH_FMT_REVERSED;
	} else {
		free(buf);
		return;
	}
	n = fh_format_line(buf, l->algo, l->digest, l->digestlen, l->name, l->namelen,
			   flags | (l->base64 ? FH_FMT_BASE64 : 0));
	CHECK(n <= cap && n > 0 && buf[n - 1] == '\n');
	/* OpenSSL's form where it applies (else GNU's tag), the prefix
	 * naming the algorithm; a reversed line of a shared length needs
	 * the algorithm given, as GNU's form does. */
	bool ossl = l->openssl && buf[0] != '\\' && !l->algo->xof && !l->base64;
	bool give = l->algo->xof || (!(flags & FH_FMT_TAG) && !(flags & FH_FMT_PREFIX &&
					fh_algo_row(l->algo)->prefix) &&
				     fh_algo_by_hexlen(2 * l->outlen) != l->algo);

	fh_list_parser_init(&p, give ? l->algo : NULL, false, l->algo->xof ? l->outlen : 0);
	p.published = true;
	CHECK(fh_list_parse(&p, buf, n - 1, &back) == FH_LINE_OK);
	CHECK(back.algo == l->algo);
	CHECK(back.namelen == l->namelen && memcmp(back.name, l->name, l->namelen) == 0);
	CHECK(back.outlen == l->outlen && back.base64 == l->base64);
	for (size_t i = 0; i < l->digestlen; i++)
		CHECK(back.digest[i] == (l->base64 ? l->digest[i] : lower(l->digest[i])));
	CHECK(back.openssl == ossl);
	CHECK(back.openssl3 == (ossl && l->openssl3 && fh_algo_row(l->algo)->openssl));
	CHECK(back.prefixed == ((flags & FH_FMT_PREFIX) && fh_algo_row(l->algo)->prefix &&
				!l->base64));
	CHECK(back.reversed == ((flags & FH_FMT_REVERSED) != 0));
	CHECK(back.tab == ((flags & FH_FMT_TAB) != 0));
	free(buf);
}

static void check_ok(const struct fh_list_parser *p, const char *buf,
		     size_t len, const struct fh_list_line *l)
{
	const struct fh_algo *a = l->algo;
	uint8_t *bytes;

	CHECK(a != NULL);
	/* Tagged lines hold the name before the digest. */
	CHECK(l->digest > l->name || accepted(p, a));
	CHECK(l->name >= buf && l->name <= buf + len);
	CHECK(l->namelen <= (size_t)(buf + len - l->name));
	/* A cksum or sum line's decimal value is held as hex in the line's
	 * own DIGEST_BUF; every other digest points into the line. */
	if (l->digest == l->digest_buf) {
		CHECK(l->digestlen < sizeof l->digest_buf);
	} else {
		CHECK(l->digest >= buf && l->digest <= buf + len);
		CHECK(l->digestlen <= (size_t)(buf + len - l->digest));
	}
	if (!a->xof)
		CHECK(l->outlen == (size_t)a->digest_bytes);
	else if (p->outlen && a == p->algo)
		CHECK(l->outlen == p->outlen);
	else
		CHECK(l->outlen >= 1 && l->outlen <= (size_t)FH_MAX_XOF_BYTES);
	if (l->base64) {
		size_t pad = (3 - l->outlen % 3) % 3;

		CHECK(l->digestlen == FH_BASE64_LEN(l->outlen));
		for (size_t i = 0; i < l->digestlen; i++)
			CHECK(i < l->digestlen - pad ? is_base64(l->digest[i])
						     : l->digest[i] == '=');
	} else {
		CHECK(l->digestlen == 2 * l->outlen);
		for (size_t i = 0; i < l->digestlen; i++)
			CHECK(is_hex(l->digest[i]));
		bytes = malloc(l->digestlen / 2 + 1);
		CHECK(bytes);
		CHECK(fh_unhex(bytes, l->digest, l->digestlen));
		free(bytes);
	}
	CHECK(memchr(l->name, '\0', l->namelen) == NULL);
	CHECK(!(p->list_is_stdin && l->namelen == 1 && l->name[0] == '-'));

	round_trip(l, FH_FMT_TAG);
	/* An empty untagged name reads back as the reversed form of " ".  A
	 * base64 digest that spells a tag ("SHAKE128", six bytes of SHAKE)
	 * reads as that tag: untagged, such a line is improper. */
	if (l->namelen > 0 && !(l->base64 && fh_algo_by_tag(l->digest, l->digestlen)))
		round_trip(l, l->binary ? FH_FMT_BINARY : 0);
	round_trip_own(l);
}

/* A line of a tag no algorithm has: what fh_list_parse promises of it. */
static void check_unsupported(const struct fh_list_parser *p, const char *buf,
			      size_t len, const struct fh_list_line *l)
{
	CHECK(p->unknown_tags && !p->algo && !p->group && !l->algo);
	CHECK(l->tag >= buf && l->taglen > 0 && l->taglen <= FH_TAG_MAX &&
	      l->tag + l->taglen <= buf + len);
	CHECK(l->tag[0] >= 'A' && l->tag[0] <= 'Z');
	CHECK(!fh_algo_by_tag(l->tag, l->taglen));
	CHECK(l->digestlen > 0 && l->digest > l->tag + l->taglen &&
	      l->digest + l->digestlen <= buf + len);
	for (size_t i = 0; i < l->digestlen; i++)
		CHECK(is_base64(l->digest[i]) || l->digest[i] == '=');
	CHECK(memchr(l->name, '\0', l->namelen) == NULL);
}

/* A line through the xxhsum link (xxhsum_lines): xxhsum's own rules,
 * which neither skip nor round-trip as GNU's do, but whose every line the
 * parser takes points inside it: an xxHash digest in hex, its name before
 * it when tagged, after it when not. */
static void check_xxhsum(const char *buf, size_t len, enum fh_line_kind kind,
			 const struct fh_list_line *l)
{
	CHECK(kind == FH_LINE_OK || kind == FH_LINE_BAD);
	if (kind != FH_LINE_OK)
		return;
	CHECK(l->algo && l->algo->family == FH_FAMILY_XXH);
	CHECK(l->outlen == (size_t)l->algo->digest_bytes);
	CHECK(l->digestlen == 2 * l->outlen && !l->base64);
	CHECK(l->digest >= buf && l->digest + l->digestlen <= buf + len);
	for (size_t i = 0; i < l->digestlen; i++)
		CHECK(is_hex(l->digest[i]));
	CHECK(l->name >= buf && l->name + l->namelen <= buf + len);
	CHECK(l->tagged ? l->name + l->namelen < l->digest
			: l->name >= l->digest + l->digestlen);
	CHECK(memchr(l->name, '\0', l->namelen) == NULL);
}

/* The next of getline's lines of DATA, from *START (a final line without
 * '\n' counts, an empty tail after the last '\n' does not), copied into
 * a buffer of its own for the caller to free, its length into *LEN;
 * *START moves past it. */
static char *next_line(const uint8_t *data, size_t size, size_t *start,
		       size_t *len)
{
	const uint8_t *nl = memchr(data + *start, '\n', size - *start);
	size_t end = nl ? (size_t)(nl - data) : size;
	char *buf;

	*len = end - *start;
	buf = malloc(*len ? *len : 1);
	CHECK(buf);
	memcpy(buf, data + *start, *len);
	*start = end + 1;
	return buf;
}

/* The lines of DATA under configs[C], GNU's reversed-form latch LATCH
 * and UNKNOWN (unknown_tags); with XXH 1 or 2, through the xxhsum link's
 * rules instead (2: --little-endian). */
static void run(const uint8_t *data, size_t size, size_t c, int latch,
		bool unknown, int xxh)
{
	struct fh_list_parser p;
	size_t start = 0;

	fh_list_parser_init(&p, configs[c].algo == NOALGO
					? NULL
					: fh_algo_get(configs[c].algo),
			    configs[c].group ? fh_algo_row_by_name(configs[c].group) : NULL,
			    configs[c].outlen);
	p.list_is_stdin = configs[c].is_stdin;
	p.reversed = latch;
	p.unknown_tags = unknown;
	p.xxhsum_lines = xxh != 0;
	p.untagged_le = xxh == 2;

	while (start < size) {
		size_t len;
		char *buf = next_line(data, size, &start, &len);
		struct fh_list_line l;
		enum fh_line_kind kind;
		int before = p.reversed;

		kind = fh_list_parse(&p, buf, len, &l);
		if (xxh) {
			check_xxhsum(buf, len, kind, &l);
			free(buf);
			continue;
		}
		CHECK(p.reversed == before || before == -1);
		CHECK(p.reversed >= -1 && p.reversed <= 1);
		switch (kind) {
		case FH_LINE_SKIP:
			CHECK(len == 0 || buf[0] == '#' ||
			      (len == 1 && buf[0] == '\r'));
			CHECK(p.reversed == before);
			break;
		case FH_LINE_OK:
			check_ok(&p, buf, len, &l);
			break;
		case FH_LINE_BAD:
			break;
		case FH_LINE_UNSUPPORTED:
			check_unsupported(&p, buf, len, &l);
			break;
		default:
			CHECK(!"unknown kind");
		}
		free(buf);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++)
		for (int latch = -1; latch <= 1; latch++) {
			run(data, size, c, latch, false, 0);
			if (configs[c].algo == NOALGO && !configs[c].group)
				run(data, size, c, latch, true, 0);
		}
	run(data, size, 0, -1, false, 1);
	run(data, size, 0, -1, false, 2);
	return 0;
}
