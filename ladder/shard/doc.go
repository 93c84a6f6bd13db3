// Package shard splits the ladder across CI runners: `make ladder
// SHARD=2/4` runs the second of four deterministic parts of the rungs.
//
// The parts are balanced by cost — each rung's run time (its cases
// included) as recorded in a committed file, ladder/shard/costs.json:
//
//	{
//	  "costs_ms": {"T0.1": 1, "T2.1": 184, …},
//	  "refresh": "make ladder && go run ./tools/ladder costs"
//	}
//
// Plan deals the rungs out longest first, each to the part with the least
// cost so far (ties to the lower part; equal costs by rung id), so the
// plan is a function of the rung list and that file alone: every runner
// of a CI matrix computes the same parts without talking to the others. A
// rung the file does not know costs the median of the known ones.
//
// A part is run through a Ginkgo label filter: part k > 1 selects its
// rungs' labels; part 1 selects everything the other parts do not —
// its own rungs and every spec that is not a rung (the harness's unit
// specs, the goldens check) — so the parts together run every spec exactly
// once, whatever labels specs carry. `go run ./tools/ladder merge-reports`
// joins the parts' reports into one (package report).
package shard
