/* insncount.c: a QEMU TCG plugin (plugin API version 1, QEMU 7.2) that
 * counts the guest instructions a program executes, in all and inside the
 * functions named by sym=NAME arguments, for tests/bench/aarch64-insns.sh.
 * With no Arm hardware at hand, instructions executed are the honest way
 * to compare two AArch64 kernels; they are not a speed.
 *
 *   gcc -shared -fPIC -O2 -o libinsncount.so tests/bench/insncount.c
 *   qemu-aarch64 -plugin ./libinsncount.so,sym=NAME -d plugin ./prog
 *
 * prints "insns total N" and "insns NAME N" for each sym= at exit (symbols
 * of the main executable: link it statically and do not strip it).
 *
 * The plugin header is not packaged with Debian's qemu-user, so the few
 * declarations used are written out here, as the version 1 API has them. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FH_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct {
	const char *target_name;
	struct {
		int min, cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus, max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t,
					       struct qemu_plugin_tb *);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t, void *);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t,
					   qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *,
					      enum qemu_plugin_op, void *,
					      uint64_t);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *,
						enum qemu_plugin_op, void *,
						uint64_t);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *,
						 size_t);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb_t,
				    void *);
void qemu_plugin_outs(const char *);

FH_EXPORT int qemu_plugin_version = 1;

/* The guest program is single-threaded here, so plain inline adds need no
 * per-vCPU counters. */
#define FH_MAX_SYMS 64
static const char *sym_name[FH_MAX_SYMS];
static uint64_t sym_count[FH_MAX_SYMS];
static int n_syms;
static uint64_t total;

/* Called once per translated block: the block's length is added to the
 * total each time it runs, and each instruction inside a watched function
 * adds one to that function's count. */
static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &total, n);
	for (size_t i = 0; i < n && n_syms > 0; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const char *sym = qemu_plugin_insn_symbol(insn);

		if (sym == NULL)
			continue;
		for (int k = 0; k < n_syms; k++)
			if (strcmp(sym, sym_name[k]) == 0)
				qemu_plugin_register_vcpu_insn_exec_inline(
					insn, QEMU_PLUGIN_INLINE_ADD_U64,
					&sym_count[k], 1);
	}
}

static void on_guest_exit(qemu_plugin_id_t id, void *unused)
{
	char line[256];

	(void)id;
	(void)unused;
	snprintf(line, sizeof line, "insns total %llu\n",
		 (unsigned long long)total);
	qemu_plugin_outs(line);
	for (int k = 0; k < n_syms; k++) {
		snprintf(line, sizeof line, "insns %s %llu\n", sym_name[k],
			 (unsigned long long)sym_count[k]);
		qemu_plugin_outs(line);
	}
}

FH_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				  int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "sym=", 4) != 0)
			continue;
		if (n_syms == FH_MAX_SYMS) {
			fprintf(stderr, "insncount: more than %d sym= arguments\n",
				FH_MAX_SYMS);
			return -1;
		}
		sym_name[n_syms++] = argv[i] + 4;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_guest_exit, NULL);
	return 0;
}
