package claims_test

import (
	"testing"

	"github.com/chronicle/ladder/internal/suite"
)

func TestClaims(t *testing.T) { suite.Run(t, "Claims Suite") }
