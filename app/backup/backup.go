// Package backup seals a node's identity into one file with a passphrase,
// to move the node to a new computer (docs/desktop.md): the keys, the relay
// name, the grants, the paired phones and the settings, never the mailbox,
// which syncs again.
//
// The file is a header line, then the sealed bundle:
//
//	mailnode-backup v1 scrypt N=32768 r=8 p=1\n
//	salt (16 bytes) | nonce (24 bytes) | XChaCha20-Poly1305 ciphertext
//
// The key is scrypt(passphrase, salt); the header is the AEAD's additional
// data, so its parameters cannot be changed without the open failing.
package backup

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/scrypt"

	"mailnode/approvals"
)

// Bundle is what a backup holds.
type Bundle struct {
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Settings is the settings file (app/config) with its data directory
	// cleared and node-kept passwords moved into Passwords.
	Settings json.RawMessage `json:"settings,omitempty"`
	// Files are the node's key files by their path in the data directory
	// (the relay keys and ACME certificate, the local CA).
	Files map[string][]byte `json:"files"`
	// Approvals are the grants, blocks, paired phones and phone key.
	Approvals approvals.Identity `json:"approvals"`
	// Passwords are the passwords the node kept itself (keyring or its
	// own file), by username.
	Passwords map[string]string `json:"passwords,omitempty"`
	// RelayName is the node's name at its relay, for the person to see.
	RelayName string `json:"relay_name,omitempty"`
}

// header names the format and the scrypt parameters.
const header = "mailnode-backup v1 scrypt N=32768 r=8 p=1\n"

const (
	scryptN, scryptR, scryptP = 1 << 15, 8, 1
	saltSize                  = 16
	// MinPassphrase is the shortest passphrase Seal takes.
	MinPassphrase = 10
)

// ErrPassphrase: the passphrase is wrong, or the file was changed.
var ErrPassphrase = errors.New("the passphrase is wrong, or the backup file was changed")

// ErrNotBackup: the file is not a mailnode backup.
var ErrNotBackup = errors.New("this is not a mailnode backup file")

// Seal encrypts b with passphrase.
func Seal(b Bundle, passphrase string) ([]byte, error) {
	if len([]rune(passphrase)) < MinPassphrase {
		return nil, fmt.Errorf("the passphrase needs at least %d characters", MinPassphrase)
	}
	b.Version = 1
	plain, err := json.Marshal(b)
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	salt := make([]byte, saltSize)
	nonce := make([]byte, chacha20poly1305.NonceSizeX)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	aead, err := key(passphrase, salt)
	if err != nil {
		return nil, err
	}
	out := append([]byte(header), salt...)
	out = append(out, nonce...)
	return aead.Seal(out, nonce, plain, []byte(header)), nil
}

// Open decrypts a sealed backup.
func Open(sealed []byte, passphrase string) (Bundle, error) {
	rest, ok := bytes.CutPrefix(sealed, []byte(header))
	if !ok {
		return Bundle{}, ErrNotBackup
	}
	if len(rest) < saltSize+chacha20poly1305.NonceSizeX+chacha20poly1305.Overhead {
		return Bundle{}, ErrNotBackup
	}
	salt, nonce, ct := rest[:saltSize], rest[saltSize:saltSize+chacha20poly1305.NonceSizeX], rest[saltSize+chacha20poly1305.NonceSizeX:]
	aead, err := key(passphrase, salt)
	if err != nil {
		return Bundle{}, err
	}
	plain, err := aead.Open(nil, nonce, ct, []byte(header))
	if err != nil {
		return Bundle{}, ErrPassphrase
	}
	var b Bundle
	if err := json.Unmarshal(plain, &b); err != nil || b.Version != 1 {
		return Bundle{}, fmt.Errorf("backup: unreadable bundle (version %d)", b.Version)
	}
	return b, nil
}

func key(passphrase string, salt []byte) (cipher.AEAD, error) {
	k, err := scrypt.Key([]byte(passphrase), salt, scryptN, scryptR, scryptP, chacha20poly1305.KeySize)
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	return chacha20poly1305.NewX(k)
}
