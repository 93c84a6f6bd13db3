package whynot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
)

// Explain answers why npc does or does not hold claim at tick t, from the
// run's files. An NPC, a claim or a tick the run does not have is an
// error that says what it has; a pair the files cannot explain is a bug,
// and an error too, never an answer without a cause.
func (r *Run) Explain(npc, claim string, t int64) (*Answer, error) {
	x, c, row, err := r.resolve(npc, claim, t)
	if err != nil {
		return nil, err
	}
	a := &Answer{Run: r.Name, Dir: r.Dir, NPC: npc, Claim: claim, Tick: t}
	if r.holds(x, c, row) {
		err = r.why(a, x, c)
	} else {
		err = r.whyNot(a, x, c, row)
	}
	if err != nil {
		return nil, fmt.Errorf("why-not: %s: %s and %s at tick %d: %w", r.Name, npc, claim, t, err)
	}
	return a, nil
}

// resolve checks the question against the run.
func (r *Run) resolve(npc, claim string, t int64) (x, c int32, row int, err error) {
	x, okX := r.npcs.index[npc]
	if !okX || int(x) >= len(r.alive) {
		return 0, 0, 0, fmt.Errorf("why-not: %s has no NPC %q%s (its NPCs: %s)", r.Name, npc, fixture.Suggest(npc, r.NPCs()), listed(r.NPCs()))
	}
	c, okC := r.claims.index[claim]
	if !okC || int(c) >= len(r.holders) {
		return 0, 0, 0, fmt.Errorf("why-not: %s has no claim %q%s (its claims: %s)", r.Name, claim, fixture.Suggest(claim, r.Claims()), listed(r.Claims()))
	}
	first, last := r.Ticks()
	if t < first || t > last {
		return 0, 0, 0, fmt.Errorf("why-not: tick %d is outside %s's run, ticks %d to %d", t, r.Name, first, last)
	}
	return x, c, int(t - first), nil
}

// listed names at most a dozen ids, and how many more there are.
func listed(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	if len(ids) <= 12 {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:12], ", "), len(ids)-12)
}

// whyNot finds the cause, in the order one hides the next: a claim that
// does not exist yet, a dead NPC, a forgotten rumour, a witness who
// formed nothing, and then the chances it had — or why it had none.
func (r *Run) whyNot(a *Answer, x, c int32, row int) error {
	mint, ok := r.mints[c]
	if !ok {
		return fmt.Errorf("the trace has no record minting %s", a.Claim)
	}
	p := r.pairs[[2]int32{x, c}]
	switch {
	case a.Tick < mint.tick:
		a.Cause = NotYet
		a.Summary = Line{Tick: mint.tick, Trace: mint.line, Text: fmt.Sprintf("%s did not exist yet: its event happened only at tick %d", a.Claim, mint.tick)}
		return nil
	case !r.alive[x][row]:
		return r.dead(a, x, c, row, mint)
	case r.stage(x, c, row) == forgotten:
		return r.forgot(a, x, c, row)
	case p != nil && p.witness != nil && !p.witness.fired && p.witness.tick <= a.Tick:
		w := p.witness
		a.Cause = WitnessOff
		a.Summary = Line{Tick: w.tick, Trace: w.line, Text: fmt.Sprintf("%s witnessed %s at tick %d and formed no belief: %s: %s", a.NPC, a.Claim, w.tick, w.name, w.reason)}
		chs, err := r.chances(x, c, mint.tick, a.Tick)
		if err != nil {
			return err
		}
		a.Lines = r.lines(chs)
		return nil
	}
	return r.unheard(a, x, c, mint.tick, a.Tick)
}

// unheard answers for an NPC alive and without the rumour over a window
// of ticks: the chances it had, or why it had none.
func (r *Run) unheard(a *Answer, x, c int32, from, to int64) error {
	chs, err := r.chances(x, c, from, to)
	if err != nil {
		return err
	}
	if len(chs) == 0 {
		a.Cause, a.Summary, a.Lines = r.noChance(x, c, from, to)
		return nil
	}
	last := chs[len(chs)-1]
	a.Cause = Missed
	a.Summary = Line{Tick: last.tick, Trace: last.line(), Text: fmt.Sprintf("%s had %s to hear %s from its holders since tick %d, and none passed it on",
		a.NPC, plural(len(chs), "chance"), a.Claim, from)}
	a.Lines = r.lines(chs)
	return nil
}

// chanceLines are the lines of the chances an NPC had over a window, or
// the one line saying why it had none.
func (r *Run) chanceLines(x, c int32, from, to int64) ([]Line, error) {
	if from > to {
		return nil, nil
	}
	chs, err := r.chances(x, c, from, to)
	if err != nil {
		return nil, err
	}
	if len(chs) > 0 {
		return r.lines(chs), nil
	}
	_, summary, lines := r.noChance(x, c, from, to)
	summary.Text = fmt.Sprintf("from tick %d: %s", from, summary.Text)
	return append([]Line{summary}, lines...), nil
}

// dead answers for an NPC dead at the tick: when and of what it died,
// then what it held before, or the chances it had while alive.
func (r *Run) dead(a *Answer, x, c int32, row int, mint ref) error {
	d := r.deathOf(x, r.deathTickFrom(x, row))
	a.Cause = Dead
	a.Summary = Line{Tick: d.tick, Trace: d.line, Text: fmt.Sprintf("%s was dead: it died at tick %d%s", a.NPC, d.tick, d)}
	if p := r.pairs[[2]int32{x, c}]; p != nil && p.formed != nil && p.formed.tick <= d.tick {
		chain, err := r.chain(x, c)
		if err != nil {
			return err
		}
		a.Summary.Text += fmt.Sprintf("; it had held %s from tick %d until then", a.Claim, p.formed.tick)
		a.Lines = chain
		return nil
	}
	switch {
	case d.tick == mint.tick:
		a.Lines = []Line{{Tick: mint.tick, Trace: mint.line, Text: fmt.Sprintf("tick %d: %s's event happened the tick %s died: it never lived past it", mint.tick, a.Claim, a.NPC)}}
		return nil
	case d.tick < mint.tick:
		a.Lines = []Line{{Tick: mint.tick, Trace: mint.line, Text: fmt.Sprintf("tick %d: %s's event happened after %s died", mint.tick, a.Claim, a.NPC)}}
		return nil
	}
	lines, err := r.chanceLines(x, c, mint.tick, d.tick-1)
	a.Lines = lines
	return err
}

// death is when an NPC died, by which event, and where it was last.
type death struct {
	tick  int64
	line  int    // the death event's line; 0 when the trace records none that tick
	what  string // the event and its cause, or the tick's deaths when the trace cannot tell whose
	where string // its last place alive; "" for nowhere
	npc   string
}

// String spells the death after its tick: " (death@killing@20, of
// killing@20 by player) at whiterun_market (dense.csv: …)".
func (d death) String() string {
	s := ""
	if d.what != "" {
		s = " (" + d.what + ")"
	}
	if d.where != "" {
		s += " at " + d.where
	}
	return s + fmt.Sprintf(" (dense.csv: %s/alive False from tick %d)", d.npc, d.tick)
}

// deathOf names an NPC's death at a tick: the event log names the dead,
// a role's vacancy names its holder's death, and a tick with one death
// names it; else the tick's deaths are listed.
func (r *Run) deathOf(x int32, died int64) death {
	d := death{tick: died, npc: r.npcs.list[x]}
	if row := int(died - r.first); row > 0 && r.at[x][row-1] >= 0 {
		d.where = r.places.list[r.at[x][row-1]]
	}
	i, _ := slices.BinarySearchFunc(r.events, died, func(e event, t int64) int { return cmp.Compare(e.tick, t) })
	var deaths []event
	for ; i < len(r.events) && r.events[i].tick == died; i++ {
		if r.events[i].kind == "death" {
			deaths = append(deaths, r.events[i])
		}
	}
	pick := slices.IndexFunc(deaths, func(e event) bool { return r.victims[e.id] == d.npc })
	if pick < 0 {
		pick = slices.IndexFunc(deaths, func(e event) bool { return r.vacated[d.npc] == e.id })
	}
	if pick < 0 && len(deaths) == 1 {
		pick = 0
	}
	switch {
	case pick >= 0:
		e := deaths[pick]
		d.line, d.what = e.line, e.id
		if actor := r.actors[strings.TrimPrefix(e.id, "death@")]; actor != "" {
			d.what += ": killed by " + actor
		}
	case len(deaths) > 0:
		ids := make([]string, len(deaths))
		for i, e := range deaths {
			ids[i] = e.id
		}
		d.line = deaths[0].line
		d.what = "one of " + strings.Join(ids, ", ") + ": the trace does not name the dead, and no events.jsonl is beside it"
	}
	return d
}

// forgot answers for an NPC whose rumour is forgotten: when it heard it,
// when it forgot it and by which transition, then the chances since to
// be told it again.
func (r *Run) forgot(a *Answer, x, c int32, row int) error {
	p := r.pairs[[2]int32{x, c}]
	f := row
	for f > 0 && p.stage[f-1] == forgotten {
		f--
	}
	since := r.first + int64(f)
	a.Cause = Forgot
	a.Summary = Line{Tick: since, Text: fmt.Sprintf("%s held %s and forgot it: its rumour is forgotten from tick %d (dense.csv: %s/%s/stage)", a.NPC, a.Claim, since, a.NPC, a.Claim)}
	if i := slices.IndexFunc(p.stages, func(s rule) bool { return s.tick == since && s.fired }); i >= 0 {
		s := p.stages[i]
		a.Summary = Line{Tick: since, Trace: s.line, Text: fmt.Sprintf("%s held %s and forgot it at tick %d: %s (%s)", a.NPC, a.Claim, since, s.reason, s.name)}
	}
	lines, err := r.chanceLines(x, c, since+1, a.Tick)
	if err != nil {
		return err
	}
	if p.formed != nil {
		lines = append(lines, r.heardLine(x, p.formed))
	}
	a.Lines = lines
	return nil
}

func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "ch"):
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
