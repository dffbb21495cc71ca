#!/usr/bin/env bats
# The README's recipe for many machines, run on this one: names cut into
# NUL-separated shards, each hashed through GNU parallel with
# --files0-from, the lists gathered and checked with -c.  Expected output
# comes from GNU md5sum.

load helper

setup() {
	common_setup
}

# same_check LIST...: fhsum -a md5 -c LIST... reports as md5sum -c does,
# status lines escaped as GNU 9.4+ escapes them.
same_check() {
	capture ref md5sum -c "$@"
	gnu94_escape <ref.out >ref.out.t && mv ref.out.t ref.out
	capture got fhsum -a md5 -c "$@"
	compare_runs "md5sum -c $*" ref got
}

@test "shards: lists hashed shard by shard through GNU parallel gather into md5sum's lines, and -c of them reports as md5sum -c" {
	command -v parallel >/dev/null || skip "GNU parallel not installed"
	parallel --version 2>/dev/null | grep -q 'GNU parallel' || skip "parallel is not GNU parallel"
	local i n=200
	[ "${FHSUM_QUICK:-0}" = 1 ] && n=40
	mkdir -p tree/a tree/b/c 'tree/with space'
	for i in $(seq "$n"); do pattern $((i * 97 % 5000)) >"tree/a/f$i"; done
	pattern 300000 >tree/b/big
	: >tree/b/c/empty
	pattern 10 >"tree/with space/back\\slash"
	pattern 11 >"tree/b/c/new
line"

	# The recipe: absolute names, NUL-separated, four shards of whole names.
	find "$PWD/tree" -type f -print0 >names0
	split -n r/4 -t '\0' -d names0 shard.
	[ -s shard.00 ] && [ -s shard.03 ] && [ ! -e shard.04 ] || fail "split made: $(echo shard.*)"
	# ':' is this machine; the README's runs name remote ones.
	ls shard.?? | HOME=$BATS_TEST_TMPDIR parallel --will-cite --sshlogin 2/: \
		--trc {}.md5 "$(printf '%q ' "${FHSUM_WRAP[@]}" "$FHSUM")-a md5 --files0-from={} >{}.md5" \
		2>parallel.err || fail "parallel: $(cat parallel.err)"

	# Gathered, the lists hold one run's lines: md5sum's over all names.
	xargs -0 md5sum <names0 | LC_ALL=C sort >want
	cat shard.??.md5 | LC_ALL=C sort >got
	cmp -s want got || fail "gathered lists differ from md5sum's: $(diff want got | head -20)"

	# -c takes the lists as they came back, or concatenated.
	same_check shard.00.md5 shard.01.md5 shard.02.md5 shard.03.md5 || return 1
	cat shard.??.md5 >all.md5
	capture got fhsum -c --quiet all.md5
	expect "-c --quiet all.md5" 0 || return 1
	# A file changed since: both report it.
	pattern 98 >tree/a/f1
	same_check shard.00.md5 shard.01.md5 shard.02.md5 shard.03.md5 || return 1
	grep -qx "$PWD/tree/a/f1: FAILED" got.out || fail "f1 not FAILED: $(cat got.out)"
}
