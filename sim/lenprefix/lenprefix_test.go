package lenprefix_test

import (
	"math"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/internal/suite"
	"github.com/chronicle/ladder/sim/lenprefix"
)

func TestLenprefix(t *testing.T) { suite.Run(t, "Lenprefix Suite") }

var _ = Describe("AppendString", func() {
	It("writes the byte length big-endian, then the bytes, after what dst holds", func() {
		Expect(lenprefix.AppendString([]byte{9}, "ab")).To(Equal([]byte{9, 0, 0, 0, 2, 'a', 'b'}))
		Expect(lenprefix.AppendString(nil, "")).To(Equal([]byte{0, 0, 0, 0}))
	})
})

// The limit, checked at its edge without building a 4 GiB string:
// AppendLength takes the length alone.
var _ = Describe("AppendLength", func() {
	It("encodes a length up to math.MaxUint32 and panics past it rather than wrap", func() {
		if strconv.IntSize < 64 {
			Skip("a 32-bit int cannot hold a length past math.MaxUint32: nothing to check on 386")
		}
		limit := uint64(math.MaxUint32) // converted at run time: the file must build on 386 too
		Expect(lenprefix.AppendLength(nil, 258)).To(Equal([]byte{0, 0, 1, 2}))
		Expect(lenprefix.AppendLength(nil, int(limit))).To(Equal([]byte{0xff, 0xff, 0xff, 0xff}))
		Expect(func() { lenprefix.AppendLength(nil, int(limit+1)) }).To(PanicWith("lenprefix: string or list longer than the v1 encoding allows"))
	})
})
