package expect

import (
	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/expr"
	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/social"
)

// Pos is a position in a fixture file (1-based line and column, columns
// counted in bytes).
type Pos struct {
	Line, Column int
}

// PosOf returns the position of a node, following aliases.
func PosOf(n *yaml.Node) Pos {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil {
		return Pos{}
	}
	return Pos{Line: n.Line, Column: n.Column}
}

// When is the inclusive tick range an expectation is checked over.
type When struct {
	From, To int64
}

// Has reports whether tick t is in the range.
func (w When) Has(t int64) bool { return t >= w.From && t <= w.To }

// Expectation is one item of a fixture's expect list, decoded.
type Expectation struct {
	Index int
	Kind  string // the registry name, e.g. "belief"
	Pos   Pos    // of the list item
	When  When
	// Timed is set when the item gave its own range (at, from or to):
	// a failure judged over it is placed at its first tick.
	Timed bool
	Check Check
}

// Timing is the range an expectation covers when the item gives no at,
// from, to or always.
type Timing int

const (
	// AtEnd checks the last tick only (state kinds).
	AtEnd Timing = iota
	// WholeRun checks every tick, or every record, of the run (stream kinds).
	WholeRun
	// WholeRunOnly always covers the whole run; timing keys are refused.
	WholeRunOnly
)

// Kind is one expectation kind: the key that selects it in an expect item,
// its default timing, and the decoder of its body.
type Kind interface {
	Name() string
	Timing() Timing
	// Decode reads the kind's body. Problems go to d with their positions;
	// the Check returned is then ignored.
	Decode(d Decoder, body *yaml.Node, path string) Check
}

// Check is a decoded expectation, ready to run. It also implements one of
// TickCheck, TraceCheck or EventCheck, which says when the runner calls it.
type Check interface {
	// Unit names what the check counts as examined, e.g. "ticks" or
	// "encounter records"; it appears in the "checked nothing" failure.
	Unit() string
	// Finish is called once after the run with everything observed, to
	// judge what only the whole can show (a count of matching records).
	Finish(o *Outcome)
}

// TickCheck runs at every tick of its range against the world.
type TickCheck interface {
	Check
	AtTick(w World, o *Outcome)
}

// TraceCheck sees every trace record whose tick is in its range, one at a
// time, in file order.
type TraceCheck interface {
	Check
	ObserveTrace(r Record, o *Outcome)
}

// KindedTraceCheck is a TraceCheck that reads records of one kind only,
// so a runner need not decode a record of another kind for it (decoding
// is most of what a streamed run spends on its trace expectations).
type KindedTraceCheck interface {
	TraceCheck
	TraceKind() string
}

// EventCheck sees every canonical event whose tick is in its range, one at
// a time, in log order.
type EventCheck interface {
	Check
	ObserveEvent(r events.Record, o *Outcome)
}

// Record is one trace record as a reader of trace.jsonl sees it: the JSON
// object decoded into maps, []any, strings, float64 numbers and bools.
type Record map[string]any

// Tick returns the record's tick.
func (r Record) Tick() int64 {
	t, _ := r["tick"].(float64)
	return int64(t)
}

// World is what a tick check may read of the run at the current tick. The
// store is the live one: only duplicate_rejected calls its creating paths,
// to prove they refuse.
type World interface {
	expr.Env
	Store() *claims.Store
	// NPCs lists the cast, sorted.
	NPCs() []string
	Alive(npc string) bool
	// At is the NPC's location now ("" when nowhere).
	At(npc string) string
	// Resident is the hold the NPC lives in: its home's hold ("" when none).
	Resident(npc string) string
	// The social state, live: a check reads it and never writes it.
	Grudges() *social.Grudges
	Reputation() *social.Reputation
	Ledger() *social.Ledger
	// Placement is where an NPC's base schedule puts it now, where it is,
	// and the override in force (Tier 4a).
	Placement(npc string) sim.Placement
	// Roles is every role, live; References lists every place in the live
	// state that names a role, and what each resolves to (Tier 5).
	Roles() *roles.Book
	References(role string) []roles.Reference
}

// TickKeyPattern is what a tick written as a mapping key looks like:
// decimal digits. Decoder.TickKey reads keys by it; a kind states
// TickKeySchemaPattern in the schema of its keys.
const TickKeyPattern = `^[0-9]+$`

// LastTick is the last tick of the longest run the loader accepts
// (fixture.MaxTicks − 1, which the fixture package holds it to). The
// schema cannot know a fixture's own length, so it bounds every tick by
// this one.
const LastTick = 999_999

// TickKeySchemaPattern is TickKeyPattern as the schema states it: at most
// LastTick, so at most six digits after any leading zeros.
const TickKeySchemaPattern = `^0*[0-9]{1,6}$`

// TickSchema is a tick as the schema states it: an integer from 0 to
// LastTick.
func TickSchema() *jsonschema.Schema {
	return jsonschema.Integer().Range(0, LastTick)
}

// Field is one key a mapping may hold, for Decoder.Object. Doc and Schema
// are read only when the fixture schema is generated: Doc describes the
// key; Schema adds to what the decode function's accessors accept (a
// fixed set of values, bounds) or, when it has a type of its own, stands
// for a value whose decoding branches on the node's shape.
type Field struct {
	Name     string
	Required bool
	Doc      string
	Schema   *jsonschema.Schema
	Decode   func(v *yaml.Node, path string)
}

// Decoder is what a kind needs of the fixture loader: positioned decoding
// that collects errors (every accessor records an error and returns a zero
// value on a bad node), and the ids the fixture declares. Paths are the
// field paths shown in errors, e.g. expect[3].belief.confidence.
type Decoder interface {
	Errorf(n *yaml.Node, path, format string, args ...any)
	// Errors is how many errors have been recorded so far.
	Errors() int
	// Object decodes a mapping whose keys must be among fields: an unknown
	// key is an error with a "did you mean" suggestion.
	Object(n *yaml.Node, path string, fields ...Field) bool
	List(n *yaml.Node, path string, each func(i int, v *yaml.Node, path string))
	// Entries decodes a mapping whose keys are ids, in document order.
	Entries(n *yaml.Node, path string, each func(k, v *yaml.Node, path string))
	// Exclusive refuses mapping n when it holds one of these keys beside
	// one of those, with message, and reports whether it did; a key
	// written "name: true" or "name: false" counts only while it holds
	// that boolean. The fixture schema learns the same rule from the call,
	// so a kind states each pair of keys that cannot stand together here
	// rather than in a condition of its own.
	Exclusive(n *yaml.Node, path, message string, these, those []string) bool
	// Needs refuses mapping n when it holds none of the alternatives (a
	// key, or keys joined by " and " that must all be there), with
	// message, and reports whether it did: a check that would check
	// nothing. The schema learns the rule from the call, as from
	// Exclusive.
	Needs(n *yaml.Node, path, message string, alternatives ...string) bool
	// Requires refuses mapping n when it holds one of dependents without
	// key, with message, and reports whether it did; the schema learns
	// the rule from the call, as from Exclusive.
	Requires(n *yaml.Node, path, message, key string, dependents ...string) bool
	Str(n *yaml.Node, path string) string
	Ident(n *yaml.Node, path string) string
	Int(n *yaml.Node, path string) (int64, bool)
	Bool(n *yaml.Node, path string) (bool, bool)
	// Null reports whether n is null, where the caller accepts null.
	Null(n *yaml.Node) bool
	Float(n *yaml.Node, path string) (float64, bool)
	// Tick decodes a tick inside the run.
	Tick(n *yaml.Node, path string) (int64, bool)
	// TickKey decodes a mapping key that is a tick inside the run: its
	// text, quoted or not, in the decimal digits of TickKeyPattern. (JSON,
	// and so an editor checking the fixture schema, has no keys but
	// strings: a key is read by its text.)
	TickKey(n *yaml.Node, path string) (int64, bool)
	// Number decodes a literal, or a string as an expression whose ids are
	// checked and whose constant parts are folded (NaN refused).
	Number(n *yaml.Node, path string) *Number
	// Expression decodes a string as a checked expression.
	Expression(n *yaml.Node, path string) *expr.Expr

	NPC(n *yaml.Node, path string) string
	NPCList(n *yaml.Node, path string) []string
	// Entity decodes a cast member or the player.
	Entity(n *yaml.Node, path string) string
	// Party decodes an entity or a role reference (role:<id>): who an
	// obligation is owed by or to.
	Party(n *yaml.Node, path string) string
	// Dimension decodes a reputation dimension (standing, reliability).
	Dimension(n *yaml.Node, path string) string
	Location(n *yaml.Node, path string) string
	Hold(n *yaml.Node, path string) string
	// Claim decodes the id of a claim the fixture's events mint.
	Claim(n *yaml.Node, path string) string
	// ClaimKind is the event kind of a known claim ("" when unknown).
	ClaimKind(claim string) string
	// VariantID decodes <claim>#v<n> of a known claim.
	VariantID(n *yaml.Node, path string) string
	// Role decodes the id of a declared role (steward, not role:steward).
	Role(n *yaml.Node, path string) string
	// SlotValues decodes expected slots of a claim of an event kind.
	SlotValues(n *yaml.Node, path, eventKind string) []SlotValue
	// SlotNames lists, sorted, the slots a claim of an event kind has
	// (none for a kind the loader does not know).
	SlotNames(eventKind string) []string
	// EventKinds lists the canonical event kinds.
	EventKinds() []string
	// Suggest returns ` (did you mean "x"?)` for a close candidate, else "".
	Suggest(name string, candidates []string) string
}

// SlotValue is one expected slot of a claim variant, with where it was
// written.
type SlotValue struct {
	Slot, Value string
	Pos         Pos
}
