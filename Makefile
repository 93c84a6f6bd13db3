# The Chronicle ladder. `make ladder` is the CI gate; `make test` is
# everything (static checks, unit specs with fuzz seed corpora, the ladder,
# the cross-platform determinism matrix). Only Go is needed: Ginkgo is a
# tool dependency in go.mod, run with `go tool ginkgo`.

GO      ?= go
GINKGO  := $(GO) tool ginkgo
RUNG    ?=
SHARD   ?=
FUZZTIME ?= 30s

# RUNG=T0.2 selects one rung with all its cases, RUNG=T2.3/swapped one case,
# RUNG=T0.2,T2.3 several: by the rung's Ginkgo label; a case (a label cannot
# hold a slash) also by its spec's text, which starts with the case's name.
comma := ,
empty :=
space := $(empty) $(empty)
RUNGS := $(subst $(comma),$(space),$(RUNG))
LABEL_FILTER := $(if $(RUNG),--label-filter='$(subst $(space),$(comma),$(sort $(foreach r,$(RUNGS),$(firstword $(subst /,$(space),$(r))))))')
FOCUS := $(foreach r,$(RUNGS),$(if $(findstring /,$(r)),--focus=' $(subst .,\.,$(r)) ',--focus=' $(subst .,\.,$(r))[ /]'))

# The suite writes everything into its reports directory (LADDER_REPORTS,
# or reports/) itself, under that directory's lock: junit.xml (grouped by
# tier, located on the fixtures), failures.json and Ginkgo's ladder.json —
# never the ginkgo command, which would write ladder.json to one fixed
# place whatever the run's directory, and through a symlink.
GINKGO_FLAGS := --randomize-all --fail-on-empty --fail-on-pending --keep-going

.PHONY: ladder verify test check unit browser matrix matrix-arm64 mutate goldens bench fuzz clean explore explore-short

## ladder: run every rung (or RUNG=T0.2, RUNG=T2.3/swapped; SHARD=2/4 for part 2 of 4, balanced by
## ladder/shard/costs.json) against its goldens; writes reports/ (clearing it first) with each
## rung's artifacts and its pending changes; never writes a golden
# A red run's closing block (start here:, the failed runs, the count) is
# printed again after Ginkgo's own list of failures, which comes last and in
# the order the specs ran, so that the end of the output is what to read first.
# The suite clears its reports directory (closing.txt with it) once it
# holds it: nothing here writes or deletes there first.
CLOSING = $${LADDER_REPORTS:-reports}/closing.txt
# Only this run's closing block: a run that never held its reports
# directory (refused, or failed to build) leaves an older run's there,
# which is not this run's verdict. find -newer compares to the nanosecond.
PRINT_CLOSING = if [ -s $(CLOSING) ] && [ -n "$$(find $(CLOSING) -newer $$stamp 2>/dev/null)" ]; then cat $(CLOSING); fi; rm -f $$stamp
ladder:
ifneq ($(SHARD),)
	@filter=$$($(GO) run ./tools/ladder shard $(if $(RUNG),-rung $(RUNG)) $(SHARD)) && \
	echo "shard $(SHARD): --label-filter='$$filter'" && stamp=$$(mktemp) && \
	$(GINKGO) $(GINKGO_FLAGS) --label-filter="$$filter" $(FOCUS) ./ladder; \
	status=$$?; $(PRINT_CLOSING); exit $$status
else
	@echo "$(GINKGO) $(GINKGO_FLAGS) $(LABEL_FILTER) $(FOCUS) ./ladder"; stamp=$$(mktemp); \
	$(GINKGO) $(GINKGO_FLAGS) $(LABEL_FILTER) $(FOCUS) ./ladder; \
	status=$$?; $(PRINT_CLOSING); exit $$status
endif

## verify: replay every run the last `make ladder` left in reports/ (or RUNG=...) from its exported
## log: the engine must append exactly the logged records and reach the recorded state digests and
## log head (docs/determinism.md, "Replay")
verify:
	$(GO) run ./tools/ladder verify $(RUNGS)

## test: static checks, unit specs (fuzz seed corpora included), the ladder, its replay, the triage
## page in a browser, a short exploration, the determinism matrix — each a leg, in this order, stopping
## at the first that fails; it ends with a table of the legs that ran, were skipped (with why) or
## failed. STRICT=1 (set by .ci/run) makes a leg this machine cannot run fail instead of skipping.
TEST_LEGS := check unit ladder verify browser explore-short matrix
STRICT  ?=
export STRICT
test:
	@legs=$$(mktemp) && export LADDER_LEGS=$$legs && rc=0 && \
	for leg in $(TEST_LEGS); do \
		if [ $$rc -ne 0 ]; then tools/legs.sh record $$leg "not run" "an earlier leg failed"; continue; fi; \
		tools/legs.sh run $$leg $(MAKE) --no-print-directory $$leg || rc=$$?; \
	done; \
	tools/legs.sh table; rm -f $$legs; exit $$rc

## explore: replay the kept findings (findings/), then generate worlds nobody wrote for EXPLORE_TIME
## (default 60s) or EXPLORE_WORLDS worlds (the same worlds on any machine), checking every property of
## docs/explore.md on each, on every core (EXPLORE_WORKERS); a failure is shrunk to a fixture under
## reports/explore/ and kept under findings/. Prints its seed (EXPLORE_SEED=S replays one exactly) and
## progress; SHARD=k/N explores part k of N of the seed; EXPLORE_FLAGS passes more (-until-failure)
EXPLORE_TIME ?= 60s
EXPLORE_SEED ?=
EXPLORE_WORLDS ?=
EXPLORE_WORKERS ?=
EXPLORE_FLAGS ?=
explore:
	$(GO) run ./tools/ladder explore $(if $(EXPLORE_WORLDS),-worlds $(EXPLORE_WORLDS),-time $(EXPLORE_TIME)) $(if $(EXPLORE_SEED),-seed $(EXPLORE_SEED)) $(if $(EXPLORE_WORKERS),-workers $(EXPLORE_WORKERS)) $(if $(SHARD),-shard $(SHARD)) $(EXPLORE_FLAGS)

## explore-short: the exploration inside make test: the kept findings, then 100 worlds of a seed derived
## from the checked-out commit (printed), so each commit looks at worlds no earlier commit saw and a red
## one replays with the printed command; outside a git checkout, seed 1
explore-short:
	@if git rev-parse --verify -q HEAD >/dev/null 2>&1; then seed=-seed-from-commit; \
	else echo "explore-short: WARNING: not a git checkout: exploring seed 1 instead of the commit's"; seed="-seed 1"; fi; \
	echo "$(GO) run ./tools/ladder explore -worlds 100 $$seed"; \
	$(GO) run ./tools/ladder explore -worlds 100 $$seed

## check: gofmt and go vet must be clean, the determinism analyzers (tools/detcheck: no map order, clock,
## environment, randomness, goroutine, platform math, FMA fusion or address reaching an output; each
## justified exception listed) must find nothing, and actionlint (pinned in go.mod as a tool, built once
## into the Go build cache) must pass the GitHub Actions workflows
check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run ./tools/detcheck
	$(GO) tool actionlint .github/workflows/*.yml

## unit: every package's specs and fuzz seed corpora (the ladder runs under `make ladder`)
# go test starts packages in the order it is given them, two at a time on
# two cores, so the longest (tens of seconds each: building and running
# the suite and the tool, every rung through the page) go first and the
# many short ones fill the other core; last, one of them would run alone.
# It changes only the order: every package still runs, one in UNIT_FIRST
# that no longer exists is ignored.
UNIT_FIRST := tools/ladder ladder/page ladder/harness ladder/fixture ladder/replay
unit:
	@mod=$$($(GO) list -m) && \
	pkgs=$$($(GO) list ./... | grep -vx "$$mod/ladder" | awk -v mod="$$mod" -v first="$(UNIT_FIRST)" ' \
		BEGIN { n = split(first, f, " "); for (i = 1; i <= n; i++) rank[mod "/" f[i]] = i } \
		$$0 in rank { at[rank[$$0]] = $$0; next } { rest[++m] = $$0 } \
		END { for (i = 1; i <= n; i++) if (i in at) print at[i]; for (i = 1; i <= m; i++) print rest[i] }') && \
	echo "$(GO) test" $$pkgs && \
	$(GO) test $$pkgs

## browser: the triage page (reports/index.html) of failing runs, driven in headless Chromium, and
## loaded plainly by chromium --headless; writes a screenshot of each view, reports/page-*.png. With no chromium, chromium-browser or google-chrome on PATH
## (or LADDER_CHROME, which must name a program) it is skipped with a loud warning, or fails with STRICT=1. It has the build tag `browser` and runs here
## with -v because `go test` hides a passing package's output: inside `make unit` a skip would be
## silent. It runs after the ladder in `make test`, which rewrites reports/.
browser:
	$(GO) vet -tags browser ./ladder/page/
	$(GO) test -tags browser -count=1 -run '^TestBrowser$$' -v ./ladder/page/

## matrix: the ladder and engine specs unchanged as 386 and arm64 binaries (natively or under
## qemu-user), with FMA fusion allowed (GOAMD64=v3) and with FMA off; a leg this machine cannot
## run is skipped with a loud warning (tools/matrix.sh probes first)
matrix:
	GO=$(GO) tools/matrix.sh

## matrix-arm64: the arm64 leg alone
matrix-arm64:
	GO=$(GO) tools/matrix.sh arm64

## mutate: mutation score of sim/ (gremlins, pinned in go.mod), with each package's specs and the
## ladder as the test suite, then with the ladder alone; writes reports/mutation/summary.md. Slow
## (hours on two cores): not part of make test. SCOPE=./sim/social mutates one package; SHARD=2/4
## part 2 of 4 of the packages, balanced by source size, for a CI matrix (join the parts with
## `go run ./tools/mutate -merge dir1,dir2,… -out reports/mutation`). See docs/quality.md.
SCOPE   ?=
mutate:
	$(GO) run ./tools/mutate -suites both,ladder $(if $(SCOPE),-scope $(SCOPE)) $(if $(SHARD),-shard $(SHARD)) -out reports/mutation

## goldens: regenerate goldens (all, RUNG=T2.3 with its cases and the rungs extending it, or RUNG=T2.3/swapped)
## after proving determinism with two runs made in different orders; switches all changed files at once.
## REASON="…" says why, in the history of every set that changes (required then; a new set needs none).
## After a killed run: FINISH=1 only finishes its committed switch, ABANDON=1 only undoes it (every file
## as it was before, sealed)
ABANDON ?=
FINISH  ?=
# The reason reaches the tool through the environment, so that no quote
# or apostrophe in it can end the shell's word early.
REASON  ?=
export REASON
goldens:
	$(GO) run ./tools/ladder goldens $(if $(RUNG),-rung $(RUNG)) $(if $(ABANDON),-abandon) $(if $(FINISH),-finish) $(if $(REASON),-reason "$$REASON")

## bench: every benchmark, five counts, for benchstat
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...

## fuzz: run each fuzz target for FUZZTIME (default 30s)
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$target"; \
			$(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

clean:
	rm -rf reports
