package apptest

import (
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/demo"
)

// DemoMailbox starts the sample mailbox's servers (app/demo), stopped
// when t ends: after the test's own cleanups, so after a node on them
// has stopped.
func DemoMailbox(t testing.TB) *demo.Mailbox {
	t.Helper()
	m, err := demo.StartMailbox(demo.MailboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// Demo returns cfg set to sync a sample mailbox of its own, as
// `mailnode demo` runs a node: see DemoMailbox.
func Demo(t testing.TB, cfg app.Config) app.Config {
	t.Helper()
	return DemoOn(t, DemoMailbox(t), cfg)
}

// DemoOn returns cfg set to sync m.
func DemoOn(t testing.TB, m *demo.Mailbox, cfg app.Config) app.Config {
	t.Helper()
	cfg, err := m.Config(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// WaitPending waits up to 10 s for n's status to count want approval
// requests and returns the count it saw last. The status service counts
// a prompt a moment after it opens (it hears the approvals' event), so a
// test that reads Status().Pending right after an agent saw its match
// code can read the count from before.
func WaitPending(n *app.Node, want int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := n.Status().Pending
		if p == want || time.Now().After(deadline) {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
}
