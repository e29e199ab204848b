package relaycheck

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay"
)

// minValidity is how long the relay's certificate must still be good
// for: less fails the check, so that a renewal that stopped working is
// seen before agents are refused.
const minValidity = 7 * 24 * time.Hour

// agentProbeLabel is a well-formed hosted agent label (16 of a-z2-7); the
// relay terminates TLS for any such name under agents.<zone>.
const agentProbeLabel = "aaaaaaaaaaaaaaaa"

// localDNS asks the relay's DNS listener, over UDP and over TCP, for the
// zone's SOA and the API name's addresses.
func (c *checker) localDNS(ctx context.Context) []Result {
	const name = "relay DNS"
	if c.DNSListen == "" {
		return []Result{fail(name, "serve with --dns-listen :53", "no --dns-listen: the relay answers no DNS, so no name in %s resolves", c.zone)}
	}
	addr, err := local(c.DNSListen)
	if err != nil {
		return []Result{fail(name, "", "--dns-listen %v", err)}
	}
	var results []Result
	for _, network := range []string{"udp", "tcp"} {
		if _, err := c.soaAt(ctx, network, addr); err != nil {
			results = append(results, fail(name, "is mailnode-relay serve running with --dns-listen "+c.DNSListen+"?", "%s %v", addr, err))
			continue
		}
		results = append(results, pass(name, "%s answers %s over %s", addr, c.zone, strings.ToUpper(network)))
	}
	if len(c.PublicIPs) > 0 {
		r, err := c.exchange(ctx, "udp", addr, query(c.APIName, dns.TypeA, false))
		if err == nil {
			got := addressesOf(r.Answer, c.APIName)
			want := 0
			for _, ip := range c.PublicIPs {
				if ip.To4() != nil {
					want++
				}
			}
			if len(got) != want {
				results = append(results, fail(name, "run check with the same --public-ip as serve",
					"%s answers %s A %s, not the IPv4 addresses of --public-ip %s", addr, c.APIName, ipList(got), c.publicList()))
			}
			for _, ip := range got {
				if !c.isPublic(ip) {
					results = append(results, fail(name, "run check with the same --public-ip as serve",
						"%s answers %s A %s, not --public-ip %s", addr, c.APIName, ip, c.publicList()))
					break
				}
			}
		}
	}
	return results
}

// tlsPort checks the relay's TLS port: a handshake for its API name and
// for a hosted agent's name, each certificate verified and its expiry
// reported, then GET /v1/health.
func (c *checker) tlsPort(ctx context.Context) []Result {
	addr, err := local(c.Listen)
	if err != nil {
		return []Result{fail("TLS port", "", "--listen %v", err)}
	}
	api := c.handshake(ctx, "TLS "+c.APIName, addr, c.APIName)
	if !api.OK && strings.HasPrefix(api.Detail, "nothing listens") {
		return []Result{api} // the rest would say the same
	}
	agentName := agentProbeLabel + ".agents." + c.zone
	results := []Result{api, c.handshake(ctx, "TLS *.agents."+c.zone, addr, agentName)}
	if api.OK {
		results = append(results, c.health(ctx, addr))
	}
	return results
}

func (c *checker) handshake(ctx context.Context, check, addr, serverName string) Result {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	conn, err := c.Dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fail(check, "is mailnode-relay serve running with --listen "+c.Listen+"?", "nothing listens on %s: %s", addr, plainErr(err))
	}
	defer conn.Close()
	tc := tls.Client(conn, &tls.Config{ServerName: serverName, RootCAs: c.Roots, MinVersion: tls.VersionTLS12,
		NextProtos: []string{"http/1.1"}})
	if err := tc.HandshakeContext(ctx); err != nil {
		return fail(check, certHint(err, c.zone, c.APIName), "TLS handshake for %s on %s: %s", serverName, addr, tlsProblem(err))
	}
	leaf := tc.ConnectionState().PeerCertificates[0]
	left := time.Until(leaf.NotAfter)
	detail := fmt.Sprintf("certificate for %s from %q, valid until %s (%d days)", strings.Join(leaf.DNSNames, ", "),
		leaf.Issuer.CommonName, leaf.NotAfter.UTC().Format("2006-01-02"), int(left.Hours()/24))
	if left < minValidity {
		return fail(check, "renew it, then restart the relay: it reads --tls-cert only when it starts", "%s: expires in under %d days", detail, int(minValidity.Hours()/24))
	}
	return pass(check, "%s", detail)
}

// tlsProblem says what a failed handshake means.
func tlsProblem(err error) string {
	var host x509.HostnameError
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.As(err, &host):
		return fmt.Sprintf("the certificate is for %s, not %s", certNames(host.Certificate), host.Host)
	case errors.As(err, &unknown):
		return "the certificate is not signed by a CA this machine trusts"
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return fmt.Sprintf("the certificate expired on %s", invalid.Cert.NotAfter.UTC().Format("2006-01-02"))
	case errors.As(err, &verify):
		return verify.Err.Error()
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "no answer to the ClientHello (the relay holds a connection for a name that is not its own: is --api-name right?)"
	}
	return plainErr(err)
}

func certHint(err error, zone, apiName string) string {
	var host x509.HostnameError
	var unknown x509.UnknownAuthorityError
	switch {
	case errors.As(err, &host):
		return fmt.Sprintf("--tls-cert must cover %s and *.agents.%s", apiName, zone)
	case errors.As(err, &unknown):
		return "give --tls-cert the whole chain, the certificate first and then its intermediates, from a public CA"
	}
	return ""
}

func certNames(cert *x509.Certificate) string {
	if len(cert.DNSNames) > 0 {
		return strings.Join(cert.DNSNames, ", ")
	}
	return cert.Subject.CommonName
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// health calls GET /v1/health on the relay's own name through the TLS
// port, as an agent would.
func (c *checker) health(ctx context.Context, addr string) Result {
	const check = "agent API"
	client := &http.Client{Timeout: c.Timeout, Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return c.Dialer.DialContext(ctx, network, addr)
		},
		TLSClientConfig: &tls.Config{RootCAs: c.Roots, MinVersion: tls.VersionTLS12},
	}}
	defer client.CloseIdleConnections()
	url := "https://" + c.APIName + relay.PathHealth
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fail(check, "", "%v", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fail(check, "", "GET %s: %s", url, tlsProblem(err))
	}
	defer resp.Body.Close()
	var h relay.Health
	if resp.StatusCode != http.StatusOK {
		return fail(check, "", "GET %s answered %s", url, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&h); err != nil || h.Status != "ok" {
		return fail(check, "", "GET %s did not answer {\"status\": \"ok\"}", url)
	}
	return pass(check, "GET %s: ok, version %s, %d nodes connected", url, h.Version, h.NodesConnected)
}
