package ladder

import (
	"slices"
	"strings"
)

// ColumnGroup maps a dense column to the group a reviewer reads it in, by
// the column contract (see recorder): every NPC's alive or at column is
// one group (`*/alive`), a claim's counts are that claim's group
// (`theft@10/believers`), and a belief field is grouped over holders
// (`*/theft@10/confidence`) — so a define that moves every holder's
// confidence in one claim reads as one line, not 23.
func ColumnGroup(column string) string {
	parts := strings.Split(column, "/")
	switch {
	case len(parts) == 2 && (parts[1] == "alive" || parts[1] == "at"):
		return "*/" + parts[1]
	case len(parts) == 3 && slices.Contains(beliefSuffixes, parts[2]):
		return "*/" + parts[1] + "/" + parts[2]
	}
	return column
}
