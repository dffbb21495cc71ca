#!/usr/bin/env bash
# Counts the instructions the AArch64 kernels execute, under qemu-user with
# the plugin tests/bench/insncount.c, and prints a Markdown table:
# instructions per 64-byte MD5 block, per Keccak-f[1600] permutation and
# per SHA-1, SHA-256 (64-byte) and SHA-512 (128-byte) block, per BLAKE3
# chunk (1 KiB) and BLAKE2b block (128 bytes), the same per byte for the
# SHA and BLAKE kernels, and per byte of the checksums (every CRC model,
# XXH3's 1 KiB blocks), for the kernels in arch/aarch64/ and the portable
# C kernels.  Every C file, the intrinsics kernels' too, is built with
# gcc -O2 (meson's release build has -O3).  The multi-buffer kernels get
# a row per call (all lanes) and a row per lane, comparable with the
# single-stream rows above them; the last column is a kernel's ratio to
# the one it is measured against (md5-gpr, keccak-gpr or the portable
# C).  Counts are repeatable and compare kernels of one ISA honestly;
# they are not a speed.  Runs on x86-64, no AArch64 needed: apt-get
# install qemu-user gcc-aarch64-linux-gnu.
#
#   tests/bench/aarch64-insns.sh [-n N] [-c CPU]
#
# CPU is QEMU_CPU (default max).  cortex-a53 has PMULL and CRC32 too, so
# the checksum kernels all run there, as do the BLAKE3 ones (Advanced
# SIMD); the SHA3 and SHA512 ones do not (their rows read n/a).
#
# Each figure is a difference of two runs, (count(2N) - count(N)) / N, so
# startup and one-off costs cancel: per block for md5_blocks and
# keccak_absorb (one call over N blocks), per call for keccak_permute,
# per KiB for the checksums and BLAKE3's chunks (N KiB in one call; N a
# multiple of four fills blake3-neon's lanes, as the default does), per
# block of each lane for blake3-neonx4 and blake2b-neonx2.
# Exit status 1 when a kernel misses its target:
#   md5-gpr <= 600, keccak-gpr <= 3300, keccak-sha3ce <= 1800 per
#   permutation, two-state SHA3 <= 1000 per state; md5-neonx4 <= 160 per
#   block per lane; keccak-neonx2 below keccak-gpr per permutation per
#   state (its reason to exist: fewer than two keccak-gpr streams);
#   sha1-ce and sha256-ce <= 110 per 64-byte block, sha512-ce <= 450 per
#   128-byte block (103, 99 and 447 when written: 0.04x, 0.03x and 0.12x
#   the portable C); crc-pmull, crc-armv8 and xxh-neon below the portable
#   kernel per byte, and crc-armv8 below crc-pmull on crc32b and crc32c
#   (why the dispatcher picks it first there); blake3-neon below
#   blake3-portable per chunk and blake3-neonx4 below it per 64-byte block
#   per lane; blake2b-neon below blake2b-portable per 128-byte block and
#   blake2b-neonx2 below it per block per lane (the condition on which
#   lib/dispatch.c lists them).
#
# Environment: CC_AARCH64 (default aarch64-linux-gnu-gcc), QEMU (qemu-aarch64),
# INSNCOUNT (the plugin .so; default: built from tests/bench/insncount.c
# into $TMPDIR).
set -euo pipefail

n=1000
cpu=max
while getopts n:c: opt; do
	case $opt in
	n) n=$OPTARG ;;
	c) cpu=$OPTARG ;;
	*) exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC_AARCH64:-aarch64-linux-gnu-gcc}
qemu=${QEMU:-qemu-aarch64}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fh-insns.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for tool in "$cc" "$qemu" gcc; do
	command -v "$tool" >/dev/null ||
		{ echo "aarch64-insns: $tool not found (qemu-user, gcc-aarch64-linux-gnu)" >&2; exit 1; }
done

plugin=${INSNCOUNT:-}
if [ -z "$plugin" ]; then
	src=$root/tests/bench/insncount.c
	plugin=$tmp/libinsncount.so
	gcc -shared -fPIC -O2 -o "$plugin" "$src"
fi

# The driver calls one kernel function through its descriptor: "md5 NAME
# BLOCKS", "absorb NAME BLOCKS" (rate 136), "permute NAME CALLS", "sha1
# NAME BLOCKS", "sha256 NAME BLOCKS", "sha512 NAME BLOCKS", the
# multi-buffer "md5xn NAME BLOCKS" and "absorbxn NAME BLOCKS" (BLOCKS per
# lane), "x2 sha3ce|neon CALLS" for a two-state permutation, "crc MODEL
# KIB" with the model's name in fhsum (crc, crc32b, crc32c, crc64nvme)
# after the mode ("crc-crc32c NAME KIB"), "xxh3 NAME BLOCKS" (1 KiB),
# "b3chunks NAME CHUNKS" (BLAKE3's whole chunks, 1 KiB, in one call),
# "b3lanes NAME BLOCKS" (BLAKE3's lanes, BLOCKS of 64 bytes per lane),
# "blake2b NAME BLOCKS" (128 bytes) or "b2xn NAME BLOCKS" (BLAKE2b's
# lanes, BLOCKS of 128 bytes per lane).
cat >"$tmp/driver.c" <<'EOF'
#include <stdlib.h>
#include <string.h>

#include "kernels_arm.h"
#include "crc.h"

/* crc-armv8 asks for the CPU's features (PMULL: its other models); the
 * CPUs measured here have them all. */
uint32_t fh_cpu_features(void)
{
	return FH_CPU_ARM_ASIMD | FH_CPU_ARM_PMULL | FH_CPU_ARM_CRC32;
}

static const struct fh_kernel *const kernels[] = {
	&fh_md5_portable, &fh_md5_gpr, &fh_md5_neonx4,
	&fh_keccak_portable, &fh_keccak_gpr, &fh_keccak_sha3ce,
	&fh_keccak_sha3cex2, &fh_keccak_neonx2,
	&fh_sha1_portable, &fh_sha1_ce, &fh_sha256_portable, &fh_sha256_ce,
	&fh_sha512_portable, &fh_sha512_ce,
	&fh_crc_portable, &fh_crc_pmull, &fh_crc_armv8,
	&fh_xxh_portable, &fh_xxh_neon,
	&fh_blake3_portable, &fh_blake3_neon, &fh_blake3_neonx4,
	&fh_blake2b_portable, &fh_blake2b_neon, &fh_blake2b_neonx2,
};
static const struct { const char *name; const struct fh_crc_model *m; } models[] = {
	{ "crc", &fh_crc_cksum }, { "crc32b", &fh_crc_32 },
	{ "crc32c", &fh_crc_32c }, { "crc64nvme", &fh_crc_64nvme },
};
/* BLAKE3's key for an unkeyed hash: its IV. */
static const uint32_t b3_key[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	size_t count = strtoul(argv[3], NULL, 10);
	const struct fh_kernel *k = NULL;
	for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
		if (!strcmp(kernels[i]->name, argv[2]))
			k = kernels[i];
	/* Room for FH_MAX_LANES lanes of COUNT blocks of up to 136 bytes,
	 * or for COUNT KiB. */
	uint8_t *buf = calloc((count ? count : 1) * FH_MAX_LANES, 136);
	uint64_t crc = 0;
	uint32_t md5[FH_MAX_LANES][4] = { { 0x67452301, 0xefcdab89,
					    0x98badcfe, 0x10325476 } };
	uint64_t s0[25] = { 0 }, s1[25] = { 1 };
	uint32_t h32[8] = { 0 };
	uint64_t h64[8] = { 0 };
	static uint64_t sn[FH_MAX_LANES][25];
	static struct fh_blake3_lane b3[FH_MAX_LANES];
	static uint64_t b2[FH_MAX_LANES][FH_BLAKE2B_LANE_WORDS];
	uint32_t (*cvs)[8] = calloc(count ? count : 1, sizeof *cvs);
	const uint8_t *lanes[FH_MAX_LANES];

	if (!buf || !cvs)
		return 2;
	for (size_t i = 0; i < FH_MAX_LANES; i++)
		lanes[i] = buf + i * count * 136;
	if (!strcmp(argv[1], "x2")) {
		void (*x2)(uint64_t *, uint64_t *, unsigned) =
			!strcmp(argv[2], "neon") ? fh_keccak_permute_x2_neon
						 : fh_keccak_permute_x2_sha3ce;
		for (size_t i = 0; i < count; i++)
			x2(s0, s1, 24);
	} else if (!k) {
		return 2;
	} else if (!strcmp(argv[1], "md5")) {
		fh_md5_blocks_of(k)(md5[0], buf, count);
	} else if (!strcmp(argv[1], "md5xn")) {
		fh_md5_blocks_xn_of(k)(md5, lanes, count);
	} else if (!strcmp(argv[1], "absorbxn")) {
		fh_keccak_absorb_xn_of(k)(sn, lanes, count, 136, 24);
	} else if (!strcmp(argv[1], "sha1")) {
		fh_sha1_blocks_of(k)(h32, buf, count);
	} else if (!strcmp(argv[1], "sha256")) {
		fh_sha256_blocks_of(k)(h32, buf, count);
	} else if (!strcmp(argv[1], "sha512")) {
		fh_sha512_blocks_of(k)(h64, buf, count);
	} else if (!strcmp(argv[1], "absorb")) {
		fh_keccak_absorb_of(k)(s0, buf, count, 136, 24);
	} else if (!strncmp(argv[1], "crc-", 4)) {
		for (size_t i = 0; i < count * 1024; i++)
			buf[i] = (uint8_t)(i * 7 + 1);
		for (size_t i = 0; i < sizeof models / sizeof *models; i++)
			if (!strcmp(models[i].name, argv[1] + 4))
				crc = fh_crc_update_of(k)(models[i].m,
					fh_crc_start(models[i].m), buf, count * 1024);
	} else if (!strcmp(argv[1], "xxh3")) {
		fh_xxh3_blocks_of(k)(h64, buf, count);
	} else if (!strcmp(argv[1], "b3chunks")) {
		fh_blake3_chunks_of(k)(b3_key, buf, count, 0, 0, cvs);
	} else if (!strcmp(argv[1], "b3lanes")) {
		fh_blake3_lanes_of(k)(b3, lanes, count);
	} else if (!strcmp(argv[1], "blake2b")) {
		fh_blake2b_blocks_of(k)(h64, buf, count, 0, false);
	} else if (!strcmp(argv[1], "b2xn")) {
		fh_blake2b_blocks_xn_of(k)(b2, lanes, count);
	} else if (!strcmp(argv[1], "permute")) {
		for (size_t i = 0; i < count; i++)
			fh_keccak_permute_of(k)(s0, 24);
	} else {
		return 2;
	}
	/* Keep the results live. */
	return (int)((md5[0][0] ^ md5[1][0] ^ s0[0] ^ s1[0] ^ sn[0][0] ^
		      sn[1][0] ^ h32[0] ^ h64[0] ^ crc ^ cvs[0][0] ^
		      b3[0].cv[0] ^ b3[1].cv[0] ^ b2[0][0] ^ b2[1][0]) & 1);
}
EOF

objs=()
for f in lib/md5_portable.c lib/keccak_portable.c arch/aarch64/kernels_arm.c \
	arch/aarch64/md5_gpr.S arch/aarch64/keccak_gpr.S \
	arch/aarch64/keccak_sha3ce.S arch/aarch64/md5_neonx4.S \
	arch/aarch64/keccak_neonx2.S lib/sha1_portable.c lib/sha256_portable.c \
	lib/sha512_portable.c arch/aarch64/sha1_ce.S arch/aarch64/sha256_ce.S \
	arch/aarch64/sha512_ce.S lib/crc.c lib/xxhash.c arch/aarch64/crc_pmull.c \
	arch/aarch64/crc_armv8.c arch/aarch64/xxh3_neon.c lib/blake3.c \
	arch/aarch64/blake3_neon.c lib/blake2b.c arch/aarch64/blake2b_neon.c; do
	o=$tmp/$(basename "$f").o
	# Each file's extension, as arch/aarch64/meson.build gives it.
	ext=()
	case $f in
	*crc_pmull.c) ext=(-march=armv8-a+crypto) ;;
	*crc_armv8.c) ext=(-march=armv8-a+crc) ;;
	esac
	"$cc" -O2 -std=c11 -D_GNU_SOURCE -I"$root/lib" -I"$root/arch/aarch64" \
		"${ext[@]}" -c "$root/$f" -o "$o"
	objs+=("$o")
done
"$cc" -O2 -std=c11 -static -I"$root/lib" -I"$root/arch/aarch64" \
	-o "$tmp/driver" "$tmp/driver.c" "${objs[@]}"

# The function symbols each kernel's code lives in: everything defined in
# its object file, so helpers the compiler kept out of line count too.
syms_of() { # OBJECT...
	local o
	for o in "$@"; do
		"${cc%gcc}nm" --defined-only "$tmp/$o.o" | awk '$2 ~ /^[tT]$/ { print $3 }'
	done | sort -u
}

# count MODE NAME CALLS OBJECT...: instructions executed in the kernel's
# symbols for one run.
count() {
	local mode=$1 name=$2 calls=$3 args=() s
	shift 3
	for s in $(syms_of "$@"); do args+=("sym=$s"); done
	local IFS=, out rc=0
	out=$(QEMU_CPU=$cpu "$qemu" -plugin "$plugin,${args[*]}" -d plugin \
		"$tmp/driver" "$mode" "$name" "$calls" 2>&1 >/dev/null) || rc=$?
	# The driver exits 0 or 1 (a bit of its results); a signal (SIGILL
	# where the CPU lacks the kernel's extension) means not run: "n/a".
	if ((rc > 1)); then echo n/a; return; fi
	awk '$1 == "insns" && $2 != "total" { s += $3 } END { print s + 0 }' <<<"$out"
}

# per MODE NAME OBJECT...: (count(2N) - count(N)) / N, rounded.
per() {
	local mode=$1 name=$2 a b
	shift 2
	a=$(count "$mode" "$name" "$n" "$@")
	b=$(count "$mode" "$name" $((2 * n)) "$@")
	if [ "$a" = n/a ] || [ "$b" = n/a ]; then echo n/a; return; fi
	echo $(((b - a + n / 2) / n))
}

# div VALUE DIVISOR: VALUE / DIVISOR to one decimal, without a trailing .0.
div() { awk -v v="$1" -v d="$2" 'BEGIN { if (v == "n/a") { print v; exit }
	s = sprintf("%.1f", v / d); sub(/\.0$/, "", s); print s }'; }

missed=0
# row KERNEL WHAT UNIT VALUE TARGET(or -) [REFERENCE-VALUE REFERENCE-NAME]:
# TARGET "<X" means strictly below X.  The last column is VALUE over the
# reference's value.
row() {
	local verdict="" vs="" t=$5 op="<="
	if [ "$4" = n/a ]; then
		printf '| %s | %s | %s | n/a | not run on %s |  |\n' "$1" "$2" "$3" "$cpu"
		return
	fi
	if [ "$t" != - ]; then
		case $t in "<"*) op="<"; t=${t#<} ;; esac
		if awk -v v="$4" -v t="$t" -v op="$op" 'BEGIN { exit !(op == "<" ? v < t : v <= t) }'; then
			verdict="${op/<=/≤} $t, met"
		else
			verdict="${op/<=/≤} $t, MISSED"; missed=1
		fi
	fi
	if [ $# -ge 7 ]; then
		vs="$(awk -v v="$4" -v r="$6" 'BEGIN { printf "%.2f", v / r }')x $7"
	fi
	printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$verdict" "$vs"
}

echo "Executed AArch64 instructions (qemu $("$qemu" --version | awk 'NR==1 { print $3 }'), QEMU_CPU=$cpu, N=$n; portable C: $("$cc" -dumpfullversion) -O2)"
echo
echo '| kernel | function | per | instructions | target | vs single stream |'
echo '|---|---|---|---:|---|---|'
row md5-portable md5_blocks "64-byte block" "$(per md5 md5-portable md5_portable.c)" -
md5gpr=$(per md5 md5-gpr md5_gpr.S)
row md5-gpr md5_blocks "64-byte block" "$md5gpr" 600
md5x4=$(per md5xn md5-neonx4 md5_neonx4.S)
row md5-neonx4 md5_blocks_xn "call-block (4 x 64 bytes)" "$md5x4" - "$((4 * md5gpr))" "4 x md5-gpr"
row md5-neonx4 md5_blocks_xn "64-byte block per lane" "$(div "$md5x4" 4)" 160 "$md5gpr" md5-gpr
row keccak-portable keccak_permute permutation "$(per permute keccak-portable keccak_portable.c)" -
row keccak-portable "keccak_absorb, rate 136" "block (1 permutation)" "$(per absorb keccak-portable keccak_portable.c)" -
kgpr=$(per permute keccak-gpr keccak_gpr.S)
row keccak-gpr keccak_permute permutation "$kgpr" 3300
kgpra=$(per absorb keccak-gpr keccak_gpr.S)
row keccak-gpr "keccak_absorb, rate 136" "block (1 permutation)" "$kgpra" 3300
row keccak-sha3ce keccak_permute permutation "$(per permute keccak-sha3ce keccak_sha3ce.S)" 1800 "$kgpr" keccak-gpr
row keccak-sha3ce "keccak_absorb, rate 136" "block (1 permutation)" "$(per absorb keccak-sha3ce keccak_sha3ce.S)" 1800 "$kgpra" keccak-gpr
x2=$(per x2 sha3ce keccak_sha3ce.S)
row "(two-state SHA3)" fh_keccak_permute_x2_sha3ce "call (2 permutations)" "$x2" - "$((2 * kgpr))" "2 x keccak-gpr"
row "(two-state SHA3)" fh_keccak_permute_x2_sha3ce "permutation per state" "$(div "$x2" 2)" 1000 "$kgpr" keccak-gpr
xa=$(per absorbxn keccak-sha3cex2 keccak_sha3ce.S)
row keccak-sha3cex2 "keccak_absorb_xn, rate 136" "call-block (2 permutations)" "$xa" - "$((2 * kgpra))" "2 x keccak-gpr"
row keccak-sha3cex2 "keccak_absorb_xn, rate 136" "block per state" "$(div "$xa" 2)" 1000 "$kgpra" keccak-gpr
x2=$(per x2 neon keccak_neonx2.S)
row "(two-state NEON)" fh_keccak_permute_x2_neon "call (2 permutations)" "$x2" "<$((2 * kgpr))" "$((2 * kgpr))" "2 x keccak-gpr"
row "(two-state NEON)" fh_keccak_permute_x2_neon "permutation per state" "$(div "$x2" 2)" "<$kgpr" "$kgpr" keccak-gpr
xa=$(per absorbxn keccak-neonx2 keccak_neonx2.S)
row keccak-neonx2 "keccak_absorb_xn, rate 136" "call-block (2 permutations)" "$xa" - "$((2 * kgpra))" "2 x keccak-gpr"
row keccak-neonx2 "keccak_absorb_xn, rate 136" "block per state" "$(div "$xa" 2)" "<$kgpra" "$kgpra" keccak-gpr

# The SHA kernels against the portable C ones (the last column), per block
# and per byte.  The count for sha256-ce and sha512-ce includes the C
# wrapper in kernels_arm.c that passes K: it lives in another object and
# is not counted, a tail call of one or two instructions a call.
perbyte() { awk -v v="$1" -v d="$2" 'BEGIN { if (v == "n/a") print v; else printf "%.2f", v / d }'; }
sha_rows() { # FAMILY BLOCK-BYTES TARGET
	local p c
	p=$(per "$1" "$1-portable" "$1_portable.c")
	c=$(per "$1" "$1-ce" "$1_ce.S")
	row "$1-portable" "$1_blocks" "$2-byte block" "$p" -
	row "$1-portable" "$1_blocks" byte "$(perbyte "$p" "$2")" -
	row "$1-ce" "$1_blocks" "$2-byte block" "$c" "$3" "$p" "$1-portable"
	row "$1-ce" "$1_blocks" byte "$(perbyte "$c" "$2")" - "$(perbyte "$p" "$2")" "$1-portable"
}
sha_rows sha1 64 110
sha_rows sha256 64 110
sha_rows sha512 128 450

# The checksums per byte, N KiB in one call (the portable tails and the
# CRC kernels' calls into one another counted: every symbol of crc.c,
# crc_pmull.c and crc_armv8.c, or of xxhash.c and xxh3_neon.c).  Each
# kernel's target: below its portable kernel.
crc_objs=(crc.c crc_pmull.c crc_armv8.c)
for model in crc crc32b crc32c crc64nvme; do
	p=$(per "crc-$model" crc-portable "${crc_objs[@]}")
	pb=$(perbyte "$p" 1024)
	row crc-portable "$model" byte "$pb" -
	f=$(perbyte "$(per "crc-$model" crc-pmull "${crc_objs[@]}")" 1024)
	row crc-pmull "$model" byte "$f" "<$pb" "$pb" crc-portable
	# crc-armv8 is picked before crc-pmull for its CRC32 instructions'
	# models: there it must execute fewer than the folding.
	t="<$pb"
	case $model in crc32b | crc32c) t="<$f" ;; esac
	c=$(perbyte "$(per "crc-$model" crc-armv8 "${crc_objs[@]}")" 1024)
	row crc-armv8 "$model" byte "$c" "$t" "$pb" crc-portable
done
p=$(per xxh3 xxh-portable xxhash.c xxh3_neon.c)
c=$(per xxh3 xxh-neon xxhash.c xxh3_neon.c)
row xxh-portable "xxh3_blocks" "1024-byte block" "$p" -
row xxh-portable "xxh3_blocks" byte "$(perbyte "$p" 1024)" -
row xxh-neon "xxh3_blocks" "1024-byte block" "$c" "<$p" "$p" xxh-portable
row xxh-neon "xxh3_blocks" byte "$(perbyte "$c" 1024)" - "$(perbyte "$p" 1024)" xxh-portable

# BLAKE3 per 1 KiB chunk (N chunks in one call of the chunks entry point,
# a multiple of four: blake3-neon's four lanes all full) and per byte,
# and blake3-neonx4's lanes per 64-byte block in each of its four lanes,
# against blake3-portable's chunk over its 16 blocks.  The symbols of
# blake3.c and blake3_neon.c are counted for every BLAKE3 row.
b3_objs=(blake3.c blake3_neon.c)
p=$(per b3chunks blake3-portable "${b3_objs[@]}")
c=$(per b3chunks blake3-neon "${b3_objs[@]}")
pb=$(perbyte "$p" 1024)
row blake3-portable blake3_chunks "1024-byte chunk" "$p" -
row blake3-portable blake3_chunks byte "$pb" -
row blake3-neon blake3_chunks "1024-byte chunk" "$c" "<$p" "$p" blake3-portable
row blake3-neon blake3_chunks byte "$(perbyte "$c" 1024)" - "$pb" blake3-portable
x4=$(per b3lanes blake3-neonx4 "${b3_objs[@]}")
p64=$(div "$p" 16)
row blake3-neonx4 blake3_lanes "call-block (4 x 64 bytes)" "$x4" - "$(awk -v v="$p" 'BEGIN { print v / 4 }')" "4 x blake3-portable"
row blake3-neonx4 blake3_lanes "64-byte block per lane" "$(div "$x4" 4)" "<$p64" "$p64" blake3-portable
row blake3-neonx4 blake3_lanes "byte per lane" "$(perbyte "$x4" 256)" - "$pb" blake3-portable

# BLAKE2b per 128-byte block and per byte: blake2b-neon against the
# portable C built for AArch64, and blake2b-neonx2's lanes per block in
# each of its two lanes, against the same.
p=$(per blake2b blake2b-portable blake2b.c)
pb=$(perbyte "$p" 128)
row blake2b-portable blake2b_blocks "128-byte block" "$p" -
row blake2b-portable blake2b_blocks byte "$pb" -
c=$(per blake2b blake2b-neon blake2b_neon.c)
row blake2b-neon blake2b_blocks "128-byte block" "$c" "<$p" "$p" blake2b-portable
row blake2b-neon blake2b_blocks byte "$(perbyte "$c" 128)" - "$pb" blake2b-portable
x2=$(per b2xn blake2b-neonx2 blake2b_neon.c)
row blake2b-neonx2 blake2b_blocks_xn "call-block (2 x 128 bytes)" "$x2" - "$((2 * p))" "2 x blake2b-portable"
row blake2b-neonx2 blake2b_blocks_xn "128-byte block per lane" "$(div "$x2" 2)" "<$p" "$p" blake2b-portable
row blake2b-neonx2 blake2b_blocks_xn "byte per lane" "$(perbyte "$x2" 256)" - "$pb" blake2b-portable
exit $missed
