package history

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/trace"
)

// Target is the golden Blame asks about: a dense cell (Tick and Column)
// or a trace record (Seq or Line) of the set in Dir.
type Target struct {
	// Dir is the set's directory, repository-relative (goldens/…).
	Dir string
	// Tick is a cell's tick; for a record, its tick when >= 0, which the
	// record must have.
	Tick   int64
	Column string
	// Seq names a record by its seq field when >= 0; Line by its line in
	// the file (the header is line 1) when > 0. A seq follows the record's
	// place among the records, so a record inserted before it renumbers
	// it, which reads as a change of the record so numbered.
	Seq  int64
	Line int
}

// Blamed is what Blame found.
type Blamed struct {
	// Path is the golden, repository-relative; Value the cell or the
	// record (its line) as committed at HEAD; Tick and Line the record's
	// tick and line.
	Path  string
	Value string
	Tick  int64
	Line  int
	// Commit last changed the cell or record: it wrote the value HEAD has.
	Commit Commit
	// Created means Commit created the file: the value is unchanged since.
	// Added means the column, the tick's row or the record did not exist
	// before Commit (a column new, or renamed, there); Missing names
	// which. Otherwise Before is the value before Commit, and Fields, for
	// a record, the fields that differ (before as Golden, after as
	// Actual).
	Created, Added bool
	Missing        string
	Before         string
	Fields         []trace.FieldChange
	// Entries are what Commit appended to the set's history; HasHistory
	// says whether the set had a history as of Commit.
	Entries    []Entry
	HasHistory bool
}

// found is a cell or record as one version of the file has it: which of
// what locates it exists, and its value.
type found struct {
	missing string // "" when found, else what is not there: "file", "column", "row", "record"
	// value is the cell, or the record's line; when something is missing,
	// what the error at HEAD says of it (the columns, the run's ticks).
	value  string
	record map[string]any // a record's facts, to compare across versions
	tick   int64
	line   int
}

// same reports whether two versions hold the same cell or record: a
// record is compared by its facts (trace.FieldDiff, whatever the file's
// schema version), so a file converted to another version is not a change.
func (f found) same(g found) bool {
	switch {
	case f.missing != "" || g.missing != "":
		return f.missing == g.missing
	case f.record != nil:
		return g.record != nil && len(trace.FieldDiff(f.record, g.record)) == 0
	}
	return f.value == g.value
}

// Blame names the commit that last changed a cell of a set's committed
// dense.csv or a record of its trace.jsonl, reading git and the golden
// files only: it walks back from HEAD over the commits of its
// first-parent line that touched the file, reading the cell or record in
// each version — the file read only as far as it is — and stops at the
// first version that differs; the commit after it is the answer, with
// what it appended to the set's history. When that commit is a merge
// whose other parent already held the value, the change came from the
// merged branch, and the walk goes on along that parent's line. A cell or
// record that no version differs on is unchanged since the commit that
// created the file. The cell or record must exist at HEAD: an unknown
// column is an error suggesting a close one, a tick beyond the run one
// naming the run's ticks.
func Blame(root string, t Target) (*Blamed, error) {
	name := artifact.DenseFile
	if t.Column == "" {
		name = artifact.TraceFile
	}
	path := t.Dir + "/" + name
	if _, err := git(root, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("not a git repository: blame reads the committed goldens' history from git (%w)", err)
	}
	if _, err := git(root, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		return nil, fmt.Errorf("the repository has no commits yet: blame reads the committed goldens' history from git (%w)", err)
	}
	commits, err := touching(root, "HEAD", path)
	if err != nil {
		return nil, err
	}
	if len(commits) == 0 {
		return nil, fmt.Errorf("%s has no committed version: blame reads the goldens as committed", path)
	}
	b, err := openBlobs(root)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	look := func(rev string) (found, error) {
		var f found
		ok, err := b.read(rev, path, func(r io.Reader) (err error) {
			if t.Column != "" {
				f, err = cell(r, t)
			} else {
				f, err = record(r, t)
			}
			return err
		})
		if err != nil {
			return found{}, fmt.Errorf("read %s as of %s: %w", path, rev, err)
		}
		if !ok {
			f.missing = "file"
		}
		return f, nil
	}
	head, err := look(commits[0].Hash)
	if err != nil {
		return nil, err
	}
	if err := atHead(path, t, head); err != nil {
		return nil, err
	}
	out := &Blamed{Path: path, Value: head.value, Tick: head.tick, Line: head.line}
	for {
		at, before := len(commits)-1, found{missing: "file"} // the oldest created the file
		for i := 1; i < len(commits); i++ {
			v, err := look(commits[i].Hash)
			if err != nil {
				return nil, err
			}
			if !v.same(head) {
				at, before = i-1, v
				break
			}
		}
		c := commits[at]
		merged, err := mergedFrom(c, head, look)
		if err != nil {
			return nil, err
		}
		if merged != "" {
			if commits, err = touching(root, merged, path); err != nil {
				return nil, err
			}
			continue
		}
		out.Commit = c
		switch {
		case before.missing == "file" && at == len(commits)-1:
			out.Created = true
		case before.missing != "":
			out.Added, out.Missing = true, before.missing
		default:
			out.Before = before.value
			if head.record != nil {
				out.Fields = trace.FieldDiff(before.record, head.record)
			}
		}
		break
	}
	if err := entries(b, t.Dir, out); err != nil {
		return nil, err
	}
	return out, nil
}

// mergedFrom returns the parent of a merge c, other than its first, that
// already held head's value: the change c brought came from that branch.
// "" when c is no merge or no such parent has the value.
func mergedFrom(c Commit, head found, look func(string) (found, error)) (string, error) {
	for _, p := range c.Parents[min(1, len(c.Parents)):] {
		v, err := look(p)
		if err != nil {
			return "", err
		}
		if v.same(head) {
			return p, nil
		}
	}
	return "", nil
}

// atHead turns what is missing at HEAD into the error that says so, and
// a record at another tick than the one asked for into one too.
func atHead(path string, t Target, head found) error {
	switch head.missing {
	case "":
		if head.record != nil && t.Tick >= 0 && head.tick != t.Tick {
			return fmt.Errorf("%s: its %s is at tick %d, not %d", path, recordName(t), head.tick, t.Tick)
		}
		return nil
	case "column":
		return fmt.Errorf("%s has no column %q%s", path, t.Column, fixture.Suggest(t.Column, strings.Split(head.value, "\n")))
	case "row":
		return fmt.Errorf("%s has no row for tick %d: the run's ticks are %s", path, t.Tick, head.value)
	case "record":
		return fmt.Errorf("%s has no %s: %s", path, recordName(t), head.value)
	}
	return fmt.Errorf("%s is not in HEAD", path)
}

func recordName(t Target) string {
	if t.Seq >= 0 {
		return fmt.Sprintf("record with seq %d", t.Seq)
	}
	return fmt.Sprintf("line %d", t.Line)
}

// cell reads a dense file's cell (dense.Lookup). What is missing says, in
// value, what HEAD's error needs: the columns, or the run's ticks.
func cell(r io.Reader, t Target) (found, error) {
	l, err := dense.Lookup(r, t.Tick, t.Column)
	switch {
	case err != nil:
		return found{}, err
	case !l.HasColumn:
		return found{missing: "column", value: strings.Join(l.Columns, "\n")}, nil
	case !l.HasTick && l.Rows == 0:
		return found{missing: "row", value: "none (the file has no rows)"}, nil
	case !l.HasTick:
		return found{missing: "row", value: fmt.Sprintf("%d-%d", l.First, l.Last)}, nil
	}
	return found{value: l.Value, tick: t.Tick}, nil
}

// record reads a trace's record by seq or line, with the facts its line
// leaves out put back (trace.Facts) so that versions of another schema
// compare by what they say.
func record(r io.Reader, t Target) (found, error) {
	var facts trace.Facts
	line, last := 0, int64(-1)
	f := found{missing: "record"}
	var bad error
	err := artifact.Lines(r, func(text []byte) bool {
		line++
		rec, err := decode(text)
		if err == nil && line == 1 {
			facts, err = trace.FactsOf(rec)
			bad = err
			return err != nil
		}
		if err != nil {
			bad = fmt.Errorf("line %d: %w", line, err)
			return true
		}
		seq := int64(-1)
		if n, ok := rec["seq"].(json.Number); ok {
			seq, _ = n.Int64()
		}
		last = max(last, seq)
		if (t.Seq < 0 || seq != t.Seq) && (t.Line <= 0 || line != t.Line) {
			return false
		}
		if bad = facts.Restore(rec); bad != nil {
			bad = fmt.Errorf("line %d: %w", line, bad)
			return true
		}
		f = found{value: string(bytes.TrimSpace(text)), record: rec, tick: -1, line: line}
		if n, ok := rec["tick"].(json.Number); ok {
			f.tick, _ = n.Int64()
		}
		return true
	})
	if err = cmp.Or(err, bad); err != nil {
		return found{}, err
	}
	switch {
	case f.missing == "":
	case t.Seq >= 0:
		f.value = fmt.Sprintf("its records' seqs end at %d", last)
	default:
		f.value = fmt.Sprintf("it has %d lines", line)
	}
	return f, nil
}

// decode reads one line of a trace, numbers as written.
func decode(line []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var rec map[string]any
	if err := dec.Decode(&rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// entries fills in what out.Commit appended to the set's history: the
// entries of its version that its first parent's does not have.
func entries(b *blobs, dir string, out *Blamed) error {
	path := dir + "/" + File
	read := func(rev string) ([]byte, bool, error) {
		var data []byte
		ok, err := b.read(rev, path, func(r io.Reader) (err error) {
			data, err = io.ReadAll(r) // a line per change: small
			return err
		})
		return data, ok, err
	}
	now, ok, err := read(out.Commit.Hash)
	if err != nil || !ok {
		return err
	}
	out.HasHistory = true
	before, _, err := read(out.Commit.Hash + "^")
	if err != nil {
		return err
	}
	had := map[string]int{}
	for line := range strings.Lines(string(before)) {
		had[line]++
	}
	var added []byte
	for line := range strings.Lines(string(now)) {
		if had[line] > 0 {
			had[line]--
			continue
		}
		added = append(added, line...)
	}
	if out.Entries, err = Read(added); err != nil {
		return fmt.Errorf("%s as of %s: %w", path, out.Commit.Short(), err)
	}
	return nil
}
