package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestMigrate: every version's fixture loads as the current version, and
// the version 1 file, saved, is byte for byte the version 2 fixture.
func TestMigrate(t *testing.T) {
	want, err := Load("testdata/v2.json")
	if err != nil {
		t.Fatal(err)
	}
	for v := 1; v <= Version; v++ {
		path := filepath.Join("testdata", "v"+string(rune('0'+v))+".json")
		got, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s loads as\n%+v\nwant\n%+v", path, got, want)
		}
		out := filepath.Join(t.TempDir(), "config.json")
		if err := Save(out, got); err != nil {
			t.Fatal(err)
		}
		saved, _ := os.ReadFile(out)
		fixture, _ := os.ReadFile("testdata/v2.json")
		if string(saved) != string(fixture) {
			t.Errorf("%s saved as\n%s\nwant\n%s", path, saved, fixture)
		}
	}
	if _, err := os.Stat(filepath.Join("testdata", "v"+string(rune('0'+Version+1))+".json")); err == nil {
		t.Errorf("a fixture newer than Version exists: raise Version and write the migration")
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unknown v1 field", `{"accounts":[],"listen":":443"}`, "unknown field"},
		{"unknown v2 field", `{"version":2,"accounts":[],"relay":{"url":"x","pin":"y"}}`, "unknown field"},
		{"v1 field in v2", `{"version":2,"accounts":[{"name":"a","server":"s","username":"u","password_file":"f"}]}`, "unknown field"},
		{"newer version", `{"version":9,"accounts":[]}`, "upgrade mailnode"},
		{"not json", `accounts: []`, "not a settings file"},
		{"nameless account", `{"version":2,"accounts":[{"server":"s"}]}`, "no name"},
		{"oauth without a token", `{"version":2,"accounts":[{"name":"a","server":"s","username":"u","oauth":{"provider":"google"}}]}`, "no refresh token"},
		{"oauth without a provider", `{"version":2,"accounts":[{"name":"a","server":"s","username":"u","oauth":{"keyring":true}}]}`, "no provider"},
		{"twice the same name", `{"version":2,"accounts":[{"name":"a","server":"s"},{"name":"a","server":"t"}]}`, "two accounts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%s) = %v, want an error with %q", tc.in, err, tc.want)
			}
		})
	}
}

// TestModify: changes are saved whole and 0600, concurrent changes keep
// each other, and a failed change writes nothing.
func TestModify(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.json")
	s := NewStore(path)
	if f, err := s.Load(); err != nil || f.Version != Version || len(f.Accounts) != 0 {
		t.Fatalf("Load of a missing file = %+v, %v; want an empty current file", f, err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Modify(func(f *File) error {
				f.Accounts = append(f.Accounts, Account{Name: "a" + string(rune('a'+i)), Server: "imap.example.com:993"})
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	f, err := Load(path)
	if err != nil || len(f.Accounts) != 20 {
		t.Fatalf("after 20 concurrent adds: %d accounts, %v", len(f.Accounts), err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("settings file mode %v, want 0600", fi.Mode().Perm())
	}
	before, _ := os.ReadFile(path)
	if _, err := s.Modify(func(f *File) error {
		f.Accounts = append(f.Accounts, f.Accounts[0]) // a duplicate name: invalid
		return nil
	}); err == nil {
		t.Error("Modify saved an invalid file")
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("a refused change altered the file")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".config-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/v1.json", "testdata/v2.json"} {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := Parse(b)
		if err != nil {
			return
		}
		if cfg.Version != Version || cfg.Validate() != nil {
			t.Fatalf("Parse accepted an invalid file: %+v", cfg)
		}
	})
}

// TestOAuthAccount: an OAuth account and the sign-in clients survive a
// save and a load, and the file holds no token, only where it is.
func TestOAuthAccount(t *testing.T) {
	f := File{Version: Version, SignIn: map[string]OAuthClient{"google": {ID: "id.apps.googleusercontent.com", Secret: "GOCSPX-x"}},
		Accounts: []Account{{Name: "work", Server: "imap.gmail.com:993", Username: "jo@gmail.com",
			OAuth: OAuth{Provider: "google", File: "/data/secrets/oauth-google.token"}}}}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := Save(path, f); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("Load(Save(f)) = %+v, want %+v", got, f)
	}
}
