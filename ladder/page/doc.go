// Package page writes the ladder's triage page, reports/index.html: one
// self-contained HTML file (inline CSS, script and SVG; nothing fetched)
// with a section per rung and case of a run.
//
// After the gate goes red a person needs where (the earliest divergence),
// how far (what changed) and why (beliefs, encounters, rolls and rules as
// of a tick). A section shows, for a failing rung, the gate's failure
// lines first, each linked to the tick it names; then the first
// divergence (the earliest of the dense CSV's first differing cell, the
// trace's first differing record and the failure lines' ticks) and a
// column-aware summary of the dense change; believer curves per claim as
// SVG, the golden's dashed over the run's with the divergence marked; an
// as-of-tick scrubber driving a belief table (each NPC's variant,
// confidence, stage, sources and evidence chain at the end of the tick,
// with the golden's value beside any that differs), the social state at
// that tick for a rung that has any (grudges, obligations, reputation,
// accumulators, pair weights, roles, changed schedules; each row naming
// the trace record that last changed it and linking to the rule
// evaluation behind it) and the tick's feed
// (every trace record in derivation order, declined encounters and
// transmissions listed exactly like fired ones); the variant tree with
// slot diffs and every supersession; and the rule-firing log.
//
// # Where the data comes from
//
// The belief table and curves come from the run's dense CSV (so they show
// exactly what the golden pins), the feed from its trace, and what neither
// holds — variants' slot diffs, supersessions, evidence with the tick it
// arrived — from the engine at the end of the run (Capture). The social
// panel's values come from the dense CSV's social columns (Blocks), and
// what last changed each row from the trace's state deltas (grudge,
// obligation, reputation, schedule, role) and the rule evaluations that
// move a value no delta records (an accumulator's count, a pair's weight,
// a role's lapses): SocialAt. Evidence is
// append-only in the store, so a belief's evidence as of tick t is its
// end-of-run evidence up to t.
//
// # State in the URL
//
// The fragment holds the state: "#T2.1@44" is section T2.1 with its
// scrubber at tick 44 ("#T2.1" alone opens the section at its default
// tick). Loading a URL with a fragment restores that state, moving a
// scrubber rewrites the fragment, and Link gives the deep link failure
// messages end with:
//
//	page.Link("T2.1", 44) == "reports/index.html#T2.1@44"
//
// In a fragment, the tick follows the last "@" and the name's bytes
// outside [A-Za-z0-9._~/-] are percent-encoded (Fragment, ParseFragment;
// the page's script reads it by the same rules).
//
// # Size
//
// Each section embeds its data as compact JSON: arrays of integers that
// index one table of strings ("s"), each id, variant and number written
// once. Its keys:
//
//	s     the string table
//	rows  [first, last, n, from, to, capped, sample]                 the run's dense rows, the window
//	                                                                  embedded, ticks per curve point
//	div   the first divergence tick, or -1
//	npc   [npc, [[tick, alive, at], …]]                              presence change points
//	bel   [holder, claim, [[tick, held, variant, confidence, stage, sources], …]]
//	gbel  the same for the golden (failing rungs only)
//	ev    [holder, claim, [[tick, type, [chain…], via, variant, confidence, counted], …]]
//	feed  [tick, kind, fired, field…]                                 Record, kind by index in
//	                                                                  event, encounter, transmission,
//	                                                                  rule, supersession, belief
//	soc   [block, key, [[tick, value…], …]]                           social records (block by index in
//	                                                                  Blocks, values in its Fields order);
//	                                                                  only when the run has social state
//	gsoc  the same for the golden (failing rungs only)
//	sch   [tick, seq, block, key, change, rule, cause, ref, detail…]   social changes; ref is the index
//	                                                                  in feed of the rule evaluation
//	                                                                  behind the change, -1 if not embedded
//	win   [from, to, capped]                                          the embedded tick window
//	cnt   [tick, met, not met, told, declined, other]                 per tick, when capped
//
// Change points keep quiet stretches free. The feed is capped
// (Options.MaxRecords, DefaultMaxRecords): a larger run embeds whole ticks
// outwards from its first divergence (or its start) up to the cap, shows
// per-tick counts elsewhere, and says so in the section with the path of
// the full trace. A long run's rows are capped too (Options.MaxRows): the
// belief table, the presence tracks and the feed cover a window of rows
// around the first divergence, while the believer curves cover the whole
// run, sampled (Options.CurvePoints) with each point the most believers
// in its stretch. Today's rungs and cases make a page of about 3.5 MB.
//
// # Reading the artifacts
//
// Input names each artifact as an Artifact, a file (Path) or bytes (Data),
// and Build reads it a row or a record at a time, twice at most, stopping
// past the embedded window: a section never holds a whole file, so a
// million-tick run costs the memory of what its section embeds.
package page
