package extract_test

import (
	"testing"
	"time"
)

// Proves M3 of the ninth outside review (2026-11-29) is fixed: a shop's
// own reassurance that an order was NOT cancelled, in every language the
// review tried and the others status.not speaks, is no cancellation, and a
// delivery the carrier reported but the person did not receive is no
// delivery. Before, negation was honoured for shipped and delivered only
// (statusIn), and a cancellation always applies in Merge: the shop's
// reassurance cancelled the order it spoke of.
func TestReview9NotCancelledIsNoCancellation(t *testing.T) {
	for _, c := range []struct{ from, subject, text string }{
		{"Shop <orders@kaffee-shop.example>", "Order 448812: update", "Hello Alex,\n\nYour order 448812 has not been cancelled. It will ship tomorrow.\nOrder total: $42.00\n"},
		{"Shop <orders@kaffee-shop.example.de>", "Bestellung 448812", "Hallo Alex,\n\nIhre Bestellung 448812 wurde nicht storniert, sie wird morgen versandt.\nGesamtbetrag: 42,00 EUR\n"},
		{"Shop <orders@tienda.example.es>", "Pedido 448812", "Hola Alex,\n\nTu pedido 448812 no ha sido cancelado, se enviara manana.\nTotal: 42,00 EUR\n"},
		{"Shop <orders@obchod.example.cz>", "Objednavka 448812", "Dobry den,\n\nVase objednavka 448812 nebyla zrusena, odesleme ji zitra.\nCelkem: 420 Kc\n"},
		{"Shop <orders@sklep.example.pl>", "Zamowienie 448812", "Dzien dobry,\n\nTwoje zamowienie 448812 nie zostalo anulowane. Wyslemy je jutro.\nRazem: 42,00 zl\n"},
		{"Shop <orders@boutique.example.fr>", "Commande 448812", "Bonjour Alex,\n\nVotre commande 448812 n'a pas été annulée, elle sera expédiée demain.\nTotal : 42,00 EUR\n"},
		{"Shop <orders@negozio.example.it>", "Ordine 448812", "Ciao Alex,\n\nil tuo ordine 448812 non è stato annullato, sarà spedito domani.\nTotale: 42,00 EUR\n"},
		{"Shop <orders@winkel.example.nl>", "Bestelling 448812", "Hallo Alex,\n\nJe bestelling 448812 is niet geannuleerd, we verzenden hem morgen.\nTotaal: 42,00 EUR\n"},
		{"Shop <orders@loja.example.pt>", "Pedido 448812", "Olá Alex,\n\no seu pedido 448812 não foi cancelado, será enviado amanhã.\nTotal: 42,00 EUR\n"},
		{"Shop <orders@shop.example.jp>", "ご注文番号: 448812", "ご注文番号: 448812\n\nご注文はキャンセルされていません。\n合計: ¥4,200\n"},
		{"Shop <orders@shop.example.kr>", "주문번호: 448812", "주문번호: 448812\n\n주문은 취소되지 않았습니다.\n합계: ₩42,000\n"},
		{"Shop <orders@shop.example.cn>", "订单号: 448812", "订单号: 448812\n\n您的订单没有取消。\n合计: ¥42.00\n"},
	} {
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)) {
			if f.Order != nil && f.Order.Status == "cancelled" {
				t.Errorf("%s: %q is a cancellation", c.from, c.text)
			}
		}
	}
}

// Proves M3's second half: "reported as delivered but you did not receive
// it" is no delivery (it is the person's problem with the parcel).
func TestReview9ReportedDeliveredNotReceived(t *testing.T) {
	for _, text := range []string{
		"Hello Alex,\n\nYour order 448812 was reported as delivered, but you did not receive it. Here is what to do.\nOrder total: $42.00\n",
		"Hello Alex,\n\nWe're sorry your order 448812 was marked as delivered but never arrived.\nOrder total: $42.00\n",
	} {
		for _, f := range mailFacts("Shop <orders@kaffee-shop.example>", "Order 448812: about your delivery", text, time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)) {
			if f.Order != nil && f.Order.Status == "delivered" {
				t.Errorf("%q is a delivery", text)
			}
		}
	}
	// A contrast that denies something else is no denial of the
	// delivery.
	for _, text := range []string{
		"Hello Alex,\n\nYour order 448812 was delivered, but no signature was needed.\nOrder total: $42.00\n",
		"Hallo Alex,\n\nIhre Bestellung 448812 wurde zugestellt, aber nicht an der Haustür, sondern beim Nachbarn.\nGesamt: 42,00 €\n",
	} {
		delivered := false
		for _, f := range mailFacts("Shop <orders@kaffee-shop.example>", "About your order 448812", text, time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)) {
			delivered = delivered || f.Order != nil && f.Order.Status == "delivered"
		}
		if !delivered {
			t.Errorf("%q is no delivery", text)
		}
	}
}
