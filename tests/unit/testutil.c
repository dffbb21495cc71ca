/* testutil.c: helpers shared by the unit tests (see testutil.h).
 *
 * Everything here stays deliberately simple and independent of libfhsum's
 * internals: the tests must judge the library, not share its bugs.
 */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"
#include "family.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t tu_rand(struct tu_rng *r)
{
	/* splitmix64 (Steele, Lea, Flood 2014); constants from that paper. */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

size_t tu_rand_below(struct tu_rng *r, size_t n)
{
	/* The modulo bias is irrelevant at the sizes tests draw. */
	return (size_t)(tu_rand(r) % n);
}

void tu_rand_bytes(struct tu_rng *r, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)(tu_rand(r) >> 56);
}

void tu_fill_pattern(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i % TU_PATTERN_MOD);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int tu_unhex(uint8_t *out, const char *hex, size_t hexlen)
{
	if (hexlen % 2)
		return -1;
	for (size_t i = 0; i < hexlen / 2; i++) {
		int hi = hexval((unsigned char)hex[2 * i]);
		int lo = hexval((unsigned char)hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

void tu_print_hex(FILE *f, const uint8_t *bytes, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fprintf(f, "%02x", bytes[i]);
}

const struct fh_kernel *tu_portable(enum fh_family family)
{
	return fh_kernel_portable(family);
}

int tu_kernel_single_stream(const struct fh_kernel *k)
{
	return k->blocks != NULL &&
	       (k->permute != NULL || !fh_family_ops(k->family)->permutes);
}

enum tu_kernel_verdict tu_kernel_testable(const struct fh_kernel *k)
{
	if ((unsigned)k->family >= FH_FAMILY_COUNT) {
		printf("FAIL kernel %s: family %d is not a known family\n",
		       k->name, (int)k->family);
		return TU_KERNEL_BROKEN;
	}
	if (!fh_kernel_usable(k)) {
		printf("SKIP kernel %s (this CPU cannot run it)\n", k->name);
		return TU_KERNEL_SKIP;
	}
	if (!tu_kernel_single_stream(k)) {
		if (k->lanes > 1) {
			/* struct fh_kernel has no multi-buffer entry point to
			 * call, so there is nothing here to test. */
			printf("SKIP kernel %s (%u lanes, no single-stream "
			       "functions)\n", k->name, k->lanes);
			return TU_KERNEL_SKIP;
		}
		printf("FAIL kernel %s: single-lane kernel lacks its block "
		       "functions\n", k->name);
		return TU_KERNEL_BROKEN;
	}
	return TU_KERNEL_RUN;
}

const struct fh_kernel *tu_kernel_arg(const char *name, int *exit_code)
{
	const struct fh_kernel *k = fh_kernel_by_name(name);
	if (!k) {
		/* Kernels of another ISA are listed in meson.build but not
		 * compiled into this build. */
		printf("SKIP kernel %s (not in this build)\n", name);
		*exit_code = TU_EXIT_SKIP;
		return NULL;
	}
	switch (tu_kernel_testable(k)) {
	case TU_KERNEL_RUN:
		return k;
	case TU_KERNEL_SKIP:
		*exit_code = TU_EXIT_SKIP;
		return NULL;
	case TU_KERNEL_BROKEN:
		break;
	}
	*exit_code = 1;
	return NULL;
}

void tu_init_on(fh_ctx *ctx, const struct fh_algo *algo,
		const struct fh_kernel *k, size_t outlen)
{
	fh_init_params(ctx, algo, k, &(struct fh_hash_params){ .outlen = outlen });
}

void tu_hash_on(const struct fh_algo *algo, const struct fh_kernel *k,
		const void *data, size_t len, uint8_t *out, size_t outlen)
{
	fh_ctx ctx;
	tu_init_on(&ctx, algo, k, outlen);
	fh_update(&ctx, data, len);
	fh_final(&ctx, out, outlen);
}

int tu_lines_open(struct tu_lines *l, const char *dir, const char *name)
{
	memset(l, 0, sizeof *l);
	size_t n = strlen(dir) + strlen(name) + 2;
	l->path = malloc(n);
	if (!l->path)
		abort();
	snprintf(l->path, n, "%s/%s", dir, name);
	l->f = fopen(l->path, "r");
	if (!l->f) {
		printf("FAIL cannot open %s: %s\n", l->path, strerror(errno));
		free(l->path);
		l->path = NULL;
		return -1;
	}
	return 0;
}

char *tu_next_line(struct tu_lines *l)
{
	ssize_t n;
	while ((n = getline(&l->buf, &l->cap, l->f)) >= 0) {
		l->lineno++;
		while (n > 0 && (l->buf[n - 1] == '\n' || l->buf[n - 1] == '\r'))
			l->buf[--n] = '\0';
		if (n == 0 || l->buf[0] == '#')
			continue;
		return l->buf;
	}
	return NULL;
}

void tu_lines_close(struct tu_lines *l)
{
	if (l->f)
		fclose(l->f);
	free(l->buf);
	free(l->path);
	memset(l, 0, sizeof *l);
}

int tu_lenvec_load(struct tu_lenvec *v, const char *dir,
		   const struct fh_algo *algo)
{
	struct tu_lines l;
	char name[64];
	size_t cap = 0;

	memset(v, 0, sizeof *v);
	snprintf(name, sizeof name, "%s.len", algo->name);
	if (tu_lines_open(&l, dir, name))
		return -1;
	for (char *line; (line = tu_next_line(&l));) {
		char *end;
		unsigned long len = strtoul(line, &end, 10);
		if (end == line || *end != ' ')
			goto bad;
		const char *hex = end + 1;
		size_t hexlen = strlen(hex);
		if (v->count == 0) {
			v->outlen = hexlen / 2;
			if (v->outlen == 0 ||
			    (!algo->xof && v->outlen != algo->digest_bytes))
				goto bad;
		}
		if (len != v->count || hexlen != 2 * v->outlen)
			goto bad;
		if (v->count == cap) {
			cap = cap ? 2 * cap : 1024;
			v->digests = realloc(v->digests, cap * v->outlen);
			if (!v->digests)
				abort();
		}
		if (tu_unhex(v->digests + v->count * v->outlen, hex, hexlen))
			goto bad;
		v->count++;
	}
	if (v->count == 0) {
		printf("FAIL %s: no vectors\n", l.path);
		tu_lines_close(&l);
		tu_lenvec_free(v);
		return -1;
	}
	tu_lines_close(&l);
	return 0;
bad:
	printf("FAIL %s:%u: malformed line (want \"%zu HEX\" with %s digits)\n",
	       l.path, l.lineno, v->count,
	       algo->xof ? "an even number of" : "the algorithm's");
	tu_lines_close(&l);
	tu_lenvec_free(v);
	return -1;
}

void tu_lenvec_free(struct tu_lenvec *v)
{
	free(v->digests);
	memset(v, 0, sizeof *v);
}
