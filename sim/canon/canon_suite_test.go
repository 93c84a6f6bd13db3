package canon_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCanon(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Canon Suite")
}
