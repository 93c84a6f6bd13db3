package explore

import (
	"math/rand/v2"

	"github.com/chronicle/ladder/sim/rules"
)

// Swarm is a world's swarm vector, after swarm testing (Groce et al.): a
// world that draws every event motif, every define and every rule the
// same way checks each feature in the company of all the others, where
// some bugs only show in a world without one (a rule off, a motif
// absent). So each world first draws which features it leaves out:
//
//   - each event motif is omitted with probability ½ (one is kept);
//   - each switchable rule is off with probability ⅛;
//   - each group of defines is drawn, with probability ½, or left at its
//     defaults;
//   - with probability ⅕ its windows, thresholds and delays are drawn on
//     their boundaries: thefts spaced window − 1, window or window + 1
//     apart, a re-arm level one below the threshold, the shortest
//     mourning, an appointment at once;
//   - with probability ⅕, a world that draws its escalation window places
//     two offences of one offender against one victim exactly that window
//     apart, or one tick either side (WindowPair): the one tick at which
//     "within the window" is decided, which thefts spaced at random reach
//     about once in a thousand worlds;
//   - with probability ⅕, a world that keeps the killing motif has two
//     offices, both held, whose holders die in one tick after a debt owed
//     to one of them is called in (Offices): two successions due at once,
//     and an office's debt told of while the office is vacant.
//
// The vector is drawn from a stream of its own, keyed like the world's
// by (seed, index), so that what the world draws after it is never
// shifted by how many draws the vector took.
type Swarm struct {
	Motifs  [motifCount]bool // by motif: theft series, brawls, dealing, news, killing, single
	Off     []string         // the rules switched off, in catalogue order
	Defines [groupCount]bool // by define group: drawn (true) or left at its defaults
	Edges   bool
	// WindowPair and Offices are the boundary draws of events (above).
	// They are drawn after everything else on the vector's stream, so a
	// world's motifs, rules and define groups are what they were before
	// the two were added.
	WindowPair bool
	Offices    bool
}

const motifCount = 6

// The motifs, by their place in Swarm.Motifs.
const (
	motifTheftSeries = iota
	motifBrawls
	motifDealing
	motifNews
	motifKilling
	motifSingle
)

// The define groups, drawn or left at their defaults as one.
const (
	groupEscalation = iota
	groupGrudges
	groupAvoidance
	groupEncounters
	groupRetelling
	groupMemory
	groupMourningRoles
	groupReputation
	groupGrudgeWeights
	groupDay
	groupTrust
	groupCount
)

// swarmStream sets the vector's stream apart from the world's.
const swarmStream = 0x5ca1ab1e_5eed_0001

// DrawSwarm draws world w's swarm vector.
func DrawSwarm(w World) Swarm {
	r := rand.New(rand.NewPCG(w.Seed^swarmStream, uint64(w.Index)))
	var s Swarm
	kept := 0
	for i := range s.Motifs {
		s.Motifs[i] = r.IntN(2) == 0
		if s.Motifs[i] {
			kept++
		}
	}
	if kept == 0 {
		s.Motifs[r.IntN(motifCount)] = true
	}
	for _, rule := range rules.Catalogue() {
		if !rule.Invariant && r.IntN(8) == 0 {
			s.Off = append(s.Off, rule.Name)
		}
	}
	for i := range s.Defines {
		s.Defines[i] = r.IntN(2) == 0
	}
	s.Edges = r.IntN(5) == 0
	pair, offices := r.IntN(5) == 0, r.IntN(5) == 0
	s.WindowPair = pair && s.Defines[groupEscalation]
	s.Offices = offices && s.Motifs[motifKilling]
	return s
}
