package whynot

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim/rules"
)

// maxLines caps the chances an answer lists one by one: the last few
// say why; the earlier ones are counted on one line.
const maxLines = 8

// lines are chances as an answer lists them, the most recent first. A
// stretch of consecutive ticks with one holder at one place where the
// pair never met (or was never rolled) is one line, with its closest
// roll; a meeting is a line of its own.
func (r *Run) lines(chs []chance) []Line {
	groups := stretches(chs)
	slices.SortStableFunc(groups, func(a, b []chance) int {
		la, lb := a[len(a)-1], b[len(b)-1]
		return cmp.Or(cmp.Compare(lb.tick, la.tick), cmp.Compare(lb.line(), la.line()))
	})
	var out []Line
	for i, g := range groups {
		if i == maxLines {
			out = append(out, r.earlier(groups[i:]))
			break
		}
		out = append(out, r.stretchLine(g))
	}
	return out
}

// quiet reports whether a chance passed without a meeting: a roll that
// did not fire, or a tick sampling was off.
func quiet(ch chance) bool { return ch.site >= 0 && ch.told == nil && (ch.enc == nil || !ch.enc.fired) }

// stretches groups quiet chances with one holder at one place, alike in
// how they failed, over consecutive ticks; every other chance is alone.
func stretches(chs []chance) [][]chance {
	type key struct {
		holder, site int32
		rolled       bool
		threshold    float64
		inactive     stage
		fresh        bool
	}
	var out [][]chance
	open := map[key]int{}
	for _, ch := range chs {
		if !quiet(ch) {
			out = append(out, []chance{ch})
			continue
		}
		k := key{holder: ch.holder, site: ch.site, rolled: ch.enc != nil, inactive: ch.inactive, fresh: ch.fresh}
		if ch.enc != nil {
			k.threshold = ch.enc.threshold
		}
		if i, ok := open[k]; ok && out[i][len(out[i])-1].tick == ch.tick-1 {
			out[i] = append(out[i], ch)
			continue
		}
		open[k] = len(out)
		out = append(out, []chance{ch})
	}
	return out
}

// stretchLine says what happened at a stretch of chances.
func (r *Run) stretchLine(g []chance) Line {
	first, last := g[0], g[len(g)-1]
	holder := r.npcs.list[first.holder]
	head := fmt.Sprintf("%s at %s with %s", ticks(first.tick, last.tick), r.placeName(first.site), holder)
	switch {
	case first.site < 0:
		return Line{Tick: first.tick, Trace: first.told.line, Text: fmt.Sprintf("tick %d: a fixture report from %s: %s", first.tick, holder, r.outcome(first))}
	case first.enc == nil && first.told == nil:
		what := "no encounter was rolled"
		if len(g) > 1 {
			what = fmt.Sprintf("no encounter was rolled at any of the %d ticks", len(g))
		}
		return Line{Tick: last.tick, Trace: last.off, Text: fmt.Sprintf("%s: %s: %s is off%s", head, what, rules.EncounterSampling, r.unable(first))}
	case first.enc == nil:
		return Line{Tick: first.tick, Trace: first.told.line, Text: fmt.Sprintf("%s: %s", head, r.outcome(first))}
	case !first.enc.fired:
		closest := g[0]
		for _, ch := range g[1:] {
			if ch.enc.value < closest.enc.value {
				closest = ch
			}
		}
		e := closest.enc
		text := fmt.Sprintf("%s: they did not meet: roll %s", head, roll(e))
		if len(g) > 1 {
			text = fmt.Sprintf("%s: they did not meet in %d rolls; the closest, at tick %d: %s", head, len(g), e.tick, roll(e))
		}
		return Line{Tick: last.tick, Trace: e.line, Text: text + r.unable(first)}
	}
	e, at := first.enc, first.told.line
	if first.keep != nil {
		at = first.keep.line // the decision, just before the declined telling it wrote
	}
	return Line{Tick: first.tick, Trace: at, Text: fmt.Sprintf("%s: they met (roll %s, trace.jsonl:%d); %s", head, roll(e), e.line, r.outcome(first))}
}

// outcome is what became of a telling: passed on, declined by a rule
// with its reason, or kept by a keeper's tell-decision.
func (r *Run) outcome(ch chance) string {
	t := ch.told
	teller := r.npcs.list[t.teller]
	switch {
	case ch.keep != nil:
		return fmt.Sprintf("%s kept it: %s (%s)", teller, ch.keep.reason, ch.keep.name)
	case t.teller != ch.holder:
		return fmt.Sprintf("no telling passed between them: %s (%s)", t.reason, t.rule)
	case t.fired:
		return fmt.Sprintf("%s told it: %s (%s)", teller, t.reason, t.rule)
	}
	return fmt.Sprintf("%s did not pass it on: %s (%s)", teller, t.reason, t.rule)
}

// unable says why a holder could not have told it even had they met.
func (r *Run) unable(ch chance) string {
	holder := r.npcs.list[ch.holder]
	switch {
	case ch.inactive != none:
		return fmt.Sprintf("; %s's rumour was %s: it could not have told it", holder, ch.inactive)
	case ch.fresh:
		return fmt.Sprintf("; %s had heard it only that tick: it could not tell it yet", holder)
	}
	return ""
}

// earlier is the line counting the chances past maxLines.
func (r *Run) earlier(groups [][]chance) Line {
	n := 0
	first := groups[0][0]
	holders := map[int32]bool{}
	for _, g := range groups {
		n += len(g)
		for _, ch := range g {
			holders[ch.holder] = true
			if ch.tick < first.tick || (ch.tick == first.tick && ch.line() < first.line()) {
				first = ch
			}
		}
	}
	what := fmt.Sprintf("at %s with %s", r.placeName(first.site), r.npcs.list[first.holder])
	if first.site < 0 {
		what = "a fixture report from " + r.npcs.list[first.holder]
	}
	return Line{Tick: first.tick, Trace: first.line(), Text: fmt.Sprintf("and %s before those, with %s, from tick %d (the first: %s)",
		plural(n, "earlier chance"), plural(len(holders), "holder"), first.tick, what)}
}

// placeName spells a place: nowhere for none (a fixture report's, or
// an NPC's at no location).
func (r *Run) placeName(site int32) string {
	if site < 0 {
		return "nowhere"
	}
	return r.places.list[site]
}

// ticks spells a tick or an inclusive range of them.
func ticks(from, to int64) string {
	if from == to {
		return "tick " + strconv.FormatInt(from, 10)
	}
	return fmt.Sprintf("ticks %d–%d", from, to)
}

// roll spells an encounter roll against its threshold, with as many
// digits as it takes to tell them apart, and the pair weight that
// lowered the threshold when rule 18 weighed the pair.
func roll(e *encounter) string {
	op := "≥"
	if e.fired {
		op = "<"
	}
	v, t := digits(e.value, e.threshold)
	s := v + " " + op + " " + t
	if e.weighted {
		s += " (the pair's weight " + strconv.FormatFloat(e.weight, 'g', 4, 64) + " lowered the threshold: a grudge)"
	}
	return s
}

// digits spells two numbers with four significant digits, or more when
// four would make them look equal.
func digits(a, b float64) (string, string) {
	for p := 4; ; p++ {
		x, y := strconv.FormatFloat(a, 'g', p, 64), strconv.FormatFloat(b, 'g', p, 64)
		if x != y || a == b || p >= 17 {
			return x, y
		}
	}
}
