// Package pageinput gathers what the triage page (package page) shows for
// each run from what the run left behind: its artifacts under reports/
// (the trace holds the variant tree, contests and evidence), the goldens
// to overlay,
// the failure lines the gate printed, the run a counterfactual case is
// compared with, and for a sweep its summary and one seed's world run as
// an ordinary section (SeedWorld, RunSeedWorld). The page is built from
// these inputs alone, never from a second run of the fixture.
//
// It may import package ladder, record, verdict, page and the packages
// below them; package report, which writes the page, imports it.
package pageinput
