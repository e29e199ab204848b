package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestIconsCurrent: the icons committed under assets/phone are what
// mkicons makes from icon.png now; after a new icon.png, `go generate
// ./assets` brings them along.
func TestIconsCurrent(t *testing.T) {
	dir := t.TempDir()
	if err := run("../icon.png", dir); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	if len(names) != 4 {
		t.Fatalf("mkicons made %d icons", len(names))
	}
	for _, n := range names {
		want, _ := os.ReadFile(n)
		got, err := os.ReadFile(filepath.Join("../phone", filepath.Base(n)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("assets/phone/%s is not what mkicons makes (%v): run go generate ./assets", filepath.Base(n), err)
		}
	}
}
