package record

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/seal"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/trace"
)

// flushAt is how much encoded trace the run gathers before writing it.
const flushAt = 64 << 10

// Compared is how a run's artifacts compared with their goldens, judged
// as they were written; package verdict reads it.
type Compared struct {
	Root  string // the repository root the goldens are under
	Dense GoldenOutcome[*dense.Comparison]
	Trace GoldenOutcome[*trace.Divergence]
	// Same is the comparison with the trace golden of the rung this one is
	// the same run as (fixture same_run), cut at this run's length.
	Same GoldenOutcome[*trace.Divergence]
}

// GoldenOutcome is one golden file's verdict: it did not exist
// (Missing), it could not be read (Err), or it was compared (Result).
type GoldenOutcome[T any] struct {
	Path    string
	Missing bool
	Err     error
	Result  T
}

// Files say where a run's streams write and what they compare with: the
// run's Options, as far as its artifacts go (package ladder documents
// each field).
type Files struct {
	Dir, Goldens string
	Seals        SealedGoldens
	Unsealed     bool
	Stages       *Stages
}

// SealedGoldens is the check of the goldens' seals made before a run
// (verdict.CheckSeals): Sealed returns its finding for the golden at
// path, when it found the file as sealed. A nil check finds nothing.
type SealedGoldens interface {
	Sealed(path string) (seal.Verified, bool)
}

// Streams are a run's artifacts while the run writes them.
type Streams struct {
	f     *fixture.Fixture
	dir   string
	dense *artifact.File
	// through is dense.csv as the table writes it through, each row laid
	// out in the golden's columns as it is compared (dense.Stream's
	// WriteThrough); nil without a golden header to lay the rows out in.
	// Finish says which of the two holds the file: this one, unless the
	// run's columns are not the golden's.
	through       *artifact.File
	throughDigest *sealDigest
	// traceBehind and throughBehind, in an untimed run, write the trace
	// and the dense file written through on goroutines of their own
	// (artifact.Behind), digests and all; nil in a timed run.
	traceBehind   *artifact.Behind
	throughBehind *artifact.Behind
	spill         *os.File
	table         *dense.Stream
	rows          *rows // hands the table its rows, behind in an untimed run
	trace         *artifact.File
	// digests are the seal's digests of the artifacts written whole by
	// the streams, by name: had as they are written, or from the seal
	// check (sealDigest), so that the seal need not read them back (the
	// trace is gigabytes in a city).
	digests map[string]*sealDigest
	seals   SealedGoldens
	// unsealed: Options.Unsealed, no digest.
	unsealed bool
	sink     *traceSink
	// pipe, when set, shows sink the records on a goroutine of its own
	// (records): an untimed run's trace is spelt, compared, checked and
	// written on a second core beside the engine. A timed run (Stages)
	// has none, so that its stages partition one goroutine's wall time.
	pipe   *trace.Pipe
	open   []*os.File // goldens being read
	cmp    *Compared  // nil without goldens
	traceF *artifact.TraceFollower
	sameF  *artifact.TraceFollower
	st     *Stages // nil: untimed
}

// Open creates a run's artifact files under opt.Dir and opens the
// goldens it compares them with.
func Open(f *fixture.Fixture, opt Files) (_ *Streams, err error) {
	s := &Streams{f: f, dir: opt.Dir, st: opt.Stages, seals: opt.Seals, unsealed: opt.Unsealed}
	defer func() {
		if err != nil {
			s.Abort()
		}
	}()
	if s.dense, err = artifact.Create(filepath.Join(opt.Dir, artifact.DenseFile)); err != nil {
		return nil, err
	}
	if s.spill, err = os.CreateTemp(opt.Dir, "."+artifact.DenseFile+".spill-*"); err != nil {
		return nil, err
	}
	var denseGolden io.Reader
	dir := "" // the goldens' directory; "" without goldens
	if opt.Goldens != "" {
		dir = filepath.Join(opt.Goldens, filepath.FromSlash(f.GoldenDir()))
	}
	if s.trace, err = s.create(artifact.TraceFile, dir); err != nil {
		return nil, err
	}
	if dir != "" {
		s.cmp = &Compared{Root: opt.Goldens}
		if g := s.golden(&s.cmp.Dense, filepath.Join(dir, artifact.DenseFile)); g != nil {
			denseGolden = g
		}
		if g := s.golden(&s.cmp.Trace, filepath.Join(dir, artifact.TraceFile)); g != nil {
			s.traceF = artifact.NewTraceFollower(g)
		}
		if sr := f.SameRunAs; sr.Rung != "" {
			if g := s.golden(&s.cmp.Same, filepath.Join(opt.Goldens, filepath.FromSlash(sr.GoldenDir), artifact.TraceFile)); g != nil {
				s.sameF = artifact.NewTraceFollowerCut(g, f.Ticks)
			}
		}
	}
	s.table = dense.NewStream(s.spill, denseGolden)
	s.rows = newRows(s.table, s.st == nil)
	if denseGolden != nil {
		if s.through, err = s.create(artifact.DenseFile, dir); err != nil {
			return nil, err
		}
		s.throughDigest = s.sealDigest(s.through, filepath.Join(dir, artifact.DenseFile))
		var to io.Writer
		to, s.throughBehind = s.behind(s.throughDigest.w)
		if through, err := s.table.WriteThrough(to); err != nil || !through {
			s.throughBehind.Close()
			s.through.Abort()
			s.through, s.throughDigest, s.throughBehind = nil, nil, nil
			if err != nil {
				return nil, err
			}
		}
	}
	s.digests = map[string]*sealDigest{artifact.DenseFile: s.sealDigest(s.dense, ""), artifact.TraceFile: s.sealDigest(s.trace, filepath.Join(dir, artifact.TraceFile))}
	var traceOut io.Writer
	traceOut, s.traceBehind = s.behind(s.digests[artifact.TraceFile].w)
	if s.sink, err = newTraceSink(traceOut, TraceHeader(f), s.traceF, s.sameF); err != nil {
		return nil, err
	}
	s.sink.st = opt.Stages
	return s, nil
}

// create starts the artifact name in the run's directory: a twin of its
// golden in goldens (artifact.CreateTwin), which a run that passes need
// not write again, or, with goldens "", a plain file.
func (s *Streams) create(name, goldens string) (*artifact.File, error) {
	if goldens == "" {
		return artifact.Create(filepath.Join(s.dir, name))
	}
	return artifact.CreateTwin(filepath.Join(s.dir, name), filepath.Join(goldens, name))
}

// sealDigest is how the seal has an artifact's SHA-256: hashed as its bytes
// are written, or, for a twin of a golden the run's Seals found as sealed,
// taken from that check if the artifact ends as a link to the golden
// unchanged since, and otherwise left to the seal to read back.
type sealDigest struct {
	w      io.Writer      // what to write the artifact through
	hashed *seal.Digester // nil: the digest is the golden's, or read back
	file   *artifact.File
	golden seal.Verified // with hashed nil, the golden as the check found it
}

// sealDigest returns the digest of file, a twin of the golden at path (""
// for a file written as it comes).
func (s *Streams) sealDigest(file *artifact.File, golden string) *sealDigest {
	if s.unsealed {
		return &sealDigest{w: file, file: file}
	}
	if s.seals == nil {
		d := seal.NewDigester(file)
		return &sealDigest{w: d, hashed: d, file: file}
	}
	if v, ok := s.seals.Sealed(golden); ok && file.Twinned() {
		return &sealDigest{w: file, file: file, golden: v}
	}
	d := seal.NewDigester(file)
	return &sealDigest{w: d, hashed: d, file: file}
}

// sum returns the artifact's digest once it is in place, and false when
// only reading it back can tell: it was not hashed as written, and it is
// not the golden the check found as sealed.
func (d *sealDigest) sum() (string, bool) {
	if d.hashed != nil {
		return d.hashed.Sum(), true
	}
	if d.golden.Unchanged(d.file.Linked()) {
		return d.golden.Digest, true
	}
	return "", false
}

// behind returns what to write w through: in an untimed run a Behind
// writer (returned too, for Close), in a timed run w itself and nil.
func (s *Streams) behind(w io.Writer) (io.Writer, *artifact.Behind) {
	if s.st != nil {
		return w, nil
	}
	b := artifact.NewBehind(w)
	return b, b
}

// Records is the sink the engine emits the trace to, called once: it
// shows each record to the trace sink and then to also, a reader of the
// records alone that needs nothing of the world as it is when they are
// emitted (the watch's regime meter; nil for none). An untimed run shows
// them through a pipe, so that both read on the pipe's goroutine; a
// timed run shows them directly.
func (s *Streams) Records(also trace.Sink) trace.Sink {
	var both trace.Sink = Tee{s.sink, also}
	if also == nil {
		both = s.sink
	}
	if s.st != nil {
		return both
	}
	s.pipe = trace.NewPipe(both, func() error { return s.sink.err })
	return s.pipe
}

// TraceErr is the trace sink's first error so far: through the pipe, as
// soon as the pipe's goroutine has seen it, which may be some records
// after the one that caused it (at most the pipe's batches in flight,
// a few thousand records: within a tick in a city, many ticks in a small
// rung). The run checks it after every tick and returns no Result with
// it, so only how soon it stops differs; the error, the first, is the
// same either way.
func (s *Streams) TraceErr() error {
	if s.pipe != nil {
		return s.pipe.Err()
	}
	return s.sink.err
}

// DenseErr waits until the table has every row handed over, and returns
// its refusal of one, if it refused one, naming the file.
func (s *Streams) DenseErr() error {
	if err := s.rows.close(); err != nil {
		return fmt.Errorf("%s: %s: %w", s.f.Name(), artifact.DenseFile, err)
	}
	return nil
}

// drain waits until the trace sink has been shown every record emitted,
// after which the sink is the caller's goroutine's alone.
func (s *Streams) drain() error {
	if s.pipe == nil {
		return nil
	}
	return s.pipe.Close()
}

// golden opens a golden for reading, recording in o a file that does not
// exist or cannot be opened.
func (s *Streams) golden(o interface{ opened(string, error) }, name string) *os.File {
	g, err := os.Open(name)
	o.opened(name, err)
	if err != nil {
		return nil
	}
	s.open = append(s.open, g)
	return g
}

func (o *GoldenOutcome[T]) opened(name string, err error) {
	o.Path, o.Err = name, err
	o.Missing = errors.Is(err, fs.ErrNotExist)
}

// Finish writes the end of every artifact, puts them in place and returns
// how they compared with the goldens. columns is the dense header after
// tick. The table must have every row (denseErr).
func (s *Streams) Finish(columns []string) (*Compared, error) {
	defer s.Abort()
	c, err := s.table.Finish(columns, s.digests[artifact.DenseFile].w)
	if closeErr := s.throughBehind.Close(); err == nil && s.table.Through() {
		err = closeErr // the file written through is the run's, so its writes count
	}
	s.st.Lap(StageDense)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", s.f.Name(), artifact.DenseFile, err)
	}
	if s.table.Through() {
		s.dense.Abort()
		s.dense, s.digests[artifact.DenseFile] = s.through, s.throughDigest
	}
	err = s.drain()
	if err == nil {
		err = s.sink.flush()
	}
	if err == nil {
		err = s.traceBehind.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", s.f.Name(), artifact.TraceFile, err)
	}
	err = errors.Join(s.dense.Commit(), s.trace.Commit())
	s.st.Lap(StageWrite)
	if err != nil {
		return nil, err
	}
	if s.cmp == nil {
		return nil, nil
	}
	defer s.st.Lap(StageCompare)
	var malformed *dense.FormatError
	switch {
	case s.cmp.Dense.Missing || s.cmp.Dense.Err != nil:
	case c.Err != nil && !errors.As(c.Err, &malformed):
		s.cmp.Dense.Err = c.Err // the golden could not be read, which is not a malformed golden
	default:
		s.cmp.Dense.Result = c
	}
	if s.traceF != nil {
		s.cmp.Trace.Result, s.cmp.Trace.Err = s.traceF.Finish()
	}
	if s.sameF != nil {
		if s.cmp.Same.Result, err = s.sameF.Finish(); err != nil {
			s.cmp.Same.Err = fmt.Errorf("%s: %w", s.cmp.Same.Path, err)
		}
	}
	return s.cmp, nil
}

// Digested returns the digests of the artifacts finish put in place, by
// name, for seal.WriteDigested, which reads back those it lacks.
func (s *Streams) Digested() map[string]string {
	out := make(map[string]string, len(s.digests))
	for name, d := range s.digests {
		if sum, ok := d.sum(); ok {
			out[name] = sum
		}
	}
	return out
}

// Abort removes what is not in place and closes the goldens.
func (s *Streams) Abort() {
	s.drain()
	if s.rows != nil {
		s.rows.close()
	}
	s.traceBehind.Close()
	s.throughBehind.Close()
	for _, f := range []*artifact.File{s.dense, s.through, s.trace} {
		if f != nil {
			f.Abort()
		}
	}
	if s.spill != nil {
		s.spill.Close()
		os.Remove(s.spill.Name())
		s.spill = nil
	}
	for _, g := range s.open {
		g.Close()
	}
	s.open = nil
}

// TraceHeader is the header of a fixture's trace.
func TraceHeader(f *fixture.Fixture) trace.Header {
	return trace.Header{SeedID: f.SeedID, Branch: f.Branch, KeyframeEvery: f.Defines.TicksPerDay,
		Social: sim.TraceSocial(f.WorldConfig().Layers())}
}

// traceSink is the trace.Sink of a run: it encodes each record once (the
// engine's allocation-free encoder), writes the line to trace.jsonl,
// compares it with the goldens, shows it to the trace expectations whose
// range holds its tick, and drops it. Emit cannot fail, so the first error
// stops the sink and err keeps it; the run checks after every tick.
type traceSink struct {
	enc *trace.Encoder
	out io.Writer
	buf []byte
	// small is buf's own array (2×flushAt). A keyframe spells the world's
	// state, megabytes in a city, once a game day: it is spelt into an
	// array of its own, made at the size the last keyframe took (keyframe,
	// with an eighth more) and let go once written, so that no buffer of
	// a keyframe's size is kept between them. Kept, it was 2.6 MB of a
	// city's live heap all run; let go and grown back by doubling, it made
	// twice its size in garbage a keyframe.
	small     []byte
	keyframe  int
	followers []*artifact.TraceFollower
	chk       *expect.Run
	lines     int
	err       error
	st        *Stages // nil: untimed
}

var _ trace.Sink = (*traceSink)(nil)

func newTraceSink(out io.Writer, h trace.Header, followers ...*artifact.TraceFollower) (*traceSink, error) {
	enc, err := trace.NewEncoder(h)
	if err != nil {
		return nil, err
	}
	s := &traceSink{enc: enc, out: out, small: make([]byte, 0, 2*flushAt)}
	s.buf = s.small
	for _, f := range followers {
		if f != nil {
			s.followers = append(s.followers, f)
		}
	}
	s.buf = enc.AppendHeader(s.buf)
	s.compare(s.buf)
	return s, nil
}

func (s *traceSink) Emit(r trace.Record) {
	if s.err != nil {
		return
	}
	s.st.Lap(StageEngine)
	start := len(s.buf)
	keyframe := r.Body.Kind() == trace.KindKeyframe
	if keyframe && cap(s.buf)-start < s.keyframe {
		s.buf = append(make([]byte, 0, start+s.keyframe+s.keyframe/8), s.buf...)
	}
	if s.buf, s.err = s.enc.AppendRecord(s.buf, r); s.err != nil {
		return
	}
	s.st.Lap(StageSpell)
	line := s.buf[start:]
	if keyframe {
		s.keyframe = max(s.keyframe, len(line))
	}
	s.compare(line)
	s.st.Lap(StageCompare)
	if s.chk != nil && s.chk.Traces(r.Tick, string(r.Body.Kind())) {
		err := s.chk.TraceLine(r.Tick, string(r.Body.Kind()), line)
		s.st.Lap(StageExpect)
		if err != nil {
			s.err = fmt.Errorf("trace line %d: %w", s.lines, err)
			return
		}
	}
	if len(s.buf) >= flushAt {
		s.write()
		s.st.Lap(StageWrite)
	}
}

func (s *traceSink) compare(line []byte) {
	s.lines++
	for _, f := range s.followers {
		f.Line(line)
	}
}

func (s *traceSink) write() {
	if _, err := s.out.Write(s.buf); err != nil && s.err == nil {
		s.err = fmt.Errorf("write trace: %w", err)
	}
	s.buf = s.small[:0] // a keyframe's own array, if it was one, is let go
}

// flush writes what is gathered and returns the sink's first error.
func (s *traceSink) flush() error {
	if s.err == nil && len(s.buf) > 0 {
		s.write()
	}
	return s.err
}

// Header is the trace's header line, as the run's trace begins with it.
func (s *Streams) Header() []byte { return s.sink.enc.AppendHeader(nil) }

// Check has the trace sink show every record in range to the fixture's
// expectations, from the first record emitted on.
func (s *Streams) Check(chk *expect.Run) { s.sink.chk = chk }

// Put hands the table tick t's row (Recorder.Record), and returns the
// cells the next Record is to fill (Recorder.Fill): see rows.put.
func (s *Streams) Put(t int64, names []string, cells []dense.Cell) ([]dense.Cell, error) {
	return s.rows.put(t, names, cells)
}

// Table is the dense table the rows go to: its golden header's names and
// width, for the Recorder, and the rows it has so far.
func (s *Streams) Table() *dense.Stream { return s.table }

// Dir is the directory the run writes into.
func (s *Streams) Dir() string { return s.dir }

// Unsealed reports whether the run writes no manifest (Files.Unsealed).
func (s *Streams) Unsealed() bool { return s.unsealed }

// Stages is the clock the streams charge (Files.Stages), nil untimed.
func (s *Streams) Stages() *Stages { return s.st }
