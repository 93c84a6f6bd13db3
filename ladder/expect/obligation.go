package expect

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/social"
)

// obligation checks the obligation a favour issued (decision 0017) at
// every tick of its range: that it exists (or, with absent: true, that it
// does not — before the favour, or with the obligations rule off) and that
// its state (issued, fulfilled, violated), creditor and debtor are the ones
// given; a creditor or debtor may be an office, role:<id> (decision 0022).
// It examines ticks.
//
//	obligation: {favour: favour@3, state: violated, creditor: ria, debtor: player}
type obligationKind struct{}

func (obligationKind) Name() string   { return "obligation" }
func (obligationKind) Timing() Timing { return AtEnd }
func (obligationKind) Doc() string {
	return "the obligation a favour issued (or absent: true): its state, creditor and debtor; at the last tick unless timed"
}

type obligationCheck struct {
	favour           string
	at               Pos
	absent           *Pos
	state            *posString
	creditor, debtor *posString
}

// obligationStates are the states an obligation can be in, the engine's
// list (social.ObligationStates) as text.
var obligationStates = texts(social.ObligationStates())

func (obligationKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &obligationCheck{at: PosOf(n)}
	d.Object(n, path,
		Field{Name: "favour", Required: true, Doc: "the favour event that issued the obligation", Decode: func(v *yaml.Node, p string) {
			c.favour = d.Claim(v, p)
			if k := d.ClaimKind(c.favour); c.favour != "" && k != "" && k != sim.Favour {
				d.Errorf(v, p, "%s is a %s, not a favour: an obligation is named by the favour that issued it", c.favour, k)
			}
		}},
		Field{Name: "absent", Doc: "true: no such obligation (no other field may be given)", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Bool(v, p); ok && !x {
				d.Errorf(v, p, "absent: false checks nothing; remove it")
			}
			at := PosOf(v)
			c.absent = &at
		}},
		Field{Name: "state", Doc: "the obligation's state", Schema: jsonschema.Enum(obligationStates...), Decode: func(v *yaml.Node, p string) {
			s := d.Str(v, p)
			if s != "" && !slices.Contains(obligationStates, s) {
				d.Errorf(v, p, "unknown obligation state %q%s (states: %s)", s, d.Suggest(s, obligationStates), strings.Join(obligationStates, ", "))
				return
			}
			c.state = &posString{s, PosOf(v)}
		}},
		Field{Name: "creditor", Doc: "who is owed: an NPC, player, or an office (role:<id>)", Decode: func(v *yaml.Node, p string) {
			c.creditor = &posString{d.Party(v, p), PosOf(v)}
		}},
		Field{Name: "debtor", Doc: "who owes: an NPC, player, or an office (role:<id>)", Decode: func(v *yaml.Node, p string) {
			c.debtor = &posString{d.Party(v, p), PosOf(v)}
		}},
	)
	d.Exclusive(n, path, "absent: true cannot be combined with checks of the obligation's fields", []string{"absent"}, []string{"state", "creditor", "debtor"})
	return c
}

func (c *obligationCheck) Unit() string { return "ticks" }

func (c *obligationCheck) Subject() Subject { return Subject{"social", "obligation/" + c.favour} }

// Finish fails an obligation's absence in a world that issues none.
func (c *obligationCheck) Finish(o *Outcome) {
	if c.absent != nil && !o.Failed() && o.Examined > 0 {
		o.needSource(*c.absent, c.Unit(), "obligations")
	}
}

func (c *obligationCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t := w.Tick()
	id := social.ObligationID(c.favour)
	ob, ok := w.Ledger().Get(id)
	if c.absent != nil {
		if ok {
			o.Fail(t, *c.absent, "%s exists (%s, owed by %s to %s), want none", id, ob.State, ob.Debtor, ob.Creditor)
		}
		return
	}
	switch {
	case !ok:
		o.Fail(t, c.at, "%s does not exist", id)
	case c.state != nil && string(ob.State) != c.state.v:
		o.Fail(t, c.state.at, "%s.state = %s (since tick %d, by %s), want %s", id, ob.State, ob.Since, ob.Cause, c.state.v)
	case c.creditor != nil && ob.Creditor != c.creditor.v:
		o.Fail(t, c.creditor.at, "%s.creditor = %s, want %s", id, ob.Creditor, c.creditor.v)
	case c.debtor != nil && ob.Debtor != c.debtor.v:
		o.Fail(t, c.debtor.at, "%s.debtor = %s, want %s", id, ob.Debtor, c.debtor.v)
	}
}
