// Package coverage measures which rule regimes the ladder reaches.
//
// Every rule in sim/rules' catalogue declares its regimes — the outcomes
// and branches that matter (rule 11: below threshold, fired, latched,
// re-armed…) — each with the trace record that shows it (rules.Sign). A
// regime no rung reaches is code no golden guards: a change to it passes
// every byte comparison. So each run carries a Meter beside its trace
// sink, which tests every record against the signs of its kind and notes
// the first tick and the count of each regime reached; the run writes
// them to reports/<run>/regimes.json (RunFile). After the suite, Build
// joins the runs into reports/coverage.json (ReportFile): every declared
// regime with the runs that reached it. On a complete report — every run
// the ladder has — Problems names each regime reached by no run, and
// `make ladder` fails on them; a regime no world can reach is listed in
// the catalogue with its reason (Regime.Unreachable), and a run that
// reaches one anyway is a problem too.
//
// The meter reads the records the trace already holds: there is no second
// instrumentation path in the engine, and a regime's sign is exactly what
// a person reading trace.jsonl would look for.
//
//	{"regimes": [{"number": 11, "rule": "accumulation-threshold", "regime": "re-armed",
//	  "sign": "a rule record: values.rearmed = 1.0", "runs": [{"run": "T3.1/rearm", "first": 30, "records": 1}]}, …]}
package coverage
