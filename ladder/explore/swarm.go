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
//     mourning, an appointment at once.
//
// The vector is drawn from a stream of its own, keyed like the world's
// by (seed, index), so that what the world draws after it is never
// shifted by how many draws the vector took.
type Swarm struct {
	Motifs  [motifCount]bool // by motif: theft series, brawls, dealing, news, killing, single
	Off     []string         // the rules switched off, in catalogue order
	Defines [groupCount]bool // by define group: drawn (true) or left at its defaults
	Edges   bool
}

const motifCount = 6

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
	return s
}
