package main

import (
	"testing"

	"github.com/chronicle/ladder/internal/suite"
)

func TestDetcheck(t *testing.T) { suite.Run(t, "detcheck") }
