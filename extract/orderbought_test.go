package extract_test

import (
	"testing"
	"time"
)

// TestOrderYouBought: a marketplace's "you bought" mail ("Você comprou",
// "Compraste", "Hai acquistato") over the order's number after "#" and
// its total is an order placed, in Portuguese, Spanish and Italian; a
// promotion with neither number nor total is none. Their kin in French,
// German, Dutch and Polish ("Vous avez acheté", "Du hast gekauft", "Je hebt
// gekocht", "Kupiłeś") and German's "Gesamt:" total.
func TestOrderYouBought(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // number, status and total
	}{
		{"Feira Digital <compras@feiradigital.example.com.br>", "Você comprou Cafeteira Elétrica 30 xícaras",
			"Olá, Beatriz!\n\nPedido #7719002214\nCafeteira Elétrica 30 xícaras\t1 unidade\tR$ 189,90\nFrete\tR$ 15,00\nValor total\tR$ 204,90\nPagamento: Pix\n\nGanhe 10% de cashback na próxima compra com o cupom VOLTA10.\n",
			"7719002214 ordered 204.90 BRL"},
		{"Tienda Azul <ventas@tiendaazul.example.com.mx>", "Compraste Audífonos inalámbricos",
			"¡Hola, Andrés!\n\nPedido #2002345511\nAudífonos inalámbricos\t1 unidad\t$1,149.00\nEnvío\t$150.00\nTotal\t$1,299.00\nPago: tarjeta de débito\n",
			"2002345511 ordered 1299.00 MXN"},
		{"Bottega Rossi <ordini@bottegarossi.example.it>", "Hai acquistato: Lampada da tavolo LED",
			"Ciao Giulia,\n\nOrdine #BR-88120451\nLampada da tavolo LED\t1 pz.\t34,90 €\nSpedizione\t5,00 €\nTotale: 39,90 €\n\nIscriviti alla newsletter: 5 € di sconto sul prossimo ordine.\n",
			"BR-88120451 ordered 39.90 EUR"},
		{"Brocante Lumière <ventes@brocantelumiere.example.fr>", "Vous avez acheté : Miroir doré ancien",
			"Bonjour Claire,\n\nCommande n° BL-77120\nMiroir doré ancien\t1\t145,00 €\nLivraison\t12,00 €\nTotal : 157,00 €\n",
			"BL-77120 ordered 157.00 EUR"},
		{"Kramladen <verkauf@kramladen.example.de>", "Du hast gekauft: Vintage-Plattenspieler",
			"Hallo Tom,\n\nBestellung Nr. KL-30551\nVintage-Plattenspieler\t1 x 119,00 €\nVersand\t6,90 €\nGesamt: 125,90 €\n",
			"KL-30551 ordered 125.90 EUR"},
		{"Tweedehands Markt <verkoop@tweedehandsmarkt.example.nl>", "Je hebt gekocht: Eikenhouten bijzettafel",
			"Hoi Sanne,\n\nBestelling #TM-60218\nEikenhouten bijzettafel\t1 x € 75,00\nVerzending\t€ 6,95\nTotaal: € 81,95\n",
			"TM-60218 ordered 81.95 EUR"},
		{"Targowisko <sprzedaz@targowisko.example.pl>", "Kupiłeś: Lampa biurkowa LED",
			"Cześć Marek,\n\nZamówienie nr TG-44120\nLampa biurkowa LED\t1 szt.\t149,00 zł\nDostawa\t9,99 zł\nRazem: 158,99 zł\n",
			"TG-44120 ordered 158.99 PLN"},
		// A promotion: no order's number.
		{"Feira Digital <ofertas@feiradigital.example.com.br>", "Você comprou e ganhou cashback!",
			"Aproveite: 10% de volta em todas as compras acima de R$ 100,00 até domingo.\n", ""},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 4, 10, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil {
				got = o.Number + " " + o.Status
				if o.Total != nil {
					got += " " + o.Total.Amount + " " + o.Total.Currency
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
