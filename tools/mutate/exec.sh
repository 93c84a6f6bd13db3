#!/usr/bin/env bash
# go test -exec wrapper for `make mutate`: gremlins runs `go test <pkg>` for
# each mutant in a working copy of the module; with GOFLAGS=-exec=<this
# script> the package's own test binary runs first and then the ladder
# suite, built from the same mutated copy. A mutant is killed when either
# fails. MUTATE_SUITE=unit runs only the package's specs, =ladder only the
# ladder, to tell which part of the test suite kills what.
set -u
bin=$1
shift
suite=${MUTATE_SUITE:-both}
# gremlins' first run gathers coverage: the package's specs must run then,
# whatever the suite, and the ladder adds nothing to a per-package profile.
for a in "$@"; do
	case $a in -test.coverprofile=*) exec "$bin" "$@" ;; esac
done
if [ "$suite" != ladder ]; then
	"$bin" "$@" || exit 1
fi
if [ "$suite" != unit ]; then
	root=$PWD
	while [ ! -f "$root/go.mod" ]; do
		[ "$root" = / ] && { echo "mutate: no go.mod above $PWD" >&2; exit 2; }
		root=$(dirname "$root")
	done
	# GOFLAGS carries -exec=<this script>: clear it, or the ladder's own
	# test binary would recurse into this wrapper.
	(cd "$root" && GOFLAGS= go test -count=1 -failfast ./ladder >/dev/null 2>&1) || exit 1
fi
exit 0
