package events_test

import (
	"encoding/hex"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/events"
)

// The expected bytes and hashes below come from an independent Python
// (hashlib, struct) implementation of the documented encoding.
var _ = Describe("encoding v1", func() {
	It("matches the worked example in doc.go byte for byte", func() {
		l := buildLog(events.Branch{SaveUUID: "s1"}, []events.Event{
			{ID: "theft@2", Kind: "theft", Tick: 2, Attrs: map[string]string{"item": "ring", "actor": "thief"}, Witnesses: []string{"guard"}},
		})
		rec := l.Records()[0]
		want := strings.Join([]string{
			"6368726f6e69636c652e6576656e74732e763100", // "chronicle.events.v1" 0x00
			"0000000000000000",                         // seq 0
			"000000027331",                             // save_uuid "s1"
			"0000000000000000",                         // generation 0
			zeros,                                      // prev
			"0000000774686566744032",                   // id "theft@2"
			"000000057468656674",                       // kind "theft"
			"0000000000000002",                         // tick 2
			"00000002",                                 // two attributes
			"000000056163746f72" + "000000057468696566", // "actor" "thief"
			"000000046974656d" + "0000000472696e67",     // "item" "ring"
			"00000001",                                  // one witness
			"000000056775617264",                        // "guard"
		}, "")
		got := events.EncodeRecord(rec)
		Expect(got).To(HaveLen(153))
		Expect(hex.EncodeToString(got)).To(Equal(want))
		Expect(rec.Hash).To(Equal("90d0d479eb013d9370d954ddd6dd5f06a5cc8e82e75c0e9e03b95dbd8634663c"))
	})

	It("reproduces the golden three-record log", func() {
		l := buildLog(riften, []events.Event{
			{ID: "theft@2", Kind: "theft", Tick: 2, Attrs: map[string]string{"actor": "brynjolf", "item": "amulet", "location": "riften_market", "victim": "madesi"}, Witnesses: []string{"keerava", "guard_03"}},
			{ID: "kill@5", Kind: "kill", Tick: 5, Attrs: map[string]string{"actor": "nazir", "victim": "grelod"}},
			{ID: "death@kill@5", Kind: "death", Tick: 5, Attrs: map[string]string{"victim": "grelod", "cause": "kill@5"}},
		})
		golden := []string{
			"72c1eed4a7c743a55bbb378bca749c9930fe735119c4b3e486a91ca9e2f82670",
			"a721702c7c14c52d565d6c6a89d4128fd5b78b22a4e191c27fa08fec90451da6",
			"ca2f7dade8e5a3cdbbecbdc9c6dbf6c3303100fb9094c4dd032d703cd2e0a6b3",
		}
		prev := zeros
		for i, r := range l.Records() {
			Expect(r.Prev).To(Equal(prev), "record %d", i)
			Expect(r.Hash).To(Equal(golden[i]), "record %d", i)
			prev = r.Hash
		}
		Expect(l.Head()).To(Equal(golden[2]))
	})
})
