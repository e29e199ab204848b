// Package httpsigtest builds signed requests for tests, correct or wrong
// in exactly one chosen way, independently of the agent SDK's signer: the
// gateway's tests must not depend on the code they check against.
package httpsigtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// Options describe one signature. Zero fields take the spec's reference
// signer's values: label sig1, tag svc-agent, alg ed25519, the four
// components in order, created now, expires created+120, a random 16-byte
// nonce, the digest of the body, target https://Host/mcp.
type Options struct {
	Host                          string // node host[:port]; required unless TargetURI and Authority are set
	Label, Tag, Alg, KeyID, Nonce string
	Components                    []string
	Created, Expires              int64
	Now                           time.Time // for Created; default time.Now
	TargetURI, Authority          string
	Digest                        string // Content-Digest value
	Key                           ed25519.PrivateKey
	ExtraParams                   map[string]any
}

// Headers returns Content-Digest, Signature-Input and Signature for body.
func Headers(body []byte, o Options) (http.Header, error) {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&o.Label, "sig1")
	def(&o.Tag, "svc-agent")
	def(&o.Alg, "ed25519")
	def(&o.TargetURI, "https://"+o.Host+"/mcp")
	hostname, _, _ := strings.Cut(o.Host, ":")
	def(&o.Authority, hostname)
	if o.KeyID == "" || len(o.Key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("httpsigtest: KeyID and Key are required")
	}
	if o.Nonce == "" {
		b := make([]byte, 16)
		rand.Read(b)
		o.Nonce = base64.RawURLEncoding.EncodeToString(b)
	}
	if o.Components == nil {
		o.Components = []string{"@method", "@target-uri", "@authority", "content-digest"}
	}
	if o.Created == 0 {
		if o.Now.IsZero() {
			o.Now = time.Now()
		}
		o.Created = o.Now.Unix()
	}
	if o.Expires == 0 {
		o.Expires = o.Created + 120
	}
	if o.Digest == "" {
		sum := sha256.Sum256(body)
		o.Digest = "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
	}
	var il httpsfv.InnerList
	il.Params = httpsfv.NewParams()
	values := map[string]string{"@method": "POST", "@target-uri": o.TargetURI, "@authority": o.Authority, "content-digest": o.Digest}
	var base strings.Builder
	for _, c := range o.Components {
		il.Items = append(il.Items, httpsfv.NewItem(c))
		fmt.Fprintf(&base, "%q: %s\n", c, values[c])
	}
	il.Params.Add("created", o.Created)
	il.Params.Add("expires", o.Expires)
	il.Params.Add("keyid", o.KeyID)
	il.Params.Add("alg", o.Alg)
	il.Params.Add("nonce", o.Nonce)
	il.Params.Add("tag", o.Tag)
	for k, v := range o.ExtraParams {
		il.Params.Add(k, v)
	}
	params, err := httpsfv.Marshal(il)
	if err != nil {
		return nil, err
	}
	base.WriteString(`"@signature-params": ` + params)
	sig := ed25519.Sign(o.Key, []byte(base.String()))
	h := http.Header{}
	h.Set("Content-Digest", o.Digest)
	h.Add("Signature-Input", o.Label+"="+params)
	h.Add("Signature", o.Label+"=:"+base64.StdEncoding.EncodeToString(sig)+":")
	return h, nil
}
