package assets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// TestDemoSenderHistory: the demo's sender history parses, and names none
// of the demo mailbox's hostile senders, which stay as new as their mail.
func TestDemoSenderHistory(t *testing.T) {
	h, err := DemoSenderHistory()
	if err != nil {
		t.Fatal(err)
	}
	if len(h) < 20 {
		t.Fatalf("%d domains", len(h))
	}
	for d := range h {
		for _, hostile := range []string{"account-verify", "billing-secure", "amaz0n"} {
			if strings.Contains(d, hostile) {
				t.Errorf("the hostile sender %s is in the history", d)
			}
		}
	}
}

// TestPhoneAppFiles: the web app's manifest has what Android Chrome's
// install prompt asks for, each icon it names is a PNG of the size it
// says, and every file the service worker caches on install exists (one
// missing file fails the whole install, and with it push).
func TestPhoneAppFiles(t *testing.T) {
	app := PhoneApp()
	b, err := fs.ReadFile(app, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Icons []struct{ Src, Sizes, Type, Purpose string }
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	json.Unmarshal(b, &raw)
	for _, k := range []string{"name", "short_name", "start_url", "scope", "display", "background_color", "theme_color"} {
		if s, _ := raw[k].(string); s == "" {
			t.Errorf("manifest.json: no %s", k)
		}
	}
	if raw["display"] != "standalone" {
		t.Errorf("manifest display %v, want standalone", raw["display"])
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		f, err := app.Open(ic.Src)
		if err != nil {
			t.Errorf("icon %s: %v", ic.Src, err)
			continue
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || ic.Type != "image/png" {
			t.Errorf("icon %s (%s): %v", ic.Src, ic.Type, err)
			continue
		}
		if got := fmt.Sprintf("%dx%d", cfg.Width, cfg.Height); got != ic.Sizes {
			t.Errorf("icon %s is %s, the manifest says %s", ic.Src, got, ic.Sizes)
		}
		sizes[ic.Purpose+" "+ic.Sizes] = true
	}
	for _, want := range []string{"any 192x192", "any 512x512", "maskable 512x512"} {
		if !sizes[want] {
			t.Errorf("manifest has no %s icon", want)
		}
	}

	sw, err := fs.ReadFile(app, "sw.js")
	if err != nil {
		t.Fatal(err)
	}
	shell := regexp.MustCompile(`(?s)const SHELL = \[(.*?)\];`).FindSubmatch(sw)
	if shell == nil {
		t.Fatal("sw.js: no SHELL list")
	}
	cached := regexp.MustCompile(`'\./([^']*)'`).FindAllSubmatch(shell[1], -1)
	if len(cached) < 5 {
		t.Fatalf("sw.js caches %d files", len(cached))
	}
	for _, c := range cached {
		name := string(c[1])
		if name == "" {
			continue // the app's directory: index.html
		}
		if _, err := fs.Stat(app, name); err != nil {
			t.Errorf("sw.js caches %s: %v", name, err)
		}
	}
	index, _ := fs.ReadFile(app, "index.html")
	for _, ref := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllSubmatch(index, -1) {
		name := string(ref[1])
		if _, err := fs.Stat(app, name); err != nil {
			t.Errorf("index.html names %s: %v", name, err)
		}
		if !bytes.Contains(shell[1], []byte("'./"+name+"'")) {
			t.Errorf("index.html names %s, which sw.js does not cache", name)
		}
	}
	if !bytes.Contains(index, []byte(`rel="apple-touch-icon" href="apple-touch-icon.png"`)) {
		t.Error("index.html names no apple-touch-icon")
	}
}
