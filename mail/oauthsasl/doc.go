// Package oauthsasl signs in to IMAP and SMTP servers with an OAuth 2.0
// access token: the SASL mechanisms OAUTHBEARER (RFC 7628) and XOAUTH2
// (Google's and Microsoft's older mechanism, which go-sasl does not have),
// and the choice between them from what a server advertises.
//
// Both clients here answer a server's error challenge the way the
// mechanism asks (RFC 7628 section 3.2.3: a single %x01; XOAUTH2: an empty
// response) instead of giving up mid-exchange, so the server ends the
// command with a plain failure (IMAP NO [AUTHENTICATIONFAILED], SMTP 535)
// and the connection stays usable for the one retry with a fresh token.
// go-sasl's own OAUTHBEARER client returns an error from Next, which leaves
// go-imap's AUTHENTICATE command open on the wire.
//
// XOAUTH2 is documented by Google
// (https://developers.google.com/workspace/gmail/imap/xoauth2-protocol)
// and Microsoft; its initial response is
//
//	"user=" user "\x01auth=Bearer " token "\x01\x01"
//
// and a failure is a challenge holding a JSON object like OAUTHBEARER's
// ({"status":"401","schemes":"bearer","scope":"..."}), which the client
// must answer with an empty response.
package oauthsasl
