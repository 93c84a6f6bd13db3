package whynot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chronicle/ladder/sim/trace"
)

// why answers for a holder: its belief's evidence chain back to the
// event — who told it, through which encounter, when, and who told them,
// down to a witness.
func (r *Run) why(a *Answer, x, c int32) error {
	chain, err := r.chain(x, c)
	if err != nil {
		return err
	}
	row := int(a.Tick - r.first)
	p := r.pairs[[2]int32{x, c}]
	variant := p.formed.variant
	for _, ch := range p.changes {
		if ch.tick <= a.Tick {
			variant = ch.variant
		}
	}
	a.Cause = Holds
	a.Summary = Line{Tick: p.formed.tick, Trace: p.formed.line, Text: fmt.Sprintf("%s holds %s at tick %d (variant %s, %s): %s",
		a.NPC, a.Claim, a.Tick, variant, r.stage(x, c, row), r.story(x, c))}
	a.Lines = chain
	return nil
}

// story tells a chain in one breath: "told by caravaneer2 at tick 152,
// who was told by w1 at tick 20, who witnessed it at tick 9".
func (r *Run) story(x, c int32) string {
	var parts []string
	for range len(r.npcs.list) + 1 {
		fm := r.pairs[[2]int32{x, c}].formed
		switch {
		case fm.witness != nil:
			parts = append(parts, fmt.Sprintf("who witnessed it at tick %d", fm.tick))
		case fm.told != nil:
			parts = append(parts, fmt.Sprintf("who was told by %s at tick %d", r.npcs.list[fm.told.teller], fm.tick))
			x = fm.told.teller
			if p := r.pairs[[2]int32{x, c}]; p != nil && p.formed != nil && p.formed.line < fm.told.line {
				continue
			}
		}
		break
	}
	if len(parts) == 0 {
		return "formed with no witness or telling before it"
	}
	parts[0] = strings.TrimPrefix(strings.TrimPrefix(parts[0], "who was "), "who ")
	return strings.Join(parts, ", ")
}

// chain is how an NPC's belief came to be, most recent first: each
// telling back to the teller's own formation, ending at a witness or a
// fixture report from someone who held nothing.
func (r *Run) chain(x, c int32) ([]Line, error) {
	var out []Line
	var told *transmission // the telling the chain follows back, to its teller
	for range len(r.npcs.list) + 1 {
		p := r.pairs[[2]int32{x, c}]
		if p == nil || p.formed == nil || (told != nil && p.formed.line >= told.line) {
			if told != nil && told.via == "injected" {
				return append(out, Line{Tick: told.tick, Trace: told.line, Text: fmt.Sprintf("tick %d: %s made that report holding no belief of %s: the fixture put it in its mouth", told.tick, r.npcs.list[x], r.claims.list[c])}), nil
			}
			return nil, fmt.Errorf("%s told %s and the trace has no record of its belief forming before", r.npcs.list[x], r.claims.list[c])
		}
		fm := p.formed
		out = append(out, r.heardLine(x, fm))
		if fm.told == nil {
			if fm.witness == nil {
				return nil, fmt.Errorf("trace line %d: %s formed %s, and neither a witness evaluation nor a telling comes before it", fm.line, r.npcs.list[x], r.claims.list[c])
			}
			return out, nil
		}
		x, told = fm.told.teller, fm.told
	}
	return nil, errors.New("the evidence chain loops")
}

// heardLine says how a belief was formed: witnessed, or told by whom,
// where, through which encounter.
func (r *Run) heardLine(x int32, fm *formation) Line {
	npc := r.npcs.list[x]
	switch {
	case fm.witness != nil:
		return Line{Tick: fm.tick, Trace: fm.witness.line, Text: fmt.Sprintf("tick %d: %s witnessed the event and formed %s (%s: %s)", fm.tick, npc, fm.variant, fm.witness.name, fm.witness.reason)}
	case fm.told == nil:
		return Line{Tick: fm.tick, Trace: fm.line, Text: fmt.Sprintf("tick %d: %s formed %s", fm.tick, npc, fm.variant)}
	}
	t := fm.told
	teller := r.npcs.list[t.teller]
	if t.via == "injected" {
		return Line{Tick: fm.tick, Trace: t.line, Text: fmt.Sprintf("tick %d: %s was told %s by %s in a fixture report (%s)", fm.tick, npc, fm.variant, teller, t.rule)}
	}
	where := ""
	if e, ok := trace.CutEncounterID(t.via); ok {
		where = " at " + e.Site
	}
	return Line{Tick: fm.tick, Trace: t.line, Text: fmt.Sprintf("tick %d: %s heard %s from %s%s, via %s (%s)", fm.tick, npc, fm.variant, teller, where, t.via, t.rule)}
}
