package confine_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestConfine(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Confine Suite")
}
