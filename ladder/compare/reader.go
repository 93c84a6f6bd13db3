package compare

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/chronicle/ladder/sim/trace"
)

// The trace formats this reader understands: schema chronicle.trace,
// versions 1 to 3. Version 2 (decision 0015) only adds record kinds and
// keyframe sections, and a reader ignores kinds it does not know; version
// 3 (decision 0040) leaves out what a record spells twice, and the reader
// puts it back (trace.Facts), so every record reads as version 2 spelt it.
const (
	traceSchema = "chronicle.trace"
	maxVersion  = trace.Version3
)

// Header is what a trace's first line says about its run.
type Header struct {
	SeedID  string
	Branch  Branch
	Version int
}

// Branch is the timeline branch key every record of a run carries.
type Branch struct {
	SaveUUID   string
	Generation int64
}

func (b Branch) String() string { return fmt.Sprintf("(%s, %d)", b.SaveUUID, b.Generation) }

// Record is one trace line after the header, decoded.
type Record struct {
	Line   int   // 1-based; the header is line 1
	Tick   int64 // never below the previous record's
	Kind   string
	Fields map[string]any // the whole object, as encoding/json decodes it
}

// Reader reads a trace file one record at a time, so a comparison holds
// one tick of each run in memory, never a whole file. It refuses what it
// cannot align: a file that is not a trace, a record without a tick, ticks
// that go backwards, a last line without its newline (a truncated file).
type Reader struct {
	r      *bufio.Reader
	line   int
	tick   int64
	facts  trace.Facts
	Header Header
}

// NewReader reads and checks the header line.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{r: bufio.NewReaderSize(r, 1<<16)}
	obj, err := rd.next()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("trace line 1: empty file, want a header")
	}
	if err != nil {
		return nil, err
	}
	if obj["kind"] != "header" || obj["schema"] != traceSchema {
		return nil, fmt.Errorf("trace line 1: not a %s header", traceSchema)
	}
	v, ok := obj["version"].(float64)
	if !ok || v < 1 || v > maxVersion || v != float64(int(v)) {
		return nil, fmt.Errorf("trace line 1: version %v, this reader knows versions 1 to %d", obj["version"], maxVersion)
	}
	rd.Header.Version = int(v)
	if rd.Header.SeedID, ok = obj["seed_id"].(string); !ok || rd.Header.SeedID == "" {
		return nil, errors.New("trace line 1: the header has no seed_id")
	}
	if rd.facts, err = trace.FactsOf(obj); err != nil {
		return nil, fmt.Errorf("trace line 1: %w", err)
	}
	b, _ := obj["branch"].(map[string]any)
	if bs, _ := obj["branches"].([]any); len(bs) > 0 {
		b, _ = bs[0].(map[string]any) // version 3: the run's branch is the first
	}
	uuid, okU := b["save_uuid"].(string)
	gen, okG := b["generation"].(float64)
	if !okU || !okG || gen != float64(int64(gen)) {
		return nil, errors.New("trace line 1: the header has no branch (save_uuid, generation)")
	}
	rd.Header.Branch = Branch{SaveUUID: uuid, Generation: int64(gen)}
	return rd, nil
}

// Next returns the next record, or io.EOF after the last.
func (rd *Reader) Next() (Record, error) {
	obj, err := rd.next()
	if err != nil {
		return Record{}, err
	}
	if err := rd.facts.Restore(obj); err != nil {
		return Record{}, fmt.Errorf("trace line %d: %w", rd.line, err)
	}
	tick, err := recordTick(obj)
	if err != nil {
		return Record{}, fmt.Errorf("trace line %d: %w", rd.line, err)
	}
	if tick < rd.tick {
		return Record{}, fmt.Errorf("trace line %d: tick %d after tick %d: records are in tick order", rd.line, tick, rd.tick)
	}
	rd.tick = tick
	kind, _ := obj["kind"].(string)
	if kind == "" {
		return Record{}, fmt.Errorf("trace line %d: record has no kind", rd.line)
	}
	return Record{Line: rd.line, Tick: tick, Kind: kind, Fields: obj}, nil
}

// next decodes the next line as a JSON object.
func (rd *Reader) next() (map[string]any, error) {
	text, err := rd.r.ReadBytes('\n')
	if len(text) == 0 && errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	rd.line++
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("trace line %d: %w", rd.line, err)
	}
	if err != nil {
		return nil, fmt.Errorf("trace line %d: no final newline: the file is cut short", rd.line)
	}
	var obj map[string]any
	if err := json.Unmarshal(bytes.TrimSuffix(text, []byte("\n")), &obj); err != nil {
		return nil, fmt.Errorf("trace line %d: %w", rd.line, err)
	}
	if obj == nil {
		return nil, fmt.Errorf("trace line %d: want a JSON object", rd.line)
	}
	return obj, nil
}
