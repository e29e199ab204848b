package signin

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
)

// verifyIDToken checks an ID token (OpenID Connect Core section 3.1.3.7)
// and returns the account's address. go-oidc checks the signature against
// the provider's JWKS, the expiry, the audience (this client) and, where
// the issuer is fixed, the issuer; a templated issuer (Microsoft's
// {tenantid}) is checked here against the token's own tid.
func (p Provider) verifyIDToken(ctx context.Context, raw, nonce string) (identity, error) {
	templated := strings.Contains(p.Issuer, "{tenantid}")
	keys := oidc.NewRemoteKeySet(ctx, p.JWKSURL)
	v := oidc.NewVerifier(p.Issuer, keys, &oidc.Config{ClientID: p.Client.ID, SkipIssuerCheck: templated})
	idt, err := v.Verify(ctx, raw)
	if err != nil {
		return identity{}, fmt.Errorf("%s's ID token is not for this sign-in: %w", p.Name, err)
	}
	var c struct {
		Email             string          `json:"email"`
		EmailVerified     *bool           `json:"email_verified"`
		PreferredUsername string          `json:"preferred_username"`
		Tid               string          `json:"tid"`
		EDOV              json.RawMessage `json:"xms_edov"`
	}
	if err := idt.Claims(&c); err != nil {
		return identity{}, fmt.Errorf("%s's ID token: %w", p.Name, err)
	}
	if templated {
		if c.Tid == "" || strings.ContainsAny(c.Tid, "/?#") || idt.Issuer != strings.ReplaceAll(p.Issuer, "{tenantid}", c.Tid) {
			return identity{}, fmt.Errorf("%s's ID token names issuer %q, not its tenant's", p.Name, clean(idt.Issuer, 100))
		}
	}
	if nonce != "" && subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(nonce)) != 1 {
		return identity{}, fmt.Errorf("%s's ID token was issued for another sign-in (nonce differs)", p.Name)
	}
	if c.EmailVerified != nil && !*c.EmailVerified {
		return identity{}, fmt.Errorf("%s has not verified the account's address %q", p.Name, clean(c.Email, 100))
	}
	addr := c.Email
	if templated && (!edovTrue(c.EDOV) || addr == "") {
		// Microsoft's email claim is whatever a tenant's administrator
		// wrote in the user's mail attribute, any domain ("nOAuth",
		// 2023), and carries no email_verified: it is taken only with
		// the optional claim xms_edov saying the domain's owner is
		// verified. Otherwise the sign-in name is the address: a work
		// account's UPN must end in one of its tenant's verified
		// domains, and a personal account's is its own address.
		addr = c.PreferredUsername
	}
	if !usableAddress(addr) {
		return identity{}, fmt.Errorf("%s's ID token carries no usable email address (got %q)", p.Name, clean(addr, 100))
	}
	return identity{address: addr, subject: idt.Subject, tenant: c.Tid}, nil
}

// edovTrue reports whether Microsoft's xms_edov claim says true. It is
// documented as a boolean; the string forms are taken too, as Microsoft's
// optional claims have been sent as strings before.
func edovTrue(raw json.RawMessage) bool {
	switch strings.TrimSpace(string(raw)) {
	case "true", `"true"`, `"1"`, "1":
		return true
	}
	return false
}

// usableAddress reports whether addr is a bare address as a person reads
// it: net/mail takes any character above ASCII in an address, and one
// with a zero-width space, a bidi control or a C1 control would be shown
// as another (the confirmation prints addresses cleaned) and saved as
// itself.
func usableAddress(addr string) bool {
	a, err := mail.ParseAddress(addr)
	return err == nil && a.Address == addr && len(addr) <= 254 && clean(addr, len(addr)) == addr
}

// identity is who an ID token names: the address, and the provider's
// stable identifiers (sub, and Microsoft's tenant), since an address
// (Microsoft's preferred_username or email) is not a stable identity.
type identity struct{ address, subject, tenant string }
