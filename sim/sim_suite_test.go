package sim_test

import (
	"testing"

	"github.com/chronicle/ladder/internal/suite"
)

func TestSim(t *testing.T) { suite.Run(t, "Sim Suite") }
