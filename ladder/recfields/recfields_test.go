package recfields_test

import (
	"encoding/json"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/recfields"
)

func TestRecfields(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Recfields Suite")
}

func decoded(s string) map[string]any {
	GinkgoHelper()
	var m map[string]any
	Expect(json.Unmarshal([]byte(s), &m)).To(Succeed())
	return m
}

var _ = Describe("Fields", func() {
	It("reads each type, a field left out as its zero value", func() {
		d := recfields.Of(decoded(`{"s":"a","b":true,"n":0.5,"i":3,"l":["x","y"],"o":{"k":"v"},"t":[{"a":"1"}]}`))
		Expect(d.Str("s")).To(Equal("a"))
		Expect(d.Bool("b")).To(BeTrue())
		Expect(d.Number("n")).To(Equal(0.5))
		Expect(d.Integer("i")).To(Equal(int64(3)))
		Expect(d.Strs("l")).To(Equal([]string{"x", "y"}))
		Expect(d.Object("o")).To(Equal(map[string]any{"k": "v"}))
		Expect(d.Objects("t")).To(Equal([]map[string]any{{"a": "1"}}))
		Expect(d.Str("absent")).To(BeEmpty())
		Expect(d.Object("absent")).To(BeNil())
		Expect(d.Err()).NotTo(HaveOccurred())
	})

	It("collects every field of the wrong type, in the order read, nested ones under their prefix", func() {
		d := recfields.Of(decoded(`{"s":1,"i":1.5,"l":["x",2],"t":[3],"o":"no","e":{"b":"yes"}}`))
		d.Str("s")
		d.Integer("i")
		d.Strs("l")
		Expect(d.Objects("t")).To(BeEmpty())
		Expect(d.Object("o")).To(BeNil())
		e := recfields.Of(d.Object("e"))
		e.Bool("b")
		d.Take("e.", e)
		Expect(d.Err()).To(MatchError("s is float64, want a string; i is float64, want an integer; l[1] is float64, want a string; " +
			"t[0] is float64, want an object; o is string, want an object; e.b is string, want a bool"))
	})
})
