// Package signin signs a person in to their mail provider with OAuth 2.0
// and keeps the node signed in, for the providers that no longer take a
// password over IMAP and SMTP (Microsoft) or take one only as an "app
// password" (Google).
//
// Providers are data (Provider, Known): the endpoints, scopes and mail
// servers of each, and how to register the OAuth client the node signs in
// as. No client id is shipped: another program's id is not ours to use,
// and a provider may revoke it. A packager sets one at build time
// (-ldflags -X, see defaultGoogleClientID), a person in the settings
// (Clients); without one, Lookup says what to register and where.
//
// Two ways to sign in:
//   - Browser: the authorization code flow with PKCE S256 (RFC 7636) and a
//     loopback redirect on a random port (RFC 8252 section 7.3). The
//     listener answers one callback, on its own path only, and the state
//     must be this sign-in's.
//   - Device: the device authorization grant (RFC 8628) for a machine with
//     no browser, where the provider allows it for mail (Microsoft does;
//     Google refuses the mail scope on its device flow).
//
// Either way the account's address comes from the provider, not from what
// the person typed: the ID token's email claim, after go-oidc has checked
// its signature against the provider's keys (JWKS), its issuer and its
// audience (this client), and, for the browser flow, its nonce.
//
// The refresh token is the account's credential and is kept by
// mail/credential (OS keyring, else a 0600 file); the access token lives
// in memory only (Tokens), renewed before it expires and once more when a
// server refuses it.
package signin
