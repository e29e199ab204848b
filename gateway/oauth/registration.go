package oauth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A registration (RFC 7591) is stored nowhere when it is made: its client
// id is what was registered (redirect URIs, name, logo URI, issue time),
// encoded compactly and authenticated with the node's registration key,
// after the registered prefix. Anyone may register, so a registration
// that held a row or a share of a node-wide bucket could be used to crowd
// out the person's own; one that costs a MAC cannot. The id is expanded
// and checked wherever it is used (authorize, token), and the
// registration is stored only once an authorization request used it
// (storeUsedClient), for whatever lists the clients the node has seen.
//
// The id is in lower-case base32 without padding (the approvals compare
// agent domains in lower case) and has no dot (approvals.IsRegisteredClient).
// Its identity for the approvals (Client.Domain) is the prefix and the
// first 15 bytes of the MAC: short enough for the phone, and bound to
// everything registered.

const (
	// maxClientIDLen bounds a registered client id, which travels in the
	// authorization request's URL: a registration that would encode
	// longer is refused.
	maxClientIDLen = 1024
	// legacyClientIDLen: ids no longer than this are the random ids of
	// registrations stored before ids carried them.
	legacyClientIDLen = 64
	registrationV1    = 1
	registrationMAC   = 16
	registrationLabel = "mailnode oauth registration v1\x00"
)

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// registration is what a registered client id carries.
type registration struct {
	Issued       time.Time
	Name         string
	LogoURI      string
	RedirectURIs []string
}

// encode is the payload of r: version, issue time, name, logo URI, then
// the redirect URIs, each string preceded by its length (uvarints).
func (r registration) encode() []byte {
	b := []byte{registrationV1}
	b = binary.AppendUvarint(b, uint64(max(r.Issued.Unix(), 0)))
	str := func(v string) { b = binary.AppendUvarint(b, uint64(len(v))); b = append(b, v...) }
	str(r.Name)
	str(r.LogoURI)
	b = binary.AppendUvarint(b, uint64(len(r.RedirectURIs)))
	for _, u := range r.RedirectURIs {
		str(u)
	}
	return b
}

var errBadRegistration = errors.New("not a registration this node made")

// decodeRegistration parses a payload; it is trusted only once its MAC
// is checked, but must not panic on anything.
func decodeRegistration(b []byte) (registration, error) {
	var r registration
	if len(b) == 0 || b[0] != registrationV1 {
		return r, errBadRegistration
	}
	b = b[1:]
	num := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	str := func() (string, bool) {
		n, ok := num()
		if !ok || n > uint64(len(b)) {
			return "", false
		}
		v := string(b[:n])
		b = b[n:]
		return v, true
	}
	issued, ok := num()
	if !ok || issued > 1<<40 {
		return r, errBadRegistration
	}
	r.Issued = time.Unix(int64(issued), 0)
	if r.Name, ok = str(); !ok {
		return r, errBadRegistration
	}
	if r.LogoURI, ok = str(); !ok {
		return r, errBadRegistration
	}
	n, ok := num()
	if !ok || n == 0 || n > maxRedirectURIs {
		return r, errBadRegistration
	}
	for range n {
		u, ok := str()
		if !ok {
			return r, errBadRegistration
		}
		r.RedirectURIs = append(r.RedirectURIs, u)
	}
	if len(b) != 0 {
		return r, errBadRegistration
	}
	return r, nil
}

// registeredID is the client id of r under key, and its identity for the
// approvals.
func registeredID(key []byte, r registration) (id, domain string) {
	p := r.encode()
	m := registrationSum(key, p)
	return clientIDPrefixDCR + strings.ToLower(idEncoding.EncodeToString(append(p, m...))), registeredDomain(m)
}

func registrationSum(key, payload []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(registrationLabel))
	h.Write(payload)
	return h.Sum(nil)[:registrationMAC]
}

func registeredDomain(mac []byte) string {
	return clientIDPrefixDCR + strings.ToLower(idEncoding.EncodeToString(mac[:15]))
}

// openRegistration checks a registered client id under key and returns
// what it carries and its identity.
func openRegistration(key []byte, id string) (registration, string, error) {
	if !strings.HasPrefix(id, clientIDPrefixDCR) || len(id) > maxClientIDLen || len(id) <= legacyClientIDLen {
		return registration{}, "", errBadRegistration
	}
	raw, err := idEncoding.DecodeString(strings.ToUpper(id[len(clientIDPrefixDCR):]))
	if err != nil || len(raw) <= registrationMAC {
		return registration{}, "", errBadRegistration
	}
	// The encoding must be the one registeredID makes, so that one
	// registration has one id (base32's last character can carry bits
	// that decoding ignores).
	if strings.ToLower(idEncoding.EncodeToString(raw)) != id[len(clientIDPrefixDCR):] {
		return registration{}, "", errBadRegistration
	}
	p, m := raw[:len(raw)-registrationMAC], raw[len(raw)-registrationMAC:]
	if !hmac.Equal(m, registrationSum(key, p)) {
		return registration{}, "", errBadRegistration
	}
	r, err := decodeRegistration(p)
	if err != nil {
		return registration{}, "", err
	}
	return r, registeredDomain(m), nil
}

// registrationKey returns the node's registration key, made and stored
// on first use.
func (s *Server) registrationKey(ctx context.Context) ([]byte, error) {
	s.keyMu.Lock()
	defer s.keyMu.Unlock()
	if s.regKey != nil {
		return s.regKey, nil
	}
	var key []byte
	err := s.db.QueryRowContext(ctx, "SELECT key FROM oauth_registration_key WHERE id = 1").Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		fresh := make([]byte, 32)
		rand.Read(fresh)
		err = s.cfg.File.WriteTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO oauth_registration_key (id, key) VALUES (1, ?)", fresh); err != nil {
				return err
			}
			return tx.QueryRowContext(ctx, "SELECT key FROM oauth_registration_key WHERE id = 1").Scan(&key)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("registration key: %w", err)
	}
	if len(key) < 32 {
		return nil, errors.New("registration key: too short")
	}
	s.regKey = key
	return key, nil
}

// registeredClient resolves a registered client id: one that carries its
// registration, or a legacy random id stored before.
func (s *Server) registeredClient(ctx context.Context, id string) (Client, error) {
	if len(id) > legacyClientIDLen {
		key, err := s.registrationKey(ctx)
		if err != nil {
			return Client{}, err
		}
		r, domain, err := openRegistration(key, id)
		if err != nil {
			return Client{}, errUnknownClient
		}
		return Client{ID: id, Domain: domain, Name: cleanName(r.Name), RedirectURIs: r.RedirectURIs, Registered: true}, nil
	}
	var name, uris string
	err := s.db.QueryRowContext(ctx, "SELECT name, redirect_uris FROM oauth_clients WHERE id = ?", id).Scan(&name, &uris)
	if errors.Is(err, sql.ErrNoRows) {
		return Client{}, errUnknownClient
	}
	if err != nil {
		return Client{}, fmt.Errorf("look up client: %w", err)
	}
	c := Client{ID: id, Domain: id, Name: cleanName(name), Registered: true}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return Client{}, fmt.Errorf("look up client %s: %w", id, err)
	}
	return c, nil
}

// storeUsedClient keeps a registered client an authorization request
// used, in the transaction that stores the request, and drops stored
// registrations that hold neither a token nor a request any more and
// were last used over unusedClientTTL ago.
func (s *Server) storeUsedClient(ctx context.Context, tx *sql.Tx, c Client) error {
	now := s.cfg.Now().Unix()
	if _, err := tx.ExecContext(ctx, `DELETE FROM oauth_clients WHERE created_at < ?
		AND NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.client_id = oauth_clients.id)
		AND NOT EXISTS (SELECT 1 FROM oauth_requests q WHERE q.client_id = oauth_clients.id)`,
		now-int64(unusedClientTTL/time.Second)); err != nil {
		return err
	}
	if !c.Registered || len(c.ID) <= legacyClientIDLen {
		return nil
	}
	uris, _ := json.Marshal(c.RedirectURIs)
	_, err := tx.ExecContext(ctx, `INSERT INTO oauth_clients (id, name, redirect_uris, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at`, c.ID, c.Name, string(uris), now)
	return err
}
