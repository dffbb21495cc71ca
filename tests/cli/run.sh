#!/bin/sh
# run.sh: runs the CLI suites (bats, TAP output) for `meson test`: all of
# them, or only those FHSUM_CLI_ONLY names ("engine io": engine.bats and
# io.bats), as CI's ThreadSanitizer build does.
dir=$(dirname "$0")
if [ -z "${FHSUM_CLI_ONLY:-}" ]; then
	exec bats --tap "$dir"
fi
set --
for name in $FHSUM_CLI_ONLY; do
	set -- "$@" "$dir/$name.bats"
done
exec bats --tap "$@"
