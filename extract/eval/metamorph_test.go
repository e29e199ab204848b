package eval

import (
	"strings"
	"testing"

	"mailnode/mail/mime"
)

const metaPlain = "From: Fjord Rail <booking@fjordrail.example>\r\nTo: kari@example.org\r\nSubject: Din bestilling\r\n" +
	"Date: Mon, 01 Mar 2027 10:00:00 +0100\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
	"Bestillingsnummer: QX7P2K\r\nTog 612 fra Bergen kl. 08:12 til Oslo S kl. 14:55, avgang 12. mars 2027. Pris 849,00 kr, betalt med kort. God tur med oss!\r\n"

const metaAlt = "From: Hôtel Lumière <resa@lumiere.example>\r\nTo: ana@example.org\r\nSubject: Réservation\r\n" +
	"Date: Mon, 01 Mar 2027 10:00:00 +0100\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n" +
	"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nRéservation n° 88231, arrivée le 3 avril 2027 (150,00 €)\r\n" +
	"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<table><tr><td>Réservation</td><td>88231</td></tr></table>" +
	"<script type=\"application/ld+json\">{}</script><a href=\"https://lumiere.example/r\">Gérer</a>\r\n--b--\r\n"

const metaHTML = "From: Hôtel Lumière <resa@lumiere.example>\r\nTo: ana@example.org\r\nSubject: Réservation\r\n" +
	"Date: Mon, 01 Mar 2027 10:00:00 +0100\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" +
	"<table><tr><td>Réservation</td><td>88231</td></tr></table><a href=\"https://lumiere.example/r\">Gérer</a>\r\n"

// TestTransformations: each rewriting gives a mail mime reads, holding the
// original's words as the client writes them.
func TestTransformations(t *testing.T) {
	tests := []struct {
		name, mail string
		ok         bool
		want       []string // in the text (or the HTML's text when no text part)
		wantRaw    []string
		notRaw     []string
	}{
		{"fwd-gmail", metaPlain, true, []string{"Fjord Rail <booking@fjordrail.example>", "Bestillingsnummer: QX7P2K", "FYI"}, []string{"From: Sam Rivera"}, nil},
		{"fwd-outlook", metaAlt, true, []string{"________________________________", "Hôtel Lumière <resa@lumiere.example>", "88231"}, nil, []string{"ld+json"}},
		{"fwd-apple", metaPlain, true, []string{"booking@fjordrail.example", "Tog 612"}, nil, nil},
		{"fwd-thunderbird", metaPlain, true, []string{"--------", "\tFjord Rail <booking@fjordrail.example>"}, nil, nil},
		{"reply-quoted", metaPlain, true, []string{":\n> Bestillingsnummer: QX7P2K"}, []string{"From: kari@example.org", "Subject: Re: Din bestilling"}, nil},
		{"fwd-attached", metaPlain, true, []string{"attached message"}, []string{"Content-Type: message/rfc822", "Bestillingsnummer: QX7P2K"}, nil},
		{"text-only", metaPlain, false, nil, nil, nil},
		{"text-only", metaAlt, true, []string{"Réservation n° 88231"}, nil, []string{"text/html"}},
		{"text-only", metaHTML, true, []string{"Réservation\t88231", "Gérer <https://lumiere.example/r>"}, nil, []string{"text/html"}},
		{"html-only", metaAlt, true, []string{"88231"}, nil, []string{"text/plain"}},
		{"html-only", metaPlain, true, []string{"QX7P2K"}, []string{"text/html"}, []string{"text/plain"}},
		{"charset-qp", metaAlt, true, []string{"150,00 €"}, []string{"charset=windows-1252", "quoted-printable"}, nil},
		{"charset-base64", metaPlain, true, []string{"849,00 kr"}, []string{"charset=iso-8859-1", "base64"}, nil},
		{"flowed", metaPlain, true, []string{"God tur med oss!"}, []string{"format=flowed"}, nil},
		{"flowed", metaAlt, false, nil, nil, nil},
	}
	for _, tc := range tests {
		var tr Transformation
		for _, x := range Transformations {
			if x.Name == tc.name {
				tr = x
			}
		}
		out, ok := tr.Transform(Mail{Name: "m", Raw: []byte(tc.mail)})
		if ok != tc.ok {
			t.Errorf("%s: applies %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		msg := mime.Parse(out.Raw)
		if len(msg.Problems) > 0 {
			t.Errorf("%s: mime problems %v", tc.name, msg.Problems)
		}
		text := msg.Text
		if text == "" {
			text = msg.HTMLText
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: text lacks %q:\n%s", tc.name, w, text)
			}
		}
		for _, w := range tc.wantRaw {
			if !strings.Contains(string(out.Raw), w) {
				t.Errorf("%s: mail lacks %q:\n%s", tc.name, w, out.Raw)
			}
		}
		for _, w := range tc.notRaw {
			if strings.Contains(string(out.Raw), w) {
				t.Errorf("%s: mail holds %q:\n%s", tc.name, w, out.Raw)
			}
		}
	}
}

func TestFlow(t *testing.T) {
	long := strings.Repeat("word ", 30) + "end"
	out := flow(long+"\n>quoted", 72)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines[:len(lines)-2] {
		if len(l) > 73 || !strings.HasSuffix(l, " ") {
			t.Errorf("line %q: not a soft break within 72 columns", l)
		}
	}
	if got := lines[len(lines)-1]; got != " >quoted" {
		t.Errorf("last line %q, want it stuffed", got)
	}
	if strings.ReplaceAll(strings.Join(lines[:len(lines)-1], ""), "\n", "") != long {
		t.Errorf("unflowed text differs from %q", long)
	}
}

// TestSplitSender: the sender's fields are counted apart, and the rest
// keeps the other fields' counts.
func TestSplitSender(t *testing.T) {
	exp := []Entity{{Kind: "bill", Mail: "a", Fields: map[string]string{"domain": "x.example", "issuer": "X", "amount": "1.00 EUR"}}}
	for _, tc := range []struct {
		name         string
		got          []Entity
		rest, sender Score
	}{
		{"all right", []Entity{{Kind: "bill", Mail: "a", Fields: map[string]string{"domain": "x.example", "issuer": "X", "amount": "1.00 EUR"}}}, Score{1, 1, 1}, Score{2, 2, 2}},
		{"forwarded", []Entity{{Kind: "bill", Mail: "a", Fields: map[string]string{"domain": "y.example", "amount": "1.00 EUR"}}}, Score{1, 1, 1}, Score{0, 1, 2}},
		{"none", nil, Score{0, 0, 1}, Score{0, 0, 2}},
	} {
		scores, misses := ComparePerMail(exp, tc.got)
		rest, sender := splitSender(scores, misses, exp)
		if rest["bill"] != tc.rest || sender["bill"] != tc.sender {
			t.Errorf("%s: rest %+v, sender %+v; want %+v, %+v", tc.name, rest["bill"], sender["bill"], tc.rest, tc.sender)
		}
	}
}
