package jsonschema_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestJSONSchema(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "JSON Schema Suite")
}
