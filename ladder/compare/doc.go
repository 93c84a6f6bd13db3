// Package compare aligns two runs of one seed and says where and how they
// differ: the instrument a counterfactual needs.
//
// Every roll is a pure function of its key — seed, purpose, tick, site,
// participants (decision 0001) — so two runs that share a seed roll the
// same value for every key both roll. Comparing two runs is therefore
// comparing their rolls by key, not by position:
//
//   - a key both runs rolled with different values is value drift: only a
//     pin (or a bug in the keyed function) can cause it;
//   - a key both rolled with the same value against a different threshold
//     is threshold drift: the odds moved, the dice did not (pair weighting,
//     a changed define); the outcome may flip;
//   - a key only one run rolled is control-flow drift: the runs' worlds
//     differ there (someone was elsewhere, a retelling happened in one run
//     only). Each such key is listed with where and when it was rolled and
//     by which record.
//
// Runs reads two trace files as streams, in step, one tick at a time —
// a key names its tick, so a tick's rolls can only pair with the same
// tick's rolls of the other run — and reports the counts of each class,
// the first divergent roll (earliest tick, then place in the tick), the
// first divergent belief set (the first tick at which some holder holds a
// different set of claim variants, from belief records and keyframes) and
// the first divergent dense cell, aligning the dense files by tick and
// column name. Memory holds one tick of each run, their belief sets and
// the differences kept (Options.List).
//
// An Index is one run's rolls by key, built by an Indexer from records as
// they pass; a Matcher pairs another run's rolls with it as that run
// streams by. The ladder's comparison expectation uses it to compare a
// case with the run it is a counterfactual of without holding either
// trace.
//
// Records are read as encoding/json decodes them (maps, float64 numbers),
// which is also how the ladder's expectations see them, so both paths
// read a roll with the same code (RollOf).
package compare
