package relayclient

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Keys are the node's relay identity: NodeKey signs self-service calls
// and the tunnel hello; BoxKey opens envelopes agents sealed to the node.
type Keys struct {
	Node ed25519.PrivateKey
	Box  *ecdh.PrivateKey // X25519
}

// BoxPublic is the box key's public half.
func (k Keys) BoxPublic() []byte { return k.Box.PublicKey().Bytes() }

// NodePublic is the node key's public half.
func (k Keys) NodePublic() ed25519.PublicKey { return k.Node.Public().(ed25519.PublicKey) }

type keyFile struct {
	NodeSeed []byte `json:"node_seed"`
	Box      []byte `json:"box"`
}

// NewKeys makes fresh keys.
func NewKeys() (Keys, error) {
	_, node, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, err
	}
	box, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, err
	}
	return Keys{Node: node, Box: box}, nil
}

// LoadKeys reads the keys at path, creating them (mode 0600) the first
// time.
func LoadKeys(path string) (Keys, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		k, err := NewKeys()
		if err != nil {
			return Keys{}, fmt.Errorf("relay keys: %w", err)
		}
		return k, SaveKeys(path, k)
	}
	if err != nil {
		return Keys{}, fmt.Errorf("relay keys: %w", err)
	}
	var f keyFile
	if err := json.Unmarshal(b, &f); err != nil || len(f.NodeSeed) != ed25519.SeedSize {
		return Keys{}, fmt.Errorf("relay keys: %s is not a key file", path)
	}
	box, err := ecdh.X25519().NewPrivateKey(f.Box)
	if err != nil {
		return Keys{}, fmt.Errorf("relay keys: %s: box key: %w", path, err)
	}
	return Keys{Node: ed25519.NewKeyFromSeed(f.NodeSeed), Box: box}, nil
}

// SaveKeys writes k to path atomically, mode 0600.
func SaveKeys(path string, k Keys) error {
	b, _ := json.Marshal(keyFile{NodeSeed: k.Node.Seed(), Box: k.Box.Bytes()})
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("relay keys: %w", err)
	}
	if err := writePrivate(path, b); err != nil {
		return fmt.Errorf("relay keys: %w", err)
	}
	return nil
}
