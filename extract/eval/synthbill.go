package eval

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"mailnode/extract"
)

func (g *gen) bill(s *Synthetic, i int) {
	is := issuers[i%len(issuers)]
	seq := fmt.Sprintf("bill-%03d", i)
	number := fmt.Sprintf("%d%08d", 1+g.pick(9), g.r.IntN(1e8))
	if g.pick(2) == 0 {
		number = fmt.Sprintf("INV-2026-%06d", g.r.IntN(1e6))
	}
	amount := g.amount()
	issued := g.base.Add(time.Duration(g.r.IntN(80*24)) * time.Hour)
	due := time.Date(issued.Year(), issued.Month(), issued.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 14+g.pick(14))
	iban := g.iban()
	steps := []string{"due"}
	switch g.pick(3) {
	case 0:
		steps = []string{"due", "paid"}
	case 1:
		steps = []string{"due", "reminder", "paid"}
	}
	for k, st := range steps {
		b := billMail{issuer: is, number: number, amount: amount, due: due, status: st, iban: iban,
			date: issued.Add(time.Duration(k*72+g.pick(20)) * time.Hour)}
		if st == "paid" && g.pick(2) == 0 {
			b.card = g.card()
			s.Secrets = append(s.Secrets, groups(b.card))
		}
		rendering := renderings[(i+k)%len(renderings)]
		s.Mails = append(s.Mails, Mail{Name: fmt.Sprintf("%s-%d-%s-%s", seq, k, st, rendering), Raw: b.render(rendering, g), Sequence: seq, Step: k})
	}
	s.Secrets = append(s.Secrets, groups4(iban))
	final := "due"
	if steps[len(steps)-1] == "paid" {
		final = "paid"
	}
	s.Expected = append(s.Expected, Entity{Kind: extract.KindBill, Key: number, Fields: map[string]string{
		"domain": is.domain, "number": number, "amount": amount + " " + is.currency, "due": due.Format("2006-01-02"),
		"status": final, "verified": fmt.Sprint(is.auth)}})
}

type billMail struct {
	issuer                       shop
	number, amount, status, iban string
	card                         string
	due, date                    time.Time
}

func (b billMail) dueText() string {
	switch b.issuer.lang {
	case "de":
		return b.due.Format("02.01.2006")
	case "fr":
		return b.due.Format("02/01/2006")
	}
	if b.issuer.currency == "USD" {
		return b.due.Format("January 2, 2006")
	}
	return b.due.Format("2 January 2006")
}

func (b billMail) subject() string {
	de, fr := b.issuer.lang == "de", b.issuer.lang == "fr"
	switch b.status {
	case "reminder":
		return pick3(de, fr, "Zahlungserinnerung zu Rechnung "+b.number, "Rappel : facture "+b.number+" impayée", "Reminder: your bill is due soon")
	case "paid":
		return pick3(de, fr, "Zahlungseingang bestätigt", "Paiement reçu, merci", "Payment received - thank you")
	}
	return pick3(de, fr, "Ihre Rechnung "+b.number+" ist da", "Votre facture "+b.number+" est disponible", "Your "+b.issuer.name+" bill is ready")
}

func (b billMail) lines() []string {
	de, fr := b.issuer.lang == "de", b.issuer.lang == "fr"
	amount := money(b.amount, b.issuer.currency, b.issuer.lang)
	var out []string
	switch b.status {
	case "paid":
		out = append(out, pick3(de, fr, "Vielen Dank, wir haben Ihre Zahlung erhalten.", "Merci, nous avons bien reçu votre paiement.", "Thank you for your payment."))
		out = append(out, pick3(de, fr, "Rechnungsnummer: ", "Numéro de facture : ", "Invoice number: ")+b.number)
		out = append(out, pick3(de, fr, "Bezahlter Betrag: ", "Montant payé : ", "Amount paid: ")+amount)
		if b.card != "" {
			out = append(out, pick3(de, fr, "Abgebucht von Karte ", "Débité sur la carte ", "Charged to card ")+groups(b.card))
		}
		return out
	case "reminder":
		out = append(out, pick3(de, fr, "Wir möchten Sie an die offene Rechnung erinnern.", "Nous vous rappelons que votre facture reste à régler.", "This is a friendly reminder that your bill is due soon."))
	default:
		out = append(out, pick3(de, fr, "Ihre neue Rechnung steht bereit.", "Votre nouvelle facture est disponible.", "Your new bill is ready to view."))
	}
	out = append(out,
		pick3(de, fr, "Rechnungsnummer: ", "Numéro de facture : ", "Invoice number: ")+b.number,
		pick3(de, fr, "Rechnungsbetrag: ", "Montant à payer : ", "Amount due: ")+amount,
		pick3(de, fr, "Fällig am: ", "Date d'échéance : ", "Due date: ")+b.dueText(),
		pick3(de, fr, "Bitte überweisen Sie auf IBAN ", "Virement sur l'IBAN ", "Bank transfer to IBAN ")+groups4(b.iban),
		pick3(de, fr, "Mit freundlichen Grüßen, "+b.issuer.name, "Cordialement, "+b.issuer.name, "Thank you, "+b.issuer.name))
	return out
}

func (b billMail) render(how string, g *gen) []byte {
	status := "http://schema.org/PaymentDue"
	if b.status == "paid" {
		status = "http://schema.org/PaymentComplete"
	}
	ld := fmt.Sprintf(`{"@context": "http://schema.org", "@type": "Invoice", "provider": {"@type": "Organization", "name": %q}, "confirmationNumber": %q, "totalPaymentDue": {"@type": "PriceSpecification", "price": %q, "priceCurrency": %q}, "paymentDueDate": %q, "paymentStatus": %q}`,
		b.issuer.name, b.number, b.amount, b.issuer.currency, b.due.Format("2006-01-02"), status)
	md := fmt.Sprintf(`<div itemscope itemtype="http://schema.org/Invoice"><div itemprop="provider" itemscope itemtype="http://schema.org/Organization"><meta itemprop="name" content=%q/></div><meta itemprop="confirmationNumber" content=%q/><div itemprop="totalPaymentDue" itemscope itemtype="http://schema.org/PriceSpecification"><meta itemprop="price" content=%q/><meta itemprop="priceCurrency" content=%q/></div><meta itemprop="paymentDueDate" content=%q/><link itemprop="paymentStatus" href=%q/></div>`,
		b.issuer.name, b.number, b.amount, b.issuer.currency, b.due.Format("2006-01-02"), status)
	ctype, body := renderBody(how, ld, md, b.lines())
	return message(b.issuer, "rechnung", b.subject(), b.date, ctype, body, g)
}

// iban makes a German IBAN with valid check digits.
func (g *gen) iban() string {
	bban := fmt.Sprintf("%08d%010d", g.r.IntN(1e8), g.r.Int64N(1e10))
	n, _ := new(big.Int).SetString(bban+"131400", 10) // "DE00" as digits
	check := 98 - new(big.Int).Mod(n, big.NewInt(97)).Int64()
	return fmt.Sprintf("DE%02d%s", check, bban)
}

// card makes a Visa-like number that passes Luhn.
func (g *gen) card() string {
	d := []byte("4")
	for len(d) < 15 {
		d = append(d, byte('0'+g.pick(10)))
	}
	sum := 0
	for i := len(d) - 1; i >= 0; i -= 2 {
		x := int(d[i]-'0') * 2
		if x > 9 {
			x -= 9
		}
		sum += x
		if i > 0 {
			sum += int(d[i-1] - '0')
		}
	}
	return string(append(d, byte('0'+(10-sum%10)%10)))
}

func groups(card string) string {
	return card[:4] + " " + card[4:8] + " " + card[8:12] + " " + card[12:]
}

func groups4(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i += 4 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[i:min(i+4, len(s))])
	}
	return b.String()
}

// distractor writes a mail that must yield no order and no bill:
// promotions, newsletters, statements with nothing to pay, one-time codes.
func (g *gen) distractor(s *Synthetic, i int) {
	sh := shops[i%len(shops)]
	date := g.base.Add(time.Duration(g.r.IntN(80*24)) * time.Hour)
	var subject, body string
	switch i % 5 {
	case 0:
		subject = "Black Friday: up to 40% off everything"
		body = fmt.Sprintf("Only this week at %s!\nRunning shoes now %s instead of %s.\nUse code SAVE%d at checkout.\nShop now and get free shipping on orders over %s.\n",
			sh.name, money(g.amount(), sh.currency, "en"), money(g.amount(), sh.currency, "en"), 10+g.pick(30), money("50.00", sh.currency, "en"))
	case 1:
		code := fmt.Sprintf("%06d", g.r.IntN(1e6))
		s.Secrets = append(s.Secrets, code)
		subject = "Your verification code"
		body = fmt.Sprintf("Your %s verification code is %s.\nIt expires in 10 minutes. Never share it with anyone.\n", sh.name, code)
	case 2:
		code := fmt.Sprintf("%03d-%03d", g.r.IntN(1000), g.r.IntN(1000))
		s.Secrets = append(s.Secrets, code)
		subject = "Sign in to " + sh.name
		body = fmt.Sprintf("Someone is trying to sign in to your %s account.\nEnter this one-time code in the app:\n\n    %s\n\nIf this wasn't you, change your password.\n", sh.name, code)
	case 3:
		subject = "Your monthly statement is available"
		body = fmt.Sprintf("Your account statement for %s is ready.\nBalance: %s\nNo payment is required.\n", date.Format("January 2006"), money(g.amount(), sh.currency, "en"))
	default:
		pickup := fmt.Sprintf("%d", 100000+g.r.IntN(900000))
		s.Secrets = append(s.Secrets, pickup)
		subject = "Your parcel is waiting at the locker"
		body = fmt.Sprintf("Your parcel can be collected at Packstation %d.\nPickup code: %s\nIt will be kept for 7 days.\n", 100+g.pick(800), pickup)
	}
	s.Mails = append(s.Mails, Mail{Name: fmt.Sprintf("distractor-%03d", i), Raw: message(sh, "news", subject, date, "text/plain", body, g)})
}
