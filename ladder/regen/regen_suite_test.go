package regen_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestRegen(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Regen Suite")
}
