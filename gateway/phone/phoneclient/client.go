// Package phoneclient is the reference phone: the same protocol as the
// web app (docs/phone.md), in Go, for users without a smartphone browser
// they trust, for headless machines and for tests. Its keys live in a file
// only its owner can read.
package phoneclient

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"mailnode/approvals/pairing"
	"mailnode/approvals/phoneapi"
)

// Device is a paired (or registered) phone: its keys, its id and the
// node's key pinned from the QR code.
type Device struct {
	ID      string
	Name    string
	Node    string // the node's origin, "https://host[:port]"
	NodeBox *ecdh.PublicKey
	Sign    *ecdsa.PrivateKey
	Box     *ecdh.PrivateKey

	// HTTP is the client for the node; nil means one with default
	// settings. Set it after Load for a private CA.
	HTTP *http.Client
}

// Pair registers a new device with the offer in pairURL (the QR code's
// text) and returns it with the short code the user compares with the
// node's. The device is usable once the user confirms the code on the
// node.
func Pair(ctx context.Context, hc *http.Client, pairURL, name string) (*Device, string, error) {
	base, offer, err := pairing.ParseURL(pairURL)
	if err != nil {
		return nil, "", err
	}
	origin, ok := strings.CutSuffix(base, "/phone/")
	if !ok || !strings.HasPrefix(origin, "https://") {
		return nil, "", errors.New("pairing URL: not https://<node>/phone/")
	}
	nodeBox, err := ecdh.P256().NewPublicKey(offer.NodeBoxPub)
	if err != nil {
		return nil, "", fmt.Errorf("pairing URL: %w", err)
	}
	sign, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, "", err
	}
	box, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, "", err
	}
	signPub, err := sign.PublicKey.ECDH()
	if err != nil {
		return nil, "", err
	}
	reg := pairing.Registration{Offer: offer.ID, SignPub: pairing.Encode(signPub.Bytes()),
		BoxPub: pairing.Encode(box.PublicKey().Bytes()), Name: name}
	reg.Sign(offer.Secret)
	d := &Device{Name: name, Node: origin, NodeBox: nodeBox, Sign: sign, Box: box, HTTP: hc}
	body, _ := json.Marshal(reg)
	var res phoneapi.PairResult
	if err := d.do(ctx, http.MethodPost, "/phone/pair", body, false, &res); err != nil {
		return nil, "", fmt.Errorf("pair: %w", err)
	}
	// The node proves it knew the secret: a server that merely carries
	// the bytes (or holds a certificate for the name) cannot.
	want := pairing.NodeProof(offer.Secret, res.DeviceID, reg)
	if !hmac.Equal([]byte(res.NodeProof), []byte(want)) {
		return nil, "", errors.New("pair: the server did not prove it made the pairing code")
	}
	d.ID = res.DeviceID
	return d, pairing.SAS(offer.Secret, offer.NodeBoxPub, reg.SignPub, reg.BoxPub), nil
}

// Error is an error answer of the node's phone API.
type Error struct {
	Status int
	Code   string `json:"error"`
	Detail string `json:"detail"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("node answered %d %s: %s", e.Status, e.Code, e.Detail)
}

// do sends one request, signed if sign, and decodes a JSON answer.
func (d *Device) do(ctx context.Context, method, path string, body []byte, sign bool, out any) error {
	resp, nonce, err := d.send(ctx, method, path, body, sign)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		e := &Error{Status: resp.StatusCode}
		json.Unmarshal(b, e)
		return e
	}
	var sealed struct {
		Sealed string `json:"sealed"`
	}
	if sign && json.Unmarshal(b, &sealed) == nil && sealed.Sealed != "" {
		if b, err = d.open(nonce, sealed.Sealed); err != nil {
			return err
		}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

func (d *Device) send(ctx context.Context, method, path string, body []byte, sign bool) (*http.Response, string, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, d.Node+path, rd)
	if err != nil {
		return nil, "", err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	nonce := ""
	if sign {
		nb := make([]byte, 16)
		rand.Read(nb)
		nonce = pairing.Encode(nb)
		ts := time.Now().Unix()
		sig, err := pairing.SignP1363(d.Sign, pairing.RequestMessage(method, path, ts, nonce, body))
		if err != nil {
			return nil, "", err
		}
		req.Header.Set(phoneapi.HeaderName, d.ID+"."+strconv.FormatInt(ts, 10)+"."+nonce+"."+sig)
	}
	hc := d.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	// Never follow a redirect: the node does not send one, and the
	// signature covers the path.
	c := *hc
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	return resp, nonce, err
}

func (d *Device) open(nonce, sealed string) ([]byte, error) {
	box, err := pairing.Decode(sealed)
	if err != nil {
		return nil, errors.New("sealed answer is not base64url")
	}
	return pairing.Open(d.Box, d.NodeBox, d.ID, pairing.ToPhone, []byte(nonce), box)
}

// Status returns the device's state on the node: phoneapi.PhonePending
// until the user confirms the short code, then phoneapi.PhonePaired.
func (d *Device) Status(ctx context.Context) (string, error) {
	var v struct {
		State string `json:"state"`
	}
	err := d.do(ctx, http.MethodGet, "/phone/api/status", nil, true, &v)
	return v.State, err
}

// PushInfo returns the device's status with the node's VAPID public key
// and the device's push state.
func (d *Device) PushInfo(ctx context.Context) (phoneapi.Status, error) {
	var st phoneapi.Status
	err := d.do(ctx, http.MethodGet, "/phone/api/status", nil, true, &st)
	return st, err
}

// Subscribe registers a push subscription for the device, as the web app
// does with what pushManager.subscribe gave it: endpoint, the
// subscription's P-256 public key (uncompressed) and its 16-byte
// authentication secret.
func (d *Device) Subscribe(ctx context.Context, endpoint string, p256dh, auth []byte) error {
	var sub phoneapi.PushSubscription
	sub.Endpoint = endpoint
	sub.Keys.P256dh, sub.Keys.Auth = pairing.Encode(p256dh), pairing.Encode(auth)
	body, _ := json.Marshal(sub)
	return d.do(ctx, http.MethodPost, "/phone/api/push/subscribe", body, true, nil)
}

// Unsubscribe tells the node to push nothing more to the device.
func (d *Device) Unsubscribe(ctx context.Context) error {
	return d.do(ctx, http.MethodPost, "/phone/api/push/unsubscribe", []byte("{}"), true, nil)
}

// OpenPush opens the text of a push message (what a service worker's
// event.data.text() gives, once the browser decrypted it) to the notice
// the node sealed to this device.
func (d *Device) OpenPush(text string) (phoneapi.PushNotice, error) {
	var n phoneapi.PushNotice
	rest, ok := strings.CutPrefix(text, phoneapi.PushPrefix)
	if !ok {
		return n, errors.New("not a mailnode push message")
	}
	box, err := pairing.Decode(rest)
	if err != nil {
		return n, errors.New("push message is not base64url")
	}
	plain, err := pairing.Open(d.Box, d.NodeBox, d.ID, pairing.ToPhonePush, phoneapi.PushAAD, box)
	if err != nil {
		return n, err
	}
	if err := json.Unmarshal(plain, &n); err != nil {
		return n, errors.New("push notice is not JSON")
	}
	return n, nil
}

// WaitPaired polls Status until the user confirmed the code on the node.
func (d *Device) WaitPaired(ctx context.Context) error {
	for {
		st, err := d.Status(ctx)
		if err != nil {
			return err
		}
		if st == phoneapi.PhonePaired {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// State returns the pending prompts, phones, grants and recent activity.
func (d *Device) State(ctx context.Context) (phoneapi.State, error) {
	var st phoneapi.State
	err := d.do(ctx, http.MethodGet, "/phone/api/state", nil, true, &st)
	return st, err
}

// ReadPrompt parses a prompt's JSON text.
func ReadPrompt(text string) (phoneapi.Prompt, error) {
	var p phoneapi.Prompt
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		return p, fmt.Errorf("read prompt: %w", err)
	}
	return p, nil
}

// Events streams the node's events to f until ctx ends, f returns an
// error, or the node ends the stream (as it does when the device is
// removed). Every event is opened with the device's key; one that does
// not open ends the stream with an error.
func (d *Device) Events(ctx context.Context, f func(phoneapi.Event) error) error {
	resp, nonce, err := d.send(ctx, http.MethodGet, "/phone/api/events", nil, true)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		e := &Error{Status: resp.StatusCode}
		json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(e)
		return e
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue // comments, blank separators
		}
		plain, err := d.open(nonce, data)
		if err != nil {
			return fmt.Errorf("event stream: %w", err)
		}
		var e phoneapi.Event
		if err := json.Unmarshal(plain, &e); err != nil {
			return fmt.Errorf("event stream: %w", err)
		}
		if err := f(e); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("event stream: %w", err)
	}
	return ctx.Err()
}

// Decide answers the prompt whose exact JSON text is prompt: the
// decision is signed over its hash, so it holds only for what was shown.
func (d *Device) Decide(ctx context.Context, prompt string, v phoneapi.Verdict) (string, error) {
	p, err := ReadPrompt(prompt)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(prompt))
	sig, err := pairing.SignP1363(d.Sign, pairing.DecisionMessage(p.ApprovalID, string(v), sum[:], d.ID))
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(phoneapi.Decision{ApprovalID: p.ApprovalID, Decision: string(v),
		PromptHash: pairing.Encode(sum[:]), Signature: sig})
	var res struct {
		State string `json:"state"`
	}
	err = d.do(ctx, http.MethodPost, "/phone/api/decide", body, true, &res)
	return res.State, err
}

// Revoke removes an agent's grant for tier, or all its grants.
func (d *Device) Revoke(ctx context.Context, agent string, tier string) (int, error) {
	body, _ := json.Marshal(map[string]string{"agent": agent, "tier": tier})
	var res struct {
		Revoked int `json:"revoked"`
	}
	err := d.do(ctx, http.MethodPost, "/phone/api/revoke", body, true, &res)
	return res.Revoked, err
}

// RemovePhone unpairs a phone, this one or another.
func (d *Device) RemovePhone(ctx context.Context, id string) error {
	body, _ := json.Marshal(map[string]string{"id": id})
	return d.do(ctx, http.MethodPost, "/phone/api/phones/remove", body, true, nil)
}

// file is a device's form on disk.
type file struct {
	ID      string `json:"device_id"`
	Name    string `json:"name"`
	Node    string `json:"node"`
	NodeBox string `json:"node_box_pub"`
	Sign    []byte `json:"sign_key"` // PKCS #8
	Box     []byte `json:"box_key"`  // PKCS #8
}

// Save writes the device to path, readable by its owner only.
func (d *Device) Save(path string) error {
	sign, err := x509.MarshalPKCS8PrivateKey(d.Sign)
	if err != nil {
		return err
	}
	box, err := x509.MarshalPKCS8PrivateKey(d.Box)
	if err != nil {
		return err
	}
	b, _ := json.MarshalIndent(file{ID: d.ID, Name: d.Name, Node: d.Node, NodeBox: pairing.Encode(d.NodeBox.Bytes()), Sign: sign, Box: box}, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("save device: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save device: %w", err)
	}
	return nil
}

// Load reads a device that Save wrote.
func Load(path string) (*Device, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load device: %w", err)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("load device %s: %w", path, err)
	}
	d := &Device{ID: f.ID, Name: f.Name, Node: f.Node}
	nb, err := pairing.Decode(f.NodeBox)
	if err == nil {
		d.NodeBox, err = ecdh.P256().NewPublicKey(nb)
	}
	if err != nil {
		return nil, fmt.Errorf("load device %s: node key: %w", path, err)
	}
	sk, err := x509.ParsePKCS8PrivateKey(f.Sign)
	if err != nil {
		return nil, fmt.Errorf("load device %s: signing key: %w", path, err)
	}
	bk, err := x509.ParsePKCS8PrivateKey(f.Box)
	if err != nil {
		return nil, fmt.Errorf("load device %s: box key: %w", path, err)
	}
	var ok bool
	if d.Sign, ok = sk.(*ecdsa.PrivateKey); !ok {
		return nil, fmt.Errorf("load device %s: signing key is not ECDSA", path)
	}
	// PKCS #8 does not tell an ECDH P-256 key from an ECDSA one.
	switch k := bk.(type) {
	case *ecdh.PrivateKey:
		d.Box = k
	case *ecdsa.PrivateKey:
		if d.Box, err = k.ECDH(); err != nil {
			return nil, fmt.Errorf("load device %s: box key: %w", path, err)
		}
	default:
		return nil, fmt.Errorf("load device %s: box key is not P-256", path)
	}
	return d, nil
}
