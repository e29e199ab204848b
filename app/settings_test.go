package app_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/config"
	"mailnode/assets"
	"mailnode/mail/demobox"
)

// TestAccountsChangeLive: an account added to a running node is saved,
// shown and synced at once; removed, it stops syncing and leaves the file.
func TestAccountsChangeLive(t *testing.T) {
	second, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, err := second.Seed(assets.DemoMailbox(), time.Now()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	settings := config.NewStore(filepath.Join(dir, "config.json"))
	env := map[string]string{"SECOND_PW": demobox.Password}
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: filepath.Join(dir, "data"), Settings: settings,
		Getenv: func(k string) string { return env[k] }, Services: app.Services{Sync: true}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	sub, unsubscribe := n.Subscribe()
	defer unsubscribe()

	acct := config.Account{Name: "second", Server: second.Addr, Security: "plain", Username: demobox.Username,
		Password: config.Password{Env: "SECOND_PW"}}
	bad := acct
	bad.Password.Env = "NOT_SET"
	if err := n.CheckAccount(ctx, bad); err == nil {
		t.Error("CheckAccount with an empty password source succeeded")
	}
	if err := n.CheckAccount(ctx, acct); err != nil {
		t.Fatalf("CheckAccount = %v", err)
	}
	if err := n.AddAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	if err := n.AddAccount(ctx, acct); err == nil {
		t.Error("the same account added twice")
	}
	f, err := n.Settings()
	if err != nil || len(f.Accounts) != 1 || f.Accounts[0].Name != "second" {
		t.Fatalf("saved settings = %+v, %v", f, err)
	}
	deadline := time.After(20 * time.Second)
	for synced := false; !synced; {
		select {
		case s := <-sub:
			for _, fs := range s.Folders {
				if fs.Account == "second" && fs.Folder == "INBOX" && fs.Finished && fs.Done > 0 {
					synced = true
				}
			}
		case <-deadline:
			t.Fatalf("the added account was not synced: %+v", n.Status().Folders)
		}
	}
	names := func() []string {
		var out []string
		for _, a := range n.Status().Accounts {
			out = append(out, a.Name)
		}
		return out
	}
	if got := names(); !slices.Equal(got, []string{"demo", "second"}) {
		t.Errorf("status accounts = %v", got)
	}

	if err := n.RemoveAccount(ctx, "second"); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"demo"}) {
		t.Errorf("status accounts after removal = %v", got)
	}
	for _, s := range n.Status().Services {
		if s.Name == "sync/second" {
			t.Errorf("the removed account's sync still runs: %+v", s)
		}
	}
	if f, _ := n.Settings(); len(f.Accounts) != 0 {
		t.Errorf("settings after removal = %+v", f.Accounts)
	}
	if err := n.RemoveAccount(ctx, "second"); err == nil {
		t.Error("removing an unknown account succeeded")
	}
}
