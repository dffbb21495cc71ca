/* faultfs.c: the fault-injection suite's FUSE file system.  A read-only
 * pass-through of a backing directory whose files can misbehave, one way
 * per file, as a control file says: reads that fail with EIO from an
 * offset, opens that fail, short reads, a file that shrinks or grows while
 * it is read, reads that answer slowly.  The tests write real files into
 * the backing directory and take their expected digests from those, with
 * tools that owe nothing to fhsum; only fhsum reads through the mount.
 *
 *     faultfs CONTROL BACKING MOUNTPOINT [-f] [-o OPTIONS]
 *
 * CONTROL is re-read whenever it changed and at every open, so one mount
 * serves many cases; an open also resets that file's trip state and
 * counters.  One line per file, NAME (relative to the mount's root; `*`
 * for every file without a line of its own) then faults:
 *
 *     eio=OFF        a read reaching past byte OFF fails with EIO (the
 *                    whole request: the kernel then retries page by page,
 *                    so every byte before OFF can still be read)
 *     open=ERR       open fails with ERR: EACCES, EIO, ENOENT, EMFILE or
 *                    a number
 *     short=N        each read returns at most N bytes; implies direct
 *     cached         no direct_io, even with short=N (after it)
 *     direct         open with direct_io: reads reach faultfs with the
 *                    caller's offsets and counts and their results reach
 *                    the caller unchanged.  A MAP_SHARED mapping of such a
 *                    file fails with ENODEV (libfuse 3.14 cannot ask for
 *                    FUSE_DIRECT_IO_ALLOW_MMAP), so a mapping reader
 *                    falls back to read(2)
 *     shrink=AT:TO   once a read reaches past AT, the file's size is TO
 *                    (getattr says so, reads end there)
 *     grow=AT:FROM   the file shows FROM bytes until a read reaches past
 *                    AT, then its whole backing size
 *     slow=MS        each read sleeps MS milliseconds first (interrupted,
 *                    with EINTR, when the kernel forwards a signal)
 *
 * Without direct_io the kernel reads through the page cache and takes a
 * short answer for the end of the file: it sets the inode's size to where
 * the answer stopped (fuse_short_read) and the rest of the request's pages
 * count as read; the next getattr gives the size back.  So a short read
 * there is a shrink, not a short read, and what a reader gets depends on
 * the sizes: tried on Linux 6.18 with `short=N cached` on a 12 MiB file,
 * N = 1000 gave md5sum (and fhsum --no-mmap) the digest of the first
 * 1000 bytes with status 0; N = 4096 gave md5sum the right digest and a
 * mapping reader SIGBUS; N = 131072 gave md5sum a wrong digest, status 0.
 * That is why short=N implies direct.
 *
 * The mount's root also answers for a file it does not list, ".faultfs":
 * one line per file opened since the mount, "NAME reads=R eio=E
 * bytes=B intr=I tripped=T inflight=F", counted from that file's last
 * open (F: reads being answered now).  The tests print it when a case
 * fails: a kernel that retries a failing read without end shows as a
 * large eio count.  And they wait for F to fall to 0 after killing a
 * run: an open invalidates the file's page cache, which waits, in an
 * uninterruptible sleep, for the pages that a read still in flight (one
 * that a killed process left behind) holds locked.
 *
 * Attribute and entry timeouts are 0 and no page cache is kept across
 * opens, so every open reads from faultfs and every stat sees the size
 * the faults give. */
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define STATS_NAME "/.faultfs"

struct faults {
	long long eio;          /* -1: none */
	int open_err;           /* 0: none */
	long long short_n;      /* 0: none */
	bool direct;
	long long shrink_at, shrink_to;  /* -1: none */
	long long grow_at, grow_from;    /* -1: none */
	long slow_ms;
};

static const struct faults no_faults = {
	.eio = -1, .shrink_at = -1, .shrink_to = -1, .grow_at = -1,
	.grow_from = -1,
};

/* One file named in the control file or opened through the mount.  Nodes
 * live until faultfs exits: a test mount sees a few hundred names. */
struct node {
	struct node *next;
	char *path;             /* "/NAME", as FUSE passes it */
	struct faults f;
	bool listed;            /* has a line of its own */
	bool opened;
	bool tripped;           /* shrink or grow has happened */
	unsigned long long reads, eios, bytes, intrs;
	unsigned inflight;      /* reads being answered now */
};

static struct {
	const char *control;
	const char *backing;
	pthread_mutex_t lock;
	struct node *nodes;
	struct faults any;      /* the `*` line */
	struct timespec mtime;  /* the control file's, when last parsed */
	ino_t ino;
	off_t size;
} fs = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Under fs.lock. */
static struct node *find(const char *path, bool make)
{
	struct node *n;

	for (n = fs.nodes; n; n = n->next)
		if (strcmp(n->path, path) == 0)
			return n;
	if (!make)
		return NULL;
	n = calloc(1, sizeof *n);
	if (!n || !(n->path = strdup(path))) {
		free(n);
		return NULL;
	}
	n->f = fs.any;
	n->next = fs.nodes;
	fs.nodes = n;
	return n;
}

static int parse_errno(const char *s)
{
	static const struct { const char *name; int err; } names[] = {
		{ "EACCES", EACCES }, { "EIO", EIO }, { "ENOENT", ENOENT },
		{ "EMFILE", EMFILE }, { "ENOMEM", ENOMEM }, { "EPERM", EPERM },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].err;
	return atoi(s);
}

/* Parses one fault word into F; false if it is not one. */
static bool parse_fault(const char *w, struct faults *f)
{
	if (sscanf(w, "eio=%lld", &f->eio) == 1)
		return true;
	if (strncmp(w, "open=", 5) == 0)
		return (f->open_err = parse_errno(w + 5)) > 0;
	if (sscanf(w, "short=%lld", &f->short_n) == 1)
		return f->direct = f->short_n > 0;
	if (strcmp(w, "direct") == 0)
		return f->direct = true;
	if (strcmp(w, "cached") == 0)
		return !(f->direct = false);
	if (sscanf(w, "shrink=%lld:%lld", &f->shrink_at, &f->shrink_to) == 2)
		return true;
	if (sscanf(w, "grow=%lld:%lld", &f->grow_at, &f->grow_from) == 2)
		return true;
	if (sscanf(w, "slow=%ld", &f->slow_ms) == 1)
		return true;
	return false;
}

static bool same_faults(const struct faults *a, const struct faults *b)
{
	return a->eio == b->eio && a->open_err == b->open_err &&
	       a->short_n == b->short_n && a->direct == b->direct &&
	       a->shrink_at == b->shrink_at && a->shrink_to == b->shrink_to &&
	       a->grow_at == b->grow_at && a->grow_from == b->grow_from &&
	       a->slow_ms == b->slow_ms;
}

/* Gives N the faults F; a file whose faults change starts untripped. */
static void set_faults(struct node *n, const struct faults *f)
{
	if (!same_faults(&n->f, f))
		n->tripped = false;
	n->f = *f;
}

/* Re-reads the control file if it changed since it was last read (or
 * FORCE); under fs.lock.  A file no line names loses its faults. */
static void load_control(bool force)
{
	struct stat st;
	FILE *fp;
	char line[4096];

	if (stat(fs.control, &st) != 0) {
		memset(&st, 0, sizeof st);
	} else if (!force && st.st_ino == fs.ino && st.st_size == fs.size &&
		   st.st_mtim.tv_sec == fs.mtime.tv_sec &&
		   st.st_mtim.tv_nsec == fs.mtime.tv_nsec) {
		return;
	}
	fs.ino = st.st_ino;
	fs.size = st.st_size;
	fs.mtime = st.st_mtim;
	fs.any = no_faults;
	for (struct node *n = fs.nodes; n; n = n->next)
		n->listed = false;
	fp = fopen(fs.control, "r");
	while (fp && fgets(line, sizeof line, fp)) {
		char *save = NULL, *name = strtok_r(line, " \t\n", &save);
		char path[PATH_MAX];
		struct faults f = no_faults;
		struct node *n;

		if (!name || name[0] == '#')
			continue;
		for (char *w; (w = strtok_r(NULL, " \t\n", &save));)
			if (!parse_fault(w, &f))
				fprintf(stderr, "faultfs: %s: unknown fault '%s'\n",
					name, w);
		if (strcmp(name, "*") == 0) {
			fs.any = f;
			continue;
		}
		snprintf(path, sizeof path, "/%s", name);
		if ((n = find(path, true))) {
			set_faults(n, &f);
			n->listed = true;
		}
	}
	if (fp)
		fclose(fp);
	for (struct node *n = fs.nodes; n; n = n->next)
		if (!n->listed)
			set_faults(n, &fs.any);
}

static bool any_faults(const struct faults *f)
{
	return f->eio >= 0 || f->open_err || f->short_n || f->direct ||
	       f->shrink_at >= 0 || f->grow_at >= 0 || f->slow_ms > 0;
}

/* The faults of PATH now, and the node that holds its state (NULL if
 * none: no faults).  Under fs.lock. */
static struct node *node_of(const char *path)
{
	load_control(false);
	struct node *n = find(path, false);

	if (!n && any_faults(&fs.any))
		n = find(path, true);
	return n;
}

static void backing_path(char *out, size_t cap, const char *path)
{
	snprintf(out, cap, "%s%s", fs.backing, path);
}

/* The size the faults give a file whose backing size is REAL. */
static off_t shown_size(const struct node *n, off_t real)
{
	if (!n)
		return real;
	if (n->f.shrink_at >= 0 && n->tripped && n->f.shrink_to < real)
		return n->f.shrink_to;
	if (n->f.grow_at >= 0 && !n->tripped && n->f.grow_from < real)
		return n->f.grow_from;
	return real;
}

static int ff_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	(void)fi;
	if (strcmp(path, STATS_NAME) == 0) {
		memset(st, 0, sizeof *st);
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		return 0;
	}
	backing_path(p, sizeof p, path);
	if (lstat(p, st) != 0)
		return -errno;
	if (S_ISREG(st->st_mode)) {
		pthread_mutex_lock(&fs.lock);
		st->st_size = shown_size(node_of(path), st->st_size);
		pthread_mutex_unlock(&fs.lock);
	}
	return 0;
}

static int ff_readlink(const char *path, char *buf, size_t size)
{
	char p[PATH_MAX];
	ssize_t n;

	backing_path(p, sizeof p, path);
	n = readlink(p, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	char p[PATH_MAX];
	DIR *d;
	struct dirent *e;

	(void)off;
	(void)fi;
	(void)flags;
	backing_path(p, sizeof p, path);
	if (!(d = opendir(p)))
		return -errno;
	while ((e = readdir(d))) {
		struct stat st = { .st_ino = e->d_ino,
				   .st_mode = (mode_t)DTTOIF(e->d_type) };

		if (fill(buf, e->d_name, &st, 0, 0))
			break;
	}
	closedir(d);
	return 0;
}

/* An open file: the backing descriptor and the node of its faults. */
struct handle {
	int fd;
	struct node *node;      /* NULL: no faults */
	bool stats;
};

static int ff_open(const char *path, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	struct handle *h;
	struct node *n;

	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	if (!(h = calloc(1, sizeof *h)))
		return -ENOMEM;
	h->fd = -1;
	if (strcmp(path, STATS_NAME) == 0) {
		h->stats = true;
		fi->direct_io = 1;
		fi->fh = (uintptr_t)h;
		return 0;
	}
	pthread_mutex_lock(&fs.lock);
	load_control(true);
	n = find(path, true);
	if (n) {
		n->opened = true;
		n->tripped = false;
		n->reads = n->eios = n->bytes = n->intrs = 0;
	}
	if (n && n->f.open_err) {
		int err = n->f.open_err;

		pthread_mutex_unlock(&fs.lock);
		free(h);
		return -err;
	}
	if (n && n->f.direct)
		fi->direct_io = 1;
	pthread_mutex_unlock(&fs.lock);
	backing_path(p, sizeof p, path);
	if ((h->fd = open(p, O_RDONLY)) < 0) {
		int err = errno;

		free(h);
		return -err;
	}
	h->node = n;
	fi->fh = (uintptr_t)h;
	return 0;
}

/* The stats file's text, from offset OFF. */
static int read_stats(char *buf, size_t size, off_t off)
{
	size_t cap = 4096, len = 0;
	char *text = malloc(cap);
	int n;

	if (!text)
		return -ENOMEM;
	pthread_mutex_lock(&fs.lock);
	for (struct node *nd = fs.nodes; nd; nd = nd->next) {
		if (!nd->opened)
			continue;
		for (;;) {
			n = snprintf(text + len, cap - len,
				     "%s reads=%llu eio=%llu bytes=%llu intr=%llu tripped=%d inflight=%u\n",
				     nd->path + 1, nd->reads, nd->eios,
				     nd->bytes, nd->intrs, nd->tripped,
				     nd->inflight);
			if (n >= 0 && (size_t)n < cap - len)
				break;
			char *t = realloc(text, cap *= 2);

			if (!t) {
				pthread_mutex_unlock(&fs.lock);
				free(text);
				return -ENOMEM;
			}
			text = t;
		}
		len += (size_t)n;
	}
	pthread_mutex_unlock(&fs.lock);
	n = 0;
	if ((size_t)off < len) {
		n = (int)(len - (size_t)off < size ? len - (size_t)off : size);
		memcpy(buf, text + off, (size_t)n);
	}
	free(text);
	return n;
}

/* Sleeps MS milliseconds unless the request is interrupted first. */
static bool slow_down(long ms)
{
	struct timespec slice = { 0, 10 * 1000 * 1000 };

	for (long left = ms; left > 0; left -= 10) {
		if (fuse_interrupted())
			return false;
		if (left < 10)
			slice.tv_nsec = left * 1000 * 1000;
		nanosleep(&slice, NULL);
	}
	return !fuse_interrupted();
}

/* A read of H as its faults have it. */
static int read_faulty(struct handle *h, char *buf, size_t size, off_t off)
{
	struct node *n = h->node;
	struct faults f = no_faults;
	struct stat st;
	long long limit;
	size_t want, got = 0;

	if (fstat(h->fd, &st) != 0)
		return -errno;
	limit = st.st_size;
	if (n) {
		pthread_mutex_lock(&fs.lock);
		f = n->f;
		n->reads++;
		pthread_mutex_unlock(&fs.lock);
	}
	if (f.slow_ms > 0 && !slow_down(f.slow_ms)) {
		pthread_mutex_lock(&fs.lock);
		n->intrs++;
		pthread_mutex_unlock(&fs.lock);
		return -EINTR;
	}
	if (n) {
		pthread_mutex_lock(&fs.lock);
		if (f.eio >= 0 && off + (long long)size > f.eio) {
			n->eios++;
			pthread_mutex_unlock(&fs.lock);
			return -EIO;
		}
		if (f.shrink_at >= 0 && off + (long long)size > f.shrink_at)
			n->tripped = true;
		if (f.grow_at >= 0 && off + (long long)size > f.grow_at)
			n->tripped = true;
		limit = shown_size(n, (off_t)limit);
		pthread_mutex_unlock(&fs.lock);
	}
	if (off >= limit)
		return 0;
	want = limit - off < (long long)size ? (size_t)(limit - off) : size;
	if (f.short_n > 0 && (long long)want > f.short_n)
		want = (size_t)f.short_n;
	while (got < want) {
		ssize_t r = pread(h->fd, buf + got, want - got, off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (n) {
		pthread_mutex_lock(&fs.lock);
		n->bytes += got;
		pthread_mutex_unlock(&fs.lock);
	}
	return (int)got;
}

static int ff_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	int r;

	(void)path;
	if (h->stats)
		return read_stats(buf, size, off);
	if (h->node) {
		pthread_mutex_lock(&fs.lock);
		h->node->inflight++;
		pthread_mutex_unlock(&fs.lock);
	}
	r = read_faulty(h, buf, size, off);
	if (h->node) {
		pthread_mutex_lock(&fs.lock);
		h->node->inflight--;
		pthread_mutex_unlock(&fs.lock);
	}
	return r;
}

static int ff_release(const char *path, struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;

	(void)path;
	if (h->fd >= 0)
		close(h->fd);
	free(h);
	return 0;
}

static int ff_statfs(const char *path, struct statvfs *sv)
{
	char p[PATH_MAX];

	backing_path(p, sizeof p, path);
	return statvfs(p, sv) ? -errno : 0;
}

static void *ff_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->kernel_cache = 0;
	cfg->auto_cache = 0;
	cfg->use_ino = 1;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = ff_init,
	.getattr = ff_getattr,
	.readlink = ff_readlink,
	.readdir = ff_readdir,
	.open = ff_open,
	.read = ff_read,
	.release = ff_release,
	.statfs = ff_statfs,
};

int main(int argc, char **argv)
{
	static char backing[PATH_MAX], control[PATH_MAX];

	if (argc < 4) {
		fprintf(stderr,
			"usage: faultfs CONTROL BACKING MOUNTPOINT [FUSE OPTIONS]\n");
		return 2;
	}
	if (!realpath(argv[1], control)) {
		perror(argv[1]);
		return 1;
	}
	if (!realpath(argv[2], backing)) {
		perror(argv[2]);
		return 1;
	}
	fs.control = control;
	fs.backing = backing;
	fs.any = no_faults;
	argv[2] = argv[0];
	return fuse_main(argc - 2, argv + 2, &ops, NULL);
}
