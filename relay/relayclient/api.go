package relayclient

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mailnode/relay"
)

// API makes a node's signed self-service calls to a relay.
type API struct {
	// BaseURL is the relay's base, e.g. https://relay.example.net.
	BaseURL string
	Key     ed25519.PrivateKey
	HTTP    *http.Client
	Now     func() time.Time
}

// Error is a relay's error answer.
type Error struct {
	Status int
	Code   string
	Detail string
}

func (e *Error) Error() string {
	return fmt.Sprintf("relay answered %d %s: %s", e.Status, e.Code, e.Detail)
}

// IsCode reports whether err is a relay answer with code.
func IsCode(err error, code string) bool {
	e, ok := err.(*Error)
	return ok && e.Code == code
}

func (a *API) do(ctx context.Context, method, path string, in, out any, want int) error {
	var body []byte
	if in != nil {
		body, _ = json.Marshal(in)
	}
	u, err := url.Parse(strings.TrimSuffix(a.BaseURL, "/") + path)
	if err != nil {
		return fmt.Errorf("relay url: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	t := now().Unix()
	nb := make([]byte, 18)
	rand.Read(nb)
	nonce := base64.RawURLEncoding.EncodeToString(nb)
	sig := ed25519.Sign(a.Key, relay.NodeSigningString(method, u.Host, u.Path, t, nonce, body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(relay.HeaderNodeKey, relay.EncodeKey(a.Key.Public().(ed25519.PublicKey)))
	req.Header.Set(relay.HeaderNodeTime, strconv.FormatInt(t, 10))
	req.Header.Set(relay.HeaderNodeNonce, nonce)
	req.Header.Set(relay.HeaderNodeSig, base64.RawURLEncoding.EncodeToString(sig))
	hc := a.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("relay %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		var e relay.Error
		json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&e)
		return &Error{Status: resp.StatusCode, Code: e.Code, Detail: e.Detail}
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
		return fmt.Errorf("relay %s: malformed answer: %w", path, err)
	}
	return nil
}

// Register asks the relay to mail a code to address.
func (a *API) Register(ctx context.Context, address string, boxKey []byte) (relay.RegisterPending, error) {
	var p relay.RegisterPending
	err := a.do(ctx, http.MethodPost, relay.PathRegister, relay.RegisterRequest{Address: address, BoxKey: relay.EncodeKey(boxKey)}, &p, http.StatusAccepted)
	return p, err
}

// Confirm sends the code the relay mailed.
func (a *API) Confirm(ctx context.Context, address, code string) (relay.NodeStatus, error) {
	var st relay.NodeStatus
	err := a.do(ctx, http.MethodPost, relay.PathRegisterConfirm, relay.ConfirmRequest{Address: address, Code: code}, &st, http.StatusOK)
	return st, err
}

// Status is the relay's record of this node; not_registered if none.
func (a *API) Status(ctx context.Context) (relay.NodeStatus, error) {
	var st relay.NodeStatus
	err := a.do(ctx, http.MethodGet, relay.PathNodeStatus, nil, &st, http.StatusOK)
	return st, err
}

// Delete unregisters the node.
func (a *API) Delete(ctx context.Context) error {
	return a.do(ctx, http.MethodDelete, relay.PathNode, nil, nil, http.StatusNoContent)
}

// RotateKeys replaces the node's keys with next's; a.Key must still be
// the current one.
func (a *API) RotateKeys(ctx context.Context, next Keys) (relay.NodeStatus, error) {
	proof := ed25519.Sign(next.Node, relay.RotationString(a.Key.Public().(ed25519.PublicKey)))
	var st relay.NodeStatus
	err := a.do(ctx, http.MethodPost, relay.PathNodeKeys, relay.KeysRequest{
		NodeKey: relay.EncodeKey(next.NodePublic()), BoxKey: relay.EncodeKey(next.BoxPublic()),
		Proof: base64.RawURLEncoding.EncodeToString(proof)}, &st, http.StatusOK)
	return st, err
}

// SetChallenges publishes the TXT values of _acme-challenge.<node name>.
func (a *API) SetChallenges(ctx context.Context, values []string) error {
	return a.do(ctx, http.MethodPost, relay.PathACMEChallenge, relay.ACMERequest{Values: values}, nil, http.StatusNoContent)
}

// HostAgentKey asks the relay to host an agent key document for a.Key
// (used with an agent's key, not a node's).
func (a *API) HostAgentKey(ctx context.Context, kid string) (relay.AgentKeysResult, error) {
	var r relay.AgentKeysResult
	err := a.do(ctx, http.MethodPost, relay.PathAgentKeys, relay.AgentKeysRequest{Kid: kid}, &r, http.StatusOK)
	return r, err
}
