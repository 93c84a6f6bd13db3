package rerun

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/lineage"
	"github.com/chronicle/ladder/sim"
)

// Explain writes the provenance of holder's belief in claim as of the
// world's current tick: who believes what, from what evidence, through
// whom, since when — and the lineage of the variant held. It reads the
// engine's state; runfiles.Explain reads the same from a run's files,
// and lineage.Provenance spells both.
func Explain(out io.Writer, w *sim.World, holder, claim string) error {
	s := w.Store()
	t, m := w.Now(), s.Memory()
	b, ok := s.Belief(holder, claim)
	if !ok {
		return fmt.Errorf("%s holds no belief in %s at tick %d", holder, claim, t)
	}
	p := &lineage.Provenance{
		Holder: holder, Claim: claim, Tick: t, Variant: b.Variant, Confidence: b.Confidence,
		Verbatim: b.VerbatimAt(t, m), Gist: b.GistAt(t, m), Stage: string(b.StageAt(t, m)),
		FormedAt: b.FormedAt, Anchor: b.Anchor, Origins: slices.Clone(b.Origins), Evidence: slices.Clone(b.Evidence),
	}
	l := Lineage(w)
	anc, err := l.Ancestry(b.Variant)
	if err != nil {
		return fmt.Errorf("%s's belief in %s: %w", holder, claim, err)
	}
	p.Lineage = anc
	p.Write(out)
	return nil
}

// Lineage reads a world's claims, variants, contests and evidence from
// its claim store: what lineage.Read reads from the trace the world has
// written so far.
func Lineage(w *sim.World) *lineage.Lineage {
	s := w.Store()
	l := &lineage.Lineage{}
	sups := s.Supersessions()
	for _, id := range s.ClaimIDs() {
		c, _ := s.Claim(id)
		out := lineage.Claim{ID: id, Kind: c.Kind, Tick: c.Tick}
		for _, v := range s.Variants(id) {
			out.Variants = append(out.Variants, lineage.Variant{
				ID: v.ID, Predecessor: v.Predecessor, Diff: slices.Clone(v.Diff), Slots: slices.Clone(v.Slots),
				Reason: v.Origin.Reason, By: v.Origin.Holder, Tick: v.Origin.Tick,
			})
		}
		for _, x := range sups {
			if x.Claim == id {
				out.Supersessions = append(out.Supersessions, lineage.Supersession{
					Holder: x.Holder, Loser: x.Loser, Winner: x.Winner, Via: x.Via, Tick: x.Tick, Kept: x.Kept,
				})
			}
		}
		l.Claims = append(l.Claims, out)
	}
	for _, h := range w.NPCs() {
		for _, c := range s.Held(h) {
			b, _ := s.Belief(h, c)
			l.Beliefs = append(l.Beliefs, lineage.Belief{
				Holder: h, Claim: c, Evidence: slices.Clone(b.Evidence), FormedAt: b.FormedAt, Anchor: b.Anchor, Origins: slices.Clone(b.Origins),
			})
		}
	}
	// The store lists holders in the cast's order; the trace's reader
	// sorts them.
	slices.SortFunc(l.Beliefs, func(a, b lineage.Belief) int {
		return cmp.Or(strings.Compare(a.Holder, b.Holder), strings.Compare(a.Claim, b.Claim))
	})
	return l
}
