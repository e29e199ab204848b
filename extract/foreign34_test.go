package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract/carriers"
)

// Classes the outside set foreign-34 found (issue 46, 2026-12-03),
// proved with other senders and words than its mails.

// TestOwnLabelledTracking: in a carrier's own notice the number under
// its tracking label is the parcel's, whatever its form, though another
// number beside it (a shipper's reference) passes another carrier's check
// by chance.
func TestOwnLabelledTracking(t *testing.T) {
	const reference = "44712090000030805834" // a USPS form by chance
	if ms := carriers.Identify(reference, ""); len(ms) == 0 || !ms[0].Checked {
		t.Fatalf("the reference %s passes no check: the test proves nothing", reference)
	}
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text, tracking, carrier string
	}{
		{"a reference after the number",
			"Hermes <noreply@myhermes.de>", "Dein Paket kommt heute",
			"Deine Paketinfos\n\n*Sendungsnummer*\nH1004930217520 ( https://myhermes.de/t )  (Referenz: " + reference + "-112) ( https://myhermes.de/r )\n\n*Absender*\nGartenwelt GmbH\n",
			"H1004930217520", "Hermes"},
		{"a reference lines below",
			"DPD <noreply@dpd.de>", "Ihr Paket ist unterwegs",
			"Paketnummer: 70412258839\nVoraussichtliche Zustellung: heute\n\nAuftragsreferenz " + reference + "\n",
			"70412258839", "DPD"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tracking, carrier string
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				if f.Order != nil && len(f.Order.Shipments) > 0 {
					tracking, carrier = f.Order.Shipments[0].Tracking, f.Order.Shipments[0].Carrier
				}
			}
			if tracking != tt.tracking || carrier != tt.carrier {
				t.Errorf("tracking %q by %q, want %q by %q", tracking, carrier, tt.tracking, tt.carrier)
			}
		})
	}
}

// TestAmountlessChargeDue: a notice of a charge (a fee, rent, an
// instalment) that asks it to be paid or debited by a day and leaves its
// amount out is a bill due by that day; a tariff's change announced, a
// charge paid on a day before the mail, a charge paid are none.
func TestAmountlessChargeDue(t *testing.T) {
	sent := time.Date(2027, 2, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text, due string
	}{
		{"rent by a day", "Harbour Lettings <office@harbourlettings.example>", "Rent for March",
			"Dear tenant,\n\nPlease note that your rent for March is to be paid no later than 3 March 2027.\n\nKind regards\nHarbour Lettings\n", "2027-03-03"},
		{"a semester's fee debited", "Hochschule Nord <kasse@hs-nord.example>", "Semesterbeitrag Sommersemester 2027",
			"Liebe Studierende,\n\nder Semesterbeitrag für das Sommersemester wird ab dem 01.03.2027 von Ihrem Konto abgebucht.\n\nIhre Hochschulkasse\n", "2027-03-01"},
		{"a club's dues", "Club Nautique <tresorier@club-nautique.example>", "Cotisation annuelle 2027",
			"Bonjour à tous,\n\nLa cotisation annuelle 2027 est à régler avant le 15 mars 2027 auprès du trésorier.\n\nLe bureau\n", "2027-03-15"},
		{"an instalment by a day", "Academia Sol <admin@academiasol.example>", "Recordatorio: cuota de marzo",
			"Hola,\nle recordamos que la cuota de marzo debe pagar antes del 05/03/2027.\nGracias\n", "2027-03-05"},
		{"a tariff announced", "Nordbank <news@nordbank.example>", "Changes to our fees",
			"Dear customer,\nWe are updating our account fees. New fees will be charged from 1 March 2027.\n", ""},
		{"a fee's change in the sentence", "Harbour Lettings <office@harbourlettings.example>", "Rent for 2027",
			"Dear tenant,\nThe rent increase will be due from 1 April 2027.\n", ""},
		{"paid before the mail", "Harbour Lettings <office@harbourlettings.example>", "Rent receipt",
			"Hello,\nYour rent for February was paid on 1 February 2027. Thank you.\n", ""},
		{"waived", "Harbour Lettings <office@harbourlettings.example>", "Rent for March",
			"The rent for March no longer needs to be paid no later than 3 March 2027: it is waived.\n", ""},
		{"asked", "Harbour Lettings <office@harbourlettings.example>", "Rent for March",
			"Could you tell us whether the rent is to be paid no later than 3 March 2027?\n", ""},
		{"quoted in a reply", "Sam Lee <sam@lee-family.example>", "Re: Rent for March",
			"> Please note that your rent for March is to be paid no later than 3 March 2027.\n\nThanks, noted.\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				if f.Bill != nil && f.Bill.Status == "due" && f.Bill.Due != nil {
					got = f.Bill.Due.Format("2006-01-02")
				}
			}
			if got != tt.due {
				t.Errorf("due %q, want %q", got, tt.due)
			}
		})
	}
}

// TestNumberlessNotice: a notice whose subject names an order or a
// parcel and its state, and whose text speaks of goods sent or
// collected, is an order's though it prints no number; a state or a noun
// alone, or an order of no goods (a server's), is none.
func TestNumberlessNotice(t *testing.T) {
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text, want string
	}{
		{"shipped, Spanish", "Librería Norte <pedidos@librerianorte.example>", "Tu pedido ha sido enviado",
			"Hola Marta,\nTu pedido ya está en camino. Dirección de entrega: Calle Mayor 5, 28013 Madrid.\nGracias por tu compra.\n", "shipped"},
		{"a parcel on its way, Dutch", "Fietsplaza <info@fietsplaza.example>", "Je pakket is onderweg",
			"Hoi Sam,\nJe pakket is onderweg en wordt morgen bezorgd op je bezorgadres.\n2 artikelen\n", "shipped"},
		{"ordered, German", "Hofladen Berger <shop@hofladen-berger.example>", "Vielen Dank für Ihre Bestellung",
			"Guten Tag,\nwir haben Ihre Bestellung erhalten. Liefertermin: Donnerstag, 4. März.\n3 Artikel\n", "ordered"},
		{"a cart's reminder", "Modehaus <news@modehaus.example>", "Dein Warenkorb wartet auf dich",
			"Hallo,\ndie Artikel in deinem Warenkorb sind fast ausverkauft. Versandkostenfrei ab 50 €.\n", ""},
		{"a state without an order's noun", "Bäckerei Korn <hallo@baeckerei-korn.example>", "Frisch geliefert: heute vor Ihrer Tür",
			"Guten Morgen,\nunser Brot wird heute geliefert. Lieferung ab 7 Uhr.\n", ""},
		{"an order of no goods", "Cloudhost <sales@cloudhost.example>", "Your order at Cloudhost",
			"Dear customer,\nthank you for ordering. Your order:\n1 x vServer M\nPayment method: credit card\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				if f.Order != nil {
					got = f.Order.Status
				}
			}
			if got != tt.want {
				t.Errorf("order %q, want %q", got, tt.want)
			}
		})
	}
}

// TestAmountlessChargeDueCost: a line of thousands of days under a
// charge's subject is read in time linear in its length (each day's
// clause read within 200 bytes of it); it took minutes at 120 KB when
// each day read the line before it (the review of 2026-12-03).
func TestAmountlessChargeDueCost(t *testing.T) {
	text := "Dear tenant,\nrent to be paid " + strings.Repeat("03/03/2027 ", 10000) + "\n"
	start := time.Now()
	mailFacts("Harbour Lettings <office@harbourlettings.example>", "Rent for March", text, time.Date(2027, 2, 20, 9, 0, 0, 0, time.UTC))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("a 110 KB line of days took %v", d)
	}
}
