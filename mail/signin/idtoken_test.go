package signin

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// TestIDTokenAddress: which claim names the account, and which addresses
// are refused (attack 45, round 2, R2-3). Microsoft's email claim is a
// tenant administrator's free text ("nOAuth"): it counts only with
// xms_edov; else the sign-in name does. No address with an invisible or
// control character is taken, whoever signed it.
func TestIDTokenAddress(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	jwk := jose.JSONWebKey{Key: key.Public(), KeyID: "k1", Algorithm: "RS256", Use: "sig"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{jwk}})
	}))
	defer srv.Close()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "k1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const tid = "0b5c2e1a-1111-2222-3333-444455556666"
	microsoft := Provider{ID: "microsoft", Name: "Microsoft", Issuer: "https://login.test/{tenantid}/v2.0",
		JWKSURL: srv.URL, Client: Client{ID: "app"}}
	google := Provider{ID: "google", Name: "Google", Issuer: "https://accounts.test", JWKSURL: srv.URL, Client: Client{ID: "app"}}
	sign := func(p Provider, extra map[string]any) string {
		iss := p.Issuer
		if p.ID == "microsoft" {
			iss = "https://login.test/" + tid + "/v2.0"
		}
		claims := map[string]any{"iss": iss, "aud": "app", "sub": "s1", "nonce": "n1",
			"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
		if p.ID == "microsoft" {
			claims["tid"] = tid
		}
		for k, v := range extra {
			claims[k] = v
		}
		b, _ := json.Marshal(claims)
		jws, err := signer.Sign(b)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := jws.CompactSerialize()
		return s
	}
	for _, tc := range []struct {
		name   string
		p      Provider
		claims map[string]any
		want   string // "" for refused
	}{
		{"microsoft email without xms_edov", microsoft,
			map[string]any{"email": "ceo@victim.test", "preferred_username": "mallory@evil.onmicrosoft.test"}, "mallory@evil.onmicrosoft.test"},
		{"microsoft email with xms_edov", microsoft,
			map[string]any{"email": "ann@corp.test", "preferred_username": "ann.upn@corp.test", "xms_edov": true}, "ann@corp.test"},
		{"microsoft xms_edov as a string", microsoft,
			map[string]any{"email": "ann@corp.test", "preferred_username": "ann.upn@corp.test", "xms_edov": "1"}, "ann@corp.test"},
		{"microsoft xms_edov false", microsoft,
			map[string]any{"email": "ann@corp.test", "preferred_username": "ann.upn@corp.test", "xms_edov": false}, "ann.upn@corp.test"},
		{"microsoft xms_edov without email", microsoft,
			map[string]any{"preferred_username": "ann.upn@corp.test", "xms_edov": true}, "ann.upn@corp.test"},
		{"microsoft without email", microsoft, map[string]any{"preferred_username": "bob@outlook.test"}, "bob@outlook.test"},
		{"microsoft sign-in name not an address", microsoft,
			map[string]any{"email": "ann@corp.test", "preferred_username": "+15551234567"}, ""},
		{"microsoft zero-width space", microsoft, map[string]any{"preferred_username": "alice\u200b@corp.test"}, ""},
		{"google", google, map[string]any{"email": "ann@gmail.test", "email_verified": true}, "ann@gmail.test"},
		{"google unverified", google, map[string]any{"email": "ann@gmail.test", "email_verified": false}, ""},
		{"bidi override", google, map[string]any{"email": "ann\u202e@gmail.test"}, ""},
		{"C1 control", google, map[string]any{"email": "ann\u0085x@gmail.test"}, ""},
		{"display name", google, map[string]any{"email": "Ann <ann@gmail.test>"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := tc.p.verifyIDToken(t.Context(), sign(tc.p, tc.claims), "n1")
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("taken as %q, want refused", id.address)
			case tc.want != "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && id.address != tc.want:
				t.Errorf("address %q, want %q", id.address, tc.want)
			}
		})
	}
}
