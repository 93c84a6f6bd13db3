package tolerances_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTolerances(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Tolerances Suite")
}
