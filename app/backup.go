package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mailnode/app/backup"
	"mailnode/app/config"
	"mailnode/approvals"
	"mailnode/mail/credential"
)

// identityFiles are the node's key files, by their path in the data
// directory: the relay keys (the relay name belongs to the node key), the
// ACME account and certificate, and the local CA agents may pin.
var identityFiles = []string{"relay/keys.json", "relay/acme", "ca"}

// Backup seals the node's identity with a passphrase: the node and box
// keys, the relay name, the local CA, the grants, blocks and paired phones,
// the settings and the passwords the node keeps itself. The mailbox is not
// in it: it syncs again on the new computer.
func (n *Node) Backup(ctx context.Context, passphrase string) ([]byte, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	b := backup.Bundle{Created: time.Now().UTC(), Files: map[string][]byte{}, Passwords: map[string]string{},
		RefreshTokens: map[string]string{}}
	for _, rel := range identityFiles {
		root := filepath.Join(n.cfg.DataDir, filepath.FromSlash(rel))
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			name, _ := filepath.Rel(n.cfg.DataDir, path)
			b.Files[filepath.ToSlash(name)] = data
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("backup: %w", err)
		}
	}
	if b.Approvals, err = approvals.ExportIdentity(ctx, c.approvalTables); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	if n.cfg.Settings != nil {
		f, err := n.cfg.Settings.Load()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("backup: %w", err)
		}
		f.DataDir = "" // the new computer's is its own
		for i, a := range f.Accounts {
			if a.OAuth != (config.OAuth{}) {
				// The node signed in itself: the refresh token travels.
				tok, _, err := refreshSource(a).Lookup(n.cfg.Getenv)
				if err != nil {
					return nil, fmt.Errorf("backup: the %s sign-in of account %q: %w", a.OAuth.Provider, a.Name, err)
				}
				b.RefreshTokens[a.Name] = tok.Reveal()
				continue
			}
			// A password the node keeps itself travels with the backup;
			// one in the environment or in a file of the person's stays
			// theirs to bring.
			ownFile := a.Password.File != "" && strings.HasPrefix(a.Password.File, filepath.Join(n.cfg.DataDir, "secrets")+string(filepath.Separator))
			if !a.Password.Keyring && !ownFile {
				continue
			}
			src := credential.Source{File: a.Password.File}
			if a.Password.Keyring {
				src = credential.Source{KeyringService: keyringService, KeyringUser: a.Username}
			}
			pw, _, err := src.Lookup(n.cfg.Getenv)
			if err != nil {
				return nil, fmt.Errorf("backup: the password of account %q: %w", a.Name, err)
			}
			b.Passwords[a.Username] = pw.Reveal()
			f.Accounts[i].Password = config.Password{}
		}
		if b.Settings, err = json.Marshal(f); err != nil {
			return nil, fmt.Errorf("backup: %w", err)
		}
	}
	b.RelayName, _ = n.gws.relay()
	return backup.Seal(b, passphrase)
}

// WriteBackup seals the node's identity (Backup) into a new file at path,
// mode 0600; it never writes over an existing file.
func (n *Node) WriteBackup(ctx context.Context, path, passphrase string) error {
	sealed, err := n.Backup(ctx, passphrase)
	if err != nil {
		return err
	}
	return WriteBackupFile(path, sealed)
}

// WriteBackupFile writes a sealed backup (Backup's, or a running node's
// through the local API) into a new file at path, mode 0600; it never
// writes over an existing file.
func WriteBackupFile(path string, sealed []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if _, err := f.Write(sealed); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("backup: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

// ErrRestoreOver: a restore never writes over a node.
var ErrRestoreOver = errors.New("this data directory already holds a node; restore into a new, empty one")

// Restore writes a sealed backup into dataDir, which must hold no node,
// and the settings to settingsPath (default DATA_DIR/config.json). The
// node started there afterwards has the old node's name, keys, grants and
// phones, and syncs the mailbox again.
func Restore(ctx context.Context, dataDir, settingsPath string, sealed []byte, passphrase string, logger *slog.Logger) (RestoreResult, error) {
	b, err := backup.Open(sealed, passphrase)
	if err != nil {
		return RestoreResult{}, err
	}
	if _, err := os.Stat(filepath.Join(dataDir, "node.db")); err == nil {
		return RestoreResult{}, ErrRestoreOver
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return RestoreResult{}, fmt.Errorf("restore: %w", err)
	}
	for name, data := range b.Files {
		clean := filepath.Clean(filepath.FromSlash(name))
		if !filepath.IsLocal(clean) || !knownIdentityFile(filepath.ToSlash(clean)) {
			return RestoreResult{}, fmt.Errorf("restore: the backup names a file outside the node's keys: %q", name)
		}
		path := filepath.Join(dataDir, clean)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return RestoreResult{}, fmt.Errorf("restore: %w", err)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return RestoreResult{}, fmt.Errorf("restore: %w", err)
		}
	}
	if settingsPath == "" {
		settingsPath = filepath.Join(dataDir, "config.json")
	}
	var settings *config.Store
	if len(b.Settings) > 0 {
		settings = config.NewStore(settingsPath)
	}
	n, err := New(Config{DataDir: dataDir, Settings: settings}, logger)
	if err != nil {
		return RestoreResult{}, err
	}
	if err := n.Start(ctx); err != nil {
		return RestoreResult{}, err
	}
	defer n.Stop()
	c, err := n.comp()
	if err != nil {
		return RestoreResult{}, err
	}
	if err := approvals.ImportIdentity(ctx, c.approvalTables, b.Approvals); err != nil {
		return RestoreResult{}, err
	}
	res := RestoreResult{RelayName: b.RelayName, Phones: len(b.Approvals.Phones), Grants: len(b.Approvals.Grants), Created: b.Created}
	if settings != nil {
		f, err := config.Parse(b.Settings)
		if err != nil {
			return RestoreResult{}, fmt.Errorf("restore: settings: %w", err)
		}
		for i, a := range f.Accounts {
			if tok, ok := b.RefreshTokens[a.Name]; ok && a.OAuth != (config.OAuth{}) {
				// Kept again where this computer keeps them; the old
				// computer's place means nothing here.
				kept, err := keepRefresh(a.OAuth.Provider, a.Username, credential.Secret(tok), dataDir, n.cfg.Getenv)
				if err != nil {
					return RestoreResult{}, fmt.Errorf("restore: %w", err)
				}
				// Only where the token is kept changes: the first sign-in's
				// sub and tid still decide who may sign in again.
				f.Accounts[i].OAuth.File, f.Accounts[i].OAuth.Keyring = kept.File, kept.Keyring
				continue
			}
			if pw, ok := b.Passwords[a.Username]; ok {
				if f.Accounts[i].Password, err = n.StorePassword(ctx, a.Username, pw); err != nil {
					return RestoreResult{}, err
				}
			}
		}
		if err := config.Save(settingsPath, f); err != nil {
			return RestoreResult{}, fmt.Errorf("restore: settings: %w", err)
		}
		res.Accounts = len(f.Accounts)
	}
	return res, nil
}

// ReplaceWithBackup puts the node in dataDir aside and restores a backup
// in its place: the desktop app's restore, where the app has already made
// a node of its own on this computer. The node must be stopped. Nothing is
// deleted: the old node's files (and a settings file outside dataDir) move
// into the folder this returns, DATA_DIR/replaced-TIME; a wrong
// passphrase or a damaged file changes nothing, and a restore that fails
// halfway puts the old node back.
func ReplaceWithBackup(ctx context.Context, dataDir, settingsPath string, sealed []byte, passphrase string, logger *slog.Logger) (RestoreResult, string, error) {
	if _, err := backup.Open(sealed, passphrase); err != nil {
		return RestoreResult{}, "", err
	}
	aside := filepath.Join(dataDir, "replaced-"+time.Now().UTC().Format("20060102-150405"))
	if err := os.Mkdir(aside, 0o700); err != nil {
		return RestoreResult{}, "", fmt.Errorf("restore: put the old node aside: %w", err)
	}
	type move struct{ from, to string }
	var moved []move
	outside := false // the settings file lives outside dataDir
	if settingsPath != "" {
		rel, err := filepath.Rel(dataDir, settingsPath)
		outside = err != nil || !filepath.IsLocal(rel)
	}
	undo := func() {
		if outside {
			os.Remove(settingsPath)
		}
		// Whatever the restore wrote goes; the old node comes back.
		entries, _ := os.ReadDir(dataDir)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), "replaced-") {
				os.RemoveAll(filepath.Join(dataDir, e.Name()))
			}
		}
		for i := len(moved) - 1; i >= 0; i-- {
			os.Rename(moved[i].to, moved[i].from)
		}
		os.Remove(aside)
	}
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		os.Remove(aside)
		return RestoreResult{}, "", fmt.Errorf("restore: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "replaced-") {
			continue
		}
		m := move{filepath.Join(dataDir, e.Name()), filepath.Join(aside, e.Name())}
		if err := os.Rename(m.from, m.to); err != nil {
			undo()
			return RestoreResult{}, "", fmt.Errorf("restore: put the old node aside: %w", err)
		}
		moved = append(moved, m)
	}
	if outside {
		m := move{settingsPath, filepath.Join(aside, "settings-"+filepath.Base(settingsPath))}
		if err := os.Rename(m.from, m.to); err == nil {
			moved = append(moved, m)
		} else if !errors.Is(err, fs.ErrNotExist) {
			undo()
			return RestoreResult{}, "", fmt.Errorf("restore: put the old settings aside: %w", err)
		}
	}
	res, err := Restore(ctx, dataDir, settingsPath, sealed, passphrase, logger)
	if err != nil {
		undo()
		return RestoreResult{}, "", err
	}
	return res, aside, nil
}

// RestoreResult says what a restore brought back.
type RestoreResult struct {
	RelayName                string
	Accounts, Phones, Grants int
	Created                  time.Time
}

func knownIdentityFile(name string) bool {
	for _, f := range identityFiles {
		if name == f || strings.HasPrefix(name, f+"/") {
			return true
		}
	}
	return false
}
