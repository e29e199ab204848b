package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
)

// viaRelay runs a relay in the process, has the node register the demo
// address at it, and makes the demo agent's call the way an agent on
// another network would: resolve, the relay's DNS, SNI, the tunnel.
// The caller closes the relay.
func viaRelay(ctx context.Context, n *app.Node, box *Mailbox, a *demoAgent, o Options, r Reporter) (*relaylocal.Relay, error) {
	rl, err := relaylocal.Start(ctx, relaylocal.Options{DataDir: filepath.Join(o.DataDir, "relay-server")}, o.Logger)
	if err != nil {
		return nil, fmt.Errorf("demo relay: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			rl.Close()
		}
	}()
	addr, tlsc := box.Submission()
	rl.SetMailer(&relayserver.SMTPMailer{Addr: addr, Username: demobox.Username, Password: demobox.Password,
		Sender: "relay@" + relaylocal.Zone, TLS: tlsc})
	r.Step(fmt.Sprintf("\nA relay runs in this process too: %s on loopback (SNI port %s, its DNS zone on %s, its own CA). "+
		"The node registers %s there with its node key.", rl.URL, rl.Addr, rl.DNSAddr, demobox.Address))

	sub, unsub := n.Subscribe()
	defer unsub()
	_, port, _ := net.SplitHostPort(rl.Addr)
	devPort, _ := strconv.Atoi(port)
	if err := n.StartRelay(app.RelayConfig{URL: rl.URL, Address: demobox.Address, HTTP: rl.HTTPClient(), TLS: rl.CA.ClientTLS(), Dial: rl.Dial,
		DevDNS: rl.DNSAddr, DevPort: devPort}); err != nil {
		return nil, err
	}
	// The demo syncs by hand, as above: the relay's code mail arrives
	// in the demo INBOX and the node finds it there.
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	timeout := time.After(30 * time.Second)
	var host string
	for host == "" {
		select {
		case st := <-sub:
			if st.Gateway.Relay.State == "connected" {
				host = st.Gateway.Relay.Hostname
			}
		case <-tick.C:
			if _, err := n.Sync(ctx); err != nil {
				return nil, err
			}
		case <-timeout:
			return nil, fmt.Errorf("demo relay: the node did not connect: %+v", n.Status().Gateway.Relay)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	r.Step(fmt.Sprintf("The relay mailed a code to %s; the node found it in its synced INBOX, confirmed by itself and opened its tunnel. Its name: %s.",
		demobox.Address, host))

	res, err := (&agent.Relay{BaseURL: rl.URL, HTTPClient: rl.HTTPClient()}).Resolve(ctx, demobox.Address)
	if err != nil {
		return nil, err
	}
	if res.Hostname != host {
		return nil, errors.New("demo relay: resolve gave another name than the node's")
	}
	r.Step(fmt.Sprintf("The demo agent resolves %s at %s%s: hostname %s.", demobox.Address, rl.URL, relay.PathResolve, res.Hostname))
	s, err := a.session(res.Hostname, n.CAFile(), o.Version, rl.Dial)
	if err != nil {
		return nil, err
	}
	r.Step(fmt.Sprintf("It connects to %s:443: the name is looked up in the relay's DNS; the relay reads only the server name of the TLS ClientHello "+
		"and splices the connection onto the node's tunnel. TLS ends at the node; the relay sees bytes it cannot read.", res.Hostname))
	out, err := s.Call(ctx, "bills_due", nil)
	if err != nil {
		return nil, fmt.Errorf("demo agent call through the relay: %w", err)
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, out, "  ", "  ")
	r.Step(fmt.Sprintf("bills_due (the structured tier the user approved above) runs through the relay:\n  %s", clip(pretty.String(), 800)))

	var health relay.Health
	if err := getJSON(ctx, rl.HTTPClient(), rl.URL+relay.PathHealth, &health); err != nil {
		return nil, err
	}
	r.Step(fmt.Sprintf("The relay's %s: %d node connected.", relay.PathHealth, health.NodesConnected))
	ok = true
	return rl, nil
}

func getJSON(ctx context.Context, hc *http.Client, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// caBundle writes the node's and the local relay's CA certificates into
// one file for `mailnode-agent --ca`.
func caBundle(dataDir, nodeCA string, rl *relaylocal.Relay) (string, error) {
	b, err := os.ReadFile(nodeCA)
	if err != nil {
		return "", err
	}
	b = append(b, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rl.CA.Cert.Raw})...)
	f := filepath.Join(dataDir, "relay-server", "agent-ca.pem")
	return f, os.WriteFile(f, b, 0o600)
}
