package extract_test

import (
	"testing"
	"time"
)

// TestPickupWithWordsBetween: a parcel waiting at a locker or a pickup
// point is delivered there, however the notice words it: the seventh
// outside set's marketplace notice ("Ihr Paket ist in der Packstation …
// zur Abholung für Sie bereit", a refund if not collected after it) was
// read as returned. The pickup point named, or words between the phrase's
// own, in every language a pickup's words are kept in (status.delivered).
func TestPickupWithWordsBetween(t *testing.T) {
	for _, c := range []struct {
		from, subject, text, want string
	}{
		{"Kaufhalle <versand@kaufhalle.example>", "Neuigkeiten zu deiner Bestellung",
			"Hallo Jonas,\ndein Paket ist in der Packstation 145 und ist bis zum 22. Oktober zur Abholung für dich bereit.\nAbholcode: 483920\nBestellnummer: 304-5518207-1143\nWird das Paket nicht rechtzeitig abgeholt, geht es zurück an den Verkäufer und du erhältst eine Erstattung.\n", "304-5518207-1143 delivered"},
		{"Kaufhalle <versand@kaufhalle.example>", "Neuigkeiten zu deiner Bestellung",
			"Hallo Jonas,\ndein Paket liegt in der Packstation 145.\nBestellnummer: 304-5518207-1144\n", "304-5518207-1144 delivered"},
		{"Harbour Goods <orders@harbourgoods.example>", "An update on your order",
			"Hi Sam,\nyour parcel has arrived at your pickup point and is ready to be picked up until Friday.\nOrder number: HG-55120\n", "HG-55120 delivered"},
		{"Grand Bazar <livraison@grandbazar.example>", "Du nouveau pour votre commande",
			"Bonjour,\nvotre colis est arrivé dans la consigne Gare Part-Dieu : il peut être retiré jusqu'au 23 octobre.\nNuméro de commande : GB-40-88413\n", "GB-40-88413 delivered"},
		{"Tienda Sol <envios@tiendasol.example>", "Novedades de tu pedido",
			"Hola,\ntu paquete ha llegado al punto de recogida Kiosco Sol y ya puedes recogerlo.\nNúmero de pedido: TS-77120\n", "TS-77120 delivered"},
		{"Bottega Blu <spedizioni@bottegablu.example>", "Aggiornamento sul tuo ordine",
			"Ciao,\nil tuo pacco è arrivato al punto di ritiro Edicola Centrale: puoi ritirarlo entro 7 giorni.\nNumero ordine: BB-30918\n", "BB-30918 delivered"},
		{"Kooplokaal <bezorging@kooplokaal.example>", "Nieuws over je bestelling",
			"Hoi Sanne,\nje pakket ligt voor je klaar bij Boekhandel De Ster.\nBestelnummer: KL-2026-55121\n", "KL-2026-55121 delivered"},
		{"Targowisko <sklep@targowisko.example>", "Aktualizacja zamówienia",
			"Cześć,\nTwoja paczka dotarła do paczkomatu WAW22A, możesz ją odebrać do piątku.\nNumer zamówienia: TG-55121\n", "TG-55121 delivered"},
		{"Loja Rio <envios@lojario.example>", "Novidades da sua encomenda",
			"Olá,\na sua encomenda chegou ao ponto de recolha Papelaria Rio e já pode levantar.\nNúmero da encomenda: LR-44120\n", "LR-44120 delivered"},
		// A pickup to come is a parcel on its way.
		{"Harbour Goods <orders@harbourgoods.example>", "An update on your order",
			"Hi Sam,\nyour parcel has shipped. It will be ready to be picked up at your locker on Friday.\nOrder number: HG-55121\n", "HG-55121 shipped"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 15, 10, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil {
				got = o.Number + " " + o.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.text[:40], got, c.want)
		}
	}
}
