package compare

import "fmt"

// Index is one run's rolls by key: what a run is compared with as another
// run streams by. It holds each roll's key, value, threshold and place —
// never the records — so it stays small next to the trace it came from.
type Index struct {
	rolls []Roll
	first map[string]int32 // key → its first roll
	next  []int32          // roll → the next roll with the same key, or -1
}

// Len is how many rolls the run made.
func (ix *Index) Len() int { return len(ix.rolls) }

// Roll returns the i-th roll in file order.
func (ix *Index) Roll(i int) Roll { return ix.rolls[i] }

// Indexer builds an Index from a run's records as they pass, in order.
type Indexer struct {
	ix  Index
	err error
}

// NewIndexer starts an empty index.
func NewIndexer() *Indexer {
	return &Indexer{ix: Index{first: map[string]int32{}}}
}

// Add indexes the roll a record carries, if any. The first malformed roll
// is kept as the indexer's error and later records are ignored.
func (x *Indexer) Add(rec map[string]any, line int) {
	if x.err != nil {
		return
	}
	r, ok, err := RollOf(rec, line)
	if err != nil {
		x.err = fmt.Errorf("trace line %d: %w", line, err)
		return
	}
	if !ok {
		return
	}
	i := int32(len(x.ix.rolls))
	x.ix.rolls = append(x.ix.rolls, r)
	x.ix.next = append(x.ix.next, -1)
	j, seen := x.ix.first[r.Key]
	if !seen {
		x.ix.first[r.Key] = i
		return
	}
	for x.ix.next[j] >= 0 {
		j = x.ix.next[j]
	}
	x.ix.next[j] = i
}

// Index returns the index, or the first malformed roll's error.
func (x *Indexer) Index() (*Index, error) {
	if x.err != nil {
		return nil, x.err
	}
	return &x.ix, nil
}

// Matcher pairs another run's rolls with an Index, key by key: the n-th
// roll of a key in the other run pairs with the n-th roll of that key
// here. Several matchers may share one Index.
type Matcher struct {
	ix   *Index
	used []bool
}

// Match starts matching against the index.
func (ix *Index) Match() *Matcher { return &Matcher{ix: ix, used: make([]bool, len(ix.rolls))} }

// Pair returns the indexed roll that pairs with r, marking it used, or
// false when the indexed run has no unused roll of r's key.
func (m *Matcher) Pair(r Roll) (Roll, bool) {
	i, ok := m.ix.first[r.Key]
	for ok && i >= 0 {
		if !m.used[i] {
			m.used[i] = true
			return m.ix.rolls[i], true
		}
		i = m.ix.next[i]
	}
	return Roll{}, false
}

// Unpaired calls each with every indexed roll no Pair returned, in file
// order: the rolls only the indexed run made.
func (m *Matcher) Unpaired(each func(Roll)) {
	for i, u := range m.used {
		if !u {
			each(m.ix.rolls[i])
		}
	}
}
