/* listread.h: a checksum list read whole, fast: its lines parsed on a
 * thread of their own while the caller takes the entries in. */
#ifndef FH_LISTREAD_H
#define FH_LISTREAD_H

#include <stdint.h>

#include "list/checklist.h"
#include "list/manifest.h"

struct fh_hashdeep;

/* What the reading hands over, in line order, on the caller's thread. */
struct fh_list_reading {
	void *ctx;
	/* Each entry: its line, its name's hash (fh_manifest_name_hash),
	 * its digest (L->outlen bytes) and metadata (NULL: none). */
	void (*each)(void *ctx, struct fh_list_line *l, uint64_t hash,
		     const uint8_t *digest, const struct fh_meta *meta,
		     uint64_t lineno);
	/* Each improperly formatted line (NULL: not wanted). */
	void (*bad)(void *ctx, uint64_t lineno);
	/* A name's hash a few lines ahead of EACH (NULL: not wanted). */
	void (*prefetch)(void *ctx, uint64_t hash);
	/* Where to count the lines of a clear-signed list outside its
	 * signed part, which are not read (NULL: the armour is read as any
	 * other lines are; set only where the parser reads published
	 * lists). */
	uint64_t *outside;
	/* Where a list that begins as hashdeep's does is read by its rules,
	 * into which its columns go (hashdeep.h), its rows handed to EACH
	 * with their row bytes as the digest; NULL: every list is read as a
	 * GNU list. */
	struct fh_hashdeep *hashdeep;
	/* An SFV list: "NAME CRC32" lines, ';' comments (shapes.h). */
	bool sfv;
	/* Where to count the lines that hold a NUL byte (NULL: not
	 * counted; they are parsed as any other, as GNU reads them). */
	uint64_t *nul_lines;
};

/* Reads the list FD to its end with PARSER (its state carried over, and
 * left there at the end: the "#fhsum" lines' declarations).  0, or an
 * errno value (ENOMEM; a read error's). */
int fh_list_read(int fd, struct fh_list_parser *parser, const struct fh_list_reading *how);

#endif
