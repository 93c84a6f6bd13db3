package page

import (
	"strings"

	"github.com/chronicle/ladder/sim/rules"
)

// Makers returns, for each variant of the run in the lineage's order
// (claims by id, variants in minting order), the seq of the embedded feed
// record that made it: a v0 its claim's event; a mutated variant the
// mutation-policy evaluation that chose its last changed value; a witness's
// own account the witness-creates-belief evaluation. A variant whose
// record is not embedded (a capped feed) is left out. The belief table's
// variant cell and the variant tree's slot diff link these records, so a
// person sees the decision that made the variant, not only its tick.
func (s *Section) Makers() []Maker {
	if s.Lineage == nil {
		return nil
	}
	var out []Maker
	for _, c := range s.Lineage.Claims {
		for _, v := range c.Variants {
			if r, ok := s.maker(c.ID, v); ok {
				out = append(out, Maker{Variant: v.ID, Tick: r.Tick, Seq: r.Seq})
			}
		}
	}
	return out
}

// Maker is the record that made one variant.
type Maker struct {
	Variant   string
	Tick, Seq int64
}

// maker finds the record that made v among its tick's records. A
// mutation is made while its teller tells the listener: the transmission
// carrying the new variant names the listener, and the mutation-policy
// steps before it, for that listener from that teller, decided it.
func (s *Section) maker(claim string, v Variant) (Record, bool) {
	recs, _ := s.FeedAt(v.Tick)
	switch {
	case v.Reason == "event":
		for _, r := range recs {
			if r.Kind == KindEvent && r.Fields[0] == claim {
				return r, true
			}
		}
	case v.Reason == "witness-disagrees":
		for _, r := range recs {
			if r.Kind == KindRule && r.Fields[0] == rules.WitnessCreatesBelief && r.Fields[1] == v.By+"/"+claim {
				return r, true
			}
		}
	case strings.HasPrefix(v.Reason, "mutation:"):
		for i, r := range recs {
			if r.Kind != KindTransmission || r.Fields[0] != v.By || r.Fields[3] != v.ID {
				continue
			}
			subject := r.Fields[1] + "<-" + v.By + "/" + claim
			for j := i - 1; j >= 0; j-- {
				m := recs[j]
				if m.Kind == KindRule && m.Fired && m.Fields[0] == rules.MutationPolicy && m.Fields[1] == subject {
					return m, true
				}
			}
			break
		}
	}
	return Record{}, false
}
