package redact

import (
	"regexp"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct {
		in   string
		gone []string // must not be in the output
		kept []string // must still be there
	}{
		{in: "Your verification code is 482913.", gone: []string{"482913"}},
		{in: "482913 is your Example login code", gone: []string{"482913"}},
		{in: "G-482913 is your Google verification code.", gone: []string{"482913"}},
		{in: "Your one-time code:\n\n   731 904\n\nIt expires in 10 minutes.", gone: []string{"731 904"}, kept: []string{"10 minutes"}},
		{in: "Use code 9F3K2Q to sign in", gone: []string{"9F3K2Q"}},
		{in: "Abholcode: 5521-8830 (Packstation 112)", gone: []string{"5521-8830"}},
		{in: "Ihr Bestätigungscode lautet 66120.", gone: []string{"66120"}},
		{in: "Votre code de vérification : 402 117", gone: []string{"402 117"}},
		{in: "Tu código es 889213", gone: []string{"889213"}},
		{in: "Pickup code KQZPT at the counter", gone: []string{"KQZPT"}},
		{in: "Your PIN: 4821", gone: []string{"4821"}},
		{in: "Code:482913", gone: []string{"482913"}},
		{in: "Your code for order 12345 is 482913. Order 777888 ships today.", gone: []string{"482913"}, kept: []string{"777888"}},
		{in: "Card 4111 1111 1111 1111 exp 12/28", gone: []string{"4111 1111 1111 1111"}, kept: []string{"12/28"}},
		{in: "card no. 4111-1111-1111-1111.", gone: []string{"4111-1111-1111-1111"}},
		{in: "Amex 3782 822463 10005 charged", gone: []string{"3782 822463 10005"}},
		{in: "number 4012888888881881 on file", gone: []string{"4012888888881881"}},
		{in: "19 digits 6011 0009 9013 9424 320", gone: []string{"6011"}},
		{in: "Pay to DE89 3704 0044 0532 0130 00 by Friday", gone: []string{"3704"}, kept: []string{"by Friday"}},
		{in: "IBAN: GB82WEST12345698765432 ", gone: []string{"GB82WEST12345698765432"}},
		{in: "IBAN LT12 1000 0111 0100 1000 SOFORT", gone: []string{"LT12"}, kept: []string{"SOFORT"}},
		{in: "IBAN DE00 1234 5678 9012 3456 78", gone: []string{"DE00"}},
		{in: "Reset here: https://example.com/reset?token=abc and www.evil.example/x", gone: []string{"https", "token=abc", "www.evil"}},
		{in: "See example.com/login?u=1 now", gone: []string{"example.com/login"}},

		{in: "Order 302-1234567-1234567 has shipped", kept: []string{"302-1234567-1234567"}},
		{in: "Flight LH 400 departs 14 Dec 2026 at 10:05 from FRA", kept: []string{"LH 400", "2026", "10:05"}},
		{in: "Amount due: 84.20 EUR by 1 December 2026", kept: []string{"84.20", "2026"}},
		{in: "Tracking 1Z999AA10123456784 with UPS", kept: []string{"1Z999AA10123456784"}},
		{in: "Your code expires on 12.12.2026 and costs €150", kept: []string{"12.12.2026", "€150"}},
		{in: "Order total 1234567890123 units", kept: []string{"1234567890123"}}, // Luhn-invalid
		{in: "Visit zalando.de for returns", kept: []string{"zalando.de"}},
	}
	for _, tt := range tests {
		got := Text(tt.in)
		for _, g := range tt.gone {
			if strings.Contains(got, g) {
				t.Errorf("Text(%q) = %q, still has %q", tt.in, got, g)
			}
		}
		for _, k := range tt.kept {
			if !strings.Contains(got, k) {
				t.Errorf("Text(%q) = %q, lost %q", tt.in, got, k)
			}
		}
	}
}

func TestStrict(t *testing.T) {
	msg := "Slack confirmation code: 731-055\nYour confirmation code is below. Enter it in your open browser window and we'll help you get signed in.\n\n731-055\n"
	if !AnnouncesCode(msg) {
		t.Fatalf("AnnouncesCode(%q) = false", msg)
	}
	if got := Strict("731-055"); got != Code {
		t.Errorf("Strict(731-055) = %q, want %q", got, Code)
	}
	if got := Strict("Valid for 10 minutes, until 14:05 on 12.12.2026."); got != "Valid for 10 minutes, until 14:05 on 12.12.2026." {
		t.Errorf("Strict changed dates and times: %q", got)
	}
	for _, s := range []string{"Your order 1158340927 is on its way", "Your Vodafone bill is ready"} {
		if AnnouncesCode(s) {
			t.Errorf("AnnouncesCode(%q) = true", s)
		}
	}
}

func TestChecks(t *testing.T) {
	for _, tt := range []struct {
		s    string
		luhn bool
	}{{"4111111111111111", true}, {"4111111111111112", false}, {"378282246310005", true}, {"79927398713", true}} {
		if got := luhn(tt.s); got != tt.luhn {
			t.Errorf("luhn(%s) = %v, want %v", tt.s, got, tt.luhn)
		}
	}
	for _, tt := range []struct {
		s  string
		ok bool
	}{{"DE89370400440532013000", true}, {"GB82WEST12345698765432", true}, {"DE89370400440532013001", false}, {"NL91ABNA0417164300", true}} {
		if got := mod97(tt.s); got != tt.ok {
			t.Errorf("mod97(%s) = %v, want %v", tt.s, got, tt.ok)
		}
	}
}

// plainRunRE is a whole run of 13 to 19 digits.
var plainRunRE = regexp.MustCompile(`(?:^|[^0-9 -])(\d{13,19})(?:$|[^0-9 -])`)

func FuzzText(f *testing.F) {
	for _, s := range []string{"Your code is 482913", "4111 1111 1111 1111", "IBAN DE89 3704 0044 0532 0130 00", "https://x.example/a", "€150 on 12.12.2026"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if linkRE.MatchString(out) {
			t.Fatalf("Text(%q) = %q keeps a link", s, out)
		}
		// No run of plain digits that is a Luhn-valid card number
		// survives.
		for _, m := range plainRunRE.FindAllStringSubmatch(out, -1) {
			if luhn(m[1]) {
				t.Fatalf("Text(%q) = %q keeps card-like %s", s, out, m[1])
			}
		}
	})
}
