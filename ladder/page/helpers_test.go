package page_test

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/chronicle/ladder/sim/canon"
)

// root is the repository root: tests run in ladder/page.
const root = "../.."

// tb is what the helpers need from *testing.T and from GinkgoT(), so the
// browser test and the specs share them.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	TempDir() string
}

// loadRung loads a committed fixture by file name; its first fixture is
// the rung itself, the rest its cases.
func loadRung(t tb, file string) []*fixture.Fixture {
	t.Helper()
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range files {
		if x.Name == "fixtures/"+file {
			if x.Err != nil {
				t.Fatal(x.Err)
			}
			return x.Fixtures
		}
	}
	t.Fatalf("no fixture file fixtures/%s", file)
	return nil
}

// failingRun is T1.1 with retell_decay changed from 0.8 to 0.7 and
// checked against T1.1's goldens: the hop at tick 12 carries 0.63, not
// 0.72, so the dense and trace goldens diverge at tick 12 and the
// end-of-run expectation fails. It returns the section's input with the
// failure lines the gate would print.
func failingRun(t tb) (*fixture.Fixture, page.Input) {
	t.Helper()
	f := *loadRung(t, "T1.1-tell.yaml")[0]
	f.Defines.RetellDecay = 0.7
	res, err := ladder.Run(&f, ladder.Options{Dir: t.TempDir(), Goldens: root})
	if err != nil {
		t.Fatal(err)
	}
	var failures []string
	for _, m := range res.Failures {
		failures = append(failures, fmt.Sprintf("%s %s %s", f.Name(), m, verdict.Commands(&f)))
	}
	failures = append(failures, verdict.Lines(verdict.Verify(res).Problems)...)
	if len(failures) == 0 {
		t.Fatal("the planted define change did not fail T1.1")
	}
	return &f, pageinput.PageInput(root, &f, res, failures)
}

// failingT32 is T3.2 with a planted fault, checked against T3.2's
// goldens: the brawl's last witness is dropped, and everyone stays at the
// tavern for two days instead of leaving after the fight, so the dropped
// witness hears of the brawl later, by an encounter (reported evidence
// with a roll behind it), and the run parts from its golden. The fault is
// to the fixture's inputs, not to any value the rung pins; every value the
// page is held to is read from the run, the goldens and the engine. It
// returns the section's input with the failure lines as the gate prints
// them, each ending with its page link.
func failingT32(t tb) (*fixture.Fixture, page.Input) {
	t.Helper()
	f := *loadRung(t, "T3.2-humiliation.yaml")[0]
	f.Injections = slices.Clone(f.Injections)
	brawl := &f.Injections[0]
	brawl.Witnesses = slices.Clone(brawl.Witnesses[:len(brawl.Witnesses)-1])
	f.Cast = slices.Clone(f.Cast)
	for i := range f.Cast {
		s := f.Cast[i].Schedule
		s.Blocks = slices.Clone(s.Blocks)
		for j := range s.Blocks {
			s.Blocks[j].To = 48
		}
		f.Cast[i].Schedule = s
	}
	return &f, gateRun(t, &f)
}

// gateRun runs a fixture against its goldens and returns its section's
// input with the failure lines as the gate prints them.
func gateRun(t tb, f *fixture.Fixture) page.Input {
	t.Helper()
	res, err := ladder.Run(f, ladder.Options{Dir: t.TempDir(), Goldens: root})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range verdict.Problems(res, nil, verdict.Verify(res)) {
		lines = append(lines, p.FailureLine())
	}
	if len(lines) == 0 {
		t.Fatalf("the planted fault did not fail %s", f.Name())
	}
	return pageinput.PageInput(root, f, res, lines)
}

// passingRun is a rung run as the gate runs it.
func passingRun(t tb, f *fixture.Fixture) page.Input {
	t.Helper()
	res, err := ladder.Run(f, ladder.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return pageinput.PageInput(root, f, res, nil)
}

// beliefRow is one row of the belief table in the form both the engine
// and the page can give it.
type beliefRow struct {
	Holder, Claim              string
	Variant, Confidence, Stage string
}

// engineRows asks the engine itself — a fresh world stepped to the end of
// each tick — for every NPC's beliefs, and returns the rows at every tick:
// the independent answer the page's table must match. An NPC holding
// nothing is one row with no claim and stage "unheard".
func engineRows(t tb, f *fixture.Fixture) [][]beliefRow {
	t.Helper()
	w, err := ladder.Build(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]beliefRow
	for tick := int64(0); tick < f.Ticks; tick++ {
		if err := w.Step(); err != nil {
			t.Fatal(err)
		}
		s := w.Store()
		var rows []beliefRow
		for _, h := range w.NPCs() {
			held := s.Held(h)
			if len(held) == 0 {
				rows = append(rows, beliefRow{Holder: h, Stage: "unheard"})
			}
			for _, c := range held {
				b, _ := s.Belief(h, c)
				rows = append(rows, beliefRow{Holder: h, Claim: c, Variant: b.Variant,
					Confidence: canon.FormatFloat(b.Confidence), Stage: string(b.StageAt(tick, s.Memory()))})
			}
		}
		out = append(out, rows)
	}
	return out
}

// modelRows is the page model's belief table at a tick, in the same form.
func modelRows(s *page.Section, tick int64) []beliefRow {
	var out []beliefRow
	for _, r := range s.BeliefsAt(tick) {
		if !r.Held && r.Claim != "" {
			continue // held only in the golden
		}
		out = append(out, beliefRow{Holder: r.Holder, Claim: r.Claim, Variant: r.Variant, Confidence: r.Confidence, Stage: r.Stage})
	}
	return out
}

// socialRow is one row of the social-state panel in the form both the
// engine and the page can give it: the block, the key, the cells.
type socialRow struct {
	Block, Key string
	Values     string // the cells joined by "|"
}

// engineSocial asks the engine itself — a fresh world stepped to the end
// of each tick — for its social state, and returns the rows the panel
// must show at every tick, in the panel's order (the dense contract's
// blocks, each by key). Schedules are those of NPCs whose effective
// schedule has differed from their base at some tick so far.
func engineSocial(t tb, f *fixture.Fixture) [][]socialRow {
	t.Helper()
	w, err := ladder.Build(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	fl, bl := canon.FormatFloat, func(b bool) string { return map[bool]string{true: "True", false: "False"}[b] }
	changed := map[string]bool{}
	var out [][]socialRow
	for range f.Ticks {
		if err := w.Step(); err != nil {
			t.Fatal(err)
		}
		now := w.Now()
		var rows []socialRow
		add := func(block string, key []string, values ...string) {
			rows = append(rows, socialRow{block, strings.Join(key, "/"), strings.Join(values, "|")})
		}
		for _, a := range w.Accumulators().All() {
			add("accumulator", []string{a.Victim, a.Offender}, strconv.Itoa(a.Count(now, w.Defines().EscalationWindowTicks)), bl(!a.Disarmed))
		}
		c := w.Grudges().Curves()
		for _, g := range w.Grudges().All() {
			add("grudge", []string{g.Holder, g.Target}, fl(g.EmotionalAt(now, c)), fl(g.EvidentiaryAt(now, c)), bl(g.SettledAt(now, c)))
		}
		for _, o := range w.Ledger().All() {
			add("obligation", []string{o.Favour}, string(o.State))
		}
		for _, o := range w.Reputation().All() {
			add("reputation", []string{o.Observer, o.Subject, o.Dimension}, fl(o.Alpha), fl(o.Beta), fl(o.Mean()))
		}
		for _, p := range w.PairWeights() {
			add("pair", []string{p.A, p.B}, fl(p.Weight))
		}
		for _, r := range w.Roles().All() {
			add("role", []string{r.ID}, r.Holder, bl(r.Vacant()), strconv.Itoa(r.Lapses))
		}
		for _, id := range w.NPCs() {
			base, eff, _ := w.Schedules(id)
			if len(eff.Overrides) > 0 || len(eff.Blocks) != len(base.Blocks) {
				changed[id] = true
			}
			if changed[id] {
				pl := w.Placement(id)
				add("schedule", []string{id}, pl.Base, pl.Override)
			}
		}
		blocks := []string{}
		for _, b := range page.Blocks {
			blocks = append(blocks, b.Name)
		}
		slices.SortStableFunc(rows, func(a, b socialRow) int {
			return cmp.Or(cmp.Compare(slices.Index(blocks, a.Block), slices.Index(blocks, b.Block)), strings.Compare(a.Key, b.Key))
		})
		out = append(out, rows)
	}
	return out
}

// modelSocial is the page model's social panel at a tick, in the same
// form.
func modelSocial(s *page.Section, tick int64) []socialRow {
	var out []socialRow
	for _, r := range s.SocialAt(tick) {
		out = append(out, socialRow{r.Block, r.Key, strings.Join(r.Values, "|")})
	}
	return out
}

// buildSection is a section's model, failing the spec when it cannot be
// built.
func buildSection(t tb, in page.Input) *page.Section {
	t.Helper()
	s, err := page.Build(in, page.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
