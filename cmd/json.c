/* json.c: JSON Lines output (--json).  Each object is one line of
 * standard output, written whole like any other line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list/checklist.h"
#include "cli.h"

static bool first;

/* Whether the N bytes at S are valid UTF-8: no overlong forms, no
 * surrogates, nothing past U+10FFFF. */
static bool valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i];
		size_t len;
		uint32_t cp, min;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			len = 2, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			len = 3, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			len = 4, cp = c & 0x07, min = 0x10000;
		} else {
			return false;
		}
		if (n - i < len)
			return false;
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

static void key(const char *k)
{
	fh_out_str(first ? "{\"" : ",\"");
	first = false;
	fh_out_str(k);
	fh_out_str("\":");
}

/* S as a JSON string: '"', '\' and control characters escaped. */
static void string(const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;

	fh_out_bytes("\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		fh_out_bytes(s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': fh_out_str("\\\""); break;
		case '\\': fh_out_str("\\\\"); break;
		case '\n': fh_out_str("\\n"); break;
		case '\r': fh_out_str("\\r"); break;
		case '\t': fh_out_str("\\t"); break;
		default: fh_out_bytes(esc, sizeof esc); break;
		}
	}
	fh_out_bytes(s + run, n - run);
	fh_out_bytes("\"", 1);
}

void fh_json_begin(void)
{
	fh_progress_clear();
	first = true;
}

void fh_json_name(const char *k, const char *s, size_t n)
{
	if (valid_utf8((const unsigned char *)s, n)) {
		key(k);
		string(s, n);
		return;
	}
	char name[32], *b64 = fh_xmalloc(FH_BASE64_LEN(n) + 1);

	snprintf(name, sizeof name, "%s_base64", k);
	key(name);
	string(b64, fh_base64(b64, (const uint8_t *)s, n));
	free(b64);
}

void fh_json_str(const char *k, const char *s)
{
	key(k);
	string(s, strlen(s));
}

void fh_json_uint(const char *k, uint64_t v)
{
	char num[24];

	key(k);
	snprintf(num, sizeof num, "%llu", (unsigned long long)v);
	fh_out_str(num);
}

void fh_json_end(void)
{
	fh_out_str(first ? "{}\n" : "}\n");
	fh_out_end_line();
}

void fh_record_put(const struct cli *c, const struct fh_record *r)
{
	/* The digest's text: 2n + 4 holds hex or base64 for any n. */
	static char text[2 * FH_MAX_XOF_BYTES + 4];

	if (!c->json) {
		if (r->status)
			fh_out_status(r->name, r->namelen, r->status, r->from, r->fromlen);
		return;
	}
	fh_json_begin();
	fh_json_name("name", r->name, r->namelen);
	fh_json_str("algorithm", r->algo->name);
	/* "expected" as "digest" is written, so that the two compare. */
	for (int i = 0; i < 2; i++) {
		const uint8_t *d = i ? r->expected : r->digest;

		if (!d)
			continue;
		if (c->base64)
			text[fh_base64(text, d, r->outlen)] = '\0';
		else
			fh_hex(text, d, r->outlen);
		fh_json_str(i ? "expected" : "digest", text);
	}
	if (r->sized)
		fh_json_uint("size", r->size);
	if (r->verified > 0)
		fh_json_uint("verified", (uint64_t)r->verified);
	if (r->status)
		fh_json_str("status", r->status);
	if (r->from)
		fh_json_name("from", r->from, r->fromlen);
	if (r->err)
		fh_json_str("error", fh_strerror(r->err));
	fh_json_end();
}
