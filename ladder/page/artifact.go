package page

import (
	"bytes"
	"io"
	"os"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/sim/trace"
)

// Artifact is a file the page reads: opened once per pass and read a row
// or a record at a time, so a section of a million-tick run costs the
// memory of what it embeds, not of the run.
type Artifact interface {
	Open() (io.ReadCloser, error)
}

// Path is an artifact on disk.
type Path string

// Open opens the file.
func (p Path) Open() (io.ReadCloser, error) { return os.Open(string(p)) }

// Data is an artifact in memory, for specs.
type Data []byte

// Open reads the bytes.
func (d Data) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(d)), nil }

// compareTraces names the first record where a run's trace departs from
// its golden, nil when they are identical.
func compareTraces(golden, actual Artifact) (*trace.Divergence, error) {
	var d *trace.Divergence
	err := both(golden, actual, func(g, a io.Reader) (err error) {
		d, err = artifact.CompareTraces(g, a)
		return err
	})
	return d, err
}

// both opens two artifacts, hands them to fn and closes them.
func both(x, y Artifact, fn func(x, y io.Reader) error) error {
	rx, err := x.Open()
	if err != nil {
		return err
	}
	defer rx.Close()
	ry, err := y.Open()
	if err != nil {
		return err
	}
	defer ry.Close()
	return fn(rx, ry)
}
