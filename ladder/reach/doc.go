// Package reach says what a fixture's world can produce at all, for its
// negative expectations (expect.Reach): whether a rule can fire in it
// (not disabled, its layer in use), whether a source state or an event
// kind can arise from its injections. A negative ("never", count 0) whose
// subject the world cannot reach has examined nothing that could have
// matched, and fails saying why instead of passing vacuously.
//
// It reads the fixture alone, before the run; it may import the fixture
// packages and the engine's rule catalogue, nothing that runs a world.
package reach
