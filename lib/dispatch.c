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
 * x86-64 order is measured (`fhsum --benchmark`, tests/bench/kernels.sh)
 * on AMD Zen 4 (SHA3-256 MB/s, one core: keccak-avx512 593, keccak-bmi2
 * 520, keccak-avx2 355) and Zen 3, where keccak-bmi2 beats keccak-avx2
 * too.  md5-avx512 loses to md5-bmi on Zen 4 (654 against 785 MB/s: its
 * VPROLD takes two cycles there) and should win where rotates take one
 * (4.05 against 4.55 cycles/byte on Skylake-X, the README of
 * animetosho/md5-optimisation),
 * so its `prefer` asks for FH_CPU_X86_VPROL_FAST, which fh_cpu_traits
 * sets for Intel.  FH_HAVE_X86_* says which instruction sets' libraries
 * arch/x86_64/meson.build built. */
static const struct fh_kernel *const md5_kernels[] = {
#if defined(__aarch64__)
	&fh_md5_gpr,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_md5_avx512,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BMI)
	&fh_md5_bmi,
#endif
	&fh_md5_portable,
};

static const struct fh_kernel *const keccak_kernels[] = {
#if defined(__aarch64__)
	/* Chosen by default only with FH_CPU_ARM_SHA3_FAST (its `prefer`). */
	&fh_keccak_sha3ce,
	&fh_keccak_gpr,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_keccak_avx512,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BMI)
	&fh_keccak_bmi2,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_keccak_avx2,
#endif
	&fh_keccak_portable,
};

/* SHA, one core of Zen 3 (tests/bench/sha_kernels.c, MB/s): sha1-shani
 * 1623 against sha1-portable 169, sha256-shani 1547 against 266,
 * sha512-avx2 547 against 420. */
static const struct fh_kernel *const sha1_kernels[] = {
#if defined(__aarch64__)
	&fh_sha1_ce,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_SHA)
	&fh_sha1_shani,
#endif
	&fh_sha1_portable,
};

static const struct fh_kernel *const sha256_kernels[] = {
#if defined(__aarch64__)
	&fh_sha256_ce,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_SHA)
	&fh_sha256_shani,
#endif
	&fh_sha256_portable,
};

static const struct fh_kernel *const sha512_kernels[] = {
#if defined(__aarch64__)
	&fh_sha512_ce,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_sha512_avx2,
#endif
	&fh_sha512_portable,
};

/* BLAKE2b: one stream is bound by the chain of G, which the AVX2 kernel
 * shortens (blake2b_rows.h); on Zen 3, `fhsum --benchmark` (16 KiB
 * buffers, turns alternating): blake2b-avx2 about 2.1x blake2b-portable.
 * On AArch64 the portable kernel, compiled for it, is chosen.
 * blake2b-neon (a row in two NEON registers, its turns EXT) executes
 * fewer instructions, 1059 a 128-byte block against 1882 (0.56x;
 * tests/bench/aarch64-insns.sh, qemu, gcc 12 -O2), but one stream waits
 * on G's chain: 34 dependent steps a round, each of two or three cycles
 * on NEON (Cortex-A57: 3; A76, Neoverse N1, Apple: 2) against one on the
 * general registers, about 800-1,200 cycles a block where the scalar
 * code's 1882 instructions issue in 630-940 on two or three ALUs.
 * Crypto++ timed the same: NEON 12.6 against scalar 5.7 cycles a byte on
 * Cortex-A57.  With no Arm core here to time it, blake2b-neon asks for
 * FH_CPU_ARM_B2_NEON_FAST, which no core has yet: it runs when forced and
 * in --benchmark.
 * BLAKE3: whole chunks and parents 16, 8 or 4 at a time, one per lane
 * (arch/). */
static const struct fh_kernel *const blake2b_kernels[] = {
#if defined(__aarch64__)
	&fh_blake2b_neon,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	/* Chosen by default only with FH_CPU_X86_VPROL_FAST (its `prefer`). */
	&fh_blake2b_avx512,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_blake2b_avx2,
#endif
	&fh_blake2b_portable,
};

static const struct fh_kernel *const blake3_kernels[] = {
#if defined(__x86_64__) && defined(FH_HAVE_X86_BLAKE3_AVX512)
	&fh_blake3_avx512,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BLAKE3_AVX2)
	&fh_blake3_avx2,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BLAKE3_SSE41)
	&fh_blake3_sse41,
#endif
#if defined(__aarch64__)
	&fh_blake3_neon,
#endif
	&fh_blake3_portable,
};

/* Each family's multi-buffer kernels, best first; there may be none, so
 * each list ends with NULL.  Measured on Zen 4 (aggregate MB/s, all lanes
 * busy, against md5-bmi's 785): md5-avx512x32 11014, md5-avx512x16 7741,
 * md5-avx2x16 7051, md5-avx2x8 4782; keccak-avx512x8 1.9x keccak-avx2x4.
 * Where fewer lanes are busy than the first has, the lanes run on the
 * narrowest that holds them (fh_kernel_narrowest): 8 busy lanes go
 * faster on md5-avx2x8 than on any wider kernel. */
static const struct fh_kernel *const md5_multi_kernels[] = {
#if defined(__aarch64__)
	&fh_md5_neonx4,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_md5_avx512x32,
	&fh_md5_avx512x16,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_md5_avx2x16,
	&fh_md5_avx2x8,
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
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_keccak_avx512x8,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_keccak_avx2x4,
#endif
	NULL,
};

/* SHA: measured on Zen 3 (tests/bench/sha_kernels.c, aggregate MB/s, all
 * lanes busy): sha1-avx2x8 3366, sha1-shanix2 2851 (sha1-shani 1623);
 * sha256-shanix2 2953, sha256-avx2x8 1558 (sha256-shani 1547);
 * sha512-avx2x4 1218 (sha512-avx2 547).  The AVX-512 kernels come first:
 * on Intel family 6 model 207 (`fhsum --benchmark`, every lane busy)
 * sha1-avx512x16 3750, sha1-avx2x8 2539, sha1-shanix2 1652;
 * sha256-avx512x16 2335, sha256-shanix2 1705, sha256-avx2x8 1260;
 * sha512-avx512x8 1959, sha512-avx2x4 978. */
static const struct fh_kernel *const sha1_multi_kernels[] = {
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_sha1_avx512x16,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_sha1_avx2x8,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_SHA)
	&fh_sha1_shanix2,
#endif
	NULL,
};

static const struct fh_kernel *const sha256_multi_kernels[] = {
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_sha256_avx512x16,
#endif
	/* Before sha256-avx2x8, whose 8 lanes together hash no more than
	 * one stream of sha256-shani. */
#if defined(__x86_64__) && defined(FH_HAVE_X86_SHA)
	&fh_sha256_shanix2,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_sha256_avx2x8,
#endif
	NULL,
};

static const struct fh_kernel *const sha512_multi_kernels[] = {
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_sha512_avx512x8,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_sha512_avx2x4,
#endif
	NULL,
};

/* BLAKE2b across inputs: 8 lanes of AVX-512, 4 of AVX2, 2 of NEON.
 * blake2b-neonx2 runs a round's four independent G at once in each
 * lane, with no turns between the steps, and counts 1712 instructions a
 * call of two 128-byte blocks under qemu (tests/bench/aarch64-insns.sh,
 * gcc 12 -O2, QEMU_CPU max and cortex-a53 alike): 856 a block per lane,
 * 6.69 a byte, 0.45x blake2b-portable's 1882 and 0.81x blake2b-neon's
 * 1059, so it is listed.
 * BLAKE3's take the first chunk of many small inputs. */
static const struct fh_kernel *const blake2b_multi_kernels[] = {
#if defined(__aarch64__)
	&fh_blake2b_neonx2,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_blake2b_avx512x8,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_blake2b_avx2x4,
#endif
	NULL,
};
static const struct fh_kernel *const blake3_multi_kernels[] = {
#if defined(__x86_64__) && defined(FH_HAVE_X86_BLAKE3_AVX512)
	&fh_blake3_avx512x16,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BLAKE3_AVX2)
	&fh_blake3_avx2x8,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_BLAKE3_SSE41)
	&fh_blake3_sse41x4,
#endif
#if defined(__aarch64__)
	&fh_blake3_neonx4,
#endif
	NULL,
};
/* The checksums: CRCs by carry-less multiply where the CPU has it.  On
 * AArch64 crc-armv8 comes first: crc32b and crc32c by the CRC32
 * instructions, which execute fewer instructions a byte than PMULL's
 * folding (0.24 against 0.30 under qemu, tests/bench/aarch64-insns.sh;
 * crc-portable 3.38), and the other models by that folding where the CPU
 * has PMULL; crc-pmull serves a CPU with PMULL and without CRC32.
 *
 * On x86-64, crc-sse42 runs CRC-32C alone on SSE4.2's crc32 and hands
 * the other models to crc-vpclmul or crc-pclmul where the CPU runs them.  On Zen 3
 * (tests/bench/crc_kernels, crc32c, GB/s, medians of 7 rounds of thread
 * CPU time; 4 KiB, 16 KiB and 1 MiB buffers) crc-vpclmul 14.3, 20.0 and
 * 24.0, crc-sse42 13.4, 19.6 and 23.0 (its three chains near their
 * ceiling of 8 bytes a cycle), crc-pclmul 9.3, 11.0 and 12.0: crc-sse42
 * ties crc-vpclmul within the noise (the same kernel's runs on the other
 * models, which it hands to crc-vpclmul, differ by as much), so
 * crc-vpclmul, one code for every model, stays first, and crc-sse42
 * comes before crc-pclmul, which it doubles: CPUs with PCLMULQDQ but not
 * VPCLMULQDQ get crc32c from the crc32 chains and the other models from
 * crc-pclmul, CPUs with SSE4.2 alone crc32c at many times the portable
 * tables' speed.
 * crc-avx512 comes first: it does crc-vpclmul's work with half the
 * instructions (four 16-byte blocks a VPCLMULQDQ, the two products and
 * the data added by one VPTERNLOGQ); on Intel family 6 model 207 it ran
 * CRC-32C at 33.3 GB/s against crc-vpclmul's 24.5 and crc-sse42's 15.7,
 * CRC-32 at 33.8 against 24.7 (`fhsum --benchmark`, 16 KiB buffers).
 * Zen 4 runs a ZMM operation as two YMM halves, so it should at least
 * match crc-vpclmul there; Zen 5 and Sapphire Rapids run it whole, where
 * crc-fast-rust measured its 512-bit folding 1.7 times its 256-bit one
 * (CRC-64/NVME on Sapphire Rapids, 96 against 56 GiB/s).  Either is far
 * past what three crc32 chains can do (8 bytes a cycle), so crc-avx512
 * is ahead of crc-sse42 for crc32c too.  Skylake-X has no VPCLMULQDQ. */
static const struct fh_kernel *const crc_kernels[] = {
#if defined(__aarch64__)
	&fh_crc_armv8,
	&fh_crc_pmull,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_CRC_AVX512)
	&fh_crc_avx512,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_VPCLMUL) && defined(FH_HAVE_X86_PCLMUL)
	&fh_crc_vpclmul,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_SSE42)
	&fh_crc_sse42,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_PCLMUL)
	&fh_crc_pclmul,
#endif
	&fh_crc_portable,
};
static const struct fh_kernel *const crc_multi_kernels[] = { NULL };
static const struct fh_kernel *const sum_kernels[] = {
	&fh_sum_portable,
};
static const struct fh_kernel *const sum_multi_kernels[] = { NULL };

/* xxHash: XXH3's blocks.  xxh-neon executes 1.00 instructions a byte
 * under qemu against xxh-portable's 2.26 (tests/bench/aarch64-insns.sh).
 * xxh-avx512 before xxh-avx2 (23.6 against 20.2 GB/s on Intel family 6
 * model 207, `fhsum --benchmark`): a whole 64-byte stripe an
 * accumulate step where AVX2 takes two, the scramble's XORs one
 * VPTERNLOGQ.  Zen 4 splits each ZMM operation in two, which leaves it
 * about even with xxh-avx2 there; Zen 5 and Intel's AVX-512 cores
 * (Sapphire Rapids) run it whole, and xxHash's own x86 dispatch prefers
 * its AVX-512 path wherever AVX-512F runs. */
static const struct fh_kernel *const xxh_kernels[] = {
#if defined(__aarch64__)
	&fh_xxh_neon,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX512)
	&fh_xxh_avx512,
#endif
#if defined(__x86_64__) && defined(FH_HAVE_X86_AVX2)
	&fh_xxh_avx2,
#endif
	&fh_xxh_portable,
};
static const struct fh_kernel *const xxh_multi_kernels[] = { NULL };

static const struct fh_kernel *const sm3_kernels[] = { &fh_sm3_portable };
static const struct fh_kernel *const sm3_multi_kernels[] = { NULL };

#define FH_COUNT(a) (sizeof(a) / sizeof *(a))

static const struct {
	const struct fh_kernel *const *list;
	size_t count;
} tables[FH_FAMILY_COUNT] = {
	[FH_FAMILY_MD5] = { md5_kernels, FH_COUNT(md5_kernels) },
	[FH_FAMILY_KECCAK] = { keccak_kernels, FH_COUNT(keccak_kernels) },
	[FH_FAMILY_SHA1] = { sha1_kernels, FH_COUNT(sha1_kernels) },
	[FH_FAMILY_SHA256] = { sha256_kernels, FH_COUNT(sha256_kernels) },
	[FH_FAMILY_SHA512] = { sha512_kernels, FH_COUNT(sha512_kernels) },
	[FH_FAMILY_BLAKE2B] = { blake2b_kernels, FH_COUNT(blake2b_kernels) },
	[FH_FAMILY_BLAKE3] = { blake3_kernels, FH_COUNT(blake3_kernels) },
	[FH_FAMILY_CRC] = { crc_kernels, FH_COUNT(crc_kernels) },
	[FH_FAMILY_SUM] = { sum_kernels, FH_COUNT(sum_kernels) },
	[FH_FAMILY_XXH] = { xxh_kernels, FH_COUNT(xxh_kernels) },
	[FH_FAMILY_SM3] = { sm3_kernels, FH_COUNT(sm3_kernels) },
}, multi_tables[FH_FAMILY_COUNT] = {
	[FH_FAMILY_MD5] = { md5_multi_kernels, FH_COUNT(md5_multi_kernels) - 1 },
	[FH_FAMILY_KECCAK] = { keccak_multi_kernels,
			       FH_COUNT(keccak_multi_kernels) - 1 },
	[FH_FAMILY_SHA1] = { sha1_multi_kernels, FH_COUNT(sha1_multi_kernels) - 1 },
	[FH_FAMILY_SHA256] = { sha256_multi_kernels,
			       FH_COUNT(sha256_multi_kernels) - 1 },
	[FH_FAMILY_SHA512] = { sha512_multi_kernels,
			       FH_COUNT(sha512_multi_kernels) - 1 },
	[FH_FAMILY_BLAKE2B] = { blake2b_multi_kernels,
				FH_COUNT(blake2b_multi_kernels) - 1 },
	[FH_FAMILY_BLAKE3] = { blake3_multi_kernels,
			       FH_COUNT(blake3_multi_kernels) - 1 },
	[FH_FAMILY_CRC] = { crc_multi_kernels, FH_COUNT(crc_multi_kernels) - 1 },
	[FH_FAMILY_SUM] = { sum_multi_kernels, FH_COUNT(sum_multi_kernels) - 1 },
	[FH_FAMILY_XXH] = { xxh_multi_kernels, FH_COUNT(xxh_multi_kernels) - 1 },
	[FH_FAMILY_SM3] = { sm3_multi_kernels, FH_COUNT(sm3_multi_kernels) - 1 },
};

const struct fh_kernel *fh_kernel_portable(enum fh_family family)
{
	return tables[family].list[tables[family].count - 1];
}

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static struct fh_cpu_id cpu_id;
static uint32_t cpu_features;

static void probe(void)
{
	fh_cpu_probe(&cpu_id);
	cpu_features = fh_cpu_traits(&cpu_id);
}

uint32_t fh_cpu_features(void)
{
	pthread_once(&probe_once, probe);
	return cpu_features;
}

const struct fh_cpu_id *fh_cpu_identity(void)
{
	pthread_once(&probe_once, probe);
	return &cpu_id;
}

int fh_kernel_usable(const struct fh_kernel *k)
{
	return (k->features & ~fh_cpu_features()) == 0;
}

static bool fits(const struct fh_kernel *k, uint32_t cpu)
{
	return ((k->features | k->prefer) & ~cpu) == 0;
}

const struct fh_kernel *fh_kernel_pick(enum fh_family family, bool multi,
				       uint32_t cpu)
{
	const struct fh_kernel *const *list = multi ? multi_tables[family].list
						     : tables[family].list;
	size_t n = multi ? multi_tables[family].count : tables[family].count;

	for (size_t i = 0; i < n; i++)
		if (fits(list[i], cpu))
			return list[i];
	return multi ? NULL : list[n - 1];
}

const struct fh_kernel *fh_kernel_narrowest(const struct fh_kernel *widest,
					    unsigned busy, uint32_t cpu)
{
	const struct fh_kernel *const *list = multi_tables[widest->family].list;
	size_t n = multi_tables[widest->family].count;
	const struct fh_kernel *best = NULL;
	bool listed = false;

	for (size_t i = 0; i < n; i++) {
		const struct fh_kernel *k = list[i];

		listed |= k == widest;
		if (!fits(k, cpu) || k->lanes > widest->lanes || k->lanes < busy)
			continue;
		if (!best || k->lanes < best->lanes)
			best = k;
	}
	return listed && best ? best : widest;
}

const struct fh_kernel *fh_kernel_best(enum fh_family family)
{
	return fh_kernel_pick(family, false, fh_cpu_features());
}

const struct fh_kernel *fh_kernel_best_multi(enum fh_family family)
{
	return fh_kernel_pick(family, true, fh_cpu_features());
}

const char *fh_kernel_name(const struct fh_algo *algo, bool multi)
{
	const struct fh_kernel *k = multi ? fh_kernel_best_multi(algo->family)
					  : fh_kernel_best(algo->family);

	return k ? k->name : NULL;
}

enum fh_kernel_why fh_kernel_why(const struct fh_kernel *k,
				 const struct fh_kernel_set *set)
{
	bool in_set = set->by_family[k->family] == k || set->multi[k->family] == k;

	if (in_set)
		return set->forced[k->family] ? FH_WHY_FORCED : FH_WHY_PICKED;
	if (!fh_kernel_usable(k))
		return FH_WHY_UNSUPPORTED;
	if (set->forced[k->family])
		return FH_WHY_NOT_FORCED;
	if (!fits(k, fh_cpu_features()))
		return FH_WHY_SLOWER_HERE;
	if (k->lanes > 1 && set->multi[k->family])
		for (unsigned b = 1; b <= set->multi[k->family]->lanes; b++)
			if (fh_kernel_narrowest(set->multi[k->family], b,
						fh_cpu_features()) == k)
				return FH_WHY_NARROW;
	return FH_WHY_OUTRANKED;
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
