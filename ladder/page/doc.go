// Package page writes the ladder's triage page, reports/index.html: one
// self-contained HTML file (inline CSS, script and SVG; nothing fetched)
// with a section per rung and case of a run.
//
// After the gate goes red a person needs where (the earliest divergence),
// how far (what changed) and why (beliefs, encounters, rolls and rules as
// of a tick). The page opens with an overview of every run, failed ones
// first by tier and earliest divergence, "start here" naming the first; a
// search box and filters (failed only, a record kind, per section an NPC)
// narrow every view. A section shows, for a failing rung, the gate's
// failure lines first — without the commands tail each ends with, shown
// once — each linked to the most specific place it names; then the first
// divergence (the earliest of the dense CSV's first differing cell, the
// trace's first differing record and the failure lines' ticks) and a
// column-aware summary of the dense change; believer curves per claim as
// SVG, the golden's dashed over the run's with the divergence marked; an
// as-of-tick scrubber driving every view: the rumour map (each NPC a dot at
// its location coloured by its stage, roads, carriers' routes: MapView),
// the belief table (each NPC's variant, confidence, verbatim and gist,
// stage, sources and evidence chain, every field linked to the record
// that caused it and every evidence item to the records that carried it;
// for an NPC without a claim, a "why not?" opening the answer package whynot
// gives from the same files, as ladder why-not prints it), the
// social state with a two-tick diff of its changes, the tick's feed
// (declined encounters and transmissions listed exactly like fired ones,
// each record's references — encounter, roll, subject, cause — linked),
// and for a failing run (or a run compared with another: Partner) the
// comparison — the drift as ladder compare names it, the first divergent
// roll, belief set and record, and at the tick the belief sets that differ
// and both runs' records side by side; then the variant tree with slot
// diffs (each linked to the mutation that made it), every supersession
// and its dent, and the tick's rule evaluations with the previous and
// next tick that has any. A sweep's section is its bounds table and each
// aggregate's per-seed distribution, with a link to one seed's world, an
// ordinary section.
//
// # Where the data comes from
//
// The belief table and curves come from the run's dense CSV (so they show
// exactly what the golden pins), the feed from its trace, and the variant
// tree, contests and evidence from the trace too (package ladder/lineage:
// its variant records, supersessions and the evidence on belief records),
// the golden's tree from the golden trace beside a failing run's. The social
// panel's values come from the dense CSV's social columns (Blocks), and
// what last changed each row from the trace's state deltas (grudge,
// obligation, reputation, schedule, role) and the rule evaluations that
// move a value no delta records (an accumulator's count, a pair's weight,
// a role's lapses): SocialAt. Evidence and variants only accumulate, so
// what existed at tick t is what the trace recorded up to t: the page's
// script hides the rest.
//
// # State in the URL
//
// The fragment holds the state: "#T2.1@44" is section T2.1 with its
// scrubber at tick 44 ("#T2.1" alone opens the section at its default
// tick), and "#T3.2@40/belief=torvar:brawl@0" opens one thing there: an
// NPC (npc=), a belief (belief=holder:claim), a trace record by its seq
// (trace=), a social record (social=block/key), why an NPC does not hold a
// claim (whynot=npc:claim). A section named there is
// shown alone at the top of the page. Loading a URL with a fragment
// restores that state, moving a scrubber or following a link rewrites
// it, and Link and LinkTo give the deep links failure messages end with:
//
//	page.Link("T2.1", 44) == "reports/index.html#T2.1@44"
//
// In a fragment, the tick follows the first "@" (a name's bytes outside
// [A-Za-z0-9._~/-] are percent-encoded, "@" among them), and a target's
// value has its bytes outside [A-Za-z0-9._~:@-] encoded (Fragment,
// FragmentTo, ParseFragment; the page's script reads it by the same rules).
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
//	str   {w: [from, to, capped], b: [[holder, claim,                 memory strengths (Strengths) over a
//	       [[tick, verbatim, gist], …]], …]}                          window of ticks
//	vm    [variant, tick, seq]                                        the record that made each variant
//	                                                                  (Makers), when embedded
//	feed  [tick, kind, fired, seq step, field…]                       Record, kind by index in
//	                                                                  event, encounter, transmission,
//	                                                                  rule, supersession, belief; seq
//	                                                                  as the step from the record before
//	cl    [claim, tick]                                               each claim's tick (links to its event)
//	soc   [block, key, [[tick, value…], …]]                           social records (block by index in
//	                                                                  Blocks, values in its Fields order);
//	                                                                  only when the run has social state
//	gsoc  the same for the golden (failing rungs only)
//	sch   [tick, seq, block, key, change, rule, cause, ref, detail…]   social changes; ref is the index
//	                                                                  in feed of the rule evaluation
//	                                                                  behind the change, -1 if not embedded
//	win   [from, to, capped]                                          the embedded tick window
//	cnt   [tick, met, not met, told, declined, other]                 per tick, when capped
//	gfeed the golden's feed within win (failing rungs)
//	gcmp  {a, b, verdict, skipped, shared, same, classes, roll,       the comparison with the golden
//	       belief, record}                                            (Comparison)
//	vs    [{n, bel, feed, cmp}]                                        partner runs: name, beliefs,
//	                                                                  feed within win, comparison
//	map   {pl: [[location, x, y]], car: [npc…]}                       places and carriers (MapView)
//	wn    {w: [from, to, capped], k: [claim…], c: command,            why-not answers (WhyNot): the ticks
//	       p: [[npc, claim, [[tick, answer], …]]], a: [[cause, [line…]]]} kept, each pair's answer from a
//	                                                                  tick on (-1: it holds the claim),
//	                                                                  each answer's lines
//
// Change points keep quiet stretches free. The feed is capped
// (Options.MaxRecords, DefaultMaxRecords): a larger run embeds whole ticks
// outwards from its first divergence (or its start) up to the cap, shows
// per-tick counts elsewhere, and says so in the section with the path of
// the full trace. A long run's rows are capped too (Options.MaxRows): the
// belief table, the presence tracks and the feed cover a window of rows
// around the first divergence, while the believer curves cover the whole
// run, sampled (Options.CurvePoints) with each point the most believers
// in its stretch. The why-not answers are capped (Options.MaxWhyNot,
// DefaultMaxWhyNot): a run whose answers are larger keeps the ticks
// around the one its section opens at, and a "why not?" elsewhere gives
// the command that answers it. The memory strengths, which change every
// tick, are capped (Options.MaxStrengths, DefaultMaxStrengths) to a
// window of ticks around the one the section opens at. Today's rungs and
// cases make a page of about 9.6 MB, the strengths 1.5 MB of it.
//
// # Reading the artifacts
//
// Input names each artifact as an Artifact, a file (Path) or bytes (Data),
// and Build reads it a row or a record at a time, twice at most, stopping
// past the embedded window: a section never holds a whole file, so a
// million-tick run costs the memory of what its section embeds. The
// why-not answers read the trace and the dense file once more, into
// package whynot's index, only for a run whose answers can fit.
package page
