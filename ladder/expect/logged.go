package expect

import "gopkg.in/yaml.v3"

// logged_first checks, in the trace as it streams, that a claim hangs off
// its canonical event: every belief and transmission record about the
// claim comes after the event record that appended the event it is named
// by — "the escalation is in the log first; no orphan beliefs" (decision
// 0013). It examines the belief and transmission records of the claim; a
// claim with none has checked nothing.
//
//	logged_first: {claim: "escalation@40:lucan:player"}
type loggedFirstKind struct{}

func (loggedFirstKind) Name() string   { return "logged_first" }
func (loggedFirstKind) Timing() Timing { return WholeRunOnly }
func (loggedFirstKind) Doc() string {
	return "every belief and transmission record of the claim comes after the record that logged its event; always the whole run"
}

type loggedFirstCheck struct {
	claim string
	at    Pos
}

func (loggedFirstKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &loggedFirstCheck{}
	d.Object(n, path, Field{Name: "claim", Required: true, Doc: "the claim whose records must follow its event's", Decode: func(v *yaml.Node, p string) { c.claim, c.at = d.Claim(v, p), PosOf(v) }})
	return c
}

func (c *loggedFirstCheck) Unit() string    { return "belief and transmission records of the claim" }
func (c *loggedFirstCheck) Finish(*Outcome) {}

func (c *loggedFirstCheck) ObserveTrace(r Record, o *Outcome) {
	switch r["kind"] {
	case "event":
		if r["id"] == c.claim {
			o.Matched = 1
		}
	case "belief", "transmission":
		if r["claim"] != c.claim {
			return
		}
		o.Examine(1)
		if o.Matched == 0 {
			o.Fail(r.Tick(), c.at, "a %s record of %s (seq %v) comes before the event that names it is logged", r["kind"], c.claim, r["seq"])
		}
	}
}
