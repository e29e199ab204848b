package apptest

import (
	"testing"

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
