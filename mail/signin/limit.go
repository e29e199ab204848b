package signin

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// maxAnswer is the most the node reads of any answer from a provider:
// discovery documents, key sets and token answers are a few KB. go-oidc
// reads discovery and JWKS answers with io.ReadAll and no bound, so a
// hostile or hijacked issuer could otherwise hold the node's memory at
// every start (discovery runs for each https:// issuer account).
const maxAnswer = 1 << 20

// errTooLarge is an answer longer than maxAnswer.
var errTooLarge = errors.New("the provider's answer is larger than 1 MB")

// limitClient is hc (or a default client with a 30-second timeout) whose
// answers end in an error past maxAnswer bytes.
func limitClient(hc *http.Client) *http.Client {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	if _, ok := hc.Transport.(limitTransport); ok {
		return hc
	}
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = limitTransport{base: base, n: maxAnswer}
	return &c
}

// limitTransport cuts each answer's body at n bytes, with an error.
type limitTransport struct {
	base http.RoundTripper
	n    int64
}

func (t limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if resp.ContentLength > t.n {
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %w (%d bytes)", r.URL.Redacted(), errTooLarge, resp.ContentLength)
	}
	resp.Body = &limitBody{rc: resp.Body, left: t.n}
	return resp, nil
}

// limitBody reads at most left bytes, then fails rather than cut the
// answer silently (a cut JSON document would fail anyway, less clearly).
type limitBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *limitBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly n bytes from a longer one.
		var one [1]byte
		if n, _ := b.rc.Read(one[:]); n > 0 {
			return 0, errTooLarge
		}
		return b.rc.Read(p)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitBody) Close() error { return b.rc.Close() }
