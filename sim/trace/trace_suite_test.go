package trace_test

import (
	"testing"

	"github.com/chronicle/ladder/internal/suite"
)

func TestTrace(t *testing.T) { suite.Run(t, "Trace Suite") }
