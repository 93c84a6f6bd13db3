package goldenset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/trace"
)

// Record is one trace record, numbers kept as written (json.Number).
type Record map[string]any

// S is a field as the record spells it: a string, a number's digits, ""
// when absent.
func (r Record) S(k string) string {
	switch v := r[k].(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	case nil:
		return ""
	}
	return fmt.Sprint(r[k])
}

// Tick is the record's tick, -1 for a line without one (the header).
func (r Record) Tick() int64 {
	n, err := strconv.ParseInt(r.S("tick"), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// Seq is the record's seq, -1 for a line without one.
func (r Record) Seq() int64 {
	n, err := strconv.ParseInt(r.S("seq"), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// Trace reads the committed trace.jsonl of a run, under the repository
// root, every record with what its line leaves out put back
// (trace.Facts): the facts, whatever the file's version.
func Trace(root string, f *fixture.Fixture) ([]Record, error) {
	path := filepath.Join(root, filepath.FromSlash(f.GoldenDir()), "trace.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Record
	var facts trace.Facts
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var r Record
		if err := d.Decode(&r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if line == 1 {
			facts, err = trace.FactsOf(r)
		} else {
			err = facts.Restore(r)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// Dense is a run's committed dense.csv: its columns and one row per
// tick, every cell as written.
type Dense struct {
	Path    string
	Columns []string
	Rows    [][]string // Rows[i][0] is the tick
	index   map[string]int
}

// ReadDense reads the committed dense.csv of a run, under the repository
// root.
func ReadDense(root string, f *fixture.Fixture) (*Dense, error) {
	path := filepath.Join(root, filepath.FromSlash(f.GoldenDir()), "dense.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	d := &Dense{Path: path, Columns: rows[0], Rows: rows[1:], index: map[string]int{}}
	for i, c := range d.Columns {
		d.index[c] = i
	}
	return d, nil
}

// Cell is the cell of a column at a tick.
func (d *Dense) Cell(tick int64, column string) (string, error) {
	col, ok := d.index[column]
	if !ok || col == 0 {
		return "", fmt.Errorf("%s has no column %q", d.Path, column)
	}
	row, err := d.line(tick)
	if err != nil {
		return "", err
	}
	return row[col], nil
}

// Row is a tick's row as column → cell.
func (d *Dense) Row(tick int64) (map[string]string, error) {
	row, err := d.line(tick)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(row))
	for i, c := range d.Columns {
		out[c] = row[i]
	}
	return out, nil
}

// line is a tick's row as written.
func (d *Dense) line(tick int64) ([]string, error) {
	for _, row := range d.Rows {
		if row[0] == strconv.FormatInt(tick, 10) {
			return row, nil
		}
	}
	return nil, fmt.Errorf("%s has no tick %d", d.Path, tick)
}
