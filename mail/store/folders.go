package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Account identifies one IMAP account. Secrets are never stored here.
type Account struct {
	ID       int64
	Name     string
	Server   string
	Username string
}

// EnsureAccount returns the account with a.Name, creating it or updating its
// server and username.
func (s *Store) EnsureAccount(ctx context.Context, a Account) (Account, error) {
	// Read first: the common case changes nothing and needs no write
	// transaction.
	var server, username string
	err := s.db.QueryRowContext(ctx, `SELECT id, server, username FROM accounts WHERE name = ?`, a.Name).Scan(&a.ID, &server, &username)
	if err == nil && server == a.Server && username == a.Username {
		return a, nil
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
		INSERT INTO accounts (name, server, username) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET server = excluded.server, username = excluded.username
		RETURNING id`, a.Name, a.Server, a.Username).Scan(&a.ID)
	})
	if err != nil {
		return Account{}, fmt.Errorf("ensure account %q: %w", a.Name, err)
	}
	return a, nil
}

// Folder is a synced folder and its IMAP state.
type Folder struct {
	ID            int64
	AccountID     int64
	Name          string
	SpecialUse    string
	UIDValidity   uint32
	UIDNext       uint32
	HighestModSeq uint64
	LastUID       uint32 // every message with UID <= LastUID is stored
	SyncedAt      time.Time
}

const folderColumns = `id, account_id, name, special_use, uidvalidity, uidnext, highestmodseq, last_uid, synced_at`

func scanFolder(row interface{ Scan(...any) error }) (Folder, error) {
	var f Folder
	var synced int64
	err := row.Scan(&f.ID, &f.AccountID, &f.Name, &f.SpecialUse, &f.UIDValidity, &f.UIDNext,
		&f.HighestModSeq, &f.LastUID, &synced)
	if synced > 0 {
		f.SyncedAt = time.Unix(synced, 0)
	}
	return f, err
}

// Folders lists an account's folders by name.
func (s *Store) Folders(ctx context.Context, accountID int64) ([]Folder, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+folderColumns+` FROM folders WHERE account_id = ? ORDER BY name`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list folders: %w", err)
	}
	defer rows.Close()
	var out []Folder
	for rows.Next() {
		f, err := scanFolder(rows)
		if err != nil {
			return nil, fmt.Errorf("list folders: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// EnsureFolder returns the folder, creating it with empty state if needed.
func (s *Store) EnsureFolder(ctx context.Context, accountID int64, name, specialUse string) (Folder, error) {
	f, err := scanFolder(s.db.QueryRowContext(ctx, `SELECT `+folderColumns+` FROM folders WHERE account_id = ? AND name = ?`, accountID, name))
	if err == nil && f.SpecialUse == specialUse {
		return f, nil
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		f, err = scanFolder(tx.QueryRowContext(ctx, `
		INSERT INTO folders (account_id, name, special_use) VALUES (?, ?, ?)
		ON CONFLICT (account_id, name) DO UPDATE SET special_use = excluded.special_use
		RETURNING `+folderColumns, accountID, name, specialUse))
		return err
	})
	if err != nil {
		return Folder{}, fmt.Errorf("ensure folder %q: %w", name, err)
	}
	return f, nil
}

// DeleteFolder removes a folder and its messages (the server no longer has
// it, or it is no longer synced).
func (s *Store) DeleteFolder(ctx context.Context, folderID int64) error {
	if err := s.exec(ctx, `DELETE FROM folders WHERE id = ?`, folderID); err != nil {
		return fmt.Errorf("delete folder %d: %w", folderID, err)
	}
	return nil
}

// ResetFolder forgets every message of the folder and starts its state
// again under a new UIDVALIDITY, in one transaction: the old UIDs mean
// nothing any more (RFC 9051 section 2.3.1.1).
func (s *Store) ResetFolder(ctx context.Context, folderID int64, uidValidity uint32) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE folder_id = ?`, folderID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE folders SET uidvalidity = ?, uidnext = 0, highestmodseq = 0,
			last_uid = 0, synced_at = 0 WHERE id = ?`, uidValidity, folderID)
		return err
	})
	if err != nil {
		return fmt.Errorf("reset folder %d: %w", folderID, err)
	}
	return nil
}

// FinishFolderSync records a complete pass over the folder: the server's
// UIDNEXT and HIGHESTMODSEQ as seen when the pass began.
func (s *Store) FinishFolderSync(ctx context.Context, folderID int64, uidNext uint32, highestModSeq uint64, at time.Time) error {
	err := s.exec(ctx, `UPDATE folders SET uidnext = ?, highestmodseq = ?, synced_at = ? WHERE id = ?`,
		uidNext, highestModSeq, at.Unix(), folderID)
	if err != nil {
		return fmt.Errorf("finish sync of folder %d: %w", folderID, err)
	}
	return nil
}
