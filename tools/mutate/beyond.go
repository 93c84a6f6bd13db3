package main

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// The beyond-the-ladder list (tools/mutate/beyond-ladder.txt, in the
// equivalent list's form) names mutants the package's own specs kill and
// no rung can: they change nothing a run outputs — its trace, its state,
// its views, the worlds it refuses — only an internal answer a spec asks
// for directly (a schedule's next change reported early, which only
// makes occupancy recomputed sooner) or an error no fixture can provoke
// (a hash that cannot fail). The ladder pass counts them apart, out of
// its score, and prints each with its reason; an entry that names no
// survivor of the pass is reported, because the ladder kills that mutant
// now or its line changed, and either way the entry must go.

// listed is a mutant with the reason a list gives for it.
type listed struct {
	mutant
	reason string
}

// setBeyond moves the survivors the list names out of the score: from
// lived, timed out or not reached to Beyond.
func (r *report) setBeyond(list []equivalent) error {
	survivors := append(slices.Clone(r.lived), r.notReached...)
	hit, stale, err := classify(survivors, list)
	if err != nil {
		return fmt.Errorf("the beyond-the-ladder list: %w", err)
	}
	reason := func(m mutant) string {
		for _, e := range list {
			if e.matches(m) {
				return e.reason
			}
		}
		return ""
	}
	var lived, notReached []mutant
	for i, m := range survivors {
		t := r.packages[filepath.Dir(m.File)]
		switch {
		case hit[i]:
			r.beyond = append(r.beyond, listed{m, reason(m)})
			t.Beyond++
			switch {
			case i >= len(r.lived):
				t.NotReached--
			case m.Status == "TIMED OUT":
				t.TimedOut--
			default:
				t.Lived--
			}
		case i < len(r.lived):
			lived = append(lived, m)
		default:
			notReached = append(notReached, m)
		}
	}
	r.lived, r.notReached = lived, notReached
	// classify calls an entry stale only for a file with a survivor; an
	// entry for a file the pass mutated and the ladder killed entirely is
	// stale too, which only the list's files against the report's say.
	files := map[string]bool{}
	for _, m := range survivors {
		files[m.File] = true
	}
	for _, e := range list {
		if _, mutated := r.packages[filepath.Dir(e.file)]; mutated && !files[e.file] {
			stale = append(stale, e)
		}
	}
	slices.SortFunc(stale, func(a, b equivalent) int { return cmp.Compare(a.at, b.at) })
	r.beyondStale = slices.CompactFunc(stale, func(a, b equivalent) bool { return a.at == b.at })
	return nil
}

// renderBeyond is the ladder pass's account of the list: each mutant it
// set apart, and each entry that named no survivor.
func renderBeyond(b *strings.Builder, r *report) {
	if len(r.beyond) > 0 {
		b.WriteString("Beyond the ladder (tools/mutate/beyond-ladder.txt: the package's specs kill them; no run's output changes):\n\n")
		for _, m := range r.beyond {
			fmt.Fprintf(b, "- `%s:%d:%d` %s %s: `%s` — %s\n", m.File, m.Line, m.Column, m.Type, m.Status, m.Source, m.reason)
		}
		b.WriteString("\n")
	}
	if len(r.beyondStale) > 0 {
		b.WriteString("Beyond-the-ladder entries that named no survivor (the ladder kills it now, or the line changed: update or remove them):\n\n")
		for _, e := range r.beyondStale {
			fmt.Fprintf(b, "- %s: `%s | %s | %s`\n", e.at, e.file, e.source, e.kind)
		}
		b.WriteString("\n")
	}
}
