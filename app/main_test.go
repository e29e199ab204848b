package app

import (
	"testing"

	"go.uber.org/goleak"

	"mailnode/relay/acmetest"
)

// TestMain fails the package's tests if a goroutine outlives them: every
// service a Node starts must end with Stop. The ACME test server's
// validation worker is not ours and has no way to stop.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction(acmetest.VAWorker))
}
