/* listfile.c: holding a checksum list through its rewrite.
 *
 * The lock is flock(2) on the list's own file.  The rewrite replaces that
 * file by a rename, so a writer that waited for the lock checks, once it
 * has it, that the name still leads to the file it locked, and starts
 * over when it does not.  A list that does not exist yet is created empty
 * to carry the lock, and removed again if nothing is written.  The new
 * text goes to a temporary file in the list's directory: anonymous where
 * the system has O_TMPFILE (named only just before the rename), else
 * .LIST.fhsum-XXXXXX; a writer killed at the wrong moment leaves such a
 * file, which the next writer of the list removes under the lock. */
#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "errors.h"
#include "listfile.h"
#include "operands.h"
#include "platform.h"
#include "quote.h"

#define SUFFIX ".fhsum-"
#define SUFFIX_X 6 /* the random characters after it */

/* NAME with its symbolic links followed, as far as they lead (a link to
 * a list not yet made leads to where it will be): a new string, or NULL
 * with errno set. */
static char *follow(const char *name)
{
	char *path = strdup(name);

	for (int hops = 0; path; hops++) {
		struct stat st;

		if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
			return path;
		if (hops == 40) {
			free(path);
			errno = ELOOP;
			return NULL;
		}
		char *to = malloc((size_t)st.st_size + 2);
		ssize_t n = to ? readlink(path, to, (size_t)st.st_size + 1) : -1;

		if (n < 0 || n > st.st_size) {
			free(to);
			free(path);
			if (n > st.st_size)
				errno = EAGAIN; /* it changed as it was read */
			return NULL;
		}
		to[n] = '\0';
		/* /dev/stdout and its kin lead to a descriptor, not to a
		 * file of their own: never replaced. */
		if (strncmp(to, "/proc/", 6) == 0 || strncmp(to, "/dev/fd/", 8) == 0) {
			free(to);
			free(path);
			errno = ENOTSUP;
			return NULL;
		}
		const char *slash = strrchr(path, '/');

		if (to[0] != '/' && slash) {
			/* Relative to the link's directory. */
			size_t dl = (size_t)(slash - path) + 1;
			char *joined = malloc(dl + (size_t)n + 1);

			if (joined) {
				memcpy(joined, path, dl);
				memcpy(joined + dl, to, (size_t)n + 1);
			}
			free(to);
			to = joined;
		}
		free(path);
		path = to;
	}
	return NULL;
}

/* Whether ENTRY is a temporary file a writer of the list BASE left:
 * "." BASE ".fhsum-" and six characters. */
static bool is_leftover(const char *entry, const char *base, size_t blen)
{
	size_t n = strlen(entry);

	return n == 1 + blen + sizeof SUFFIX - 1 + SUFFIX_X && entry[0] == '.' &&
	       memcmp(entry + 1, base, blen) == 0 &&
	       memcmp(entry + 1 + blen, SUFFIX, sizeof SUFFIX - 1) == 0;
}

/* Removes the list's leftover temporary files (the lock is held, so no
 * writer is using one). */
static void remove_leftovers(struct fh_listfile *l)
{
	const char *base = l->path + l->dirlen;
	size_t blen = strlen(base);
	DIR *d = opendir(l->dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (!is_leftover(de->d_name, base, blen))
			continue;
		struct stat st;

		/* Only regular files: a name like that on anything else is
		 * not ours. */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && unlinkat(dirfd(d), de->d_name, 0) != 0 &&
		    !l->stray_err)
			l->stray_err = errno;
	}
	closedir(d);
}

int fh_listfile_lock(struct fh_listfile *l, const char *name, bool no_wait)
{
	memset(l, 0, sizeof *l);
	l->name = name;
	l->fd = -1;
	l->path = follow(name);
	if (!l->path)
		return errno == ENOTSUP ? FH_ELIST_NOT_REGULAR : errno;
	const char *slash = strrchr(l->path, '/');

	l->dirlen = slash ? (size_t)(slash - l->path) + 1 : 0;
	/* Its directory, held from here on: the writing allocates nothing
	 * for it, so a refused allocation there cannot turn an anonymous
	 * temporary file into a named one. */
	l->dir = l->dirlen ? strndup(l->path, l->dirlen) : strdup(".");
	if (!l->dir)
		fh_out_of_memory();
	for (;;) {
		bool made = false;
		int fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

		if (fd < 0 && errno == ENOENT) {
			fd = open(l->path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
			if (fd < 0 && errno == EEXIST)
				continue; /* made by another run just now */
			made = fd >= 0;
		}
		if (fd < 0)
			return errno;
		if (fstat(fd, &l->st) != 0) {
			int err = errno;

			close(fd);
			return err;
		}
		if (!S_ISREG(l->st.st_mode)) {
			/* A device, a FIFO, a directory: a rename would put a
			 * file in its place. */
			close(fd);
			return S_ISDIR(l->st.st_mode) ? EISDIR : FH_ELIST_NOT_REGULAR;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			if (errno != EWOULDBLOCK || no_wait) {
				l->err = errno;
				close(fd);
				return l->err == EWOULDBLOCK ? FH_ELIST_BUSY : FH_ELIST_LOCK;
			}
			if (flock(fd, LOCK_EX) != 0) {
				l->err = errno;
				close(fd);
				return FH_ELIST_LOCK;
			}
		}
		/* Still the list, not a file a writer replaced while this
		 * one waited? */
		struct stat now;

		if (stat(l->path, &now) == 0 && now.st_dev == l->st.st_dev &&
		    now.st_ino == l->st.st_ino) {
			fstat(fd, &l->st);
			l->fd = fd;
			l->exists = !made;
			break;
		}
		close(fd);
	}
	remove_leftovers(l);
	return 0;
}

int fh_listfile_writable(struct fh_listfile *l)
{
	if (access(l->dir, W_OK | X_OK) == 0)
		return 0;
	l->err = errno;
	return FH_ELIST_DIR;
}

const char *fh_listfile_dir_shown(const struct fh_listfile *l)
{
	return l->dir;
}

int fh_listout_open(const struct fh_listfile *l, struct fh_listout *o)
{
	o->fd = -1;
	o->err = 0;
	o->used = 0;
	o->written = o->flushed = 0;
	o->paced = false;
	o->anonymous = false;
	o->tmp = malloc(strlen(l->path) + sizeof SUFFIX + SUFFIX_X + 2);
	if (!o->tmp)
		return ENOMEM;
	memcpy(o->tmp, l->path, l->dirlen);
	sprintf(o->tmp + l->dirlen, ".%s" SUFFIX "XXXXXX", l->path + l->dirlen);
	/* Anonymous where the system can (named only at the commit), else
	 * by mkstemp. */
	o->fd = fh_anon_open(l->dir);
	o->anonymous = o->fd >= 0;
	if (o->fd < 0)
		o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		int err = errno;

		free(o->tmp);
		o->tmp = NULL;
		return err;
	}
	return 0;
}

/* Written back this far ahead of the fsync: the disk writes the text
 * while the rest of it is made.  Paced, each stretch is made durable: a
 * disk with a write cache (a virtual disk, most SSDs) then holds little
 * to flush at the fsync, which otherwise takes the time of the whole
 * text (about 10 ms for 12 MB on a virtio disk with its data already
 * written back, 2.7 ms after fdatasync every 2 MiB). */
#define FLUSH_EVERY ((uint64_t)2 << 20)

static void drain(struct fh_listout *o)
{
	size_t off = 0;

	while (off < o->used && !o->err) {
		ssize_t got = write(o->fd, o->buf + off, o->used - off);

		if (got < 0 && errno != EINTR)
			o->err = errno;
		else if (got > 0)
			off += (size_t)got;
	}
	o->written += off;
	o->used = 0;
	if (o->err || o->written - o->flushed < FLUSH_EVERY)
		return;
	if (o->paced)
		o->err = fh_data_sync(o->fd);
	else /* a hint: the fsync at the commit is what counts */
		fh_write_back(o->fd, (off_t)o->flushed, (off_t)(o->written - o->flushed));
	o->flushed = o->written;
}

void fh_listout_put(struct fh_listout *o, const void *p, size_t n)
{
	while (n && !o->err) {
		size_t k = sizeof o->buf - o->used < n ? sizeof o->buf - o->used : n;

		memcpy(o->buf + o->used, p, k);
		o->used += k;
		p = (const char *)p + k;
		n -= k;
		if (o->used == sizeof o->buf)
			drain(o);
	}
}

/* Gives the anonymous file its temporary name, through /proc: the one
 * moment of the rewrite a kill can leave a file behind.  0 or an errno. */
static int name_it(struct fh_listout *o)
{
	char *x = o->tmp + strlen(o->tmp) - SUFFIX_X;

	for (unsigned i = 0; i < 100; i++) {
		snprintf(x, SUFFIX_X + 1, "%06x",
			 (unsigned)((getpid() * 2654435761u + i * 40503u) & 0xffffff));
		int err = fh_anon_link(o->fd, o->tmp);

		if (!err)
			o->anonymous = false;
		if (err != EEXIST)
			return err;
	}
	return EEXIST;
}

int fh_listout_commit(struct fh_listfile *l, struct fh_listout *o)
{
	int err = 0;

	drain(o);
	err = o->err;
	/* The owner, group and mode of the list it replaces (or of a new
	 * file); an owner this user cannot give is not given. */
	if (!err) {
		mode_t mode = l->st.st_mode & 07777;

		if (!l->exists) {
			mode_t mask = umask(0);

			umask(mask);
			mode = 0666 & ~mask;
		} else if (fchown(o->fd, l->st.st_uid, l->st.st_gid) != 0 &&
			   fchown(o->fd, (uid_t)-1, l->st.st_gid) != 0) {
			/* Not ours to give: the mode still is. */
		}
		if (fchmod(o->fd, mode) != 0)
			err = errno;
	}
	if (!err && fsync(o->fd) != 0)
		err = errno;
	/* Changed under the lock (by hand, or by a writer that does not
	 * lock): that change would be lost. */
	struct stat now, path_now;

	if (!err && l->exists && fstat(l->fd, &now) != 0)
		err = errno;
	if (!err && l->exists) {
		int64_t s0, s1;
		uint32_t n0, n1;

		fh_stat_mtime(&l->st, &s0, &n0);
		fh_stat_mtime(&now, &s1, &n1);
		if (stat(l->path, &path_now) != 0 || path_now.st_ino != l->st.st_ino ||
		    path_now.st_dev != l->st.st_dev || now.st_size != l->st.st_size ||
		    s0 != s1 || n0 != n1) {
			err = FH_ELIST_MOVED;
		}
	}
	/* Named and at once renamed: a kill leaves the temporary file behind
	 * only between the two calls.  It is closed after: the fsync has said
	 * whether its text is on the disk. */
	if (!err && o->anonymous)
		err = name_it(o);
	if (!err && rename(o->tmp, l->path) != 0)
		err = errno;
	close(o->fd);
	o->fd = -1;
	if (err) {
		if (!o->anonymous)
			unlink(o->tmp);
	} else {
		/* The rename reaches the disk with its directory. */
		int dfd = open(l->dir, O_RDONLY | O_CLOEXEC);

		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		l->exists = true; /* the placeholder is the list now */
	}
	free(o->tmp);
	o->tmp = NULL;
	return err;
}

void fh_listfile_release(struct fh_listfile *l)
{
	if (l->fd >= 0) {
		/* A placeholder that still is one goes, under the lock. */
		struct stat now;

		if (!l->exists && stat(l->path, &now) == 0 &&
		    now.st_ino == l->st.st_ino && now.st_dev == l->st.st_dev &&
		    now.st_size == 0)
			unlink(l->path);
		close(l->fd);
	}
	l->fd = -1;
	free(l->path);
	l->path = NULL;
	free(l->dir);
	l->dir = NULL;
}
