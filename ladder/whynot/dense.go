package whynot

import (
	"fmt"
	"io"
	"strings"

	"github.com/chronicle/ladder/dense"
)

// readDense indexes the dense file (docs/dense-columns.md): each NPC's
// alive and at per tick, every claim (its believers column), and each
// belief's stage per tick. It holds one row at a time.
func (r *Run) readDense(src io.Reader) error {
	rows, err := dense.NewRows(src)
	if err != nil {
		return err
	}
	header := rows.Header()
	type column struct {
		j    int
		x, c int32
	}
	var alive, at, stages []column
	for j, name := range header {
		if npc, ok := strings.CutSuffix(name, "/alive"); ok && !strings.Contains(npc, "/") {
			alive = append(alive, column{j: j, x: r.npcs.id(npc)})
		}
		if claim, ok := strings.CutSuffix(name, "/believers"); ok && !strings.Contains(claim, "/") {
			r.claims.id(claim)
		}
	}
	for j, name := range header {
		if npc, ok := strings.CutSuffix(name, "/at"); ok && !strings.Contains(npc, "/") {
			if x, known := r.npcs.index[npc]; known {
				at = append(at, column{j: j, x: x})
			}
		}
		parts := strings.Split(name, "/")
		if len(parts) != 3 || parts[2] != "stage" {
			continue
		}
		x, okX := r.npcs.index[parts[0]]
		c, okC := r.claims.index[parts[1]]
		if okX && okC {
			stages = append(stages, column{j: j, x: x, c: c})
		}
	}
	if len(alive) == 0 || len(at) != len(alive) {
		return fmt.Errorf("want an <npc>/alive and an <npc>/at column for every NPC, found %d and %d", len(alive), len(at))
	}
	r.alive, r.at = make([][]bool, len(alive)), make([][]int32, len(alive))
	r.holders = make([][]int32, len(r.claims.list))
	for _, s := range stages {
		r.pair(s.x, s.c).stage = []stage{}
		r.holders[s.c] = append(r.holders[s.c], s.x) // header order: sorted by holder
	}
	for line := 2; ; line++ {
		ok, err := rows.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if r.rows == 0 {
			r.first = rows.Tick()
		}
		if want := r.first + int64(r.rows); rows.Tick() != want {
			return fmt.Errorf("line %d: tick %d where tick %d was due: a run's rows are every tick", line, rows.Tick(), want)
		}
		r.rows++
		for _, a := range alive {
			r.alive[a.x] = append(r.alive[a.x], rows.Value(a.j) == "True")
		}
		for _, a := range at {
			loc := int32(-1)
			if v := rows.Value(a.j); v != "" {
				loc = r.places.id(v)
			}
			r.at[a.x] = append(r.at[a.x], loc)
		}
		for _, s := range stages {
			st, known := stageOf(rows.Value(s.j))
			if !known {
				return fmt.Errorf("line %d: column %q: unknown stage %q", line, header[s.j], rows.Value(s.j))
			}
			p := r.pairs[[2]int32{s.x, s.c}]
			if n := len(p.stage); st == none && n > 0 && p.stage[n-1] != none {
				return fmt.Errorf("line %d: column %q is empty after a stage: a belief, once held, is never dropped", line, header[s.j])
			}
			p.stage = append(p.stage, st)
		}
	}
	if r.rows == 0 {
		return fmt.Errorf("no rows")
	}
	return nil
}

// pair returns the (npc, claim) entry, made on first use.
func (r *Run) pair(x, c int32) *pair {
	k := [2]int32{x, c}
	p := r.pairs[k]
	if p == nil {
		p = &pair{last: struct{ told, witness int }{-1, -1}}
		r.pairs[k] = p
	}
	return p
}
