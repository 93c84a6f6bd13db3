#!/usr/bin/env bash
# go test -exec wrapper for `make mutate`: gremlins runs `go test <pkg>` for
# each mutant in a working copy of the module; with GOFLAGS=-exec=<this
# script> the package's own test binary runs first and then the ladder
# suite, built from the same mutated copy. A mutant is killed when either
# fails. MUTATE_SUITE=unit runs only the package's specs, =ladder only the
# ladder, to tell which part of the test suite kills what. MUTATE_SCOPE is
# the package directories mutated, separated by spaces (empty: every
# package under sim/ and views/).
set -u
bin=$1
shift
suite=${MUTATE_SUITE:-both}
scope=${MUTATE_SCOPE:-}
root=$PWD
while [ ! -f "$root/go.mod" ]; do
	[ "$root" = / ] && { echo "mutate: no go.mod above $PWD" >&2; exit 2; }
	root=$(dirname "$root")
done
# go test runs a test binary in its package's directory.
pkg=${PWD#"$root"}
pkg=${pkg#/}
# gremlins' first run gathers coverage with `go test -coverpkg ./sim/...
# ./...` from the module root, one binary per package. Only the specs a
# mutant will face run then — the mutated packages' own unless this is the
# ladder pass, and the ladder unless it is the unit pass — so that
# "covered" means reached by the suite that judges the mutant: a mutant
# the ladder never reaches is not built and run through every rung in the
# ladder pass only to live. Any other package's binary writes no profile,
# which go test accepts.
# A case expression lies in no coverage block: MUTATE_TOOL cover-cases adds
# one for each case whose body ran (tools/mutate/cases.go), or gremlins
# would never try a mutant of one.
for a in "$@"; do
	case $a in -test.coverprofile=*)
		case $pkg in
		ladder) [ "$suite" != unit ] || exit 0 ;;
		sim | sim/* | views | views/*)
			[ "$suite" != ladder ] || exit 0
			if [ -n "$scope" ]; then
				case " $scope " in *" $pkg "*) ;; *) exit 0 ;; esac
			fi
			;;
		*) exit 0 ;;
		esac
		"$bin" "$@" || exit
		profile=${a#-test.coverprofile=}
		if [ -n "${MUTATE_TOOL:-}" ] && [ -f "$profile" ]; then
			"$MUTATE_TOOL" cover-cases "$profile" "$root" || exit
		fi
		exit 0
		;;
	esac
done
# Ginkgo ignores -test.failfast: -ginkgo.fail-fast stops a package's specs
# (and the ladder's rungs) at the first failure, so a killed mutant costs
# one spec, not the whole suite.
if [ "$suite" != ladder ]; then
	"$bin" -ginkgo.fail-fast "$@" || exit 1
fi
if [ "$suite" != unit ]; then
	# GOFLAGS carries -exec=<this script>: clear it, or the ladder's own
	# test binary would recurse into this wrapper. The ladder empties its
	# reports directory first: each working copy gets its own (not the
	# one the coverage run was given, which parallel workers would share).
	# A mutant that makes a loop endless is given up after LADDER_STALL
	# without a finished tick, and fails the ladder (a kill), well inside
	# the tool's time budget; a tick of any rung takes milliseconds.
	(cd "$root" && GOFLAGS= LADDER_REPORTS="$root/reports" LADDER_STALL=${LADDER_STALL:-20s} go test -count=1 ./ladder -ginkgo.fail-fast >/dev/null 2>&1) || exit 1
fi
exit 0
