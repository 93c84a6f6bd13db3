package record

import (
	"slices"
	"strings"
)

// ColumnGroup maps a dense column to the group a reviewer reads it in, by
// the column contract (see recorder): every NPC's alive or at column is
// one group (`*/alive`), a claim's counts are that claim's group
// (`theft@10/believers`), and a belief field is grouped over holders
// (`*/theft@10/confidence`) — so a define that moves every holder's
// confidence in one claim reads as one line, not 23. The social blocks
// group the same way over their first party: every grudge against the
// player (`grudge/*/player/emotional`), every observer's opinion of one
// subject (`reputation/*/player/standing/mean`), every victim's
// accumulator against one offender, every obligation's state; and those
// of Tiers 4 and 5 likewise: every pair's weight with one NPC
// (`pair/*/ulf/weight`), every role's holder, every changed schedule's
// override.
func ColumnGroup(column string) string {
	parts := strings.Split(column, "/")
	switch {
	case len(parts) == 2 && (parts[1] == "alive" || parts[1] == "at"):
		return "*/" + parts[1]
	case len(parts) == 3 && slices.Contains(beliefSuffixes, parts[2]):
		return "*/" + parts[1] + "/" + parts[2]
	case len(parts) == 3 && parts[0] == "obligation" && parts[2] == "state":
		return "obligation/*/state"
	case len(parts) == 3 && (parts[0] == "role" && slices.Contains(roleSuffixes, parts[2]) ||
		parts[0] == "schedule" && slices.Contains(scheduleSuffixes, parts[2])):
		return parts[0] + "/*/" + parts[2]
	case len(parts) == 4 && parts[0] == "pair" && parts[3] == "weight":
		return "pair/*/" + parts[2] + "/weight"
	case len(parts) == 4 && (parts[0] == "accumulator" && slices.Contains(accumulatorSuffixes, parts[3]) ||
		parts[0] == "grudge" && slices.Contains(grudgeSuffixes, parts[3])):
		return parts[0] + "/*/" + parts[2] + "/" + parts[3]
	case len(parts) == 5 && parts[0] == "reputation" && slices.Contains(opinionSuffixes, parts[4]):
		return "reputation/*/" + parts[2] + "/" + parts[3] + "/" + parts[4]
	}
	return column
}
