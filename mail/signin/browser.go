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
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"
)

// Browser signs in with the authorization code flow and PKCE (RFC 7636,
// S256) through the system browser. It listens on a random loopback port
// (RFC 8252 section 7.3), calls open with a one-time start address on
// that listener (the desktop app opens the browser at it; the CLI prints
// it), and waits for the one callback, until ctx ends.
//
// The start address, http://127.0.0.1:PORT/signin/start/RANDOM, redirects
// to the provider's authorization page. open's argument is in the
// browser's command line (xdg-open, macOS open), which every local user
// can read; the state, nonce and PKCE challenge are not in it, so a local
// user who wants them must fetch the start address too, and a second
// fetch of it ends the sign-in with an error: the person's browser
// always fetches it, so an injection ends the sign-in instead of adding
// someone else's account. A caller still shows the person the address
// signed in (Grant.Address) before keeping it, for a race the start
// address cannot see (an attacker done before the person's browser
// starts).
//
// The listener answers only requests whose Host is its own address (a
// DNS-rebound page gets 400). The callback on CallbackPath is taken once,
// and only with this sign-in's state: a callback with another state gets
// a 400 page and is not counted, so a web page or local user sweeping
// loopback ports cannot end a sign-in. Anything else is 404.
func Browser(ctx context.Context, p Provider, open func(startURL string) error, o Options) (*Grant, error) {
	log := o.logger().With("component", "signin", "provider", p.ID)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the sign-in's answer: %w", err)
	}
	defer ln.Close()
	host := "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	redirect := "http://" + host + CallbackPath
	cfg := p.oauth2Config(redirect)
	state, nonce, verifier := random(32), random(32), oauth2.GenerateVerifier()
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("nonce", nonce)}
	for k, v := range p.AuthParams {
		opts = append(opts, oauth2.SetAuthURLParam(k, v))
	}
	authURL := cfg.AuthCodeURL(state, opts...)
	startPath := StartPath + random(32)
	startURL := "http://" + host + startPath

	answers := make(chan answer, 1)
	var (
		once    sync.Once // the one answer: a code, or why the sign-in ended
		started atomic.Int32
	)
	end := func(a answer) (first bool) {
		once.Do(func() { first = true; answers <- a })
		return first
	}
	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("Referrer-Policy", "no-referrer")
			if r.Host != host {
				http.Error(w, "this listener answers only "+host, http.StatusBadRequest)
				return
			}
			if r.Method != http.MethodGet {
				http.NotFound(w, r)
				return
			}
			switch r.URL.Path {
			case startPath:
				if started.Add(1) == 1 {
					http.Redirect(w, r, authURL, http.StatusFound)
					return
				}
				err := errors.New("the sign-in's start address was opened twice: someone else on this computer " +
					"may have read it to sign the node in to their account; nothing was stored. Start the sign-in again")
				end(answer{err: err})
				writePage(w, http.StatusConflict, "Sign-in stopped", err.Error())
			case CallbackPath:
				a := readCallback(p, r, state)
				if errors.Is(a.err, errWrongState) {
					// Not this sign-in's answer: refused, and it does not
					// count, so that a stray request cannot end it.
					writePage(w, http.StatusBadRequest, "Sign-in failed", a.err.Error())
					return
				}
				if !end(a) {
					http.Error(w, "this sign-in has already been answered", http.StatusGone)
					return
				}
				if a.err != nil {
					writePage(w, http.StatusBadRequest, "Sign-in failed", a.err.Error())
				} else {
					writePage(w, http.StatusOK, "Signed in", "You can close this tab and return to mailnode.")
				}
			default:
				http.NotFound(w, r)
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
	if err := open(startURL); err != nil {
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
	if started.Load() > 1 {
		// Opened again while the code was exchanged: as above.
		return nil, errors.New("the sign-in's start address was opened twice; nothing was stored. Start the sign-in again")
	}
	log.Info("Signed in", "account", g.Address)
	return g, nil
}

// StartPath prefixes the one-time start address that Browser hands to
// open.
const StartPath = "/signin/start/"

// errWrongState is a callback that is not this sign-in's.
var errWrongState = errors.New("the sign-in answer is not for this sign-in (its state differs); nothing was stored")

// writePage writes the listener's page, escaped.
func writePage(w http.ResponseWriter, status int, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, page, html.EscapeString(title), html.EscapeString(text))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// readCallback reads the redirect's query (RFC 6749 section 4.1.2): the
// state first, so that nothing else an unknown sender put there is
// believed.
func readCallback(p Provider, r *http.Request, state string) (a answer) {
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
		a.err = errWrongState
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
