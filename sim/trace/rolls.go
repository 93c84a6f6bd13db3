package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
)

// RollRecord is one roll read back from a trace file.
type RollRecord struct {
	Key    string
	Line   int
	Tick   int64
	Value  float64
	Pinned bool
}

// Rolls extracts every roll from a trace file, in file order. Each roll is
// the "roll" object of the record that used it; an encounter's roll whose
// key the line leaves out (version 3) has the encounter's id as its key.
func Rolls(data []byte) ([]RollRecord, error) {
	var out []RollRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			Tick int64  `json:"tick"`
			ID   string `json:"id"` // an encounter's: version 3 spells its roll's key here alone
			Roll *struct {
				Key    string  `json:"key"`
				Value  float64 `json:"value"`
				Pinned bool    `json:"pinned"`
			} `json:"roll"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("trace line %d: %w", line, err)
		}
		if rec.Roll != nil {
			if rec.Roll.Key == "" {
				rec.Roll.Key = rec.ID
			}
			out = append(out, RollRecord{Key: rec.Roll.Key, Line: line, Tick: rec.Tick, Value: rec.Roll.Value, Pinned: rec.Roll.Pinned})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	return out, nil
}

// RollDiff compares the rolls of two runs. Because a roll is a function of
// its key, two runs sharing a seed agree on every key they share unless a
// pin forced one of them; the interesting part is usually which keys only
// one run rolled — the sites where the runs' worlds differ.
type RollDiff struct {
	Shared    int          // keys rolled by both runs
	Differing []RollRecord // shared keys whose value differs (as rolled in a), in a's order
	OnlyA     []RollRecord // keys only a rolled, in a's order
	OnlyB     []RollRecord // keys only b rolled, in b's order
}

// CompareRolls compares the rolls of two trace files.
func CompareRolls(a, b []byte) (RollDiff, error) {
	ra, err := Rolls(a)
	if err != nil {
		return RollDiff{}, fmt.Errorf("first trace: %w", err)
	}
	rb, err := Rolls(b)
	if err != nil {
		return RollDiff{}, fmt.Errorf("second trace: %w", err)
	}
	inB := make(map[string]RollRecord, len(rb))
	for _, r := range rb {
		inB[r.Key] = r
	}
	inA := make(map[string]bool, len(ra))
	var d RollDiff
	for _, r := range ra {
		inA[r.Key] = true
		other, ok := inB[r.Key]
		switch {
		case !ok:
			d.OnlyA = append(d.OnlyA, r)
		case other.Value != r.Value:
			d.Shared++
			d.Differing = append(d.Differing, r)
		default:
			d.Shared++
		}
	}
	for _, r := range rb {
		if !inA[r.Key] {
			d.OnlyB = append(d.OnlyB, r)
		}
	}
	return d, nil
}
