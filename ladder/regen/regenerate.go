package regen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/tolerances"
)

// Status is what regeneration did to one rung.
type Status struct {
	Rung   string // rung name, with the case
	State  string // "unchanged", "new", "changed", "sealed" (only the manifest written), "refused", "not written" (another rung was refused, or a reason is missing)
	Detail string // first divergence from the old golden, or why refused
	// History is the entry appended to the set's history (Chronicle); nil
	// when none was.
	History *history.Entry
}

func (s Status) String() string {
	if s.Detail == "" {
		return fmt.Sprintf("%s %s", s.Rung, s.State)
	}
	return fmt.Sprintf("%s %s: %s", s.Rung, s.State, s.Detail)
}

// Rendering is one of the two renderings of the determinism proof: a
// directory laid out like goldens/, its name in messages ("run 1") and how
// it was made.
type Rendering struct {
	Dir, Name, How string
}

// NondeterminismError means the two renderings differed: nothing was
// written. It names the first fixture (in file order) whose renderings
// differ, the file of it whose first difference says most (File) with
// that difference in the runs' own names, and every other fixture that
// differs.
type NondeterminismError struct {
	A, B       Rendering
	Rung, File string
	// Divergence is File's first difference — a record, a cell, a line —
	// or, when File is in one rendering only, that in words; then each
	// other file that one run wrote and the other did not.
	Divergence string
	Others     []string // other fixtures whose renderings differ
}

func (e *NondeterminismError) Error() string {
	others := ""
	if len(e.Others) > 0 {
		others = fmt.Sprintf("; %d more differ: %s", len(e.Others), strings.Join(e.Others, ", "))
	}
	return fmt.Sprintf("determinism proof failed: %s %s differs between %s (%s) and %s (%s): %s%s. "+
		"A rung's output depends on which rungs ran before it in the same process (state leaking between "+
		"rungs: a package-level variable, a cache) or on something else that is not deterministic; no golden was written",
		e.Rung, e.File, e.A.Name, e.A.How, e.B.Name, e.B.How, e.Divergence, others)
}

// Prove byte-compares the two renderings of every fixture — artifacts and
// the expectation verdict, which must reproduce too (a rung that fails in
// one rendering and passes in the other is nondeterministic, not
// refusable). A difference is a *NondeterminismError, which names a
// record or a cell wherever one differs: the trace's first divergent
// record before anything else (it says which decision, roll or id moved
// first, where a dense cell or a checkpoint's state digest only moved
// because of it), then the dense file's first divergent cell, then the
// checkpoints, the other artifacts, and the verdict last (a failed
// expectation is a consequence too). A file one run wrote and the other
// did not — failures.txt, the usual case, since the expectations failed
// in one run only — has no first difference to name: it is said in words,
// beside the record that differs.
func Prove(fixtures []*fixture.Fixture, a, b Rendering) error {
	var nd *NondeterminismError
	for _, f := range fixtures {
		dir := filepath.FromSlash(f.GoldenDir())
		differ, err := differing(append(ladder.Artifacts(f), FailuresFile), filepath.Join(a.Dir, dir), filepath.Join(b.Dir, dir), a, b)
		if err != nil {
			return fmt.Errorf("read rendering of %s: %w", f.Name(), err)
		}
		switch {
		case len(differ) == 0:
		case nd == nil:
			file, text, err := describe(f, differ, a, b)
			if err != nil {
				return fmt.Errorf("read rendering of %s: %w", f.Name(), err)
			}
			nd = &NondeterminismError{A: a, B: b, Rung: f.Name(), File: file, Divergence: text}
		default:
			nd.Others = append(nd.Others, f.Name())
		}
	}
	if nd != nil {
		return nd
	}
	return nil
}

// rendered is one file of a fixture that its two renderings do not hold
// alike: its path in each, and whether each run wrote it at all.
type rendered struct {
	name     string
	x, y     string
	inA, inB bool
}

// differing returns the files of names whose renderings under dirs x and
// y differ, in the order Prove names them (proofRank), comparing each in
// chunks. A file one rendering lacks is a difference, and failures.txt
// missing from both is the same verdict; an artifact missing from both
// is an error, since no run that finishes leaves one out.
func differing(names []string, x, y string, a, b Rendering) ([]rendered, error) {
	var out []rendered
	for _, name := range names {
		r := rendered{name: name, x: filepath.Join(x, name), y: filepath.Join(y, name)}
		var err error
		if r.inA, err = exists(r.x); err != nil {
			return nil, err
		}
		if r.inB, err = exists(r.y); err != nil {
			return nil, err
		}
		switch {
		case !r.inA && !r.inB && name == FailuresFile:
			continue
		case !r.inA && !r.inB:
			return nil, fmt.Errorf("neither %s nor %s wrote %s: %w", a.Name, b.Name, name, fs.ErrNotExist)
		case r.inA && r.inB:
			same, err := artifact.Same(r.x, r.y)
			if err != nil {
				return nil, err
			}
			if same {
				continue
			}
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(p, q rendered) int { return proofRank(p.name) - proofRank(q.name) })
	return out, nil
}

// proofRank orders a rendering's files by what their first difference
// tells: the trace's record, the dense file's cell, the checkpoints, any
// other artifact (a sweep's, the manifest), and the verdict.
func proofRank(name string) int {
	switch name {
	case artifact.TraceFile:
		return 0
	case artifact.DenseFile:
		return 1
	case artifact.CheckpointsFile:
		return 2
	case FailuresFile:
		return 4
	}
	return 3
}

// exists reports whether path exists; an error other than its absence is
// returned.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// describe says how f's renderings differ, given the files that do, in
// Prove's order (differing). It names the first file both runs wrote,
// with its first difference — or, when every differing file is in one
// rendering only, the first of those — and then says in words each file
// one run wrote and the other did not. When the verdict alone differs it
// says so: the expectations judged byte-identical artifacts differently.
func describe(f *fixture.Fixture, differ []rendered, a, b Rendering) (file, text string, err error) {
	named := differ[0]
	if i := slices.IndexFunc(differ, func(r rendered) bool { return r.inA && r.inB }); i >= 0 {
		named = differ[i]
	}
	var parts []string
	if named.inA && named.inB {
		parts = append(parts, divergence(named.name, named.x, named.y, a.Name, b.Name))
	}
	said := map[bool]bool{} // whether the artifacts only run a wrote, or only run b, are said
	for _, r := range differ {
		if r.inA == r.inB {
			continue // in both
		}
		wrote, path, not := a.Name, r.x, b.Name
		if r.inB {
			wrote, path, not = b.Name, r.y, a.Name
		}
		if r.name == FailuresFile {
			first, err := firstFailure(path)
			if err != nil {
				return "", "", err
			}
			parts = append(parts, fmt.Sprintf("%s wrote %s — its expectations failed there: %s — %s did not", wrote, FailuresFile, first, not))
			continue
		}
		if said[r.inA] {
			continue
		}
		said[r.inA] = true
		// One sentence for every artifact the same run left out: it
		// stopped before them all.
		var names []string
		for _, s := range differ {
			if s.inA == r.inA && s.inB == r.inB && s.name != FailuresFile {
				names = append(names, s.name)
			}
		}
		them := "it"
		if len(names) > 1 {
			them = "them"
		}
		parts = append(parts, fmt.Sprintf("%s wrote no %s — its run of %s stopped before writing %s (aborted, or its process killed) — and %s did",
			not, strings.Join(names, ", no "), f.Name(), them, wrote))
	}
	if len(differ) == 1 && named.name == FailuresFile {
		parts = append(parts, "every artifact is byte-identical in the two runs: only the verdict differed")
	}
	return named.name, strings.Join(parts, "; "), nil
}

// firstFailure quotes the first line of a rendering's failures.txt and
// counts the rest.
func firstFailure(path string) (string, error) {
	b, err := os.ReadFile(path) // one line a failed expectation: small
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	s := "`" + lines[0] + "`"
	if len(lines) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(lines)-1)
	}
	return s, nil
}

// Regenerate proves the two renderings agree and then switches every
// changed golden into place in one commit of the workspace, each changed
// or new set with an entry appended to its history, which note completes
// (Chronicle): after it, or after an interruption and the next Open, the
// selected rungs' goldens are all old or all new. It is all or nothing for
// the selection, like accept: when any rung is refused (its expectations
// fail), nothing is written — not the refused rung's goldens, nor those
// of the rungs beside it, which a bug that fails one rung's expectations
// may have moved too (a case that asserts less) — and the refusal is a
// *RefusedError carrying every Status; when a set changes and note gives
// no reason, nothing is written either, and the refusal is a
// *ReasonError. Otherwise it returns one Status per fixture, in order.
func Regenerate(ws *Workspace, fixtures []*fixture.Fixture, a, b Rendering, note Note) ([]Status, error) {
	if err := Prove(fixtures, a, b); err != nil {
		return nil, err
	}
	statuses, files, err := Plan(ws.root, fixtures, a.Dir)
	if err != nil {
		return nil, err
	}
	if refused := Refused(statuses); len(refused) > 0 {
		notWritten(statuses)
		return statuses, &RefusedError{Rungs: refused}
	}
	var unexplained []string
	for i, f := range fixtures {
		statuses[i].History, err = ws.Chronicle(f, artifactsIn(f, a.Dir), files, note)
		switch {
		case errors.Is(err, ErrNoReason):
			unexplained = append(unexplained, f.Name())
		case err != nil:
			return nil, err
		}
	}
	if len(unexplained) > 0 {
		notWritten(statuses)
		return statuses, &ReasonError{Sets: unexplained}
	}
	if err := ws.Commit(files); err != nil {
		return nil, err
	}
	return statuses, nil
}

// notWritten marks every status that would have written something as not
// written, saying what it would have been.
func notWritten(statuses []Status) {
	for i, s := range statuses {
		if s.State != "refused" && s.State != "unchanged" {
			would := "would be " + s.State
			if s.Detail != "" {
				would += ": " + s.Detail
			}
			statuses[i].State, statuses[i].Detail, statuses[i].History = "not written", would, nil
		}
	}
}

// RefusedError means some selected rungs were refused, so nothing was
// written.
type RefusedError struct {
	Rungs []string // the refused rungs, in file order
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("goldens refused, nothing was written: %d run(s) fail their own expectations (%s), so their goldens "+
		"would record behaviour their fixtures say is wrong, and a bug that moved them may have moved the rest of the selection "+
		"too; fix the code (or, if the change is intended, the fixture's expectations) and rerun", len(e.Rungs), strings.Join(e.Rungs, ", "))
}

// Refused lists the rungs of statuses that were refused.
func Refused(statuses []Status) []string {
	var out []string
	for _, s := range statuses {
		if s.State == "refused" {
			out = append(out, s.Rung)
		}
	}
	return out
}

// Plan compares a rendering with the goldens under root and returns each
// fixture's Status and the golden files to write (repository-relative
// slash paths, each to the rendered file that becomes it): only those
// whose bytes changed, so files that did not change keep their
// modification times.
func Plan(root string, fixtures []*fixture.Fixture, rendered string) ([]Status, map[string]string, error) {
	files := map[string]string{}
	var out []Status
	for _, f := range fixtures {
		st, err := plan(root, f, rendered, files)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, st)
	}
	return out, files, nil
}

func plan(root string, f *fixture.Fixture, rendering string, files map[string]string) (Status, error) {
	st := Status{Rung: f.Name()}
	if failures, err := os.ReadFile(filepath.Join(rendering, filepath.FromSlash(f.GoldenDir()), FailuresFile)); err == nil {
		st.State = "refused"
		st.Detail = "its expectations fail, so its goldens would record wrong behaviour:\n  " +
			strings.ReplaceAll(strings.TrimSpace(string(failures)), "\n", "\n  ")
		return st, nil
	}
	fresh := artifactsIn(f, rendering)
	changes, err := Changes(root, f.GoldenDir(), ladder.Artifacts(f), fresh)
	if err != nil {
		return st, fmt.Errorf("read rendering of %s: %w", f.Name(), err)
	}
	var changed, added []string
	for _, c := range changes {
		files[c.Path] = fresh[c.Name]
		switch {
		case c.Name == artifact.ManifestFile: // the seal follows the files it seals (classify)
		case c.New:
			added = append(added, c.Name)
		default:
			old := filepath.Join(root, filepath.FromSlash(c.Path))
			changed = append(changed, c.Name+": "+divergence(c.Name, old, fresh[c.Name], "golden", "actual"))
		}
	}
	switch st.State = classify(f, changes); {
	case len(changed) > 0:
		st.Detail = strings.Join(changed, "; ")
	case st.State == "changed":
		st.Detail = "added " + strings.Join(added, ", ")
	case st.State == "sealed":
		st.Detail = "the goldens are unchanged; " + artifact.ManifestFile + " was missing or did not seal them, and now does"
	}
	return st, nil
}

// classify names what changes do to f's set: "new" when every sealed
// file is new, "changed" when one changes or is added to a set that had
// others, "sealed" when only the manifest is written (the seal follows
// the files it seals: it moves with any of them, and alone only when it
// was missing or stale), else "unchanged".
func classify(f *fixture.Fixture, changes []Change) string {
	added, changed, resealed := 0, 0, false
	for _, c := range changes {
		switch {
		case c.Name == artifact.ManifestFile:
			resealed = true
		case c.New:
			added++
		default:
			changed++
		}
	}
	switch {
	case changed > 0:
		return "changed"
	case added == len(ladder.Sealed(f)):
		return "new"
	case added > 0:
		return "changed"
	case resealed:
		return "sealed"
	}
	return "unchanged"
}

// artifactsIn maps each artifact of f to its file in a rendering (laid
// out like goldens/).
func artifactsIn(f *fixture.Fixture, rendering string) map[string]string {
	dir := filepath.Join(rendering, filepath.FromSlash(f.GoldenDir()))
	fresh := map[string]string{}
	for _, name := range ladder.Artifacts(f) {
		fresh[name] = filepath.Join(dir, name)
	}
	return fresh
}

// Change is one golden file whose bytes a new rendering changes.
type Change struct {
	Name string // artifact name, e.g. dense.csv
	Path string // repository-relative slash path of the golden
	New  bool   // the golden does not exist yet
}

// Changes compares fresh artifacts (artifact name to file) with the
// goldens in dir (repository-relative, e.g. goldens/T0.1-witness), in
// chunks, and returns, in the order of names, those whose bytes differ or
// that do not exist yet. The manifest is compared by what it seals, the
// set's history aside (history.SameSeal): a run's manifest seals what the
// run wrote, and the golden one that and the history, which no run
// renders. A fresh artifact that cannot be read is an error.
func Changes(root, dir string, names []string, fresh map[string]string) ([]Change, error) {
	var out []Change
	for _, name := range names {
		p := dir + "/" + name
		golden := filepath.Join(root, filepath.FromSlash(p))
		if _, err := os.Stat(golden); errors.Is(err, fs.ErrNotExist) {
			if _, err := os.Stat(fresh[name]); err != nil {
				return nil, err
			}
			out = append(out, Change{Name: name, Path: p, New: true})
			continue
		}
		same, err := artifact.Same(golden, fresh[name])
		if err == nil && !same && name == artifact.ManifestFile {
			same, err = history.SameSeal(golden, fresh[name])
		}
		if err != nil {
			return nil, err
		}
		if !same {
			out = append(out, Change{Name: name, Path: p})
		}
	}
	return out, nil
}

// divergence describes the first difference between two versions x and y
// (files) of an artifact, in the artifact's own terms, calling them a and
// b. Dense and trace files are compared in chunks and records, never read
// whole; the other files are small.
func divergence(name, x, y, a, b string) string {
	switch name {
	case artifact.DenseFile:
		d, err := dense.CompareFiles(x, y)
		switch {
		case err != nil:
			return "the " + a + " is unreadable: " + err.Error()
		case d != nil:
			return d.Describe(a, b)
		}
		return "bytes differ"
	case artifact.TraceFile:
		d, err := artifact.CompareTraceFiles(x, y)
		switch {
		case err != nil:
			return "the " + a + " is unreadable: " + err.Error()
		case d != nil:
			return d.Describe(a, b)
		}
		return "bytes differ"
	}
	xb, errX := os.ReadFile(x)
	yb, errY := os.ReadFile(y)
	if err := errors.Join(errX, errY); err != nil {
		return err.Error()
	}
	if name == artifact.CheckpointsFile && a == "golden" { // checkpoint messages speak of golden and actual; two runs get the lines below
		g, errG := checkpoint.Parse("old "+name, xb)
		n, errN := checkpoint.Parse("new "+name, yb)
		if err := errors.Join(errG, errN); err != nil {
			return err.Error()
		}
		rep := checkpoint.Compare(g, n, tolerances.ByteIdentity)
		if msgs := append(rep.Failures, rep.Warnings...); len(msgs) > 3 {
			return fmt.Sprintf("%s; and %d more differences", strings.Join(msgs[:3], "; "), len(msgs)-3)
		} else if len(msgs) > 0 {
			return strings.Join(msgs, "; ")
		}
	}
	// A final newline ends the last line: it begins none, so a file with a
	// line fewer shows <missing> there, not an empty line.
	xl, yl := strings.Split(strings.TrimSuffix(string(xb), "\n"), "\n"), strings.Split(strings.TrimSuffix(string(yb), "\n"), "\n")
	for i := range max(len(xl), len(yl)) {
		if i >= len(xl) || i >= len(yl) || xl[i] != yl[i] {
			return fmt.Sprintf("first different line %d: %s %s, %s %s", i+1, a, lineOr(xl, i), b, lineOr(yl, i))
		}
	}
	return "bytes differ"
}

func lineOr(lines []string, i int) string {
	if i >= len(lines) {
		return "<missing>"
	}
	const limit = 120
	l := strings.TrimSpace(lines[i])
	if len(l) > limit {
		l = l[:limit] + "…"
	}
	return "`" + l + "`"
}
