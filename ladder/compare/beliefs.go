package compare

import (
	"fmt"
	"slices"
)

// beliefs is one run's belief sets as of the records read so far: for
// each holder, the variant it holds of each claim. Belief records update
// it one belief at a time (every belief record names the variant held
// after its change); a keyframe replaces it whole, so a reader that starts
// mid-run, or a record kind this reader does not know, cannot leave it
// wrong past the next keyframe.
type beliefs map[string]map[string]string

// apply updates the sets from one record. It returns the holder whose set
// may have changed ("" for none), or all=true after a keyframe.
func (b beliefs) apply(rec Record) (holder string, all bool, err error) {
	switch rec.Kind {
	case "belief":
		h, c, v, err := beliefFields(rec.Fields)
		if err != nil {
			return "", false, fmt.Errorf("trace line %d: belief record: %w", rec.Line, err)
		}
		b.set(h, c, v)
		return h, false, nil
	case "keyframe":
		rows, _ := rec.Fields["beliefs"].([]any)
		clear(b)
		for i, row := range rows {
			obj, _ := row.(map[string]any)
			h, c, v, err := beliefFields(obj)
			if err != nil {
				return "", false, fmt.Errorf("trace line %d: keyframe belief %d: %w", rec.Line, i, err)
			}
			b.set(h, c, v)
		}
		return "", true, nil
	}
	return "", false, nil
}

func (b beliefs) set(holder, claim, variant string) {
	m := b[holder]
	if m == nil {
		m = map[string]string{}
		b[holder] = m
	}
	m[claim] = variant
}

func beliefFields(obj map[string]any) (holder, claim, variant string, err error) {
	holder, ok1 := obj["holder"].(string)
	claim, ok2 := obj["claim"].(string)
	variant, ok3 := obj["variant"].(string)
	if !ok1 || !ok2 || !ok3 || holder == "" || claim == "" {
		return "", "", "", fmt.Errorf("want holder, claim and variant")
	}
	return holder, claim, variant, nil
}

// held is a holder's set: the variants it holds, sorted.
func (b beliefs) held(holder string) []string {
	out := make([]string, 0, len(b[holder]))
	for _, v := range b[holder] {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// holders lists every holder with a belief, sorted.
func (b beliefs) holders() []string {
	out := make([]string, 0, len(b))
	for h := range b {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}
