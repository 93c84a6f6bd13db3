package dense_test

import (
	"bytes"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
)

var _ = Describe("Rows", func() {
	It("reads a file a row at a time, every cell as Parse reads it", func() {
		file := lines(
			"tick,a/at,a/t@1/stage",
			"0,home,",
			`1,"a,b",heard`,
		)
		table, err := dense.Parse(file)
		Expect(err).NotTo(HaveOccurred())
		rows, err := dense.NewRows(bytes.NewReader(file))
		Expect(err).NotTo(HaveOccurred())
		Expect(rows.Header()).To(Equal(table.Header))
		for i := range table.Rows {
			ok, err := rows.Next()
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(rows.Tick()).To(Equal(table.Ticks[i]))
			for j := range table.Header {
				Expect(rows.Value(j)).To(Equal(table.Rows[i][j]))
			}
		}
		Expect(rows.Value(-1)).To(Equal(""))
		ok, err := rows.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})

	It("refuses what Parse refuses, with the same located error", func() {
		file := lines("tick,a/at", "1,home", "1,road")
		_, want := dense.Parse(file)
		Expect(want).To(HaveOccurred())
		rows, err := dense.NewRows(bytes.NewReader(file))
		Expect(err).NotTo(HaveOccurred())
		_, err = rows.Next()
		Expect(err).NotTo(HaveOccurred())
		_, err = rows.Next()
		Expect(err).To(MatchError(want.Error()))
		var fe *dense.FormatError
		Expect(errors.As(err, &fe)).To(BeTrue())
		Expect(fe.Line).To(Equal(3))
	})
})
