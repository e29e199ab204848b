package agentkeys

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotHeld: the node holds no key document with that key, and Held
// does not fetch one.
var ErrNotHeld = fmt.Errorf("%w: not among the key documents the node holds", ErrUnknownKey)

// Held resolves keys from the documents a Fetcher already holds, and
// never fetches: the node verifies the relay's queued envelopes with it,
// so that an envelope never makes the node connect anywhere a stranger
// chose (docs/relay.md, "On the node"). It implements
// httpsig.KeyResolver.
type Held struct{ f *Fetcher }

// Held returns the resolver over f's documents.
func (f *Fetcher) Held() Held { return Held{f: f} }

// PublicKey returns the key kid of domain from the document f holds,
// whatever its age (a queued request never runs a tool, and a withdrawn
// document, 404 or 410, is dropped when a live call refetches it), or
// ErrNotHeld.
func (h Held) PublicKey(_ context.Context, domain, kid string) (ed25519.PublicKey, error) {
	domain = strings.ToLower(domain)
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	if e := h.f.cache[domain]; e != nil {
		if k := e.keys[kid]; k != nil {
			return k, nil
		}
	}
	return nil, ErrNotHeld
}

// heldFile is the form of Config.File.
type heldFile struct {
	Version int                   `json:"version"`
	Domains map[string]heldDomain `json:"domains"`
}

type heldDomain struct {
	Fetched time.Time         `json:"fetched"`
	Keys    map[string][]byte `json:"keys"` // kid → Ed25519 public key
}

// Load reads the documents kept in Config.File, if any; a missing file is
// none. Entries that do not check (a domain that is not a DNS name, a key
// that is not 32 bytes) are skipped.
func (f *Fetcher) Load() error {
	if f.cfg.File == "" {
		return nil
	}
	b, err := os.ReadFile(f.cfg.File)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("agent keys: %w", err)
	}
	var hf heldFile
	if err := json.Unmarshal(b, &hf); err != nil {
		return fmt.Errorf("agent keys: read %s: %w", filepath.Base(f.cfg.File), err)
	}
	if hf.Version != 1 {
		return fmt.Errorf("agent keys: %s: unknown version %d", filepath.Base(f.cfg.File), hf.Version)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for d, hd := range hf.Domains {
		if checkDomain(d) != nil || len(f.cache) >= f.cfg.MaxDomains {
			continue
		}
		keys := map[string]ed25519.PublicKey{}
		for kid, k := range hd.Keys {
			if len(k) == ed25519.PublicKeySize {
				keys[kid] = ed25519.PublicKey(k)
			}
		}
		if len(keys) > 0 {
			f.cache[d] = &entry{keys: keys, fetched: hd.Fetched, lastAttempt: hd.Fetched}
			f.saved[d] = true
		}
	}
	return nil
}

// save writes the documents f holds to Config.File, atomically.
func (f *Fetcher) save() error {
	if f.cfg.File == "" {
		return nil
	}
	f.saveMu.Lock()
	defer f.saveMu.Unlock()
	hf := heldFile{Version: 1, Domains: map[string]heldDomain{}}
	saved := map[string]bool{}
	f.mu.Lock()
	for d, e := range f.cache {
		if !f.keptLocked(d) {
			continue
		}
		saved[d] = true
		hd := heldDomain{Fetched: e.fetched, Keys: map[string][]byte{}}
		for kid, k := range e.keys {
			hd.Keys[kid] = k
		}
		hf.Domains[d] = hd
	}
	f.mu.Unlock()
	b, err := json.Marshal(hf)
	if err != nil {
		return err
	}
	dir := filepath.Dir(f.cfg.File)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".agentkeys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), f.cfg.File); err != nil {
		return err
	}
	f.mu.Lock()
	f.saved = saved
	f.mu.Unlock()
	return nil
}

// isSaved reports whether the file written last holds domain.
func (f *Fetcher) isSaved(domain string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.saved[domain]
}

// KeepNow writes domain's document to Config.File if it is held, kept
// and not there yet: the node calls it when the person grants an agent
// whose document it fetched before, so that a restart does not lose it.
func (f *Fetcher) KeepNow(domain string) {
	domain = strings.ToLower(domain)
	f.mu.Lock()
	_, held := f.cache[domain]
	todo := held && f.keptLocked(domain) && !f.saved[domain]
	f.mu.Unlock()
	if !todo {
		return
	}
	if err := f.save(); err != nil {
		f.log.Warn("Cannot keep agent key documents", "err", err)
	}
}
