/* dispatch.c: the kernel tables, best first, and the choice among them.
 * The CPU is probed once; a run picks one kernel per family at start and
 * passes it down, so no function pointer is ever written afterwards. */
#include <pthread.h>
#include <string.h>

#include "kernel.h"
#if defined(__x86_64__)
#include "../arch/x86_64/kernels_x86.h"
#endif
#if defined(__aarch64__)
#include "../arch/aarch64/kernels_arm.h"
#endif

/* Each family's kernels, best first, ending with the portable one.  The
 * x86-64 order is measured on AMD Zen 3 (tests/bench/kernels.sh): the
 * general-register kernels beat keccak-avx2.  The AVX-512 kernels have
 * never run on AVX-512 hardware, so they come after the general-register
 * ones (reachable with --kernel) until measured there.  FH_HAVE_X86_* says
 * which instruction sets' libraries arch/x86_64/meson.build built. */
static const struct fh_kernel *const md5_kernels[] = {
#if defined(__aarch64__)
	&fh_md5_gpr,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BMI)
	&fh_md5_bmi,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_md5_avx512,
#endif
	&fh_md5_portable,
};

static const struct fh_kernel *const keccak_kernels[] = {
#if defined(__aarch64__)
	/* Chosen by default only with FH_CPU_ARM_SHA3_FAST (its `prefer`). */
	&fh_keccak_sha3ce,
	&fh_keccak_gpr,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BMI)
	&fh_keccak_bmi2,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_keccak_avx512,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_keccak_avx2,
#endif
	&fh_keccak_portable,
};

/* Each family's multi-buffer kernels, best first; there may be none, so
 * each list ends with NULL.  As above, the AVX-512 ones have never run on
 * AVX-512 hardware and come after the AVX2 ones until measured there. */
static const struct fh_kernel *const md5_multi_kernels[] = {
#if defined(__aarch64__)
	&fh_md5_neonx4,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_md5_avx2x8,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_md5_avx512x16,
#endif
	NULL,
};

static const struct fh_kernel *const keccak_multi_kernels[] = {
#if defined(__aarch64__)
	/* Chosen by default only with FH_CPU_ARM_SHA3_FAST (its `prefer`);
	 * keccak-neonx2 otherwise. */
	&fh_keccak_sha3cex2,
	&fh_keccak_neonx2,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_keccak_avx2x4,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_keccak_avx512x8,
#endif
	NULL,
};

#define FH_COUNT(a) (sizeof(a) / sizeof *(a))

static const struct {
	const struct fh_kernel *const *list;
	size_t count;
} tables[FH_FAMILY_COUNT] = {
	[FH_FAMILY_MD5] = { md5_kernels, FH_COUNT(md5_kernels) },
	[FH_FAMILY_KECCAK] = { keccak_kernels, FH_COUNT(keccak_kernels) },
}, multi_tables[FH_FAMILY_COUNT] = {
	[FH_FAMILY_MD5] = { md5_multi_kernels, FH_COUNT(md5_multi_kernels) - 1 },
	[FH_FAMILY_KECCAK] = { keccak_multi_kernels,
			       FH_COUNT(keccak_multi_kernels) - 1 },
};

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static uint32_t cpu_features;

static void probe(void)
{
	cpu_features = fh_cpu_probe();
}

uint32_t fh_cpu_features(void)
{
	pthread_once(&probe_once, probe);
	return cpu_features;
}

int fh_kernel_usable(const struct fh_kernel *k)
{
	return (k->features & ~fh_cpu_features()) == 0;
}

static bool preferred(const struct fh_kernel *k)
{
	return fh_kernel_usable(k) && (k->prefer & ~fh_cpu_features()) == 0;
}

const struct fh_kernel *fh_kernel_best(enum fh_family family)
{
	for (size_t i = 0; i < tables[family].count; i++)
		if (preferred(tables[family].list[i]))
			return tables[family].list[i];
	return tables[family].list[tables[family].count - 1];
}

const struct fh_kernel *fh_kernel_best_multi(enum fh_family family)
{
	for (size_t i = 0; i < multi_tables[family].count; i++)
		if (preferred(multi_tables[family].list[i]))
			return multi_tables[family].list[i];
	return NULL;
}

/* Single-stream kernels of every family first, then multi-buffer ones. */
const struct fh_kernel *fh_kernel_at(size_t i)
{
	for (size_t f = 0; f < FH_FAMILY_COUNT; f++) {
		if (i < tables[f].count)
			return tables[f].list[i];
		i -= tables[f].count;
	}
	for (size_t f = 0; f < FH_FAMILY_COUNT; f++) {
		if (i < multi_tables[f].count)
			return multi_tables[f].list[i];
		i -= multi_tables[f].count;
	}
	return NULL;
}

static const struct fh_kernel *by_name(const char *name, size_t len)
{
	const struct fh_kernel *k;

	for (size_t i = 0; (k = fh_kernel_at(i)) != NULL; i++)
		if (strlen(k->name) == len && memcmp(k->name, name, len) == 0)
			return k;
	return NULL;
}

const struct fh_kernel *fh_kernel_by_name(const char *name)
{
	return by_name(name, strlen(name));
}

enum fh_select_status fh_kernel_select(struct fh_kernel_set *set,
				       const char *forced, const char **bad,
				       size_t *badlen)
{
	for (size_t f = 0; f < FH_FAMILY_COUNT; f++) {
		set->by_family[f] = fh_kernel_best((enum fh_family)f);
		set->multi[f] = fh_kernel_best_multi((enum fh_family)f);
		set->forced[f] = false;
	}
	while (forced && *forced) {
		size_t len = strcspn(forced, ",");
		const struct fh_kernel *k = by_name(forced, len);

		if (len) {
			enum fh_select_status st = !k ? FH_SELECT_UNKNOWN
					: !fh_kernel_usable(k) ? FH_SELECT_UNSUPPORTED
					: FH_SELECT_OK;
			if (st != FH_SELECT_OK) {
				*bad = forced;
				*badlen = len;
				return st;
			}
			if (k->lanes > 1) {
				set->multi[k->family] = k;
			} else {
				set->by_family[k->family] = k;
				if (!set->forced[k->family])
					set->multi[k->family] = NULL;
			}
			set->forced[k->family] = true;
		}
		forced += len + (forced[len] == ',');
	}
	return FH_SELECT_OK;
}
