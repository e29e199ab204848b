// Package credential finds the IMAP password: in a file, an environment
// variable or the OS keyring, never in a command-line argument (which any
// local user can read from the process list). It also keeps the secrets
// the node obtains itself, OAuth refresh tokens (Save): in the OS keyring,
// or a 0600 file where none answers. Every value is a Secret that prints
// as "[redacted]" wherever it ends up.
package credential

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/zalando/go-keyring"

	"mailnode/internal/privdir"
)

// Secret is a password or key. Its String, GoString and LogValue forms hide
// the value so it cannot leak through a log line or a wrapped error.
type Secret string

func (Secret) String() string               { return "[redacted]" }
func (Secret) GoString() string             { return "[redacted]" }
func (Secret) LogValue() slog.Value         { return slog.StringValue("[redacted]") }
func (Secret) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// Reveal returns the value, for the one place that sends it to the server.
func (s Secret) Reveal() string { return string(s) }

// Source says where to look. The first non-empty field wins, in the order
// File, Env, Keyring.
type Source struct {
	// File is a path to a file holding the password (trailing newline
	// ignored). It must not be readable by group or others.
	File string
	// Env is the name of an environment variable holding the password.
	Env string
	// KeyringService and KeyringUser name an entry in the OS keyring
	// (Secret Service on Linux, Keychain on macOS, Credential Manager on
	// Windows).
	KeyringService string
	KeyringUser    string
}

// ErrNoSource is returned when no source is configured.
var ErrNoSource = errors.New("no password source configured (set a password file, an environment variable or a keyring entry)")

// Lookup returns the password and a description of where it came from
// (for the UI and logs; it never contains the value).
func (src Source) Lookup(getenv func(string) string) (Secret, string, error) {
	switch {
	case src.File != "":
		if err := checkPrivate(src.File); err != nil {
			return "", "", err
		}
		b, err := os.ReadFile(src.File)
		if err != nil {
			return "", "", fmt.Errorf("password file: %w", err)
		}
		return Secret(strings.TrimRight(string(b), "\r\n")), "file " + src.File, nil
	case src.Env != "":
		v := getenv(src.Env)
		if v == "" {
			return "", "", fmt.Errorf("environment variable %s is empty or unset", src.Env)
		}
		return Secret(v), "environment variable " + src.Env, nil
	case src.KeyringService != "":
		v, err := keyring.Get(src.KeyringService, src.KeyringUser)
		if err != nil {
			// Headless machines have no Secret Service; say what to do instead.
			return "", "", fmt.Errorf("OS keyring entry %s/%s: %w (on a machine without a keyring, use a password file or an environment variable)",
				src.KeyringService, src.KeyringUser, err)
		}
		return Secret(v), "OS keyring " + src.KeyringService, nil
	}
	return "", "", ErrNoSource
}

// Save keeps a secret the node itself obtained (an OAuth refresh token)
// where Lookup finds it again: in the OS keyring under service and user,
// or, where no keyring answers (a server without a Secret Service), in
// file, created 0600 and written atomically. It returns the Source to
// record in the account's settings; an error says both places failed.
// An empty service goes straight to the file: the caller knows no keyring
// runs (no session bus, where asking would start a bus of its own).
func Save(service, user, file string, s Secret) (Source, error) {
	kerr := errors.New("no keyring on this machine")
	if service != "" {
		kerr = keyring.Set(service, user, s.Reveal())
	}
	if kerr == nil {
		return Source{KeyringService: service, KeyringUser: user}, nil
	}
	if file == "" {
		return Source{}, fmt.Errorf("OS keyring entry %s/%s: %w (and no file to fall back to)", service, user, kerr)
	}
	if err := writeFile0600(file, []byte(s.Reveal()+"\n")); err != nil {
		return Source{}, fmt.Errorf("OS keyring entry %s/%s: %v; file: %w", service, user, kerr, err)
	}
	return Source{File: file}, nil
}

// Replace puts a new secret where src keeps one that Save stored (a
// refresh token the provider rotated), so that Lookup finds the new one.
func (src Source) Replace(s Secret) error {
	switch {
	case src.File != "":
		return writeFile0600(src.File, []byte(s.Reveal()+"\n"))
	case src.KeyringService != "":
		if err := keyring.Set(src.KeyringService, src.KeyringUser, s.Reveal()); err != nil {
			return fmt.Errorf("OS keyring entry %s/%s: %w", src.KeyringService, src.KeyringUser, err)
		}
		return nil
	}
	return ErrNoSource
}

// Delete removes what Save stored (signing out, a replaced grant). A
// missing entry is not an error.
func (src Source) Delete() error {
	switch {
	case src.File != "":
		if err := os.Remove(src.File); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	case src.KeyringService != "":
		if err := keyring.Delete(src.KeyringService, src.KeyringUser); err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return fmt.Errorf("OS keyring entry %s/%s: %w", src.KeyringService, src.KeyringUser, err)
		}
	}
	return nil
}

// writeFile0600 writes through a temporary file in the same directory,
// so a crash leaves the old secret or the new one, never half of one;
// the file is this user's alone from its first byte (0600, or on Windows
// a private DACL: internal/privdir).
func writeFile0600(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return privdir.WriteFile(path, b, 0o600)
}
