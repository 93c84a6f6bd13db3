package trace

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
)

// Divergence is the first record where two trace files differ.
type Divergence struct {
	Line           int    // 1-based line in the golden (the header is line 1)
	Tick           int64  // of the golden record (the actual one if the golden ended)
	Kind           string // record kind
	Key            string // what the record is about: an encounter id, a rule and subject…
	Golden, Actual string // the two lines, "<missing>" past the end of a file
	// Fields are the fields that differ (seq and branch aside) when both
	// lines are records; nil when a side is missing or not JSON.
	Fields []FieldChange
	// Shifted means the two lines are different records — one side has a
	// record the other does not — rather than one record whose fields
	// changed; ActualTick, ActualKind and ActualKey then say what the
	// actual record is.
	Shifted               bool
	ActualTick            int64
	ActualKind, ActualKey string
	// Renamed means the two lines are one record under two ids: the same
	// kind at the same tick, every differing field one that holds an id
	// (or the hash chained over it) — the signature of an order leak, a
	// counter or cache that renames what it should not. ActualKey is the
	// actual record's key.
	Renamed bool
	// Branches are the two lines' branch keys when they are all that
	// differs: the run moved to another timeline (a case given its own
	// generation), so every line of the file differs the same way.
	Branches [2]string
	// Versions are the two headers' schema versions when the first
	// divergent line is the header and they differ: a change of spelling
	// of every line (Fields then lists what else the headers say
	// differently of the run, once both are read in version 3's form).
	Versions [2]int
	// Respelled is set when the two lines decode to the same record, seq
	// and branch included, and differ only in how it is spelt (spacing,
	// key order, escapes, a number's digits): it names the side that is
	// not the record's canonical spelling — "golden", "actual" or "both"
	// (as Compare's arguments, before Describe renames them).
	Respelled string
}

// Form names which of Describe's sentences a divergence reads as; Forms
// lists every one, so a spec can hold a planted case of each.
func (d Divergence) Form() string {
	switch {
	case d.Versions[0] != d.Versions[1]:
		return FormSchema
	case d.Fields == nil:
		return FormLines
	case len(d.Fields) > 0 && d.Renamed:
		return FormRenamed
	case len(d.Fields) > 0 && d.Shifted:
		return FormShifted
	case len(d.Fields) > 0:
		return FormFields
	case d.Branches[0] != d.Branches[1]:
		return FormBranch
	case d.Respelled != "":
		return FormSpelling
	}
	return FormPosition
}

// The sentences of Describe, by Form.
const (
	FormFields   = "fields"   // a record's fields changed: each with both values
	FormRenamed  = "renamed"  // one record under another id: only id fields (and hashes over them) differ
	FormShifted  = "shifted"  // different records: one side has a record the other lacks
	FormPosition = "position" // the same record at another seq
	FormBranch   = "branch"   // the same record on another branch (every line differs alike)
	FormSpelling = "spelling" // the same record, seq and branch included, spelt otherwise
	FormLines    = "lines"    // a side is missing or not a record: both lines as they are
	FormSchema   = "schema"   // the headers' schema versions differ: every line is spelt anew
)

// Forms lists every Form.
var Forms = []string{FormFields, FormRenamed, FormShifted, FormPosition, FormBranch, FormSpelling, FormLines, FormSchema}

// maxFields caps how many differing fields a one-line message lists.
const maxFields = 4

func (d Divergence) String() string { return d.Describe("golden", "actual") }

// Describe is String with the two sides named a (the first trace given to
// Compare) and b: two runs of the same code are "run 1" and "run 2", not
// golden and actual. When both lines are records it lists the fields that
// differ, never two look-alike excerpts:
//
//	first divergent record at line 4 (tick 12, transmission "w->n theft@2 via e"): confidence: golden 0.72, actual 0.75
func (d Divergence) Describe(a, b string) string {
	head := fmt.Sprintf("first divergent record at line %d (tick %d, %s %s): ", d.Line, d.Tick, d.Kind, d.Key)
	if d.Kind == "" {
		// A line that is not a record, or a record without a kind: there is
		// nothing to name it by but its line and tick.
		head = fmt.Sprintf("first divergent record at line %d (tick %d): ", d.Line, d.Tick)
	}
	if d.Form() == FormSchema {
		head += fmt.Sprintf("the schema version differs, %s %d, %s %d: every line is spelt anew, so compare the records' facts with `go run ./tools/ladder review`",
			a, d.Versions[0], b, d.Versions[1])
		if len(d.Fields) == 0 {
			return head + " (the headers say the same of the run)"
		}
		return head + "; and the header: " + fieldList(d.Fields, a, b)
	}
	if len(d.Fields) == 0 {
		if d.Branches[0] != d.Branches[1] {
			return head + fmt.Sprintf("the branch key differs, on this and every later line: %s %s, %s %s", a, d.Branches[0], b, d.Branches[1])
		}
		switch d.Form() {
		case FormSpelling:
			side := map[string]string{"golden": a, "actual": b, "both": a + " and " + b}[d.Respelled]
			head += fmt.Sprintf("same fields, not the canonical spelling: line %d of %s: ", d.Line, side)
		case FormPosition:
			head += "only the record's position (seq) differs: "
		}
		return head + fmt.Sprintf("%s %s, %s %s", a, shorten(d.Golden), b, shorten(d.Actual))
	}
	if d.Renamed {
		return head + renamed(d.Fields, a, b)
	}
	if d.Shifted {
		return head + fmt.Sprintf("%s has %s %s at tick %d here instead (a record was added or removed)", b, d.ActualKind, d.ActualKey, d.ActualTick)
	}
	return head + fieldList(d.Fields, a, b)
}

// fieldList lists up to maxFields changed fields with both sides' values.
func fieldList(fields []FieldChange, a, b string) string {
	parts := make([]string, 0, maxFields+1)
	for i, f := range fields {
		if i == maxFields {
			parts = append(parts, fmt.Sprintf("and %d more fields", len(fields)-maxFields))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %s %s, %s %s", f.Path, a, f.Golden, b, f.Actual))
	}
	return strings.Join(parts, "; ")
}

// idFields are the record fields that hold an id (of a record, event,
// claim, variant or encounter), and hashFields those chained over ids: a
// record whose differing fields are all among them is the same record
// renamed.
var (
	idFields   = []string{"id", "via", "cause", "claim", "subject", "variant", "winner", "loser", "override", "predecessor"}
	hashFields = []string{"hash", "previous"}
)

// onlyIDs reports whether every changed field is an id or a hash over
// one, and at least one is an id.
func onlyIDs(fields []FieldChange) bool {
	ids := 0
	for _, f := range fields {
		top, _, _ := strings.Cut(f.Path, ".")
		switch {
		case slices.Contains(idFields, top):
			ids++
		case !slices.Contains(hashFields, top):
			return false
		}
	}
	return ids > 0
}

// isHash is 1 for a field chained over ids, 0 otherwise (a sort key).
func isHash(f FieldChange) int {
	top, _, _ := strings.Cut(f.Path, ".")
	if slices.Contains(hashFields, top) {
		return 1
	}
	return 0
}

// renamed describes a renamed record: its ids, both ways, then whether
// the hashes over them moved too.
func renamed(fields []FieldChange, a, b string) string {
	var parts []string
	hashes := false
	for _, f := range fields {
		if isHash(f) == 1 {
			hashes = true
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: %s %s, %s %s", f.Path, a, f.Golden, b, f.Actual))
	}
	out := "the same record under another id (identity drift): " + strings.Join(parts, "; ")
	if hashes {
		out += " (and the hash chained over it)"
	}
	return out
}

// shorten drops the branch key (the same on every line of a file, so never
// the difference) and truncates long records for a one-line message.
func shorten(s string) string {
	const limit = 200
	if i := strings.Index(s, `"branch":{`); i >= 0 {
		if j := strings.Index(s[i:], "},"); j >= 0 {
			s = s[:i] + s[i+j+2:]
		}
	} else if i := strings.Index(s, `"branch":`); i >= 0 {
		// Version 3's branch key: an index into the header's branches.
		rest := s[i+len(`"branch":`):]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 && j < len(rest) && rest[j] == ',' {
			s = s[:i] + rest[j+1:]
		}
	}
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}

// Compare byte-compares two trace files and, when they differ, locates the
// first differing line without decoding the lines before it. It returns nil
// when the files are identical.
func Compare(golden, actual []byte) *Divergence {
	return CompareFacts(golden, actual, factsOfFile(golden), factsOfFile(actual))
}

// CompareFacts is Compare for two traces, or two parts of them, whose
// records are read with the facts of their files' headers (gf, af: what
// their lines leave out), for a caller that holds the lines of a file
// and not the file itself (artifact.TraceFollower).
func CompareFacts(golden, actual []byte, gf, af Facts) *Divergence {
	if bytes.Equal(golden, actual) {
		return nil
	}
	n := min(len(golden), len(actual))
	i := 0
	for i < n && golden[i] == actual[i] {
		i++
	}
	start := bytes.LastIndexByte(golden[:i], '\n') + 1
	line := bytes.Count(golden[:start], []byte("\n")) + 1
	g, a := lineAt(golden, start), lineAt(actual, start)
	d := &Divergence{Line: line, Golden: g, Actual: a}
	ref := g
	if g == Missing {
		ref = a
	}
	var rec map[string]any
	if json.Unmarshal([]byte(ref), &rec) == nil {
		if t, ok := rec["tick"].(float64); ok {
			d.Tick = int64(t)
		}
		d.Kind, _ = rec["kind"].(string)
		if ref == g {
			gf.Restore(rec)
		} else {
			af.Restore(rec)
		}
		d.Key = keyOf(rec)
	}
	gr, errG := decodeFacts([]byte(g), gf, line)
	ar, errA := decodeFacts([]byte(a), af, line)
	if line == 1 && errG == nil && errA == nil && schemaChange(d, g, a) {
		return d
	}
	if errG == nil && errA == nil {
		d.Fields = FieldDiff(gr, ar)
		if d.Fields == nil {
			d.Fields = []FieldChange{}
			gb, _ := json.Marshal(gr["branch"])
			ab, _ := json.Marshal(ar["branch"])
			d.Branches = [2]string{string(gb), string(ab)}
			if d.Branches[0] == d.Branches[1] && fmt.Sprint(gr["seq"]) == fmt.Sprint(ar["seq"]) {
				gs, _ := decode([]byte(g)) // the lines as spelt, nothing put back
				as, _ := decode([]byte(a))
				d.Respelled = respelled(g, gs, a, as)
			}
		}
		if gr["kind"] != ar["kind"] || keyOf(gr) != keyOf(ar) || gr["tick"] != ar["tick"] {
			d.Shifted, d.ActualTick, d.ActualKey = true, tickOf(ar), keyOf(ar)
			d.ActualKind, _ = ar["kind"].(string)
			if gr["kind"] == ar["kind"] && gr["tick"] == ar["tick"] && onlyIDs(d.Fields) {
				d.Shifted, d.Renamed = false, true
				// The ids first: a one-line message that shows one field shows the id.
				slices.SortStableFunc(d.Fields, func(x, y FieldChange) int { return cmp.Compare(isHash(x), isHash(y)) })
			}
		}
	}
	return d
}

// schemaChange fills d for two headers of different schema versions, each
// read in version 3's form without its version, and reports whether they
// were such headers.
func schemaChange(d *Divergence, golden, actual string) bool {
	g, errG := decode([]byte(golden))
	a, errA := decode([]byte(actual))
	if errG != nil || errA != nil || g["kind"] != "header" || a["kind"] != "header" {
		return false
	}
	gf, errG := headerAsV3(g)
	af, errA := headerAsV3(a)
	if errG != nil || errA != nil || gf.Version() == af.Version() {
		return false
	}
	d.Versions = [2]int{gf.Version(), af.Version()}
	d.Fields = FieldDiff(g, a)
	return true
}

// factsOfFile reads a trace file's header for what its records leave
// out (HeaderFacts).
func factsOfFile(b []byte) Facts { return HeaderFacts([]byte(lineAt(b, 0))) }

// HeaderFacts reads a header line for what the file's records leave out;
// a line that is not a header that reads gives the facts of a file read
// as it is spelt, for a comparison that must describe what it can.
func HeaderFacts(line []byte) Facts {
	h, err := decode(line)
	if err != nil {
		return Facts{}
	}
	f, _ := FactsOf(h)
	return f
}

// decodeFacts decodes a record line (numbers as written) and puts back
// what it leaves out; line n is the file's, 1 the header.
func decodeFacts(line []byte, f Facts, n int) (map[string]any, error) {
	rec, err := decode(line)
	if err != nil {
		return rec, err
	}
	if n == 1 {
		headerBranch(rec)
		return rec, nil
	}
	return rec, f.Restore(rec)
}

// headerBranch names a version-3 header's one branch as versions 1 and 2
// did, by the branch key, which FieldDiff sets aside: a run moved to
// another branch then reads as that (FormBranch) from its first line, as
// it did when every record spelt its branch, not as a changed header
// field.
func headerBranch(h map[string]any) {
	if bs, ok := h["branches"].([]any); ok && len(bs) == 1 && h["kind"] == "header" {
		if _, spelt := h["branch"]; !spelt {
			h["branch"] = bs[0]
			delete(h, "branches")
		}
	}
}

// respelled names the sides of two lines that decode to the same record
// whose bytes are not that record's canonical spelling (canon.Marshal of
// it, numbers kept as written: an integer stays an integer, any other
// number is spelt as a float). At least one side is not, or the lines
// would be equal; "" only if neither can be re-spelt.
func respelled(g string, gr map[string]any, a string, ar map[string]any) string {
	gOK, aOK := canonical(g, gr), canonical(a, ar)
	switch {
	case !gOK && !aOK:
		return "both"
	case !gOK:
		return "golden"
	case !aOK:
		return "actual"
	}
	return "both" // unreachable: two canonical spellings of one record are equal
}

// canonical reports whether line is the canonical spelling of rec, its
// decoding (json.Number numbers).
func canonical(line string, rec map[string]any) bool {
	want, err := canon.Marshal(numbersAsWritten(rec))
	return err == nil && string(want) == line
}

// numbersAsWritten turns a decoded record's json.Numbers back into the
// Go values the encoder spells: int64 for an integer written as one,
// float64 for anything else.
func numbersAsWritten(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = numbersAsWritten(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = numbersAsWritten(e)
		}
		return out
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil && strconv.FormatInt(i, 10) == string(x) {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

func lineAt(b []byte, start int) string {
	if start >= len(b) {
		return Missing
	}
	rest := b[start:]
	if end := bytes.IndexByte(rest, '\n'); end >= 0 {
		rest = rest[:end]
	}
	return string(rest)
}

// keyOf names what a decoded record is about, per kind.
func keyOf(r map[string]any) string {
	str := func(k string) string { s, _ := r[k].(string); return s }
	switch Kind(str("kind")) {
	case KindEncounter, KindEvent, KindVariant:
		return fmt.Sprintf("%q", str("id"))
	case KindTransmission:
		return fmt.Sprintf("%q", str("teller")+"->"+str("listener")+" "+str("claim")+" via "+str("via"))
	case KindRule:
		return fmt.Sprintf("%q", str("rule")+" "+str("subject"))
	case KindBelief:
		return fmt.Sprintf("%q", str("holder")+"/"+str("claim")+" "+str("change"))
	case KindSupersession:
		return fmt.Sprintf("%q", str("holder")+"/"+str("claim")+" "+str("loser")+" lost to "+str("winner"))
	case KindGrudge:
		return fmt.Sprintf("%q", str("holder")+"->"+str("target")+" "+str("change"))
	case KindObligation:
		return fmt.Sprintf("%q", str("id")+" "+str("state"))
	case KindReputation:
		return fmt.Sprintf("%q", str("observer")+"/"+str("subject")+"/"+str("dimension"))
	case KindSchedule:
		return fmt.Sprintf("%q", str("npc")+" "+str("override")+" "+str("change"))
	case KindRole:
		return fmt.Sprintf("%q", str("role")+" "+str("change"))
	}
	return `""`
}

// RecordKey names what a decoded record (encoding/json's maps) is about,
// as a divergence names it: an encounter or event id, a rule and its
// subject, a holder and claim… quoted; `""` for a kind with no key (a
// keyframe).
func RecordKey(r map[string]any) string { return keyOf(r) }

// IDChanged reports whether two decoded records of one kind at one tick
// are the same record under another id, for a reader that pairs records
// by key (ladder/triage): every field that differs is one that holds an id
// or a hash over one (as Compare's Renamed has it), and each id differs
// only in its numbers — "theft@2" against "theft@3", "grudge@0:…" against
// "grudge@1:…", "invoke@20" against "invoke@20#2" (idShape). That is the signature of an id drawn from a counter or an
// order that leaked from elsewhere (a package-level variable, a map), not
// of a different decision: a record about someone else differs in a name
// (a subject, a claim of another kind), not only in a number.
func IDChanged(golden, actual map[string]any) bool {
	if golden["kind"] != actual["kind"] || fmt.Sprint(golden["tick"]) != fmt.Sprint(actual["tick"]) {
		return false
	}
	changes := FieldDiff(golden, actual)
	if !onlyIDs(changes) {
		return false
	}
	for _, c := range changes {
		if isHash(c) == 1 {
			continue
		}
		g, a, ok := quoted(c.Golden, c.Actual)
		if !ok || idShape(g) != idShape(a) {
			return false
		}
	}
	return true
}

// quoted unquotes two flattened string values; ok is false unless both are
// strings.
func quoted(g, a string) (string, string, bool) {
	gs, errG := strconv.Unquote(g)
	as, errA := strconv.Unquote(a)
	return gs, as, errG == nil && errA == nil
}

// idShape is an id with its numbers masked and any numbering at its end
// dropped: "theft@2" and "theft@3" have one shape, and so have
// "invoke@20" and "invoke@20#2" — a counter's suffix — but not
// "witness/theft@2" and "neighbor/theft@2".
func idShape(s string) string { return strings.TrimRight(maskDigits(s), "#/-_.:@") }

// maskDigits replaces every run of digits with one '#'.
func maskDigits(s string) string {
	var b strings.Builder
	digit := false
	for _, r := range s {
		if r >= '0' && r <= '9' {
			if !digit {
				b.WriteByte('#')
			}
			digit = true
			continue
		}
		digit = false
		b.WriteRune(r)
	}
	return b.String()
}
