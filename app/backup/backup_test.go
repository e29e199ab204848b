package backup

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/chacha20poly1305"
)

const fixturePass = "correct horse battery staple"

func sample() Bundle {
	return Bundle{
		Created:   time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC),
		Files:     map[string][]byte{"relay/keys.json": []byte(`{"node_key":"x"}`)},
		Passwords: map[string]string{"jo@example.net": "s3cret password"},
		RelayName: "n-test.relay.example.net",
	}
}

// TestOpenV1Fixture: a backup the first format's Seal wrote (scrypt,
// testdata/README.md) still opens, and a wrong passphrase still fails.
func TestOpenV1Fixture(t *testing.T) {
	sealed, err := os.ReadFile("testdata/v1-scrypt.mnb")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(sealed, []byte(v1Header)) {
		t.Fatalf("the fixture is not a v1 file: %q", sealed[:40])
	}
	b, err := Open(sealed, fixturePass)
	if err != nil {
		t.Fatalf("Open(v1 fixture) = %v", err)
	}
	if b.RelayName != "n-fixture.relay.example.net" || b.Passwords["jo@example.net"] != "s3cret password" ||
		string(b.Files["ca/ca-key.pem"]) != "-----BEGIN FIXTURE-----\n" || !b.Created.Equal(time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC)) {
		t.Errorf("Open(v1 fixture) = %+v", b)
	}
	if _, err := Open(sealed, fixturePass+"!"); !errors.Is(err, ErrPassphrase) {
		t.Errorf("Open(v1 fixture, wrong passphrase) = %v, want ErrPassphrase", err)
	}
}

// TestSealArgon2id: a new file is Argon2id with the default costs, named in
// its header; the key is Argon2id of exactly those costs (derived here
// apart from Open); a wrong passphrase and a header with other costs fail
// as a wrong passphrase does.
func TestSealArgon2id(t *testing.T) {
	const pass = "lavender lunacy quickness ladybug playful reaffirm"
	sealed, err := Seal(sample(), pass)
	if err != nil {
		t.Fatal(err)
	}
	const want = "mailnode-backup v2 argon2id m=262144 t=4 p=2\n"
	if !bytes.HasPrefix(sealed, []byte(want)) {
		t.Fatalf("header = %q, want %q", sealed[:min(len(sealed), len(want))], want)
	}
	rest := sealed[len(want):]
	salt, nonce, ct := rest[:saltSize], rest[saltSize:saltSize+chacha20poly1305.NonceSizeX], rest[saltSize+chacha20poly1305.NonceSizeX:]
	aead, _ := chacha20poly1305.NewX(argon2.IDKey([]byte(pass), salt, 4, 256<<10, 2, 32))
	if _, err := aead.Open(nil, nonce, ct, []byte(want)); err != nil {
		t.Fatalf("the file does not open with Argon2id m=256 MiB t=4 p=2 of the passphrase: %v", err)
	}
	b, err := Open(sealed, pass)
	if err != nil || b.RelayName != "n-test.relay.example.net" || b.Passwords["jo@example.net"] != "s3cret password" {
		t.Fatalf("Open = %+v, %v", b, err)
	}
	if _, err := Open(sealed, pass+" "); !errors.Is(err, ErrPassphrase) || err.Error() != "the passphrase is wrong, or the backup file was changed" {
		t.Errorf("Open(wrong passphrase) = %v, want ErrPassphrase", err)
	}
	// Costs lowered in the header: another key and other additional data.
	lowered := append([]byte("mailnode-backup v2 argon2id m=8192 t=1 p=1\n"), rest...)
	if _, err := Open(lowered, pass); !errors.Is(err, ErrPassphrase) {
		t.Errorf("Open(header with lowered costs) = %v, want ErrPassphrase", err)
	}
	if _, err := Seal(sample(), "too short"); err == nil {
		t.Error("Seal took a 9-character passphrase")
	}
}

// TestStoredParams: Open derives with the costs the header names, not the
// defaults: a file sealed with other costs opens.
func TestStoredParams(t *testing.T) {
	for _, p := range []Params{{MemoryKiB: 8 << 10, Time: 1, Threads: 1}, {MemoryKiB: 64 << 10, Time: 2, Threads: 4}} {
		sealed, err := sealWith(sample(), fixturePass, p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(sealed, []byte(p.header())) {
			t.Errorf("sealWith(%+v) header = %q", p, sealed[:50])
		}
		if b, err := Open(sealed, fixturePass); err != nil || b.RelayName != "n-test.relay.example.net" {
			t.Errorf("Open(sealed with %+v) = %v", p, err)
		}
	}
	if _, err := sealWith(sample(), fixturePass, Params{MemoryKiB: 2 << 20, Time: 1, Threads: 1}); !errors.Is(err, ErrParams) {
		t.Errorf("sealWith(2 GiB) = %v, want ErrParams: Seal must not write what Open refuses", err)
	}
}

// TestHostileHeader: a header out of bounds is refused before any key is
// derived: no file makes the reader allocate more than the bounds (here:
// nothing near the 100 GiB one asks for) or spend minutes.
func TestHostileHeader(t *testing.T) {
	body := bytes.Repeat([]byte{7}, saltSize+chacha20poly1305.NonceSizeX+chacha20poly1305.Overhead+10)
	for _, tc := range []struct {
		header string
		want   error
	}{
		{"mailnode-backup v2 argon2id m=104857600 t=4 p=2\n", ErrParams}, // 100 GiB
		{"mailnode-backup v2 argon2id m=4294967295 t=4 p=2\n", ErrParams},
		{"mailnode-backup v2 argon2id m=2097152 t=1 p=1\n", ErrParams}, // 2 GiB
		{"mailnode-backup v2 argon2id m=262144 t=4294967295 p=2\n", ErrParams},
		{"mailnode-backup v2 argon2id m=262144 t=17 p=2\n", ErrParams},
		{"mailnode-backup v2 argon2id m=1048576 t=16 p=2\n", ErrParams}, // 16 GiB of passes
		{"mailnode-backup v2 argon2id m=262144 t=0 p=2\n", ErrParams},
		{"mailnode-backup v2 argon2id m=262144 t=4 p=0\n", ErrParams},
		{"mailnode-backup v2 argon2id m=262144 t=4 p=255\n", ErrParams},
		{"mailnode-backup v2 argon2id m=262144 t=4 p=256\n", ErrParams},
		{"mailnode-backup v2 argon2id m=1024 t=4 p=2\n", ErrParams},
		{"mailnode-backup v2 argon2id m=99999999999 t=4 p=2\n", ErrNotBackup}, // beyond 32 bits
		{"mailnode-backup v2 argon2id m=0262144 t=4 p=2\n", ErrNotBackup},     // not as Seal writes it
		{"mailnode-backup v2 argon2id m=+262144 t=4 p=2\n", ErrNotBackup},
		{"mailnode-backup v2 argon2id  m=262144 t=4 p=2\n", ErrNotBackup},
		{"mailnode-backup v2 argon2id t=4 m=262144 p=2\n", ErrNotBackup},
		{"mailnode-backup v2 argon2id m=262144 t=4 p=2 x=1\n", ErrNotBackup},
		{"mailnode-backup v2 argon2id m=262144 t=4\n", ErrNotBackup},
		{"mailnode-backup v2 argon2d m=262144 t=4 p=2\n", ErrNotBackup},
		{"mailnode-backup v2 argon2id m=262144 t=4 p=2\r\n", ErrNotBackup},
		{"mailnode-backup v1 scrypt N=1048576 r=8 p=1\n", ErrNotBackup},
		{"mailnode-backup v3 argon2id m=262144 t=4 p=2\n", ErrNewer},
		{"mailnode-backup v2 argon2id m=262144 t=4 p=2" + strings.Repeat(" ", 200) + "\n", ErrNotBackup},
		{"mailnode-backup ", ErrNotBackup},
		{"not a backup\n", ErrNotBackup},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := Open(append([]byte(tc.header), body...), fixturePass)
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, tc.want) {
			t.Errorf("Open(%q) = %v, want %v", tc.header, err, tc.want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 || took > time.Second {
			t.Errorf("Open(%q) allocated %d bytes in %v before refusing", tc.header, alloc, took)
		}
	}
	// The message names the costs and the bounds.
	_, err := Open(append([]byte("mailnode-backup v2 argon2id m=104857600 t=4 p=2\n"), body...), fixturePass)
	if err == nil || !strings.Contains(err.Error(), "m=104857600 KiB") {
		t.Errorf("Open(100 GiB) = %v, want the costs named", err)
	}
}

// FuzzParseHeader: the header comes from a file anyone may hand over. A
// header that parses has costs within the bounds, and is exactly the
// header Seal writes for them (or the first format's).
func FuzzParseHeader(f *testing.F) {
	f.Add([]byte(v1Header))
	f.Add([]byte(DefaultParams().header()))
	f.Add([]byte("mailnode-backup v2 argon2id m=104857600 t=4 p=2\n"))
	f.Add([]byte("mailnode-backup v9 x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, n, err := parseHeader(data)
		if err != nil {
			return
		}
		if n <= 0 || n > maxHeader || n > len(data) {
			t.Fatalf("parseHeader(%q) length %d", data, n)
		}
		if k.scrypt {
			if string(data[:n]) != v1Header {
				t.Fatalf("parseHeader(%q) = scrypt", data)
			}
			return
		}
		if err := k.params.check(); err != nil {
			t.Fatalf("parseHeader(%q) = %+v out of bounds", data, k.params)
		}
		if string(data[:n]) != k.params.header() {
			t.Fatalf("parseHeader(%q) = %+v, whose header is %q", data, k.params, k.params.header())
		}
	})
}

// TestNewPassphrase: the embedded list is the EFF's large wordlist as
// published, and a passphrase is six of its words, fresh each time.
func TestNewPassphrase(t *testing.T) {
	sum := sha256.Sum256([]byte(effLarge))
	if got := hex.EncodeToString(sum[:]); got != "addd35536511597a02fa0a9ff1e5284677b8883b83e986e43f15a3db996b903e" {
		t.Errorf("the embedded wordlist's SHA-256 = %s, not the EFF's file", got)
	}
	list := words()
	in := map[string]bool{}
	for _, w := range list {
		in[w] = true
	}
	if len(list) != 7776 || len(in) != 7776 || list[0] != "abacus" || list[7775] != "zoom" {
		t.Fatalf("wordlist: %d words, %d distinct", len(list), len(in))
	}
	seen := map[string]bool{}
	for range 20 {
		p, err := NewPassphrase()
		if err != nil {
			t.Fatal(err)
		}
		ws := strings.Split(p, " ")
		if len(ws) != PassphraseWords || len([]rune(p)) < MinPassphrase {
			t.Fatalf("NewPassphrase() = %q, want %d words", p, PassphraseWords)
		}
		for _, w := range ws {
			if !in[w] {
				t.Fatalf("NewPassphrase() = %q: %q is not in the list", p, w)
			}
		}
		if seen[p] {
			t.Fatalf("NewPassphrase() repeated %q", p)
		}
		seen[p] = true
	}
}

// BenchmarkDefaultParams measures one key derivation with the default
// costs (docs/desktop.md): go test -run '^$' -bench DefaultParams -benchtime 5x ./app/backup/
func BenchmarkDefaultParams(b *testing.B) {
	p, salt := DefaultParams(), make([]byte, saltSize)
	for b.Loop() {
		argon2.IDKey([]byte(fixturePass), salt, p.Time, p.MemoryKiB, p.Threads, chacha20poly1305.KeySize)
	}
}
