// Package suite runs a package's Ginkgo specs under a time limit.
//
// A unit suite of sim/ takes seconds, under emulation included (sim/trace,
// the slowest, takes 7 s alone under qemu-i386 and 25 s in the matrix's
// 386 leg beside other packages). One still running after Limit
// is looping — a loop bound got broken — and fails there, naming the spec
// it interrupted, instead of hanging whatever ran it. That matters most to
// mutation testing (docs/quality.md): a mutant that breaks a loop is then
// killed by its package's specs within minutes rather than timed out after
// the tool's own, longer budget.
package suite

import (
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// Limit is the longest a suite run by Run may take.
const Limit = 2 * time.Minute

// Run runs the package's specs as ginkgo.RunSpecs does, with the suite's
// timeout lowered to Limit (a shorter -ginkgo.timeout still applies).
func Run(t *testing.T, description string) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	s, r := ginkgo.GinkgoConfiguration()
	s.Timeout = min(s.Timeout, Limit)
	ginkgo.RunSpecs(t, description, s, r)
}
