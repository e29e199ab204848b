package msgauth_test

import (
	"testing"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// ATTACK: Authentication-Results spoofing through a field the parser
// rejects. The provider's own field is on top and says dmarc=fail; but it
// quotes the sender's envelope address, which the sender chose: a quoted
// local part holding ";" (MAIL FROM:<"a;b"@evil.example>, valid SMTP)
// makes authres.Parse fail on it. authenticate then skips the provider's
// field ("err != nil → continue") and believes the next field with the
// provider's authserv-id: the one the sender planted in the message,
// "dmarc=pass header.from=vattenfall.de". The forged From is
// authenticated. (Likewise a provider field of an authserv-id not
// configured, e.g. one of the provider's other hosts, is skipped and a
// planted field below it believed.)
// SAFE: only the topmost Authentication-Results field counts; a topmost
// field that does not parse, or names another authserv-id of the same
// provider, ends the search unauthenticated.
func TestReview10UnparsableProviderFieldLetsForgedOneThrough(t *testing.T) {
	raw := "Authentication-Results: mx.provider.example;\r\n" +
		"       spf=pass (mx.provider.example: domain of \"a;b\"@evil.example designates 192.0.2.7 as permitted sender) smtp.mailfrom=\"a;b\"@evil.example;\r\n" +
		"       dmarc=fail (p=REJECT sp=REJECT dis=QUARANTINE) header.from=vattenfall.de\r\n" +
		"Authentication-Results: mx.provider.example; dkim=pass header.d=vattenfall.de; dmarc=pass header.from=vattenfall.de\r\n" +
		"From: Vattenfall <rechnung@vattenfall.de>\r\nTo: alex@example.net\r\nSubject: Zahlung erhalten\r\n" +
		"Date: Sat, 21 Nov 2026 08:00:00 +0100\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nDanke.\r\n"
	got := msgauth.Checker{AuthServIDs: []string{"mx.provider.example"}}.Check(mime.Parse([]byte(raw)), nil)
	if got.Authenticated {
		t.Errorf("a forged From under a planted field is authenticated: %+v", got)
	}
	// The other host of the same provider.
	raw2 := "Authentication-Results: mx2.provider.example; dmarc=fail header.from=vattenfall.de\r\n" +
		"Authentication-Results: mx.provider.example; dkim=pass header.d=vattenfall.de; dmarc=pass header.from=vattenfall.de\r\n" +
		"From: Vattenfall <rechnung@vattenfall.de>\r\nTo: alex@example.net\r\nSubject: Zahlung erhalten\r\n" +
		"Date: Sat, 21 Nov 2026 08:00:00 +0100\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nDanke.\r\n"
	got = msgauth.Checker{AuthServIDs: []string{"mx.provider.example"}}.Check(mime.Parse([]byte(raw2)), nil)
	if got.Authenticated {
		t.Errorf("a planted field below another host's field is believed: %+v", got)
	}
}
