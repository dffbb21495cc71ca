#!/bin/sh
# run.sh: runs the CLI suites (bats, TAP output) for `meson test`: all of
# them, or only those FHSUM_CLI_ONLY names ("engine io": engine.bats and
# io.bats), as CI's ThreadSanitizer build does; FHSUM_CLI_SKIP names
# suites to leave out.
#
# In quick mode (FHSUM_QUICK=1) the files run two at a time (bats --jobs,
# through GNU parallel where it is installed; FHSUM_CLI_JOBS changes the
# count), each file's tests in order: the quick suites time nothing, and
# a file's tests may share its setup_file.  The full suite runs one file
# at a time, since some of its tests race the clock.
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
if [ "${FHSUM_QUICK:-0}" = 1 ] && [ "$jobs" -gt 1 ] &&
	command -v parallel >/dev/null 2>&1; then
	exec bats --tap --jobs "$jobs" --no-parallelize-within-files "$@"
fi
exec bats --tap "$@"
