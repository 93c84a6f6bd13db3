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

// NewEncoder returns an encoder for the trace file that h heads, in
// version 3. The header is checked here, once.
func NewEncoder(h Header) (*Encoder, error) {
	head, err := canon.AppendMarshal(nil, h.Object())
	if err != nil {
		return nil, fmt.Errorf("trace header: %w", err)
	}
	return &Encoder{header: append(head, '\n'), line: line{branch: []byte(runBranch), head: []byte(`{"branch":` + runBranch)}}, nil
}

// runBranch is how a record of a run spells its branch key: the index of
// the run's one branch in the header's branches.
const runBranch = "0"

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

// line writes one record's object. Each kind's encode method writes it
// member by member in sorted key order — the envelope's members (branch,
// kind, seq, tick) in their places among the kind's own — and the first
// value that has no canonical spelling stops the line with an error naming
// its path. A member is written from its token, the text before its value
// exactly as it appears in the line: `{"branch":` opens an object with its
// first member, `,"site":` follows another. Keys are the encoders' own
// constants, plain identifiers, so a token is copied as it is, and the key
// is cut from it only to name an error.
type line struct {
	buf    []byte
	err    error
	seq    int64
	tick   int64
	branch []byte       // the branch key: its index in the header's branches
	head   []byte       // `{"branch":` and the branch: how most lines begin
	path   []canon.Step // the nested objects and arrays being written
	key    []byte       // scratch for a roll key that needs escaping
	// rollTail caches the members of a rule's roll object between its
	// natural value and its value — `,"pinned":false,"purpose":"tell",
	// "threshold":0.5,"value":` — spelt once for the last (pinned,
	// purpose, threshold); thresholdHead caches an encounter roll's
	// `{"threshold":0.02,"value":`, spelt once for the last threshold.
	rollTail struct {
		pinned    bool
		purpose   string
		threshold uint64
		text      []byte
	}
	// keyHead is a roll key's spelling up to its participants, for the
	// last (purpose, tick, site), and whether it needs no escape.
	keyHead struct {
		purpose, site string
		tick          int64
		plain         bool
		text          []byte
	}
	thresholdHead struct {
		threshold uint64
		text      []byte
	}
	// seqs and ticks keep the spelling of the last sequence number and
	// tick written: a record's seq is nearly always the last plus one,
	// and its tick the last one.
	seqs, ticks counter
}

// counter spells a number that moves little between records: the same
// number is copied, the next one is made by adding one to the spelling's
// digits, and any other is spelled afresh.
type counter struct {
	n    int64
	text []byte // empty until the first number
}

// spell returns the decimal spelling of n. The carry serves a first
// number of 1 as well: a counter with no spelling yet has n 0, and
// carrying its empty spelling gives "1".
func (c *counter) spell(n int64) []byte {
	switch {
	case len(c.text) > 0 && n == c.n:
	case n == c.n+1 && n > 0:
		c.n = n
		i := len(c.text) - 1
		for ; i >= 0 && c.text[i] == '9'; i-- {
			c.text[i] = '0'
		}
		if i >= 0 {
			c.text[i]++
		} else {
			c.text = append(c.text, 0)
			copy(c.text[1:], c.text)
			c.text[0] = '1'
		}
	default:
		c.n, c.text = n, strconv.AppendInt(c.text[:0], n, 10)
	}
	return c.text
}

func (l *line) start(dst []byte, r Record) {
	l.buf, l.err = dst, nil
	l.seq, l.tick = r.Seq, r.Tick
	l.path = l.path[:0]
}

// tokenKey cuts the key from a member token.
func tokenKey(token string) string { return token[2 : len(token)-2] }

// fail records the first error, at the current path and then at step.
func (l *line) fail(err error, step canon.Step) {
	if l.err == nil {
		l.err = canon.ErrorAt(err, append(l.path[:len(l.path):len(l.path)], step)...)
	}
}

// raw writes text that needs no spelling: a token, a closing brace.
func (l *line) raw(text string) { l.buf = append(l.buf, text...) }

// object writes the token of an object-valued member; the object's first
// member opens it and end closes it.
func (l *line) object(token string) {
	l.raw(token)
	l.path = append(l.path, canon.KeyStep(tokenKey(token)))
}

func (l *line) end() {
	l.buf = append(l.buf, '}')
	l.path = l.path[:len(l.path)-1]
}

// array starts the array-valued member token; element precedes its i-th
// object (whose first member opens it), endElement closes that object and
// endArray the array.
func (l *line) array(token string) {
	l.raw(token)
	l.buf = append(l.buf, '[')
	l.path = append(l.path, canon.KeyStep(tokenKey(token)))
}

func (l *line) element(i int) {
	if i > 0 {
		l.buf = append(l.buf, ',')
	}
	l.path = append(l.path, canon.IndexStep(i))
}

func (l *line) endElement() { l.end() }

func (l *line) endArray() {
	l.buf = append(l.buf, ']')
	l.path = l.path[:len(l.path)-1]
}

func (l *line) str(token, v string) {
	l.raw(token)
	var err error
	if l.buf, err = canon.AppendString(l.buf, v); err != nil {
		l.fail(err, canon.KeyStep(tokenKey(token)))
	}
}

// strings writes the member token as an array of strings.
func (l *line) strings(token string, vs []string) {
	l.raw(token)
	l.buf = append(l.buf, '[')
	for i, v := range vs {
		if i > 0 {
			l.buf = append(l.buf, ',')
		}
		var err error
		if l.buf, err = canon.AppendString(l.buf, v); err != nil {
			l.path = append(l.path, canon.KeyStep(tokenKey(token)))
			l.fail(err, canon.IndexStep(i))
			l.path = l.path[:len(l.path)-1]
		}
	}
	l.buf = append(l.buf, ']')
}

func (l *line) boolean(token string, v bool) {
	l.raw(token)
	l.buf = strconv.AppendBool(l.buf, v)
}

func (l *line) integer(token string, v int64) {
	l.raw(token)
	l.buf = strconv.AppendInt(l.buf, v, 10)
}

func (l *line) number(token string, v float64) {
	l.raw(token)
	l.floatValue(v, tokenKey(token))
}

// floatValue writes v where the value of member key is due, or fails:
// JSON has no spelling for NaN or the infinities.
func (l *line) floatValue(v float64, key string) {
	switch {
	case math.IsNaN(v):
		l.fail(canon.ErrNaN, canon.KeyStep(key))
	case math.IsInf(v, 0):
		l.fail(canon.ErrInf, canon.KeyStep(key))
	default:
		l.buf = canon.AppendFloat(l.buf, v)
	}
}

// The envelope: what every record carries besides its kind's members.

// openBranch opens a line whose first member is the branch.
func (l *line) openBranch() { l.buf = append(l.buf, l.head...) }

func (l *line) branchField(token string) {
	l.raw(token)
	l.buf = append(l.buf, l.branch...)
}

func (l *line) seqField(token string) {
	l.raw(token)
	l.buf = append(l.buf, l.seqs.spell(l.seq)...)
}

func (l *line) tickField(token string) {
	l.raw(token)
	l.buf = append(l.buf, l.ticks.spell(l.tick)...)
}

// rollKey writes the human form of a roll's key as the string member
// token. The form is written straight into the line and escaped only if
// it must be. Its head, `"<purpose>@<tick>/<site>/[`, is the same for
// every pair at a site in a tick, so it is kept spelt (and checked
// plain) for the last (purpose, tick, site): only the participants are
// copied and checked for each key.
func (l *line) rollKey(token string, r *Roll) {
	l.raw(token)
	k := &r.Roll.Key
	h := &l.keyHead
	if h.text == nil || h.tick != k.Tick || h.site != k.Site || h.purpose != k.Purpose {
		h.text = append(h.text[:0], '"')
		h.text = append(h.text, k.Purpose...)
		h.text = append(h.text, '@')
		h.text = strconv.AppendInt(h.text, k.Tick, 10)
		h.text = append(h.text, '/')
		h.text = append(h.text, k.Site...)
		h.text = append(h.text, '/', '[')
		h.purpose, h.tick, h.site, h.plain = k.Purpose, k.Tick, k.Site, canon.Plain(h.text[1:])
	}
	from := len(l.buf)
	l.buf = append(l.buf, h.text...)
	plain := h.plain
	for i, p := range k.Participants {
		if i > 0 {
			l.buf = append(l.buf, ',')
		}
		at := len(l.buf)
		l.buf = append(l.buf, p...)
		plain = plain && canon.Plain(l.buf[at:])
	}
	if plain {
		l.buf = append(l.buf, ']', '"')
		return
	}
	l.buf = append(l.buf, ']')
	l.key = append(l.key[:0], l.buf[from+1:]...)
	var err error
	if l.buf, err = canon.AppendStringBytes(l.buf[:from], l.key); err != nil {
		l.fail(err, canon.KeyStep(tokenKey(token)))
	}
}

// roll writes a rule's roll object, every member spelt, as the member
// token.
func (l *line) roll(token string, r *Roll) {
	l.object(token)
	l.rollKey(`{"key":`, r)
	l.raw(`,"natural":`)
	natural := len(l.buf)
	l.floatValue(r.Roll.Natural, "natural")
	naturalEnd := len(l.buf)
	l.rollMiddle(r)
	if math.Float64bits(r.Roll.Value) == math.Float64bits(r.Roll.Natural) {
		// Unpinned, the value is the natural value: copy its spelling.
		l.buf = append(l.buf, l.buf[natural:naturalEnd]...)
	} else {
		l.floatValue(r.Roll.Value, "value")
	}
	l.end()
}

// rollMiddle writes a roll's members from pinned to the value's token.
func (l *line) rollMiddle(r *Roll) {
	t := &l.rollTail
	bits := math.Float64bits(r.Threshold)
	if t.text != nil && t.pinned == r.Roll.Pinned && t.threshold == bits && t.purpose == r.Roll.Key.Purpose {
		l.buf = append(l.buf, t.text...)
		return
	}
	from := len(l.buf)
	l.boolean(`,"pinned":`, r.Roll.Pinned)
	l.str(`,"purpose":`, r.Roll.Key.Purpose)
	l.number(`,"threshold":`, r.Threshold)
	l.raw(`,"value":`)
	if l.err == nil {
		t.pinned, t.purpose, t.threshold = r.Roll.Pinned, r.Roll.Key.Purpose, bits
		t.text = append(t.text[:0], l.buf[from:]...)
	}
}

// encounterRoll writes an encounter's roll object as the member token,
// without what the record spells elsewhere: the key (the encounter's id
// is the key), the purpose when the id spells it (purposeInID), and the
// natural value and pinned flag when the roll is not pinned and its value
// is its natural one (unpinnedRoll). Nearly every roll of a run is
// `{"threshold":<t>,"value":<v>}`, and the threshold is nearly always
// the last one's, so that head is kept spelt.
func (l *line) encounterRoll(token string, r *Roll, purposeInID bool) {
	l.object(token)
	if unpinnedRoll(&r.Roll) && purposeInID {
		t := &l.thresholdHead
		bits := math.Float64bits(r.Threshold)
		if t.text != nil && t.threshold == bits {
			l.buf = append(l.buf, t.text...)
		} else {
			from := len(l.buf)
			l.number(`{"threshold":`, r.Threshold)
			l.raw(`,"value":`)
			if l.err == nil {
				t.threshold, t.text = bits, append(t.text[:0], l.buf[from:]...)
			}
		}
	} else {
		// The tokens are constants, chosen, not built: a concatenation
		// would allocate for every such roll.
		purpose, threshold := `{"purpose":`, `{"threshold":`
		if !unpinnedRoll(&r.Roll) {
			l.number(`{"natural":`, r.Roll.Natural)
			l.boolean(`,"pinned":`, r.Roll.Pinned)
			purpose, threshold = `,"purpose":`, `,"threshold":`
		}
		if !purposeInID {
			l.str(purpose, r.Roll.Key.Purpose)
			threshold = `,"threshold":`
		}
		l.number(threshold, r.Threshold)
		l.raw(`,"value":`)
	}
	l.floatValue(r.Roll.Value, "value")
	l.end()
}
