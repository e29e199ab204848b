package approvals

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Web Push (docs/phone.md, "Notifications"): the node's VAPID key and
// each phone's push subscription, kept with the phones because they live
// and die with them. Sending is package approvals/push's.

// PushSubscription is a phone's Web Push subscription (RFC 8030, RFC
// 8291): where its browser's push service takes messages for it, and the
// keys they are encrypted to. The fields are as the browser's
// PushSubscription.toJSON gives them, checked by package approvals/push
// before they are stored.
type PushSubscription struct {
	Endpoint string // an https URL of the push service
	P256dh   string // base64url of the subscription's P-256 public key, uncompressed
	Auth     string // base64url of its 16-byte authentication secret
}

// PushStatus is what the node knows of pushing to one phone.
type PushStatus struct {
	// On: the phone has a subscription.
	On bool `json:"on"`
	// LastAt is when the push service last answered a push, or the node
	// last gave up on one; zero before the first.
	LastAt time.Time `json:"last_at,omitzero"`
	// LastOK: the push service accepted that push.
	LastOK bool `json:"last_ok,omitempty"`
	// LastResult says what became of it in words: "accepted", or why it
	// was refused ("the push service no longer knows this subscription
	// (410)").
	LastResult string `json:"last_result,omitempty"`
}

// Reachable reports whether a push to the phone is expected to arrive: it
// has a subscription and its last push, if any, was accepted.
func (s PushStatus) Reachable() bool { return s.On && (s.LastAt.IsZero() || s.LastOK) }

// PushSub returns the phone's push subscription, if it has one.
func (p Phone) PushSub() (PushSubscription, bool) { return p.sub, p.sub.Endpoint != "" }

// loadPush reads the VAPID key, making it on first use, and the phones'
// push rows. p.phones is loaded.
func (p *Phones) loadPush(ctx context.Context) error {
	var der []byte
	err := p.file.DB().QueryRowContext(ctx, "SELECT private FROM push_vapid_key WHERE id = 1").Scan(&der)
	if errors.Is(err, sql.ErrNoRows) {
		key, kerr := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if kerr != nil {
			return fmt.Errorf("make the node's VAPID key: %w", kerr)
		}
		if der, err = x509.MarshalPKCS8PrivateKey(key); err != nil {
			return fmt.Errorf("make the node's VAPID key: %w", err)
		}
		err = p.file.WriteTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, "INSERT INTO push_vapid_key (id, private) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", der)
			return err
		})
		if err != nil {
			return fmt.Errorf("store the node's VAPID key: %w", err)
		}
		// Another process may have won the race: read back what is stored.
		err = p.file.DB().QueryRowContext(ctx, "SELECT private FROM push_vapid_key WHERE id = 1").Scan(&der)
	}
	if err != nil {
		return fmt.Errorf("load the node's VAPID key: %w", err)
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	key, ok := k.(*ecdsa.PrivateKey)
	if err != nil || !ok || key.Curve != elliptic.P256() {
		return errors.New("load the node's VAPID key: not a P-256 ECDSA key")
	}
	p.vapid = key
	rows, err := p.file.DB().QueryContext(ctx, "SELECT phone_id, endpoint, p256dh, auth, last_at, last_ok, last_result FROM push_devices")
	if err != nil {
		return fmt.Errorf("load push subscriptions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var s PushSubscription
		var lastAt int64
		var st PushStatus
		if err := rows.Scan(&id, &s.Endpoint, &s.P256dh, &s.Auth, &lastAt, &st.LastOK, &st.LastResult); err != nil {
			return fmt.Errorf("load push subscriptions: %w", err)
		}
		ph, ok := p.phones[id]
		if !ok {
			continue
		}
		st.On = s.Endpoint != ""
		if lastAt != 0 {
			st.LastAt = time.Unix(lastAt, 0)
		}
		ph.sub, ph.Push = s, st
		p.phones[id] = ph
	}
	return rows.Err()
}

// VAPIDKey is the node's VAPID key (RFC 8292): it signs every push
// request, and its public half is what phones subscribe with.
func (p *Phones) VAPIDKey() *ecdsa.PrivateKey { return p.vapid }

// SetPushSubscription stores the phone's push subscription, replacing
// the one it had: one per phone. The caller checked s (package
// approvals/push).
func (p *Phones) SetPushSubscription(ctx context.Context, id string, s PushSubscription) error {
	if _, ok := p.Get(id); !ok {
		return ErrNoPhone
	}
	now := p.now().Unix()
	err := p.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO push_devices (phone_id, endpoint, p256dh, auth, subscribed_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (phone_id) DO UPDATE SET endpoint = excluded.endpoint, p256dh = excluded.p256dh, auth = excluded.auth,
			subscribed_at = excluded.subscribed_at, last_at = 0, last_ok = 0, last_result = ''`, id, s.Endpoint, s.P256dh, s.Auth, now)
		return err
	})
	if err != nil {
		return fmt.Errorf("store push subscription: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ph, ok := p.phones[id]
	if !ok { // removed meanwhile: its row goes too
		p.file.WriteTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, "DELETE FROM push_devices WHERE phone_id = ?", id)
			return err
		})
		return ErrNoPhone
	}
	ph.sub, ph.Push = s, PushStatus{On: true}
	p.phones[id] = ph
	p.notifyLocked()
	p.log.Info("Phone subscribed to push notifications", "phone", id)
	return nil
}

// ClearPushSubscription forgets the phone's push subscription: the
// phone unsubscribed. What became of its last push is kept.
func (p *Phones) ClearPushSubscription(ctx context.Context, id string) error {
	if _, ok := p.Get(id); !ok {
		return ErrNoPhone
	}
	return p.clearPush(ctx, id, "", "")
}

// clearPush empties the phone's subscription if it still is endpoint
// (any, if ""), and records result if not "".
func (p *Phones) clearPush(ctx context.Context, id, endpoint, result string) error {
	now := time.Unix(p.now().Unix(), 0)
	err := p.file.WriteTx(ctx, func(tx *sql.Tx) error {
		q := "UPDATE push_devices SET endpoint = '', p256dh = '', auth = '' WHERE phone_id = ? AND (? = '' OR endpoint = ?)"
		args := []any{id, endpoint, endpoint}
		if result != "" {
			q = "UPDATE push_devices SET endpoint = '', p256dh = '', auth = '', last_at = ?, last_ok = 0, last_result = ? WHERE phone_id = ? AND (? = '' OR endpoint = ?)"
			args = append([]any{now.Unix(), result}, args...)
		}
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	})
	if err != nil {
		return fmt.Errorf("clear push subscription: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ph, ok := p.phones[id]
	if !ok || (endpoint != "" && ph.sub.Endpoint != endpoint) {
		return nil
	}
	ph.sub, ph.Push.On = PushSubscription{}, false
	if result != "" {
		ph.Push.LastAt, ph.Push.LastOK, ph.Push.LastResult = now, false, result
	}
	p.phones[id] = ph
	p.notifyLocked()
	return nil
}

// RecordPush records what the push service made of a push to the phone's
// subscription s. With forget (the service answered 404 or 410: it no
// longer knows the subscription), the subscription is deleted, unless the
// phone subscribed anew meanwhile. Subscribers of Changed hear of it only
// when whether the phone can be reached changes, not of every push. The
// same result again within pushSaveEvery is kept in memory only, so that a
// burst of pushes does not queue for the file's one writer beside the
// agents' requests.
func (p *Phones) RecordPush(ctx context.Context, id string, s PushSubscription, ok bool, result string, forget bool) error {
	if forget {
		return p.clearPush(ctx, id, s.Endpoint, result)
	}
	now := time.Unix(p.now().Unix(), 0)
	p.mu.Lock()
	ph, found := p.phones[id]
	if found && ph.sub.Endpoint == s.Endpoint && ph.Push.LastOK == ok && ph.Push.LastResult == result &&
		!ph.pushSaved.IsZero() && now.Sub(ph.pushSaved) < pushSaveEvery {
		ph.Push.LastAt = now
		p.phones[id] = ph
		p.mu.Unlock()
		return nil
	}
	p.mu.Unlock()
	err := p.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE push_devices SET last_at = ?, last_ok = ?, last_result = ? WHERE phone_id = ? AND endpoint = ?",
			now.Unix(), ok, result, id, s.Endpoint)
		return err
	})
	if err != nil {
		return fmt.Errorf("record push result: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ph, found = p.phones[id]
	if !found || ph.sub.Endpoint != s.Endpoint {
		return nil
	}
	was := ph.Push.Reachable()
	ph.Push.LastAt, ph.Push.LastOK, ph.Push.LastResult = now, ok, result
	ph.pushSaved = now
	p.phones[id] = ph
	if ph.Push.Reachable() != was {
		p.notifyLocked()
	}
	return nil
}

// pushSaveEvery is how often the same push result is written again.
const pushSaveEvery = time.Minute

// PushReachable reports whether a push can be expected to reach at least
// one paired phone (PushStatus.Reachable).
func (p *Phones) PushReachable() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ph := range p.phones {
		if ph.State == PhonePaired && ph.Push.Reachable() {
			return true
		}
	}
	return false
}

// String says the status in words, as `mailnode phones` and the Phones
// window show it.
func (s PushStatus) String() string {
	var b strings.Builder
	if s.On {
		b.WriteString("on")
	} else {
		b.WriteString("off")
	}
	switch {
	case s.LastAt.IsZero():
		if s.On {
			b.WriteString(", nothing pushed yet")
		}
	case s.LastOK:
		fmt.Fprintf(&b, ", last push accepted %s", s.LastAt.Local().Format(time.DateTime))
	default:
		fmt.Fprintf(&b, ", last push %s: %s", s.LastAt.Local().Format(time.DateTime), s.LastResult)
	}
	return b.String()
}

// AnyPushReachable reports whether a push can be expected to reach at
// least one of the paired phones among ps.
func AnyPushReachable(ps []Phone) bool {
	for _, p := range ps {
		if p.State == PhonePaired && p.Push.Reachable() {
			return true
		}
	}
	return false
}
