package dense_test

import (
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
)

var _ = Describe("Lookup", func() {
	const file = "tick,a/at,a/t@1/confidence,\"b, the smith/at\"\n0,home,,forge\n1,road,0.5,forge\n3,road,0.5,\"inn, by the road\"\n"

	It("finds a cell, unquoted, an empty one as empty", func() {
		f, err := dense.Lookup(strings.NewReader(file), 3, "b, the smith/at")
		Expect(err).NotTo(HaveOccurred())
		Expect(f.HasColumn && f.HasTick).To(BeTrue())
		Expect(f.Value).To(Equal("inn, by the road"))
		f, err = dense.Lookup(strings.NewReader(file), 0, "a/t@1/confidence")
		Expect(err).NotTo(HaveOccurred())
		Expect(f.HasTick).To(BeTrue())
		Expect(f.Value).To(BeEmpty())
	})

	It("stops at the row: what follows it is not read", func() {
		f, err := dense.Lookup(strings.NewReader(file[:strings.Index(file, "3,road")]+"garbage\"\n"), 1, "a/at")
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Value).To(Equal("road"))
	})

	It("says a column is not there from the header alone, with the columns", func() {
		f, err := dense.Lookup(strings.NewReader(file), 1, "c/at")
		Expect(err).NotTo(HaveOccurred())
		Expect(f.HasColumn).To(BeFalse())
		Expect(f.Columns).To(Equal([]string{"tick", "a/at", "a/t@1/confidence", "b, the smith/at"}))
	})

	It("says a tick is not there with the file's ticks, having read it all", func() {
		for _, tick := range []int64{2, 9, -1} {
			f, err := dense.Lookup(strings.NewReader(file), tick, "a/at")
			Expect(err).NotTo(HaveOccurred())
			Expect(f.HasTick).To(BeFalse(), "tick %d", tick)
			Expect([]int64{int64(f.Rows), f.First, f.Last}).To(Equal([]int64{3, 0, 3}))
		}
	})

	It("refuses a malformed file as Parse does", func() {
		_, err := dense.Lookup(strings.NewReader("tick,a\n0\n"), 0, "a")
		var fe *dense.FormatError
		Expect(errors.As(err, &fe)).To(BeTrue(), "%v", err)
	})
})
