package signin

import (
	"context"
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
// answers end in an error past maxAnswer bytes. The client's timeout
// moves into the transport, as a deadline on each request's context:
// http.Client enforces its Timeout on a transport it does not know with
// a goroutine that lasts until the body is closed, and x/oauth2's
// device authorization request never closes it.
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
	c.Transport = limitTransport{base: base, n: maxAnswer, timeout: c.Timeout}
	c.Timeout = 0
	return &c
}

// limitTransport cuts each answer's body at n bytes, with an error, and
// ends each request, body included, after timeout (0: no limit).
type limitTransport struct {
	base    http.RoundTripper
	n       int64
	timeout time.Duration
}

func (t limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	cancel := context.CancelFunc(func() {})
	if t.timeout > 0 {
		var ctx context.Context
		ctx, cancel = context.WithTimeout(r.Context(), t.timeout)
		r = r.WithContext(ctx)
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		cancel()
		return resp, err
	}
	if resp.ContentLength > t.n {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("%s: %w (%d bytes)", r.URL.Redacted(), errTooLarge, resp.ContentLength)
	}
	resp.Body = &limitBody{rc: resp.Body, left: t.n, cancel: cancel}
	return resp, nil
}

// limitBody reads at most left bytes, then fails rather than cut the
// answer silently (a cut JSON document would fail anyway, less clearly).
// At its end or close, the request's deadline is released.
type limitBody struct {
	rc     io.ReadCloser
	left   int64
	cancel context.CancelFunc
}

func (b *limitBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly n bytes from a longer one.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, errTooLarge
		}
		if err == io.EOF {
			b.cancel()
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if err == io.EOF {
		b.cancel()
	}
	return n, err
}

func (b *limitBody) Close() error {
	err := b.rc.Close()
	b.cancel()
	return err
}
