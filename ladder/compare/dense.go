package compare

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/chronicle/ladder/dense"
)

// DenseReport compares the two runs' dense files, column by name.
type DenseReport struct {
	// Skipped says why the files were not compared (a side has none, one
	// does not parse, they share no column but tick); "" when they were.
	Skipped   string
	Identical bool
	// Added and Removed are the columns only the second, or only the
	// first, run has, in header order.
	Added, Removed []string
	// First is the first differing cell of the columns both runs have, in
	// tick order then the first run's header order (Golden is the first
	// run's value, Actual the second's); nil when they agree on all of them.
	First *dense.Change
	// OnlyA and OnlyB count the ticks only one run has a row for.
	OnlyA, OnlyB int
}

// compareDense aligns the two dense files by tick and column name, so a
// column one run has (someone holds a rumour the other never heard) does
// not hide the first value they disagree on in the columns they share.
func compareDense(a, b Side) DenseReport {
	switch {
	case a.Dense == nil:
		return DenseReport{Skipped: a.Name + " has no dense file"}
	case b.Dense == nil:
		return DenseReport{Skipped: b.Name + " has no dense file"}
	case bytes.Equal(a.Dense, b.Dense):
		return DenseReport{Identical: true}
	}
	d, err := dense.Diff(a.Dense, b.Dense)
	if err != nil {
		return DenseReport{Skipped: fmt.Sprintf("cannot read the dense files: %v", err)}
	}
	if d.Shared <= 1 {
		return DenseReport{Skipped: "the runs' dense files share no column but tick"}
	}
	rep := DenseReport{Added: d.Added, Removed: d.Removed, OnlyA: len(d.MissingTicks), OnlyB: len(d.ExtraTicks)}
	oneSide := make(map[string]bool, len(d.Added)+len(d.Removed))
	for _, c := range slices.Concat(d.Added, d.Removed) {
		oneSide[c] = true
	}
	for i, c := range d.Cells {
		if !oneSide[c.Column] {
			rep.First = &d.Cells[i]
			break
		}
	}
	return rep
}
