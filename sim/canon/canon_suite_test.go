package canon_test

import (
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCanon(t *testing.T) {
	RegisterFailHandler(Fail)
	// The specs take well under a second, emulated included: a suite still
	// running after two minutes is looping (a loop bound got broken) and
	// fails, rather than hanging the run that called it.
	suite, reporter := GinkgoConfiguration()
	suite.Timeout = 2 * time.Minute
	RunSpecs(t, "Canon Suite", suite, reporter)
}
