package signin

import (
	"context"
	"crypto/subtle"
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
		Email             string `json:"email"`
		EmailVerified     *bool  `json:"email_verified"`
		PreferredUsername string `json:"preferred_username"`
		Tid               string `json:"tid"`
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
	if addr == "" && templated {
		// Microsoft leaves email out for accounts without a mailbox
		// address on record; the sign-in name is the address there.
		addr = c.PreferredUsername
	}
	a, err := mail.ParseAddress(addr)
	if err != nil || a.Address != addr {
		return identity{}, fmt.Errorf("%s's ID token carries no usable email address (got %q)", p.Name, clean(addr, 100))
	}
	return identity{address: addr, subject: idt.Subject, tenant: c.Tid}, nil
}

// identity is who an ID token names: the address, and the provider's
// stable identifiers (sub, and Microsoft's tenant), since an address
// (Microsoft's preferred_username or email) is not a stable identity.
type identity struct{ address, subject, tenant string }
