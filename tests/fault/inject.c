/* inject.c: an LD_PRELOAD shim that makes system resources run out on
 * demand, for the fault suite: thread creation, mappings and memory fail
 * the way they fail on a loaded machine, which a test cannot otherwise
 * arrange (root ignores `ulimit -u`, and memory limits hit everything at
 * once).  Each counter is read from the environment at the first call:
 *
 *   FH_INJECT_THREADS=N       pthread_create succeeds N times, then fails
 *                             with EAGAIN
 *   FH_INJECT_MMAP_FILE=N     mmap of a file succeeds N times, then fails
 *                             with ENOMEM (anonymous mappings go through)
 *   FH_INJECT_MMAP=N          any mmap succeeds N times, then ENOMEM
 *   FH_INJECT_MALLOC=N        malloc, calloc, realloc, posix_memalign,
 *                             aligned_alloc succeed N times, then fail
 *                             with ENOMEM
 *   FH_INJECT_MALLOC_ABOVE=S  those fail for any request above S bytes
 *   FH_INJECT_REPORT=FILE     each refusal appends a line to FILE
 *                             ("refused malloc #N 123 bytes"); at exit a
 *                             line "calls threads=T mmap=M malloc=A" too,
 *                             so a test knows whether anything was
 *                             refused and where a sweep should stop
 *
 * Only calls through the dynamic symbol are seen: glibc's own mappings for
 * thread stacks and large allocations are not, so FH_INJECT_MMAP refuses
 * the program's mmap calls alone.  Memory comes from glibc's __libc_*
 * entry points, so the shim needs no allocator of its own and dlsym is
 * never called on the allocation path. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* mmap and mmap64 are both defined below: neither may be renamed to the
 * other (64-bit off_t is the default here anyway). */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

/* A countdown from the environment: -1 when the variable is unset. */
struct limit {
	const char *name;
	_Atomic long long left;
	_Atomic unsigned long long calls;
	atomic_int state;       /* 0 unread, 1 being read, 2 read */
};

static struct limit threads = { .name = "FH_INJECT_THREADS" };
static struct limit mmap_file = { .name = "FH_INJECT_MMAP_FILE" };
static struct limit mmap_any = { .name = "FH_INJECT_MMAP" };
static struct limit mallocs = { .name = "FH_INJECT_MALLOC" };
static _Atomic long long malloc_above = -2;     /* -2 unread, -1 none */

/* getenv and strtoll allocate nothing. */
static long long env_number(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? strtoll(v, NULL, 10) : -1;
}

static void load(struct limit *l)
{
	int want = 0;

	if (atomic_load(&l->state) == 2)
		return;
	if (atomic_compare_exchange_strong(&l->state, &want, 1)) {
		atomic_store(&l->left, env_number(l->name));
		atomic_store(&l->state, 2);
		return;
	}
	while (atomic_load(&l->state) != 2)
		;
}

static void report(const char *fmt, ...)
{
	const char *path = getenv("FH_INJECT_REPORT");
	char line[160];
	va_list ap;
	int fd, n;

	if (!path)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0 && n > 0) {
		if (write(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0) {
			/* Nothing to do: the report is a courtesy. */
		}
	}
	if (fd >= 0)
		close(fd);
}

/* Counts a call against L; true if it must fail. */
static bool refuse(struct limit *l)
{
	long long left;

	load(l);
	atomic_fetch_add(&l->calls, 1);
	left = atomic_load(&l->left);
	while (left > 0 &&
	       !atomic_compare_exchange_weak(&l->left, &left, left - 1))
		;
	return left == 0;
}

static bool refuse_memory(size_t size)
{
	long long above = atomic_load(&malloc_above);

	if (above == -2) {
		above = env_number("FH_INJECT_MALLOC_ABOVE");
		atomic_store(&malloc_above, above);
	}
	if (refuse(&mallocs)) {
		report("refused malloc #%llu %zu bytes\n",
		       atomic_load(&mallocs.calls), size);
		return true;
	}
	if (above >= 0 && size > (unsigned long long)above) {
		report("refused malloc %zu bytes (above %lld)\n", size, above);
		return true;
	}
	return false;
}

void *malloc(size_t n)
{
	if (refuse_memory(n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (refuse_memory(n * size)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	if (refuse_memory(n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (refuse_memory(n))
		return ENOMEM;
	if (!(p = __libc_memalign(align, n)))
		return ENOMEM;
	*out = p;
	return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
	if (refuse_memory(n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_memalign(align, n);
}

typedef int create_fn(pthread_t *, const pthread_attr_t *,
		      void *(*)(void *), void *);
typedef void *mmap_fn(void *, size_t, int, int, int, off_t);

int pthread_create(pthread_t *t, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	static create_fn *real;

	if (!real)
		real = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
	if (refuse(&threads)) {
		report("refused pthread_create #%llu\n",
		       atomic_load(&threads.calls));
		return EAGAIN;
	}
	return real(t, attr, fn, arg);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static mmap_fn *real;
	bool file = !(flags & MAP_ANONYMOUS) && fd >= 0;

	if (!real)
		real = (mmap_fn *)dlsym(RTLD_NEXT, "mmap");
	if (refuse(&mmap_any) || (file && refuse(&mmap_file))) {
		report("refused mmap #%llu %zu bytes%s\n",
		       atomic_load(&mmap_any.calls), len, file ? " of a file" : "");
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return real(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

__attribute__((destructor)) static void at_exit(void)
{
	report("calls threads=%llu mmap=%llu malloc=%llu\n",
	       atomic_load(&threads.calls), atomic_load(&mmap_any.calls),
	       atomic_load(&mallocs.calls));
}
