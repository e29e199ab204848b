package relaycheck

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
)

// acme checks that the ACME directory answers GET with a directory
// object (RFC 8555 section 7.1.1). Nodes obtain their certificates from
// that CA, which validates them by asking this relay's DNS (DNS-01); the
// check says whether the URL is right and the CA reachable from here.
func (c *checker) acme(ctx context.Context) []Result {
	const name = "ACME directory"
	hint := "check the URL (--acme-directory) and this machine's outgoing HTTPS"
	client := &http.Client{Timeout: c.Timeout, Transport: &http.Transport{
		DialContext:     c.Dialer.DialContext,
		TLSClientConfig: &tls.Config{RootCAs: c.Roots, MinVersion: tls.VersionTLS12},
	}}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.ACMEDirectory, nil)
	if err != nil {
		return []Result{fail(name, hint, "%v", err)}
	}
	resp, err := client.Do(req)
	if err != nil {
		return []Result{fail(name, hint, "GET %s: %s", c.ACMEDirectory, tlsProblem(err))}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return []Result{fail(name, hint, "GET %s answered %s", c.ACMEDirectory, resp.Status)}
	}
	var dir struct {
		NewNonce   string `json:"newNonce"`
		NewAccount string `json:"newAccount"`
		NewOrder   string `json:"newOrder"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&dir); err != nil ||
		dir.NewNonce == "" || dir.NewAccount == "" || dir.NewOrder == "" {
		return []Result{fail(name, hint, "GET %s answered no ACME directory (newNonce, newAccount, newOrder)", c.ACMEDirectory)}
	}
	return []Result{pass(name, "%s answers", c.ACMEDirectory)}
}
