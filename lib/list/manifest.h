/* manifest.h: a checksum list held as a manifest of a tree, for --audit,
 * --update and --against: its entries (name, algorithm, digest, the
 * metadata of a "#fhsum" comment line), found by name and, once the tree
 * has been seen, by the digest of the entries no file answered.  Pure
 * code: no I/O; it allocates about 40 bytes per entry (24 for the entry,
 * its table slots) beside its name, digest and metadata, packed in large
 * blocks. */
#ifndef FH_MANIFEST_H
#define FH_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checklist.h"
#include "fhsum.h"

/* A file's size and modification time, as "#fhsum size=N mtime=S.N"
 * records them, and when a scrub last found its content good
 * ("verified=T"). */
struct fh_meta {
	uint64_t size;
	int64_t sec;
	uint32_t nsec;
	int64_t verified;       /* UTC seconds; 0: never verified */
	/* "algorithm=NAME": the algorithm of the entry's untagged line, where
	 * its digest's length alone does not tell it; NULL: not named. */
	const struct fh_algo *algo;
};

/* The longest "#fhsum ..." line fh_meta_format writes, its '\n' included
 * (algorithm names are under 20 bytes). */
#define FH_META_MAX 144

/* Reads a metadata comment line (LEN bytes, no line end; a trailing '\r'
 * is allowed): "#fhsum size=N mtime=S.NNNNNNNNN" with nine digits of
 * nanoseconds, then optionally " verified=T" (T > 0), then optionally
 * " algorithm=NAME" (a fixed-length algorithm).  False for any other
 * line. */
bool fh_meta_parse(const char *line, size_t len, struct fh_meta *m);
/* Writes M's line, '\n' included, to OUT (FH_META_MAX bytes); returns its
 * length. */
size_t fh_meta_format(char *out, const struct fh_meta *m);
/* Whether A and B describe one state of a file (stamps aside). */
static inline bool fh_meta_equal(const struct fh_meta *a, const struct fh_meta *b)
{
	return a->size == b->size && a->sec == b->sec && a->nsec == b->nsec;
}

/* The part of NAME (LEN bytes) that names match on: without leading
 * "./" (any number of them), so that "./d/f" and "d/f" are one name. */
const char *fh_name_key(const char *name, size_t len, size_t *keylen);

/* Decodes L's digest (hex, or base64 written as fh_base64 writes it) into
 * OUT (L->outlen bytes); false when the text is not that. */
bool fh_list_digest(uint8_t *out, const struct fh_list_line *l);

enum {
	FH_ENTRY_META = 1 << 0,     /* META holds its line's metadata */
	FH_ENTRY_SEEN = 1 << 1,     /* a file of the tree answered it */
	FH_ENTRY_EXPECTED = 1 << 2, /* the run expects its file (missing if unseen) */
	FH_ENTRY_PAIRED = 1 << 3,   /* a new name took its content (moved) */
	FH_ENTRY_RESTAMPED = 1 << 4, /* META was set anew (fh_entry_set_meta) */
	FH_ENTRY_AWAITED = 1 << 5,  /* a run has yet to verify it */
	/* Its untagged line's length is several algorithms' and the list
	 * names none: ALGO is the first of them until the run finds which. */
	FH_ENTRY_OPEN = 1 << 6,
};

struct fh_entry {
	/* As listed, unescaped; its NUL is followed by the digest and, with
	 * FH_ENTRY_META, the metadata (fh_entry_meta). */
	const char *name;
	uint32_t line;          /* its checksum line's number in the list */
	uint32_t namelen;
	uint32_t outlen;        /* digest bytes */
	uint8_t algo;           /* enum fh_algo_id */
	uint8_t flags;          /* FH_ENTRY_* */
	uint16_t form;          /* the line's FH_FMT_* flags, to write it again */
};

static inline const uint8_t *fh_entry_digest(const struct fh_entry *e)
{
	return (const uint8_t *)e->name + e->namelen + 1;
}

/* E's metadata into *M; false (M untouched) when its line had none. */
bool fh_entry_meta(const struct fh_entry *e, struct fh_meta *m);
/* Sets the metadata of E, whose line had some, to *M, and marks E
 * FH_ENTRY_RESTAMPED; false (nothing done) when its line had none. */
bool fh_entry_set_meta(struct fh_entry *e, const struct fh_meta *m);

struct fh_manifest_block;

struct fh_manifest {
	struct fh_entry *entries;
	size_t n, cap;
	/* Open addressing: entry index + 1 (0: empty), the top half of the
	 * hash above it. */
	uint64_t *by_name;
	size_t name_slots;      /* a power of two, at least twice N */
	uint64_t *by_digest;    /* the same, over unseen expected entries */
	size_t digest_slots;
	struct fh_manifest_block *blocks; /* names and digests */
	/* The one algorithm (and length) of all entries, for new files:
	 * -1 while empty, -2 once they differ. */
	int algo;
	size_t outlen;
};

/* The most entries a manifest holds, and the last line number an entry
 * may have (both are 32-bit: an entry takes 24 bytes). */
#define FH_MANIFEST_MAX ((size_t)UINT32_MAX - 1)
#define FH_MANIFEST_LINES ((uint64_t)UINT32_MAX)

void fh_manifest_init(struct fh_manifest *m);
/* Sizes the name table for about N entries, so that loading a list of
 * known size does not rehash (an optional hint). */
void fh_manifest_expect(struct fh_manifest *m, size_t n);
void fh_manifest_free(struct fh_manifest *m);

enum fh_add_result {
	FH_ADD_OK,
	FH_ADD_DUPLICATE,       /* the name is listed already: the first counts */
	FH_ADD_NOMEM,           /* no memory, or past FH_MANIFEST_MAX/LINES */
};

/* Adds the entry of list line L (its checksum line number LINE), with
 * DIGEST (L->outlen bytes) and META (NULL: none).  FORM is the line's
 * FH_FMT_* flags (tag, '*', base64). */
enum fh_add_result fh_manifest_add(struct fh_manifest *m,
				   const struct fh_list_line *l,
				   const uint8_t *digest, const struct fh_meta *meta,
				   int form, uint64_t line);

/* The hash the name table files NAME (LEN bytes) under, for the calls
 * below: a list's reader computes it on the thread that parses, not on
 * the one that fills the table. */
uint64_t fh_manifest_name_hash(const char *name, size_t len);

/* fh_manifest_add, the name's hash given (fh_manifest_name_hash). */
enum fh_add_result fh_manifest_add_hashed(struct fh_manifest *m, uint64_t hash,
					  const struct fh_list_line *l,
					  const uint8_t *digest,
					  const struct fh_meta *meta, int form,
					  uint64_t line);

/* A hint: the place in the name table of the name whose hash is HASH is
 * fetched into the cache, so that an add of it a little later does not
 * wait on memory. */
void fh_manifest_prefetch(const struct fh_manifest *m, uint64_t hash);

/* The entry whose name matches NAME (by fh_name_key), or NULL. */
struct fh_entry *fh_manifest_find(const struct fh_manifest *m,
				  const char *name, size_t len);
/* The same, the name's hash given (fh_manifest_name_hash). */
struct fh_entry *fh_manifest_find_hashed(const struct fh_manifest *m, uint64_t hash,
					 const char *name, size_t len);

/* Indexes by digest the entries that are expected and were not seen: the
 * missing ones, that new names may pair with.  False when memory runs
 * out. */
bool fh_manifest_index_missing(struct fh_manifest *m);

/* The first missing entry, in list order, with ALGO's digest DIGEST
 * (OUTLEN bytes) that no new name took yet: marked paired and returned;
 * NULL if none. */
struct fh_entry *fh_manifest_pair(struct fh_manifest *m, int algo,
				  const uint8_t *digest, size_t outlen);

/* What a file is against its entry. */
enum fh_status {
	FH_ST_OK,
	FH_ST_CHANGED,
	FH_ST_DAMAGED,
	FH_ST_NEW,
	FH_ST_MISSING,
	FH_ST_MOVED,
	FH_ST_UNREADABLE,
};

/* Classifies a file of entry E whose digest came out DIGEST (E's algorithm
 * and length), with its metadata taken BEFORE and AFTER the read (either
 * NULL: unknown).  Equal digests: OK.  Else DAMAGED when E has metadata
 * that both stats equal (the content changed under the same size and
 * time), CHANGED otherwise: a file that changed while it was read is never
 * DAMAGED. */
enum fh_status fh_classify(const struct fh_entry *e, const uint8_t *digest,
			   const struct fh_meta *before,
			   const struct fh_meta *after);

/* The report's word for S: "OK", "CHANGED"... */
const char *fh_status_word(enum fh_status s);

#endif
