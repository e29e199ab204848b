// Package credential finds the IMAP password. It comes from a file, an
// environment variable or the OS keyring, never from a command-line argument
// (which any local user can read from the process list), and the value is a
// Secret that prints as "[redacted]" wherever it ends up.
package credential

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/zalando/go-keyring"
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
		fi, err := os.Stat(src.File)
		if err != nil {
			return "", "", fmt.Errorf("password file: %w", err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			return "", "", fmt.Errorf("password file %s is readable by others (mode %v); chmod 600 it", src.File, fi.Mode().Perm())
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
