package app_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/backup"
	"mailnode/app/config"
	"mailnode/gateway/phone/phoneclient"
)

// TestBackupRestore: a node with a grant and a paired phone is sealed into
// a backup, stopped, and restored into a new data directory, and in place
// of another computer's fresh node as the desktop app does; the restored
// node comes back at the relay under the same name without registering
// again, answers the same agent under its grant, and its phone works
// without pairing again.
func TestBackupRestore(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	domain, key := apptest.HostAgent(t, r)
	oldDir := t.TempDir()
	e := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: oldDir})
	_, err := e.Session(t, domain, key).Call(ctx, "bills_due", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) {
		t.Fatalf("first call = %v, want approval_required", err)
	}
	if _, err := e.Node.Decide(ctx, ar.MatchCode, true); err != nil {
		t.Fatal(err)
	}
	// The pairing link names the node by its relay name: the phone
	// reaches it through the relay from anywhere.
	offer, err := e.Node.Pair(ctx, app.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(offer.URL, "https://"+e.Host+"/phone/") {
		t.Fatalf("pairing link %s does not name the relay name %s", offer.URL, e.Host)
	}
	phone, _, err := phoneclient.Pair(ctx, e.AgentHTTP(), offer.URL, "Old phone")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Node.ConfirmPhone(ctx, phone.ID); err != nil {
		t.Fatal(err)
	}
	// The VAPID key the phone's push subscription is bound to moves
	// with the node (issue 44).
	pushBefore, err := phone.PushInfo(ctx)
	if err != nil || pushBefore.VAPIDPublicKey == "" {
		t.Fatalf("status = %+v, %v; want a VAPID key", pushBefore, err)
	}

	if _, err := e.Node.Backup(ctx, "short"); err == nil {
		t.Error("Backup took a 5-character passphrase")
	}
	const pass = "correct horse battery staple"
	sealed, err := e.Node.Backup(ctx, pass)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"Old phone", domain, e.Host} {
		if strings.Contains(string(sealed), secret) {
			t.Errorf("the sealed backup shows %q", secret)
		}
	}
	if _, err := backup.Open(sealed, "correct horse battery stapler"); !errors.Is(err, backup.ErrPassphrase) {
		t.Errorf("Open with a wrong passphrase = %v, want ErrPassphrase", err)
	}
	tampered := append([]byte(nil), sealed...)
	tampered[len(tampered)-1] ^= 1
	if _, err := backup.Open(tampered, pass); !errors.Is(err, backup.ErrPassphrase) {
		t.Errorf("Open of a changed file = %v, want ErrPassphrase", err)
	}
	oldHost := e.Host
	e.Node.Stop()

	newDir := filepath.Join(t.TempDir(), "node")
	if _, err := app.Restore(ctx, oldDir, "", sealed, pass, nil); !errors.Is(err, app.ErrRestoreOver) {
		t.Errorf("Restore over a node = %v, want ErrRestoreOver", err)
	}
	res, err := app.Restore(ctx, newDir, "", sealed, pass, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RelayName != oldHost || res.Phones != 1 || res.Grants != 1 {
		t.Errorf("Restore = %+v, want the relay name %s, 1 phone, 1 grant", res, oldHost)
	}
	for _, f := range []string{"relay/keys.json", "ca/ca-key.pem"} {
		if fi, err := os.Stat(filepath.Join(newDir, f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", f, fi, err)
		}
	}
	if _, err := os.Stat(filepath.Join(newDir, "node.db")); err != nil {
		t.Fatal(err)
	}

	// The desktop app restores where it has made a node of its own: that
	// node is put aside, not lost, and a wrong passphrase changes nothing.
	freshDir := t.TempDir()
	fresh, err := app.New(app.Config{DataDir: freshDir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.Start(ctx); err != nil {
		t.Fatal(err)
	}
	fresh.Stop()
	before, _ := os.ReadDir(freshDir)
	if _, _, err := app.ReplaceWithBackup(ctx, freshDir, "", sealed, "wrong passphrase!", nil); !errors.Is(err, backup.ErrPassphrase) {
		t.Errorf("ReplaceWithBackup with a wrong passphrase = %v", err)
	}
	if after, _ := os.ReadDir(freshDir); len(after) != len(before) {
		t.Errorf("a failed restore changed the data directory: %v -> %v", before, after)
	}
	res, aside, err := app.ReplaceWithBackup(ctx, freshDir, "", sealed, pass, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RelayName != oldHost || filepath.Dir(aside) != freshDir {
		t.Errorf("ReplaceWithBackup = %+v, old node in %s", res, aside)
	}
	if _, err := os.Stat(filepath.Join(aside, "node.db")); err != nil {
		t.Errorf("the replaced node is not kept: %v", err)
	}

	moved := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: freshDir})
	if moved.Host != oldHost {
		t.Fatalf("restored node's relay name = %s, want %s", moved.Host, oldHost)
	}
	if strings.Count(log.String(), "Mailed confirmation code") != 1 {
		t.Error("the restored node registered at the relay again")
	}
	if _, err := moved.Session(t, domain, key).Call(ctx, "bills_due", map[string]any{}); err != nil {
		t.Fatalf("the agent's call on the restored node = %v, want it to run under the old grant", err)
	}
	// The phone kept the relay name, which the restored node answers with
	// the same CA.
	phone.HTTP = moved.AgentHTTP()
	if _, err := phone.State(ctx); err != nil {
		t.Fatalf("the old phone on the restored node: %v", err)
	}
	if after, err := phone.PushInfo(ctx); err != nil || after.VAPIDPublicKey != pushBefore.VAPIDPublicKey {
		t.Errorf("the restored node's VAPID key = %q (%v), want the old node's %q", after.VAPIDPublicKey, err, pushBefore.VAPIDPublicKey)
	}
	if st := moved.Node.Status(); st.Phones != 1 {
		t.Errorf("restored node has %d phones", st.Phones)
	}
}

// TestBackupSettings: the settings travel without their old data
// directory, and a password the node kept itself is kept again on the new
// computer; one from the environment stays the person's to bring.
func TestBackupSettings(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	settings := config.NewStore(filepath.Join(dir, "config.json"))
	n, err := app.New(app.Config{DataDir: dir, Settings: settings, Getenv: func(k string) string {
		if k == "ENV_PASSWORD" {
			return "from the environment"
		}
		return ""
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	where, err := n.StorePassword(ctx, "jo@example.net", "s3cret password")
	if err != nil {
		t.Fatal(err)
	}
	// An account signed in at Google: its refresh token in the node's
	// own 0600 file, as where no keyring runs.
	tokenFile := filepath.Join(dir, "secrets", "oauth-test.token")
	if err := os.WriteFile(tokenFile, []byte("1//refresh-token-from-google\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := settings.Modify(func(f *config.File) error {
		f.DataDir = dir
		f.Accounts = append(f.Accounts,
			config.Account{Name: "jo", Server: "imap.example.net:993", Username: "jo@example.net", Password: where},
			config.Account{Name: "gmail", Server: "imap.gmail.com:993", Username: "jo@gmail.com",
				OAuth: config.OAuth{Provider: "google", File: tokenFile, Subject: "sub-1", Tenant: "tid-1"}},
			config.Account{Name: "env", Server: "imap.example.org:993", Username: "env@example.org", Password: config.Password{Env: "ENV_PASSWORD"}})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sealed, err := n.Backup(ctx, "a long enough passphrase")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(sealed), "s3cret") || strings.Contains(string(sealed), "refresh-token-from-google") {
		t.Fatal("the password or the refresh token shows in the sealed file")
	}
	newDir := t.TempDir()
	if _, err := app.Restore(ctx, newDir, "", sealed, "a long enough passphrase", nil); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(filepath.Join(newDir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if f.DataDir != "" || len(f.Accounts) != 3 {
		t.Fatalf("restored settings: data dir %q, %d accounts", f.DataDir, len(f.Accounts))
	}
	jo, gmail, env := f.Accounts[0], f.Accounts[1], f.Accounts[2]
	// The first sign-in's identity moves with the account (attack 45,
	// round 3, R3-1: a restore dropped it, and any sub then signed in
	// again).
	if gmail.OAuth.Subject != "sub-1" || gmail.OAuth.Tenant != "tid-1" {
		t.Errorf("restored sign-in = %+v, want its sub and tid kept", gmail.OAuth)
	}
	if gmail.OAuth.Provider != "google" || !strings.HasPrefix(gmail.OAuth.File, newDir) {
		t.Errorf("restored sign-in = %+v, want Google's, in the new data directory", gmail.OAuth)
	} else if b, err := os.ReadFile(gmail.OAuth.File); err != nil || strings.TrimSpace(string(b)) != "1//refresh-token-from-google" {
		t.Errorf("restored refresh token: %q, %v", b, err)
	} else if fi, _ := os.Stat(gmail.OAuth.File); fi.Mode().Perm() != 0o600 {
		t.Errorf("restored refresh token's file has mode %v, want 0600", fi.Mode().Perm())
	}
	if env.Password != (config.Password{Env: "ENV_PASSWORD"}) {
		t.Errorf("environment password source = %+v", env.Password)
	}
	if jo.Password.File != "" {
		if !strings.HasPrefix(jo.Password.File, newDir) {
			t.Errorf("password file %s is not in the new data directory", jo.Password.File)
		}
		b, err := os.ReadFile(jo.Password.File)
		if err != nil || string(b) != "s3cret password" {
			t.Errorf("restored password file: %q, %v", b, err)
		}
	} else if !jo.Password.Keyring {
		t.Errorf("restored password source = %+v", jo.Password)
	}
}
