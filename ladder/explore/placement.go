package explore

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/schedule"
)

// The schedule oracle (PropPlacement). Where an NPC must be is read from
// the fixture alone: the first of its blocks that covers the tick, else
// its home (docs/fixture-reference.md, `schedule`). A block covers tick t
// when t is within [since, until) and inside one of its occurrences: a
// one-off block's [from, to); a recurring block's k-th occurrence, for
// some k ≥ 0, is [since + k·every + from, since + k·every + to). The
// oracle finds the one occurrence that can hold t — the last to start at
// or before it — by counting whole periods from since, where the engine
// takes t's phase within the period; and it reads where the NPC was from
// dense.csv, which the engine's occupancy (moved by each schedule's next
// change, never asked tick by tick) wrote. Overrides (a mourning, a
// role's duties), a block that meets an office (suspended while the
// office is vacant) and the dead are the rules', not the schedule's: at
// those ticks only the `base` column is compared.

// occupies reports whether block b covers tick t.
func occupies(b schedule.Block, t int64) bool {
	if t < b.Since || t >= b.Until {
		return false
	}
	if b.Every == 0 {
		return b.From <= t && t < b.To
	}
	first := b.Since + b.From // the first occurrence's start
	if t < first {
		return false
	}
	start := first + (t-first)/b.Every*b.Every // the last occurrence to start by t
	return t < start-b.From+b.To
}

// placed is where the fixture's schedule puts an NPC at tick t, the block
// that does (-1: home) and whether that block meets an office.
func placed(s schedule.Schedule, t int64) (string, int, bool) {
	for i, b := range s.Blocks {
		if occupies(b, t) {
			return b.At, i, b.Meets != ""
		}
	}
	return s.Home, -1, false
}

// placement compares the run's dense.csv with the fixture's schedules and
// returns the first disagreement.
func placement(f *fixture.Fixture, dense []byte) *Finding {
	rows, err := denseRows(dense)
	if err != nil || len(rows) == 0 {
		return &Finding{Property: PropPlacement, Tick: -1, Message: fmt.Sprintf("dense.csv does not read: %v", err)}
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	cell := func(row []string, name string) (string, bool) {
		i, ok := col[name]
		if !ok || i >= len(row) {
			return "", false
		}
		return row[i], true
	}
	for _, row := range rows[1:] {
		t, err := strconv.ParseInt(row[0], 10, 64)
		if err != nil {
			return &Finding{Property: PropPlacement, Tick: -1, Message: fmt.Sprintf("dense.csv: a row's tick %q is not a number", row[0])}
		}
		for _, n := range f.Cast {
			want, by, meets := placed(n.Schedule, t)
			why := "no block covers it: home"
			if by >= 0 {
				b := n.Schedule.Blocks[by]
				why = fmt.Sprintf("its block %d (at %s, from %d to %d every %d since %d until %d) covers it", by, b.At, b.From, b.To, b.Every, b.Since, b.Until)
			}
			if base, ok := cell(row, "schedule/"+n.ID+"/base"); ok && base != "" && base != want {
				return &Finding{Property: PropPlacement, Tick: t, Message: fmt.Sprintf("dense.csv says %s's base schedule puts it at %q at tick %d; the fixture's puts it at %q: %s", n.ID, base, t, want, why)}
			}
			alive, _ := cell(row, n.ID+"/alive")
			override, _ := cell(row, "schedule/"+n.ID+"/override")
			at, ok := cell(row, n.ID+"/at")
			if !ok || alive != "True" || override != "" || meets {
				continue
			}
			if at != want {
				return &Finding{Property: PropPlacement, Tick: t, Message: fmt.Sprintf("dense.csv says %s is at %q at tick %d with no override in force; its schedule puts it at %q: %s", n.ID, at, t, want, why)}
			}
		}
	}
	return nil
}

// denseRows splits dense.csv into its rows' fields. A line without a
// quote is split at its commas (ids and locations never need quoting, so
// nearly every line is); a line with one is read as CSV. encoding/csv
// over every line was a sixteenth of an exploration's CPU.
func denseRows(data []byte) ([][]string, error) {
	var rows [][]string
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if bytes.IndexByte(line, '"') < 0 {
			rows = append(rows, strings.Split(string(line), ","))
			continue
		}
		row, err := csv.NewReader(bytes.NewReader(line)).Read()
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}
