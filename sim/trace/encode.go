package trace

import (
	"fmt"
	"math"
	"strconv"

	"github.com/chronicle/ladder/sim/canon"
)

// Encoder spells records as the lines of one trace file: canonical JSON,
// byte for byte what canon.Marshal writes for the same object, with a
// newline after each line. It allocates nothing per record once the
// buffer it appends to has room, so a run can stream its trace to a file
// at the speed it derives it. An Encoder is not safe for concurrent use.
type Encoder struct {
	header []byte // the header line, newline included
	line   line
}

// NewEncoder returns an encoder for the trace file that h heads. The
// header is checked here, once: every record repeats its branch.
func NewEncoder(h Header) (*Encoder, error) {
	head, err := canon.AppendMarshal(nil, h.Object())
	if err != nil {
		return nil, fmt.Errorf("trace header: %w", err)
	}
	branch, err := canon.AppendMarshal(nil, branchObject(h.Branch))
	if err != nil {
		return nil, fmt.Errorf("trace header: %w", err)
	}
	return &Encoder{header: append(head, '\n'), line: line{branch: branch}}, nil
}

// AppendHeader appends the header line.
func (e *Encoder) AppendHeader(dst []byte) []byte { return append(dst, e.header...) }

// AppendRecord appends r as one line. A record with no canonical spelling
// (a NaN, invalid UTF-8, a rule value named twice) is an error naming the
// record and the JSON path of the offending value, and dst comes back at
// its original length.
func (e *Encoder) AppendRecord(dst []byte, r Record) ([]byte, error) {
	l := &e.line
	l.start(dst, r)
	r.Body.encode(l)
	out, err := l.buf, l.err
	l.buf = nil // do not keep the caller's memory alive
	if err != nil {
		return dst, fmt.Errorf("trace record %d (tick %d, %s): %w", r.Seq, r.Tick, r.Body.Kind(), err)
	}
	return append(out, '\n'), nil
}

// line writes one record's object. Each kind's encode method calls it
// field by field in sorted key order — the envelope fields (branch, kind,
// seq, tick) in their places among the kind's own — and the first value
// that has no canonical spelling stops the line with an error naming its
// path. Keys are the encoders' own constants, plain identifiers, written
// as they are; every value goes through canon's spelling.
type line struct {
	buf    []byte
	err    error
	first  bool // the next member opens its object
	seq    int64
	tick   int64
	kind   Kind
	branch []byte       // the branch object, spelled once per file
	path   []canon.Step // the nested objects and arrays being written
	key    []byte       // scratch for a roll key's human form
	// threshold caches the spelling of the last roll threshold: a run
	// compares nearly every roll with the same probability.
	threshold struct {
		bits uint64
		text []byte
	}
}

func (l *line) start(dst []byte, r Record) {
	l.buf, l.err, l.first = dst, nil, true
	l.seq, l.tick, l.kind = r.Seq, r.Tick, r.Body.Kind()
	l.path = l.path[:0]
}

// fail records the first error at the current path plus the given steps.
func (l *line) fail(err error, steps ...canon.Step) {
	if l.err == nil {
		l.err = canon.ErrorAt(err, append(l.path[:len(l.path):len(l.path)], steps...)...)
	}
}

// member writes the separator and "key": for the next member.
func (l *line) member(key string) {
	if !l.first {
		l.buf = append(l.buf, ',')
	}
	l.first = false
	l.buf = append(l.buf, '"')
	l.buf = append(l.buf, key...)
	l.buf = append(l.buf, '"', ':')
}

// open starts the record's object, or an object inside an array.
func (l *line) open() {
	l.buf = append(l.buf, '{')
	l.first = true
}

func (l *line) close() {
	l.buf = append(l.buf, '}')
	l.first = false
}

// object starts the object-valued member key; end closes it.
func (l *line) object(key string) {
	l.member(key)
	l.path = append(l.path, canon.KeyStep(key))
	l.open()
}

func (l *line) end() {
	l.close()
	l.path = l.path[:len(l.path)-1]
}

// array starts the array-valued member key; element opens its i-th
// object and endArray closes the array.
func (l *line) array(key string) {
	l.member(key)
	l.path = append(l.path, canon.KeyStep(key))
	l.buf = append(l.buf, '[')
}

func (l *line) element(i int) {
	if i > 0 {
		l.buf = append(l.buf, ',')
	}
	l.path = append(l.path, canon.IndexStep(i))
	l.open()
}

func (l *line) endElement() { l.end() }

func (l *line) endArray() {
	l.buf = append(l.buf, ']')
	l.first = false
	l.path = l.path[:len(l.path)-1]
}

func (l *line) str(key, v string) {
	if l.err != nil {
		return
	}
	l.member(key)
	l.stringValue(v, canon.KeyStep(key))
}

// strings writes the member key as an array of strings.
func (l *line) strings(key string, vs []string) {
	if l.err != nil {
		return
	}
	l.member(key)
	l.path = append(l.path, canon.KeyStep(key))
	l.buf = append(l.buf, '[')
	for i, v := range vs {
		if i > 0 {
			l.buf = append(l.buf, ',')
		}
		l.stringValue(v, canon.IndexStep(i))
	}
	l.buf = append(l.buf, ']')
	l.path = l.path[:len(l.path)-1]
}

// stringValue writes v where a value is due, or fails at step.
func (l *line) stringValue(v string, step canon.Step) {
	var err error
	if l.buf, err = canon.AppendString(l.buf, v); err != nil {
		l.fail(err, step)
	}
}

func (l *line) boolean(key string, v bool) {
	l.member(key)
	l.buf = strconv.AppendBool(l.buf, v)
}

func (l *line) integer(key string, v int64) {
	l.member(key)
	l.buf = strconv.AppendInt(l.buf, v, 10)
}

func (l *line) number(key string, v float64) {
	if l.err != nil {
		return
	}
	l.member(key)
	l.floatValue(key, v)
}

// floatValue writes v where a value is due, or fails: JSON has no
// spelling for NaN or the infinities.
func (l *line) floatValue(key string, v float64) {
	switch {
	case math.IsNaN(v):
		l.fail(canon.ErrNaN, canon.KeyStep(key))
	case math.IsInf(v, 0):
		l.fail(canon.ErrInf, canon.KeyStep(key))
	default:
		l.buf = canon.AppendFloat(l.buf, v)
	}
}

// The envelope: what every record carries besides its kind's fields.

func (l *line) branchField() {
	l.member("branch")
	l.buf = append(l.buf, l.branch...)
}

func (l *line) kindField() {
	l.member("kind")
	l.buf = append(l.buf, '"')
	l.buf = append(l.buf, l.kind...)
	l.buf = append(l.buf, '"')
}

func (l *line) seqField()  { l.integer("seq", l.seq) }
func (l *line) tickField() { l.integer("tick", l.tick) }

// rollKey writes the human form of a roll's key as the string member key
// and returns where its spelling (quotes included) lies in the buffer, so
// a record that repeats it (an encounter's id) can copy it.
func (l *line) rollKey(key string, r Roll) (from, to int) {
	if l.err != nil {
		return 0, 0
	}
	l.member(key)
	l.key = r.Roll.Key.AppendString(l.key[:0])
	from = len(l.buf)
	var err error
	if l.buf, err = canon.AppendStringBytes(l.buf, l.key); err != nil {
		l.fail(err, canon.KeyStep(key))
		return 0, 0
	}
	return from, len(l.buf)
}

// roll writes the roll object. keyFrom and keyTo locate the key's
// spelling when the record has already written it (an encounter's id);
// both are zero otherwise.
func (l *line) roll(r Roll, keyFrom, keyTo int) {
	if l.err != nil {
		return
	}
	l.object("roll")
	if keyTo > keyFrom {
		l.member("key")
		l.buf = append(l.buf, l.buf[keyFrom:keyTo]...)
	} else {
		l.rollKey("key", r)
	}
	l.member("natural")
	natural := len(l.buf)
	l.floatValue("natural", r.Roll.Natural)
	naturalEnd := len(l.buf)
	l.boolean("pinned", r.Roll.Pinned)
	l.str("purpose", r.Roll.Key.Purpose)
	l.member("threshold")
	l.cachedFloat("threshold", r.Threshold)
	l.member("value")
	if math.Float64bits(r.Roll.Value) == math.Float64bits(r.Roll.Natural) {
		// Unpinned, the value is the natural value: copy its spelling.
		l.buf = append(l.buf, l.buf[natural:naturalEnd]...)
	} else {
		l.floatValue("value", r.Roll.Value)
	}
	l.end()
}

// cachedFloat is floatValue for a number that repeats from record to
// record, such as the probability nearly every roll of a run is compared
// with: it is spelled once and copied after.
func (l *line) cachedFloat(key string, v float64) {
	bits := math.Float64bits(v)
	if l.threshold.text != nil && l.threshold.bits == bits {
		l.buf = append(l.buf, l.threshold.text...)
		return
	}
	from := len(l.buf)
	l.floatValue(key, v)
	if l.err == nil {
		l.threshold.bits, l.threshold.text = bits, append(l.threshold.text[:0], l.buf[from:]...)
	}
}
