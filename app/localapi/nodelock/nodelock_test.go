package nodelock

import (
	"errors"
	"testing"
)

// TestTake: one holder at a time per directory, the lock free again after
// Release, Held seeing it without taking it for good.
func TestTake(t *testing.T) {
	dir := t.TempDir()
	if Held(dir) {
		t.Fatal("held before anyone took it")
	}
	l, err := Take(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Take(dir); !errors.Is(err, ErrHeld) {
		t.Errorf("a second Take = %v, want ErrHeld", err)
	}
	if !Held(dir) {
		t.Error("Held = false while taken")
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l.Release()
	if Held(dir) {
		t.Error("held after Release")
	}
	l2, err := Take(dir)
	if err != nil {
		t.Fatalf("Take after Release = %v", err)
	}
	l2.Release()
}
