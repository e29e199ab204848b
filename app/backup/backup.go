// Package backup seals a node's identity into one file with a passphrase,
// to move the node to a new computer (docs/desktop.md): the keys, the relay
// name, the grants, the paired phones and the settings, never the mailbox,
// which syncs again.
//
// The file is a header line, then the sealed bundle:
//
//	mailnode-backup v2 argon2id m=262144 t=4 p=2\n
//	salt (16 bytes) | nonce (24 bytes) | XChaCha20-Poly1305 ciphertext
//
// The key is Argon2id (RFC 9106) of the passphrase and the salt, with the
// memory (KiB), passes and threads the header names, so a later version
// can raise them and still read older files. The header is the AEAD's
// additional data, so its parameters cannot be changed without the open
// failing. Files of the first format, whose header is
// "mailnode-backup v1 scrypt N=32768 r=8 p=1\n" and whose key is scrypt
// with those parameters, still open.
//
// The header comes from the file, which may be anyone's: Open refuses
// costs out of bounds (at most 1 GiB of memory, 16 passes, 16 threads and
// 4 GiB of passes in all) before it derives anything.
package backup

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/argon2"
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
	// RefreshTokens are the OAuth accounts' refresh tokens (Gmail,
	// Microsoft), by account name: the node got them itself, so they
	// travel as its passwords do.
	RefreshTokens map[string]string `json:"refresh_tokens,omitempty"`
	// RelayName is the node's name at its relay, for the person to see.
	RelayName string `json:"relay_name,omitempty"`
}

// Params are the Argon2id costs a backup is sealed with.
type Params struct {
	MemoryKiB uint32 // m
	Time      uint32 // t, passes over the memory
	Threads   uint8  // p
}

// DefaultParams are the costs Seal uses: 256 MiB, 4 passes, 2 threads,
// about one second on a 2-core machine (docs/desktop.md has the
// measurement). Raise them here; files keep the costs they were made with.
func DefaultParams() Params { return Params{MemoryKiB: 256 << 10, Time: 4, Threads: 2} }

// The bounds Open holds a file's header to, and Seal its own costs.
const (
	minMemoryKiB = 8 << 10 // 8 MiB
	maxMemoryKiB = 1 << 20 // 1 GiB
	maxTime      = 16
	maxThreads   = 16
	maxWork      = 4 << 20 // Time × MemoryKiB: 4 GiB of passes, about 4 s here
)

func (p Params) check() error {
	switch {
	case p.MemoryKiB < minMemoryKiB || p.MemoryKiB > maxMemoryKiB,
		p.Time < 1 || p.Time > maxTime,
		p.Threads < 1 || p.Threads > maxThreads,
		uint64(p.Time)*uint64(p.MemoryKiB) > maxWork:
		return fmt.Errorf("%w (m=%d KiB t=%d p=%d; this version takes m %d-%d, t 1-%d, p 1-%d, t×m up to %d)",
			ErrParams, p.MemoryKiB, p.Time, p.Threads, minMemoryKiB, maxMemoryKiB, maxTime, maxThreads, maxWork)
	}
	return nil
}

func (p Params) header() string {
	return fmt.Sprintf("%s m=%d t=%d p=%d\n", v2Prefix, p.MemoryKiB, p.Time, p.Threads)
}

const (
	magic = "mailnode-backup "
	// v1Header is the first format's whole header: scrypt, fixed costs.
	v1Header = magic + "v1 scrypt N=32768 r=8 p=1\n"
	v2Prefix = magic + "v2 argon2id"
	// maxHeader bounds the header line a reader looks for.
	maxHeader = 128

	scryptN, scryptR, scryptP = 1 << 15, 8, 1
	saltSize                  = 16
	// MinPassphrase is the shortest passphrase Seal takes.
	MinPassphrase = 10
)

// ErrPassphrase: the passphrase is wrong, or the file was changed.
var ErrPassphrase = errors.New("the passphrase is wrong, or the backup file was changed")

// ErrNotBackup: the file is not a mailnode backup.
var ErrNotBackup = errors.New("this is not a mailnode backup file")

// ErrParams: the file's header asks for key derivation costs out of the
// bounds this version accepts (a damaged or hostile file).
var ErrParams = errors.New("the backup file asks for key derivation costs out of bounds")

// ErrNewer: the file was made by a newer version of mailnode.
var ErrNewer = errors.New("this backup was made by a newer mailnode; update mailnode to open it")

// Seal encrypts b with passphrase, with the DefaultParams.
func Seal(b Bundle, passphrase string) ([]byte, error) {
	return sealWith(b, passphrase, DefaultParams())
}

func sealWith(b Bundle, passphrase string, p Params) ([]byte, error) {
	if len([]rune(passphrase)) < MinPassphrase {
		return nil, fmt.Errorf("the passphrase needs at least %d characters", MinPassphrase)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
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
	h := kdf{params: p}
	aead, err := h.aead(passphrase, salt)
	if err != nil {
		return nil, err
	}
	header := p.header()
	out := append([]byte(header), salt...)
	out = append(out, nonce...)
	return aead.Seal(out, nonce, plain, []byte(header)), nil
}

// Open decrypts a sealed backup of either format.
func Open(sealed []byte, passphrase string) (Bundle, error) {
	k, n, err := parseHeader(sealed)
	if err != nil {
		return Bundle{}, err
	}
	header, rest := sealed[:n], sealed[n:]
	if len(rest) < saltSize+chacha20poly1305.NonceSizeX+chacha20poly1305.Overhead {
		return Bundle{}, ErrNotBackup
	}
	salt, nonce, ct := rest[:saltSize], rest[saltSize:saltSize+chacha20poly1305.NonceSizeX], rest[saltSize+chacha20poly1305.NonceSizeX:]
	aead, err := k.aead(passphrase, salt)
	if err != nil {
		return Bundle{}, err
	}
	plain, err := aead.Open(nil, nonce, ct, header)
	if err != nil {
		return Bundle{}, ErrPassphrase
	}
	var b Bundle
	if err := json.Unmarshal(plain, &b); err != nil || b.Version != 1 {
		return Bundle{}, fmt.Errorf("backup: unreadable bundle (version %d)", b.Version)
	}
	return b, nil
}

// kdf is how a file's key is derived: the first format's scrypt, or
// Argon2id with params.
type kdf struct {
	scrypt bool
	params Params
}

// parseHeader reads the header line at the start of sealed: the key
// derivation it names and the header's length. A v2 header must be
// exactly as Seal writes it (no other spacing, no leading zeros), so one
// set of costs has one header and one additional data.
func parseHeader(sealed []byte) (kdf, int, error) {
	if !bytes.HasPrefix(sealed, []byte(magic)) {
		return kdf{}, 0, ErrNotBackup
	}
	end := bytes.IndexByte(sealed[:min(len(sealed), maxHeader)], '\n')
	if end < 0 {
		return kdf{}, 0, ErrNotBackup
	}
	line := string(sealed[:end+1])
	if line == v1Header {
		return kdf{scrypt: true}, len(line), nil
	}
	fields := strings.Split(line[:end], " ")
	if len(fields) < 2 || fields[1] == "" || fields[1][0] != 'v' {
		return kdf{}, 0, ErrNotBackup
	}
	if fields[1] != "v2" || len(fields) < 3 || fields[2] != "argon2id" {
		if v, err := strconv.Atoi(fields[1][1:]); err == nil && v > 2 {
			return kdf{}, 0, ErrNewer
		}
		return kdf{}, 0, ErrNotBackup
	}
	if len(fields) != 6 {
		return kdf{}, 0, ErrNotBackup
	}
	var vals [3]uint64
	for i, name := range []string{"m=", "t=", "p="} {
		s, ok := strings.CutPrefix(fields[3+i], name)
		if !ok {
			return kdf{}, 0, ErrNotBackup
		}
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return kdf{}, 0, ErrNotBackup
		}
		vals[i] = v
	}
	if vals[2] > 255 {
		vals[2] = 255 // out of bounds below, and fits the field
	}
	p := Params{MemoryKiB: uint32(vals[0]), Time: uint32(vals[1]), Threads: uint8(vals[2])}
	if err := p.check(); err != nil {
		return kdf{}, 0, err
	}
	if p.header() != line {
		return kdf{}, 0, ErrNotBackup
	}
	return kdf{params: p}, len(line), nil
}

func (k kdf) aead(passphrase string, salt []byte) (cipher.AEAD, error) {
	var key []byte
	if k.scrypt {
		var err error
		if key, err = scrypt.Key([]byte(passphrase), salt, scryptN, scryptR, scryptP, chacha20poly1305.KeySize); err != nil {
			return nil, fmt.Errorf("backup: %w", err)
		}
	} else {
		key = argon2.IDKey([]byte(passphrase), salt, k.params.Time, k.params.MemoryKiB, k.params.Threads, chacha20poly1305.KeySize)
	}
	return chacha20poly1305.NewX(key)
}
