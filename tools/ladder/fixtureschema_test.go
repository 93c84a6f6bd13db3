package main

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
)

var _ = Describe("schema", Serial, func() {
	It("writes the fixture schema, then says it is unchanged", func() {
		root := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(root, "docs"), 0o755)).To(Succeed())
		chdir(root)
		want, err := fixture.JSONSchema()
		Expect(err).NotTo(HaveOccurred())

		out, err := invoke("schema")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(MatchRegexp(`^docs/fixture\.schema\.json: written \([0-9]+ bytes\)\n$`))
		got, err := os.ReadFile(fixture.SchemaFile)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))

		out, err = invoke("schema")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("docs/fixture.schema.json: unchanged\n"))
	})

	It("writes to stdout with -o -", func() {
		want, err := fixture.JSONSchema()
		Expect(err).NotTo(HaveOccurred())
		out, err := invoke("schema", "-o", "-")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(string(want)))
	})

	It("refuses arguments", func() {
		_, err := invoke("schema", "extra")
		Expect(err).To(MatchError("usage: ladder schema [-o FILE|-]"))
	})
})
