// Package harness holds the specs of the ladder's own machinery — the
// messages of failed expectations, Verify's golden comparisons, Explain —
// apart from the rungs. They run on synthetic fixtures written in the
// specs, with every define pinned, so a change of the engine's behaviour
// fails rungs under `make ladder` and never these specs; and they run in
// `make unit`, so the ladder suite's Ginkgo failure count is its rung
// count. The package has no code of its own.
package harness
