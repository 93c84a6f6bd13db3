package runfiles

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/trace"
)

// The files a run writes that the instruments read (package ladder names
// the golden ones; events.jsonl is a run's only: goldens keep no event log).
const (
	TraceFile       = artifact.TraceFile
	DenseFile       = artifact.DenseFile
	CheckpointsFile = artifact.CheckpointsFile
	EventsFile      = artifact.EventsFile
)

// Source says where to read a run's files from. The zero Source is the
// last ladder run's reports under DefaultReports; at most one of Reports,
// Golden and GoldenAt is set.
type Source struct {
	// Reports is a directory laid out like reports/ (a downloaded CI
	// artifact); "" is the default reports directory.
	Reports string
	// Golden reads the committed goldens in the checkout.
	Golden bool
	// GoldenAt reads the goldens as the commit it names had them.
	GoldenAt string
}

// Check refuses a Source that names two places.
func (s Source) Check() error {
	n := 0
	for _, set := range []bool{s.Reports != "", s.Golden, s.GoldenAt != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return errors.New("-reports, -golden and -golden-at name different places to read the run from: pick one")
	}
	return nil
}

// Run is one run's files where a Source finds them.
type Run struct {
	Fixture *fixture.Fixture
	// Where names the place for a heading or an error: the directory, or
	// the golden directory and the commit.
	Where string

	dir    string // the directory (slash-separated for git)
	golden bool
	commit string
	dense  *Dense // read once: At, Explain and Fear each need it
}

// Locate finds fixture f's run in s; reports is the default reports
// directory (the tool's, which LADDER_REPORTS may move). It reads nothing:
// a missing file is reported by the read that needs it, with its path.
func Locate(f *fixture.Fixture, s Source, reports string) (*Run, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	switch {
	case s.GoldenAt != "":
		out, err := exec.Command("git", "rev-parse", "--verify", "--quiet", s.GoldenAt+"^{commit}").Output()
		if err != nil {
			return nil, fmt.Errorf("-golden-at %s: git knows no such commit here: %w", s.GoldenAt, err)
		}
		commit := strings.TrimSpace(string(out))
		return &Run{Fixture: f, dir: f.GoldenDir(), golden: true, commit: commit,
			Where: f.GoldenDir() + " at " + commit[:min(12, len(commit))]}, nil
	case s.Golden:
		return &Run{Fixture: f, dir: filepath.FromSlash(f.GoldenDir()), golden: true, Where: f.GoldenDir()}, nil
	}
	if s.Reports != "" {
		reports = s.Reports
	}
	dir := filepath.Join(reports, filepath.FromSlash(f.Name()))
	return &Run{Fixture: f, dir: dir, Where: filepath.ToSlash(dir)}, nil
}

// Read returns one of the run's files whole.
func (r *Run) Read(file string) ([]byte, error) {
	if r.commit != "" {
		p := path.Join(r.dir, file)
		var stderr bytes.Buffer
		cmd := exec.Command("git", "show", r.commit+":"+p)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("%s is not in commit %s (%s): %w", p, r.commit, strings.TrimSpace(stderr.String()), r.missing(file, err))
		}
		return out, nil
	}
	data, err := os.ReadFile(filepath.Join(r.dir, file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, r.missing(file, err)
	}
	return data, err
}

// Open returns a reader of one of the run's files: a stream from the file
// itself, the whole file from git.
func (r *Run) Open(file string) (io.ReadCloser, error) {
	if r.commit != "" {
		data, err := r.Read(file)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	f, err := os.Open(filepath.Join(r.dir, file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, r.missing(file, err)
	}
	return f, err
}

// missing says which command writes a file the run does not have.
func (r *Run) missing(file string, err error) error {
	p := path.Join(filepath.ToSlash(r.dir), file)
	switch {
	case r.golden && file == EventsFile:
		return fmt.Errorf("%s: goldens keep no event log; read a run's with -reports: %w", p, err)
	case r.golden:
		return fmt.Errorf("%s: no such golden: `make goldens RUNG=%s REASON=\"…\"` writes it (a new rung has none until then): %w", p, r.Fixture.Name(), err)
	}
	return fmt.Errorf("%s: no such file: `make ladder RUNG=%s` writes it, or read the goldens with -golden: %w", p, r.Fixture.Rung, err)
}

// Dense is a run's dense file, every cell by tick and column.
type Dense struct {
	*dense.Table
	column map[string]int
}

// Dense reads the run's dense file whole, once: later calls return the
// table the first read.
func (r *Run) Dense() (*Dense, error) {
	if r.dense != nil {
		return r.dense, nil
	}
	data, err := r.Read(DenseFile)
	if err != nil {
		return nil, err
	}
	t, err := dense.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", r.Where, DenseFile, err)
	}
	if len(t.Ticks) == 0 {
		return nil, fmt.Errorf("%s/%s: no rows: the run wrote no tick", r.Where, DenseFile)
	}
	d := &Dense{Table: t, column: map[string]int{}}
	for i, c := range t.Header {
		d.column[c] = i
	}
	r.dense = d
	return d, nil
}

// Cell is the cell of column in row i ("" for a column the file does not
// have: a schedule no rule changed, say).
func (d *Dense) Cell(i int, column string) string {
	if c, ok := d.column[column]; ok {
		return d.Rows[i][c]
	}
	return ""
}

// Ticks are the first and last tick the run's dense file has a row for:
// every tick it ran, fewer when it aborted.
func (r *Run) Ticks() (first, last int64, err error) {
	d, err := r.Dense()
	if err != nil {
		return 0, 0, err
	}
	return d.Ticks[0], d.Ticks[len(d.Ticks)-1], nil
}

// At is the tick a command's -at flag names in this run: the last tick
// when at < 0, and an error naming the run's range when the tick lies
// outside it.
func (r *Run) At(cmd string, at int64) (int64, error) {
	first, last, err := r.Ticks()
	if err != nil {
		return 0, err
	}
	if at < 0 {
		return last, nil
	}
	if at < first || at > last {
		return 0, fmt.Errorf("%s: tick %d is outside the run in %s, which covers ticks %d to %d", cmd, at, r.Where, first, last)
	}
	return at, nil
}

// Records calls fn with each record of the trace up to tick until (every
// record when until < 0), in file order, as the engine's record type —
// for the kinds Decode knows; the others are passed over.
func (r *Run) Records(until int64, fn func(trace.Record) error) error {
	f, err := r.Open(TraceFile)
	if err != nil {
		return err
	}
	defer f.Close()
	rd, err := cmp.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s/%s: %w", r.Where, TraceFile, err)
	}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s/%s: %w", r.Where, TraceFile, err)
		}
		if until >= 0 && rec.Tick > until {
			return nil
		}
		body, err := Decode(rec)
		if err != nil {
			return fmt.Errorf("%s/%s: line %d: %w", r.Where, TraceFile, rec.Line, err)
		}
		if body == nil {
			continue
		}
		seq, _ := rec.Fields["seq"].(float64)
		if err := fn(trace.Record{Seq: int64(seq), Tick: rec.Tick, Body: body}); err != nil {
			return err
		}
	}
}

// Checkpoints reads the run's checkpoints.json: among the rest, the state
// digests it recorded at its samples and at its end.
func (r *Run) Checkpoints() (checkpoint.File, error) {
	data, err := r.Read(CheckpointsFile)
	if err != nil {
		return checkpoint.File{}, err
	}
	cp, err := checkpoint.Parse(r.Where+"/"+CheckpointsFile, data)
	if err != nil {
		return checkpoint.File{}, err
	}
	return cp, nil
}
