// Package autoconfig finds a mail address's IMAP and SMTP settings the way
// Thunderbird does, so that a person types an address and a password and
// nothing else.
//
// The sources, in the order they are asked (the first that answers wins):
//
//  1. The mail provider's own configuration document, in Thunderbird's
//     autoconfig format (config-v1.1): https://autoconfig.DOMAIN/mail/config-v1.1.xml
//     and https://DOMAIN/.well-known/autoconfig/mail/config-v1.1.xml.
//  2. Thunderbird's ISP database, embedded (ispdb/, MPL-2.0; see
//     ispdb/README.md for where it came from).
//  3. The domain that receives the address's mail: the MX host's registrable
//     domain looked up in the ISP database (a company domain hosted by
//     Google or Microsoft is found this way).
//  4. RFC 6186 SRV records (_imaps, _imap, _submissions, _submission).
//  5. Well-known host names (imap.DOMAIN, mail.DOMAIN, smtp.DOMAIN), kept
//     only when a TLS connection to them succeeds.
//
// Documents are fetched over HTTPS only: Thunderbird falls back to plain
// HTTP, but a document that can be rewritten on the way could send the
// person's password to another server. Every document is untrusted input:
// it is size-capped, and its host names must be plain DNS names.
package autoconfig
