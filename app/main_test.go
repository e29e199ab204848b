package app

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if a goroutine outlives them: every
// service a Node starts must end with Stop.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
