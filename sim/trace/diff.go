package trace

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FieldChange is one field that differs between two records, by its path
// in the record (`roll.value`, `pair[1]`); a side that lacks the field
// shows as "<missing>". Values are compact JSON.
type FieldChange struct {
	Path           string
	Golden, Actual string
}

// FieldDiff compares two decoded records field by field, ignoring seq (a
// record's position, which shifts whenever a record is added before it)
// and branch (the same on every line of a file), and returns the fields
// that differ in path order.
func FieldDiff(golden, actual map[string]any) []FieldChange {
	g, a := map[string]string{}, map[string]string{}
	flatten("", strip(golden), g)
	flatten("", strip(actual), a)
	var paths []string
	for p := range g {
		paths = append(paths, p)
	}
	for p := range a {
		if _, ok := g[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []FieldChange
	for _, p := range paths {
		gv, gok := g[p]
		av, aok := a[p]
		if gok && aok && gv == av {
			continue
		}
		if !gok {
			gv = Missing
		}
		if !aok {
			av = Missing
		}
		out = append(out, FieldChange{Path: p, Golden: gv, Actual: av})
	}
	return out
}

// Missing is how a FieldChange shows the side that does not have the
// field.
const Missing = "<missing>"

func strip(r map[string]any) map[string]any {
	out := make(map[string]any, len(r))
	for k, v := range r {
		if k != "seq" && k != "branch" {
			out[k] = v
		}
	}
	return out
}

// flatten writes every leaf of v under its path; an empty object or list
// is a leaf.
func flatten(path string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 {
			//determinism:order-free each key's leaves are written under paths that start with the key, so no two keys write the same entry of out
			for k, e := range x {
				p := k
				if path != "" {
					p = path + "." + k
				}
				flatten(p, e, out)
			}
			return
		}
	case []any:
		if len(x) > 0 {
			for i, e := range x {
				flatten(path+"["+strconv.Itoa(i)+"]", e, out)
			}
			return
		}
	}
	if n, ok := v.(json.Number); ok {
		out[path] = string(n) // as written: 1.0 stays 1.0
		return
	}
	b, _ := json.Marshal(v) // decoded JSON always re-encodes
	out[path] = string(b)
}

// decode reads one record, keeping numbers as written.
func decode(line []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var rec map[string]any
	if err := dec.Decode(&rec); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the record")
	}
	return rec, nil
}

// tickOf reads a decoded record's tick (0 when it has none).
func tickOf(rec map[string]any) int64 {
	switch t := rec["tick"].(type) {
	case json.Number:
		n, _ := t.Int64()
		return n
	case float64:
		return int64(t)
	}
	return 0
}

// KindDelta counts the records of one kind that a change added, removed or
// changed, and the tick of the first of them.
type KindDelta struct {
	Kind                    string
	Added, Removed, Changed int
	// Renamed counts the records that are the same record under another
	// id (IDChanged): one each, not one removed and one added.
	Renamed int
	First   int64
}

// Delta is a record-level comparison of two trace files.
type Delta struct {
	Added, Removed, Changed, Renamed int
	Kinds                            []KindDelta // by first tick, then kind
	// Versions are the golden's and the actual's schema versions. Records
	// are compared by their facts (Facts), so a file and its conversion
	// to another version hold the same records.
	Versions [2]int
}

// Empty reports whether the traces hold the same records.
func (d *Delta) Empty() bool { return d.Added+d.Removed+d.Changed+d.Renamed == 0 }

// Summary says how much changed, in one line, e.g.
// "196 records changed, 3 added, 0 removed".
//
// When the versions differ it says so: "0 records changed, 0 added, 0
// removed; schema version 2 → 3" is a change of spelling alone.
func (d *Delta) Summary() string {
	s := fmt.Sprintf("%d records changed, %s%d added, %d removed", d.Changed, renamedPart(d.Renamed), d.Added, d.Removed)
	if d.Versions[0] != d.Versions[1] {
		s += fmt.Sprintf("; schema version %d → %d", d.Versions[0], d.Versions[1])
	}
	return s
}

func (k KindDelta) String() string {
	return fmt.Sprintf("%s: %d changed, %s%d added, %d removed, from tick %d", k.Kind, k.Changed, renamedPart(k.Renamed), k.Added, k.Removed, k.First)
}

// renamedPart is "N renamed, " when some records were renamed, "" when
// none were (the summary most changes read).
func renamedPart(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d renamed, ", n)
}

// Diff compares two trace files record by record. A record's identity is
// its tick, kind and what it is about (an encounter's id, a rule and its
// subject…); records with the same identity are matched in file order, and
// a matched pair whose fields (other than seq and branch) differ is
// changed. The rest are added (only in actual) or removed (only in
// golden). Counting identities rather than lines means one inserted record
// is one added record, not a shift of every line after it.
func Diff(golden, actual []byte) (*Delta, error) {
	return DiffReaders(bytes.NewReader(golden), bytes.NewReader(actual))
}

// DiffReaders is Diff for two traces read a line at a time. An identity
// includes the tick and a trace is in tick order, so it matches one tick's
// records at a time and holds no more than a tick of each file. A trace
// whose ticks go backwards is an error. Errors name the file and line; a
// malformed golden is reported before a malformed actual.
func DiffReaders(golden, actual io.Reader) (*Delta, error) {
	g, a := newRecordStream(golden, "golden"), newRecordStream(actual, "actual")
	kinds := map[string]*KindDelta{}
	count := func(r record, f func(*KindDelta)) {
		k := kinds[r.kind]
		if k == nil {
			k = &KindDelta{Kind: r.kind, First: r.tick}
			kinds[r.kind] = k
		}
		k.First = min(k.First, r.tick)
		f(k)
	}
	d := &Delta{}
	defer func() { d.Versions = [2]int{g.facts.Version(), a.facts.Version()} }()
	for {
		gs, err := g.peek()
		if err != nil {
			return nil, err
		}
		as, err := a.peek()
		if err != nil {
			return nil, g.first(err)
		}
		if gs == nil && as == nil {
			break
		}
		tick := int64(math.MaxInt64)
		if gs != nil {
			tick = gs.tick
		}
		if as != nil {
			tick = min(tick, as.tick)
		}
		gt, err := g.group(tick)
		if err != nil {
			return nil, err
		}
		at, err := a.group(tick)
		if err != nil {
			return nil, g.first(err)
		}
		pending := map[string][]record{}
		for _, r := range gt {
			pending[r.id] = append(pending[r.id], r)
		}
		var added []record
		for _, r := range at {
			q := pending[r.id]
			if len(q) == 0 {
				added = append(added, r)
				continue
			}
			pending[r.id] = q[1:]
			if q[0].body != r.body {
				d.Changed++
				count(r, func(k *KindDelta) { k.Changed++ })
			}
		}
		var removed []record
		for _, r := range gt {
			// What is left in a queue is its tail: the golden records no
			// actual record matched.
			if q := pending[r.id]; len(q) > 0 && q[0].line == r.line {
				pending[r.id] = q[1:]
				removed = append(removed, r)
			}
		}
		// A record only one side has may be the other side's under
		// another id (IDChanged): paired in file order, each such pair is
		// one renamed record, not one removed and one added. Such a pair
		// agrees on every field but its ids and the hashes over them, so
		// only records alike outside those are tried against each other:
		// a tick where thousands of records moved costs a pass, not a
		// pass for each.
		taken := make([]bool, len(removed))
		alike := map[string][]int{}
		for j, g := range removed {
			k := outsideIDs(g.rec)
			alike[k] = append(alike[k], j)
		}
		for _, r := range added {
			renamed := false
			for _, j := range alike[outsideIDs(r.rec)] {
				if !taken[j] && IDChanged(removed[j].rec, r.rec) {
					taken[j], renamed = true, true
					break
				}
			}
			if renamed {
				d.Renamed++
				count(r, func(k *KindDelta) { k.Renamed++ })
			} else {
				d.Added++
				count(r, func(k *KindDelta) { k.Added++ })
			}
		}
		for j, r := range removed {
			if !taken[j] {
				d.Removed++
				count(r, func(k *KindDelta) { k.Removed++ })
			}
		}
	}
	for _, k := range kinds {
		d.Kinds = append(d.Kinds, *k)
	}
	slices.SortFunc(d.Kinds, func(x, y KindDelta) int { return cmp.Or(cmp.Compare(x.First, y.First), cmp.Compare(x.Kind, y.Kind)) })
	return d, nil
}

// outsideIDs spells a decoded record without its seq, branch, id fields
// and the hashes over them: two records IDChanged pairs spell the same.
func outsideIDs(rec map[string]any) string {
	out := make(map[string]any, len(rec))
	for k, v := range rec {
		if k != "seq" && k != "branch" && !slices.Contains(idFields, k) && !slices.Contains(hashFields, k) {
			out[k] = v
		}
	}
	b, _ := json.Marshal(out) // sorted keys: alike records, alike bytes
	return string(b)
}

type record struct {
	id, kind, body string
	tick           int64
	line           int
	rec            map[string]any // decoded, facts put back: for IDChanged
}

// recordStream reads a trace's records one tick at a time.
type recordStream struct {
	sc    *bufio.Scanner
	name  string
	line  int
	next  *record // read, not yet grouped
	last  int64
	ended bool
	facts Facts // from the header: what the records leave out
}

func newRecordStream(r io.Reader, name string) *recordStream {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	return &recordStream{sc: sc, name: name, last: math.MinInt64}
}

// peek returns the next record without taking it; nil at the end.
func (s *recordStream) peek() (*record, error) {
	if s.next != nil || s.ended {
		return s.next, nil
	}
	if !s.sc.Scan() {
		if err := s.sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: read trace: %w", s.name, err)
		}
		s.ended = true
		return nil, nil
	}
	s.line++
	rec, err := decode(s.sc.Bytes())
	if err == nil {
		err = s.facts.Restore(rec)
	}
	if err == nil && s.line == 1 {
		err = s.header(rec)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: trace line %d: %w", s.name, s.line, err)
	}
	r := record{line: s.line, tick: tickOf(rec), rec: rec}
	if r.tick < s.last {
		return nil, fmt.Errorf("%s: trace line %d: tick %d after tick %d: a trace is in tick order", s.name, s.line, r.tick, s.last)
	}
	s.last = r.tick
	r.kind, _ = rec["kind"].(string)
	body, _ := json.Marshal(strip(rec)) // sorted keys: equal records, equal bytes
	r.body = string(body)
	key := keyOf(rec)
	switch {
	case r.kind == string(KindKeyframe) || r.kind == "header":
		key = "" // one per tick: a keyframe is its tick's keyframe, changed or not
	case key == `""`:
		key = r.body // a kind without a key is identified by its content
	}
	r.id = strings.Join([]string{strconv.FormatInt(r.tick, 10), r.kind, key}, "\x00")
	s.next = &r
	return s.next, nil
}

// group takes every record of tick t.
func (s *recordStream) group(t int64) ([]record, error) {
	var out []record
	for {
		r, err := s.peek()
		if err != nil || r == nil || r.tick != t {
			return out, err
		}
		out = append(out, *r)
		s.next = nil
	}
}

// first returns the golden's own error, read to its end, before the
// actual's err: a malformed golden is reported first.
func (s *recordStream) first(err error) error {
	for {
		r, gerr := s.peek()
		if gerr != nil {
			return gerr
		}
		if r == nil {
			return err
		}
		s.next = nil
	}
}

// header reads the file's version and branches, and rewrites the header
// in version 3's form without its version, so that two headers compare
// by what they say of the run, not by how their version spells it.
//
// A first line that is no header, or a header without a version, is
// read as it is spelt.
func (s *recordStream) header(h map[string]any) error {
	if _, versioned := h["version"]; h["kind"] != "header" || !versioned {
		return nil
	}
	f, err := headerAsV3(h)
	s.facts = f
	return err
}
