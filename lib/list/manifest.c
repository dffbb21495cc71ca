/* manifest.c: a checksum list held for an audit.  Entries live in one
 * array in list order; names and digests in large blocks (no allocation
 * per entry); two open-addressing tables of 32-bit indices find an entry
 * by name and, after the walk, a missing one by digest.  A list of ten
 * million lines of MD5 and 30-byte names takes about 1 GB, its own size
 * and half again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "manifest.h"

/* Allocations from this size on are aligned to 2 MiB and offered to the
 * kernel for huge pages: a list of millions of entries is then read into
 * a few hundred pages instead of a few hundred thousand, each of whose
 * first touch and TLB misses cost (dearly under some hypervisors), and its
 * tables' random probes stay within the TLB's reach. */
#define HUGE_PAGE ((size_t)2 << 20)
#define BIG HUGE_PAGE

static void *big_alloc(size_t size)
{
	void *p;

	if (size < BIG)
		return malloc(size);
	size = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (posix_memalign(&p, HUGE_PAGE, size) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, size, MADV_HUGEPAGE); /* a hint */
#endif
	return p;
}

static void *big_zalloc(size_t size)
{
	void *p = big_alloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

/* Names and digests are packed into blocks of at least this size. */
#define BLOCK_MIN ((size_t)1 << 20)

struct fh_manifest_block {
	struct fh_manifest_block *next;
	size_t used, size;
	char data[];
};

bool fh_meta_parse(const char *line, size_t len, struct fh_meta *m)
{
	static const char head[] = "#fhsum size=";
	size_t i = sizeof head - 1, digits;
	uint64_t size = 0, sec = 0;
	uint32_t nsec = 0;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len < i || memcmp(line, head, i) != 0)
		return false;
	for (digits = 0; i < len && line[i] >= '0' && line[i] <= '9'; i++, digits++) {
		if (size > (UINT64_MAX - 9) / 10)
			return false;
		size = size * 10 + (uint64_t)(line[i] - '0');
	}
	if (!digits || len - i < 7 || memcmp(line + i, " mtime=", 7) != 0)
		return false;
	i += 7;
	bool neg = i < len && line[i] == '-';

	i += neg;
	for (digits = 0; i < len && line[i] >= '0' && line[i] <= '9'; i++, digits++) {
		if (sec > (uint64_t)INT64_MAX / 10 - 1)
			return false;
		sec = sec * 10 + (uint64_t)(line[i] - '0');
	}
	if (!digits || i >= len || line[i] != '.' || len - i < 10)
		return false;
	for (size_t end = i + 10; ++i < end;) {
		if (line[i] < '0' || line[i] > '9')
			return false;
		nsec = nsec * 10 + (uint32_t)(line[i] - '0');
	}

	static const char stamp[] = " verified=", key[] = " algorithm=";
	uint64_t verified = 0;
	const struct fh_algo *algo = NULL;

	/* The algorithm's word comes last: it ends the line. */
	for (size_t k = i; k + sizeof key - 1 < len; k++) {
		if (memcmp(line + k, key, sizeof key - 1) != 0)
			continue;
		char name[32];
		size_t n = len - k - (sizeof key - 1);

		if (n >= sizeof name)
			return false;
		memcpy(name, line + k + sizeof key - 1, n);
		name[n] = '\0';
		algo = fh_algo_by_name(name);
		if (!algo || !fh_algo_untagged_as(algo, algo->digest_bytes))
			return false;
		len = k;
		break;
	}
	if (i < len) {
		if (len - i < sizeof stamp || memcmp(line + i, stamp, sizeof stamp - 1) != 0)
			return false;
		for (i += sizeof stamp - 1; i < len; i++) {
			if (line[i] < '0' || line[i] > '9' || verified > (uint64_t)INT64_MAX / 10 - 1)
				return false;
			verified = verified * 10 + (uint64_t)(line[i] - '0');
		}
		if (!verified)
			return false;
	}
	m->size = size;
	m->sec = neg ? -(int64_t)sec : (int64_t)sec;
	m->nsec = nsec;
	m->verified = (int64_t)verified;
	m->algo = algo;
	return true;
}

/* V in decimal at OUT; returns the digits written (at most 20). */
static size_t put_decimal(char *out, uint64_t v)
{
	char t[20];
	size_t n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		out[i] = t[n - 1 - i];
	return n;
}

/* Without snprintf: a scrub writes one of these per entry.  The line is
 * NUL-terminated too (at most 130 bytes with it). */
size_t fh_meta_format(char *out, const struct fh_meta *m)
{
	static const char head[] = "#fhsum size=", mtime[] = " mtime=",
			  stamp[] = " verified=";
	size_t n = sizeof head - 1;
	uint32_t ns = m->nsec < 1000000000u ? m->nsec : 999999999u;

	memcpy(out, head, n);
	n += put_decimal(out + n, m->size);
	memcpy(out + n, mtime, sizeof mtime - 1);
	n += sizeof mtime - 1;
	if (m->sec < 0)
		out[n++] = '-';
	n += put_decimal(out + n, m->sec < 0 ? -(uint64_t)m->sec : (uint64_t)m->sec);
	out[n++] = '.';
	for (int i = 8; i >= 0; i--, ns /= 10)
		out[n + (size_t)i] = (char)('0' + ns % 10);
	n += 9;
	if (m->verified > 0) {
		memcpy(out + n, stamp, sizeof stamp - 1);
		n += sizeof stamp - 1;
		n += put_decimal(out + n, (uint64_t)m->verified);
	}
	if (m->algo) {
		size_t k = strlen(m->algo->name);

		memcpy(out + n, " algorithm=", 11);
		memcpy(out + n + 11, m->algo->name, k);
		n += 11 + k;
	}
	out[n++] = '\n';
	out[n] = '\0';
	return n;
}

const char *fh_name_key(const char *name, size_t len, size_t *keylen)
{
	while (len > 2 && name[0] == '.' && name[1] == '/') {
		name += 2;
		len -= 2;
		while (len > 1 && name[0] == '/') {
			name++;
			len--;
		}
	}
	*keylen = len;
	return name;
}

static int base64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

bool fh_list_digest(uint8_t *out, const struct fh_list_line *l)
{
	if (!l->base64)
		return l->digestlen == 2 * l->outlen &&
		       fh_unhex(out, l->digest, l->digestlen);
	if (l->digestlen != FH_BASE64_LEN(l->outlen))
		return false;
	uint32_t acc = 0;
	unsigned bits = 0;
	size_t o = 0;

	for (size_t i = 0; i < l->digestlen && l->digest[i] != '='; i++) {
		int v = base64_value((unsigned char)l->digest[i]);

		if (v < 0)
			return false;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o == l->outlen)
				return false;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	/* The spare bits of the last character must be 0: the digest is
	 * then the one text --base64 writes for these bytes. */
	return o == l->outlen && (acc & ((1u << bits) - 1)) == 0;
}

void fh_manifest_init(struct fh_manifest *m)
{
	memset(m, 0, sizeof *m);
	m->algo = -1;
}

/* An entry's metadata as stored after its digest: size, seconds,
 * nanoseconds and stamp, unaligned. */
#define META_BYTES 28

static void meta_store(char *q, const struct fh_meta *m)
{
	memcpy(q, &m->size, sizeof m->size);
	memcpy(q + 8, &m->sec, sizeof m->sec);
	memcpy(q + 16, &m->nsec, sizeof m->nsec);
	memcpy(q + 20, &m->verified, sizeof m->verified);
}

static char *meta_at(const struct fh_entry *e)
{
	return (char *)e->name + e->namelen + 1 + e->outlen;
}

bool fh_entry_meta(const struct fh_entry *e, struct fh_meta *m)
{
	const char *q = meta_at(e);

	if (!(e->flags & FH_ENTRY_META))
		return false;
	memcpy(&m->size, q, sizeof m->size);
	memcpy(&m->sec, q + 8, sizeof m->sec);
	memcpy(&m->nsec, q + 16, sizeof m->nsec);
	memcpy(&m->verified, q + 20, sizeof m->verified);
	m->algo = NULL;
	return true;
}

bool fh_entry_set_meta(struct fh_entry *e, const struct fh_meta *m)
{
	if (!(e->flags & FH_ENTRY_META))
		return false;
	meta_store(meta_at(e), m);
	e->flags |= FH_ENTRY_RESTAMPED;
	return true;
}

void fh_manifest_free(struct fh_manifest *m)
{
	struct fh_manifest_block *b = m->blocks;

	while (b) {
		struct fh_manifest_block *next = b->next;

		free(b);
		b = next;
	}
	free(m->entries);
	free(m->by_name);
	free(m->by_digest);
	fh_manifest_init(m);
}

/* Spreads every bit of X over all 64 (MurmurHash3's finaliser). */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ x >> 33;
}

/* A hash of N bytes, eight at a time: names and digests are short, and
 * the tables need spread, not strength (a list is the user's own).  Every
 * word is mixed whole, so that names differing in one byte anywhere land
 * far apart in the low bits the tables index by. */
static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;
	uint64_t w;

	h = mix(h ^ n);
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = mix(h ^ w) + 0x9e3779b97f4a7c15ull;
	}
	w = 0;
	memcpy(&w, s, n);
	return mix(h ^ w);
}

uint64_t fh_manifest_name_hash(const char *name, size_t len)
{
	size_t klen;
	const char *key = fh_name_key(name, len, &klen);

	return hash_bytes(key, klen, 0);
}

static bool same_name(const struct fh_entry *e, const char *name, size_t len)
{
	size_t ka, kb;
	const char *a = fh_name_key(e->name, e->namelen, &ka);
	const char *b = fh_name_key(name, len, &kb);

	return ka == kb && memcmp(a, b, ka) == 0;
}

static char *store(struct fh_manifest *m, size_t n)
{
	struct fh_manifest_block *b = m->blocks;

	if (!b || b->size - b->used < n) {
		size_t size = n > BLOCK_MIN ? n : BLOCK_MIN;

		/* Larger blocks as the list grows, in huge pages: fewer, and
		 * past the first huge page at most 1/8 of what is held is
		 * unused. */
		if (m->n > 8192 && size < (m->n / 8) * 64)
			size = (m->n / 8) * 64;
		if (m->n > 8192 && size < HUGE_PAGE - sizeof *b)
			size = HUGE_PAGE - sizeof *b;
		b = big_alloc(sizeof *b + size);
		if (!b)
			return NULL;
		b->used = 0;
		b->size = size;
		b->next = m->blocks;
		m->blocks = b;
	}
	char *p = b->data + b->used;

	b->used += n;
	return p;
}

/* A table slot: an entry's index + 1 in the low half (0: empty), the top
 * of its hash in the high half, so that a probe rarely reads an entry
 * that is not the one sought. */
static uint64_t slot_of(uint64_t h, size_t i)
{
	return (h & 0xffffffff00000000ull) | (uint64_t)(i + 1);
}

/* Puts entry index I into TABLE (SLOTS, a power of two) at hash H. */
static void table_put(uint64_t *table, size_t slots, uint64_t h, size_t i)
{
	size_t s = (size_t)h & (slots - 1);

	while (table[s])
		s = (s + 1) & (slots - 1);
	table[s] = slot_of(h, i);
}

static bool resize_names(struct fh_manifest *m, size_t slots)
{
	uint64_t *t = big_zalloc(slots * sizeof *t);

	if (!t)
		return false;
	for (size_t i = 0; i < m->name_slots; i++) {
		uint64_t v = m->by_name[i];

		if (!v)
			continue;
		const struct fh_entry *e = &m->entries[(uint32_t)v - 1];

		table_put(t, slots, fh_manifest_name_hash(e->name, e->namelen),
			  (uint32_t)v - 1);
	}
	free(m->by_name);
	m->by_name = t;
	m->name_slots = slots;
	return true;
}

/* Room for CAP entries. */
static bool reserve(struct fh_manifest *m, size_t cap)
{
	struct fh_entry *e = big_alloc(cap * sizeof *e);

	if (!e)
		return false;
	if (m->n)
		memcpy(e, m->entries, m->n * sizeof *e);
	free(m->entries);
	m->entries = e;
	m->cap = cap;
	return true;
}

static bool grow_names(struct fh_manifest *m)
{
	return resize_names(m, m->name_slots ? 2 * m->name_slots : 1024);
}

void fh_manifest_expect(struct fh_manifest *m, size_t n)
{
	size_t slots = 1024;

	while (slots < n + n / 2 && slots < ((size_t)1 << 33))
		slots *= 2;
	/* A hint: no room, no harm. */
	if (slots > m->name_slots)
		resize_names(m, slots);
	if (n > m->cap)
		reserve(m, n);
}

struct fh_entry *fh_manifest_find_hashed(const struct fh_manifest *m, uint64_t h,
					 const char *name, size_t len)
{
	if (!m->name_slots)
		return NULL;
	size_t s = (size_t)h & (m->name_slots - 1);

	for (uint64_t v; (v = m->by_name[s]) != 0; s = (s + 1) & (m->name_slots - 1)) {
		if ((v >> 32) != (h >> 32))
			continue;
		struct fh_entry *e = &m->entries[(uint32_t)v - 1];

		if (same_name(e, name, len))
			return e;
	}
	return NULL;
}

void fh_manifest_prefetch(const struct fh_manifest *m, uint64_t hash)
{
#if defined(__GNUC__) || defined(__clang__)
	if (m->name_slots)
		__builtin_prefetch(&m->by_name[(size_t)hash & (m->name_slots - 1)]);
#else
	(void)m;
	(void)hash;
#endif
}

struct fh_entry *fh_manifest_find(const struct fh_manifest *m,
				  const char *name, size_t len)
{
	return fh_manifest_find_hashed(m, fh_manifest_name_hash(name, len), name, len);
}

enum fh_add_result fh_manifest_add(struct fh_manifest *m,
				   const struct fh_list_line *l,
				   const uint8_t *digest, const struct fh_meta *meta,
				   int form, uint64_t line)
{
	return fh_manifest_add_hashed(m, fh_manifest_name_hash(l->name, l->namelen), l,
				      digest, meta, form, line);
}

enum fh_add_result fh_manifest_add_hashed(struct fh_manifest *m, uint64_t h,
					  const struct fh_list_line *l,
					  const uint8_t *digest,
					  const struct fh_meta *meta, int form,
					  uint64_t line)
{
	if (fh_manifest_find_hashed(m, h, l->name, l->namelen))
		return FH_ADD_DUPLICATE;
	if (m->n >= FH_MANIFEST_MAX || line > FH_MANIFEST_LINES ||
	    l->namelen > UINT32_MAX || l->outlen > UINT32_MAX)
		return FH_ADD_NOMEM;
	if (m->n == m->cap && !reserve(m, m->cap ? 2 * m->cap : 1024))
		return FH_ADD_NOMEM;
	/* At most 70% full: probes stay short. */
	if (10 * (m->n + 1) > 7 * m->name_slots && !grow_names(m))
		return FH_ADD_NOMEM;
	size_t metalen = meta ? META_BYTES : 0;
	char *p = store(m, l->namelen + 1 + l->outlen + metalen);

	if (!p)
		return FH_ADD_NOMEM;
	memcpy(p, l->name, l->namelen);
	p[l->namelen] = '\0';
	memcpy(p + l->namelen + 1, digest, l->outlen);
	if (meta)
		meta_store(p + l->namelen + 1 + l->outlen, meta);

	struct fh_entry *e = &m->entries[m->n];

	*e = (struct fh_entry){
		.name = p,
		.line = (uint32_t)line,
		.namelen = (uint32_t)l->namelen,
		.outlen = (uint32_t)l->outlen,
		.algo = (uint8_t)l->algo->id,
		.form = (uint16_t)form,
	};
	if (meta)
		e->flags |= FH_ENTRY_META;
	table_put(m->by_name, m->name_slots, h, m->n);
	if (m->algo == -1) {
		m->algo = l->algo->id;
		m->outlen = l->outlen;
	} else if (m->algo != (int)l->algo->id || m->outlen != l->outlen) {
		m->algo = -2;
	}
	m->n++;
	return FH_ADD_OK;
}

static uint64_t digest_hash(int algo, const uint8_t *digest, size_t outlen)
{
	uint64_t a = (uint64_t)algo;

	return hash_bytes(digest, outlen, a);
}

static bool missing(const struct fh_entry *e)
{
	return (e->flags & (FH_ENTRY_EXPECTED | FH_ENTRY_SEEN)) == FH_ENTRY_EXPECTED;
}

bool fh_manifest_index_missing(struct fh_manifest *m)
{
	size_t count = 0, slots = 16;

	for (size_t i = 0; i < m->n; i++)
		count += missing(&m->entries[i]);
	while (slots < 2 * count)
		slots *= 2;
	free(m->by_digest);
	m->by_digest = big_zalloc(slots * sizeof *m->by_digest);
	if (!m->by_digest)
		return false;
	m->digest_slots = slots;
	/* In list order, so that a probe meets the earlier entry first. */
	for (size_t i = 0; i < m->n; i++) {
		const struct fh_entry *e = &m->entries[i];

		if (missing(e))
			table_put(m->by_digest, slots,
				  digest_hash(e->algo, fh_entry_digest(e), e->outlen), i);
	}
	return true;
}

struct fh_entry *fh_manifest_pair(struct fh_manifest *m, int algo,
				  const uint8_t *digest, size_t outlen)
{
	if (!m->digest_slots)
		return NULL;
	uint64_t h = digest_hash(algo, digest, outlen);
	size_t s = (size_t)h & (m->digest_slots - 1);

	for (uint64_t v; (v = m->by_digest[s]) != 0; s = (s + 1) & (m->digest_slots - 1)) {
		if ((v >> 32) != (h >> 32))
			continue;
		struct fh_entry *e = &m->entries[(uint32_t)v - 1];

		if (!(e->flags & FH_ENTRY_PAIRED) && e->algo == algo &&
		    e->outlen == outlen &&
		    memcmp(fh_entry_digest(e), digest, outlen) == 0) {
			e->flags |= FH_ENTRY_PAIRED;
			return e;
		}
	}
	return NULL;
}

enum fh_status fh_classify(const struct fh_entry *e, const uint8_t *digest,
			   const struct fh_meta *before,
			   const struct fh_meta *after)
{
	if (memcmp(fh_entry_digest(e), digest, e->outlen) == 0)
		return FH_ST_OK;
	struct fh_meta listed;

	if (fh_entry_meta(e, &listed) && before && after &&
	    fh_meta_equal(before, after) && fh_meta_equal(&listed, before))
		return FH_ST_DAMAGED;
	return FH_ST_CHANGED;
}

const char *fh_status_word(enum fh_status s)
{
	static const char *const words[] = {
		[FH_ST_OK] = "OK",
		[FH_ST_CHANGED] = "CHANGED",
		[FH_ST_DAMAGED] = "DAMAGED",
		[FH_ST_NEW] = "NEW",
		[FH_ST_MISSING] = "MISSING",
		[FH_ST_MOVED] = "MOVED",
		[FH_ST_UNREADABLE] = "FAILED open or read",
	};

	return words[s];
}
