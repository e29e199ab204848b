package autostart

import (
	"testing"

	"golang.org/x/sys/windows/registry"
)

// TestRunKey writes the value under a key of the test's own (the real Run
// key is the person's), reads it back as Explorer would, and removes it.
func TestRunKeyWindows(t *testing.T) {
	key := `Software\mailnode-test\Run`
	t.Cleanup(func() { registry.DeleteKey(registry.CURRENT_USER, key) })
	e := Entry{ID: "app.mailnode.node", Exe: `C:\Program Files\mailnode\mailnode.exe`, Args: []string{"--minimized"}, Dir: key}
	if e.Enabled() {
		t.Fatal("enabled before Set")
	}
	if err := e.Set(true); err != nil {
		t.Fatal(err)
	}
	k, err := registry.OpenKey(registry.CURRENT_USER, key, registry.QUERY_VALUE)
	if err != nil {
		t.Fatal(err)
	}
	v, typ, err := k.GetStringValue(e.ID)
	k.Close()
	if want := `"C:\Program Files\mailnode\mailnode.exe" --minimized`; err != nil || v != want || typ != registry.SZ {
		t.Errorf("Run value = %q (type %d), %v; want %q", v, typ, err, want)
	}
	if !e.Enabled() {
		t.Error("not enabled after Set(true)")
	}
	if err := e.Set(false); err != nil || e.Enabled() {
		t.Fatalf("Set(false) = %v, enabled %v", err, e.Enabled())
	}
	if err := e.Set(false); err != nil {
		t.Errorf("Set(false) with no value = %v", err)
	}
	if d, _ := defaultDir(); d != RunKey {
		t.Errorf("defaultDir = %q", d)
	}
}
