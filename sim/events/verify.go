package events

import (
	"encoding/hex"
	"fmt"
)

// The reasons a ChainError gives, in the order Verify checks them.
const (
	// ReasonSequenceGap means the record's Seq is not its position.
	ReasonSequenceGap = "sequence gap"
	// ReasonBranchChanged means the record's Branch differs from the first record's.
	ReasonBranchChanged = "branch changed"
	// ReasonPrevUnlinked means the record's Prev is not the previous record's Hash.
	ReasonPrevUnlinked = "prev does not link"
	// ReasonTickBackwards means the record's tick is earlier than the previous record's.
	ReasonTickBackwards = "tick goes backwards"
	// ReasonMissingIDKind means the record's event has no id or no kind.
	ReasonMissingIDKind = "empty id or kind"
	// ReasonDuplicateID means an earlier record has the same event id.
	ReasonDuplicateID = "duplicate id"
	// ReasonHashMismatch means the record's Hash is not the digest of its encoding.
	ReasonHashMismatch = "hash mismatch"
)

// ChainError reports the first record at which a chain stops being one that
// a Log could have produced.
type ChainError struct {
	Seq    int64  // the sequence number the broken record should carry
	Index  int    // the broken record's index in the slice given to Verify
	Reason string // one of the Reason constants
}

// Error names the broken record and the reason.
func (e *ChainError) Error() string {
	return fmt.Sprintf("events: chain broken at seq %d (index %d): %s", e.Seq, e.Index, e.Reason)
}

// Verify checks that records are a whole log as Append built it, from the
// first record on. It returns nil, or a *ChainError naming the first record
// that breaks the chain. For each record, in this order, it checks the
// sequence number, the branch, the link to the previous hash, the tick
// order, the id and kind, the uniqueness of the id and finally the hash, so
// a tampered field is reported by its own reason when it has one.
//
// Verify cannot tell a log cut short at the end from a shorter log: compare
// the last Hash with a head kept elsewhere for that.
func Verify(records []Record) error {
	seen := make(map[string]bool, len(records)) // looked up, never ranged over
	var prev [hashSize]byte
	for i, r := range records {
		if reason := linkProblem(records, i, prev, seen); reason != "" {
			return &ChainError{Seq: int64(i), Index: i, Reason: reason}
		}
		prev = recordDigest(r, prev)
		if r.Hash != hex.EncodeToString(prev[:]) {
			return &ChainError{Seq: int64(i), Index: i, Reason: ReasonHashMismatch}
		}
		seen[r.Event.ID] = true
	}
	return nil
}

// linkProblem returns the reason record i does not follow the records
// before it, or "" when it does; the hash itself is checked by the caller.
func linkProblem(records []Record, i int, prev [hashSize]byte, seen map[string]bool) string {
	r := records[i]
	switch {
	case r.Seq != int64(i):
		return ReasonSequenceGap
	case r.Branch != records[0].Branch:
		return ReasonBranchChanged
	case r.Prev != hex.EncodeToString(prev[:]):
		return ReasonPrevUnlinked
	case i > 0 && r.Event.Tick < records[i-1].Event.Tick:
		return ReasonTickBackwards
	case r.Event.ID == "" || r.Event.Kind == "":
		return ReasonMissingIDKind
	case seen[r.Event.ID]:
		return ReasonDuplicateID
	}
	return ""
}
