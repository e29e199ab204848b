package extract_test

import (
	"testing"
	"time"
)

// TestOrderYouBought: a marketplace's "you bought" mail ("Você comprou",
// "Compraste", "Hai acquistato") over the order's number after "#" and
// its total is an order placed, in Portuguese, Spanish and Italian; a
// promotion with neither number nor total is none.
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
