package runfiles

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/views"
)

// Fear is the run as the fear view (package views) reads it as of tick
// at: who is alive and where, and every belief's variant, confidence,
// gist and stage, from the dense file's row for the tick (the columns the
// recorder fills from the same store reads views.Engine makes); each
// claim's kind from the trace's event records up to the tick. The
// floats are read back bit for bit (the dense file spells the shortest
// text that parses to them), so the view's totals are the run's own.
func (r *Run) Fear(at int64) (views.Source, error) {
	d, err := r.Dense()
	if err != nil {
		return nil, err
	}
	row, ok := slices.BinarySearch(d.Ticks, at)
	if !ok {
		return nil, fmt.Errorf("%s/%s: no row for tick %d", r.Where, DenseFile, at)
	}
	kinds := map[string]string{}
	err = r.Records(at, func(rec trace.Record) error {
		if e, ok := rec.Body.(*trace.Event); ok {
			kinds[e.ID] = e.EventKind
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s := &denseFear{tick: at, alive: map[string]bool{}, at: map[string]string{}, beliefs: map[string][]views.Belief{}}
	for _, c := range d.Header {
		npc, ok := strings.CutSuffix(c, "/alive")
		if !ok || strings.Contains(npc, "/") {
			continue
		}
		s.npcs = append(s.npcs, npc)
		s.alive[npc] = d.Cell(row, c) == "True"
		s.at[npc] = d.Cell(row, npc+"/at")
	}
	slices.Sort(s.npcs)
	for _, c := range d.Header {
		hc, ok := strings.CutSuffix(c, "/variant")
		if !ok || strings.Count(hc, "/") != 1 || d.Cell(row, c) == "" {
			continue // not a belief's column, or the belief not held at the tick
		}
		holder, claim, _ := strings.Cut(hc, "/")
		b, err := d.belief(row, holder, claim, kinds)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: tick %d: %w", r.Where, DenseFile, at, err)
		}
		s.beliefs[holder] = append(s.beliefs[holder], b)
	}
	for _, bs := range s.beliefs {
		slices.SortFunc(bs, func(a, b views.Belief) int { return strings.Compare(a.Claim, b.Claim) })
	}
	return s, nil
}

// belief reads holder's belief in claim from row.
func (d *Dense) belief(row int, holder, claim string, kinds map[string]string) (views.Belief, error) {
	col := holder + "/" + claim + "/"
	kind, ok := kinds[claim]
	if !ok {
		return views.Belief{}, fmt.Errorf("%s's belief in %s: the trace has no event record of %s to give its kind", holder, claim, claim)
	}
	b := views.Belief{Claim: claim, Variant: d.Cell(row, col+"variant"), Kind: kind,
		Forgotten: d.Cell(row, col+"stage") == string(claims.Forgotten)}
	for _, f := range []struct {
		name string
		to   *float64
	}{{"confidence", &b.Confidence}, {"gist", &b.Gist}} {
		x, err := strconv.ParseFloat(d.Cell(row, col+f.name), 64)
		if err != nil {
			return views.Belief{}, fmt.Errorf("column %s%s: %w", col, f.name, err)
		}
		*f.to = x
	}
	return b, nil
}

// denseFear is a views.Source read from a run's files.
type denseFear struct {
	tick    int64
	npcs    []string // sorted
	alive   map[string]bool
	at      map[string]string
	beliefs map[string][]views.Belief // by holder, each sorted by claim
}

func (s *denseFear) Tick() int64                       { return s.tick }
func (s *denseFear) NPCs() []string                    { return s.npcs }
func (s *denseFear) Alive(npc string) bool             { return s.alive[npc] }
func (s *denseFear) At(npc string) string              { return s.at[npc] }
func (s *denseFear) Beliefs(npc string) []views.Belief { return s.beliefs[npc] }
