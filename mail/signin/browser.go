package signin

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Browser signs in with the authorization code flow and PKCE (RFC 7636,
// S256) through the system browser. It listens on a random loopback port
// (RFC 8252 section 7.3), calls open with the address the person must
// visit (the desktop app opens the browser; the CLI prints it), and waits
// for the one callback, until ctx ends.
//
// The listener takes exactly one request on CallbackPath (anything else is
// 404 and does not count), so a second request, a replayed one or a
// page's guess cannot replace the answer. A callback whose state is not
// this sign-in's ends it with an error: the answer is not ours to trust.
func Browser(ctx context.Context, p Provider, open func(authURL string) error, o Options) (*Grant, error) {
	log := o.logger().With("component", "signin", "provider", p.ID)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the sign-in's answer: %w", err)
	}
	defer ln.Close()
	redirect := "http://127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) + CallbackPath
	cfg := p.oauth2Config(redirect)
	state, nonce, verifier := random(32), random(32), oauth2.GenerateVerifier()
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("nonce", nonce)}
	for k, v := range p.AuthParams {
		opts = append(opts, oauth2.SetAuthURLParam(k, v))
	}
	authURL := cfg.AuthCodeURL(state, opts...)

	answers := make(chan answer, 1)
	var once sync.Once
	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != CallbackPath || r.Method != http.MethodGet {
				http.NotFound(w, r)
				return
			}
			taken := true
			once.Do(func() {
				taken = false
				a := readCallback(p, r, state)
				// The page first: the sign-in ends, and the listener
				// closes, once the answer is handed on.
				defer func() { answers <- a }()
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Cache-Control", "no-store")
				if a.err != nil {
					w.WriteHeader(http.StatusBadRequest)
					fmt.Fprintf(w, page, "Sign-in failed", html.EscapeString(a.err.Error()))
				} else {
					fmt.Fprintf(w, page, "Signed in", "You can close this tab and return to mailnode.")
				}
				if f, ok := w.(http.Flusher); ok {
					f.Flush()
				}
			})
			if taken {
				http.Error(w, "this sign-in has already been answered", http.StatusGone)
			}
		}),
	}
	go srv.Serve(ln)
	defer func() {
		// Let the callback's page reach the browser, briefly.
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()

	log.Info("Waiting for the browser sign-in", "redirect", redirect)
	if err := open(authURL); err != nil {
		return nil, fmt.Errorf("open the %s sign-in page: %w", p.Name, err)
	}
	var a answer
	select {
	case a = <-answers:
	case <-ctx.Done():
		return nil, fmt.Errorf("sign-in to %s: no answer from the browser on %s: %w", p.Name, redirect, ctx.Err())
	}
	if a.err != nil {
		return nil, a.err
	}
	hctx := o.ctx(ctx)
	tok, err := cfg.Exchange(hctx, a.code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, providerError(p, err)
	}
	g, err := finish(hctx, p, tok, nonce)
	if err != nil {
		return nil, err
	}
	log.Info("Signed in", "account", g.Address)
	return g, nil
}

// readCallback reads the redirect's query (RFC 6749 section 4.1.2): the
// state first, so that nothing else an unknown sender put there is
// believed.
func readCallback(p Provider, r *http.Request, state string) (a answer) {
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
		a.err = errors.New("the sign-in answer is not for this sign-in (its state differs); nothing was stored. Start the sign-in again")
		return a
	}
	if e := q.Get("error"); e != "" {
		a.err = &ProviderError{Provider: p.Name, Code: clean(e, 60), Description: clean(q.Get("error_description"), 200)}
		return a
	}
	if a.code = q.Get("code"); a.code == "" {
		a.err = fmt.Errorf("%s answered the sign-in without a code", p.Name)
	}
	return a
}

// answer is what the callback brought: a code, or why there is none.
type answer struct {
	code string
	err  error
}

const page = `<!doctype html><meta charset="utf-8"><title>mailnode</title><h1>%s</h1><p>%s</p>`
