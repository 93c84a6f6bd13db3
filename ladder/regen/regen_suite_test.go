package regen_test

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestRegen(t *testing.T) {
	// The workspace specs run this binary as a child to kill it mid-write.
	if root := os.Getenv("REGEN_CHILD_ROOT"); root != "" {
		childMain(root, os.Getenv("REGEN_CHILD_DO"), os.Getenv("REGEN_CHILD_STOP"))
	}
	RegisterFailHandler(Fail)
	RunSpecs(t, "Regen Suite")
}
