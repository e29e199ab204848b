package agentkeys

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrNotDocumentURL: the URL is not one the node fetches a document from
// (https, a DNS name, port 443, no user info or fragment).
var ErrNotDocumentURL = errors.New("not an https URL on a DNS name and port 443")

// Document fetches the document at rawURL under the rules of key documents
// (package doc): the host's addresses are checked before dialing, port 443
// only, TLS verified, no redirect followed (a 3xx is a failure), no
// proxy, Timeout and MaxBytes, at most MaxDocumentFetches in flight (its
// own places, apart from key documents': ErrBusy when none frees up within
// half the Timeout), and the development overrides of Config alone open
// loopback. It is how the
// node fetches documents a stranger names besides key documents: an OAuth
// client's Client ID Metadata Document (package gateway/oauth). It keeps
// no cache; the caller does.
func (f *Fetcher) Document(ctx context.Context, rawURL string) ([]byte, error) {
	u, err := documentURL(rawURL)
	if err != nil {
		return nil, err
	}
	t := time.NewTimer(f.cfg.Timeout / 2)
	defer t.Stop()
	select {
	case f.documents <- struct{}{}:
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-f.documents }()

	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", u.Host, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch %s: status %d (redirects are not followed)", u.Host, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.cfg.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read document of %s: %w", u.Host, err)
	}
	if int64(len(body)) > f.cfg.MaxBytes {
		return nil, fmt.Errorf("document of %s is larger than %d bytes", u.Host, f.cfg.MaxBytes)
	}
	return body, nil
}

// CheckDocumentURL reports whether Document would fetch rawURL at all (an
// https URL on a DNS name and port 443), so that a caller can refuse
// one it would not before spending anything on it; the error wraps
// ErrNotDocumentURL.
func CheckDocumentURL(rawURL string) error {
	_, err := documentURL(rawURL)
	return err
}

func documentURL(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "https" || u.User != nil || u.Fragment != "" || u.Opaque != "" || u.Port() != "" && u.Port() != "443" {
		return nil, ErrNotDocumentURL
	}
	if err := checkDomain(strings.ToLower(u.Hostname())); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotDocumentURL, err)
	}
	return u, nil
}
