package relaycheck_test

import (
	"testing"

	"go.uber.org/goleak"
)

// The checks open connections to many servers; none may outlive Run.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
