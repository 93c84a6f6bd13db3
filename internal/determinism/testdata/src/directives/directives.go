// Package directives holds justifications that are themselves wrong: one
// that covers nothing, one without a reason.
package directives

var m map[string]int

func stale() (n int) {
	//determinism:order-free this loop was rewritten and counts now // want "justifies nothing here: no finding of order-free is in its scope; remove it"
	for range m {
		n++
	}
	return n
}

func reasonless() {
	// want +1 "needs a reason"
	//determinism:order-free
	for k := range m { // want "range over a map: it calls println"
		println(k)
	}
}

// fileWide covers the declaration it documents.
//
//determinism:order-free every loop in here prints to stderr, which nothing compares
func fileWide() {
	for k := range m {
		println(k)
	}
	for _, v := range m {
		println(v)
	}
}
