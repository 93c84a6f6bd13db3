package keyed

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The v1 encoding's length limit, checked at its edge without building a
// 4 GiB string: appendLength takes the length alone.
var _ = Describe("appendLength", func() {
	It("encodes a length up to math.MaxUint32 and panics past it rather than wrap", func() {
		Expect(appendLength(nil, math.MaxUint32)).To(Equal([]byte{0xff, 0xff, 0xff, 0xff}))
		Expect(func() { appendLength(nil, math.MaxUint32+1) }).To(PanicWith("keyed: string or list longer than the v1 encoding allows"))
	})
})
