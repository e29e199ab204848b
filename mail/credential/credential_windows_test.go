package credential

import (
	"path/filepath"
	"testing"

	"mailnode/internal/wintest"
)

// TestKeyringWindows: a secret the node saves goes to the Windows
// Credential Manager (go-keyring's wincred), is found again, and is
// deleted; the file a secret falls back to passes as private.
func TestKeyringWindows(t *testing.T) {
	const service, user = "mailnode-test", "ana@example.com"
	src, err := Save(service, user, "", Secret("s3cret"))
	if err != nil {
		t.Fatalf("Save to the Credential Manager: %v", err)
	}
	t.Cleanup(func() { src.Delete() })
	if src.KeyringService != service {
		t.Fatalf("Save = %+v, want the keyring", src)
	}
	got, where, err := src.Lookup(func(string) string { return "" })
	if err != nil || got.Reveal() != "s3cret" {
		t.Fatalf("Lookup = %q (%s), %v", got.Reveal(), where, err)
	}
	if err := src.Delete(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := src.Lookup(func(string) string { return "" }); err == nil {
		t.Error("Lookup after Delete = nil")
	}

	file := filepath.Join(wintest.TempDir(t), "secrets", "ana")
	if err := writeFile0600(file, []byte("s3cret\n")); err != nil {
		t.Fatal(err)
	}
	if wintest.UnderWine() {
		t.Skip("Wine keeps no DACL (it derives one from the unix mode bits on each read): a password file's private DACL cannot be read back here; this part runs on Windows")
	}
	got, _, err = Source{File: file}.Lookup(nil)
	if err != nil || got.Reveal() != "s3cret" {
		t.Errorf("Lookup(file) = %q, %v", got.Reveal(), err)
	}
}
