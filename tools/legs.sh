#!/usr/bin/env bash
# The legs of `make test`, and the table it ends with: which legs ran,
# which were skipped and why, which failed. A leg that cannot run on this
# machine (the browser test without Chromium, a matrix leg without qemu)
# prints one line
#
#   leg-skip: <leg>: <reason>
#
# and, with STRICT=1 (which .ci/run sets), fails instead of skipping, so a
# CI machine missing a tool cannot pass with a leg quietly left out.
#
#   tools/legs.sh run NAME CMD...   run one leg, recording how it ended in $LADDER_LEGS
#   tools/legs.sh record NAME STATUS [REASON]   record a leg (ran, skipped, failed)
#   tools/legs.sh table             print the table of $LADDER_LEGS
#
# $LADDER_LEGS is a file of tab-separated lines: name, status, reason.
set -uo pipefail

record() {
	[ -n "${LADDER_LEGS:-}" ] || return 0
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$LADDER_LEGS"
}

case ${1:-} in
run)
	name=$2
	shift 2
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	# Only this leg's own skip lines: a leg that records sub-legs itself
	# (the matrix) prints none.
	reasons=$(sed -n "s/^leg-skip: $name: //p" "$log" | sort -u | paste -sd ';' - | sed 's/;/; /g')
	rm -f "$log"
	if [ "$rc" -ne 0 ] && [ -n "$reasons" ]; then
		record "$name" failed "skipped, and STRICT=1 makes that a failure: $reasons"
	elif [ "$rc" -ne 0 ]; then
		record "$name" failed "exit status $rc (see above)"
	elif [ -n "$reasons" ]; then
		record "$name" skipped "$reasons"
	else
		record "$name" ran
	fi
	exit "$rc"
	;;
record)
	record "$2" "$3" "${4:-}"
	;;
table)
	[ -s "${LADDER_LEGS:-}" ] || exit 0
	echo
	echo "legs of make test${STRICT:+ (STRICT=$STRICT)}:"
	awk -F'\t' '{ printf "  %-16s %-8s %s\n", $1, ($2 == "ran" ? $2 : toupper($2)), $3 }' "$LADDER_LEGS"
	skipped=$(awk -F'\t' '$2 == "skipped" { printf "%s%s", sep, $1; sep = ", " }' "$LADDER_LEGS")
	failed=$(awk -F'\t' '$2 == "failed" { printf "%s%s", sep, $1; sep = ", " }' "$LADDER_LEGS")
	if [ -n "$skipped" ]; then
		echo "test: WARNING: legs skipped on this machine: $skipped — they proved nothing here; STRICT=1 (as .ci/run sets) makes a skipped leg fail"
	fi
	if [ -n "$failed" ]; then
		echo "test: FAILED legs: $failed"
	fi
	;;
*)
	echo "usage: tools/legs.sh run NAME CMD... | record NAME STATUS [REASON] | table" >&2
	exit 2
	;;
esac
