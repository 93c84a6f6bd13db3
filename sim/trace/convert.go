package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/chronicle/ladder/sim/canon"
)

// ConvertV2 reads a trace file of version 1 or 2 and writes it in version
// 3, line for line: the header lists the file's branch and says its
// layers, and each record leaves out what another of its fields spells
// (Facts). Nothing is lost: ExpandV3 writes the original back, byte for
// byte. A record whose branch is not the header's is an error, as is any
// line that is not canonical JSON of a trace.
func ConvertV2(r io.Reader, w io.Writer) error {
	var branch []byte // the header's branch, spelt
	return eachLine(r, w, func(n int, rec map[string]any) error {
		if n == 1 {
			var err error
			branch, err = headerToV3(rec)
			return err
		}
		b, err := canon.Marshal(numbersAsWritten(rec["branch"]))
		if err != nil || !bytes.Equal(b, branch) {
			return fmt.Errorf("branch %s is not the header's %s: version 3 names a record's branch by its place in the header's branches", b, branch)
		}
		rec["branch"] = json.Number(runBranch)
		compactKind(rec)
		return nil
	})
}

// ExpandV3 reads a trace file of version 3 and writes it as versions 1
// and 2 spelt it: what ConvertV2 reads. It is how a reviewer sees a
// version-3 golden in the older form, and how a spec proves that the
// conversion loses nothing.
func ExpandV3(r io.Reader, w io.Writer) error {
	var facts Facts
	return eachLine(r, w, func(n int, rec map[string]any) error {
		if n > 1 {
			return facts.Restore(rec)
		}
		var err error
		if facts, err = FactsOf(rec); err != nil {
			return err
		}
		if facts.Version() != Version3 {
			return fmt.Errorf("version %d: ExpandV3 reads version 3", facts.Version())
		}
		return headerToV2(rec)
	})
}

// eachLine decodes each line of r (numbers kept as written), lets fn
// rewrite it, and writes it canonically to w. n is the line's number,
// from 1.
func eachLine(r io.Reader, w io.Writer, fn func(n int, rec map[string]any) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	bw := bufio.NewWriterSize(w, 1<<16)
	var out []byte
	n := 0
	for sc.Scan() {
		n++
		rec, err := decode(sc.Bytes())
		if err == nil {
			err = fn(n, rec)
		}
		if err == nil {
			out, err = canon.AppendMarshal(out[:0], numbersAsWritten(rec))
		}
		if err != nil {
			return fmt.Errorf("trace line %d: %w", n, err)
		}
		out = append(out, '\n')
		if _, err := bw.Write(out); err != nil {
			return fmt.Errorf("trace line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read trace: %w", err)
	}
	if n == 0 {
		return errors.New("empty trace: no header")
	}
	return bw.Flush()
}

// headerToV3 rewrites a header of version 1 or 2 as version 3 and
// returns its branch, spelt.
func headerToV3(h map[string]any) ([]byte, error) {
	if h["kind"] != "header" || h["schema"] != Schema {
		return nil, fmt.Errorf("not a %s header", Schema)
	}
	layers := []any{LayerCore}
	switch v, _ := number(h["version"]); v {
	case Version1:
	case Version2:
		layers = append(layers, LayerSocial)
	default:
		return nil, fmt.Errorf("version %v: ConvertV2 reads versions %d and %d", h["version"], Version1, Version2)
	}
	b, ok := h["branch"].(map[string]any)
	if !ok {
		return nil, errors.New("the header has no branch")
	}
	branch, err := canon.Marshal(numbersAsWritten(b))
	if err != nil {
		return nil, fmt.Errorf("branch: %w", err)
	}
	delete(h, "branch")
	h["branches"] = []any{b}
	h["layers"] = layers
	h["version"] = json.Number(fmt.Sprint(Version3))
	return branch, nil
}

// headerAsV3 reads a decoded header's facts and rewrites it in version
// 3's form without its version, so that two headers compare by what they
// say of the run, not by how their versions spell it.
func headerAsV3(h map[string]any) (Facts, error) {
	f, err := FactsOf(h)
	if err != nil {
		return Facts{}, err
	}
	if f.Version() < Version3 {
		if _, err := headerToV3(h); err != nil {
			return Facts{}, err
		}
	}
	delete(h, "version")
	return f, nil
}

// headerToV2 rewrites a version-3 header as the version its layers
// name.
func headerToV2(h map[string]any) error {
	bs, _ := h["branches"].([]any)
	if len(bs) != 1 {
		return fmt.Errorf("%d branches: versions 1 and 2 have one branch a file", len(bs))
	}
	layers, _ := h["layers"].([]any)
	var v int
	switch {
	case slices.Equal(layers, []any{LayerCore}):
		v = Version1
	case slices.Equal(layers, []any{LayerCore, LayerSocial}):
		v = Version2
	default:
		return fmt.Errorf("layers %v: versions 1 and 2 know [core] and [core social]", layers)
	}
	delete(h, "branches")
	delete(h, "layers")
	h["branch"] = bs[0]
	h["version"] = json.Number(fmt.Sprint(v))
	return nil
}

// compactKind leaves out of a version-2 record what version 3 does not
// spell, where Restore gives it back exactly: the rule of Facts, read
// from the fields rather than from the engine's values, so it agrees with
// the encoder on every record the engine writes.
func compactKind(rec map[string]any) {
	switch Kind(str(rec, "kind")) {
	case KindEncounter:
		id := str(rec, "id")
		e, ok := CutEncounterID(id)
		if ok && rec["site"] == e.Site {
			delete(rec, "site")
		}
		if p, _ := rec["pair"].([]any); ok && len(p) == 2 && p[0] == e.Pair[0] && p[1] == e.Pair[1] {
			delete(rec, "pair")
		}
		roll, _ := rec["roll"].(map[string]any)
		if roll == nil {
			return
		}
		if roll["key"] == id {
			delete(roll, "key")
		}
		if ok && roll["purpose"] == e.Purpose {
			delete(roll, "purpose")
		}
		natural, okN := roll["natural"].(json.Number)
		value, okV := roll["value"].(json.Number)
		if roll["pinned"] == false && okN && okV && natural == value {
			delete(roll, "natural")
			delete(roll, "pinned")
		}
	case KindTransmission, KindBelief:
		if v, ok := rec["variant"].(string); ok && rec["claim"] == ClaimOf(v) {
			delete(rec, "claim")
		}
	case KindSupersession:
		if w, ok := rec["winner"].(string); ok && rec["claim"] == ClaimOf(w) {
			delete(rec, "claim")
		}
	}
}
