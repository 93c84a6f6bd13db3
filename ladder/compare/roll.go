package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
)

// Roll is one keyed roll read back from a trace: its key, what it rolled
// and against what, and where it sits in its run. Every roll appears once
// in a trace, inside the record of the decision it decided.
type Roll struct {
	Key       string // purpose@tick/site/[participants], the seed left out
	Tick      int64
	Value     float64 // the value used
	Natural   float64 // the value the key hashes to; differs from Value only when pinned
	Threshold float64
	Pinned    bool
	// By names what rolled it: the record's kind, with the rule's name for
	// a rule record ("encounter", "rule mutation-policy").
	By   string
	Line int // 1-based line of that record in its trace file
}

// Parts splits the roll's key. A roll read by RollOf has a key that
// parses, so the error is for rolls built by hand.
func (r Roll) Parts() (Key, error) { return ParseKey(r.Key) }

// Outcome is what the roll decided, in the schema's reading of its
// threshold: for a yes/no roll (threshold a probability, at most 1) 1 when
// it passed (value below the threshold) and 0 when not; for a choice among
// n options (threshold n > 1) the option chosen, ⌊value × n⌋.
func (r Roll) Outcome() int64 {
	if r.Threshold > 1 {
		return int64(math.Floor(float64(r.Value * r.Threshold)))
	}
	if r.Value < r.Threshold {
		return 1
	}
	return 0
}

// Describe writes the roll as a report line shows it, without its key:
// value, pin, threshold, and what rolled it where:
//
//	0.01 (pinned, natural 0.73), threshold 0.5, rolled by encounter at line 20
func (r Roll) Describe() string {
	var b strings.Builder
	b.WriteString(canon.FormatFloat(r.Value))
	if r.Pinned {
		fmt.Fprintf(&b, " (pinned, natural %s)", canon.FormatFloat(r.Natural))
	}
	fmt.Fprintf(&b, ", threshold %s, rolled by %s", canon.FormatFloat(r.Threshold), r.By)
	if r.Line > 0 {
		fmt.Fprintf(&b, " at line %d", r.Line)
	}
	return b.String()
}

// Where says where and when the roll happened, read off its key:
//
//	tick 12 at whiterun_market, participants neighbor, witness
func (r Roll) Where() string {
	k, err := r.Parts()
	if err != nil {
		return fmt.Sprintf("tick %d", r.Tick)
	}
	site := k.Site
	if site == "" {
		site = `""`
	}
	who := "no participants"
	if len(k.Participants) > 0 {
		who = "participants " + strings.Join(k.Participants, ", ")
	}
	return fmt.Sprintf("tick %d at %s, %s", k.Tick, site, who)
}

// RollOf returns the roll a decoded trace record carries, if any. The
// record is a JSON object as encoding/json decodes it into a map (numbers
// as float64); line is its line in the file (0 when unknown). A roll that
// lacks a field, whose key does not parse, or whose key names another tick
// than its record's is an error: runs are aligned tick by tick, and a roll
// that cannot be placed would be silently misaligned.
func RollOf(rec map[string]any, line int) (Roll, bool, error) {
	raw, present := rec["roll"]
	if !present {
		return Roll{}, false, nil
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return Roll{}, false, fmt.Errorf("roll is %T, want an object", raw)
	}
	tick, err := recordTick(rec)
	if err != nil {
		return Roll{}, false, err
	}
	r := Roll{Tick: tick, Line: line}
	if r.Key, ok = obj["key"].(string); !ok {
		return Roll{}, false, fmt.Errorf("roll has no key")
	}
	if r.Value, ok = obj["value"].(float64); !ok {
		return Roll{}, false, fmt.Errorf("roll %s has no value", r.Key)
	}
	if r.Threshold, ok = obj["threshold"].(float64); !ok {
		return Roll{}, false, fmt.Errorf("roll %s has no threshold", r.Key)
	}
	if r.Natural, ok = obj["natural"].(float64); !ok {
		r.Natural = r.Value
	}
	r.Pinned, _ = obj["pinned"].(bool)
	k, err := ParseKey(r.Key)
	if err != nil {
		return Roll{}, false, err
	}
	if k.Tick != tick {
		return Roll{}, false, fmt.Errorf("roll %s names tick %d but its record is at tick %d", r.Key, k.Tick, tick)
	}
	kind, _ := rec["kind"].(string)
	r.By = kind
	if rule, ok := rec["rule"].(string); ok && kind == "rule" {
		r.By += " " + rule
	}
	return r, true, nil
}

// recordTick reads a record's tick: a whole, non-negative number.
func recordTick(rec map[string]any) (int64, error) {
	t, ok := rec["tick"].(float64)
	if !ok || t < 0 || t != math.Trunc(t) || t > 1<<53 {
		return 0, fmt.Errorf("record has no tick (a whole number), got %v", rec["tick"])
	}
	return int64(t), nil
}

// SameValue reports whether two floats are the same value, bit for bit:
// how rolls, thresholds and everything else in a golden are compared.
func SameValue(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
