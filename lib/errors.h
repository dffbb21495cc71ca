/* errors.h: the codes fhsum's parts return beside errno values.  Errno
 * values are positive; these are negative, and listed here alone, so that
 * no two of them share a number and any of them can pass from the engine
 * through the command to fh_strerror (cmd/out.c).  Internal: the installed
 * library returns none of them. */
#ifndef FH_ERRORS_H
#define FH_ERRORS_H

enum fh_err {
	/* The engine's, in fh_job.err. */
	FH_ESHRANK = -1,        /* the file shrank while it was mapped */
	FH_ENOMAP = -2,         /* a window could not be mapped: read on
				 * (never leaves lib/engine/input.c) */
	FH_ECHANGED = -3,       /* a WATCHed file's size or mtime changed as
				 * it was read */
	FH_ENOTREG = -4,        /* a WATCHed input is neither a regular file
				 * nor a directory (EISDIR): not read */
	/* The command's. */
	FH_ENAMEFROM = -10,     /* a name of a names file too long to open,
				 * reported by a description, not the name */
	FH_ELIST_MOVED = -20,   /* the list changed under the lock (said) */
	FH_ELIST_UNSETTLED = -22, /* a digest to write is of a length left
				   * to settle, and nothing settled it */
	FH_ELIST_NOT_REGULAR = -23, /* a list to write is no regular file */
	FH_ELIST_BUSY = -24,    /* another run holds the list (--no-wait) */
	FH_ELIST_LOCK = -25,    /* the lock failed (fh_listfile.err: why) */
	FH_ELIST_DIR = -26,     /* its directory cannot be written in
				 * (fh_listfile.err: why) */
	FH_ELIST_SIGNED = -27,  /* a list to write is clear-signed: a
				 * rewrite would void its signature */
	FH_ELIST_NUL = -28,     /* a line of the list holds a NUL byte (a
				 * list written with -z): not kept */
	/* The engine's slots: not an error, a "not now" (lib/engine/slots.h). */
	FH_SLOT_NOT_NOW = -1000,
};

#endif
