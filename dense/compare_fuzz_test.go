package dense_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"slices"
	"testing"

	"github.com/chronicle/ladder/dense"
)

// fuzzTable is the seed golden: quoted names, a quoted newline, empties and
// every cell type.
func fuzzTable(tb testing.TB) []byte {
	out, err := dense.Encode([]string{"tick", "a/x", "w1,note", "held"}, [][]dense.Cell{
		{dense.Int(0), dense.Float(0.5), dense.Str("two\nlines"), dense.Bool(true)},
		{dense.Int(2), dense.Empty(), dense.Str(`say "hi"`), dense.Bool(false)},
		{dense.Int(4), dense.Float(1e-05), dense.Empty(), dense.Empty()},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// readStrict parses data with encoding/csv when it is a table Compare and
// encoding/csv read alike (no \r, which encoding/csv drops, and no blank
// line, which it skips), reporting whether that worked.
func readStrict(data []byte, rectangular bool) ([][]string, bool) {
	if bytes.Contains(data, []byte{'\r'}) || bytes.Contains(data, []byte("\n\n")) || bytes.HasPrefix(data, []byte{'\n'}) {
		return nil, false
	}
	r := csv.NewReader(bytes.NewReader(data))
	if !rectangular {
		r.FieldsPerRecord = -1
	}
	records, err := r.ReadAll()
	return records, err == nil && len(records) > 0
}

func field(record []string, i int) string {
	if i < len(record) {
		return record[i]
	}
	return dense.Missing
}

func FuzzCompare(f *testing.F) {
	table := fuzzTable(f)
	f.Add(table, table)
	for i := range table {
		replaced := bytes.Clone(table)
		replaced[i] ^= 0x01
		deleted := append(bytes.Clone(table[:i]), table[i+1:]...)
		inserted := append(append(bytes.Clone(table[:i]), ','), table[i:]...)
		for _, m := range [][]byte{replaced, deleted, inserted} {
			f.Add(table, m)
			f.Add(m, table)
		}
	}
	f.Fuzz(func(t *testing.T, golden, actual []byte) {
		d, err := dense.Compare(golden, actual)
		if err != nil {
			var ferr *dense.FormatError
			if !errors.As(err, &ferr) || d != nil {
				t.Fatalf("error %v (%T) with divergence %v", err, err, d)
			}
			if bytes.Equal(golden, actual) {
				t.Fatalf("error %v for identical files", err)
			}
			return
		}
		if (d == nil) != bytes.Equal(golden, actual) {
			t.Fatalf("divergence %v, but bytes.Equal is %v", d, bytes.Equal(golden, actual))
		}
		if d == nil {
			return
		}
		_ = d.String()
		records, ok := readStrict(golden, true)
		if !ok {
			return
		}
		header := records[0]
		if d.Line < 1 || d.Line > len(records)+1 {
			t.Fatalf("line %d outside 1..%d", d.Line, len(records)+1)
		}
		if want := field(header, d.Index); d.Column != want && !(d.Column == "" && want == dense.Missing) {
			t.Fatalf("column %q, header has %q at %d", d.Column, want, d.Index)
		}
		actualRecords, actualOK := readStrict(actual, false)
		actualOK = actualOK && len(actualRecords) >= d.Line
		switch d.Kind {
		case dense.KindHeader, dense.KindCell:
			row := records[d.Line-1]
			if d.Kind == dense.KindHeader != (d.Line == 1) || d.Golden != field(row, d.Index) {
				t.Fatalf("%v at line %d: golden %q, parsed %q", d.Kind, d.Line, d.Golden, field(row, d.Index))
			}
			if d.Line > 1 && d.Tick != row[0] {
				t.Fatalf("tick %q, row starts %q", d.Tick, row[0])
			}
			if actualOK && d.Actual != field(actualRecords[d.Line-1], d.Index) {
				t.Fatalf("actual %q, parsed %q", d.Actual, field(actualRecords[d.Line-1], d.Index))
			}
		case dense.KindMissingRows:
			if d.Tick != records[d.Line-1][0] || d.Rows != len(records)-d.Line+1 {
				t.Fatalf("missing rows from tick %q (%d), golden has %q (%d)", d.Tick, d.Rows, records[d.Line-1][0], len(records)-d.Line+1)
			}
		case dense.KindExtraRows:
			if d.Line != len(records)+1 {
				t.Fatalf("extra rows at line %d, golden has %d records", d.Line, len(records))
			}
			if actualOK && (d.Tick != actualRecords[d.Line-1][0] || d.Rows != len(actualRecords)-len(records)) {
				t.Fatalf("extra rows from tick %q (%d), actual has %q (%d)", d.Tick, d.Rows, actualRecords[d.Line-1][0], len(actualRecords)-len(records))
			}
		case dense.KindSyntax:
			if d.Line > 1 && d.Tick != records[d.Line-1][0] {
				t.Fatalf("tick %q, row starts %q", d.Tick, records[d.Line-1][0])
			}
			if actualOK && !slices.Equal(records[d.Line-1], actualRecords[d.Line-1]) {
				t.Fatalf("syntax divergence at line %d, but records %q and %q differ", d.Line, records[d.Line-1], actualRecords[d.Line-1])
			}
		}
	})
}
