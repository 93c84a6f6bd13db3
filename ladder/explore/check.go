package explore

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/ladder/replay"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// Checker runs a world and its metamorphic variants through ladder.Run
// and judges every property (or only one, while shrinking).
type Checker struct {
	// Scratch is a directory the runs write their artifacts into; each
	// run empties its own subdirectory first.
	Scratch string
	// Only, when set, checks that property alone (and runs only what it
	// needs).
	Only string
	// Stall, when set, gives up a run that finishes no tick for that long
	// (ladder.Options.Stall): a world that hangs the engine is a finding,
	// not an exploration that never ends.
	Stall time.Duration
	// Sampled checks the properties that cost runs of their own beyond
	// the world's variants (the configuration relations, quiescence) only
	// on their share of the worlds (inShare), as an exploration does;
	// unset, as in a replay, on every world.
	Sampled bool
	// hook also sees every observed run's trace (specs: a sink that
	// blocks stands in for a hung engine, one that changes the world for
	// a read that writes).
	hook trace.Sink
}

// Outcome is what checking one world found.
type Outcome struct {
	Findings []*Finding
	// Regimes are the rule regimes the base run reached (the ladder's
	// meter).
	Regimes []coverage.Reached
	// Hash is the base run's dense.csv, trace.jsonl and checkpoints.json
	// digests, for the child-process checks.
	Hash string
	Runs int
	// Hung is set when a run was given up as hung (Checker.Stall). Its
	// goroutine cannot be stopped and goes on spinning, so nothing more
	// is run: the check ends at that run, and an exploration at that
	// world.
	Hung bool
	// Checked counts the properties judged (one that does not apply is
	// not: no rule left that the run never evaluated, no rumour's stage
	// change due inside the run, nothing due within the run on's bound).
	Checked int
	// Refused is set when the engine refused the world's input (an event
	// whose party died before it, a teller who holds nothing): a bug for
	// a world the generator drew, a miss for a mutant (corpus.go).
	Refused bool
}

func (c *Checker) wants(p string) bool { return c.Only == "" || c.Only == p }

// run is one ladder.Run of a fixture, what it wrote and what was seen.
type run struct {
	res    *ladder.Result
	dir    string
	obs    *observer
	stream *streamer
	err    error
	panic  any
}

func (c *Checker) run(name string, f *fixture.Fixture, exclude string, how runHow) *run {
	dir := filepath.Join(c.Scratch, name)
	_ = os.RemoveAll(dir)
	r := &run{dir: dir, obs: newObserver(f)}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.err = err
		return r
	}
	func() {
		defer func() { r.panic = recover() }()
		// Unsealed: nothing here is ever a golden, and the seal's digests
		// were a tenth of the explorer's CPU.
		opt := ladder.Options{Dir: dir, Stall: c.Stall, Unsealed: true, Bare: how.bare}
		if !how.unobserved {
			observe := sinks{r.obs}
			if how.records {
				r.stream = newStreamer(f, exclude)
				observe = append(observe, r.stream)
			}
			if c.hook != nil {
				observe = append(observe, c.hook)
			}
			opt.Observe = observe
		}
		if how.serial {
			opt.Stages = &record.Stages{}
		}
		if how.observed {
			r.err = ladder.Observed(f, opt)
			return
		}
		r.res, r.err = ladder.Run(f, opt)
	}()
	if r.panic == nil && r.err == nil && !how.unobserved {
		r.obs.end()
	}
	return r
}

func (r *run) file(name string) []byte {
	b, _ := os.ReadFile(filepath.Join(r.dir, name))
	return b
}

// Check judges every property of the case's world.
func (c *Checker) Check(cs *Case) Outcome {
	var out Outcome
	found := func(f *Finding) {
		if c.wants(f.Property) {
			out.Findings = append(out.Findings, f)
		}
	}
	f := cs.Loaded
	base := c.run("base", f, "", runHow{records: true})
	out.Runs++
	if hung(base, &out, found) {
		return out
	}
	switch {
	case base.panic != nil:
		found(&Finding{Property: PropRuns, Tick: base.obs.tick, Message: fmt.Sprintf("the engine panicked at tick %d: %v", base.obs.tick, base.panic)})
		return out
	case base.err != nil:
		out.Refused = true
		found(&Finding{Property: PropRuns, Tick: base.obs.tick, Message: fmt.Sprintf("the run stopped: %v", base.err)})
		return out
	}
	out.Checked++
	if len(base.res.Failures) > 0 {
		found(&Finding{Property: PropAudit, Tick: firstTick(base.res.Failures[0]), Message: strings.Join(base.res.Failures, "; ")})
	}
	out.Checked++
	out.Regimes = base.res.Regimes
	out.Hash = base.digests()
	for _, x := range base.obs.sorted() {
		found(x)
	}
	out.Checked += len(oracleProperties)
	if c.wants(PropPlacement) {
		out.Checked++
		if x := placement(f, base.file(artifact.DenseFile)); x != nil {
			found(x)
		}
	}
	if base.obs.rumoursApplied > 0 {
		out.Checked++
	}
	// The second run comes straight after the first, before any other
	// world is built: state leaking from one world into the next shows
	// there first. On a world an in-process configuration relation is
	// checked on, its run is that second run and stands for the plain one
	// too (the same world, and its bytes must be the base run's either
	// way), a run saved on half the worlds; only when it differs is the
	// plain second run made, to tell which property failed.
	second := -1
	if c.wants(PropDeterminism) {
		for i, cf := range configs {
			if c.sampled(cf.prop, cs.World) && c.wants(cf.prop) && c.Only != PropDeterminism {
				second = i
				break
			}
		}
		if second >= 0 {
			cf := configs[second]
			r := c.run(cf.prop, f, "", cf.how)
			out.Runs++
			if hung(r, &out, found) {
				return out
			}
			out.Checked += 2
			if x := sameArtifacts(cf.prop, "as the explorer runs it", "with "+cf.what, base, r); x != nil {
				again := c.run("again", f, "", runHow{})
				out.Runs++
				if hung(again, &out, found) {
					return out
				}
				if y := sameBytes(PropDeterminism, "run 1", "run 2", base, again); y != nil {
					x = y // not the configuration: any second run differs
				}
				found(x)
			}
		} else {
			again := c.run("again", f, "", runHow{})
			out.Runs++
			if hung(again, &out, found) {
				return out
			}
			out.Checked++
			if x := sameBytes(PropDeterminism, "run 1", "run 2", base, again); x != nil {
				found(x)
			}
		}
	}
	if c.wants(PropReplay) {
		out.Checked++
		if x := c.replay(f, base); x != nil {
			found(x)
		}
	}
	for _, v := range c.variants(f, base) {
		if !c.wants(v.Property) || !c.sampled(v.Property, cs.World) {
			continue
		}
		vc, err := v.load(cs)
		if err != nil {
			found(&Finding{Property: v.Property, Tick: -1, Message: fmt.Sprintf("the variant (%s) does not load: %v", v.What, err)})
			continue
		}
		vr := c.run(v.Property, vc, v.Exclude, runHow{records: !v.exact, bare: true})
		out.Runs++
		if hung(vr, &out, found) {
			return out
		}
		out.Checked++
		if x := v.compare(base, vr); x != nil {
			x.Case = v
			found(x)
		}
	}
	if c.wants(PropQuiescence) && c.sampled(PropQuiescence, cs.World) {
		if r, x := c.quiescence(f, base); r != nil || x != nil {
			if r != nil {
				out.Runs++
				if hung(r, &out, found) {
					return out
				}
			}
			out.Checked++
			if x != nil {
				found(x)
			}
		}
	}
	for i, cf := range configs {
		if i == second || !c.wants(cf.prop) || !c.sampled(cf.prop, cs.World) {
			continue
		}
		r := c.run(cf.prop, f, "", cf.how)
		out.Runs++
		if hung(r, &out, found) {
			return out
		}
		out.Checked++
		if x := sameArtifacts(cf.prop, "as the explorer runs it", "with "+cf.what, base, r); x != nil {
			found(x)
		}
	}
	return out
}

// quiescence runs the world on past its last tick, with no injected event
// left, until every grudge it ended with has settled and every rumour it
// left has gone dormant or forgotten, as far as runOnBound, and judges
// what the run's models say past the end. It runs nothing, and returns
// nothing, when nothing is due in that time.
func (c *Checker) quiescence(f *fixture.Fixture, base *run) (*run, *Finding) {
	until := base.obs.restingBy(runOnBound(f))
	if until <= f.Ticks {
		return nil, nil
	}
	g, err := reparse(f)
	if err == nil {
		g.Ticks = until
		g, err = writeLoad(g, nil)
	}
	if err != nil {
		return nil, &Finding{Property: PropQuiescence, Tick: -1, Message: fmt.Sprintf("the world run on to tick %d does not load: %v", until-1, err)}
	}
	r := c.run(PropQuiescence, g, "", runHow{observed: true})
	if r.panic != nil || r.err != nil {
		return r, &Finding{Property: PropQuiescence, Tick: r.obs.tick, Message: fmt.Sprintf("the world run on past its last tick %d did not reach tick %d: %v%v", f.Ticks-1, until-1, r.err, r.panic)}
	}
	return r, pastTheEnd(r.obs, f.Ticks)
}

// pastTheEnd is the first finding of a run on's models past the last
// tick of the world it runs on, as quiescence's: before it, the run on is
// the world's own run, whose findings are its own.
func pastTheEnd(o *observer, end int64) *Finding {
	for _, x := range o.sorted() {
		if x.Tick >= end {
			return &Finding{Property: PropQuiescence, Tick: x.Tick, Message: fmt.Sprintf("run on past its last tick %d (with ticks: %d it fails %s in its own run): %s",
				end-1, x.Tick+1, x.Property, x.Message)}
		}
	}
	return nil
}

// hung reports whether a run was given up as hung, and if so records it
// as the world's finding under PropRuns, at the tick it hung in.
func hung(r *run, out *Outcome, found func(*Finding)) bool {
	var stall *ladder.StallError
	if !errors.As(r.err, &stall) {
		return false
	}
	out.Hung = true
	found(&Finding{Property: PropRuns, Tick: stall.Tick, Message: fmt.Sprintf("a run hung: %v", r.err)})
	return true
}

var tickPattern = regexp.MustCompile(`tick (\d+)`)

// firstTick reads the tick a failure line names, -1 when it names none.
func firstTick(line string) int64 {
	if m := tickPattern.FindStringSubmatch(line); m != nil {
		t, _ := strconv.ParseInt(m[1], 10, 64)
		return t
	}
	return -1
}

func digestOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

// replay re-runs the world against the log it exported (ladder verify).
func (c *Checker) replay(f *fixture.Fixture, base *run) *Finding {
	log, err := replay.ReadLog(base.file(artifact.EventsFile))
	if err == nil {
		var cp checkpoint.File
		if cp, err = checkpoint.Parse(artifact.CheckpointsFile, base.file(artifact.CheckpointsFile)); err == nil {
			_, err = replay.Verify(f, log, cp)
		}
	}
	if err == nil {
		return nil
	}
	t := int64(-1)
	if m, ok := err.(*replay.Mismatch); ok {
		t = m.Tick
	}
	return &Finding{Property: PropReplay, Tick: t, Message: err.Error()}
}

// sameBytes compares two runs' dense.csv and trace.jsonl byte for byte.
func sameBytes(prop, a, b string, x, y *run) *Finding {
	if y.panic != nil || y.err != nil {
		return &Finding{Property: prop, Tick: -1, Message: fmt.Sprintf("%s did not complete: %v%v", b, y.err, y.panic)}
	}
	if d := trace.Compare(x.file(artifact.TraceFile), y.file(artifact.TraceFile)); d != nil {
		return &Finding{Property: prop, Tick: d.Tick, Message: "trace.jsonl: " + d.Describe(a, b)}
	}
	if t, line, ok := firstDiffLine(x.file(artifact.DenseFile), y.file(artifact.DenseFile)); ok {
		return &Finding{Property: prop, Tick: t, Message: fmt.Sprintf("dense.csv differs from line %d", line)}
	}
	return nil
}

// firstDiffLine is the first line where two dense files differ and the
// tick it holds.
func firstDiffLine(a, b []byte) (int64, int, bool) {
	if bytes.Equal(a, b) {
		return 0, 0, false
	}
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; ; i++ {
		if i >= len(la) || i >= len(lb) || !bytes.Equal(la[i], lb[i]) {
			var t int64 = -1
			if i > 0 && i < len(la) {
				tick, _, _ := bytes.Cut(la[i], []byte(","))
				t, _ = strconv.ParseInt(string(tick), 10, 64)
			}
			return t, i + 1, true
		}
	}
}

// Variant is a metamorphic relation: the world changed where nothing else
// can see it, and what must stay the same.
type Variant struct {
	Property string
	What     string
	// Exclude marks the trace records the change itself adds (by the
	// ids it adds); "" excludes none.
	Exclude string
	// edit changes the world; Marshal and the loader make the variant.
	edit func(f *fixture.Fixture, expect *[]*yaml.Node)
	// exact: the whole files must be equal; else the records outside
	// Exclude and the dense columns both have, up to any mutation.
	exact bool
	// Rule is the rule disabled (PropUnusedRule).
	Rule string
	// NPCs are the ids the change adds.
	NPCs []string
}

func (v *Variant) load(cs *Case) (*fixture.Fixture, error) {
	g, err := reparse(cs.Loaded)
	if err != nil {
		return nil, err
	}
	var expect []*yaml.Node
	v.edit(g, &expect)
	return writeLoad(g, expect)
}

// reparse is a deep copy of a loaded fixture: written and loaded again.
func reparse(f *fixture.Fixture) (*fixture.Fixture, error) { return writeLoad(f, nil) }

// writeLoad writes a fixture's world with expect and loads it.
func writeLoad(f *fixture.Fixture, expect []*yaml.Node) (*fixture.Fixture, error) {
	data, err := Marshal(f, expect, nil)
	if err != nil {
		return nil, err
	}
	fs, err := fixture.Parse(FileName(f), data)
	if err != nil {
		return nil, err
	}
	return fs[0], nil
}

// isolated is the prefix of every id a locality variant adds: no
// generated id starts with it.
const isolated = "iso_"

// unswitchable are the rules a run can use without a record naming them:
// decay and stages are derived on read, testimony and encounters act
// through their own record kinds.
var unswitchable = []string{rules.BeliefDecay, rules.RumourStages, rules.GrudgeDecay, rules.TestimonyTransfer, rules.EncounterSampling}

// variants are the metamorphic relations that apply to a world.
func (c *Checker) variants(f *fixture.Fixture, base *run) []*Variant {
	out := []*Variant{
		{Property: PropIsolatedNPC, What: "an NPC alone at a place of its own", Exclude: isolated, NPCs: []string{isolated + "0"},
			edit: func(g *fixture.Fixture, _ *[]*yaml.Node) {
				g.Locations = append(g.Locations, sim.Location{ID: isolated + "place", Hold: isolated + "hold"})
				g.Cast = append(g.Cast, sim.NPC{ID: isolated + "0", Schedule: scheduleAt(isolated + "place")})
			}},
		{Property: PropIsolatedTown, What: "a town nobody travels to, with three people who meet there", Exclude: isolated,
			NPCs: []string{isolated + "0", isolated + "1", isolated + "2"},
			edit: func(g *fixture.Fixture, _ *[]*yaml.Node) {
				g.Locations = append(g.Locations, sim.Location{ID: isolated + "town", Hold: isolated + "hold"})
				for i := range 3 {
					g.Cast = append(g.Cast, sim.NPC{ID: isolated + strconv.Itoa(i), Schedule: scheduleAt(isolated + "town")})
				}
			}},
		{Property: PropView, What: "the collective fear view read at every tick", exact: true,
			edit: func(_ *fixture.Fixture, expect *[]*yaml.Node) {
				e := mapping()
				add(e, "from", integer(0))
				add(e, "fear", flowMap("recompute", str("size-scaled")))
				*expect = append(*expect, e)
			}},
	}
	for _, r := range rules.Catalogue() {
		if r.Invariant || slices.Contains(unswitchable, r.Name) || slices.Contains(f.Disabled, r.Name) || base.obs.evals[r.Name] {
			continue
		}
		name := r.Name
		out = append(out, &Variant{Property: PropUnusedRule, What: "rule " + name + " disabled, which the run never evaluated", exact: true, Rule: name,
			edit: func(g *fixture.Fixture, _ *[]*yaml.Node) { g.Disabled = append(g.Disabled, name) }})
		break
	}
	return out
}

func scheduleAt(loc string) schedule.Schedule { return schedule.Schedule{Home: loc} }

// compare holds a variant's run to the base run.
func (v *Variant) compare(base, vr *run) *Finding {
	if v.exact {
		return sameBytes(v.Property, "without the change", "with "+v.What, base, vr)
	}
	if vr.panic != nil || vr.err != nil {
		return &Finding{Property: v.Property, Tick: -1, Message: fmt.Sprintf("the run with %s did not complete: %v%v", v.What, vr.err, vr.panic)}
	}
	// Adding an entity widens what a mutation can choose (the vocabulary
	// is the cast and the places), so what follows a mutation in either
	// run may differ: where the world has one place, a lapse's mutation
	// has no alternative without the change and one with it.
	upTo := base.obs.f.Ticks
	for _, m := range []int64{base.obs.mutated, vr.obs.mutated} {
		if m >= 0 {
			upTo = min(upTo, m)
		}
	}
	// A roll is a function of its key: a key both runs roll has one value,
	// and (before any mutation) every key the world rolled it still rolls.
	for _, r := range base.stream.rolls {
		got, ok := vr.stream.byKey[r.key]
		switch {
		case ok && got != r.value:
			return &Finding{Property: v.Property, Tick: r.tick, Message: fmt.Sprintf("roll %s has another value with %s", r.key, v.What)}
		case !ok && r.tick < upTo:
			return &Finding{Property: v.Property, Tick: r.tick, Message: fmt.Sprintf("roll %s is no longer rolled with %s", r.key, v.What)}
		}
	}
	if t, ok := base.stream.firstDiff(vr.stream, upTo); ok {
		return &Finding{Property: v.Property, Tick: t, Message: fmt.Sprintf("the trace records outside the change differ at tick %d with %s", t, v.What)}
	}
	if t, col, ok := denseDiff(base.file(artifact.DenseFile), vr.file(artifact.DenseFile), upTo); ok {
		return &Finding{Property: v.Property, Tick: t, Message: fmt.Sprintf("dense column %q differs at tick %d with %s", col, t, v.What)}
	}
	return nil
}

// denseDiff compares the columns of a that b has too, over ticks below
// upTo: the first (tick, column) that differs.
func denseDiff(a, b []byte, upTo int64) (int64, string, bool) {
	ra, err1 := csv.NewReader(bytes.NewReader(a)).ReadAll()
	rb, err2 := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err1 != nil || err2 != nil || len(ra) == 0 || len(rb) == 0 {
		return -1, "dense.csv", !bytes.Equal(a, b)
	}
	col := map[string]int{}
	for i, h := range rb[0] {
		col[h] = i
	}
	for i := 1; i < len(ra) && int64(i-1) < upTo; i++ {
		if i >= len(rb) {
			return int64(i - 1), "tick", true
		}
		for j, h := range ra[0] {
			k, ok := col[h]
			if !ok {
				// A column only one run has (the union of the whole run's
				// state, mutations included) matters where it holds a value.
				if ra[i][j] != "" {
					return int64(i - 1), h, true
				}
				continue
			}
			if ra[i][j] != rb[i][k] {
				return int64(i - 1), h, true
			}
		}
	}
	return 0, "", false
}

// sinks shows each record to several sinks, and the world to those that
// want it.
type sinks []trace.Sink

func (s sinks) Emit(r trace.Record) {
	for _, x := range s {
		x.Emit(r)
	}
}

func (s sinks) Start(w *sim.World) {
	for _, x := range s {
		if st, ok := x.(interface{ Start(*sim.World) }); ok {
			st.Start(w)
		}
	}
}

// streamer digests, tick by tick, the trace records that a locality
// variant must leave alone: every record but keyframes (the cast is in
// them) and those naming the ids a variant adds, each spelled with its
// seq set to 0 (records the variant adds earlier move every later seq).
type streamer struct {
	enc     *trace.Encoder
	exclude []byte
	line    []byte
	ticks   []uint64
	// rolls are every roll of the run, in order, and byKey their values.
	rolls []rollAt
	byKey map[string]float64
}

type rollAt struct {
	key   string
	tick  int64
	value float64
}

func (s *streamer) roll(t int64, r *trace.Roll) {
	k := r.Roll.Key.String()
	s.rolls = append(s.rolls, rollAt{k, t, r.Roll.Value})
	s.byKey[k] = r.Roll.Value
}

func newStreamer(f *fixture.Fixture, exclude string) *streamer {
	enc, _ := trace.NewEncoder(trace.Header{SeedID: f.SeedID, Branch: f.Branch, Social: true})
	s := &streamer{enc: enc, byKey: map[string]float64{}}
	if exclude != "" {
		s.exclude = []byte(exclude)
	}
	return s
}

func (s *streamer) Emit(r trace.Record) {
	switch b := r.Body.(type) {
	case *trace.Encounter:
		s.roll(r.Tick, &b.Roll)
	case *trace.RuleEval:
		if b.Roll != nil {
			s.roll(r.Tick, b.Roll)
		}
	}
	if r.Body.Kind() == trace.KindKeyframe || s.enc == nil {
		return
	}
	r.Seq = 0
	var err error
	if s.line, err = s.enc.AppendRecord(s.line[:0], r); err != nil {
		return
	}
	if s.exclude != nil && bytes.Contains(s.line, s.exclude) {
		return
	}
	for int64(len(s.ticks)) <= r.Tick {
		s.ticks = append(s.ticks, 14695981039346656037)
	}
	h := s.ticks[r.Tick]
	for _, c := range s.line {
		h = (h ^ uint64(c)) * 1099511628211
	}
	s.ticks[r.Tick] = h
}

// firstDiff is the first tick below upTo whose records differ.
func (s *streamer) firstDiff(o *streamer, upTo int64) (int64, bool) {
	for t := int64(0); t < upTo && (t < int64(len(s.ticks)) || t < int64(len(o.ticks))); t++ {
		var a, b uint64
		if t < int64(len(s.ticks)) {
			a = s.ticks[t]
		}
		if t < int64(len(o.ticks)) {
			b = o.ticks[t]
		}
		if a != b {
			return t, true
		}
	}
	return 0, false
}

// HashRun runs a fixture file's world (its expectations left out) in dir
// and returns the digests the child-process checks compare
// (Outcome.Hash).
func HashRun(path, dir string) (string, error) {
	cs, _, err := Read(path)
	if err != nil {
		return "", err
	}
	c := &Checker{Scratch: dir}
	r := c.run("base", cs.Loaded, "", runHow{bare: true}) // only its files' digests are read
	if r.panic != nil {
		return "", fmt.Errorf("%s: the engine panicked: %v", path, r.panic)
	}
	if r.err != nil {
		return "", r.err
	}
	return r.digests(), nil
}
