package jsonschema_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/jsonschema"
)

var _ = Describe("a schema written as JSON", func() {
	marshal := func(s *jsonschema.Schema) string {
		GinkgoHelper()
		b, err := json.Marshal(s)
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}

	It("keeps properties in their order and keys in a fixed order", func() {
		s := jsonschema.Object(
			jsonschema.Prop("zeta", jsonschema.Integer().Range(0, 6)),
			jsonschema.Prop("alpha", jsonschema.Enum("a", "b").Doc("one of two")),
		).Require("zeta").Doc("an example")
		Expect(marshal(s)).To(Equal(`{"description":"an example","type":"object","properties":{"zeta":{"type":"integer","minimum":0,"maximum":6},` +
			`"alpha":{"description":"one of two","type":"string","enum":["a","b"]}},"required":["zeta"],"additionalProperties":false}`))
	})

	It("writes a map's value schema, a const, null allowed and a root's dialect", func() {
		s := jsonschema.Map(jsonschema.String(), jsonschema.Const(true))
		s.Dialect, s.Title = jsonschema.Draft, "t"
		Expect(marshal(s)).To(Equal(`{"$schema":"http://json-schema.org/draft-07/schema#","title":"t","type":"object",` +
			`"propertyNames":{"type":"string"},"additionalProperties":{"const":true}}`))
		Expect(marshal(jsonschema.Object().AllowNull().AllowNull())).To(Equal(`{"type":["object","null"],"additionalProperties":false}`))
		Expect(marshal(&jsonschema.Schema{ExclusiveMinimum: new(0.0), ExclusiveMaximum: new(1.0)})).To(Equal(`{"exclusiveMinimum":0,"exclusiveMaximum":1}`))
	})

	It("drops properties and their requirement with Without, leaving the original", func() {
		s := jsonschema.Object(jsonschema.Prop("a", jsonschema.String()), jsonschema.Prop("b", jsonschema.String())).Require("a", "b")
		w := s.Without("a")
		Expect(marshal(w)).To(Equal(`{"type":"object","properties":{"b":{"type":"string"}},"required":["b"],"additionalProperties":false}`))
		Expect(s.Property("a")).NotTo(BeNil())
	})

	It("tells a schema that says nothing from one that says something", func() {
		Expect((&jsonschema.Schema{Description: "words only"}).Empty()).To(BeTrue())
		Expect((&jsonschema.Schema{}).Require("x").Empty()).To(BeFalse())
		Expect(jsonschema.Const("end").Empty()).To(BeFalse())
	})

	It("walks every nested schema with its path", func() {
		s := jsonschema.Object(jsonschema.Prop("l", jsonschema.Array(jsonschema.AnyOf(jsonschema.String(), jsonschema.Integer()))))
		var paths []string
		s.Walk("", func(p string, _ *jsonschema.Schema) { paths = append(paths, p) })
		Expect(paths).To(Equal([]string{"", "/properties/l", "/properties/l/items", "/properties/l/items/anyOf/0", "/properties/l/items/anyOf/1"}))
	})
})
