// Package goldenset reads a run's committed goldens as data: its trace
// records, numbers kept as written, and its dense cells. It is for specs
// outside the ladder that need a real run's values — the command-line
// tools', the triage page's — and must read them from the goldens rather
// than write a rung's numbers into the spec, so that an intended change
// to a rung, accepted or regenerated, leaves them green.
package goldenset
