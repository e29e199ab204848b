package approvals

import (
	"mailnode/approvals/phoneapi"

	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"mailnode/approvals/pairing"
)

// Phones is the registry of the user's paired phones and the node's side
// of their pairing (docs/phone.md): the node's sealing key, the live
// pairing offers, and each phone's pinned public keys. Its methods are
// safe for concurrent use.
type Phones struct {
	file File
	log  *slog.Logger
	now  func() time.Time
	key  *ecdh.PrivateKey
	// vapid is the node's VAPID key (pushsubs.go).
	vapid *ecdsa.PrivateKey

	mu      sync.Mutex
	offers  map[string]*offer
	phones  map[string]Phone
	changed chan struct{} // closed and replaced on every change
}

type offer struct {
	pairing.Offer
	used bool
	reg  *Registered // the phone that used it
}

// Phone is one registered phone.
type Phone struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	State    string    `json:"state"` // PhonePending or PhonePaired
	Created  time.Time `json:"created_at"`
	PairedAt time.Time `json:"paired_at,omitzero"`
	SignPub  string    `json:"-"`
	BoxPub   string    `json:"-"`
	// Push is whether the phone takes push notifications and what became
	// of the last one (pushsubs.go).
	Push PushStatus `json:"push"`

	signKey *ecdsa.PublicKey
	boxKey  *ecdh.PublicKey
	sub     PushSubscription // PushSub
	// pushSaved is when Push was last written to the file.
	pushSaved time.Time
}

// SignKey is the phone's pinned signing key.
func (p Phone) SignKey() *ecdsa.PublicKey { return p.signKey }

// BoxKey is the phone's pinned encryption key.
func (p Phone) BoxKey() *ecdh.PublicKey { return p.boxKey }

// Phone states.
const (
	PhonePending = phoneapi.PhonePending // registered, short code not yet confirmed on the node
	PhonePaired  = phoneapi.PhonePaired
)

// OfferTTL is how long a pairing QR code can be used.
const OfferTTL = 5 * time.Minute

// maxPhoneName bounds a phone's name, which the user types.
const maxPhoneName = 64

// Errors of pairing.
var (
	ErrOfferUnknown = errors.New("pairing code unknown or expired; show a new one")
	ErrOfferUsed    = errors.New("pairing code already used; show a new one")
	ErrNoPhone      = errors.New("no such phone")
)

// NewPhones loads the registry from file, creating the node's sealing key
// on first use. now may be nil.
func NewPhones(ctx context.Context, file File, logger *slog.Logger, now func() time.Time) (*Phones, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	p := &Phones{file: file, log: logger.With("component", "phones"), now: now,
		offers: map[string]*offer{}, phones: map[string]Phone{}, changed: make(chan struct{})}
	var der []byte
	err := file.DB().QueryRowContext(ctx, "SELECT private FROM phone_node_key WHERE id = 1").Scan(&der)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		key, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("make the node's phone key: %w", err)
		}
		der, err = x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return nil, fmt.Errorf("make the node's phone key: %w", err)
		}
		err = file.WriteTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, "INSERT INTO phone_node_key (id, private) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", der)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("store the node's phone key: %w", err)
		}
		// Another process may have won the race: read back what is stored.
		if err := file.DB().QueryRowContext(ctx, "SELECT private FROM phone_node_key WHERE id = 1").Scan(&der); err != nil {
			return nil, fmt.Errorf("load the node's phone key: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("load the node's phone key: %w", err)
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("load the node's phone key: %w", err)
	}
	switch k := k.(type) {
	case *ecdh.PrivateKey:
		p.key = k
	case *ecdsa.PrivateKey:
		if p.key, err = k.ECDH(); err != nil {
			return nil, fmt.Errorf("load the node's phone key: %w", err)
		}
	default:
		return nil, errors.New("load the node's phone key: not a P-256 key")
	}
	rows, err := file.DB().QueryContext(ctx, "SELECT id, name, sign_pub, box_pub, state, created_at, paired_at FROM phones")
	if err != nil {
		return nil, fmt.Errorf("load phones: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ph Phone
		var created, paired int64
		if err := rows.Scan(&ph.ID, &ph.Name, &ph.SignPub, &ph.BoxPub, &ph.State, &created, &paired); err != nil {
			return nil, fmt.Errorf("load phones: %w", err)
		}
		ph.Created = time.Unix(created, 0)
		if paired != 0 {
			ph.PairedAt = time.Unix(paired, 0)
		}
		if ph.signKey, err = pairing.SignKey(ph.SignPub); err != nil {
			p.log.Warn("Skipped a phone with an unreadable key", "phone", ph.ID)
			continue
		}
		if ph.boxKey, err = pairing.BoxKey(ph.BoxPub); err != nil {
			p.log.Warn("Skipped a phone with an unreadable key", "phone", ph.ID)
			continue
		}
		p.phones[ph.ID] = ph
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load phones: %w", err)
	}
	rows.Close()
	if err := p.loadPush(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// NodeKey is the node's sealing key; its public half goes into every
// pairing offer.
func (p *Phones) NodeKey() *ecdh.PrivateKey { return p.key }

// Offer makes a one-time pairing offer, valid for OfferTTL.
func (p *Phones) Offer() (pairing.Offer, error) {
	now := p.now()
	o, err := pairing.NewOffer(p.key.PublicKey(), now, OfferTTL)
	if err != nil {
		return o, fmt.Errorf("make pairing offer: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, old := range p.offers {
		if now.After(old.Expires) {
			delete(p.offers, id)
		}
	}
	p.offers[o.ID] = &offer{Offer: o}
	return o, nil
}

// Registered is the answer to a phone's registration.
type Registered struct {
	Phone Phone
	SAS   string // the short code both screens show
	Proof string // pairing.NodeProof: the node knew the offer's secret
}

// Register records a phone that proved it saw offer's QR code, as
// pending until the user confirms its short code with Confirm. An offer
// registers one phone.
func (p *Phones) Register(ctx context.Context, r pairing.Registration) (Registered, error) {
	now := p.now()
	p.mu.Lock()
	o, ok := p.offers[r.Offer]
	if !ok || now.After(o.Expires) {
		p.mu.Unlock()
		return Registered{}, ErrOfferUnknown
	}
	if o.used {
		p.mu.Unlock()
		return Registered{}, ErrOfferUsed
	}
	sign, box, err := r.Verify(o.Offer)
	if err != nil {
		p.mu.Unlock()
		return Registered{}, err
	}
	o.used = true // a wrong MAC does not use the offer; a right one does, once
	p.mu.Unlock()
	if err := p.register(ctx, o, r, sign, box, now); err != nil {
		return Registered{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return *o.reg, nil
}

// register stores the phone that used offer o.
func (p *Phones) register(ctx context.Context, o *offer, r pairing.Registration, sign *ecdsa.PublicKey, box *ecdh.PublicKey, now time.Time) error {
	name := strings.TrimSpace(r.Name)
	if name == "" || !utf8.ValidString(name) {
		name = "Phone"
	}
	name = truncateUTF8(name, maxPhoneName)
	ph := Phone{ID: newID("ph_"), Name: name, State: PhonePending, Created: time.Unix(now.Unix(), 0),
		SignPub: r.SignPub, BoxPub: r.BoxPub, signKey: sign, boxKey: box}
	err := p.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO phones (id, name, sign_pub, box_pub, state, created_at) VALUES (?, ?, ?, ?, ?, ?)",
			ph.ID, ph.Name, ph.SignPub, ph.BoxPub, ph.State, ph.Created.Unix())
		return err
	})
	if err != nil {
		return fmt.Errorf("store phone: %w", err)
	}
	p.mu.Lock()
	p.phones[ph.ID] = ph
	o.reg = &Registered{Phone: ph, SAS: pairing.SAS(o.Secret, o.NodeBoxPub, r.SignPub, r.BoxPub), Proof: pairing.NodeProof(o.Secret, ph.ID, r)}
	p.notifyLocked()
	p.mu.Unlock()
	p.log.Info("Phone registered, waiting for the short code to be confirmed", "phone", ph.ID, "name", ph.Name)
	return nil
}

// Offered returns the phone that registered with the offer id, if one
// has, and its short code: what the node's screen shows for the user to
// compare with the phone's.
func (p *Phones) Offered(id string) (Registered, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	o, ok := p.offers[id]
	if !ok || o.reg == nil {
		return Registered{}, false
	}
	r := *o.reg
	if ph, ok := p.phones[r.Phone.ID]; ok {
		r.Phone = ph
	}
	return r, true
}

// Changed returns a channel closed at the next change of the registry: a
// phone registered, paired, renamed or removed.
func (p *Phones) Changed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.changed
}

func (p *Phones) notifyLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// Confirm pairs a pending phone once the user saw the same short code on
// both screens.
func (p *Phones) Confirm(ctx context.Context, id string) (Phone, error) {
	now := time.Unix(p.now().Unix(), 0)
	p.mu.Lock()
	ph, ok := p.phones[id]
	p.mu.Unlock()
	if !ok {
		return Phone{}, ErrNoPhone
	}
	if ph.State == PhonePaired {
		return ph, nil
	}
	err := p.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE phones SET state = ?, paired_at = ? WHERE id = ?", PhonePaired, now.Unix(), id)
		return err
	})
	if err != nil {
		return Phone{}, fmt.Errorf("pair phone: %w", err)
	}
	ph.State, ph.PairedAt = PhonePaired, now
	p.mu.Lock()
	p.phones[id] = ph
	p.notifyLocked()
	p.mu.Unlock()
	p.log.Info("Phone paired", "phone", id, "name", ph.Name)
	return ph, nil
}

// Remove unpairs a phone (or refuses a pending one): its requests stop
// at once.
func (p *Phones) Remove(ctx context.Context, id string) error {
	p.mu.Lock()
	_, ok := p.phones[id]
	p.mu.Unlock()
	if !ok {
		return ErrNoPhone
	}
	err := p.file.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM phones WHERE id = ?", id); err != nil {
			return err
		}
		// Its push subscription goes with it: nothing is pushed to a
		// removed phone.
		_, err := tx.ExecContext(ctx, "DELETE FROM push_devices WHERE phone_id = ?", id)
		return err
	})
	if err != nil {
		return fmt.Errorf("remove phone: %w", err)
	}
	p.mu.Lock()
	delete(p.phones, id)
	p.notifyLocked()
	p.mu.Unlock()
	p.log.Info("Phone removed", "phone", id)
	return nil
}

// Rename gives a phone another name.
func (p *Phones) Rename(ctx context.Context, id, name string) (Phone, error) {
	name = strings.TrimSpace(name)
	if name == "" || !utf8.ValidString(name) {
		return Phone{}, errors.New("a phone's name cannot be empty")
	}
	name = truncateUTF8(name, maxPhoneName)
	p.mu.Lock()
	ph, ok := p.phones[id]
	p.mu.Unlock()
	if !ok {
		return Phone{}, ErrNoPhone
	}
	err := p.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE phones SET name = ? WHERE id = ?", name, id)
		return err
	})
	if err != nil {
		return Phone{}, fmt.Errorf("rename phone: %w", err)
	}
	ph.Name = name
	p.mu.Lock()
	p.phones[id] = ph
	p.notifyLocked()
	p.mu.Unlock()
	return ph, nil
}

// Get returns a registered phone.
func (p *Phones) Get(id string) (Phone, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ph, ok := p.phones[id]
	return ph, ok
}

// List returns the registered phones, oldest first.
func (p *Phones) List() []Phone {
	p.mu.Lock()
	out := make([]Phone, 0, len(p.phones))
	for _, ph := range p.phones {
		out = append(out, ph)
	}
	p.mu.Unlock()
	sortPhones(out)
	return out
}

func sortPhones(ps []Phone) {
	slices.SortFunc(ps, func(a, b Phone) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
