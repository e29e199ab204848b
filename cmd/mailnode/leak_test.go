package main

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if a goroutine outlives them.
func TestMain(m *testing.M) {
	if os.Getenv(startCostEnv) != "" {
		os.Exit(0) // TestStartCost's child: every package is initialised by now
	}
	goleak.VerifyTestMain(m)
}
