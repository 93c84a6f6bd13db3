#!/usr/bin/env bash
# The determinism matrix: the ladder and the engine's specs must pass,
# unchanged, as a 386 binary, as an arm64 binary, with FMA fusion allowed
# (GOAMD64=v3) and with FMA disabled at run time. Each leg probes what this
# machine can do first; a leg that cannot run here is skipped with a loud
# warning, never silently, and the summary at the end lists what ran;
# with STRICT=1 (which .ci/run sets) a leg that cannot run fails instead.
# Each leg is also recorded, as matrix/<leg>, in make test's closing table
# (tools/legs.sh, when $LADDER_LEGS is set), with its wall time.
#
#   tools/matrix.sh            every leg this machine can run
#   tools/matrix.sh arm64      one leg (386, arm64, v3, fma-off)
set -uo pipefail

GO=${GO:-go}
PKGS=(./ladder ./sim/...)
# The legs compare goldens; the triage page (a second run of every rung)
# is written and checked by the native `make ladder` and `make browser`.
export LADDER_PAGE=off
legs=("$@")
[ ${#legs[@]} -eq 0 ] && legs=(386 arm64 v3 fma-off)

ran=() skipped=() failed=()

warn() { printf '\nmatrix: WARNING: %s\n\n' "$*" >&2; }

here=$(dirname "$0")
# Each leg is timed from $began (set by begin before its probe: probing
# and building count as the leg's time) to when it is recorded, for make
# test's table.
began=
begin() { began=$("$here/legs.sh" now); }
record() { "$here/legs.sh" record "matrix/$1" "$2" "${3:-}" "$began" "$("$here/legs.sh" now)"; }
ok() { ran+=("$1"); record "$1" ran; }
bad() { failed+=("$1"); record "$1" failed "${2:-the specs failed (see above)}"; }

# skip is a leg this machine cannot run: a loud warning and a skip, or,
# with STRICT=1, a failure naming the leg and why.
skip() {
	local name=$1 reason=$2
	if [ "${STRICT:-}" = 1 ]; then
		printf '\nmatrix: FAILED: STRICT=1: the %s leg cannot run on this machine: %s\n\n' "$name" "$reason" >&2
		bad "$name" "skipped, and STRICT=1 makes that a failure: $reason"
	else
		warn "$reason: the $name leg was NOT run here"
		skipped+=("$name")
		record "$name" skipped "$reason"
	fi
}

# probe builds a trivial program for GOARCH=$1 and runs it with the
# executor in $2 (empty: natively); success means test binaries can run.
probe() {
	local dir
	dir=$(mktemp -d)
	printf 'package main\n\nfunc main() {}\n' >"$dir/main.go"
	GOARCH=$1 CGO_ENABLED=0 "$GO" build -o "$dir/probe" "$dir/main.go" 2>/dev/null &&
		(cd "$dir" && GODEBUG=asyncpreemptoff=1 $2 ./probe) >/dev/null 2>&1
	local rc=$?
	rm -rf "$dir"
	return $rc
}

# emulator returns the first qemu-user binary for an architecture.
emulator() {
	local name
	for name in "qemu-$1" "qemu-$1-static"; do
		if command -v "$name" >/dev/null; then
			command -v "$name"
			return 0
		fi
	done
	return 1
}

leg() {
	local name=$1
	shift
	echo "matrix[$name]: $*"
	if env "$@"; then ok "$name"; else bad "$name"; fi
}

# emulated runs a leg under qemu-user. The emulator itself is not
# flawless: a Go test binary can stall in a stop-the-world or die in the
# emulator's signal handling ("fatal: morestack on gsignal", "bad g in
# signal handler"), which says nothing about our code. Such a run is
# retried once, loudly; any other failure — a spec that fails — is final,
# and so is a second emulator fault.
emulated() {
	local name=$1
	shift
	local log
	log=$(mktemp)
	echo "matrix[$name]: $*"
	if env "$@" 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
		ok "$name"
	elif grep -qE 'panic: test timed out|fatal: morestack on gsignal|bad g in signal handler|qemu: uncaught target signal' "$log" &&
		! grep -qE '^\s*\[FAIL\]|--- FAIL' "$log"; then
		warn "the $name leg hit an emulator fault (see above), not a failing spec: retrying it once"
		if env "$@"; then ok "$name"; else bad "$name"; fi
	else
		bad "$name"
	fi
	rm -f "$log"
}

# go test's own vet (a subset of go vet's analyzers) is off in the 386,
# v3 and fma-off legs: 386-vet has just run every analyzer over every
# package as 386, and make check over every package as amd64, whose files
# GOAMD64 and GODEBUG do not change (no file is built for amd64.v3 alone).
# The arm64 leg keeps it: nothing else vets arm64's file set.
#
# one runs the leg $1 (386 also runs 386-vet).
one() {
	local l=$1 q
	begin
	case $l in
	386)
		# Every package, specs included, must build with a 32-bit int,
		# even on a machine that can run none of it: vet compiles without
		# executing (the run below covers only the ladder and sim/).
		leg 386-vet GOARCH=386 CGO_ENABLED=0 "$GO" vet ./...
		begin
		if probe 386 ""; then
			leg 386 GOARCH=386 CGO_ENABLED=0 "$GO" test -count=1 -vet=off "${PKGS[@]}"
		elif q=$(emulator i386) && probe 386 "$q"; then
			# Go's asynchronous preemption signals crash under qemu-user's
			# i386 signal emulation; turning it off changes scheduling only,
			# never a result.
			emulated 386 GODEBUG=asyncpreemptoff=1 GOARCH=386 CGO_ENABLED=0 "$GO" test -count=1 -vet=off -timeout 5m -exec "$q" "${PKGS[@]}"
		else
			skip 386 "this kernel cannot run 386 binaries and no working qemu-i386 was found (Debian: apt-get install qemu-user-static)"
		fi
		;;
	arm64)
		if [ "$(uname -m)" = aarch64 ] && probe arm64 ""; then
			leg arm64 GOARCH=arm64 CGO_ENABLED=0 "$GO" test -count=1 "${PKGS[@]}"
		elif q=$(emulator aarch64) && probe arm64 "$q"; then
			emulated arm64 GOARCH=arm64 CGO_ENABLED=0 "$GO" test -count=1 -timeout 5m -exec "$q" "${PKGS[@]}"
		else
			skip arm64 "no working qemu-aarch64 emulator (Debian: apt-get install qemu-user-static)"
		fi
		;;
	v3)
		if grep -qw fma /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo; then
			leg v3 GOAMD64=v3 "$GO" test -count=1 -vet=off "${PKGS[@]}"
		else
			skip v3 "this CPU cannot run GOAMD64=v3 binaries (no FMA/AVX2), so FMA fusion was not tried"
		fi
		;;
	fma-off)
		leg fma-off GODEBUG=cpu.fma=off "$GO" test -count=1 -vet=off "${PKGS[@]}"
		;;
	esac
}

for l in "${legs[@]}"; do
	case $l in
	386 | arm64 | v3 | fma-off) ;;
	*)
		echo "matrix: unknown leg $l (386, arm64, v3, fma-off)" >&2
		exit 2
		;;
	esac
done

for l in "${legs[@]}"; do
	one "$l"
done

echo "matrix: ran [${ran[*]:-}] skipped [${skipped[*]:-}] failed [${failed[*]:-}]"
if [ ${#skipped[@]} -gt 0 ]; then
	warn "legs skipped on this machine: ${skipped[*]} — goldens were NOT proved identical there"
fi
[ ${#failed[@]} -eq 0 ]
