package rerun

import (
	"fmt"
	"io"
	"strings"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
)

// Explain writes the provenance of holder's belief in claim as of the
// world's current tick: who believes what, from what evidence, through
// whom, since when — and the lineage of the variant held.
func Explain(out io.Writer, w *sim.World, holder, claim string) error {
	s := w.Store()
	t, m := w.Now(), s.Memory()
	b, ok := s.Belief(holder, claim)
	if !ok {
		return fmt.Errorf("%s holds no belief in %s at tick %d", holder, claim, t)
	}
	fmt.Fprintf(out, "belief(%s, %s) as of tick %d\n", holder, claim, t)
	fmt.Fprintf(out, "  variant     %s\n", b.Variant)
	fmt.Fprintf(out, "  confidence  %s\n", canon.FormatFloat(b.Confidence))
	fmt.Fprintf(out, "  verbatim    %s   gist %s   stage %s\n",
		canon.FormatFloat(b.VerbatimAt(t, m)), canon.FormatFloat(b.GistAt(t, m)), b.StageAt(t, m))
	fmt.Fprintf(out, "  formed at   tick %d; last reinforced at tick %d\n", b.FormedAt, b.Anchor)
	fmt.Fprintf(out, "  origins     %s (distinct eyewitnesses counted towards confidence)\n", list(b.Origins))
	fmt.Fprintln(out, "  evidence")
	for i, e := range b.Evidence {
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
	for id := b.Variant; id != ""; {
		v, ok := s.Variant(id)
		if !ok {
			return fmt.Errorf("variant %s of %s is missing from the store", id, claim)
		}
		line := fmt.Sprintf("    %s", v.ID)
		if v.Predecessor == "" {
			line += " (what happened)"
		} else {
			var diffs []string
			for _, d := range v.Diff {
				diffs = append(diffs, fmt.Sprintf("%s: %s → %s", d.Slot, d.From, d.To))
			}
			line += fmt.Sprintf(" from %s by %s (%s, by %s at tick %d)", v.Predecessor, strings.Join(diffs, ", "), v.Origin.Reason, v.Origin.Holder, v.Origin.Tick)
		}
		fmt.Fprintln(out, line)
		id = v.Predecessor
	}
	return nil
}

// list spells ids as a bracketed list: [a, b].
func list(s []string) string { return "[" + strings.Join(s, ", ") + "]" }
