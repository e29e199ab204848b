package gateway_test

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/gateway"
	"mailnode/gateway/httpsig"
	"mailnode/gateway/httpsig/httpsigtest"
	"mailnode/gateway/tools"
)

// failingNonces accepts every nonce as fresh but can never write it down.
type failingNonces struct{}

func (failingNonces) Use(context.Context, string, string, time.Time) (bool, error) {
	return false, errors.New("disk full")
}

func (failingNonces) Reserve(string, string, time.Time) (bool, func(context.Context) error, error) {
	return true, func(context.Context) error { return errors.New("disk full") }, nil
}

var _ httpsig.Reserver = failingNonces{}

// A call whose nonce cannot be recorded never runs: after a restart the
// node could not refuse its replay.
func TestNoToolBeforeNonceIsDurable(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	docs := newKeyDocs(t, agent)
	n := startNode(t, t.TempDir(), "", docs)
	n.grant(agent, "bills_due", approvals.StructuredRead)
	src := &countingSource{}
	srv, err := gateway.New(gateway.Config{Hostname: n.host, Keys: docs.fetcher(""), Nonces: failingNonces{},
		Approvals: n.approvals, Tools: tools.Catalog(src, nil, nil)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := callTool(1, "bills_due", map[string]any{})
	h, _ := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
	req := httptest.NewRequest("POST", "/mcp", bytes.NewReader(body))
	req.Host = n.host
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), "internal_error") || src.hits.Load() != 0 {
		t.Fatalf("call with an unrecordable nonce: %d %s, mail reads %d", rec.Code, rec.Body, src.hits.Load())
	}
}
