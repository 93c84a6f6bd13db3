// Package lineage reads what a run's trace says of its claims: every
// variant with its predecessor and slot diff, every contest between two
// variants (supersession), and every belief's evidence — the page's
// variant tree and contests table, and the provenance `ladder explain`
// prints. It reads trace.jsonl only (docs/trace-schema.md: the variant
// record, a belief record's evidence), never the engine, so a downloaded
// CI run or a commit's goldens answer as the run that wrote them did.
//
// Everything it holds only grows with the run (a variant once minted, a
// contest, a piece of evidence), so the lineage as of tick T is the one
// read from the records up to T:
//
//	l, err := lineage.Read(r, 19) // nothing minted after tick 19
//	for _, c := range l.Claims { … c.Variants … c.Supersessions … }
//
// Provenance is one belief's account as `explain` prints it; the files
// and a re-run (ladder/rerun) fill it alike, and Write is its one
// spelling.
package lineage
