package whynot_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestWhyNot(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "WhyNot Suite")
}
