package lineage

import (
	"fmt"
	"io"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/claims"
)

// Provenance is one belief as of a tick: what is believed, from what
// evidence, through whom, since when, and the lineage of the variant
// held. The run's files fill it (ladder/runfiles) and so does a re-run
// (ladder/rerun); Write spells it for both, so the two can be held equal.
type Provenance struct {
	Holder, Claim string
	Tick          int64
	Variant       string
	Confidence    float64
	// Verbatim, Gist and Stage are the belief's memory at the tick.
	Verbatim, Gist   float64
	Stage            string
	FormedAt, Anchor int64
	Origins          []string
	Evidence         []claims.Evidence
	// Lineage is the held variant and its ancestors, back to v0.
	Lineage []Variant
}

// Ancestry returns variant id and its predecessors, back to v0, from l.
func (l *Lineage) Ancestry(id string) ([]Variant, error) {
	var out []Variant
	for id != "" {
		v, ok := l.Variant(id)
		if !ok {
			return nil, fmt.Errorf("variant %s is not in the trace's variant records", id)
		}
		out = append(out, *v)
		id = v.Predecessor
	}
	return out, nil
}

// Write prints the provenance.
func (p *Provenance) Write(out io.Writer) {
	fmt.Fprintf(out, "belief(%s, %s) as of tick %d\n", p.Holder, p.Claim, p.Tick)
	fmt.Fprintf(out, "  variant     %s\n", p.Variant)
	fmt.Fprintf(out, "  confidence  %s\n", canon.FormatFloat(p.Confidence))
	fmt.Fprintf(out, "  verbatim    %s   gist %s   stage %s\n", canon.FormatFloat(p.Verbatim), canon.FormatFloat(p.Gist), p.Stage)
	fmt.Fprintf(out, "  formed at   tick %d; last reinforced at tick %d\n", p.FormedAt, p.Anchor)
	fmt.Fprintf(out, "  origins     [%s] (distinct eyewitnesses counted towards confidence)\n", strings.Join(p.Origins, ", "))
	fmt.Fprintln(out, "  evidence")
	for i, e := range p.Evidence {
		from := "saw it"
		if e.Source != "" {
			from = "heard from " + e.Source + ", chain " + strings.Join(e.Chain, " → ")
		}
		counted := "counted"
		if !e.Counted {
			counted = "not counted"
		}
		fmt.Fprintf(out, "    %d. tick %d, %s: %s, via %s, confidence %s, %s\n",
			i+1, e.Tick, e.Type, from, e.Via, canon.FormatFloat(e.Confidence), counted)
	}
	fmt.Fprintln(out, "  variant lineage")
	for _, v := range p.Lineage {
		line := "    " + v.ID
		if v.Predecessor == "" {
			line += " (what happened)"
		} else {
			var diffs []string
			for _, d := range v.Diff {
				diffs = append(diffs, fmt.Sprintf("%s: %s → %s", d.Slot, d.From, d.To))
			}
			line += fmt.Sprintf(" from %s by %s (%s, by %s at tick %d)", v.Predecessor, strings.Join(diffs, ", "), v.Reason, v.By, v.Tick)
		}
		fmt.Fprintln(out, line)
	}
}
