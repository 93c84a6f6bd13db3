package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
)

// What explain, curve, schedule, role and fear print of a run, read from
// its goldens: the dense file's per-tick cells (locations, belief state,
// schedules) and the trace's records (formations, role and schedule
// changes). Where an oracle covers only part of what a command can print
// (an eyewitness's unmutated belief, say), it fails on a golden outside
// that part rather than guess.

// row is the dense row of a tick as column → cell.
func row(f *fixture.Fixture, tick int64) map[string]string {
	GinkgoHelper()
	cells, err := goldenDense(f).Row(tick)
	Expect(err).NotTo(HaveOccurred())
	return cells
}

// number parses a dense or trace number.
func number(s string) float64 {
	GinkgoHelper()
	x, err := strconv.ParseFloat(s, 64)
	Expect(err).NotTo(HaveOccurred(), "not a number: %q", s)
	return x
}

// firstRecord is the first golden record ok accepts; it fails when there
// is none.
func firstRecord(f *fixture.Fixture, what string, ok func(traceRecord) bool) traceRecord {
	GinkgoHelper()
	for _, r := range goldenTrace(f) {
		if ok(r) {
			return r
		}
	}
	Fail(f.Name() + "'s golden run has no " + what + ": the spec examines nothing")
	return nil
}

// wantExplain is what `explain` prints of an eyewitness's belief as of
// a tick: its state from the dense row, its formation and evidence from
// the trace.
func wantExplain(f *fixture.Fixture, holder, claim string, at int64) string {
	GinkgoHelper()
	cells, col := row(f, at), holder+"/"+claim+"/"
	Expect(cells[col+"variant"]).NotTo(BeEmpty(), "%s holds no belief in %s at tick %d in the golden", holder, claim, at)
	formed, anchor := int64(-1), int64(-1)
	var evidence []string
	for _, r := range goldenTrace(f) {
		if r.Tick() > at {
			break
		}
		switch {
		case r.S("kind") == "belief" && r.S("holder") == holder && r.S("claim") == claim:
			switch r.S("change") {
			case "formed":
				formed, anchor = r.Tick(), r.Tick()
			case "reinforced":
				anchor = r.Tick()
			}
		case r.S("kind") == "rule" && r.S("subject") == holder+"/"+claim && r["fired"] == true:
			switch r.S("rule") {
			case "witness-creates-belief":
				conf, _ := r["values"].(map[string]any)["confidence"]
				evidence = append(evidence, fmt.Sprintf("    %d. tick %d, witnessed: saw it, via %s, confidence %v, counted", len(evidence)+1, r.Tick(), claim, conf))
			case "testimony-transfer", "mutation-policy":
				Fail(fmt.Sprintf("%s's belief in %s was heard or mutated by tick %d: this oracle spells an eyewitness's own", holder, claim, at))
			}
		}
	}
	Expect(formed).To(BeNumerically(">=", 0), "no formation of %s's belief in %s by tick %d in the golden trace", holder, claim, at)
	Expect(evidence).NotTo(BeEmpty(), "%s did not witness %s: this oracle spells an eyewitness's belief", holder, claim)
	variant := cells[col+"variant"]
	Expect(variant).To(Equal(claim+"#v0"), "a mutated variant: this oracle spells the original")
	return fmt.Sprintf(`belief(%s, %s) as of tick %d
  variant     %s
  confidence  %s
  verbatim    %s   gist %s   stage %s
  formed at   tick %d; last reinforced at tick %d
  origins     [%s] (distinct eyewitnesses counted towards confidence)
  evidence
%s
  variant lineage
    %s (what happened)
`, holder, claim, at, variant, cells[col+"confidence"], cells[col+"verbatim"], cells[col+"gist"], cells[col+"stage"],
		formed, anchor, holder, strings.Join(evidence, "\n"), variant)
}

// curvePoint is one tick of a claim's spread in the golden dense file:
// its believers (the claim's believers column) and its holders (every NPC
// with a belief in it, forgotten or not).
type curvePoint struct{ tick, believers, holders int64 }

func wantCurve(f *fixture.Fixture, claim string) []curvePoint {
	GinkgoHelper()
	d := goldenDense(f)
	believers := slices.Index(d.Columns, claim+"/believers")
	Expect(believers).To(BeNumerically(">", 0), "%s has no column %s/believers", d.Path, claim)
	var variants []int
	for i, c := range d.Columns {
		if strings.HasSuffix(c, "/"+claim+"/variant") {
			variants = append(variants, i)
		}
	}
	var out []curvePoint
	for _, r := range d.Rows {
		p := curvePoint{tick: int64(number(r[0]))}
		if r[believers] != "" {
			p.believers = int64(number(r[believers]))
		}
		for _, i := range variants {
			if r[i] != "" {
				p.holders++
			}
		}
		out = append(out, p)
	}
	return out
}

// wantSchedule is what `schedule` prints of an NPC: per tick, its base
// (the dense base column; where the golden leaves it blank the NPC
// follows no override, so its base is where it is), where it is, and the
// override in force, in runs of equal ticks; then each schedule record
// of the NPC.
func wantSchedule(f *fixture.Fixture, npc string) string {
	GinkgoHelper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: base and effective schedule, ticks 0–%d\n", f.Name(), npc, f.Ticks-1)
	line := func(a, base, at, override string) {
		fmt.Fprintln(&b, strings.TrimRight(fmt.Sprintf("%-10s  %-22s  %-22s  %s", a, orNowhere(base), orNowhere(at), override), " "))
	}
	fmt.Fprintln(&b, strings.TrimRight(fmt.Sprintf("%-10s  %-22s  %-22s  %s", "ticks", "base", "effective", "override"), " "))
	type stretch struct {
		from, to           int64
		base, at, override string
	}
	var spans []stretch
	for t := int64(0); t < f.Ticks; t++ {
		cells := row(f, t)
		base, at, override := cells["schedule/"+npc+"/base"], cells[npc+"/at"], cells["schedule/"+npc+"/override"]
		if base == "" {
			Expect(override).To(BeEmpty(), "tick %d: an override with no base in the golden", t)
			base = at
		}
		if n := len(spans); n > 0 && spans[n-1].base == base && spans[n-1].at == at && spans[n-1].override == override {
			spans[n-1].to = t
			continue
		}
		spans = append(spans, stretch{t, t, base, at, override})
	}
	for _, s := range spans {
		line(tickSpan(s.from, s.to+1), s.base, s.at, s.override)
	}
	n := 0
	for _, r := range goldenTrace(f) {
		if r.S("kind") != "schedule" || r.S("npc") != npc {
			continue
		}
		if n == 0 {
			fmt.Fprintln(&b, "changes:")
		}
		n++
		window := "from tick " + r.S("from")
		if to := r.S("to"); to != "" && to != "0" {
			window = "ticks " + span(r.S("from"), to)
		}
		fmt.Fprintf(&b, "tick %d  %s %s: %s, %s  (rule %s, cause %s)\n", r.Tick(), r.S("change"), r.S("override"), orNowhere(r.S("at")), window, r.S("rule"), r.S("cause"))
	}
	fmt.Fprintf(&b, "%d schedule changes by schedule-write-back or role-succession\n", n)
	return b.String()
}

// tickSpan spells ticks from through to-1: "11–82", or one tick.
func tickSpan(from, to int64) string {
	return span(fmt.Sprint(from), fmt.Sprint(to))
}

func orNowhere(loc string) string {
	if loc == "" {
		return "(nowhere)"
	}
	return loc
}

// wantRoles is what `role` prints of a fixture's roles as of a tick: each
// role, by id, with its declaration (the fixture: faction, appointer, duties), its
// holder from the golden role records, its lapses from the golden lapse
// events, and the references to it — its duties, the obligations owed to
// it, the schedule blocks that meet it — each resolving to the holder
// now; then the events of rule 19 so far.
func wantRoles(f *fixture.Fixture, at int64, only string) string {
	GinkgoHelper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: roles as of tick %d\n", f.Name(), at)
	recs := slices.DeleteFunc(slices.Clone(goldenTrace(f)), func(r traceRecord) bool { return r.Tick() < 0 || r.Tick() > at })
	var events []string
	declared := slices.SortedFunc(slices.Values(f.Roles), func(a, b sim.Role) int { return strings.Compare(a.ID, b.ID) })
	for _, role := range declared {
		if only != "" && role.ID != only {
			continue
		}
		ref := "role:" + role.ID
		holder, since, previous, lapses := role.Holder, int64(0), "", 0
		var owed []string
		for _, r := range recs {
			switch {
			case r.S("kind") == "role" && r.S("role") == role.ID:
				holder, since, previous = r.S("holder"), r.Tick(), r.S("previous")
			case r.S("kind") == "event" && r.S("event") == "lapse" && strings.HasPrefix(r.S("id"), fmt.Sprintf("lapse@%d:%s:", r.Tick(), role.ID)):
				lapses++
			case r.S("kind") == "obligation" && r.S("creditor") == ref && !slices.Contains(owed, r.S("id")):
				owed = append(owed, r.S("id"))
			}
		}
		appointer := "appointed by nobody"
		if role.Appointer != "" {
			appointer = "appointed by role:" + role.Appointer
		}
		state := fmt.Sprintf("held by %s since tick %d", holder, since)
		if holder == "" {
			state = fmt.Sprintf("vacant since tick %d", since)
			if previous != "" {
				state += ", last held by " + previous
			}
		}
		plural := "s"
		if lapses == 1 {
			plural = ""
		}
		fmt.Fprintf(&b, "%s (faction %s, %s): %s; %d duty lapse%s\n", ref, role.Faction, appointer, state, lapses, plural)
		var refs []string
		for n, d := range role.Duties {
			Expect(d.Every).To(BeNumerically(">", 0), "a one-off duty: this oracle spells daily ones")
			fmt.Fprintf(&b, "  duty duties:%s:%d: %s, %s every %d ticks\n", role.ID, n, d.At, tickSpan(d.From, d.To), d.Every)
			refs = append(refs, fmt.Sprintf("duties:%s:%d", role.ID, n))
		}
		for _, id := range owed {
			refs = append(refs, id+" creditor")
		}
		for _, npc := range f.Cast {
			for n, blk := range npc.Schedule.Blocks {
				if blk.Meets == ref {
					refs = append(refs, fmt.Sprintf("%s's block %d", npc.ID, n))
				}
			}
		}
		for _, where := range refs {
			fmt.Fprintf(&b, "  reference %s names %s, resolves to %s\n", where, ref, nobody(holder))
		}
	}
	for _, r := range recs {
		cite := fmt.Sprintf("  (rule %s, cause %s)", r.S("rule"), r.S("cause"))
		var line string
		switch {
		case r.S("kind") == "role":
			what := "vacant (last held by " + r.S("previous") + ")"
			if r.S("change") == "appointed" {
				what = "appointed " + r.S("holder")
			}
			line = fmt.Sprintf("role %s %s%s", r.S("role"), what, cite)
		case r.S("kind") == "event" && r.S("rule") == "role-succession":
			line = fmt.Sprintf("event %s (%s)%s", r.S("id"), r.S("event"), cite)
		default:
			continue
		}
		if only == "" || strings.Contains(line, " "+only) || strings.Contains(line, ":"+only) {
			events = append(events, fmt.Sprintf("tick %d  %s", r.Tick(), line))
		}
	}
	if len(events) > 0 {
		fmt.Fprintf(&b, "events:\n%s\n", strings.Join(events, "\n"))
	}
	fmt.Fprintf(&b, "%d role events up to tick %d\n", len(events), at)
	return b.String()
}

// severity is the fear each event kind carries, as the fear view's
// header states it; the spec keeps its own copy.
var severity = map[string]float64{"killing": 1, "brawl": 0.5, "theft": 0.25}

// fearBelief is one belief's share of the fear, read from the dense row.
type fearBelief struct {
	holder, claim, variant, at string
	confidence, gist, weight   float64
}

// wantFear is the beliefs that carry fear as of a tick, by holder then
// claim: each living holder's unforgotten belief in a claim of a kind
// with a severity, weighted severity × confidence × gist (each product
// rounded).
func wantFear(f *fixture.Fixture, at int64) []fearBelief {
	GinkgoHelper()
	kinds := map[string]string{}
	for _, r := range goldenTrace(f) {
		if r.S("kind") == "event" {
			kinds[r.S("id")] = r.S("event")
		}
	}
	cells := row(f, at)
	var out []fearBelief
	for _, c := range goldenDense(f).Columns {
		holder, rest, ok := strings.Cut(c, "/")
		claim, ok2 := strings.CutSuffix(rest, "/variant")
		if !ok || !ok2 || cells[c] == "" || cells[holder+"/alive"] != "True" || cells[holder+"/"+claim+"/stage"] == "forgotten" {
			continue
		}
		sev, ok := severity[kinds[claim]]
		if !ok {
			continue
		}
		b := fearBelief{holder: holder, claim: claim, variant: cells[c], at: cells[holder+"/at"],
			confidence: number(cells[holder+"/"+claim+"/confidence"]), gist: number(cells[holder+"/"+claim+"/gist"])}
		b.weight = float64(float64(sev*b.confidence) * b.gist)
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b fearBelief) int {
		return cmp.Or(strings.Compare(a.holder, b.holder), strings.Compare(a.claim, b.claim))
	})
	return out
}

// fearRow is one location's line of the fear view, parsed.
type fearRow struct {
	location, total string
	beliefs         int
	recomputed      float64
	delta, bound    string
}

// parseFear reads the fear view's table: the lines between its column
// header and the first blank line.
func parseFear(out string) []fearRow {
	GinkgoHelper()
	lines := strings.Split(out, "\n")
	Expect(len(lines)).To(BeNumerically(">", 2))
	Expect(strings.Fields(lines[1])).To(Equal([]string{"location", "total", "beliefs", "recomputed", "|Δ|", "bound", "(regime", "3)"}))
	var rows []fearRow
	for _, l := range lines[2:] {
		if l == "" {
			break
		}
		fs := strings.Fields(l)
		Expect(fs).To(HaveLen(6), "a fear row: %q", l)
		n, err := strconv.Atoi(fs[2])
		Expect(err).NotTo(HaveOccurred())
		rows = append(rows, fearRow{location: fs[0], total: fs[1], beliefs: n, recomputed: number(fs[3]), delta: fs[4], bound: fs[5]})
	}
	return rows
}

// checkFear holds the fear view's output as of a tick to the golden: a
// total per location, everywhere first, and each location's drill-down;
// the recomputation within its printed bound, and |Δ| its distance.
func checkFear(out string, f *fixture.Fixture, at int64, only string) {
	GinkgoHelper()
	beliefs := wantFear(f, at)
	// By location as the engine spells it ("" is nowhere, and sorts first).
	totals, counts := map[string]float64{}, map[string]int{}
	var places []string
	var everywhere float64
	for _, b := range beliefs {
		everywhere += b.weight
		if _, ok := totals[b.at]; !ok {
			places = append(places, b.at)
		}
		totals[b.at] += b.weight
		counts[b.at]++
	}
	slices.Sort(places)
	if only != "" {
		places = slices.DeleteFunc(places, func(p string) bool { return p != only })
	}
	name := func(loc string) string { return cmp.Or(loc, "nowhere") }
	want := []fearRow{{location: "everywhere", total: canon.FormatFloat(everywhere), beliefs: len(beliefs)}}
	for _, p := range places {
		want = append(want, fearRow{location: name(p), total: canon.FormatFloat(totals[p]), beliefs: counts[p]})
	}
	got := parseFear(out)
	Expect(got).To(HaveLen(len(want)), out)
	for i, g := range got {
		Expect([]any{g.location, g.total, g.beliefs}).To(Equal([]any{want[i].location, want[i].total, want[i].beliefs}), "row %d of\n%s", i, out)
		total := number(g.total)
		Expect(g.delta).To(Equal(canon.FormatFloat(max(total-g.recomputed, g.recomputed-total))), "|Δ| of %s", g.location)
		Expect(number(g.delta)).To(BeNumerically("<=", number(g.bound)), "the recomputation of %s is outside its bound", g.location)
	}
	Expect(out).NotTo(ContainSubstring("OUTSIDE"))
	var drill strings.Builder
	for _, p := range places {
		fmt.Fprintf(&drill, "\n%s (%d beliefs):\n", name(p), counts[p])
		for _, b := range beliefs {
			if b.at == p {
				fmt.Fprintf(&drill, "  %-12s %-18s %-22s confidence %-20s gist %-20s weight %s\n", b.holder, b.claim, b.variant,
					canon.FormatFloat(b.confidence), canon.FormatFloat(b.gist), canon.FormatFloat(b.weight))
			}
		}
	}
	Expect(out).To(HaveSuffix(drill.String()))
}
