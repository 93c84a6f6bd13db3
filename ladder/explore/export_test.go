package explore

import "github.com/chronicle/ladder/sim/trace"

// WithHook gives a checker a sink that sees every run's trace.
func WithHook(c *Checker, s trace.Sink) *Checker { c.hook = s; return c }

// OptionsWithHook gives an exploration's checker that sink.
func OptionsWithHook(o Options, s trace.Sink) Options { o.hook = s; return o }
