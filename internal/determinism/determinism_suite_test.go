package determinism_test

import (
	"testing"

	"github.com/chronicle/ladder/internal/suite"
)

func TestDeterminism(t *testing.T) { suite.Run(t, "Determinism analyzers") }
