package detmath_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestDetmath(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Detmath Suite")
}
