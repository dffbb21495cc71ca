#!/bin/sh
# run.sh: runs the CLI suites (bats, TAP output) for `meson test`: all of
# them, or only those FHSUM_CLI_ONLY names ("engine io": engine.bats and
# io.bats), as CI's ThreadSanitizer build does; FHSUM_CLI_SKIP names
# suites to leave out ("audit json": CI's runs once per kernel, which do
# not need the suites whose options no kernel changes).
dir=$(dirname "$0")
if [ -z "${FHSUM_CLI_ONLY:-}" ] && [ -z "${FHSUM_CLI_SKIP:-}" ]; then
	exec bats --tap "$dir"
fi
set --
if [ -n "${FHSUM_CLI_ONLY:-}" ]; then
	for name in $FHSUM_CLI_ONLY; do
		set -- "$@" "$dir/$name.bats"
	done
else
	for f in "$dir"/*.bats; do
		name=$(basename "$f" .bats)
		case " $FHSUM_CLI_SKIP " in *" $name "*) continue ;; esac
		set -- "$@" "$f"
	done
fi
exec bats --tap "$@"
