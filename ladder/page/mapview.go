package page

import (
	"cmp"
	"math"
	"slices"
)

// Location is one of the fixture's locations as the map needs it: its
// hold ("" for a road or any place outside the holds) and, when the
// fixture gives them (locations' xy), its coordinates.
type Location struct {
	ID, Hold string
	XY       *[2]float64
}

// MapView is the rumour map of a section: every location placed, each
// hold's outline around its locations, the roads people travelled, and the
// carriers — the NPCs who were in two holds. The page draws each NPC as a
// dot at its location at the scrubber's tick, coloured by its stage.
type MapView struct {
	W, H   float64 // the drawing's extent, from 0, 0
	Places []Place
	Holds  []HoldBox
	Roads  []Road
	// Carriers are the NPCs whose whereabouts within the embedded rows
	// span two holds or more, sorted: their routes are drawn.
	Carriers []string
	// Given is set when the coordinates are the fixture's; otherwise the
	// page laid the map out.
	Given bool
}

// Width is how wide the page draws the map, in pixels: twice its extent,
// within 360 and 1,100.
func (m *MapView) Width() float64 { return min(max(2*m.W, 360), 1100) }

// Place is one location on the map.
type Place struct {
	ID, Hold string
	X, Y     float64
}

// HoldBox is a hold's outline: a box around its locations.
type HoldBox struct {
	ID         string
	X, Y, W, H float64
}

// Road is a pair of locations somebody moved between from one tick to the
// next (A < B). Cross is set when the two are not in one hold: a road
// between holds, or a place outside them.
type Road struct {
	A, B           string
	Cross          bool
	X1, Y1, X2, Y2 float64
}

// Layout sizes, in map units: a hold's box holds its locations on a grid
// of cell units, with pad around it and gap between boxes.
const (
	cell = 100.0
	pad  = 30.0
	gap  = 80.0
)

// buildMap places the locations and finds the roads and carriers from the
// NPCs' whereabouts over the embedded rows. Without the fixture's
// coordinates it lays the map out: holds in a grid in order of first
// appearance, each hold's locations on a grid inside its box, and each
// location outside the holds at the middle of the places its travellers
// go to and from (a road between two towns sits between them), or, when
// nobody went there, in a row under the holds.
func buildMap(locs []Location, npcs []NPCTrack) *MapView {
	if len(locs) == 0 {
		return nil
	}
	m := &MapView{}
	hold := map[string]string{}
	for _, l := range locs {
		hold[l.ID] = l.Hold
	}
	// Roads and carriers.
	seen := map[[2]string]bool{}
	for _, n := range npcs {
		holds := map[string]bool{}
		prev := ""
		for _, p := range n.Changes {
			if p.At == "" {
				prev = ""
				continue
			}
			if h := hold[p.At]; h != "" {
				holds[h] = true
			}
			if prev != "" && prev != p.At {
				k := [2]string{min(prev, p.At), max(prev, p.At)}
				if !seen[k] {
					seen[k] = true
					m.Roads = append(m.Roads, Road{A: k[0], B: k[1], Cross: hold[k[0]] == "" || hold[k[0]] != hold[k[1]]})
				}
			}
			prev = p.At
		}
		if len(holds) >= 2 {
			m.Carriers = append(m.Carriers, n.ID)
		}
	}
	slices.SortFunc(m.Roads, func(a, b Road) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
	slices.Sort(m.Carriers)

	pos := map[string][2]float64{}
	if locs[0].XY != nil {
		m.Given = true
		for _, l := range locs {
			pos[l.ID] = [2]float64{clampCoordinate(l.XY[0]), clampCoordinate(l.XY[1])}
		}
	} else {
		layout(locs, m.Roads, pos)
	}
	// Shift so that every box starts at pad from the origin.
	minX, minY := math.Inf(1), math.Inf(1)
	for _, p := range pos {
		minX, minY = min(minX, p[0]), min(minY, p[1])
	}
	for _, l := range locs {
		p := pos[l.ID]
		m.Places = append(m.Places, Place{ID: l.ID, Hold: l.Hold, X: p[0] - minX + 2*pad, Y: p[1] - minY + 2*pad})
	}
	at := map[string]Place{}
	for _, p := range m.Places {
		at[p.ID] = p
	}
	for i := range m.Roads {
		r := &m.Roads[i]
		r.X1, r.Y1, r.X2, r.Y2 = at[r.A].X, at[r.A].Y, at[r.B].X, at[r.B].Y
	}
	boxes := map[string]int{}
	for _, p := range m.Places {
		m.W, m.H = max(m.W, p.X+2*pad), max(m.H, p.Y+2*pad)
		if p.Hold == "" {
			continue
		}
		i, ok := boxes[p.Hold]
		if !ok {
			boxes[p.Hold] = len(m.Holds)
			m.Holds = append(m.Holds, HoldBox{ID: p.Hold, X: p.X - pad, Y: p.Y - pad, W: 2 * pad, H: 2 * pad})
			continue
		}
		b := &m.Holds[i]
		x1, y1 := max(b.X+b.W, p.X+pad), max(b.Y+b.H, p.Y+pad)
		b.X, b.Y = min(b.X, p.X-pad), min(b.Y, p.Y-pad)
		b.W, b.H = x1-b.X, y1-b.Y
	}
	return m
}

// MaxCoordinate bounds a given coordinate either way, as the fixture
// loader does (fixture.MaxCoordinate): the map's extent, boxes and roads
// are sums and differences of coordinates, and near the largest float
// they overflow to infinity, which the section's JSON cannot hold, so a
// page built from coordinates no loader checked still has a finite map.
const MaxCoordinate = 1e6

// clampCoordinate brings x within ±MaxCoordinate; NaN becomes 0.
func clampCoordinate(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return min(max(x, -MaxCoordinate), MaxCoordinate)
}

// layout places locations without the fixture's coordinates (buildMap).
func layout(locs []Location, roads []Road, pos map[string][2]float64) {
	var holds []string
	members := map[string][]string{}
	var outside []string
	for _, l := range locs {
		if l.Hold == "" {
			outside = append(outside, l.ID)
			continue
		}
		if _, ok := members[l.Hold]; !ok {
			holds = append(holds, l.Hold)
		}
		members[l.Hold] = append(members[l.Hold], l.ID)
	}
	largest := 0
	for _, h := range holds {
		largest = max(largest, len(members[h]))
	}
	side := math.Ceil(math.Sqrt(float64(largest)))
	box := float64(side * cell)
	cols := int(math.Ceil(math.Sqrt(float64(len(holds)))))
	for i, h := range holds {
		x0 := float64(float64(i%max(cols, 1)) * (box + gap))
		y0 := float64(float64(i/max(cols, 1)) * (box + gap))
		for j, id := range members[h] {
			pos[id] = [2]float64{x0 + float64(float64(j%int(side))*cell), y0 + float64(float64(j/int(side))*cell)}
		}
	}
	rows := (len(holds) + max(cols, 1) - 1) / max(cols, 1)
	bottom := float64(rows) * (box + gap)
	spare := 0
	// A place outside the holds goes between the placed places its
	// travellers come and go from; two such places next to each other
	// (a road of two legs) are placed in turn, each from what is placed.
	for _, id := range outside {
		var xs, ys []float64
		for _, r := range roads {
			other := ""
			switch id {
			case r.A:
				other = r.B
			case r.B:
				other = r.A
			}
			if p, ok := pos[other]; ok && other != "" {
				xs, ys = append(xs, p[0]), append(ys, p[1])
			}
		}
		if len(xs) == 0 {
			pos[id] = [2]float64{float64(spare) * cell * 2, bottom}
			spare++
			continue
		}
		p := [2]float64{mean(xs), mean(ys)}
		// Never on top of another place.
		for taken(pos, p) {
			p[1] += cell / 2
		}
		pos[id] = p
	}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func taken(pos map[string][2]float64, p [2]float64) bool {
	for _, q := range pos {
		if math.Abs(q[0]-p[0]) < cell/3 && math.Abs(q[1]-p[1]) < cell/3 {
			return true
		}
	}
	return false
}
