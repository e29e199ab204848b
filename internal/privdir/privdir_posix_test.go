//go:build !windows

package privdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestEnsure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if changed, err := Ensure(dir); err != nil || changed {
		t.Fatalf("Ensure(new) = %v, %v", changed, err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", fi.Mode().Perm())
	}
	os.Chmod(dir, 0o777)
	if changed, err := Ensure(dir); err != nil || !changed {
		t.Fatalf("Ensure(0777) = %v, %v; want made private", changed, err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", fi.Mode().Perm())
	}
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o600)
	if _, err := Ensure(f); err == nil {
		t.Error("Ensure(a file) = nil")
	}
}

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "ca.key")
	if err := CheckFile(key); err != nil {
		t.Errorf("missing file: %v", err)
	}
	os.WriteFile(key, []byte("k"), 0o600)
	if err := CheckFile(key); err != nil {
		t.Errorf("0600: %v", err)
	}
	os.Chmod(key, 0o666)
	if err := CheckFile(key); err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Errorf("0666: %v", err)
	}
	if changed, err := MakePrivate(key); err != nil || !changed {
		t.Errorf("MakePrivate(0666) = %v, %v", changed, err)
	}
	if err := CheckFile(key); err != nil {
		t.Errorf("after MakePrivate: %v", err)
	}
	pub := filepath.Join(dir, "ca.pem")
	os.WriteFile(pub, []byte("c"), 0o644)
	if err := CheckPublic(pub); err != nil {
		t.Errorf("CheckPublic(0644): %v", err)
	}
	os.Chmod(pub, 0o666)
	if err := CheckPublic(pub); err == nil {
		t.Error("CheckPublic(0666) = nil")
	}
	link := filepath.Join(dir, "link.key")
	os.Symlink(key, link)
	if err := CheckFile(link); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("symlink: %v", err)
	}
}

// TestOtherUsersDirectory: a directory another user made first (as in
// /tmp) is refused, and so is a key file of theirs. Needs root, to make
// them as another user.
func TestOtherUsersDirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a directory as another user")
	}
	// Not t.TempDir: its parent is closed to other users.
	base, err := os.MkdirTemp("", "privdir-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o777)
	dir := filepath.Join(base, "planted")
	if out, err := exec.Command("su", "nobody", "-s", "/bin/sh", "-c", "mkdir -m 0777 "+dir+" && echo k > "+dir+"/ca.key && chmod 0600 "+dir+"/ca.key").CombinedOutput(); err != nil {
		t.Fatalf("as nobody: %v %s", err, out)
	}
	if _, err := Ensure(dir); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("Ensure(another user's directory) = %v", err)
	}
	if err := CheckFile(filepath.Join(dir, "ca.key")); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("CheckFile(another user's key) = %v", err)
	}
}

func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ca.key")
	for _, data := range []string{"first", "second"} {
		if err := WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		fi, _ := os.Stat(p)
		if string(b) != data || fi.Mode().Perm() != 0o600 {
			t.Errorf("after writing %q: %q, mode %v", data, b, fi.Mode().Perm())
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Errorf("%d entries left in the directory, want the file alone", len(ents))
	}
	if err := WriteFile(filepath.Join(t.TempDir(), "missing", "x"), nil, 0o600); err == nil {
		t.Error("writing into a missing directory = nil error")
	}
}
