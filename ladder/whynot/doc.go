// Package whynot answers the commonest surprise in a spread rung — "why
// doesn't she hold the rumour at tick T?" — and its converse, "why does
// she?", from a run's written files alone: its trace.jsonl, its dense.csv
// and, when the run left one, its events.jsonl. It never runs the
// fixture again, so it answers the same for reports/, a CI artifact a
// person downloaded, or the committed goldens.
//
// The cause is always in the files, and an answer is always a specific
// one (Causes lists them; there is no "unknown": a pair the files cannot
// answer is a bug in this package, and its spec runs every unheard pair
// of every golden run to keep it so):
//
//   - the claim's event had not happened yet (NotYet);
//   - the NPC was dead: when, and by which event (Dead);
//   - it held the rumour and forgot it: when, by which stage transition
//     (Forgot);
//   - it witnessed the event but the witness rule was off (WitnessOff);
//   - it was co-present with holders and every chance failed — each
//     chance's encounter roll against its threshold, the holder's stage,
//     a declined telling with its rule and reason, a kin-motivated keeper
//     (Missed);
//   - nobody held it (NoHolder), it was nowhere (Nowhere), it never shared
//     a place with a holder (Apart), or it lived in another hold than
//     every holder and the news needed a carrier: the carriers who could
//     have bridged the holds, and what happened to them (Border).
//
// A holder's answer is its evidence chain back to the event: told by whom,
// through which encounter, when, recursively to a witness (Holds).
//
// Every line of an answer names its tick and the trace line it rests on
// ("trace.jsonl:1550"), so a person can open the record. Where the dense
// file is the evidence (whereabouts, "alive") the line says so. Two
// things are not in a run's files, and come from its fixture (World): the
// hold each location belongs to, and each NPC's base schedule — where a
// carrier who died would have gone.
//
// A Run is read once (Open, Read): the trace and the dense file a record
// and a row at a time, into an index of what each question needs —
// each NPC's whereabouts and each belief's stage per tick, every
// encounter by participant, every transmission, rule decline, belief
// change and death. Explain then answers one (NPC, claim, tick) without
// reading anything again, so a sweep over every unheard pair of a
// thousand-NPC run costs the index once. The triage page calls the same
// Explain for its "why not?" links.
package whynot
