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
#   tools/legs.sh record NAME STATUS [REASON [START END]]   record a leg (ran, skipped, failed)
#   tools/legs.sh now               print the clock the legs are timed by (seconds)
#   tools/legs.sh table             print the table of $LADDER_LEGS
#
# $LADDER_LEGS is a file of tab-separated lines: name, status, reason,
# and the wall clock (seconds since the epoch) at the leg's start and end,
# empty for a leg that did not run. The table shows each leg's wall time
# and the total from the first start to the last end: where make test's
# time goes (docs/performance.md). A sub-leg (matrix/386) is listed under
# its leg. This clock is tooling only; nothing it reads reaches a run.
set -uo pipefail

# now prints the wall clock in seconds: bash's EPOCHREALTIME (5.0 and
# later) to the microsecond, else date(1), whole seconds where date has
# no %N.
now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		printf '%s\n' "${EPOCHREALTIME/,/.}"
		return
	fi
	local t
	t=$(date +%s.%N)
	case $t in
	*N) date +%s ;;
	*) printf '%s\n' "$t" ;;
	esac
}

record() {
	[ -n "${LADDER_LEGS:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "${3:-}" "${4:-}" "${5:-}" >>"$LADDER_LEGS"
}

case ${1:-} in
run)
	name=$2
	shift 2
	log=$(mktemp)
	start=$(now)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	end=$(now)
	# Only this leg's own skip lines: a leg that records sub-legs itself
	# (the matrix) prints none.
	reasons=$(sed -n "s/^leg-skip: $name: //p" "$log" | sort -u | paste -sd ';' - | sed 's/;/; /g')
	rm -f "$log"
	if [ "$rc" -ne 0 ] && [ -n "$reasons" ]; then
		record "$name" failed "skipped, and STRICT=1 makes that a failure: $reasons" "$start" "$end"
	elif [ "$rc" -ne 0 ]; then
		record "$name" failed "exit status $rc (see above)" "$start" "$end"
	elif [ -n "$reasons" ]; then
		record "$name" skipped "$reasons" "$start" "$end"
	else
		record "$name" ran "" "$start" "$end"
	fi
	exit "$rc"
	;;
record)
	record "$2" "$3" "${4:-}" "${5:-}" "${6:-}"
	;;
now)
	now
	;;
table)
	[ -s "${LADDER_LEGS:-}" ] || exit 0
	echo
	echo "legs of make test${STRICT:+ (STRICT=$STRICT)}:"
	# Each leg, then its sub-legs (recorded before it, as they end first);
	# a sub-leg whose leg was not recorded comes last. The total is wall
	# time from the first leg's start to the last one's end.
	awk -F'\t' '
	function secs(i) { return (start[i] == "" || end[i] == "") ? "" : sprintf("%7.1f s", end[i] - start[i]) }
	function row(i,  line) {
		line = sprintf("  %-16s %-8s %9s  %s", name[i], (status[i] == "ran" ? "ran" : toupper(status[i])), secs(i), reason[i])
		sub(/ +$/, "", line)
		print line
		done[i] = 1
	}
	{
		name[NR] = $1; status[NR] = $2; reason[NR] = $3; start[NR] = $4; end[NR] = $5
		if ($4 != "" && (first == "" || $4 < first)) first = $4
		if ($5 != "" && (last == "" || $5 > last)) last = $5
	}
	END {
		for (i = 1; i <= NR; i++) {
			if (index(name[i], "/")) continue
			row(i)
			for (j = 1; j <= NR; j++) if (!done[j] && index(name[j], name[i] "/") == 1) row(j)
		}
		for (i = 1; i <= NR; i++) if (!done[i]) row(i)
		if (first != "") {
			t = last - first
			printf "  %-16s %-8s %7.1f s  (%dm%02ds wall)\n", "total", "", t, int(t / 60), int(t) % 60
		}
	}' "$LADDER_LEGS"
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
	echo "usage: tools/legs.sh run NAME CMD... | record NAME STATUS [REASON [START END]] | now | table" >&2
	exit 2
	;;
esac
