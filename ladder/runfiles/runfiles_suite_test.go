package runfiles_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestRunfiles(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Runfiles Suite")
}
