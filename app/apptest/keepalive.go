package apptest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/agent"
)

// The HTTP/1.1 keep-alive checks (issue 40): the same requests, sent by
// Go's client, curl and Node's fetch over one HTTP/1.1 connection, must
// fare through the relay exactly as straight to the node.

// Target is one way an agent reaches a node: the URL's authority, and
// the loopback address its TCP connection goes to (a DNS override).
type Target struct {
	Name string // "direct", "relay": in failure messages
	// Host is the authority in the URLs: the node's name, with a port
	// other than 443.
	Host string
	// Dial is the host:port the client connects to.
	Dial string
}

// Plan is what one client sends on its connection: Steps in order, with
// Gap between two of them.
type Plan struct {
	Steps []Step        `json:"steps"`
	Gap   time.Duration `json:"-"`
	// GapMS is Gap for the Node script.
	GapMS int64 `json:"gap_ms"`
	// Dial and CA are the target's address and the PEM roots to trust.
	Dial string `json:"dial"`
	CA   string `json:"ca"`
}

// Step is one request.
type Step struct {
	Method string            `json:"method"`
	URL    string            `json:"url"`
	Header map[string]string `json:"headers"`
	Body   string            `json:"body,omitempty"`
}

// Outcome is what a client saw: each response's status (0: no response)
// and how many connections it opened for the whole plan.
type Outcome struct {
	Status []int `json:"status"`
	Conns  int   `json:"conns"`
	// Dropped (Go's client only) counts connections the client closed
	// itself while the server still held them open, after a request it
	// did not keep the connection of. Go's transport does so when its
	// writer goroutine reports a request written more than 50 ms after
	// the response came (net/http's maxWriteWaitBeforeConnReuse): on a
	// loaded machine, not the server's doing, so it does not count
	// against keep-alive.
	Dropped int    `json:"-"`
	Err     string `json:"error,omitempty"`
}

// OK reports whether every request got 200 on a single connection that
// only the client ended.
func (o Outcome) OK(steps int) bool {
	if o.Conns-o.Dropped != 1 || len(o.Status) != steps {
		return false
	}
	for _, s := range o.Status {
		if s != http.StatusOK {
			return false
		}
	}
	return true
}

// String summarises o: the connections and each status that is not 200.
func (o Outcome) String() string {
	var bad []string
	for i, s := range o.Status {
		if s != http.StatusOK {
			bad = append(bad, fmt.Sprintf("#%d=%d", i+1, s))
			if len(bad) == 5 {
				bad = append(bad, "...")
				break
			}
		}
	}
	ok := len(o.Status)
	for _, s := range o.Status {
		if s != http.StatusOK {
			ok--
		}
	}
	return fmt.Sprintf("%d connections (%d dropped by the client), %d of %d answered 200 %v %s", o.Conns, o.Dropped, ok, len(o.Status), bad, o.Err)
}

// NewPlan is a GET of the discovery document, then signed POST /mcp
// tools/list calls, signed requests in all, with gap between two
// requests, for tg. The signatures live 300 s, the protocol's most, so
// that a long plan still verifies at its end.
func NewPlan(tg Target, caPEM []byte, signer agent.Signer, signed int, gap time.Duration) (Plan, error) {
	p := Plan{Gap: gap, GapMS: gap.Milliseconds(), Dial: tg.Dial, CA: string(caPEM)}
	p.Steps = append(p.Steps, Step{Method: http.MethodGet, URL: "https://" + tg.Host + "/.well-known/svc-node", Header: map[string]string{}})
	signer.Lifetime = 300 * time.Second
	for i := range signed {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i+1)
		req, err := http.NewRequest(http.MethodPost, "https://"+tg.Host+"/mcp", nil)
		if err != nil {
			return Plan{}, err
		}
		if err := signer.Sign(req, []byte(body)); err != nil {
			return Plan{}, err
		}
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		for _, k := range []string{"Content-Digest", "Signature-Input", "Signature"} {
			h[k] = req.Header.Get(k)
		}
		p.Steps = append(p.Steps, Step{Method: http.MethodPost, URL: req.URL.String(), Header: h, Body: body})
	}
	return p, nil
}

// RunGo sends p with Go's client forced onto HTTP/1.1 (no h2 in ALPN),
// counting the connections it dials and checking each reuse with
// httptrace.
func RunGo(ctx context.Context, p Plan) Outcome {
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM([]byte(p.CA))
	var dials, dropped atomic.Int64
	tr := &http.Transport{
		// The transport's TLS is dialed here, so that closeWatch sees a
		// TLS close_notify from the server as the end it is.
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			var d net.Dialer
			raw, err := d.DialContext(ctx, network, p.Dial)
			if err != nil {
				return nil, err
			}
			c := tls.Client(raw, &tls.Config{ServerName: host, RootCAs: roots, MinVersion: tls.VersionTLS13,
				NextProtos: []string{"http/1.1"}}) // no HTTP/2
			if err := c.HandshakeContext(ctx); err != nil {
				raw.Close()
				return nil, err
			}
			return &closeWatch{Conn: c, dropped: &dropped}, nil
		},
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{},
		MaxIdleConnsPerHost: 1,
		IdleConnTimeout:     5 * time.Minute,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var o Outcome
	var notReused []int
	notIdled := 0
	for i, st := range p.Steps {
		if i > 0 && p.Gap > 0 {
			select {
			case <-ctx.Done():
				o.Err = ctx.Err().Error()
				return o
			case <-time.After(p.Gap):
			}
		}
		var reused, idled bool
		rctx := httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			GotConn:     func(ci httptrace.GotConnInfo) { reused = ci.Reused },
			PutIdleConn: func(err error) { idled = err == nil },
		})
		req, _ := http.NewRequestWithContext(rctx, st.Method, st.URL, strings.NewReader(st.Body))
		for k, v := range st.Header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			o.Status = append(o.Status, 0)
			if o.Err == "" {
				o.Err = fmt.Sprintf("request %d: %v", i+1, err)
			}
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		status := resp.StatusCode
		// resp.Close: the server said Connection: close, which would make
		// the client's own close of the connection the server's doing.
		if err != nil || resp.ProtoMajor != 1 || resp.Close || st.Method == http.MethodPost && !bytes.Contains(body, []byte(`"tools"`)) {
			if o.Err == "" {
				o.Err = fmt.Sprintf("request %d: %s, close %v, %v: %.200s", i+1, resp.Proto, resp.Close, err, body)
			}
			status = 0
		}
		o.Status = append(o.Status, status)
		if !idled {
			notIdled++
		}
		if i > 0 && !reused {
			notReused = append(notReused, i+1)
		}
	}
	o.Conns = int(dials.Load())
	// A connection the client dropped must have been the connection of
	// a request it did not keep (tryPutIdleConn never ran): the sign of
	// its writer's late report.
	o.Dropped = min(int(dropped.Load()), notIdled)
	if len(notReused) > 0 && o.Err == "" {
		o.Err = fmt.Sprintf("httptrace: requests %v on a new connection", notReused)
	}
	return o
}

// RunCurl sends p with one run of curl --http1.1, the requests as
// transfers of one config file (curl keeps one connection across them),
// --connect-to for the DNS override and --rate for the gap. num_connects
// counts the connections each transfer opened.
func RunCurl(ctx context.Context, curl string, dir string, p Plan) Outcome {
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, []byte(p.CA), 0o600); err != nil {
		return Outcome{Err: err.Error()}
	}
	q := func(s string) string { return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"` }
	var cfg strings.Builder
	cfg.WriteString("silent\nshow-error\n")
	if p.Gap > 0 {
		// One transfer started per gap at most: curl waits between them.
		fmt.Fprintf(&cfg, "rate = %d/h\n", time.Hour/p.Gap)
	}
	for i, st := range p.Steps {
		u, err := url.Parse(st.URL)
		if err != nil {
			return Outcome{Err: err.Error()}
		}
		port := u.Port()
		if port == "" {
			port = "443"
		}
		if i > 0 {
			cfg.WriteString("next\n")
		}
		fmt.Fprintf(&cfg, "url = %s\nhttp1.1\ncacert = %s\nconnect-to = %s\nrequest = %s\noutput = /dev/null\nwrite-out = %s\n",
			q(st.URL), q(caFile), q(u.Hostname()+":"+port+":"+p.Dial), st.Method, q(`%{http_code} %{num_connects} %{http_version}\n`))
		for k, v := range st.Header {
			fmt.Fprintf(&cfg, "header = %s\n", q(k+": "+v))
		}
		if st.Body != "" {
			bodyFile := filepath.Join(dir, fmt.Sprintf("body-%d.json", i))
			if err := os.WriteFile(bodyFile, []byte(st.Body), 0o600); err != nil {
				return Outcome{Err: err.Error()}
			}
			fmt.Fprintf(&cfg, "data-binary = %s\n", q("@"+bodyFile))
		}
	}
	cfgFile := filepath.Join(dir, "curl.cfg")
	if err := os.WriteFile(cfgFile, []byte(cfg.String()), 0o600); err != nil {
		return Outcome{Err: err.Error()}
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, curl, "--disable", "--config", cfgFile)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var o Outcome
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		status, _ := strconv.Atoi(f[0])
		n, _ := strconv.Atoi(f[1])
		if f[2] != "1.1" {
			status = 0
		}
		o.Status = append(o.Status, status)
		o.Conns += n
	}
	if err != nil || stderr.Len() > 0 {
		o.Err = strings.TrimSpace(fmt.Sprintf("curl: %v %s", err, stderr.String()))
	}
	return o
}

//go:embed keepalive.mjs
var keepaliveScript []byte

// RunNode sends p with Node's fetch (undici, which keeps connections
// alive) from keepalive.mjs; its connector dials p.Dial with the URL's
// server name and counts the connections.
func RunNode(ctx context.Context, node string, dir string, p Plan) Outcome {
	script := filepath.Join(dir, "keepalive.mjs")
	planFile := filepath.Join(dir, "plan.json")
	b, err := json.Marshal(p)
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	if err := os.WriteFile(script, keepaliveScript, 0o600); err != nil {
		return Outcome{Err: err.Error()}
	}
	if err := os.WriteFile(planFile, b, 0o600); err != nil {
		return Outcome{Err: err.Error()}
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, script, planFile)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var o Outcome
	if jerr := json.Unmarshal(stdout.Bytes(), &o); jerr != nil || err != nil {
		o.Err = strings.TrimSpace(fmt.Sprintf("node: %v %v %s %s", err, jerr, stdout.String(), stderr.String()))
	}
	return o
}

// Tool finds an external program a test runs. Missing, it is "" and the
// test leaves that program's part out, except on CI (CI=true), where it
// fails: there the program is installed (the Makefile's test-deps), and
// leaving it out would hide its loss.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed: %v", name, err)
	}
	t.Logf("%s is not installed, its checks are left out: %v", name, err)
	return ""
}

// closeWatch counts a TLS connection in dropped if the client closes it
// before a read on it ends (a close_notify, EOF or an error): the server
// had not closed it.
type closeWatch struct {
	net.Conn
	dropped *atomic.Int64
	ended   atomic.Bool
}

func (c *closeWatch) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.ended.Store(true)
	}
	return n, err
}

func (c *closeWatch) Close() error {
	if !c.ended.Swap(true) {
		c.dropped.Add(1)
	}
	return c.Conn.Close()
}

// CheckKeepAlive sends, with each client (Go's, and curl and Node's fetch
// where installed) to each target at once: 1,000 signed calls on one
// connection, then with idle gaps of 1 s and of 30 s between calls. Every
// request must get 200 on a single connection, for every target alike.
// It takes the 30 s gap and the time of the longest run.
func CheckKeepAlive(t *testing.T, targets []Target, caPEM []byte, signer agent.Signer) {
	t.Helper()
	type client struct {
		name string
		run  func(ctx context.Context, dir string, p Plan) Outcome
	}
	clients := []client{{"go", func(ctx context.Context, _ string, p Plan) Outcome { return RunGo(ctx, p) }}}
	if curl := Tool(t, "curl"); curl != "" {
		clients = append(clients, client{"curl", func(ctx context.Context, dir string, p Plan) Outcome { return RunCurl(ctx, curl, dir, p) }})
	}
	if node := Tool(t, "node"); node != "" {
		clients = append(clients, client{"node", func(ctx context.Context, dir string, p Plan) Outcome { return RunNode(ctx, node, dir, p) }})
	}
	plans := []struct {
		name   string
		signed int
		gap    time.Duration
	}{
		{"1000 calls", 1000, 0},
		{"1 s gaps", 2, time.Second},
		{"30 s gap", 1, 30 * time.Second},
	}
	type run struct {
		name  string
		steps int
		out   chan Outcome
	}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	var runs []run
	for _, c := range clients {
		for _, pl := range plans {
			for _, tg := range targets {
				p, err := NewPlan(tg, caPEM, signer, pl.signed, pl.gap)
				if err != nil {
					t.Fatal(err)
				}
				r := run{name: c.name + ", " + pl.name + ", " + tg.Name, steps: len(p.Steps), out: make(chan Outcome, 1)}
				dir := t.TempDir()
				go func() { r.out <- c.run(ctx, dir, p) }()
				runs = append(runs, r)
			}
		}
	}
	for _, r := range runs {
		o := <-r.out
		if !o.OK(r.steps) {
			t.Errorf("%s: %v; want %d answered 200 on 1 connection", r.name, o, r.steps)
		} else {
			t.Logf("%s: %v", r.name, o)
		}
	}
}
