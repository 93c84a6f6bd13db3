// Package views holds read-only aggregates computed on read from the
// engine's state: today collective fear, the seed's Tier 6 view.
//
// A view is derived from beliefs at the moment it is asked for and never
// stored: nothing in the engine keeps it, caches it or reads it to decide
// anything. That is the seed's acceptance test for "a view is enough": the
// moment a rule keyed off an aggregate it would be a feedback mechanism with
// inputs of its own to record and a tier of its own to prove. The package
// therefore lives outside sim/, and a spec over the import graph holds
// every package under sim/ to never importing it.
//
// Every aggregate comes with its drill-down: the beliefs that contribute,
// each with its holder, claim, confidence and weight, so a number on a
// page can answer "who fears this, because of what".
package views
