// Package roles holds offices — steward, jarl, court mage — as entities
// of their own (decision 0022): a role has a faction, an appointer role,
// duties (schedule blocks its holder keeps) and a holder, or none.
//
// Anything that concerns the office rather than the person names the
// role, as role:<id> (Ref), never the holder: an obligation owed to the
// steward, a petitioner's audience with the steward, the duties
// themselves. The engine resolves such a reference through the Book when
// it acts on it, so a death leaves nothing pointing at the dead: the
// reference resolves to the successor, or to nobody while the role is
// vacant. A Reference is one such place, as the engine reports it for the
// no-orphans invariant of T5.3.
//
// Succession is a pure function of the candidates' scores (Score, Top):
// the trust the appointer's holder has in each, plus a kin bonus for kin
// of the previous holder. The engine breaks a tie among the top scores
// with a keyed roll, so changing one prior relationship moves the
// successor without moving any roll.
//
//	b, _ := roles.NewBook([]roles.Role{{ID: "steward", Faction: "court", Appointer: "jarl", Holder: "proventus"}, {ID: "jarl", Faction: "court", Holder: "balgruuf"}})
//	b.Vacate("steward", 12)                       // proventus died at tick 12
//	roles.Score(0.5, true, 0.25)                  // 0.75: default trust, and kin of proventus
package roles
