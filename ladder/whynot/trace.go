package whynot

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// encounter is one encounter record as one of its two NPCs sees it.
type encounter struct {
	ref
	other, site int32
	fired       bool
	value       float64
	threshold   float64
	weight      float64 // the pair's weight when rule 18 weighed it (weighted)
	weighted    bool
}

// transmission is one chance for a claim to pass to a listener, as the
// trace recorded it.
type transmission struct {
	ref
	teller       int32
	via, variant string
	fired        bool
	rule, reason string
}

// rule is one rule evaluation about a belief; other is the teller of a
// tell-decision.
type rule struct {
	ref
	other        int32
	fired        bool
	name, reason string
}

// change is one belief record: a state delta of a holder's belief.
type change struct {
	ref
	change, stage, variant string
}

// formation is how a belief was formed: the belief record, and the
// record that caused it — a witness evaluation or a telling.
type formation struct {
	change
	witness *rule         // it witnessed the event
	told    *transmission // it was told
}

// event is one event record.
type event struct {
	ref
	id, kind string
}

// readTrace indexes every record a question needs, decoding each line
// with the repository's trace reader (ladder/compare), which puts back
// what a version-3 line leaves out (trace.Facts).
func (r *Run) readTrace(src io.Reader) error {
	rd, err := cmp.NewReader(src)
	if err != nil {
		return err
	}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := r.record(rec); err != nil {
			return fmt.Errorf("trace line %d: %s record: %w", rec.Line, rec.Kind, err)
		}
	}
}

// record indexes one trace record.
func (r *Run) record(rec cmp.Record) error {
	f, at := rec.Fields, ref{tick: rec.Tick, line: rec.Line}
	switch trace.Kind(rec.Kind) {
	case trace.KindEvent:
		e := event{ref: at, id: text(f, "id"), kind: text(f, "event")}
		r.events = append(r.events, e)
		if c, ok := r.claims.index[e.id]; ok {
			r.mints[c] = at
		}
	case trace.KindEncounter:
		return r.encounter(f, at)
	case trace.KindTransmission:
		x, c := r.npcs.id(text(f, "listener")), r.claims.id(text(f, "claim"))
		p := r.pair(x, c)
		t := transmission{ref: at, teller: r.npcs.id(text(f, "teller")), via: text(f, "via"), variant: text(f, "variant"),
			fired: f["fired"] == true, rule: text(f, "rule"), reason: text(f, "reason")}
		p.told = append(p.told, t)
		if t.fired && t.rule == rules.TestimonyTransfer {
			p.last.told = len(p.told) - 1
		}
	case trace.KindRule:
		r.rule(f, at)
	case trace.KindBelief:
		x, c := r.npcs.id(text(f, "holder")), r.claims.id(text(f, "claim"))
		p := r.pair(x, c)
		ch := change{ref: at, change: text(f, "change"), stage: text(f, "stage"), variant: text(f, "variant")}
		p.changes = append(p.changes, ch)
		if ch.change == "formed" && p.formed == nil {
			p.formed = r.formation(p, ch)
		}
	case trace.KindRole:
		if text(f, "change") == "vacant" && strings.HasPrefix(text(f, "cause"), "death") {
			r.vacated[text(f, "previous")] = text(f, "cause")
		}
	}
	return nil
}

// formation links a belief's formed record to what caused it: the latest
// telling or witness evaluation of the same belief in the same tick (the
// engine writes it just before).
func (r *Run) formation(p *pair, ch change) *formation {
	fm := &formation{change: ch}
	var told *transmission
	if p.last.told >= 0 && p.told[p.last.told].tick == ch.tick {
		told = &p.told[p.last.told]
	}
	w := p.witness
	if w != nil && (w.tick != ch.tick || !w.fired) {
		w = nil
	}
	switch {
	case told != nil && (w == nil || told.line > w.line):
		fm.told = told
	case w != nil:
		fm.witness = w
	}
	return fm
}

// encounter indexes an encounter record under both its NPCs.
func (r *Run) encounter(f map[string]any, at ref) error {
	pair, _ := f["pair"].([]any)
	roll, _ := f["roll"].(map[string]any)
	if len(pair) != 2 || roll == nil {
		return errors.New("no pair or no roll")
	}
	a, b := r.npcs.id(fmt.Sprint(pair[0])), r.npcs.id(fmt.Sprint(pair[1]))
	e := encounter{ref: at, site: r.places.id(text(f, "site")), fired: f["fired"] == true,
		value: number(roll, "value"), threshold: number(roll, "threshold")}
	if _, ok := f["weight"]; ok {
		e.weight, e.weighted = number(f, "weight"), true
	}
	for len(r.enc) < len(r.npcs.list) {
		r.enc = append(r.enc, nil)
	}
	e.other = b
	r.enc[a] = append(r.enc[a], e)
	e.other = a
	r.enc[b] = append(r.enc[b], e)
	return nil
}

// rule indexes the rule evaluations an answer cites.
func (r *Run) rule(f map[string]any, at ref) {
	name, subject := text(f, "rule"), text(f, "subject")
	ev := rule{ref: at, other: -1, fired: f["fired"] == true, name: name, reason: text(f, "reason")}
	switch name {
	case rules.EncounterSampling:
		if !ev.fired {
			r.offs = append(r.offs, at)
		}
	case rules.SharedClaimInvariant:
		if c, ok := r.claims.index[subject]; ok {
			if _, minted := r.mints[c]; !minted {
				r.mints[c] = at
			}
		}
	case rules.WitnessCreatesBelief, rules.RumourStages:
		holder, claim, ok := strings.Cut(subject, "/")
		if !ok {
			return // a switched-off rule's one record ("disabled", subject ""): it names no belief
		}
		x, c := r.npcs.id(holder), r.claims.id(claim)
		p := r.pair(x, c)
		if name == rules.RumourStages {
			p.stages = append(p.stages, ev)
			break
		}
		p.witness = &ev
		ev.other = x
		r.witnessed[c] = append(r.witnessed[c], ev)
	case rules.TellDecision:
		if ev.fired {
			break
		}
		listener, rest, ok1 := strings.Cut(subject, "<-")
		teller, claim, ok2 := strings.Cut(rest, "/")
		if !ok1 || !ok2 {
			return // a switched-off rule's one record: it names no telling
		}
		ev.other = r.npcs.id(teller)
		p := r.pair(r.npcs.id(listener), r.claims.id(claim))
		p.keeps = append(p.keeps, ev)
	}
}

// readEvents reads the canonical log (sim/events), for what the trace's
// event records do not name: who died, and who killed them.
func (r *Run) readEvents(src io.Reader) error {
	sc := bufio.NewScanner(src)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		rec, err := events.ParseJSON(sc.Bytes())
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		e := rec.Event
		switch e.Kind {
		case "death":
			r.victims[e.ID] = e.Attrs["victim"]
		case "killing":
			r.actors[e.ID] = e.Attrs["actor"]
		}
	}
	return sc.Err()
}

// text is a string field, "" when absent.
func text(f map[string]any, k string) string {
	s, _ := f[k].(string)
	return s
}

// number is a number field, 0 when absent.
func number(f map[string]any, k string) float64 {
	n, _ := f[k].(float64)
	return n
}
