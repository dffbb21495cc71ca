/* test_manifest.c: lib/list/manifest.c, the list model of --audit and
 * --update: metadata lines, name keys, digests read from list lines (hex
 * and base64, the base64 written by Python's base64 module for the
 * expected bytes below), lookup by name, pairing of moved files one to one
 * in list order, and the classification rules.  Expected values are
 * written in the test; none comes from the code under test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checklist.h"
#include "manifest.h"

static int failures;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: failed: %s\n", __FILE__,   \
				__LINE__, #cond);                          \
			failures++;                                        \
		}                                                          \
	} while (0)

static void test_meta(void)
{
	struct fh_meta m;
	char out[FH_META_MAX];
	static const char line[] = "#fhsum size=131072 mtime=1700000000.000000123";

	CHECK(fh_meta_parse(line, strlen(line), &m));
	CHECK(m.size == 131072 && m.sec == 1700000000 && m.nsec == 123);
	CHECK(fh_meta_format(out, &m) == strlen(line) + 1);
	CHECK(memcmp(out, line, strlen(line)) == 0 && out[strlen(line)] == '\n');
	/* CRLF lists, times before 1970. */
	CHECK(fh_meta_parse("#fhsum size=0 mtime=5.999999999\r", 32, &m) &&
	      m.size == 0 && m.sec == 5 && m.nsec == 999999999);
	CHECK(fh_meta_parse("#fhsum size=1 mtime=-1.500000000", 32, &m) && m.sec == -1);
	CHECK(fh_meta_format(out, &m) == 33 && memcmp(out, "#fhsum size=1 mtime=-1.500000000\n", 33) == 0);
	/* A scrub's stamp. */
	static const char stamped[] = "#fhsum size=7 mtime=1700000000.000000000 verified=1765000000";

	CHECK(fh_meta_parse(stamped, strlen(stamped), &m) && m.size == 7 &&
	      m.verified == 1765000000);
	CHECK(fh_meta_format(out, &m) == strlen(stamped) + 1 &&
	      memcmp(out, stamped, strlen(stamped)) == 0);
	CHECK(fh_meta_parse(line, strlen(line), &m) && m.verified == 0);
	m.size = 999999999999999999;
	m.sec = -999999999999999999;
	m.verified = 999999999999999999;
	CHECK(fh_meta_format(out, &m) > 0 && fh_meta_parse(out, strlen(out) - 1, &m) &&
	      m.size == 999999999999999999 && m.sec == -999999999999999999 && m.verified == 999999999999999999);
	/* The formatter against printf, at the ends of every field. */
	static const uint64_t sizes[] = { 0, 9, 10, UINT64_MAX };
	static const int64_t secs[] = { INT64_MIN + 1, -1, 0, 1700000000, INT64_MAX };
	static const uint32_t nsecs[] = { 0, 1, 999999999 };

	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 5; j++)
			for (size_t k = 0; k < 3; k++) {
				char want[FH_META_MAX + 32];
				struct fh_meta f = { sizes[i], secs[j], nsecs[k], secs[j] > 0 ? secs[j] : 0, NULL };
				size_t n = (size_t)snprintf(want, sizeof want, "#fhsum size=%llu mtime=%lld.%09u",
							    (unsigned long long)f.size,
							    (long long)f.sec, (unsigned)f.nsec);

				if (f.verified)
					n += (size_t)snprintf(want + n, sizeof want - n,
							      " verified=%lld", (long long)f.verified);
				want[n++] = '\n';
				CHECK(fh_meta_format(out, &f) == n && memcmp(out, want, n) == 0);
			}
	/* Anything else is a plain comment. */
	static const char *const bad[] = {
		"#fhsum size=1 mtime=5.99999999",     /* eight digits */
		"#fhsum size=1 mtime=5.9999999999",   /* ten */
		"#fhsum size= mtime=5.000000000",
		"#fhsum size=1  mtime=5.000000000",
		"#fhsum size=1 mtime=5",
		"#fhsum size=x mtime=5.000000000",
		"# fhsum size=1 mtime=5.000000000",
		"#fhsum size=99999999999999999999 mtime=5.000000000",
		"#fhsum size=1 mtime=5.00000000a",
		"#fhsum size=1 mtime=5.000000000 ",
		"#fhsum size=1 mtime=5.000000000 verified=",
		"#fhsum size=1 mtime=5.000000000 verified=0",
		"#fhsum size=1 mtime=5.000000000 verified=-5",
		"#fhsum size=1 mtime=5.000000000 verified=12x",
		"#fhsum size=1 mtime=5.000000000 verified=1 ",
		"#fhsum size=1 mtime=5.000000000  verified=1",
		"#fhsum size=1 mtime=5.000000000 verified=99999999999999999999",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (fh_meta_parse(bad[i], strlen(bad[i]), &m)) {
			fprintf(stderr, "accepted: %s\n", bad[i]);
			failures++;
		}
}

static void test_keys(void)
{
	size_t n;
	const char *k;

	k = fh_name_key("./d/f", 5, &n);
	CHECK(n == 3 && memcmp(k, "d/f", 3) == 0);
	k = fh_name_key("././d", 5, &n);
	CHECK(n == 1 && k[0] == 'd');
	k = fh_name_key(".//d", 4, &n);
	CHECK(n == 1 && k[0] == 'd');
	k = fh_name_key("./", 2, &n);    /* not a file name: kept */
	CHECK(n == 2);
	k = fh_name_key(".d/f", 4, &n);
	CHECK(n == 4);
	k = fh_name_key("../f", 4, &n);
	CHECK(n == 4);
}

/* Parses LINE with no -a and returns the parsed line in *L. */
static bool parse(char *buf, const char *line, struct fh_list_line *l)
{
	struct fh_list_parser p;

	strcpy(buf, line);
	fh_list_parser_init(&p, NULL, NULL, 0);
	return fh_list_parse(&p, buf, strlen(buf), l) == FH_LINE_OK;
}

static void test_digests(void)
{
	char buf[256];
	struct fh_list_line l;
	uint8_t d[64];
	/* MD5("") = d41d8cd98f00b204e9800998ecf8427e; in base64 (Python):
	 * 1B2M2Y8AsgTpgAmY7PhCfg== */
	static const uint8_t empty_md5[16] = {
		0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04,
		0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e,
	};

	CHECK(parse(buf, "D41D8CD98F00B204E9800998ECF8427E  e", &l));
	CHECK(fh_list_digest(d, &l) && memcmp(d, empty_md5, 16) == 0);
	CHECK(parse(buf, "1B2M2Y8AsgTpgAmY7PhCfg==  e", &l) && l.base64);
	CHECK(fh_list_digest(d, &l) && memcmp(d, empty_md5, 16) == 0);
	CHECK(parse(buf, "MD5 (e) = 1B2M2Y8AsgTpgAmY7PhCfg==", &l) && l.tagged);
	CHECK(fh_list_digest(d, &l) && memcmp(d, empty_md5, 16) == 0);
	/* 'h' in place of 'g' sets a spare bit: not the text of any digest. */
	CHECK(parse(buf, "1B2M2Y8AsgTpgAmY7PhCfh==  e", &l));
	CHECK(!fh_list_digest(d, &l));
}

/* An entry named NAME with the one-byte-pattern MD5 digest V. */
static enum fh_add_result add(struct fh_manifest *m, const char *name,
			      uint8_t v, const struct fh_meta *meta, uint64_t line)
{
	struct fh_list_line l = {
		.algo = fh_algo_get(FH_MD5), .outlen = 16,
		.name = name, .namelen = strlen(name),
	};
	uint8_t d[16];

	memset(d, v, sizeof d);
	return fh_manifest_add(m, &l, d, meta, 0, line);
}

static void test_manifest(void)
{
	struct fh_manifest m;
	struct fh_meta meta = { .size = 10, .sec = 100, .nsec = 5 };
	uint8_t d[16];

	fh_manifest_init(&m);
	CHECK(add(&m, "a", 1, NULL, 1) == FH_ADD_OK);
	CHECK(add(&m, "./b", 2, &meta, 3) == FH_ADD_OK);
	CHECK(add(&m, "c", 2, NULL, 4) == FH_ADD_OK);
	CHECK(add(&m, "d", 2, NULL, 5) == FH_ADD_OK);
	CHECK(add(&m, "./a", 9, NULL, 6) == FH_ADD_DUPLICATE);
	CHECK(m.n == 4 && m.algo == FH_MD5 && m.outlen == 16);
	CHECK(fh_manifest_find(&m, "b", 1) == &m.entries[1]);
	CHECK(fh_manifest_find(&m, "./a", 3) == &m.entries[0]);
	CHECK(fh_manifest_find(&m, "e", 1) == NULL);
	/* By the hash a list's reader computes: the same entries. */
	CHECK(fh_manifest_find_hashed(&m, fh_manifest_name_hash("./a", 3), "./a", 3) ==
	      &m.entries[0]);
	CHECK(fh_manifest_find_hashed(&m, fh_manifest_name_hash("e", 1), "e", 1) == NULL);
	CHECK(strcmp(m.entries[1].name, "./b") == 0);
	CHECK(fh_entry_digest(&m.entries[1])[15] == 2);

	/* b and d are missing, c was seen: content 2 pairs with b, then d,
	 * then nothing; content 1 (a, seen) pairs with none. */
	for (size_t i = 0; i < m.n; i++)
		m.entries[i].flags |= FH_ENTRY_EXPECTED;
	m.entries[0].flags |= FH_ENTRY_SEEN;
	m.entries[2].flags |= FH_ENTRY_SEEN;
	CHECK(fh_manifest_index_missing(&m));
	memset(d, 2, sizeof d);
	CHECK(fh_manifest_pair(&m, FH_MD5, d, 16) == &m.entries[1]);
	CHECK(fh_manifest_pair(&m, FH_MD5, d, 16) == &m.entries[3]);
	CHECK(fh_manifest_pair(&m, FH_MD5, d, 16) == NULL);
	CHECK(fh_manifest_pair(&m, FH_SHA3_256, d, 16) == NULL);
	memset(d, 1, sizeof d);
	CHECK(fh_manifest_pair(&m, FH_MD5, d, 16) == NULL);

	/* Classification. */
	struct fh_entry *b = &m.entries[1];
	struct fh_meta other = meta;

	other.nsec = 6;
	memset(d, 2, sizeof d);
	CHECK(fh_classify(b, d, &meta, &meta) == FH_ST_OK);
	memset(d, 7, sizeof d);
	CHECK(fh_classify(b, d, &meta, &meta) == FH_ST_DAMAGED);
	CHECK(fh_classify(b, d, &other, &other) == FH_ST_CHANGED);
	CHECK(fh_classify(b, d, &meta, &other) == FH_ST_CHANGED); /* changed as read */
	CHECK(fh_classify(b, d, NULL, NULL) == FH_ST_CHANGED);
	CHECK(fh_classify(&m.entries[0], d, &meta, &meta) == FH_ST_CHANGED); /* no metadata */
	CHECK(strcmp(fh_status_word(FH_ST_DAMAGED), "DAMAGED") == 0);

	/* A second algorithm makes the list mixed. */
	struct fh_list_line l = {
		.algo = fh_algo_get(FH_SHA3_256), .outlen = 32,
		.name = "z", .namelen = 1,
	};
	uint8_t d32[32] = { 0 };

	CHECK(fh_manifest_add(&m, &l, d32, NULL, 0, 7) == FH_ADD_OK);
	CHECK(m.algo == -2);
	fh_manifest_free(&m);
}

/* Many entries: every one found again, tables and blocks grown. */
static void test_many(void)
{
	struct fh_manifest m;
	char name[32];
	size_t n = 300000;

	fh_manifest_init(&m);
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof name, "dir/%zu", i);
		if (add(&m, name, (uint8_t)i, NULL, i + 1) != FH_ADD_OK) {
			failures++;
			break;
		}
	}
	for (size_t i = 0; i < n; i += 997) {
		snprintf(name, sizeof name, "./dir/%zu", i);
		struct fh_entry *e = fh_manifest_find(&m, name, strlen(name));

		CHECK(e && e->line == i + 1 && fh_entry_digest(e)[0] == (uint8_t)i);
	}
	CHECK(fh_manifest_find(&m, "dir/300000", 10) == NULL);
	fh_manifest_free(&m);
}

/* A scrub's stamp set in place: read back whole, the digest and the name
 * untouched, the entry marked; an entry listed without metadata has no
 * room for it. */
static void test_set_meta(void)
{
	struct fh_manifest m;
	const struct fh_meta listed = { .size = 5, .sec = 1700000000, .nsec = 7 };
	const struct fh_meta now = { .size = 6, .sec = -2, .nsec = 999999999,
				     .verified = 1800000000 };
	struct fh_meta got;
	static const uint8_t d[16] = { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 };

	fh_manifest_init(&m);
	CHECK(add(&m, "a", 3, &listed, 2) == FH_ADD_OK);
	CHECK(add(&m, "b", 4, NULL, 3) == FH_ADD_OK);
	CHECK(fh_entry_set_meta(&m.entries[0], &now));
	CHECK(m.entries[0].flags & FH_ENTRY_RESTAMPED);
	CHECK(fh_entry_meta(&m.entries[0], &got) && got.size == 6 && got.sec == -2 &&
	      got.nsec == 999999999 && got.verified == 1800000000);
	CHECK(memcmp(fh_entry_digest(&m.entries[0]), d, 16) == 0);
	CHECK(strcmp(m.entries[0].name, "a") == 0);
	CHECK(!fh_entry_set_meta(&m.entries[1], &now));
	CHECK(!(m.entries[1].flags & FH_ENTRY_RESTAMPED));
	CHECK(!fh_entry_meta(&m.entries[1], &got));
	fh_manifest_free(&m);
}

int main(void)
{
	test_meta();
	test_keys();
	test_digests();
	test_manifest();
	test_many();
	test_set_meta();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
