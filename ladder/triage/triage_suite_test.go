package triage_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTriage(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Triage Suite")
}
