package relayserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"mailnode/relay"
	"mailnode/relay/relayserver"
)

// TestMetricsServed: every metric /v1/transparency names is served by
// /v1/metrics, and nothing else is; a resolve and a refused request are
// counted.
func TestMetricsServed(t *testing.T) {
	srv, _ := dnsRelay(t, relayserver.Limits{ClientBurst: 1, ClientRate: 0.001})
	h := srv.Handler()
	get := func(path string, v any) int {
		t.Helper()
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "http://relay.test"+path, nil)
		req.RemoteAddr = "192.0.2.1:1234"
		h.ServeHTTP(rec, req)
		if v != nil && rec.Code == http.StatusOK {
			if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
		}
		return rec.Code
	}
	var tr relayserver.Transparency
	if code := get(relay.PathTransparency, &tr); code != http.StatusOK {
		t.Fatalf("GET %s = %d", relay.PathTransparency, code)
	}
	var served map[string]json.Number
	if code := get(relay.PathMetrics, &served); code != http.StatusOK {
		t.Fatalf("GET %s = %d", relay.PathMetrics, code)
	}
	for _, name := range tr.Metrics {
		if _, ok := served[name]; !ok {
			t.Errorf("/v1/transparency names %q, which /v1/metrics does not serve (%v)", name, served)
		}
	}
	for name := range served {
		if !slices.Contains(tr.Metrics, name) {
			t.Errorf("/v1/metrics serves %q, which /v1/transparency does not name", name)
		}
	}

	// The client's one token is spent: a resolve is refused, and both
	// are counted.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "http://relay.test"+relay.PathResolve, strings.NewReader(`{"address":"ann@example.com"}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.1:1234"
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("resolve after the client's burst = %d, want 429", rec.Code)
	}
	m := mustMetrics(t, srv)
	if m.ResolveRequests != 1 || m.RateLimitedRequests != 1 || m.NodesRegistered != 0 || m.NodesConnected != 0 {
		t.Errorf("Metrics = %+v, want one resolve, one refused, no nodes", m)
	}
}
