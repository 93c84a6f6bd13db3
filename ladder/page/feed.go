package page

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/sim/trace"
)

// Kind is a feed record's kind: the trace record kinds the feed shows
// (keyframes are left out: the belief table shows the state at every tick).
type Kind string

const (
	KindEvent        Kind = "event"
	KindEncounter    Kind = "encounter"
	KindTransmission Kind = "transmission"
	KindRule         Kind = "rule"
	KindSupersession Kind = "supersession"
	KindBelief       Kind = "belief"
)

// kinds fixes each kind's code in the embedded data; the page's script
// holds the same list.
var kinds = []Kind{KindEvent, KindEncounter, KindTransmission, KindRule, KindSupersession, KindBelief}

// Record is one trace record as the feed shows it. Fired is the record's
// outcome (an encounter met, a transmission passed, a rule fired; always
// true for events, supersessions and belief changes). Fields are the
// kind's fields in a fixed order, numbers exactly as the trace wrote them:
//
//	event         id, event kind
//	encounter     site, first, second, roll value, threshold, "pinned" or ""
//	transmission  teller, listener, claim, variant, rule, reason, via, confidence ("" when declined)
//	rule          rule, subject, reason, roll key, roll value, threshold (the roll's three "" when
//	              no roll decided it), then name and value of each value the rule looked at
//	supersession  holder, claim, winner, loser, via, "kept" or "switched"
//	belief        holder, claim, variant, change, confidence, stage
type Record struct {
	Tick   int64
	Seq    int64 // the record's seq in the trace
	Kind   Kind
	Fired  bool
	Fields []string
	// ID is an encounter's id, which evidence names as its via. It is not
	// embedded: the page's script spells it from the tick, the site and
	// the pair (EncounterID), which the specs hold to the trace's ids.
	ID string
}

// EncounterID spells an encounter's id from its tick, site and pair, as
// the engine does and the page's script does: the id evidence records
// name in via.
func EncounterID(tick int64, site, a, b string) string {
	return "encounter@" + strconv.FormatInt(tick, 10) + "/" + site + "/[" + a + "," + b + "]"
}

// traceLine is the union of the trace's record fields the feed reads.
type traceLine struct {
	Kind       string          `json:"kind"`
	Tick       int64           `json:"tick"`
	ID         string          `json:"id"`
	Event      string          `json:"event"`
	Site       string          `json:"site"`
	Pair       []string        `json:"pair"`
	Fired      bool            `json:"fired"`
	Roll       *traceRoll      `json:"roll"`
	Via        string          `json:"via"`
	Claim      string          `json:"claim"`
	Variant    string          `json:"variant"`
	Teller     string          `json:"teller"`
	Listener   string          `json:"listener"`
	Rule       string          `json:"rule"`
	Reason     string          `json:"reason"`
	Confidence json.Number     `json:"confidence"`
	Subject    string          `json:"subject"`
	Values     json.RawMessage `json:"values"`
	Holder     string          `json:"holder"`
	Loser      string          `json:"loser"`
	Winner     string          `json:"winner"`
	Kept       bool            `json:"kept"`
	Change     string          `json:"change"`
	Stage      string          `json:"stage"`
	Schema     string          `json:"schema"`
	Version    int             `json:"version"`
	Seq        int64           `json:"seq"`
	// The social layer's state deltas (v2).
	Cause     string      `json:"cause"`
	Target    string      `json:"target"`
	Favour    string      `json:"favour"`
	Creditor  string      `json:"creditor"`
	Debtor    string      `json:"debtor"`
	State     string      `json:"state"`
	Observer  string      `json:"observer"`
	Alpha     json.Number `json:"alpha"`
	Beta      json.Number `json:"beta"`
	Dimension string      `json:"dimension"`
	NPC       string      `json:"npc"`
	Override  string      `json:"override"`
	At        string      `json:"at"`
	Role      string      `json:"role"`
	Previous  string      `json:"previous"`
}

// restore puts back what a version-3 line leaves out because another of
// its fields spells it (trace.Facts): an encounter's site and pair from
// its id, its roll's key, and the claim of a variant. A version-2 line
// spells them all, and the page reads the field it finds; the branch,
// which the page does not read, is left as it is.
func (l *traceLine) restore() {
	switch trace.Kind(l.Kind) {
	case trace.KindEncounter:
		if e, ok := trace.CutEncounterID(l.ID); ok {
			if l.Site == "" {
				l.Site = e.Site
			}
			if l.Pair == nil {
				l.Pair = e.Pair[:]
			}
		}
		if l.Roll != nil && l.Roll.Key == "" {
			l.Roll.Key = l.ID
		}
	case trace.KindTransmission, trace.KindBelief:
		if l.Claim == "" {
			l.Claim = trace.ClaimOf(l.Variant)
		}
	case trace.KindSupersession:
		if l.Claim == "" {
			l.Claim = trace.ClaimOf(l.Winner)
		}
	}
}

type traceRoll struct {
	Key       string      `json:"key"`
	Value     json.Number `json:"value"`
	Threshold json.Number `json:"threshold"`
	Pinned    bool        `json:"pinned"`
}

// eachLine reads a trace (docs/trace-schema.md) a line at a time, in
// derivation order, and calls fn with each record's head (peek) and a
// function that decodes the whole line, for the few records the caller
// shows or keeps: a big run's records are mostly counted, and decoding
// every one would cost more than the run that wrote it. Keyframes are
// skipped. It refuses a file whose header is not schema v1 or v2, and
// stops when fn says so.
func eachLine(src Artifact, fn func(h head, decode func() (*traceLine, error)) (stop bool, err error)) error {
	rc, err := src.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	line := 0
	var failed error
	names := interned{}
	err = artifact.Lines(rc, func(raw []byte) bool {
		line++
		if raw[len(raw)-1] != '\n' {
			failed = fmt.Errorf("line %d: no final newline", line)
			return true
		}
		raw = raw[:len(raw)-1]
		if len(raw) == 0 {
			failed = fmt.Errorf("line %d: empty line", line)
			return true
		}
		decode := func() (*traceLine, error) {
			var l traceLine
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			if err := d.Decode(&l); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			l.restore()
			return &l, nil
		}
		if line == 1 {
			l, err := decode()
			switch {
			case err != nil:
				failed = err
			case l.Kind != "header" || l.Schema != trace.Schema || l.Version < trace.Version1 || l.Version > trace.Version3:
				failed = fmt.Errorf("line 1: not a chronicle.trace header of version 1 to 3")
			}
			return failed != nil
		}
		h, err := peek(raw, names)
		if err != nil {
			failed = fmt.Errorf("line %d: %w", line, err)
			return true
		}
		if h.Kind == "keyframe" {
			return false
		}
		stop, err := fn(h, decode)
		if err != nil {
			failed = fmt.Errorf("line %d: %w", line, err)
			return true
		}
		return stop
	})
	switch {
	case err != nil:
		return err
	case failed != nil:
		return failed
	case line == 0:
		return fmt.Errorf("empty trace: no header")
	}
	return nil
}

// shown reports whether the feed shows records of a kind.
func shown(kind string) bool { return slices.Contains(kinds, Kind(kind)) }

// record decodes a line the feed shows.
func record(decode func() (*traceLine, error)) (Record, error) {
	l, err := decode()
	if err != nil {
		return Record{}, err
	}
	r, _, err := recordOf(*l)
	return r, err
}

func recordOf(l traceLine) (Record, bool, error) {
	r := Record{Tick: l.Tick, Seq: l.Seq, Kind: Kind(l.Kind), Fired: true}
	switch r.Kind {
	case KindEvent:
		r.Fields = []string{l.ID, l.Event}
	case KindEncounter:
		if len(l.Pair) != 2 || l.Roll == nil {
			return Record{}, false, fmt.Errorf("encounter %s: want a pair and a roll", l.ID)
		}
		pinned := ""
		if l.Roll.Pinned {
			pinned = "pinned"
		}
		r.Fired = l.Fired
		r.Fields = []string{l.Site, l.Pair[0], l.Pair[1], l.Roll.Value.String(), l.Roll.Threshold.String(), pinned}
		r.ID = l.ID
	case KindTransmission:
		r.Fired = l.Fired
		r.Fields = []string{l.Teller, l.Listener, l.Claim, l.Variant, l.Rule, l.Reason, l.Via, l.Confidence.String()}
	case KindRule:
		r.Fired = l.Fired
		r.Fields = []string{l.Rule, l.Subject, l.Reason, "", "", ""}
		if l.Roll != nil {
			r.Fields[3], r.Fields[4], r.Fields[5] = l.Roll.Key, l.Roll.Value.String(), l.Roll.Threshold.String()
		}
		vals, err := values(l.Values)
		if err != nil {
			return Record{}, false, fmt.Errorf("rule %s: values: %w", l.Rule, err)
		}
		r.Fields = append(r.Fields, vals...)
	case KindSupersession:
		kept := "switched"
		if l.Kept {
			kept = "kept"
		}
		r.Fields = []string{l.Holder, l.Claim, l.Winner, l.Loser, l.Via, kept}
	case KindBelief:
		r.Fields = []string{l.Holder, l.Claim, l.Variant, l.Change, l.Confidence.String(), l.Stage}
	default:
		return Record{}, false, nil
	}
	return r, true, nil
}

// values flattens a rule's values object into name, value pairs sorted by
// name (the trace writes them sorted already; sorting here keeps the page
// independent of map order).
func values(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var m map[string]json.Number
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]string, 0, 2*len(names))
	for _, n := range names {
		out = append(out, n, m[n].String())
	}
	return out, nil
}
