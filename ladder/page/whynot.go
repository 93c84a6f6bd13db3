package page

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/whynot"
)

// WhyNot is a section's "why not?" answers: for every NPC that does not
// hold a claim at a tick, the answer `ladder why-not` gives, made by the
// same code (package whynot) from the same files, so the page and the
// command cannot disagree. Answers change only when something happens to
// the pair, so each pair keeps its answer's change points and the
// answers are kept once.
type WhyNot struct {
	// From and To are the ticks whose answers are embedded, inclusive;
	// Capped is set when the run has others (Options.MaxWhyNot), where the
	// page gives the command instead.
	From, To int64
	Capped   bool
	Claims   []string     // every claim of the run, sorted
	Pairs    []WhyNotPair // every NPC and claim of the run, by NPC then claim
	Answers  []WhyNotAnswer
	// Command asks the command line any question of the run: it takes
	// -npc, -claim and -at after it.
	Command string
}

// WhyNotPair is one NPC and claim: from each change's tick on, its
// answer, -1 while it holds the claim.
type WhyNotPair struct {
	NPC, Claim string
	Changes    [][2]int64 // [tick, answer]
}

// WhyNotAnswer is one answer: its cause and its text as the command
// writes it under the heading (whynot.Answer.Body).
type WhyNotAnswer struct {
	Cause string
	Lines []string
}

// DefaultMaxWhyNot keeps the answers of every tick of all but a few of
// today's runs (T2.6: a dozen NPCs over eight days), and of fifteen ticks
// around the killing of T6, whose thirty-five NPCs and four claims have
// an answer that moves at nearly every tick; the page grows by about a
// megabyte from them.
const DefaultMaxWhyNot = 64 << 10

// leastAnswer is what the shortest answer costs in a section, so a run
// whose pairs could not fit even one tick's answers is not asked at all.
const leastAnswer = 64

// WhyNotAt is what the page shows for an NPC and a claim at a tick: the
// answer's lines, nil when the NPC holds the claim, and embedded false
// when the section has no answer for that tick (the page then gives the
// command). It mirrors the page's script.
func (s *Section) WhyNotAt(npc, claim string, t int64) (lines []string, embedded bool) {
	w := s.WhyNot
	if w == nil || t < w.From || t > w.To {
		return nil, false
	}
	for _, p := range w.Pairs {
		if p.NPC != npc || p.Claim != claim {
			continue
		}
		a := int64(-1)
		for _, c := range p.Changes {
			if c[0] <= t {
				a = c[1]
			}
		}
		if a < 0 {
			return nil, true
		}
		return w.Answers[a].Lines, true
	}
	return nil, false
}

// whyNot answers every pair of the run at the embedded ticks: outwards
// from the tick the section opens at, tick by tick, until the answers
// would pass opt.MaxWhyNot bytes.
func (s *Section) whyNot(in Input, opt Options) error {
	if in.WhyNot == nil || in.Trace == nil || in.Dense == nil || s.Actual == nil || s.Rows.N == 0 {
		return nil
	}
	w := &WhyNot{From: 0, To: -1, Claims: slices.Sorted(maps.Keys(s.Actual.Believers)), Command: "go run ./tools/ladder why-not -rung " + in.Name}
	s.WhyNot = w
	// The dense file named the NPCs and claims already: a run whose every
	// pair could not be answered at one tick within the bound is not read
	// again (a thousand NPCs' seed world).
	if npcs := len(s.Actual.NPCs); npcs*len(w.Claims)*leastAnswer > opt.MaxWhyNot {
		w.Capped = true
		s.Notes = append(s.Notes, fmt.Sprintf("The run has %d NPCs and %d claims, too many for the page to keep why-not answers: each \"why not?\" gives the command that answers it (%s -npc … -claim … -at …).",
			npcs, len(w.Claims), w.Command))
		return nil
	}
	run, err := readWhyNot(in)
	if err != nil {
		return err
	}
	npcs, claims := run.NPCs(), run.Claims()
	for _, n := range npcs {
		for _, c := range claims {
			w.Pairs = append(w.Pairs, WhyNotPair{NPC: n, Claim: c})
		}
	}
	b := whyNotBuilder{run: run, w: w, index: map[string]int64{}, seen: map[string]bool{}, at: map[int64][]int64{}}
	d := s.DefaultTick()
	lo, hi := d, d-1 // none yet
	for k := int64(0); !w.Capped; k++ {
		grew, ticks := false, []int64{d + k}
		if k > 0 {
			ticks = append(ticks, d-k)
		}
		for _, t := range ticks {
			if t < s.Rows.From || t > s.Rows.To {
				continue
			}
			ok, err := b.tick(t, opt.MaxWhyNot)
			if err != nil {
				return err
			}
			if !ok {
				w.Capped = true
				break
			}
			lo, hi, grew = min(lo, t), max(hi, t), true
		}
		if !grew {
			break
		}
	}
	w.From, w.To = lo, hi
	b.changes()
	if w.Capped {
		s.Notes = append(s.Notes, fmt.Sprintf("Why-not answers are embedded for ticks %d–%d; at other ticks \"why not?\" gives the command that answers it (%s -npc … -claim … -at …).", w.From, w.To, w.Command))
	}
	return nil
}

// readWhyNot indexes the run's files for its answers.
func readWhyNot(in Input) (*whynot.Run, error) {
	var f whynot.Files
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	for _, a := range []struct {
		src  Artifact
		into *io.Reader
	}{{in.Trace, &f.Trace}, {in.Dense, &f.Dense}, {in.Events, &f.Events}} {
		if a.src == nil {
			continue
		}
		rc, err := a.src.Open()
		if err != nil {
			return nil, fmt.Errorf("why-not: %w", err)
		}
		closers = append(closers, rc)
		*a.into = rc
	}
	return whynot.Read(in.Name, "reports/"+in.Name, f, *in.WhyNot)
}

// whyNotBuilder collects the answers of a section tick by tick.
type whyNotBuilder struct {
	run   *whynot.Run
	w     *WhyNot
	index map[string]int64  // an answer's text → its index
	seen  map[string]bool   // every line kept, for the bytes the answers cost
	bytes int               // what the kept lines cost
	at    map[int64][]int64 // tick → each pair's answer
}

// tick answers every pair at t and keeps the answers, unless they would
// take the answers past limit bytes (and some tick is kept already).
func (b *whyNotBuilder) tick(t int64, limit int) (bool, error) {
	answers := make([]*whynot.Answer, len(b.w.Pairs))
	cost, fresh := 0, map[string]bool{}
	for i, p := range b.w.Pairs {
		if b.run.Holds(p.NPC, p.Claim, t) {
			continue
		}
		a, err := b.run.Explain(p.NPC, p.Claim, t)
		if err != nil {
			return false, err
		}
		answers[i] = a
		for _, l := range a.Body() {
			if !b.seen[l] && !fresh[l] {
				fresh[l], cost = true, cost+len(l)
			}
		}
	}
	if len(b.at) > 0 && b.bytes+cost > limit {
		return false, nil
	}
	b.bytes += cost
	for l := range fresh {
		b.seen[l] = true
	}
	out := make([]int64, len(answers))
	for i, a := range answers {
		out[i] = -1
		if a == nil {
			continue
		}
		lines := a.Body()
		key := strings.Join(lines, "\n")
		k, ok := b.index[key]
		if !ok {
			k = int64(len(b.w.Answers))
			b.index[key] = k
			b.w.Answers = append(b.w.Answers, WhyNotAnswer{Cause: string(a.Cause), Lines: lines})
		}
		out[i] = k
	}
	b.at[t] = out
	return true, nil
}

// changes turns the kept ticks' answers into each pair's change points.
func (b *whyNotBuilder) changes() {
	for i := range b.w.Pairs {
		p := &b.w.Pairs[i]
		for t := b.w.From; t <= b.w.To; t++ {
			a := b.at[t][i]
			if n := len(p.Changes); n == 0 || p.Changes[n-1][1] != a {
				p.Changes = append(p.Changes, [2]int64{t, a})
			}
		}
	}
}
