package social

// Pair weighting (decision 0021): a grudge between two NPCs lowers the
// chance they meet. The roll of an encounter never changes — only the
// threshold it is compared with, p·w — so a run without weighting rolls
// exactly the same values.

// Between returns g(a, b) at tick t, the grudge strength a pair weight
// reads: the larger total strength (emotional + evidentiary) of a's
// grudge against b and b's against a, a settled grudge counting as none.
// ok is false when neither direction has an unsettled grudge: the pair
// then has no weight at all.
func (gs *Grudges) Between(a, b string, t int64) (g float64, ok bool) {
	for _, k := range [][2]string{{a, b}, {b, a}} {
		gr, found := gs.by[k]
		if !found || gr.SettledAt(t, gs.curves) {
			continue
		}
		total := float64(gr.EmotionalAt(t, gs.curves) + gr.EvidentiaryAt(t, gs.curves))
		if !ok || total > g {
			g, ok = total, true
		}
	}
	return g, ok
}

// Weight is a pair's encounter weight for grudge strength g:
// max(0, 1 − strength·g), the product rounded before the subtraction so
// no platform fuses it.
func Weight(g, strength float64) float64 {
	return max(0, 1-float64(strength*g))
}
