package extract_test

import (
	"testing"
	"time"
)

// TestUnaccentedStatus: mail written without its language's accents
// says its state all the same ("a ete livre", "zostala doreczona",
// "Numer przesylki"), and a parcel's history under its newest step is
// older than it: out for delivery below "was delivered" is no state of
// the parcel now (foreign-5's Chronopost notice).
func TestUnaccentedStatus(t *testing.T) {
	for _, c := range []struct{ from, subject, text, want string }{
		{"Colis Horizon <suivi@colishorizon.example>", "Suivi de votre envoi",
			"Votre colis a ete livre ce matin.\nHistorique :\n- En cours de livraison\n- Pris en charge\n\nNumero de suivi : CH88120447FR\n",
			"CH88120447FR delivered"},
		{"Kurier Sokol <info@kuriersokol.example>", "Informacja o przesylce",
			"Twoja przesylka zostala doreczona dzisiaj.\nHistoria przesylki:\nWydana do doreczenia\nNadana\n\nNumer przesylki: 5512044190\n",
			"5512044190 delivered"},
		{"Rychla Zasilka <info@rychla.example>", "Stav zasilky",
			"Vase zasilka byla dorucena.\nHistorie zasilky:\nPredana k doruceni\n\nCislo zasilky: RZ77120447CZ\n",
			"RZ77120447CZ delivered"},
		{"Swiftline <updates@swiftline.example>", "Update on your parcel",
			"Your parcel was delivered at 12:19.\n\nTracking history\nOut for delivery\nCollected from the sender\n\nParcel number: SWL5530214455\n",
			"SWL5530214455 delivered"},
		// No state above the history: the history is read as before.
		{"Swiftline <updates@swiftline.example>", "Update on your parcel",
			"Hello,\n\nTracking history\nOut for delivery\nCollected from the sender\n\nParcel number: SWL5530214456\n",
			"SWL5530214456 out_for_delivery"},
		{"Mensajeria Rayo <envios@rayo.example>", "Actualizacion de tu envio",
			"Tu paquete ha salido de nuestro almacen y llegara manana.\n\nNumero de seguimiento: MR5519203344ES\n",
			"MR5519203344ES shipped"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 11, 15, 12, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil && len(o.Shipments) == 1 {
				got = o.Shipments[0].Tracking + " " + o.Shipments[0].Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.text[:24], got, c.want)
		}
	}
}

// TestUnaccentedBill: a bill's words, labels and currency written
// without their marks ("Castka k uhrade", "Kc", "platbu sme prijali").
func TestUnaccentedBill(t *testing.T) {
	for _, c := range []struct{ from, subject, text, want string }{
		{"Energie <fakturace@energie.example>", "Vyuctovani za listopad",
			"Cislo faktury: 2027110447\nCastka k uhrade: 1 284,00 Kc\nDatum splatnosti: 17. 12. 2027\n", "1284.00 CZK due"},
		{"Tele <platby@tele.example>", "Platba prijata",
			"Vasu platbu sme prijali. Dakujeme.\nCislo faktury: TS-88120\nSuma: 19,90 EUR\n", "19.90 EUR paid"},
		{"Sklep <sklep@sklep.example>", "Potwierdzenie", "Do zaplaty: 143,97 zl\nNumer faktury: FV/2027/12/4\nTermin platnosci: 10.12.2027\n", "143.97 PLN due"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 12, 3, 9, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Amount.Amount + " " + b.Amount.Currency + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
