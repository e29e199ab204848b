package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"mailnode/extract"
)

// Mail is one generated message.
type Mail struct {
	Name string // e.g. "order-03-shipped-microdata"
	Raw  []byte
	// Sequence groups the mails about one order or bill; Step is their
	// order in it (distractors have no sequence).
	Sequence string
	Step     int
}

// Entity is the expected final state of one order or bill, as labelled
// fields ("number", "status", "total", "tracking", "due" …).
type Entity struct {
	Kind string // an extract.Kind…
	Key  string // the order or invoice number it is matched by
	// Mail names the mail a trip segment was read from: travel is
	// scored mail by mail.
	Mail   string `json:",omitempty"`
	Fields map[string]string
}

// Synthetic is the generated part of the evaluation set.
type Synthetic struct {
	Mails    []Mail
	Expected []Entity
	// Secrets are the one-time codes, card numbers and IBANs planted in
	// the mails: no tool output may show one.
	Secrets []string
}

// Renderings of one fact, as real senders write them.
var renderings = []string{"jsonld", "microdata", "html", "text"}

type shop struct {
	name, domain, lang, currency string
	auth                         bool
}

var shops = []shop{
	{"Zalando", "zalando.de", "de", "EUR", true}, {"Otto", "otto.de", "de", "EUR", true},
	{"Thalia", "thalia.de", "de", "EUR", false}, {"MediaMarkt", "mediamarkt.de", "de", "EUR", true},
	{"Coolblue", "coolblue.nl", "en", "EUR", true}, {"Fnac", "fnac.com", "fr", "EUR", true},
	{"John Lewis", "johnlewis.com", "en", "GBP", true}, {"REI", "rei.com", "en", "USD", false},
	{"Best Buy", "bestbuy.com", "en", "USD", true}, {"Decathlon", "decathlon.fr", "fr", "EUR", true},
	{"Bol.com", "bol.com", "en", "EUR", false}, {"Galaxus", "galaxus.ch", "de", "CHF", true},
}

var issuers = []shop{
	{"Vattenfall", "vattenfall.de", "de", "EUR", true}, {"E.ON Energie", "eon.de", "de", "EUR", true},
	{"Stadtwerke München", "swm.de", "de", "EUR", false}, {"Vodafone", "vodafone.co.uk", "en", "GBP", true},
	{"Thames Water", "thameswater.co.uk", "en", "GBP", true}, {"Con Edison", "coned.com", "en", "USD", true},
	{"EDF", "edf.fr", "fr", "EUR", true}, {"Comcast Xfinity", "xfinity.com", "en", "USD", false},
	{"O2", "o2online.de", "de", "EUR", true}, {"Hausverwaltung Berger", "berger-immobilien.de", "de", "EUR", false},
}

var products = []string{"Running shoes", "Wool coat", "Coffee grinder", "USB-C charger", "Desk lamp",
	"Camping stove", "Paperback novel", "Noise-cancelling headphones", "Yoga mat", "Cast iron pan"}

// Generate writes the synthetic mails with a fixed seed: nOrders order
// sequences, nBills bill sequences and nDistractors distractors, each
// order and bill mail in one of the four renderings in turn.
func Generate(seed uint64, nOrders, nBills, nDistractors int) Synthetic {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), base: time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)}
	var s Synthetic
	for i := range nOrders {
		g.order(&s, i)
	}
	for i := range nBills {
		g.bill(&s, i)
	}
	for i := range nDistractors {
		g.distractor(&s, i)
	}
	return s
}

type gen struct {
	r    *rand.Rand
	base time.Time
	n    int
}

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) amount() string {
	return fmt.Sprintf("%d.%02d", 5+g.r.IntN(400), g.r.IntN(100))
}

// tracking makes a tracking number of a carrier with a valid check digit.
func (g *gen) tracking() (carrier, number string) {
	for {
		var s string
		switch g.pick(4) {
		case 0:
			s = fmt.Sprintf("1Z%03dAA1%010d", g.r.IntN(1000), g.r.Int64N(1e10))[:18]
		case 1:
			s = fmt.Sprintf("%012d", g.r.Int64N(1e12))
		case 2:
			s = fmt.Sprintf("%010d", g.r.Int64N(1e10))
		default:
			s = fmt.Sprintf("9400%018d", g.r.Int64N(1e18))[:22]
		}
		if c, ok := extract.TrackingCarrier(s); ok {
			return c, s
		}
	}
}

func (g *gen) order(s *Synthetic, i int) {
	sh := shops[i%len(shops)]
	seq := fmt.Sprintf("order-%03d", i)
	number := fmt.Sprintf("%d%07d", 10+g.pick(89), g.r.IntN(1e7))
	if g.pick(3) == 0 {
		number = fmt.Sprintf("%c%c-%06d", 'A'+rune(g.pick(26)), 'A'+rune(g.pick(26)), g.r.IntN(1e6))
	}
	total := g.amount()
	item := products[g.pick(len(products))]
	carrier, track := g.tracking()
	steps := []string{"ordered", "shipped", "delivered"}
	switch g.pick(5) {
	case 0:
		steps = []string{"ordered", "cancelled"}
	case 1:
		steps = []string{"ordered", "shipped"}
	case 2:
		steps = []string{"ordered"}
	}
	day := g.base.Add(time.Duration(g.r.IntN(80*24)) * time.Hour)
	for k, st := range steps {
		o := orderMail{shop: sh, number: number, total: total, item: item, status: st, carrier: carrier, tracking: track,
			date: day.Add(time.Duration(k*30+g.pick(20)) * time.Hour)}
		rendering := renderings[(i+k)%len(renderings)]
		s.Mails = append(s.Mails, Mail{Name: fmt.Sprintf("%s-%d-%s-%s", seq, k, st, rendering), Raw: o.render(rendering, g), Sequence: seq, Step: k})
	}
	final := steps[len(steps)-1]
	f := map[string]string{"domain": sh.domain, "number": number, "status": final,
		"total": total + " " + sh.currency, "verified": fmt.Sprint(sh.auth)}
	if final == "shipped" || final == "delivered" {
		f["tracking"] = track
		f["carrier"] = carrier
	}
	s.Expected = append(s.Expected, Entity{Kind: extract.KindOrder, Key: number, Fields: f})
}

type orderMail struct {
	shop                        shop
	number, total, item, status string
	carrier, tracking           string
	date                        time.Time
}

var schemaOrderStatus = map[string]string{"ordered": "OrderProcessing", "shipped": "OrderInTransit", "delivered": "OrderDelivered", "cancelled": "OrderCancelled"}

func (o orderMail) subject() string {
	de := o.shop.lang == "de"
	fr := o.shop.lang == "fr"
	switch o.status {
	case "shipped":
		return pick3(de, fr, "Deine Bestellung "+o.number+" ist unterwegs", "Votre commande "+o.number+" a été expédiée", "Your order "+o.number+" has shipped")
	case "delivered":
		return pick3(de, fr, "Deine Bestellung wurde zugestellt", "Votre commande a été livrée", "Your package has been delivered")
	case "cancelled":
		return pick3(de, fr, "Stornierung deiner Bestellung "+o.number, "Annulation de votre commande "+o.number, "Your order "+o.number+" has been cancelled")
	}
	return pick3(de, fr, "Vielen Dank für deine Bestellung", "Confirmation de votre commande "+o.number, "Thanks for your order!")
}

func pick3(de, fr bool, a, b, c string) string {
	switch {
	case de:
		return a
	case fr:
		return b
	}
	return c
}

// lines is the labelled text of an order mail, in the shop's language.
func (o orderMail) lines() []string {
	de, fr := o.shop.lang == "de", o.shop.lang == "fr"
	amount := money(o.total, o.shop.currency, o.shop.lang)
	var out []string
	switch o.status {
	case "ordered":
		out = append(out, pick3(de, fr, "Hallo, wir haben deine Bestellung erhalten.", "Bonjour, nous avons bien reçu votre commande.", "Hi, we've received your order and are getting it ready."))
	case "shipped":
		out = append(out, pick3(de, fr, "Gute Nachrichten: dein Paket ist auf dem Weg.", "Bonne nouvelle : votre colis est en route.", "Good news: your package is on its way."))
	case "delivered":
		out = append(out, pick3(de, fr, "Dein Paket wurde heute zugestellt.", "Votre colis a été livré aujourd'hui.", "Your package was delivered today."))
	case "cancelled":
		out = append(out, pick3(de, fr, "Deine Bestellung wurde storniert. Der Betrag wird erstattet.", "Votre commande a été annulée. Vous serez remboursé.", "Your order has been cancelled and you will be refunded."))
	}
	out = append(out, pick3(de, fr, "Bestellnummer: ", "Numéro de commande : ", "Order number: ")+o.number)
	out = append(out, pick3(de, fr, "Artikel: ", "Article : ", "Item: ")+o.item)
	if o.status == "ordered" || o.status == "cancelled" {
		out = append(out, pick3(de, fr, "Gesamtsumme: ", "Total : ", "Order total: ")+amount)
	}
	if o.status == "shipped" || o.status == "delivered" {
		out = append(out, pick3(de, fr, "Versand mit: ", "Transporteur : ", "Carrier: ")+o.carrier)
		out = append(out, pick3(de, fr, "Sendungsnummer: ", "Numéro de suivi : ", "Tracking number: ")+o.tracking)
	}
	out = append(out, pick3(de, fr, "Viele Grüße, dein "+o.shop.name+" Team", "À bientôt, l'équipe "+o.shop.name, "Thanks for shopping with "+o.shop.name+"."))
	return out
}

func money(amount, currency, lang string) string {
	if lang == "de" || lang == "fr" {
		amount = strings.Replace(amount, ".", ",", 1)
		if currency == "EUR" {
			return amount + " €"
		}
		return amount + " " + currency
	}
	switch currency {
	case "USD":
		return "$" + amount
	case "GBP":
		return "£" + amount
	}
	return amount + " " + currency
}

func (o orderMail) render(how string, g *gen) []byte {
	ctype, body := renderBody(how, o.jsonLD(), o.microdata(), o.lines())
	return message(o.shop, "orders", o.subject(), o.date, ctype, body, g)
}

// renderBody writes one fact the way how names: its JSON-LD or microdata
// beside the visible lines, the lines alone as an HTML table, or plain
// text.
func renderBody(how, jsonLD, microdata string, lines []string) (ctype, body string) {
	switch how {
	case "jsonld":
		return "text/html", "<html><head><script type=\"application/ld+json\">" + jsonLD + "</script></head><body>" + htmlLines(lines) + "</body></html>"
	case "microdata":
		return "text/html", "<html><body>" + microdata + htmlLines(lines) + "</body></html>"
	case "html":
		return "text/html", "<html><body><table>" + htmlTable(lines) + "</table></body></html>"
	}
	return "text/plain", strings.Join(lines, "\n") + "\n"
}

func (o orderMail) jsonLD() string {
	order := fmt.Sprintf(`{"@type": "Order", "merchant": {"@type": "Organization", "name": %q}, "orderNumber": %q, "orderStatus": "http://schema.org/%s", "priceCurrency": %q, "price": %q, "acceptedOffer": {"@type": "Offer", "itemOffered": {"@type": "Product", "name": %q}}}`,
		o.shop.name, o.number, schemaOrderStatus[o.status], o.shop.currency, o.total, o.item)
	if o.status == "shipped" || o.status == "delivered" {
		return fmt.Sprintf(`{"@context": "http://schema.org", "@type": "ParcelDelivery", "carrier": {"@type": "Organization", "name": %q}, "trackingNumber": %q, "deliveryStatus": "http://schema.org/%s", "partOfOrder": %s}`,
			o.carrier, o.tracking, map[string]string{"shipped": "OrderInTransit", "delivered": "OrderDelivered"}[o.status], order)
	}
	return `{"@context": "http://schema.org", ` + order[1:]
}

func (o orderMail) microdata() string {
	order := fmt.Sprintf(`<div itemprop="partOfOrder" itemscope itemtype="http://schema.org/Order"><div itemprop="merchant" itemscope itemtype="http://schema.org/Organization"><meta itemprop="name" content=%q/></div><meta itemprop="orderNumber" content=%q/><link itemprop="orderStatus" href="http://schema.org/%s"/><meta itemprop="priceCurrency" content=%q/><meta itemprop="price" content=%q/></div>`,
		o.shop.name, o.number, schemaOrderStatus[o.status], o.shop.currency, o.total)
	if o.status == "shipped" || o.status == "delivered" {
		return fmt.Sprintf(`<div itemscope itemtype="http://schema.org/ParcelDelivery"><div itemprop="carrier" itemscope itemtype="http://schema.org/Organization"><meta itemprop="name" content=%q/></div><meta itemprop="trackingNumber" content=%q/>%s</div>`,
			o.carrier, o.tracking, order)
	}
	return strings.Replace(order, ` itemprop="partOfOrder"`, "", 1)
}

func htmlLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("<p>" + htmlEscape(l) + "</p>\n")
	}
	return b.String()
}

// htmlTable renders "Label: value" lines as two cells, as shops' HTML
// mails do.
func htmlTable(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if k, v, ok := strings.Cut(l, ": "); ok && len(k) < 30 {
			b.WriteString("<tr><td style=\"color:#666\">" + htmlEscape(strings.TrimSpace(k)) + "</td><td><b>" + htmlEscape(v) + "</b></td></tr>\n")
			continue
		}
		b.WriteString("<tr><td colspan=\"2\">" + htmlEscape(l) + "</td></tr>\n")
	}
	return b.String()
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// message wraps a body in RFC 5322 headers, with the evaluation
// provider's Authentication-Results: dmarc=pass for senders that sign,
// none for those that do not.
func message(sh shop, local, subject string, date time.Time, ctype, body string, g *gen) []byte {
	g.n++
	auth := fmt.Sprintf("%s; dkim=pass header.d=%s; spf=pass smtp.mailfrom=%s; dmarc=pass header.from=%s", AuthServID, sh.domain, sh.domain, sh.domain)
	if !sh.auth {
		auth = fmt.Sprintf("%s; dkim=none; spf=none smtp.mailfrom=%s; dmarc=none", AuthServID, sh.domain)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Authentication-Results: %s\r\n", auth)
	fmt.Fprintf(&b, "From: %s <%s@%s>\r\n", sh.name, local, sh.domain)
	b.WriteString("To: Alex Morgan <alex@eval.example>\r\n")
	fmt.Fprintf(&b, "Subject: %s\r\n", subject)
	fmt.Fprintf(&b, "Date: %s\r\n", date.Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <eval-%05d@%s>\r\n", g.n, sh.domain)
	fmt.Fprintf(&b, "MIME-Version: 1.0\r\nContent-Type: %s; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n", ctype)
	b.WriteString(strings.ReplaceAll(body, "\n", "\r\n"))
	return []byte(b.String())
}

// AuthServID is the evaluation mailbox's provider.
const AuthServID = "mx.eval.example"
