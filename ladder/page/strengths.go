package page

import (
	"slices"
	"strings"
)

// DefaultMaxStrengths bounds the belief-ticks whose memory strengths a
// section embeds: verbatim and gist decay every tick, so each belief has a
// new value at every row, and a thousand NPCs' world would embed
// megabytes. A small rung (T0.2: four beliefs) keeps 500 ticks of them.
const DefaultMaxStrengths = 2000

// Strength is a belief's two memory strengths from a tick on, the dense
// CSV's text.
type Strength struct {
	Tick           int64
	Verbatim, Gist string
}

// StrengthTrack is one (holder, claim) belief's strengths, as change
// points.
type StrengthTrack struct {
	Holder, Claim string
	Changes       []Strength
}

// Strengths are the memory strengths a section embeds: every belief's,
// over the ticks From–To (a window around the tick the section opens at
// when Capped).
type Strengths struct {
	From, To int64
	Capped   bool
	Tracks   []StrengthTrack // sorted by holder, then claim
}

// strengths reads the run's verbatim and gist columns over a window of
// the embedded rows centred on the tick the section opens at, as many
// ticks as limit belief-ticks allow. It stops past the window.
func (s *Section) strengths(src Artifact, limit int) error {
	d, err := openDense(src)
	if err != nil {
		return err
	}
	defer d.close()
	pairs := columnsOf(d.cols).pairs
	if len(pairs) == 0 {
		return nil
	}
	st := &Strengths{From: s.Rows.From, To: s.Rows.To}
	if k := int64(max(1, limit/len(pairs))); st.To-st.From+1 > k {
		st.Capped = true
		st.From = max(min(st.To-k+1, s.DefaultTick()-k/2), s.Rows.From)
		st.To = st.From + k - 1
	}
	for _, p := range pairs {
		st.Tracks = append(st.Tracks, StrengthTrack{Holder: p[0], Claim: p[1]})
	}
	var cols [][2]int
	for {
		ok, err := d.next()
		if err != nil {
			return err
		}
		if !ok || d.tick > st.To {
			break
		}
		if d.tick < st.From {
			continue
		}
		if cols == nil {
			for _, p := range pairs {
				prefix := p[0] + "/" + p[1] + "/"
				cols = append(cols, [2]int{d.col(prefix + "verbatim"), d.col(prefix + "gist")})
			}
		}
		for i := range pairs {
			x := Strength{Tick: d.tick, Verbatim: d.at(cols[i][0]), Gist: d.at(cols[i][1])}
			tr := &st.Tracks[i]
			if n := len(tr.Changes); n == 0 || tr.Changes[n-1].Verbatim != x.Verbatim || tr.Changes[n-1].Gist != x.Gist {
				tr.Changes = append(tr.Changes, x)
			}
		}
	}
	slices.SortFunc(st.Tracks, func(a, b StrengthTrack) int {
		if c := strings.Compare(a.Holder, b.Holder); c != 0 {
			return c
		}
		return strings.Compare(a.Claim, b.Claim)
	})
	s.Strengths = st
	return nil
}

// StrengthAt returns a belief's strengths at the end of tick t, false
// when the section does not embed them there.
func (s *Section) StrengthAt(holder, claim string, t int64) (Strength, bool) {
	st := s.Strengths
	if st == nil || t < st.From || t > st.To {
		return Strength{}, false
	}
	i, ok := slices.BinarySearchFunc(st.Tracks, [2]string{holder, claim}, func(b StrengthTrack, k [2]string) int {
		if c := strings.Compare(b.Holder, k[0]); c != 0 {
			return c
		}
		return strings.Compare(b.Claim, k[1])
	})
	if !ok {
		return Strength{}, false
	}
	return at(st.Tracks[i].Changes, func(x Strength) int64 { return x.Tick }, t)
}
