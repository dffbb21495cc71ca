#!/bin/sh
# run.sh: runs the CLI suites (bats, TAP output) for `meson test`: all of
# them, or only those FHSUM_CLI_ONLY names ("engine io": engine.bats and
# io.bats), as CI's ThreadSanitizer build does; FHSUM_CLI_SKIP names
# suites to leave out.
#
# The files run two at a time (bats --jobs, through GNU parallel where it
# is installed; FHSUM_CLI_JOBS changes the count), each file's tests in
# order, since a file's tests may share its setup_file.  The tests that
# race the clock (named "... (timed)", see timed_test in helper.bash) do
# not run beside another: quick mode (FHSUM_QUICK=1) skips them, and the
# full suite leaves them to a pass of their own, one at a time, after the
# others.
dir=$(dirname "$0")
set --
if [ -n "${FHSUM_CLI_ONLY:-}" ]; then
	for name in $FHSUM_CLI_ONLY; do
		set -- "$@" "$dir/$name.bats"
	done
elif [ -n "${FHSUM_CLI_SKIP:-}" ]; then
	for f in "$dir"/*.bats; do
		name=$(basename "$f" .bats)
		case " $FHSUM_CLI_SKIP " in *" $name "*) continue ;; esac
		set -- "$@" "$f"
	done
else
	set -- "$dir"
fi
jobs=${FHSUM_CLI_JOBS:-2}
if [ "$jobs" -le 1 ] || ! command -v parallel >/dev/null 2>&1; then
	exec bats --tap "$@"
fi
if [ "${FHSUM_QUICK:-0}" = 1 ]; then
	exec bats --tap --jobs "$jobs" --no-parallelize-within-files "$@"
fi
rc=0
FHSUM_TIMED=later bats --tap --jobs "$jobs" --no-parallelize-within-files "$@" || rc=1
bats --tap --filter '\(timed\)$' "$@" || rc=1
exit $rc
