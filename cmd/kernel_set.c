/* kernel_set.c: the kernels as the command chooses and shows them: the
 * choice (the best of each family, or those FHSUM_KERNEL or --kernel
 * force), --list-kernels, and --debug's lines on the platform the choice
 * was made for (the CPU, the engine's OS layer, the kernels picked). */
#include <stdio.h>

#include "cli.h"
#include "engine/engine.h"
#include "kernel.h"
#include "kernel_set.h"
#include "quote.h"

/* The CPU as the kernel choice saw it: "AMD family 25 model 17",
 * "MIDR 0x411fd401", "Apple (hw.cpufamily 0x1b588bb3)". */
static const char *cpu_name(char *buf, size_t size)
{
	const struct fh_cpu_id *id = fh_cpu_identity();

	switch (id->vendor) {
	case FH_VENDOR_INTEL:
	case FH_VENDOR_AMD:
		snprintf(buf, size, "%s family %u model %u",
			 id->vendor == FH_VENDOR_INTEL ? "Intel" : "AMD",
			 id->family, id->model);
		break;
	case FH_VENDOR_ARM_IMPL:
		/* MIDR is read only where it can change the choice. */
		if (id->midr)
			snprintf(buf, size, "MIDR 0x%08x", (unsigned)id->midr);
		else
			snprintf(buf, size, "AArch64 (MIDR not read)");
		break;
	case FH_VENDOR_APPLE:
		snprintf(buf, size, "Apple (hw.cpufamily 0x%08x)",
			 (unsigned)id->apple_cpufamily);
		break;
	default:
		snprintf(buf, size, "unknown");
	}
	return buf;
}

void fh_kernels_list(const struct fh_kernel_set *set)
{
	static const char *const why[] = {
		[FH_WHY_PICKED] = "",
		[FH_WHY_FORCED] = "forced",
		[FH_WHY_UNSUPPORTED] = "",
		[FH_WHY_SLOWER_HERE] = "slower on this CPU",
		[FH_WHY_OUTRANKED] = "a faster one is picked",
		[FH_WHY_NOT_FORCED] = "another is forced",
		[FH_WHY_NARROW] = "",
	};
	const struct fh_kernel *k;
	char cpu[64];

	printf("%-20s %-7s %5s  %-11s %-6s %s\n", "KERNEL", "FAMILY", "LANES",
	       "CPU", "PICKED", "WHY NOT");
	for (size_t i = 0; (k = fh_kernel_at(i)) != NULL; i++) {
		enum fh_kernel_why w = fh_kernel_why(k, set);
		bool in = w == FH_WHY_PICKED || w == FH_WHY_FORCED;

		char few[48] = "";

		if (w == FH_WHY_NARROW) {
			/* The busy lanes it runs: those it holds that a
			 * narrower kernel does not. */
			unsigned lo = k->lanes;

			for (unsigned b = 1; b <= k->lanes; b++)
				if (fh_kernel_narrowest(set->multi[k->family], b,
							fh_cpu_features()) == k && b < lo)
					lo = b;
			snprintf(few, sizeof few, "runs %u to %u busy lanes", lo, k->lanes);
		}
		printf("%-20s %-7s %5u  %-11s %-6s %s\n", k->name,
		       fh_family_name(k->family), k->lanes,
		       fh_kernel_usable(k) ? "usable" : "unsupported",
		       in ? "*" : "-", in ? "" : w == FH_WHY_NARROW ? few : why[w]);
	}
	/* Which algorithms each family's kernels serve, in lines of 80
	 * columns at most (continued under "#  "). */
	for (int f = 0; f < FH_FAMILY_COUNT; f++) {
		int col = printf("# %s kernels:", fh_family_name((enum fh_family)f));

		for (int id = 0; id < FH_ALGO_COUNT; id++) {
			const struct fh_algo *a = fh_algo_get((enum fh_algo_id)id);
			char item[96];
			int n;

			if (a->family != (enum fh_family)f)
				continue;
			n = snprintf(item, sizeof item, " %s%s", a->name,
				     a->cv_bytes ? " (12 rounds, leaves in the lanes)"
				     : a->rounds == 12 ? " (12 rounds)" : "");
			if (col + n > 80)
				col = printf("\n#  ") - 1;
			col += printf("%s", item);
		}
		printf("\n");
	}
	printf("# this CPU: %s\n", cpu_name(cpu, sizeof cpu));
}

const struct fh_kernel_set *fh_kernels_pick(const char *forced)
{
	static struct fh_kernel_set set;
	const char *bad;
	size_t badlen;
	enum fh_select_status st = fh_kernel_select(&set, forced, &bad, &badlen);

	if (st != FH_SELECT_OK) {
		char name[64];

		snprintf(name, sizeof name, "%.*s", (int)badlen, bad);
		fh_error(0, st == FH_SELECT_UNKNOWN
			 ? "unknown kernel %s (see --list-kernels)"
			 : "kernel %s cannot run on this CPU (see --list-kernels)",
			 fh_quote(name));
		return NULL;
	}
	return &set;
}

void fh_kernels_debug(const struct fh_kernel_set *set)
{
	char cpu[64];

	fprintf(stderr, "%s: CPU %s\n", fh_prog, cpu_name(cpu, sizeof cpu));
	fprintf(stderr, "%s: OS layer %s\n", fh_prog, fh_engine_os_layer());
	for (size_t f = 0; f < FH_FAMILY_COUNT; f++) {
		fprintf(stderr, "%s: kernel %s\n", fh_prog,
			set->by_family[f]->name);
		if (set->multi[f])
			fprintf(stderr, "%s: multi-buffer kernel %s\n", fh_prog,
				set->multi[f]->name);
	}
}
