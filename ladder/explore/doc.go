// Package explore generates worlds nobody wrote, runs each through the
// ladder's own Run, checks properties every world must have, and shrinks
// a failing world to a small fixture (docs/explore.md).
package explore
