package approvals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Identity is what the approvals keep that belongs to the person rather
// than to one computer: the grants, the blocks, the paired phones and the
// node's phone key (which every pairing depends on), the node's VAPID key
// and the phones' push subscriptions (which depend on it). A backup carries it to
// a new computer; pending requests and the audit log stay behind.
type Identity struct {
	Grants       []GrantRow   `json:"grants"`
	Blocked      []BlockedRow `json:"blocked"`
	Phones       []PhoneRow   `json:"phones"`
	PhoneNodeKey []byte       `json:"phone_node_key"` // PKCS #8 DER
	// VAPIDKey is the node's VAPID key, PKCS #8 DER; absent from backups
	// made before push notifications, whose import makes a new one.
	VAPIDKey    []byte    `json:"vapid_key,omitempty"`
	PushDevices []PushRow `json:"push_devices,omitempty"`
}

// PushRow is a push_devices row as stored.
type PushRow struct {
	PhoneID      string `json:"phone_id"`
	Endpoint     string `json:"endpoint"`
	P256dh       string `json:"p256dh"`
	Auth         string `json:"auth"`
	SubscribedAt int64  `json:"subscribed_at"`
	LastAt       int64  `json:"last_at"`
	LastOK       bool   `json:"last_ok"`
	LastResult   string `json:"last_result"`
}

// GrantRow is a grants row as stored.
type GrantRow struct {
	Domain     string `json:"domain"`
	Tier       string `json:"tier"`
	KeyFP      string `json:"key_fp"`
	GrantedAt  int64  `json:"granted_at"`
	ExpiresAt  int64  `json:"expires_at"`
	ApprovalID string `json:"approval_id"`
}

// BlockedRow is a blocked row as stored.
type BlockedRow struct {
	Domain    string `json:"domain"`
	BlockedAt int64  `json:"blocked_at"`
}

// PhoneRow is a phones row as stored.
type PhoneRow struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	SignPub   string `json:"sign_pub"`
	BoxPub    string `json:"box_pub"`
	State     string `json:"state"`
	CreatedAt int64  `json:"created_at"`
	PairedAt  int64  `json:"paired_at"`
}

// ExportIdentity reads the identity from file.
func ExportIdentity(ctx context.Context, file File) (Identity, error) {
	db := file.DB()
	var id Identity
	err := each(ctx, db, `SELECT domain, tier, key_fp, granted_at, expires_at, approval_id FROM grants ORDER BY domain, tier`,
		func(r *sql.Rows) error {
			var g GrantRow
			err := r.Scan(&g.Domain, &g.Tier, &g.KeyFP, &g.GrantedAt, &g.ExpiresAt, &g.ApprovalID)
			id.Grants = append(id.Grants, g)
			return err
		})
	if err == nil {
		err = each(ctx, db, `SELECT domain, blocked_at FROM blocked ORDER BY domain`, func(r *sql.Rows) error {
			var b BlockedRow
			err := r.Scan(&b.Domain, &b.BlockedAt)
			id.Blocked = append(id.Blocked, b)
			return err
		})
	}
	if err == nil {
		err = each(ctx, db, `SELECT id, name, sign_pub, box_pub, state, created_at, paired_at FROM phones
			WHERE state = ? ORDER BY id`, func(r *sql.Rows) error {
			var p PhoneRow
			err := r.Scan(&p.ID, &p.Name, &p.SignPub, &p.BoxPub, &p.State, &p.CreatedAt, &p.PairedAt)
			id.Phones = append(id.Phones, p)
			return err
		}, PhonePaired)
	}
	if err == nil {
		err = db.QueryRowContext(ctx, `SELECT private FROM phone_node_key WHERE id = 1`).Scan(&id.PhoneNodeKey)
	}
	if err == nil {
		// A node that never opened Phones since the migration has none yet.
		err = db.QueryRowContext(ctx, `SELECT private FROM push_vapid_key WHERE id = 1`).Scan(&id.VAPIDKey)
		if errors.Is(err, sql.ErrNoRows) {
			err = nil
		}
	}
	if err == nil && len(id.VAPIDKey) > 0 {
		err = each(ctx, db, `SELECT d.phone_id, d.endpoint, d.p256dh, d.auth, d.subscribed_at, d.last_at, d.last_ok, d.last_result
			FROM push_devices d JOIN phones p ON p.id = d.phone_id WHERE p.state = ? ORDER BY d.phone_id`, func(r *sql.Rows) error {
			var d PushRow
			err := r.Scan(&d.PhoneID, &d.Endpoint, &d.P256dh, &d.Auth, &d.SubscribedAt, &d.LastAt, &d.LastOK, &d.LastResult)
			id.PushDevices = append(id.PushDevices, d)
			return err
		}, PhonePaired)
	}
	if err != nil {
		return Identity{}, fmt.Errorf("export approvals: %w", err)
	}
	return id, nil
}

func each(ctx context.Context, db *sql.DB, q string, f func(*sql.Rows) error, args ...any) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := f(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ImportIdentity replaces the grants, blocks, phones and phone key in file
// with id's, in one transaction. No Manager or Phones may be open on file:
// they keep what they read at start.
func ImportIdentity(ctx context.Context, file File, id Identity) error {
	if len(id.PhoneNodeKey) == 0 {
		return fmt.Errorf("import approvals: the identity has no phone key")
	}
	err := file.WriteTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM grants`, `DELETE FROM blocked`, `DELETE FROM phones`, `DELETE FROM phone_node_key`,
			`DELETE FROM push_vapid_key`, `DELETE FROM push_devices`} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		for _, g := range id.Grants {
			if _, err := tx.ExecContext(ctx, `INSERT INTO grants (domain, tier, key_fp, granted_at, expires_at, approval_id)
				VALUES (?, ?, ?, ?, ?, ?)`, g.Domain, g.Tier, g.KeyFP, g.GrantedAt, g.ExpiresAt, g.ApprovalID); err != nil {
				return err
			}
		}
		for _, b := range id.Blocked {
			if _, err := tx.ExecContext(ctx, `INSERT INTO blocked (domain, blocked_at) VALUES (?, ?)`, b.Domain, b.BlockedAt); err != nil {
				return err
			}
		}
		for _, p := range id.Phones {
			if _, err := tx.ExecContext(ctx, `INSERT INTO phones (id, name, sign_pub, box_pub, state, created_at, paired_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, p.ID, p.Name, p.SignPub, p.BoxPub, p.State, p.CreatedAt, p.PairedAt); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO phone_node_key (id, private) VALUES (1, ?)`, id.PhoneNodeKey); err != nil {
			return err
		}
		if len(id.VAPIDKey) == 0 {
			return nil // an older backup: the next start makes a VAPID key, and phones subscribe again
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO push_vapid_key (id, private) VALUES (1, ?)`, id.VAPIDKey); err != nil {
			return err
		}
		for _, d := range id.PushDevices {
			if _, err := tx.ExecContext(ctx, `INSERT INTO push_devices (phone_id, endpoint, p256dh, auth, subscribed_at, last_at, last_ok, last_result)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, d.PhoneID, d.Endpoint, d.P256dh, d.Auth, d.SubscribedAt, d.LastAt, d.LastOK, d.LastResult); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import approvals: %w", err)
	}
	return nil
}
