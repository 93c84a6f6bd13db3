package explore

import (
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/trace"
)

// WithHook gives a checker a sink that sees every run's trace.
func WithHook(c *Checker, s trace.Sink) *Checker { c.hook = s; return c }

// OptionsWithHook gives an exploration's checker that sink.
func OptionsWithHook(o Options, s trace.Sink) Options { o.hook = s; return o }

// Occupies is the schedule oracle's own reading of a block (placement.go).
var Occupies = occupies

// Placement is the schedule oracle over a fixture and a dense.csv.
var Placement = placement

// VocabularyOf is what the vocabulary oracle says a slot type may take.
func VocabularyOf(f *fixture.Fixture, t claims.SlotType) []string { return newVocabulary(f)[t] }
