package relay

import (
	"crypto/ed25519"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// TunnelALPN is the protocol a node asks for when it dials its tunnel on
// the relay's own name. Any other protocol there is the agent API.
const TunnelALPN = "mailnode-tunnel/1"

// The tunnel handshake, after TLS: the node sends one TunnelHello line,
// the relay answers one TunnelWelcome line, then both run yamux over the
// connection, the relay opening one stream per agent connection.
//
// The hello's signature covers a TLS exporter value (RFC 8446 section
// 7.5; RFC 9266 for the idea), so it is bound to this TLS connection: a
// relay-side observer or an earlier connection cannot replay it.
const (
	tunnelExporterLabel = "EXPORTER-mailnode-tunnel-v1"
	tunnelContext       = "mailnode-tunnel-v1\n"
	// MaxHandshakeLine bounds each handshake line.
	MaxHandshakeLine = 4 << 10
)

// TunnelHello is the node's first line on a tunnel.
type TunnelHello struct {
	NodeKey   string `json:"node_key"`
	Signature string `json:"signature"`
}

// TunnelWelcome is the relay's answer: Hostname on success, else Error.
type TunnelWelcome struct {
	Hostname string `json:"hostname,omitempty"`
	Error    string `json:"error,omitempty"`
}

// tunnelBinding is what the hello's signature covers.
func tunnelBinding(cs tls.ConnectionState) ([]byte, error) {
	ekm, err := cs.ExportKeyingMaterial(tunnelExporterLabel, nil, 32)
	if err != nil {
		return nil, fmt.Errorf("tunnel binding: %w", err)
	}
	return append([]byte(tunnelContext), ekm...), nil
}

// NewTunnelHello signs the hello for the TLS connection cs.
func NewTunnelHello(cs tls.ConnectionState, key ed25519.PrivateKey) (TunnelHello, error) {
	b, err := tunnelBinding(cs)
	if err != nil {
		return TunnelHello{}, err
	}
	pub := key.Public().(ed25519.PublicKey)
	return TunnelHello{NodeKey: EncodeKey(pub), Signature: base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, b))}, nil
}

// ParseTunnelHello decodes a hello line and checks its signature against
// the TLS connection it arrived on; it returns the node's key.
func ParseTunnelHello(line []byte, cs tls.ConnectionState) (ed25519.PublicKey, error) {
	var h TunnelHello
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, errors.New("tunnel hello is not JSON")
	}
	k, err := DecodeKey(h.NodeKey)
	if err != nil {
		return nil, fmt.Errorf("tunnel hello: node key: %w", err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(h.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, errors.New("tunnel hello: malformed signature")
	}
	b, err := tunnelBinding(cs)
	if err != nil {
		return nil, err
	}
	if !ed25519.Verify(k, b, sig) {
		return nil, errors.New("tunnel hello: signature does not verify")
	}
	return ed25519.PublicKey(k), nil
}

// ReadLine reads a handshake line up to and without '\n', at most max
// bytes, one byte at a time so that nothing after the line is consumed
// (yamux follows it on the same connection).
func ReadLine(r io.Reader, max int) ([]byte, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) <= max {
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		if b[0] == '\n' {
			return line, nil
		}
		line = append(line, b[0])
	}
	return nil, errors.New("handshake line too long")
}

// TunnelKeepAlive is how often both ends of a tunnel send a keepalive, so
// that a dead tunnel is noticed within about two intervals on either side.
const TunnelKeepAlive = 15 * time.Second
