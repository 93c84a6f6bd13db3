// Package maporder holds ranges over maps that MapOrder must accept, and
// ranges it must refuse, each marked with what the order reaches.
package maporder

import (
	"maps"
	"slices"
	"sort"
)

var m map[string]int

func sortedKeys() []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sortedAfterTwoLoops(a, b map[string]int) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func sortedAfterOuterLoop(ms []map[string]int) []string {
	var out []string
	for _, x := range ms {
		for k := range x {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func unsorted() []string {
	var keys []string
	for k := range m { // want `range over a map: it appends to keys in map order and nothing sorts keys before it is read`
		keys = append(keys, k)
	}
	return keys
}

func readBeforeSort() []string {
	var keys []string
	for k := range m { // want `nothing sorts keys before it is read`
		keys = append(keys, k)
	}
	println(len(keys))
	slices.Sort(keys)
	return keys
}

func counts() (n, total int) {
	for _, v := range m {
		if v > 0 {
			n++
		}
		total += v
	}
	return n, total
}

func histogram() map[int]int {
	h := map[int]int{}
	for _, v := range m {
		h[v%10]++
	}
	return h
}

func extremes() (lo, hi int) {
	for _, v := range m {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

func floatSum(f map[string]float64) (s float64) {
	for _, v := range f { // want `it sums floats into s at line \d+: a float sum depends on the order`
		s += v
	}
	return s
}

func concatenation() (s string) {
	for k := range m { // want `it concatenates onto s`
		s += k
	}
	return s
}

func mixedCounter() (n int) {
	for _, v := range m { // want `it updates n both by sum and by or`
		n += v
		n |= v
	}
	return n
}

// tieBreak is the planted leak of the issue: equal values are told apart
// by whichever the range visits first.
func tieBreak() string {
	best, bestV := "", -1
	for k, v := range m { // want `range over a map: it reads bestV at line \d+, which it also writes`
		if v > bestV {
			best, bestV = k, v
		}
	}
	return best
}

func choice() (chosen string) {
	for k := range m { // want `it assigns chosen from the elements at line \d+: which element's value stays depends on the order \(a choice\)`
		chosen = k
	}
	return chosen
}

func numbering() map[string]int {
	ids, next := map[string]int{}, 0
	for k := range m { // want `it reads next at line \d+, which it also writes`
		ids[k] = next
		next++
	}
	return ids
}

func member(want string) bool {
	for k := range m {
		if k == want {
			return true
		}
	}
	return false
}

func found() (ok bool) {
	for _, v := range m {
		if v < 0 {
			ok = true
			break
		}
	}
	return ok
}

func returnsElement() string {
	for k := range m { // want `it returns an element at line \d+: which one is returned depends on the order \(a choice\)`
		if len(k) > 3 {
			return k
		}
	}
	return ""
}

func panicsNamingElement() {
	for k, v := range m { // want `it panics naming an element`
		if v < 0 {
			panic(k)
		}
	}
}

func stopsAfterEffect() []string {
	var keys []string
	for k := range m { // want `it stops early \(break at line \d+\) after an append to keys`
		keys = append(keys, k)
		if len(k) > 3 {
			break
		}
	}
	slices.Sort(keys)
	return keys
}

func conflictingConstants() (x int) {
	for _, v := range m { // want `it sets x to 1 and to 2: which stays depends on the order`
		if v > 0 {
			x = 1
		} else {
			x = 2
		}
	}
	return x
}

func callsForEffect() {
	for k := range m { // want `it calls println at line \d+ for each element, in map order`
		println(k)
	}
}

func deletes() {
	for k, v := range m {
		if v == 0 {
			delete(m, k)
		}
	}
}

func keyedWrites() (map[string]int, map[string]bool, map[int]bool) {
	double, prefixed, seen := map[string]int{}, map[string]bool{}, map[int]bool{}
	for k, v := range m {
		double[k] = v * 2
		prefixed["p/"+k] = v > 0
		seen[v] = true
	}
	return double, prefixed, seen
}

func inverse() map[int]string {
	inv := map[int]string{}
	for k, v := range m { // want `it assigns inv\[v\] from the elements`
		inv[v] = k
	}
	return inv
}

type group struct{ n int }

func through(byKey map[string]*group, of func(string) *group) {
	for k := range m {
		g := of(k)
		g.n++
	}
	for k := range m { // want `it assigns g.n from the elements`
		g := of(k)
		g.n = len(k)
	}
	for _, g := range byKey {
		g.n = 0
	}
	for k := range m { // want `it reads g at line \d+, which it also writes`
		g := of(k)
		g.n++
		if g.n > 1 {
			println(k)
		}
	}
}

func lazyInit() map[string]bool {
	var out map[string]bool
	for k := range m {
		if out == nil {
			out = map[string]bool{}
		}
		out[k] = true
	}
	return out
}

func sortsEachOwn(groups map[string][]int) {
	for _, l := range groups {
		slices.Sort(l)
	}
}

func iterators() ([]string, []int) {
	keys := slices.Sorted(maps.Keys(m))
	vals := slices.Collect(maps.Values(m))
	slices.Sort(vals)
	for k := range maps.Keys(m) { // want `it calls println`
		println(k)
	}
	return keys, vals
}

func iteratorUnsorted() []string {
	return slices.Collect(maps.Keys(m)) // want `maps.Keys yields a map's entries in no order and nothing here sorts them`
}

func justified() {
	//determinism:order-free println writes to the test's stderr, which nothing compares
	for k := range m {
		println(k)
	}
}
