/* listfile.h: a checksum list that fhsum rewrites (--update), held from
 * its read to its replacement.
 *
 * The list is found where it really is (a symlink is followed to its
 * target), refused when it is not a regular file, and locked for the
 * whole read-modify-write, so that two writers never interleave.  Its new
 * text is written beside it and renamed over it: the list is always the
 * old one or the new one. */
#ifndef FH_LISTFILE_H
#define FH_LISTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct fh_listfile {
	const char *name;       /* as the user named it, for messages */
	char *path;             /* where it is, symlinks followed */
	size_t dirlen;          /* PATH's directory part, with its '/' */
	char *dir;              /* that directory ("." for none), for calls */
	int fd;                 /* open on it and locked, or -1 */
	struct stat st;         /* its state when locked */
	bool exists;            /* false: it did not exist (FD is an empty
				 * placeholder made to hold the lock) */
	int err;                /* FH_ELIST_LOCK, FH_ELIST_DIR: the errno */
	int stray_err;          /* a leftover temporary file that could not
				 * be removed: why (0: none) */
};

/* Finds, checks and locks the list NAME, waiting for another writer
 * unless NO_WAIT; removes what a killed writer of it left behind.
 * Returns 0, or why the list cannot be written: an errno value,
 * FH_ELIST_NOT_REGULAR, FH_ELIST_BUSY or FH_ELIST_LOCK (errors.h).
 * Says nothing itself. */
int fh_listfile_lock(struct fh_listfile *l, const char *name, bool no_wait);

/* Whether the directory the list is replaced in lets it be, so that
 * nothing is hashed in vain: 0, or FH_ELIST_DIR. */
int fh_listfile_writable(struct fh_listfile *l);
/* That directory as messages name it. */
const char *fh_listfile_dir_shown(const struct fh_listfile *l);

/* The new text, written to a file beside the list. */
struct fh_listout {
	int fd;
	int err;                /* the first write error, or 0 */
	size_t used;
	uint64_t written;       /* bytes written to FD */
	uint64_t flushed;       /* of which handed to writeback (drain) */
	/* The text comes over a long run (a scrub's, as it verifies): each
	 * stretch of it is made durable as it comes, not at the commit. */
	bool paced;
	char *tmp;              /* the temporary name, once it has one */
	bool anonymous;         /* no name yet (O_TMPFILE) */
	char buf[1 << 16];
};

/* Starts the new text: 0, or an errno value. */
int fh_listout_open(const struct fh_listfile *l, struct fh_listout *o);
void fh_listout_put(struct fh_listout *o, const void *p, size_t n);

/* Makes the new text the list: refused (FH_ELIST_MOVED) if the list
 * changed under the lock; 0, or an errno value. The temporary file is
 * gone either way. */
int fh_listout_commit(struct fh_listfile *l, struct fh_listout *o);

/* Unlocks the list; a placeholder that was never written is removed. */
void fh_listfile_release(struct fh_listfile *l);

#endif
