package record

import (
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/expr"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/social"
)

// View reads the world as of its current tick for expressions, expectations
// and the dense recorder.
type View struct{ w *sim.World }

// ViewOf is the view of w, as of whatever tick it is at when read.
func ViewOf(w *sim.World) View { return View{w: w} }

var _ expect.World = View{}

func (v View) Tick() int64 { return v.w.Now() }

func (v View) Define(name string) (float64, bool) { return v.w.Defines().Value(name) }

func (v View) Belief(holder, claim string) (expr.Belief, bool) {
	b, ok := v.w.Store().Belief(holder, claim)
	if !ok {
		return expr.Belief{}, false
	}
	t, m := v.w.Now(), v.w.Store().Memory()
	return expr.Belief{Confidence: b.Confidence, Verbatim: b.VerbatimAt(t, m), Gist: b.GistAt(t, m), Sources: len(b.Origins), Formed: b.FormedAt}, true
}

// Believers counts living holders whose rumour is not forgotten.
func (v View) Believers(claim string) int {
	n := 0
	t, m := v.w.Now(), v.w.Store().Memory()
	for _, h := range v.w.Store().Holders(claim) {
		b, _ := v.w.Store().Belief(h, claim)
		if v.w.Alive(h) && b.StageAt(t, m) != claims.Forgotten {
			n++
		}
	}
	return n
}

// Holders counts every NPC with a stored belief in the claim.
func (v View) Holders(claim string) int { return len(v.w.Store().Holders(claim)) }

func (v View) Store() *claims.Store { return v.w.Store() }

func (v View) NPCs() []string { return v.w.NPCs() }

func (v View) Alive(npc string) bool { return v.w.Alive(npc) }

func (v View) At(npc string) string { return v.w.At(npc) }

// Resident returns the hold an NPC lives in: its home location's hold.
func (v View) Resident(npc string) string { return v.w.Hold(v.w.Home(npc)) }

// Grudge reads holder's grudge against target, its strengths as of now.
func (v View) Grudge(holder, target string) (expr.Grudge, bool) {
	g, ok := v.w.Grudges().Get(holder, target)
	if !ok {
		return expr.Grudge{}, false
	}
	c, t := v.w.Grudges().Curves(), v.w.Now()
	return expr.Grudge{Emotional: g.EmotionalAt(t, c), Evidentiary: g.EvidentiaryAt(t, c)}, true
}

// Opinion reads observer's reputation row for subject on dimension.
func (v View) Opinion(observer, subject, dimension string) (expr.Opinion, bool) {
	o, ok := v.w.Reputation().Get(observer, subject, dimension)
	if !ok {
		return expr.Opinion{}, false
	}
	return expr.Opinion{Alpha: o.Alpha, Beta: o.Beta, Mean: o.Mean()}, true
}

func (v View) Grudges() *social.Grudges { return v.w.Grudges() }

func (v View) Reputation() *social.Reputation { return v.w.Reputation() }

func (v View) Ledger() *social.Ledger { return v.w.Ledger() }

// Placement is where an NPC's base puts it now, where it is, and why.
func (v View) Placement(npc string) sim.Placement { return v.w.Placement(npc) }

// Roles is the world's roles, live.
func (v View) Roles() *roles.Book { return v.w.Roles() }

// References lists every place in the live state that names a role.
func (v View) References(role string) []roles.Reference { return v.w.References(role) }
