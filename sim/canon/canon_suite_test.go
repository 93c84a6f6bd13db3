package canon_test

import (
	"testing"

	"github.com/chronicle/ladder/internal/suite"
)

func TestCanon(t *testing.T) { suite.Run(t, "Canon Suite") }
