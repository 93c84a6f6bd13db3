package expect

import "slices"

// registry is every expectation kind, in the order their names are listed
// in errors. It is the one place a new kind is added: an explicit list, no
// init() side effects.
var registry = []Kind{
	beliefKind{},
	holdersKind{},
	curveKind{},
	claimsKind{},
	variantKind{},
	traceKind{},
	valueKind{},
	eventsKind{},
	npcKind{},
	duplicateKind{},
	supersessionKind{},
	grudgeKind{},
	reputationKind{},
	obligationKind{},
	provenanceKind{},
	loggedFirstKind{},
	comparisonKind{},
	scheduleKind{},
	roleKind{},
	noOrphansKind{},
}

// Lookup finds a kind by its name.
func Lookup(name string) (Kind, bool) {
	i := slices.IndexFunc(registry, func(k Kind) bool { return k.Name() == name })
	if i < 0 {
		return nil, false
	}
	return registry[i], true
}

// Names lists the kinds' names in registry order.
func Names() []string {
	out := make([]string, len(registry))
	for i, k := range registry {
		out[i] = k.Name()
	}
	return out
}
