package keyed_test

import (
	"math"

	"github.com/chronicle/ladder/sim/keyed"
)

// valueVector is one committed known answer for keyed.Value: the decimal is
// Python's repr of the value and bits is math.Float64bits of it. The table
// was produced by an independent Python (hashlib) implementation of the v1
// encoding, not by this package.
type valueVector struct {
	name    string
	key     keyed.Key
	decimal string
	bits    uint64
}

// marketPair is the key most vectors vary one field of.
var marketPair = keyed.Key{SeedID: "ab-test-1", Purpose: "encounter", Tick: 12, Site: "whiterun_market", Participants: []string{"neighbor", "witness"}}

// with returns a copy of marketPair changed by edit.
func with(edit func(*keyed.Key)) keyed.Key {
	k := marketPair
	k.Participants = append([]string(nil), marketPair.Participants...)
	edit(&k)
	return k
}

var valueVectors = []valueVector{
	{"market pair", marketPair, "0.9680590672104636", 0x3feefa5702487c94},
	{"participants reversed", with(func(k *keyed.Key) { k.Participants = []string{"witness", "neighbor"} }), "0.8776577021440833", 0x3fec15c59af952b7},
	{"purpose mutation", with(func(k *keyed.Key) { k.Purpose = "mutation" }), "0.30262347687400837", 0x3fd35e2edc0b3e50},
	{"purpose tell-decision", with(func(k *keyed.Key) { k.Purpose = "tell-decision" }), "0.19149133525331763", 0x3fc882c9bf30b000},
	{"other seed", with(func(k *keyed.Key) { k.SeedID = "ab-test-2" }), "0.6868927169324801", 0x3fe5fb066f62bd22},
	{"next tick", with(func(k *keyed.Key) { k.Tick = 13 }), "0.18767764746499982", 0x3fc805d23706b4c4},
	{"empty site, no participants", keyed.Key{SeedID: "ab-test-1", Purpose: "encounter"}, "0.22917210702254642", 0x3fcd5582f8689b9c},
	{"zero key", keyed.Key{}, "0.19848758978427838", 0x3fc9680a95648600},
	{"unicode", keyed.Key{SeedID: "ab-test-1", Purpose: "gossip", Tick: 7, Site: "markarth_ørn", Participants: []string{"ysolda 🐺", "jarl"}}, "0.8035430558202225", 0x3fe9b69fed359fcf},
	{"negative tick, one participant", keyed.Key{SeedID: "ab-test-1", Purpose: "encounter", Tick: -1, Site: "riften_docks", Participants: []string{"thief"}}, "0.5626511762448212", 0x3fe2013d0a20e0c8},
	{"max tick", keyed.Key{SeedID: "ab-test-1", Purpose: "encounter", Tick: math.MaxInt64, Site: "riften_docks", Participants: []string{"thief"}}, "0.820610357532692", 0x3fea4270a70b93b2},
	{"min tick", keyed.Key{SeedID: "ab-test-1", Purpose: "encounter", Tick: math.MinInt64, Site: "riften_docks", Participants: []string{"thief"}}, "0.06734095236550819", 0x3fb13d41b41762d0},
	{"three participants", keyed.Key{SeedID: "ab-test-1", Purpose: "brawl", Tick: 40, Site: "bannered_mare", Participants: []string{"guard", "hulda", "mikael"}}, "0.35736377063644886", 0x3fd6df0c4aea29aa},
	{"site ab, participant c", keyed.Key{SeedID: "ab-test-1", Purpose: "split", Tick: 3, Site: "ab", Participants: []string{"c"}}, "0.9844476027383565", 0x3fef8098424c6101},
	{"site a, participant bc", keyed.Key{SeedID: "ab-test-1", Purpose: "split", Tick: 3, Site: "a", Participants: []string{"bc"}}, "0.7547715446293166", 0x3fe82716a7844c58},
	{"site abc, no participants", keyed.Key{SeedID: "ab-test-1", Purpose: "split", Tick: 3, Site: "abc"}, "0.6255594990922599", 0x3fe404955ac9b570},
	{"empty site, participants empty and abc", keyed.Key{SeedID: "ab-test-1", Purpose: "split", Tick: 3, Participants: []string{"", "abc"}}, "0.7215769843630894", 0x3fe717289dac583f},
}
