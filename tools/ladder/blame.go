package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/chronicle/ladder/ladder/history"
)

// blame names the commit that last changed a golden cell (dense.csv at a
// tick, in a column) or record (trace.jsonl, by seq or by line) as
// committed, and what that commit recorded in the set's history: why the
// goldens moved there, where they first diverged, and the drift's class.
// It reads git and the golden files only; nothing runs.
func blame(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("blame", flag.ContinueOnError)
	fl.SetOutput(stderr)
	tick := fl.Int64("tick", -1, "the cell's tick; with -record or -line, the record's tick (checked)")
	column := fl.String("column", "", "a dense.csv column: blame the cell at -tick")
	seq := fl.Int64("record", -1, "a trace.jsonl record, by its seq")
	line := fl.Int("line", 0, "a trace.jsonl record, by its line (the header is line 1)")
	names, err := parseAnywhere(fl, args)
	if err != nil {
		return err
	}
	const usage = "usage: ladder blame <rung[/case]> -tick T -column C | -record SEQ | -line N"
	chosen := 0
	for _, set := range []bool{*column != "", *seq >= 0, *line > 0} {
		if set {
			chosen++
		}
	}
	switch {
	case len(names) != 1 || chosen != 1:
		return errors.New(usage)
	case *column != "" && *tick < 0:
		return errors.New("blame: -column needs -tick, the cell's row")
	case *line == 1:
		return errors.New("blame: line 1 of trace.jsonl is its header; records start at line 2")
	}
	f, err := find(names[0])
	if err != nil {
		return err
	}
	b, err := history.Blame(".", history.Target{Dir: f.GoldenDir(), Tick: *tick, Column: *column, Seq: *seq, Line: *line})
	if err != nil {
		return fmt.Errorf("blame: %w", err)
	}
	w := &strings.Builder{}
	if *column != "" {
		fmt.Fprintf(w, "%s %s, tick %d, column %q: %s\n", f.Name(), b.Path, *tick, *column, shownValue(b.Value))
	} else {
		fmt.Fprintf(w, "%s %s, line %d (tick %d): %s\n", f.Name(), b.Path, b.Line, b.Tick, clip(b.Value))
	}
	switch {
	case b.Created:
		fmt.Fprintf(w, "unchanged since the file was created, in %s\n", b.Commit)
	case b.Added:
		fmt.Fprintf(w, "added in %s: %s\n", b.Commit, map[string]string{
			"file":   "the file did not exist before it",
			"column": "the column did not exist before it (new there, or renamed)",
			"row":    "the run had no row for that tick before it",
			"record": "the record did not exist before it",
		}[b.Missing])
	case len(b.Fields) > 0:
		fmt.Fprintf(w, "last changed in %s: %s\n", b.Commit, fieldChanges(b))
	default:
		fmt.Fprintf(w, "last changed in %s: %s → %s\n", b.Commit, shownValue(b.Before), shownValue(b.Value))
	}
	switch {
	case len(b.Entries) > 0:
		for _, e := range b.Entries {
			fmt.Fprintf(w, "  history: %s\n", e)
		}
	case b.HasHistory:
		fmt.Fprintf(w, "  history: that commit added no entry to %s/%s (it did not go through accept or make goldens)\n", f.GoldenDir(), history.File)
	default:
		fmt.Fprintf(w, "  history: none recorded as of that commit; older changes: git log -p %s -- %s\n", b.Commit.Short(), b.Path)
	}
	_, err = io.WriteString(stdout, w.String())
	return err
}

// shownValue shows an empty cell as what it means.
func shownValue(v string) string {
	if v == "" {
		return `"" (not held)`
	}
	return v
}

// clip shortens a record's line for one line of output.
func clip(s string) string {
	const limit = 160
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}

// fieldChanges lists a record's changed fields, the first three in full.
func fieldChanges(b *history.Blamed) string {
	var parts []string
	for i, c := range b.Fields {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more fields", len(b.Fields)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s", c.Path, c.Golden, c.Actual))
	}
	return strings.Join(parts, "; ")
}
