package social_test

import (
	"math"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSocial(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Social Suite")
}

// expectBits asserts that got and want are the same float64 bit for bit.
func expectBits(got, want float64) {
	GinkgoHelper()
	Expect(math.Float64bits(got)).To(Equal(math.Float64bits(want)),
		"got %v (%#016x), want %v (%#016x)", got, math.Float64bits(got), want, math.Float64bits(want))
}
