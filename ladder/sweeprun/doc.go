// Package sweeprun runs a sweep rung (fixture sweep:): the rung's world
// copied into towns, run once per seed id derived from the rung's own
// (SeedID; the pilot's, disjoint, PilotSeedID), each seed's exact counts
// written to aggregates.csv and their mean, spread and range with each
// bound's verdict to summary.json, and the set sealed. Each bound on a
// count's mean over the seeds is an expectation of the run (package
// ladder/sweep judges it). Package ladder's Run hands a sweep rung here;
// package verdict compares its two small files with their goldens byte
// for byte.
//
// It may import the fixture and file-format packages, ladder/sweep,
// record (for the progress a watched run reports) and the engine; never
// package ladder or anything above it.
package sweeprun
