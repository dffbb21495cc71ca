/* test_walk.c: the threaded tree walk (lib/walk/walk.c) against a plain
 * recursive walk written here (readdir, qsort by strcmp, lstat): the same
 * names in the same order with the same sizes, for 0, 2 and 8 threads and
 * a look-ahead of 1, 7 and the default entries (the smallest keeps the
 * workers throttled nearly all the time), with a skip rule for names and
 * one for directories; and walks given up halfway, then started again or
 * freed, with workers still listing. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "walk.h"

struct names {
	char **v;
	long long *size;
	size_t n, cap;
};

static void add(struct names *s, const char *p, long long size)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		s->size = realloc(s->size, s->cap * sizeof *s->size);
		if (!s->v || !s->size)
			abort();
	}
	s->v[s->n] = strdup(p);
	s->size[s->n++] = size;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	free(s->size);
	*s = (struct names){ 0 };
}

/* The test's skip rule: names starting "x" anywhere, directories named
 * "skipd". */
static bool skip(void *ctx, const char *rel, size_t len, bool is_dir)
{
	const char *base = strrchr(rel, '/');

	(void)ctx;
	(void)len;
	base = base ? base + 1 : rel;
	return base[0] == 'x' || (is_dir && strcmp(base, "skipd") == 0);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The reference walk. */
static void ref_walk(const char *dir, size_t rel_at, bool use_skip, struct names *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;

	if (!d)
		abort();
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		v = realloc(v, (n + 1) * sizeof *v);
		v[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof *v, by_str);
	for (size_t i = 0; i < n; i++) {
		char p[4096];
		struct stat st;

		snprintf(p, sizeof p, "%s/%s", dir, v[i]);
		if (lstat(p, &st) != 0)
			abort();
		bool is_dir = S_ISDIR(st.st_mode);

		if (use_skip && (skip(NULL, p + rel_at, strlen(p + rel_at), false) ||
				 (is_dir && skip(NULL, p + rel_at, strlen(p + rel_at), true)))) {
			free(v[i]);
			continue;
		}
		if (is_dir)
			ref_walk(p, rel_at, use_skip, out);
		else if (S_ISREG(st.st_mode))
			add(out, p, (long long)st.st_size);
		free(v[i]);
	}
	free(v);
}

/* A tree of DIRS directories under ROOT, nested up to 6 deep, files of
 * random sizes, names that sort apart from their paths, links. */
static void make_tree(const char *root, struct tu_rng *r)
{
	static const char *names[] = { "a", "a\x01", "a!", "a.", "b", "skipd", "x1",
				       "zz", "\xff", "m n", "a\\b" };
	char dirs[64][512];
	size_t nd = 1;

	snprintf(dirs[0], sizeof dirs[0], "%s", root);
	for (int i = 0; i < 600; i++) {
		const char *parent = dirs[tu_rand_below(r, nd)];
		char p[1024];
		int kind = (int)tu_rand_below(r, 10);
		struct stat st;

		snprintf(p, sizeof p, "%s/%s%d", parent,
			 names[tu_rand_below(r, sizeof names / sizeof *names)], i % 7);
		if (lstat(p, &st) == 0)
			continue; /* made already: a name comes up again */
		if (kind == 0 && nd < 64 && strlen(p) < 400) {
			if (mkdir(p, 0755) == 0)
				snprintf(dirs[nd++], sizeof dirs[0], "%s", p);
		} else if (kind == 1) {
			if (symlink("..", p) != 0)
				abort();
		} else {
			int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			size_t len = tu_rand_below(r, 300);
			char buf[300] = { 0 };

			if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
				abort();
			close(fd);
		}
	}
}

static int check(const char *root, unsigned threads, size_t ahead, bool use_skip,
		 const struct names *want)
{
	struct fh_walk_opts o = { .threads = threads, .stat = true, .ahead = ahead,
				  .skip = use_skip ? skip : NULL };
	struct fh_walk *w;
	struct fh_walk_item it;
	size_t i = 0;
	int bad = 0;

	if (fh_walk_new(&w, &o) || fh_walk_root(w, root, strlen(root) + 1))
		abort();
	while (!bad && fh_walk_next(w, &it)) {
		if (it.err || i >= want->n || strcmp(it.path, want->v[i]) != 0 ||
		    !it.has_stat || it.stat_err || (long long)it.st.size != want->size[i] ||
		    !S_ISREG(it.st.mode)) {
			fprintf(stderr, "threads %u ahead %zu skip %d: name %zu: got %s (err %d), want %s\n",
				threads, ahead, use_skip, i, it.path, it.err,
				i < want->n ? want->v[i] : "(end)");
			bad = 1;
		}
		i++;
	}
	if (!bad && i != want->n) {
		fprintf(stderr, "threads %u ahead %zu: %zu names, want %zu\n", threads, ahead, i, want->n);
		bad = 1;
	}
	/* Given up halfway, started again, given up again with workers
	 * listing: nothing leaks, nothing races (ASan, TSan). */
	for (int round = 0; round < 2; round++) {
		if (fh_walk_root(w, root, strlen(root) + 1))
			abort();
		for (size_t k = 0; k < want->n / 2 && fh_walk_next(w, &it); k++)
			;
	}
	fh_walk_free(w);
	return bad;
}

int main(void)
{
	char root[] = "/tmp/fhsum-test-walk.XXXXXX";
	struct tu_rng r = { 42 };
	int bad = 0;

	if (!mkdtemp(root))
		return 1;
	make_tree(root, &r);
	for (int s = 0; s < 2; s++) {
		struct names want = { 0 };
		static const unsigned threads[] = { 0, 2, 8 };
		static const size_t ahead[] = { 1, 7, 0 };

		ref_walk(root, strlen(root) + 1, s, &want);
		if (want.n < 100) {
			fprintf(stderr, "tree too small: %zu files\n", want.n);
			bad = 1;
		}
		for (size_t t = 0; t < 3; t++)
			for (size_t a = 0; a < 3; a++)
				bad |= check(root, threads[t], ahead[a], s, &want);
		names_free(&want);
	}
	char cmd[64];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		bad = 1;
	printf("test_walk: %s\n", bad ? "FAILED" : "ok");
	return bad;
}
