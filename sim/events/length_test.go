package events

import (
	"math"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The v1 encoding's length limit, checked at its edge without building a
// 4 GiB string: appendLength takes the length alone.
var _ = Describe("appendLength", func() {
	It("encodes a length up to math.MaxUint32 and panics past it rather than wrap", func() {
		if strconv.IntSize < 64 {
			// An int cannot reach the limit: nothing to check on 386.
			Skip("a 32-bit int cannot hold a length past math.MaxUint32")
		}
		limit := uint64(math.MaxUint32) // converted at run time: the file must build on 386 too
		Expect(appendLength(nil, int(limit))).To(Equal([]byte{0xff, 0xff, 0xff, 0xff}))
		Expect(func() { appendLength(nil, int(limit+1)) }).To(PanicWith("events: string or list longer than the v1 encoding allows"))
	})
})
