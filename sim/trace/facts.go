package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"

	"github.com/chronicle/ladder/sim/keyed"
)

// Version 3 spells each fact once (decision 0040). What it leaves out is
// what another field of the same line already spells, so a reader puts
// it back from that field alone:
//
//   - every record's branch is an index into the header's branches;
//   - an encounter's pair, site, roll key and roll purpose are in its id
//     ("encounter@12/market/[neighbor,witness]");
//   - an encounter roll's natural value and pinned flag are left out when
//     the roll is not pinned: its natural value is then its value;
//   - a transmission's and a belief change's claim is in their variant,
//     and a supersession's in its winner ("theft@10#v1" is a variant of
//     "theft@10").
//
// The encoder leaves a field out only where the reader's rule gives it
// back exactly (idSpells, ClaimOf); any other value is spelt.

// ClaimOf is the claim a variant id names: the variant with its "#v<n>"
// cut off ("theft@10#v1" → "theft@10"), or the id itself when it has no
// such suffix.
func ClaimOf(variant string) string {
	if i := strings.LastIndex(variant, "#v"); i >= 0 {
		return variant[:i]
	}
	return variant
}

// unpinnedRoll reports whether a roll's natural value and pinned flag are
// implied by its value: the roll is not pinned, and its value is its
// natural value, bit for bit.
func unpinnedRoll(r *keyed.Roll) bool {
	return !r.Pinned && math.Float64bits(r.Value) == math.Float64bits(r.Natural)
}

// idSpells reports which of an encounter's facts its id, the key's human
// form "<purpose>@<tick>/<site>/[<participants joined by ','>]", gives
// back through CutEncounterID equal to the record's (the key's purpose,
// the record's site and pair), exactly as the converter (ConvertV2)
// finds them in the fields. An id that does not cut gives back nothing.
func idSpells(k *keyed.Key, site string, pair [2]string) (purpose, siteOK, pairOK bool) {
	ps := k.Participants
	if len(ps) == 2 && strings.IndexByte(ps[0], ',') < 0 && strings.IndexByte(k.Purpose, '@') < 0 &&
		(strings.IndexByte(k.Site, '/') < 0 || !strings.Contains(k.Site, "/[")) {
		// The engine's encounters: the id cuts at the key's own
		// separators, so no string is built.
		return true, k.Site == site, ps[0] == pair[0] && ps[1] == pair[1]
	}
	// Any other key is cut as a reader cuts its id: a purpose holding '@'
	// or a site holding "/[" moves the cuts after it.
	var buf [128]byte
	p, s, a, b, ok := cutEncounterID(k.AppendString(buf[:0]))
	if !ok {
		return false, false, false
	}
	return string(p) == k.Purpose, string(s) == site, string(a) == pair[0] && string(b) == pair[1]
}

// EncounterID is an encounter id cut into the facts it spells.
type EncounterID struct {
	Purpose string
	Site    string
	Pair    [2]string
}

// CutEncounterID reads an encounter id, the human form of its roll's key:
// the purpose up to the first '@', the tick up to the next '/', the site
// up to the next "/[", and the pair in the brackets that end the id, cut
// at its first ','. ok is false for an id not of that form.
func CutEncounterID(id string) (e EncounterID, ok bool) {
	purpose, site, a, b, ok := cutEncounterID(id)
	if !ok {
		return e, false
	}
	return EncounterID{Purpose: purpose, Site: site, Pair: [2]string{a, b}}, true
}

// cutEncounterID is CutEncounterID for an id spelt as a string or as
// bytes (the encoder's, built on the stack).
func cutEncounterID[S string | []byte](id S) (purpose, site, a, b S, ok bool) {
	at := index(id, "@")
	if at < 0 {
		return
	}
	purpose, rest := id[:at], id[at+1:]
	slash := index(rest, "/")
	if slash < 0 {
		return
	}
	rest = rest[slash+1:]
	open := index(rest, "/[")
	if open < 0 {
		return
	}
	site, rest = rest[:open], rest[open+2:]
	if len(rest) == 0 || rest[len(rest)-1] != ']' {
		return
	}
	rest = rest[:len(rest)-1]
	comma := index(rest, ",")
	if comma < 0 {
		return
	}
	return purpose, site, rest[:comma], rest[comma+1:], true
}

// index is strings.Index for a string or bytes.
func index[S string | []byte](s S, sep string) int {
	for i := 0; i+len(sep) <= len(s); i++ {
		if string(s[i:i+len(sep)]) == sep {
			return i
		}
	}
	return -1
}

// Facts puts back, in a decoded record of a trace file, what the file's
// version leaves out, so a reader sees every fact under the name version
// 2 gave it: records of versions 1 and 2 come back as they are. It is made
// from the file's header (FactsOf) and holds the header's branches.
type Facts struct {
	version  int
	branches []any // the header's branches, decoded
}

// FactsOf reads a decoded header: its version and, for version 3, its
// branches.
func FactsOf(header map[string]any) (Facts, error) {
	v, ok := number(header["version"])
	if !ok || v != float64(int(v)) || v < Version1 || v > Version3 {
		return Facts{}, fmt.Errorf("trace header: version %v, want %d to %d", header["version"], Version1, Version3)
	}
	f := Facts{version: int(v)}
	if f.version < Version3 {
		return f, nil
	}
	bs, ok := header["branches"].([]any)
	if !ok || len(bs) == 0 {
		return Facts{}, errors.New("trace header: version 3 without branches")
	}
	for i, b := range bs {
		if _, ok := b.(map[string]any); !ok {
			return Facts{}, fmt.Errorf("trace header: branches[%d] is not an object", i)
		}
	}
	f.branches = bs
	return f, nil
}

// Version is the file's schema version.
func (f Facts) Version() int { return f.version }

// Restore puts back, in place, what the record's line left out (a
// version-3 line; nothing for an earlier version). A field the line
// spells is kept as it is. It fails only for a branch index the header
// does not list.
func (f Facts) Restore(rec map[string]any) error {
	if f.version < Version3 {
		return nil
	}
	if i, ok := number(rec["branch"]); ok {
		if i != float64(int(i)) || i < 0 || int(i) >= len(f.branches) {
			return fmt.Errorf("branch %v: the header lists %d branches", rec["branch"], len(f.branches))
		}
		rec["branch"] = maps.Clone(f.branches[int(i)].(map[string]any))
	}
	restoreKind(rec)
	return nil
}

// restoreKind puts back a record's own left-out fields.
func restoreKind(rec map[string]any) {
	switch Kind(str(rec, "kind")) {
	case KindEncounter:
		id, ok := rec["id"].(string)
		if !ok {
			return // a record decoded without its id: nothing to put back from
		}
		e, ok := CutEncounterID(id)
		roll, _ := rec["roll"].(map[string]any)
		if ok {
			fill(rec, "site", e.Site)
			fill(rec, "pair", []any{e.Pair[0], e.Pair[1]})
		}
		if roll == nil {
			return
		}
		fill(roll, "key", id)
		if ok {
			fill(roll, "purpose", e.Purpose)
		}
		if _, has := roll["natural"]; !has {
			if v, has := roll["value"]; has {
				roll["natural"] = v
			}
		}
		fill(roll, "pinned", false)
	case KindTransmission, KindBelief:
		if v, ok := rec["variant"].(string); ok {
			fill(rec, "claim", ClaimOf(v))
		}
	case KindSupersession:
		if w, ok := rec["winner"].(string); ok {
			fill(rec, "claim", ClaimOf(w))
		}
	}
}

// fill sets key to v when the record does not spell it.
func fill(rec map[string]any, key string, v any) {
	if _, ok := rec[key]; !ok {
		rec[key] = v
	}
}

func str(rec map[string]any, key string) string {
	s, _ := rec[key].(string)
	return s
}

// number reads a decoded JSON number, as encoding/json gives it (float64)
// or keeps it (json.Number).
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// Implied reports whether a version-3 line of the kind may leave out the
// top-level field key, because another field spells it: a reader that
// looks for the field's spelling in the line (a sieve) cannot rely on
// finding it there, and one that decodes only some keys decodes its
// Sources too.
func Implied(kind Kind, key string) bool { return len(Sources(kind, key)) > 0 }

// Sources are the top-level fields of a line of the kind from which
// Restore puts back the field key when the line leaves it out; nil for a
// field a line always spells.
func Sources(kind Kind, key string) []string {
	switch {
	case key == "branch":
		return []string{"branch"}
	case kind == KindEncounter && (key == "pair" || key == "site" || key == "roll"):
		return []string{"id", "roll"}
	case (kind == KindTransmission || kind == KindBelief) && key == "claim":
		return []string{"variant"}
	case kind == KindSupersession && key == "claim":
		return []string{"winner"}
	}
	return nil
}
